"""The "Does it matter?" section, written from the study's tables. Every number it prints is a value of a
published table: the summaries over cells it states are the rows of ``cv_error_summary.csv``
(:func:`page_table`, made by the tables job beside the others), the headline is ``cv_error_headline.csv`` and
``cv_error_datasets.csv``, the controls ``cv_error_controls.csv``, the setup the study's config; the page only
formats them (three significant digits, shares in percent), and :func:`unpublished_numbers` finds any number of a
page that is in none of them. Which way the numbers go decides each sentence; nothing in it is typed by hand.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from stratbench.cv_error.learners import LEARNERS, SELECTION
from stratbench.cv_error.measures import MEASURES

TERM_NAMES = {"bias2": "bias²", "split_variance": "the split variance", "sample_term": "the sample term"}
SUMMARY_COLUMNS = ["section", "subject", "measure", "stratifier", "estimator", "statistic", "value"]
SELECTION_NEIGHBOURS = tuple(LEARNERS[name].neighbours for name in SELECTION)  # kNN's candidates: 5, 10, 20, 40
CONSTANTS = (0, 1, 2, 95, *SELECTION_NEIGHBOURS)  # the method's own numbers a page may state: zero and one (no
# shift, a ratio of one), the two estimators, the intervals' 95%, the model-selection task's neighbours


def _f(x: float, digits: int = 3) -> str:
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "n/a"
    if np.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{digits}g}"


def _pct(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:+.1f}%"


def _share(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:.1f}%"


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


def _chosen_rows(frame: pd.DataFrame, chosen: dict) -> pd.DataFrame:
    return frame[frame["estimator"] == frame["measure"].map(chosen)] if len(frame) else frame


class _Rows:
    """The summary table's rows, added one statistic at a time."""

    def __init__(self):
        self.rows = []

    def add(self, section, statistic, value, subject="", measure="", stratifier="", estimator=""):
        self.rows.append((section, subject, measure, stratifier, estimator, statistic, float(value)))

    def spread(self, section, name, values, **keys):
        """median, lower and upper quartile of ``values`` (the finite ones; an infinite median kept)."""
        v = np.asarray(values, dtype=float)
        v = v[~np.isnan(v)]
        if not len(v):
            return
        for stat, q in (("median", 50), ("q1", 25), ("q3", 75)):
            self.add(section, f"{name}_{stat}", np.percentile(v, q, method="inverted_cdf") if np.isinf(v).any()
                     else np.percentile(v, q), **keys)


