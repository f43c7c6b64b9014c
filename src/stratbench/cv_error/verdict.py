"""The "Does it matter?" section, written from the study's tables: every sentence states numbers of the tables,
each difference with its interval or with the count of cells whose interval excludes no difference, and which
way the numbers go decides the sentence (nothing in it is typed by hand). The baseline is the one the config
names; "significant" means a Benjamini–Hochberg q below α over every paired test of the study.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stratbench.cv_error.measures import MEASURES

TERM_NAMES = {"bias2": "bias²", "split_variance": "the split variance", "sample_term": "the sample term"}


def _f(x: float, digits: int = 3) -> str:
    return "n/a" if x is None or not np.isfinite(x) else f"{x:.{digits}g}"


def _pct(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:+.1f}%"


def _median_iqr(values) -> str:
    v = np.asarray(values, dtype=float)
    v = v[np.isfinite(v)]
    if not len(v):
        return "n/a"
    return f"{np.median(v):.3g} (quartiles {np.percentile(v, 25):.3g}–{np.percentile(v, 75):.3g})"


def recommended_estimators(estimators: pd.DataFrame, baseline: str) -> dict[str, str]:
    """measure → the estimator with the lower RMSE in most of the baseline's cells (the pooled one where they
    tie)."""
    base = estimators[estimators["stratifier"] == baseline]
    out = {}
    for measure in MEASURES:
        r = base[base["measure"] == measure]["ratio"].to_numpy(dtype=float)
        r = r[np.isfinite(r)]
        out[measure] = "part_mean" if len(r) and np.median(r) > 1 else "pooled"
    return out


def verdict(errors: pd.DataFrame, paired: pd.DataFrame, estimators: pd.DataFrame, choices: pd.DataFrame,
            theory: pd.DataFrame, baseline: str, setup: dict, alpha: float = 0.05) -> str:
    """Markdown of the section; ``setup`` names the datasets, sizes, samples, repeats, ks, learners and where
    the forest ran."""
    stratifiers = [s for s in dict.fromkeys(errors["stratifier"]) if s != baseline]
    chosen = recommended_estimators(estimators, baseline)
    lines = ["## Does it matter?", "", _setup(setup, baseline, alpha, len(paired)), ""]
    lines += ["### Which estimate to report", ""] + _estimators(estimators, baseline, chosen) + [""]
    lines += ["### Does stratifying lower the error?", ""] + _errors(paired, stratifiers, baseline, chosen) + [""]
    lines += ["### Which term it moves", ""] + _terms(paired, errors, stratifiers, baseline, chosen) + [""]
    lines += ["### The truth and the target", ""] + _targets(errors, baseline, chosen) + [""]
    if len(choices):
        lines += ["### The choice of model", ""] + _choices(choices, stratifiers, baseline, chosen) + [""]
    if len(theory):
        lines += ["### The count model", ""] + _theory(theory, baseline) + [""]
    lines += ["### Per dataset", ""] + _per_dataset(paired, stratifiers, baseline, chosen) + [""]
    lines += ["### What this does not show", ""] + _caveats(setup) + [""]
    return "\n".join(lines)


def _setup(setup: dict, baseline: str, alpha: float, tests: int) -> str:
    forest = setup.get("forest") or {}
    where = ""
    if "forest" in setup["learners"] and forest:
        where = (f" (`forest` on {', '.join(forest.get('datasets', ['every dataset']))} at m ∈ "
                 f"{forest.get('sizes', setup['sizes'])} only)")
    return (f"Datasets: {', '.join(setup['datasets'])}; for each size m ∈ {setup['sizes']}, R = {setup['samples']} "
            f"development samples drawn independently, J = {setup['repeats']} CV repeats each, k ∈ {setup['ks']}; "
            f"learners: {', '.join(setup['learners'])}{where}; the baseline is `{baseline}`. The truth of a sample is "
            "the learner's score on the rows left out of it (`err_xy`, the model at hand); the second target, `err`, "
            "is the expected score of a model trained on m(k − 1)/k rows (Bates, Hastie & Tibshirani 2023). "
            f"Each stratifier is compared with `{baseline}` within each (dataset, m, k, learner, measure, estimator) "
            "cell, paired over its R samples: MSE ratios with 95% bootstrap intervals over the samples, and a "
            "Wilcoxon signed-rank test of the per-sample squared errors; *significant* means a Benjamini–Hochberg "
            f"q < {alpha} over all {tests} such tests of the study (docs/ALGORITHMS.md §12).")


def _estimators(estimators: pd.DataFrame, baseline: str, chosen: dict) -> list[str]:
    base = estimators[estimators["stratifier"] == baseline]
    lines = [f"RMSE of the pooled estimate over the per-part mean's, for `{baseline}` (median over the cells, and the "
             "cells whose 95% interval lies below 1 or above 1):", "",
             "| measure | median ratio | pooled lower | pooled higher | report |", "|---|---|---|---|---|"]
    for measure in MEASURES:
        part = base[base["measure"] == measure]
        if part.empty:
            continue
        lower = int((part["ratio_high"] < 1).sum())
        higher = int((part["ratio_low"] > 1).sum())
        lines.append(f"| {measure} | {_median_iqr(part['ratio'])} | {lower} of {len(part)} | {higher} of {len(part)} | "
                     f"{chosen[measure]} |")
    auc = base[base["measure"] == "macro_auc"]
    lines += ["", "Report the estimate in the last column: it has the lower RMSE in most cells. The per-part mean of a "
              "macro measure averages ratios of small counts, which is biased in small parts (Forman & Scholz 2010); "
              "the pooled estimate scores every out-of-fold prediction at once."]
    if len(auc):
        lines.append(f"For macro-AUC the pooled scores mix the k models' scales; its pooled/per-part RMSE ratio is "
                     f"{_median_iqr(auc['ratio'])}, which decides it here.")
    return lines


def _cells(paired: pd.DataFrame, chosen: dict) -> pd.DataFrame:
    """The paired rows of each measure's recommended estimator."""
    return paired[paired.apply(lambda r: chosen.get(r["measure"]) == r["estimator"], axis=1)] if len(paired) else paired


