"""The "Does it matter?" section, written from the study's tables: every sentence states a number of
the tables, and which way it goes decides the sentence (nothing in it is typed by hand).

A stratifier *changes the error* of a measure where its paired test against the baseline (two-sided
Wilcoxon over the (dataset, m) blocks, Holm-corrected) is significant in a (k, learner) setting; the
section counts such settings and gives the median RMSE ratio to the baseline.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def _pct(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:+.1f}%"


def _gain(x: float) -> str:
    return "∞ (no split variance: the seed is ignored)" if np.isinf(x) else ("n/a" if np.isnan(x) else f"{x:.2f}")


def _median(values) -> float:
    values = np.asarray(values, dtype=float)
    finite = values[~np.isnan(values)]
    return float(np.median(finite)) if finite.size else float("nan")


def verdict(errors: pd.DataFrame, choices: pd.DataFrame, paired: pd.DataFrame, tests: pd.DataFrame,
            baseline: str, setup: dict, alpha: float = 0.05) -> str:
    """Markdown of the section; ``setup`` names the datasets, sizes, samples, repeats, ks, learners."""
    stratifiers = [s for s in dict.fromkeys(errors["stratifier"]) if s != baseline]
    lines = ["## Does it matter?", "",
             f"Datasets: {', '.join(setup['datasets'])}; development samples of m ∈ {setup['sizes']} rows, "
             f"R = {setup['samples']} per size, J = {setup['repeats']} CV repeats each, k ∈ {setup['ks']}; "
             f"learners: {', '.join(setup['learners'])}; baseline: `{baseline}`. The truth of a sample is its "
             "learner's score on the rows left out of it (docs/ALGORITHMS.md §12). A stratifier *changes the "
             f"error* where its paired test against `{baseline}` (Wilcoxon over the (dataset, m) blocks, Holm) "
             f"is significant at α = {alpha}.", ""]

    changed = paired["significant"]
    better = int((changed & (paired["wins"] > paired["losses"])).sum())
    worse = int((changed & (paired["losses"] > paired["wins"])).sum())
    base = errors[errors["stratifier"] == baseline]
    share = _median(base["split_variance"] / base["rmse"] ** 2)  # of the baseline's squared error, the split's
    agree = choices.groupby("stratifier", sort=False)["agreement"].mean() if len(choices) else None
    spread = (f" CV picks the truth's best learner in {100 * agree.min():.1f}–{100 * agree.max():.1f}% of the draws "
              "whatever the stratifier." if agree is not None else "")
    blocks = int(paired["blocks"].max()) if len(paired) else 0
    floor = 2.0 / 2 ** blocks if blocks else 1.0  # the smallest two-sided p of the signed-rank test on that many blocks
    power = (f" With {blocks} (dataset, m) blocks no paired test can be significant: its smallest p is {floor:.3f}."
             if floor >= alpha else "")
    lines += [f"**In short:** stratifying lowers the RMSE against the truth significantly in {better} and raises it in "
              f"{worse} of the {len(paired)} (stratifier, k, learner, measure) settings; the split's variance is a median "
              f"{100 * share:.0f}% of random k-fold's squared error, so a split can remove at most that share.{spread}"
              f"{power}", ""]

    lines += ["### The split's variance", ""]
    lines.append(f"For `{baseline}`, the variance due to the split is a median {100 * share:.1f}% of one CV's "
                 "squared error against the truth: the rest is bias and the development sample's own "
                 "luck, which no split can remove.")
    lines.append("")
    lines.append("| stratifier | sample gain (median) | distinct test sets (of J·k, median) |")
    lines.append("|---|---|---|")
    for s in [baseline, *stratifiers]:
        part = errors[errors["stratifier"] == s]
        distinct = _median(part["distinct_test_sets"] / part["test_sets"])
        lines.append(f"| {s} | {_gain(_median(part['sample_gain']))} | {100 * distinct:.0f}% |")
    lines.append("")
    lines.append(f"The sample gain is how many `{baseline}` CV repeats give the split variance of one CV of the "
                 "stratifier (median over blocks, learners, measures and k).")
    fixed = [s for s in stratifiers if np.isinf(_median(errors[errors["stratifier"] == s]["sample_gain"]))]
    if fixed:
        lines.append(f"{', '.join(f'`{s}`' for s in fixed)} ignores its seed: every repeat is the same split, so its "
                     "split variance is zero while the luck of that one split stays in its error (see the RMSE below).")
    lines.append("")

    lines += ["### The error of the estimate", ""]
    for measure, part in paired.groupby("measure", sort=False):
        better, worse, flat = [], [], []
        for s, ps in part.groupby("stratifier", sort=False):
            n_better = int((ps["significant"] & (ps["wins"] > ps["losses"])).sum())
            n_worse = int((ps["significant"] & (ps["losses"] > ps["wins"])).sum())
            ratio = _median(ps["median_rmse_ratio"]) - 1
            text = f"`{s}` {_pct(ratio)} ({n_better or n_worse} of {len(ps)} settings)"
            (better if n_better > n_worse else worse if n_worse > n_better else flat).append(
                text if (n_better or n_worse) else f"`{s}` {_pct(ratio)}")
        if better or worse:
            lines.append(f"- **{measure}: stratifying changes the error.** RMSE against `{baseline}` (median ratio − 1, "
                         f"settings where the test is significant): lower for {', '.join(better) or 'none'}; "
                         f"higher for {', '.join(worse) or 'none'}; no significant change for {', '.join(flat) or 'none'}.")
        else:
            lines.append(f"- **{measure}: it does not.** No stratifier's RMSE differs significantly from `{baseline}`'s "
                         f"in any (k, learner) setting: {', '.join(flat)}.")
    lines.append("")
    bias = errors.assign(abs_bias=errors["bias"].abs())
    lines.append("Bias (median |bias| over blocks, learners and k, against the baseline's): " + "; ".join(
        f"{measure}: `{baseline}` {_median(p[p.stratifier == baseline].abs_bias):.4f}, "
        + ", ".join(f"`{s}` {_median(p[p.stratifier == s].abs_bias):.4f}" for s in stratifiers)
        for measure, p in bias.groupby("measure", sort=False)) + ".")
    lines.append("")

    if len(choices):
        lines += ["### The choice of learner", ""]
        regret = choices.groupby("stratifier", sort=False)["regret"].mean()
        lines.append("CV picks the learner the truth picks in "
                     + ", ".join(f"{100 * agree[s]:.1f}% (`{s}`)" for s in [baseline, *stratifiers]) +
                     " of the (sample, repeat) draws (mean over datasets, sizes, k and measures); the mean truth "
                     "lost by a wrong pick is " + ", ".join(f"{regret[s]:.4f} (`{s}`)" for s in [baseline, *stratifiers])
                     + ".")
        choice_tests = tests[tests["value"] == "agreement"]
        n_sig = int(choice_tests["significant"].sum())
        lines.append(f"The Friedman test across (dataset, m) blocks finds the stratifiers' agreement different in {n_sig} "
                     f"of {len(choice_tests)} (k, measure) comparisons.")
        best = max(stratifiers, key=lambda s: agree[s], default=None)
        if best is not None:
            gap = agree[best] - agree[baseline]
            lines.append(f"**Model choice {'changes' if n_sig else 'does not change'} with the split:** the best "
                         f"stratifier, `{best}`, agrees {100 * gap:+.1f} points more often than `{baseline}`.")
        lines.append("")

    lines += ["### Undefined measures", ""]
    small = errors[(errors["m"] == errors["m"].min()) & (errors["k"] == errors["k"].max())]
    for measure in ("macro_auc", "macro_f1"):
        part = small[small["measure"] == measure]
        if len(part):
            lines.append(f"- {measure} at m = {errors['m'].min()}, k = {errors['k'].max()}: the share of a test part's "
                         "labels left out of its mean (and of the parts with any left out): " + ", ".join(
                             f"{100 * part[part.stratifier == s]['undefined'].mean():.1f}% "
                             f"({100 * part[part.stratifier == s]['parts_undefined'].mean():.0f}%, `{s}`)"
                             for s in [baseline, *stratifiers]) + ".")
    lines.append("")

    if "hybrid" in stratifiers:
        lines += ["### Where `hybrid` does not help", ""]
        hp = paired[paired["stratifier"] == "hybrid"]
        helped = hp["significant"] & (hp["wins"] > hp["losses"])
        lines.append(f"`hybrid` lowers the RMSE significantly below `{baseline}`'s in {int(helped.sum())} of {len(hp)} "
                     "(k, learner, measure) settings. Its median RMSE ratio to the baseline, per measure: "
                     + ", ".join(f"{measure} {_pct(_median(g['median_rmse_ratio']) - 1)}"
                                 + ("" if (g["significant"] & (g["wins"] > g["losses"])).any() else " (never significantly lower)")
                                 for measure, g in hp.groupby("measure", sort=False)) + ".")
        if "iterative" in stratifiers:
            e = errors.pivot_table(index=["dataset", "m", "k", "learner", "measure"], columns="stratifier", values="rmse")
            lower = float((e["hybrid"] < e["iterative"]).mean())
            lines.append(f"Against `iterative`, its RMSE is lower in {100 * lower:.0f}% of the "
                         f"{len(e)} (dataset, m, k, learner, measure) cells.")
        lines.append("")
    return "\n".join(lines)