def page_table(t: dict[str, pd.DataFrame], baseline: str) -> pd.DataFrame:
    """Every summary over cells the page states, columns :data:`SUMMARY_COLUMNS`; ``t`` holds the tables of
    :func:`stratbench.cv_error.summary.tables`."""
    chosen = recommended_estimators(t["estimators"], baseline)
    out = _Rows()
    base = t["estimators"][t["estimators"]["stratifier"] == baseline]
    for measure in MEASURES:
        part = base[base["measure"] == measure]
        if part.empty:
            continue
        keys = dict(measure=measure, stratifier=baseline)
        out.spread("estimators", "ratio", part["ratio"], **keys)
        out.add("estimators", "pooled_lower", (part["ratio_high"] < 1).sum(), **keys)
        out.add("estimators", "pooled_higher", (part["ratio_low"] > 1).sum(), **keys)
        out.add("estimators", "cells", len(part), **keys)
        out.add("estimators", "pooled_reported", chosen[measure] == "pooled", **keys)
        if measure == "macro_auc":
            for learner, by in part.groupby("learner", sort=False):
                out.spread("estimators", "ratio", by["ratio"], subject=learner, **keys)
    paired = t["paired"]
    p = _chosen_rows(paired, chosen)
    for (measure, stratifier), part in p.groupby(["measure", "stratifier"], sort=False):
        keys = dict(measure=measure, stratifier=stratifier, estimator=chosen[measure])
        out.spread("errors", "mse_ratio", part["mse_ratio"], **keys)
        sig, sig_by = part["significant"].astype(bool), part["q_by"] < 0.05
        out.add("errors", "lower", (sig & (part["mse_ratio"] < 1)).sum(), **keys)
        out.add("errors", "higher", (sig & (part["mse_ratio"] > 1)).sum(), **keys)
        out.add("errors", "lower_by", (sig_by & (part["mse_ratio"] < 1)).sum(), **keys)
        out.add("errors", "higher_by", (sig_by & (part["mse_ratio"] > 1)).sum(), **keys)
        out.add("errors", "cells", len(part), **keys)
    family = paired[~paired["control"].astype(bool)]
    out.add("tests", "tests", len(paired))
    out.add("tests", "controls", int(paired["control"].astype(bool).sum()))
    out.add("tests", "duplicates", int((family["duplicate"].astype(bool)).sum()))
    out.add("tests", "family", int((~family["duplicate"].astype(bool)).sum()))
    for (measure, estimator, stratifier), part in paired.groupby(["measure", "estimator", "stratifier"], sort=False):
        keys = dict(measure=measure, stratifier=stratifier, estimator=estimator)
        out.add("terms", "mse_ratio_mean", part["mse_ratio"].replace([np.inf, -np.inf], np.nan).mean(), **keys)
        out.add("terms", "mse_ratio_median", np.nanmedian(part["mse_ratio"]), **keys)
        for term in TERM_NAMES:
            out.add("terms", f"{term}_shift_median", np.nanmedian(part[f"{term}_shift"]), **keys)
            out.add("terms", f"{term}_below", (part[f"{term}_shift_high"] < 0).sum(), **keys)
            out.add("terms", f"{term}_above", (part[f"{term}_shift_low"] > 0).sum(), **keys)
        ratio = part["split_ratio"].replace([np.inf, -np.inf], np.nan)
        out.add("terms", "split_ratio_median", np.nanmedian(ratio) if ratio.notna().any() else np.nan, **keys)
        out.add("terms", "split_ratio_below", (part["split_ratio_high"] < 1).sum(), **keys)
        repeats = part["random_repeats"].to_numpy(dtype=float)
        repeats = repeats[~np.isnan(repeats)]
        out.add("terms", "random_repeats_median", np.median(repeats) if len(repeats) else np.nan, **keys)
        out.add("terms", "random_repeats_infinite", np.isinf(repeats).sum(), **keys)
        out.add("terms", "random_repeats_below_one", (repeats < 1).sum(), **keys)
        out.add("terms", "cells", len(part), **keys)
    errors = t["errors"]
    _split_section(out, errors, baseline)
    b = _chosen_rows(errors[errors["stratifier"] == baseline], chosen)
    for measure, part in b.groupby("measure", sort=False):
        keys = dict(measure=measure, stratifier=baseline, estimator=chosen[measure])
        with np.errstate(divide="ignore", invalid="ignore"):
            out.spread("targets", "noise_share", part["truth_noise"] / part["mse"], **keys)
            out.spread("targets", "corr", part["corr"], **keys)
            out.spread("targets", "err_ratio", part["mse_err"] / part["mse"], **keys)
        out.spread("targets", "labels", part["labels"], **keys)
    c = _chosen_rows(t["choices"], chosen)
    for (task, measure, s), part in c.groupby(["task", "measure", "stratifier"], sort=False):
        keys = dict(subject=task, measure=measure, stratifier=s, estimator=chosen[measure])
        out.add("choices", "agreement", part["agreement"].mean(), **keys)
        out.add("choices", "regret", part["regret"].mean(), **keys)
        out.add("choices", "higher", (part["baseline_gap_low"] > 0).sum(), **keys)
        out.add("choices", "lower", (part["baseline_gap_high"] < 0).sum(), **keys)
        out.add("choices", "cells", len(part), **keys)
    for (quantity, s), part in t["theory"].groupby(["quantity", "stratifier"], sort=False):
        keys = dict(subject=quantity, stratifier=s)
        with np.errstate(divide="ignore", invalid="ignore"):
            out.spread("theory", "random", part["observed"] / part["random"], **keys)
            out.spread("theory", "stratified", part["observed"] / part["stratified"], **keys)
        if quantity == "f1_gap":
            for column in ("observed", "random", "stratified"):
                out.add("theory", f"gap_{column}", -np.nanmedian(part[column]), **keys)
    return pd.DataFrame(out.rows, columns=SUMMARY_COLUMNS)