def _errors(paired: pd.DataFrame, stratifiers: list[str], baseline: str, chosen: dict) -> list[str]:
    p = _cells(paired, chosen)
    lines = [f"MSE against the truth, each stratifier over `{baseline}`, with the recommended estimate of each measure: "
             "the median ratio over the (dataset, m, k, learner) cells, and the cells where it is significantly lower "
             "or higher:", "", "| measure | stratifier | median MSE ratio | lower | higher | cells |", "|---|---|---|---|---|---|"]
    for measure in MEASURES:
        for s in stratifiers:
            part = p[(p["measure"] == measure) & (p["stratifier"] == s)]
            if part.empty:
                continue
            lower = int((part["significant"] & (part["wins"] > part["losses"])).sum())
            higher = int((part["significant"] & (part["losses"] > part["wins"])).sum())
            lines.append(f"| {measure} | {s} | {_median_iqr(part['mse_ratio'])} | {lower} | {higher} | {len(part)} |")
    sig = p[p["significant"]]
    lower = int((sig["wins"] > sig["losses"]).sum())
    higher = int((sig["losses"] > sig["wins"]).sum())
    total = len(p)
    lines += ["", f"**In short:** with the recommended estimates, stratifying lowers the MSE significantly in {lower} and "
              f"raises it in {higher} of {total} (stratifier, cell) comparisons; in the other {total - lower - higher} "
              f"no difference from `{baseline}` can be told apart from the samples' spread."]
    other = paired[~paired.index.isin(p.index)]
    if len(other):
        o_lower = int((other["significant"] & (other["wins"] > other["losses"])).sum())
        o_higher = int((other["significant"] & (other["losses"] > other["wins"])).sum())
        lines.append(f"With the other estimate of each measure it lowers the MSE significantly in {o_lower} and raises it "
                     f"in {o_higher} of {len(other)}: what a stratifier seems to gain depends on the estimator.")
    return lines