def _split_section(out: _Rows, errors: pd.DataFrame, baseline: str) -> None:
    """Which stratifiers ignore their seed (k distinct test sets in every cell, where J·k were drawn), and in how
    many cells the baseline's split variance is 0."""
    for s, part in errors[errors["stratifier"] != baseline].groupby("stratifier", sort=False):
        one = bool((part["distinct_test_sets"] <= part["k"]).all() and (part["test_sets"] > part["k"]).all())
        out.add("split", "one_split", one, stratifier=s)
    b = errors[errors["stratifier"] == baseline]
    out.add("split", "flat", (b["split_variance"] == 0).sum(), stratifier=baseline)
    out.add("split", "cells", len(b), stratifier=baseline)


class _Summary:
    """Look-ups in the summary table."""

    def __init__(self, frame: pd.DataFrame):
        self.values = {tuple("" if pd.isna(x) else x for x in row[:-1]): row[-1]
                       for row in frame[SUMMARY_COLUMNS].itertuples(index=False)}

    def __call__(self, section, statistic, subject="", measure="", stratifier="", estimator="") -> float:
        return self.values.get((section, subject, measure, stratifier, estimator, statistic), np.nan)

    def has(self, section, statistic, **keys) -> bool:
        return not np.isnan(self(section, statistic, **keys))

    def spread(self, section, name, **keys) -> str:
        median = self(section, f"{name}_median", **keys)
        if np.isnan(median):
            return "n/a"
        return (f"{_f(median)} (quartiles {_f(self(section, f'{name}_q1', **keys))}–"
                f"{_f(self(section, f'{name}_q3', **keys))})")

    def count(self, section, statistic, **keys) -> int:
        v = self(section, statistic, **keys)
        return 0 if np.isnan(v) else int(v)


def verdict(summary: pd.DataFrame, headline: pd.DataFrame, datasets: pd.DataFrame, controls: pd.DataFrame,
            baseline: str, setup: dict, alpha: float = 0.05) -> str:
    """Markdown of the section from the summary, headline, per-dataset and control tables; ``setup`` names the
    datasets, sizes, the (dataset, m) left out, the truth set's size, samples, repeats, ks, learners, controls
    and where the forest ran."""
    s = _Summary(summary)
    chosen = {m: ("pooled" if s("estimators", "pooled_reported", measure=m, stratifier=baseline) == 1 else "part_mean")
              for m in MEASURES if s.has("estimators", "pooled_reported", measure=m, stratifier=baseline)}
    stratifiers = list(dict.fromkeys(headline["stratifier"]))
    lines = ["## Does it matter?", "", _setup(setup, baseline, alpha, s), ""]
    lines += ["### Across the datasets", ""] + _headline(headline, chosen, baseline) + [""]
    lines += ["### The A/A controls", ""] + _controls(controls, baseline, alpha) + [""]
    lines += ["### Per dataset", ""] + _per_dataset(datasets, stratifiers, chosen, baseline) + [""]
    lines += ["### Which estimate to report", ""] + _estimators(s, baseline, chosen) + [""]
    lines += ["### Cell by cell", ""] + _errors(s, stratifiers, baseline, chosen, alpha) + [""]
    lines += ["### Which term it moves", ""] + _terms(s, stratifiers, baseline, chosen) + [""]
    lines += ["### The truth and the target", ""] + _targets(s, baseline, chosen) + [""]
    if any(k[0] == "choices" for k in s.values):
        lines += ["### The choice of model", ""] + _choices(s, stratifiers, baseline, chosen) + [""]
    if any(k[0] == "theory" for k in s.values):
        lines += ["### The count model", ""] + _theory(s, summary, baseline) + [""]
    lines += ["### What this does not show", ""] + _caveats(setup) + [""]
    return "\n".join(lines)


def _setup(setup: dict, baseline: str, alpha: float, s: _Summary) -> str:
    forest = setup.get("forest") or {}
    learners = [name for name in setup["learners"] if name != "forest"]
    where = ""
    if "forest" in setup["learners"] and forest:
        where = (f"; `forest` only on {', '.join(forest.get('datasets', ['every dataset']))} at m ∈ "
                 f"{forest.get('sizes', setup['sizes'])}")
    elif "forest" in setup["learners"]:
        learners.append("forest")
    left = setup.get("left_out") or []
    left_text = ""
    if left:
        left_text = (" Not run, because two of their samples would share more than the allowed share of rows: "
                     + "; ".join(f"{d} at m = {m}" for d, m, _ in left) + ".")
    controls = setup.get("controls") or []
    control_text = (f" {', '.join(f'`{c}`' for c in controls)} {'is an A/A control' if len(controls) == 1 else 'are A/A controls'}"
                    f" of `{baseline}`: the same MSE in expectation, tested the same way and kept out of the family."
                    if controls else "")
    return (f"Datasets: {', '.join(setup['datasets'])}. Each holds out one fixed truth set of {setup['truth_size']} rows; "
            f"for each size m ∈ {setup['sizes']}, R = {setup['samples']} development samples are drawn from the other "
            f"rows, independently for each m.{left_text} J = {setup['repeats']} CV repeats of each sample, k ∈ "
            f"{setup['ks']}; learners: {', '.join(learners)}{where}; the baseline is `{baseline}`. The truth of a "
            "sample is the score on the truth set of the learner fitted on it (`err_xy`, the model at hand); the "
            "second target, `err`, is the expected score of a model trained on m(k − 1)/k rows (Bates, Hastie & "
            "Tibshirani 2023). A macro measure averages, in truth and estimate alike, over the labels with k or more "
            f"positives in the sample. Each stratifier is compared with `{baseline}` within each (dataset, m, k, "
            "learner, measure, estimator) cell, paired over its R samples: the MSE ratio, with a 95% bootstrap "
            "interval over the samples, and a paired t-test of the mean per-sample squared-error difference whose "
            "variance is corrected for the rows two samples share (Nadeau & Bengio 2003). Of the "
            f"{s.count('tests', 'tests')} tests, {s.count('tests', 'controls')} are controls' and "
            f"{s.count('tests', 'duplicates')} repeat another's differences exactly; over the other "
            f"{s.count('tests', 'family')}, *significant* means a Benjamini–Hochberg q < {alpha} (Benjamini–Yekutieli "
            f"beside it, in the tables).{control_text} The dataset is the unit of the headline: a stratifier's median "
            "MSE ratio per dataset, then a sign test across the datasets.")


def _headline(headline: pd.DataFrame, chosen: dict, baseline: str) -> list[str]:
    h = _chosen_rows(headline, chosen)
    lines = [f"Per measure (its recommended estimate) and stratifier: the datasets whose median MSE ratio to "
             f"`{baseline}` lies below and above 1, a two-sided sign test of those counts, and the median, lowest and "
             "highest of the datasets' ratios:", "",
             "| measure | stratifier | below | above | sign test p | median ratio | lowest | highest |",
             "|---|---|---|---|---|---|---|---|"]
    for _, r in h.iterrows():
        name = f"{r['stratifier']} (control)" if r["control"] else r["stratifier"]
        lines.append(f"| {r['measure']} | {name} | {int(r['below'])} | {int(r['above'])} | {_f(r['sign_p'])} | "
                     f"{_f(r['median_ratio'])} | {_f(r['lowest_ratio'])} | {_f(r['highest_ratio'])} |")
    real = h[~h["control"].astype(bool)]
    if len(real):
        lowest = real.loc[real["sign_p"].idxmin()]
        lines += ["", f"The smallest sign-test p of a stratifier (not a control) is {_f(lowest['sign_p'])}, before any "
                  "correction for the table's many tests: "
                  f"`{lowest['stratifier']}` on {lowest['measure']}, below 1 on {int(lowest['below'])} and above on "
                  f"{int(lowest['above'])} of {int(lowest['datasets'])} datasets."]
    return lines