def _terms(paired: pd.DataFrame, errors: pd.DataFrame, stratifiers: list[str], baseline: str, chosen: dict) -> list[str]:
    lines = [f"The MSE is bias² + the split variance E[Var(ê | D)] + the sample term Var(E[ê | D] − t), exactly. Each "
             f"term's shift from `{baseline}`'s, as a share of `{baseline}`'s MSE: the median over the cells, and the "
             "cells whose 95% interval excludes no shift (below 0, above 0).", "",
             "| estimate | stratifier | bias² | split variance | sample term | split variance ratio (repeats of the baseline it equals) |",
             "|---|---|---|---|---|---|"]
    for estimator in ("pooled", "part_mean"):
        for s in stratifiers:
            part = paired[(paired["estimator"] == estimator) & (paired["stratifier"] == s)]
            if part.empty:
                continue
            cells = []
            for t in ("bias2", "split_variance", "sample_term"):
                below = int((part[f"{t}_shift_high"] < 0).sum())
                above = int((part[f"{t}_shift_low"] > 0).sum())
                cells.append(f"{_pct(float(np.nanmedian(part[f'{t}_shift'])))} ({below} below, {above} above)")
            ratio = part["split_ratio"].replace([np.inf, -np.inf], np.nan)
            below = int((part["split_ratio_high"] < 1).sum())
            med = float(np.nanmedian(ratio)) if ratio.notna().any() else np.nan
            equal = "∞" if np.isfinite(med) and med == 0 else _f(1 / med) if np.isfinite(med) else "n/a"
            lines.append(f"| {estimator} | {s} | {' | '.join(cells)} | {_f(med)} ({below} of {len(part)} below 1): "
                         f"{equal} |")
    lines += ["", "A split-variance ratio r means one CV of the stratifier varies with its split as much as the mean of "
              f"1/r CVs of `{baseline}` (\"repeats equivalent\"; Eve, Varoquaux & Moreau 2026 use *sample gain* for "
              "something else: the training rows a better estimate is worth). A stratifier can move the bias² too, "
              "not only the split variance: it changes which parts the estimate averages, so its mean given the "
              "sample."]
    return lines + _no_split_variance(errors, baseline)


def _no_split_variance(errors: pd.DataFrame, baseline: str) -> list[str]:
    """Why a split variance is 0: a stratifier whose repeats give one split (k distinct test sets in every
    cell: it ignores its seed), or cells where even the baseline's repeats give one estimate on every sample."""
    others = errors[errors["stratifier"] != baseline]  # with one repeat (J·k = k test sets) no seed can show
    one_split = [s for s, part in others.groupby("stratifier", sort=False)
                 if (part["distinct_test_sets"] <= part["k"]).all() and (part["test_sets"] > part["k"]).all()]
    lines = []
    if one_split:
        names = ", ".join(f"`{s}`" for s in one_split)
        verb = "ignores its seed" if len(one_split) == 1 else "ignore their seeds"
        lines.append(f"{names} {verb}: every repeat is the same split (k distinct test sets, not J·k), so the split "
                     "variance is 0 and the one split's luck stays in the sample term.")
    base = errors[errors["stratifier"] == baseline]
    flat = int((base["split_variance"] == 0).sum())
    if flat:
        lines.append(f"In {flat} of {len(base)} cells `{baseline}`'s split variance is 0{' too' if one_split else ''}: its "
                     "J repeats gave the same estimate on every sample, and there the split-variance ratio is undefined.")
    return lines


def _targets(errors: pd.DataFrame, baseline: str, chosen: dict) -> list[str]:
    base = errors[errors["stratifier"] == baseline]
    base = base[base.apply(lambda r: chosen.get(r["measure"]) == r["estimator"], axis=1)]
    lines = [f"For `{baseline}` with the recommended estimates, per measure: the truth's own noise (its variance over "
             "bootstrap resamples of the pool) as a share of the MSE, the correlation over samples of the estimate "
             "with the truth, and the MSE against `err` over the MSE against `err_xy` (medians, quartiles):", "",
             "| measure | truth noise ÷ MSE | corr(ê, t) | MSE(err) ÷ MSE(err_xy) |", "|---|---|---|---|"]
    for measure in MEASURES:
        part = base[base["measure"] == measure]
        if part.empty:
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            lines.append(f"| {measure} | {_median_iqr(part['truth_noise'] / part['mse'])} | {_median_iqr(part['corr'])} | "
                         f"{_median_iqr(part['mse_err'] / part['mse'])} |")
    corr = float(np.nanmedian(base["corr"])) if len(base) else np.nan
    lines += ["", f"The estimate follows the truth of the model at hand weakly (median correlation {_f(corr, 2)}): CV "
              "estimates the error of the procedure more than that of the model it returns (Bates, Hastie & Tibshirani "
              "2023). Part of every MSE above is the truth's own noise, the same for every stratifier: it leaves the "
              "differences between stratifiers, not their ratios, as they are."]
    return lines


def _choices(choices: pd.DataFrame, stratifiers: list[str], baseline: str, chosen: dict) -> list[str]:
    c = choices[choices.apply(lambda r: chosen.get(r["measure"]) == r["estimator"], axis=1)]
    lines = [f"How often CV picks the model the truth picks (mean over cells), and the cells where a stratifier's "
             f"agreement differs from `{baseline}`'s beyond its 95% interval (paired over the samples):", "",
             "| task | stratifier | agreement | regret | higher | lower | cells |", "|---|---|---|---|---|---|---|"]
    for task, part in c.groupby("task", sort=False):
        for s in [baseline, *stratifiers]:
            ps = part[part["stratifier"] == s]
            if ps.empty:
                continue
            higher = int((ps["baseline_gap_low"] > 0).sum())
            lower = int((ps["baseline_gap_high"] < 0).sum())
            gaps = "–" if s == baseline else f"{higher} | {lower}"
            lines.append(f"| {task} | {s} | {100 * ps['agreement'].mean():.1f}% | {_f(ps['regret'].mean())} | "
                         f"{gaps if s != baseline else '– | –'} | {len(ps)} |")
    lines += ["", "`learner` picks among the study's learners; `neighbours` among kNN with 5, 10, 20 and 40 neighbours, "
              "close competitors whose order a split can change."]
    return lines


def _theory(theory: pd.DataFrame, baseline: str) -> list[str]:
    lines = ["The count model (docs/ALGORITHMS.md §12.4) predicts three quantities from the hypergeometric law of a "
             "label's count in a test part (random k-fold) and from exact label stratification. Observed over predicted, "
             "median over (dataset, m, k) (quartiles):", "",
             "| quantity | stratifier | observed ÷ predicted (random) | observed ÷ predicted (stratified) |",
             "|---|---|---|---|"]
    for quantity, part in theory.groupby("quantity", sort=False):
        for s, ps in part.groupby("stratifier", sort=False):
            with np.errstate(divide="ignore", invalid="ignore"):
                lines.append(f"| {quantity} | {s} | {_median_iqr(ps['observed'] / ps['random'])} | "
                             f"{_median_iqr(ps['observed'] / ps['stratified'])} |")
    gap = theory[(theory["quantity"] == "f1_gap") & (theory["stratifier"] == baseline)]
    if len(gap):
        observed, random, stratified = (-float(np.nanmedian(gap[c])) for c in ("observed", "random", "stratified"))
        shrinks = np.isfinite(stratified) and np.isfinite(random) and stratified < random
        lines += ["", f"For `{baseline}` the per-part macro-F1 lies below the pooled one by a median {_f(observed)} "
                  f"(the count model predicts {_f(random)}); for label-stratified parts it predicts {_f(stratified)}: "
                  + ("stratifying shrinks the per-part estimator's bias, which the pooled estimator does not have."
                     if shrinks else "here stratifying would not shrink the per-part estimator's bias.")]
    return lines


def _per_dataset(paired: pd.DataFrame, stratifiers: list[str], baseline: str, chosen: dict) -> list[str]:
    p = _cells(paired, chosen)
    lines = [f"Median MSE ratio to `{baseline}` over each dataset's (m, k, learner, measure) cells with the recommended "
             "estimates; in brackets the cells significantly lower / higher:", "",
             "| dataset | " + " | ".join(stratifiers) + " |", "|---|" + "---|" * len(stratifiers)]
    for dataset, part in p.groupby("dataset", sort=False):
        cells = []
        for s in stratifiers:
            ps = part[part["stratifier"] == s]
            lower = int((ps["significant"] & (ps["wins"] > ps["losses"])).sum())
            higher = int((ps["significant"] & (ps["losses"] > ps["wins"])).sum())
            cells.append(f"{_f(float(np.nanmedian(ps['mse_ratio'])))} ({lower}/{higher})" if len(ps) else "")
        lines.append(f"| {dataset} | " + " | ".join(cells) + " |")
    return lines


def _caveats(setup: dict) -> list[str]:
    return [f"- {len(setup['learners'])} learners ({', '.join(setup['learners'])}), chosen to be fast, not strong; a "
            "learner whose fit depends more on which rows it sees may react to the split otherwise.",
            f"- {len(setup['datasets'])} datasets, each analysed on its own (its samples are the unit of its tests); no "
            "claim here extends to datasets unlike them.",
            "- Two targets: the model at hand on a finite pool (whose noise is shown) and the expected risk at the "
            "training size of the folds; the comparisons use the first.",
            "- Two estimators: a stratifier's gain with one of them need not hold with the other.",
            f"- Development samples of {setup['sizes']} rows: larger samples leave less to stratify."]