def _controls(controls: pd.DataFrame, baseline: str, alpha: float) -> list[str]:
    if controls.empty:
        return ["The study declares no A/A control (`cv_error.controls`): how often its test rejects a true null is "
                "not shown."]
    lines = [f"Each control against `{baseline}`: its tests, how many had p < {alpha} (before any correction for "
             "multiplicity), and that rate with its Clopper–Pearson 95% interval (the tests share samples, so the "
             "interval is a guide); then the same for the t-test without the correction for the samples' overlap:",
             "", "| control | estimate | tests | p < α | rate | interval | p < α, uncorrected | rate | interval |",
             "|---|---|---|---|---|---|---|---|---|"]
    for _, r in controls.iterrows():
        lines.append(f"| {r['stratifier']} | {r['estimator']} | {int(r['tests'])} | {int(r['rejected'])} | "
                     f"{_share(r['rate'])} | {_share(r['rate_low'])}–{_share(r['rate_high'])} | "
                     f"{int(r['rejected_uncorrected'])} | {_share(r['rate_uncorrected'])} | "
                     f"{_share(r['rate_uncorrected_low'])}–{_share(r['rate_uncorrected_high'])} |")
    lines.append("")
    for suffix, name in (("", "With the correction"), ("_uncorrected", "Without it")):
        low, high = controls[f"rate{suffix}_low"], controls[f"rate{suffix}_high"]
        calm, above, below = int(((low <= alpha) & (high >= alpha)).sum()), int((low > alpha).sum()), int((high < alpha).sum())
        said = [f"{name}, the interval holds the nominal {_share(alpha)} for {calm} of {len(controls)} control rows"]
        if above:
            said.append(f"for {above} it lies above it: the test rejects true nulls too often there")
        if below:
            said.append(f"for {below} it lies below it: the test is conservative there")
        lines.append("; ".join(said) + ".")
    lines.append("The headline and the cells' significance use the corrected test.")
    return lines


def _per_dataset(datasets: pd.DataFrame, stratifiers: list[str], chosen: dict, baseline: str) -> list[str]:
    d = _chosen_rows(datasets, chosen)
    lines = [f"Median MSE ratio to `{baseline}` over each dataset's (m, k, learner) cells, per measure with its "
             "recommended estimate; in brackets the cells significantly lower / higher:", ""]
    for measure in [m for m in MEASURES if m in set(d["measure"])]:
        part = d[d["measure"] == measure]
        lines += [f"**{measure}**", "", "| dataset | " + " | ".join(stratifiers) + " |",
                  "|---|" + "---|" * len(stratifiers)]
        for dataset, by in part.groupby("dataset", sort=False):
            cells = []
            for st in stratifiers:
                r = by[by["stratifier"] == st]
                cells.append(f"{_f(r['median_ratio'].iloc[0])} ({int(r['lower'].iloc[0])}/{int(r['higher'].iloc[0])})"
                             if len(r) else "")
            lines.append(f"| {dataset} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines[:-1]


def _estimators(s: _Summary, baseline: str, chosen: dict) -> list[str]:
    lines = [f"RMSE of the pooled estimate over the per-part mean's, for `{baseline}`: the median over the cells "
             "(quartiles), and the cells whose 95% interval lies below 1 or above 1:", "",
             "| measure | median ratio | pooled lower | pooled higher | cells | report |", "|---|---|---|---|---|---|"]
    for measure in chosen:
        k = dict(measure=measure, stratifier=baseline)
        lines.append(f"| {measure} | {s.spread('estimators', 'ratio', **k)} | {s.count('estimators', 'pooled_lower', **k)}"
                     f" | {s.count('estimators', 'pooled_higher', **k)} | {s.count('estimators', 'cells', **k)} | "
                     f"{chosen[measure]} |")
    lines += ["", "Report the estimate in the last column: it has the lower RMSE in most cells. The per-part mean of a "
              "macro measure averages ratios of small counts, which is biased in small parts (Forman & Scholz 2010); "
              "the pooled estimate scores every out-of-fold prediction at once."]
    auc = [(learner, s.spread("estimators", "ratio", subject=learner, measure="macro_auc", stratifier=baseline))
           for (sec, learner, measure, st, _, stat) in s.values
           if sec == "estimators" and learner and measure == "macro_auc" and stat == "ratio_median"]
    if auc:
        lines.append("For macro-AUC the pooled estimate ranks the out-of-fold scores of the k models together: kNN's "
                     "scores are shares of its neighbours on one scale in every model, ridge's and the forest's need "
                     "not be. Its pooled/per-part RMSE ratio by learner: "
                     + "; ".join(f"{learner} {spread}" for learner, spread in auc) + ".")
    return lines


def _errors(s: _Summary, stratifiers: list[str], baseline: str, chosen: dict, alpha: float) -> list[str]:
    lines = [f"MSE against the truth, each stratifier over `{baseline}`, with the recommended estimate of each measure: "
             "the median ratio over the (dataset, m, k, learner) cells (quartiles), and the cells where it is "
             f"significantly lower or higher (Benjamini–Hochberg q < {alpha}; Benjamini–Yekutieli in brackets):", "",
             "| measure | stratifier | median MSE ratio | lower | higher | cells |", "|---|---|---|---|---|---|"]
    for measure, estimator in chosen.items():
        for st in stratifiers:
            k = dict(measure=measure, stratifier=st, estimator=estimator)
            if not s.has("errors", "cells", **k):
                continue
            lines.append(f"| {measure} | {st} | {s.spread('errors', 'mse_ratio', **k)} | {s.count('errors', 'lower', **k)} "
                         f"({s.count('errors', 'lower_by', **k)}) | {s.count('errors', 'higher', **k)} "
                         f"({s.count('errors', 'higher_by', **k)}) | {s.count('errors', 'cells', **k)} |")
    lines += ["", "The cells of one dataset share its samples and truth set: their counts are not independent "
              "evidence, which is why the headline above counts datasets."]
    return lines


def _terms(s: _Summary, stratifiers: list[str], baseline: str, chosen: dict) -> list[str]:
    lines = [f"The MSE is bias² + the split variance E[Var(ê | D)] + the sample term Var(E[ê | D] − t), each estimated "
             f"without bias (docs/ALGORITHMS.md). Per measure (its recommended estimate): each term's shift from "
             f"`{baseline}`'s, as a share of `{baseline}`'s MSE, the median over the cells and the cells whose 95% "
             f"interval lies below 0 or above 0; the split-variance ratio; and the number of `{baseline}` repeats whose "
             "mean has the stratifier's MSE (its median; the cells where no number of repeats reaches it, and where "
             "one repeat is already better):", "",
             "| measure | stratifier | bias² | split variance | sample term | split-variance ratio (below 1) | "
             f"`{baseline}` repeats of equal MSE (∞; below 1) |", "|---|---|---|---|---|---|---|"]
    for measure, estimator in chosen.items():
        for st in stratifiers:
            k = dict(measure=measure, stratifier=st, estimator=estimator)
            if not s.has("terms", "cells", **k):
                continue
            cells = [f"{_pct(s('terms', f'{t}_shift_median', **k))} ({s.count('terms', f'{t}_below', **k)} below, "
                     f"{s.count('terms', f'{t}_above', **k)} above)" for t in TERM_NAMES]
            lines.append(f"| {measure} | {st} | {' | '.join(cells)} | {_f(s('terms', 'split_ratio_median', **k))} "
                         f"({s.count('terms', 'split_ratio_below', **k)} of {s.count('terms', 'cells', **k)}) | "
                         f"{_f(s('terms', 'random_repeats_median', **k))} "
                         f"({s.count('terms', 'random_repeats_infinite', **k)}; "
                         f"{s.count('terms', 'random_repeats_below_one', **k)}) |")
    lines += ["", f"`{baseline}` with J repeats has MSE bias² + sample term + split variance/J: no number of repeats "
              "takes it below bias² + sample term. The split-variance ratio compares one term only; the repeats of "
              "equal MSE compare the whole error."]
    return lines + _figure_means(s, stratifiers) + _no_split_variance(s, stratifiers, baseline)


def _figure_means(s: _Summary, stratifiers: list[str]) -> list[str]:
    """Where the decomposition figures' bars (means over the cells) and the tables' medians lie on opposite sides
    of 1: said, cell group by cell group."""
    split = []
    for (section, _, measure, st, estimator, statistic) in s.values:
        if section != "terms" or statistic != "mse_ratio_mean" or st not in stratifiers:
            continue
        k = dict(measure=measure, stratifier=st, estimator=estimator)
        mean, median = s("terms", "mse_ratio_mean", **k), s("terms", "mse_ratio_median", **k)
        if np.isfinite(mean) and np.isfinite(median) and (mean - 1) * (median - 1) < 0:
            split.append(f"{st} on {measure} ({estimator.replace('_', '-')}: mean {_f(mean)}, median {_f(median)})")
    if not split:
        return ["The decomposition figures show the mean over the cells; for every measure and stratifier it lies on "
                "the same side of 1 as the median."]
    return ["The decomposition figures show the mean over the cells, which a few large ratios can pull: it lies on "
            f"the other side of 1 from the median for {'; '.join(split)}."]


def _no_split_variance(s: _Summary, stratifiers: list[str], baseline: str) -> list[str]:
    """Why a split variance is 0: a stratifier whose repeats give one split (k distinct test sets in every
    cell: it ignores its seed), or cells where even the baseline's repeats give one estimate on every sample."""
    one_split = [st for st in stratifiers if s("split", "one_split", stratifier=st) == 1]
    lines = []
    if one_split:
        names = ", ".join(f"`{st}`" for st in one_split)
        verb = "ignores its seed" if len(one_split) == 1 else "ignore their seeds"
        lines.append(f"{names} {verb}: every repeat is the same split (k distinct test sets, not J·k), so the split "
                     "variance is 0 and the one split's luck stays in the sample term.")
    flat = s.count("split", "flat", stratifier=baseline)
    if flat:
        lines.append(f"In {flat} of {s.count('split', 'cells', stratifier=baseline)} cells `{baseline}`'s split variance "
                     f"is 0{' too' if one_split else ''}: its J repeats gave the same estimate on every sample, and there "
                     "the split-variance ratio is undefined.")
    return lines


def _targets(s: _Summary, baseline: str, chosen: dict) -> list[str]:
    lines = [f"For `{baseline}` with the recommended estimates, per measure: the truth's own noise (its variance over "
             "bootstrap resamples of the truth set) as a share of the MSE, the correlation over the samples of the "
             "estimate with the truth, the MSE against `err` over the MSE against `err_xy`, and the labels the measure "
             "counts (a macro measure its label set, the others every label; medians over the cells, quartiles):", "",
             "| measure | truth noise ÷ MSE | corr(ê, t) | MSE(err) ÷ MSE(err_xy) | labels counted |",
             "|---|---|---|---|---|"]
    for measure, estimator in chosen.items():
        k = dict(measure=measure, stratifier=baseline, estimator=estimator)
        if not s.has("targets", "corr_median", **k) and not s.has("targets", "noise_share_median", **k):
            continue
        lines.append(f"| {measure} | {s.spread('targets', 'noise_share', **k)} | {s.spread('targets', 'corr', **k)} | "
                     f"{s.spread('targets', 'err_ratio', **k)} | {s.spread('targets', 'labels', **k)} |")
    lines += ["", "Part of every MSE above is the truth's own noise, the same for every stratifier: it leaves the "
              "differences between stratifiers as they are, and pulls their ratios towards 1."]
    return lines


def _choices(s: _Summary, stratifiers: list[str], baseline: str, chosen: dict) -> list[str]:
    lines = [f"How often CV picks the model the truth picks, per measure (its recommended estimate; the mean over the "
             f"(dataset, m, k) cells), and in brackets the cells where a stratifier's agreement lies above / below "
             f"`{baseline}`'s beyond its 95% interval (paired over the samples):", ""]
    tasks = list(dict.fromkeys(k[1] for k in s.values if k[0] == "choices"))
    for task in tasks:
        columns = [baseline, *stratifiers]
        lines += [f"**{task}**", "", "| measure | " + " | ".join(columns) + " |", "|---|" + "---|" * len(columns)]
        for measure, estimator in chosen.items():
            cells = []
            for st in columns:
                k = dict(subject=task, measure=measure, stratifier=st, estimator=estimator)
                if not s.has("choices", "cells", **k):
                    cells.append("")
                    continue
                gap = "" if st == baseline else f" ({s.count('choices', 'higher', **k)}/{s.count('choices', 'lower', **k)})"
                cells.append(f"{_share(s('choices', 'agreement', **k))}{gap}")
            if any(cells):
                lines.append(f"| {measure} | " + " | ".join(cells) + " |")
        lines.append("")
    counts = [str(n) for n in SELECTION_NEIGHBOURS]
    lines += [f"`learner` picks among the study's learners; `neighbours` among kNN with {', '.join(counts[:-1])} and "
              f"{counts[-1]} neighbours, close competitors whose order a split can change. The truth lost by CV's pick (`regret`) is in "
              "`cv_error_summary.csv` and, per cell, `cv_error_choice.csv`."]
    return lines


def _theory(s: _Summary, summary: pd.DataFrame, baseline: str) -> list[str]:
    lines = ["The count model (docs/ALGORITHMS.md) predicts three quantities from the hypergeometric law of a label's "
             "count in a test part (random k-fold) and from exact label stratification. Observed over predicted, median "
             "over (dataset, m, k) (quartiles):", "",
             "| quantity | stratifier | observed ÷ predicted (random) | observed ÷ predicted (stratified) |",
             "|---|---|---|---|"]
    theory = summary[summary["section"] == "theory"]
    for (quantity, st), _ in theory.groupby(["subject", "stratifier"], sort=False):
        k = dict(subject=quantity, stratifier=st)
        lines.append(f"| {quantity} | {st} | {s.spread('theory', 'random', **k)} | {s.spread('theory', 'stratified', **k)} |")
    k = dict(subject="f1_gap", stratifier=baseline)
    if s.has("theory", "gap_observed", **k):
        observed, random, stratified = (s("theory", f"gap_{c}", **k) for c in ("observed", "random", "stratified"))
        shrinks = np.isfinite(stratified) and np.isfinite(random) and stratified < random
        lines += ["", f"For `{baseline}` the per-part macro-F1 lies below the pooled one by a median {_f(observed)} "
                  f"(the count model predicts {_f(random)}); for label-stratified parts it predicts {_f(stratified)}: "
                  + ("stratifying shrinks the per-part estimator's bias, which the pooled estimator does not have."
                     if shrinks else "here stratifying would not shrink the per-part estimator's bias.")]
    return lines


def _caveats(setup: dict) -> list[str]:
    forest = setup.get("forest") or {}
    fast = [name for name in setup["learners"] if name != "forest" or not forest]
    reach = ""
    if "forest" in setup["learners"] and forest:
        reach = (f" The forest ran on {', '.join(forest.get('datasets', ['every dataset']))} at m ∈ "
                 f"{forest.get('sizes', setup['sizes'])} only: a few cells of the study.")
    return [f"- Learners {', '.join(fast)}, chosen to be fast, not strong; a learner whose fit depends more on which "
            f"rows it sees may react to the split otherwise.{reach}",
            f"- {len(setup['datasets'])} datasets; no claim here extends to datasets unlike them.",
            "- Two targets: the model at hand on a finite truth set (whose noise is shown) and the expected risk at the "
            "training size of the folds; every comparison uses the first.",
            "- Two estimators, each compared with the baseline's same estimator: a stratifier's gain with one of them "
            "need not hold with the other.",
            f"- Development samples of {setup['sizes']} rows: nothing here speaks for larger samples."]


NUMBER = re.compile(r"(?<![\w.\-/§])[-+−]?\d+(?:\.\d+)?(?:e[-+]?\d+)?%?(?![\w])")
CITATION = re.compile(r"\b(?:19|20)\d\d\)")  # a cited work's year, "(… & Tibshirani 2023)"


def _forms(value: float) -> set[str]:
    """The ways the page may print ``value``."""
    if not np.isfinite(value):
        return {"∞"} if value > 0 else set()
    forms = {_f(value), _f(value, 2), _pct(value), _share(value)}
    if float(value).is_integer():
        forms.add(str(int(value)))
    return {f.replace("+", "") for f in forms} | forms


def unpublished_numbers(page: str, tables: list[pd.DataFrame], config: dict) -> list[str]:
    """The numbers of ``page`` that no table nor config value gives (as the page formats them), apart from
    :data:`CONSTANTS` and cited years: what a reader could not find in what is published with it."""
    known = {form for c in CONSTANTS for form in (str(c), f"{c}%")}
    for frame in tables:
        for column in frame.columns:
            values = pd.to_numeric(frame[column], errors="coerce").dropna().to_numpy(dtype=float)
            for v in np.unique(values):
                known |= _forms(v)

    def walk(node):
        if isinstance(node, dict):
            for v in node.values():
                walk(v)
        elif isinstance(node, list | tuple):
            for v in node:
                walk(v)
        elif isinstance(node, int | float) and not isinstance(node, bool):
            known.update(_forms(float(node)))

    walk(config)
    text = CITATION.sub(")", page)
    return [n for n in NUMBER.findall(text) if n.replace("−", "-").lstrip("+") not in known and n not in known]
