"""From the jobs' rows to the study's tables: the error of the CV estimate per stratifier, the choice
of learner, and the tests across (dataset, m) blocks (docs/ALGORITHMS.md §12).

Per (dataset, m, k, learner, measure, stratifier), over the R development samples r and J CV repeats j,
with e_rj the estimate and t_r the truth:

- ``bias`` = mean_rj (e_rj − t_r);
- ``split_variance`` = mean_r var_j(e_rj) (ddof 1): the variance due to the split alone;
- ``rmse`` = √ mean_rj (e_rj − t_r)²: the error of one CV against the truth;
- ``rmse_repeated`` = √ mean_r (ē_r − t_r)², ē_r = mean_j e_rj: the error of the J-times repeated CV;
- ``sample_gain`` = split_variance(baseline) / split_variance: how many repeats of the baseline's CV
  (random k-fold) give the split variance of one CV of this stratifier (∞ where a stratifier ignores
  its seed and has none, as unshuffled k-fold; NaN where neither varies);
- ``undefined`` = mean share of the labels left out of a part's macro measure, ``parts_undefined`` = the
  share of test parts where some label was;
- ``distinct_test_sets`` = mean over samples of the distinct test sets among the J·k (of ``test_sets``).

Model choice, per (dataset, m, k, measure, stratifier): ``agreement`` = the share of (r, j) where CV's
best learner is the truth's best of sample r, and ``regret`` = the mean truth lost by CV's choice.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stratbench import stats
from stratbench.cv_error.measures import LOWER_IS_BETTER, MEASURES

KEYS = ["dataset", "m", "k", "learner", "measure", "stratifier"]
ERROR_COLUMNS = [*KEYS, "estimates", "bias", "split_variance", "rmse", "rmse_repeated", "sample_gain", "undefined",
                 "parts_undefined", "distinct_test_sets", "test_sets", "truth_mean"]
CHOICE_COLUMNS = ["dataset", "m", "k", "measure", "stratifier", "choices", "agreement", "regret"]
PAIRED_COLUMNS = ["k", "learner", "measure", "stratifier", "baseline", "blocks", "wins", "losses", "ties",
                  "median_rmse_ratio", "p", "p_holm", "significant"]


def _split_variance(estimates: pd.Series) -> float:
    """var (ddof 1) of one sample's estimates over its CV repeats; exactly 0 where they are all equal (the
    mean of equal floats can differ from them in the last bit), NaN with fewer than two defined."""
    v = estimates.dropna().to_numpy()
    if len(v) < 2:
        return float("nan")
    return 0.0 if v.min() == v.max() else float(np.var(v, ddof=1))


def _ordered(frame: pd.DataFrame, stratifier_order: list[str]) -> pd.DataFrame:
    frame = frame.copy()
    frame["measure"] = pd.Categorical(frame["measure"], [m for m in MEASURES if m in set(frame["measure"])])
    frame["stratifier"] = pd.Categorical(frame["stratifier"], stratifier_order)
    return frame


def error_table(truth: pd.DataFrame, estimates: pd.DataFrame, splits: pd.DataFrame, stratifier_order: list[str],
                baseline: str = "random") -> pd.DataFrame:
    """The error of the estimate per (dataset, m, k, learner, measure, stratifier), columns
    :data:`ERROR_COLUMNS`."""
    joined = estimates.merge(truth[["dataset", "m", "sample", "learner", "measure", "truth"]],
                             on=["dataset", "m", "sample", "learner", "measure"], how="left", validate="many_to_one")
    joined["error"] = joined["estimate"] - joined["truth"]
    per_sample = joined.groupby([*KEYS, "sample"], sort=False, observed=True).agg(
        mean_estimate=("estimate", "mean"), variance=("estimate", _split_variance), truth=("truth", "first")).reset_index()
    per_sample["repeated_error2"] = (per_sample["mean_estimate"] - per_sample["truth"]) ** 2
    table = joined.groupby(KEYS, sort=False, observed=True).agg(
        estimates=("estimate", "count"), bias=("error", "mean"),
        rmse=("error", lambda e: float(np.sqrt(np.nanmean(e.to_numpy() ** 2))) if e.notna().any() else np.nan),
        undefined=("undefined", "mean"), parts_undefined=("parts_undefined", "sum"),
        truth_mean=("truth", "mean")).reset_index()
    parts = joined.groupby(KEYS, sort=False, observed=True)["k"].sum().to_numpy()  # test parts of the CVs
    table["parts_undefined"] = table["parts_undefined"] / parts
    spread = per_sample.groupby(KEYS, sort=False, observed=True).agg(
        split_variance=("variance", "mean"),
        rmse_repeated=("repeated_error2", lambda v: float(np.sqrt(v.mean())))).reset_index()
    table = table.merge(spread, on=KEYS)
    distinct = splits.groupby(["dataset", "m", "k", "stratifier"]).agg(
        distinct_test_sets=("distinct_test_sets", "mean"), test_sets=("test_sets", "first")).reset_index()
    table = table.merge(distinct, on=["dataset", "m", "k", "stratifier"], how="left")
    reference = table[table["stratifier"] == baseline].set_index(KEYS[:-1])["split_variance"]
    base = reference.reindex(pd.MultiIndex.from_frame(table[KEYS[:-1]])).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        table["sample_gain"] = np.where(table["split_variance"] > 0, base / table["split_variance"].to_numpy(),
                                        np.where(base > 0, np.inf, np.nan))  # 0/0: neither split varies
    table = _ordered(table, stratifier_order).sort_values(KEYS).reset_index(drop=True)
    table["measure"] = table["measure"].astype(str)
    table["stratifier"] = table["stratifier"].astype(str)
    return table[ERROR_COLUMNS]


def choice_table(truth: pd.DataFrame, estimates: pd.DataFrame, stratifier_order: list[str]) -> pd.DataFrame:
    """How often CV picks the learner the truth picks, per (dataset, m, k, measure, stratifier); empty
    with fewer than two learners."""
    if estimates["learner"].nunique() < 2:
        return pd.DataFrame(columns=CHOICE_COLUMNS)
    sign = np.where(estimates["measure"].isin(LOWER_IS_BETTER), -1.0, 1.0)
    e = estimates.assign(score=(sign * estimates["estimate"]).fillna(-np.inf))  # an undefined estimate: never chosen
    best_cv = e.sort_values("learner", kind="stable").loc[
        lambda f: f.groupby(["dataset", "m", "stratifier", "sample", "k", "repeat", "measure"])["score"].idxmax()]
    t = truth.assign(score=np.where(truth["measure"].isin(LOWER_IS_BETTER), -1.0, 1.0) * truth["truth"])
    truth_best = t.loc[t.groupby(["dataset", "m", "sample", "measure"])["score"].idxmax()]
    keys = ["dataset", "m", "sample", "measure"]
    merged = best_cv.merge(truth_best[[*keys, "learner", "score"]].rename(
        columns={"learner": "truth_learner", "score": "truth_best"}), on=keys)
    merged = merged.merge(t[[*keys, "learner", "score"]].rename(columns={"score": "truth_of_choice"}), on=[*keys, "learner"])
    merged["agree"] = merged["learner"] == merged["truth_learner"]
    merged["regret"] = merged["truth_best"] - merged["truth_of_choice"]
    table = merged.groupby(["dataset", "m", "k", "measure", "stratifier"]).agg(
        choices=("agree", "size"), agreement=("agree", "mean"), regret=("regret", "mean")).reset_index()
    table = _ordered(table, stratifier_order).sort_values(CHOICE_COLUMNS[:5]).reset_index(drop=True)
    table["measure"] = table["measure"].astype(str)
    table["stratifier"] = table["stratifier"].astype(str)
    return table[CHOICE_COLUMNS]


def with_blocks(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with a ``block`` column "dataset m=…": the blocks of the tests across (dataset, m)."""
    return table.assign(block=table["dataset"] + " m=" + table["m"].astype(str))


def friedman_tables(errors: pd.DataFrame, choices: pd.DataFrame, alpha: float = 0.05):
    """Friedman/Iman–Davenport/Nemenyi over (dataset, m) blocks: of ``rmse`` (lower is better) per
    (k, learner, measure), and of ``agreement`` (higher is better) per (k, measure). Returns (ranks,
    tests, pairs), the comparisons stacked with a ``value`` column naming what was ranked."""
    out = [[], [], []]
    blocks = with_blocks(errors).drop(columns="dataset").rename(columns={"block": "dataset"})
    parts = [(blocks, "rmse", ["k", "learner", "measure"], True)]
    if len(choices):
        chosen = with_blocks(choices).drop(columns="dataset").rename(columns={"block": "dataset"})
        parts.append((chosen.assign(learner="(choice)"), "agreement", ["k", "learner", "measure"], False))
    for frame, value, by, ascending in parts:
        frame = frame.replace([np.inf, -np.inf], np.nan)
        results = stats.compare(frame, value, by, {"all": sorted(frame["dataset"].unique())}, ascending, alpha)
        for i, r in enumerate(results):
            out[i].append(r.drop(columns="group").assign(value=value).rename(columns={"datasets": "blocks"}))
    return tuple(pd.concat(parts_, ignore_index=True) for parts_ in out)


def paired_tests(errors: pd.DataFrame, baseline: str = "random", alpha: float = 0.05) -> pd.DataFrame:
    """Each stratifier against ``baseline`` per (k, learner, measure): RMSE wins/losses over the (dataset,
    m) blocks, the median of RMSE / RMSE(baseline), and the two-sided Wilcoxon signed-rank test of the
    paired RMSEs (zero differences dropped), Holm-corrected over the stratifiers of one (k, learner,
    measure)."""
    from scipy.stats import wilcoxon

    rows = []
    blocks = with_blocks(errors)
    for (k, learner, measure), part in blocks.groupby(["k", "learner", "measure"], sort=False):
        table = part.pivot(index="block", columns="stratifier", values="rmse")
        if baseline not in table:
            continue
        found = []
        for s in [c for c in part["stratifier"].unique() if c != baseline]:
            pair = table[[s, baseline]].dropna()
            d = (pair[s] - pair[baseline]).to_numpy()
            wins, losses = int((d < 0).sum()), int((d > 0).sum())
            p = float(wilcoxon(d, zero_method="wilcox").pvalue) if wins + losses else 1.0
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = float(np.median(pair[s] / pair[baseline])) if len(pair) else np.nan
            found.append(dict(k=k, learner=learner, measure=measure, stratifier=s, baseline=baseline, blocks=len(d),
                              wins=wins, losses=losses, ties=len(d) - wins - losses, median_rmse_ratio=ratio, p=p))
        adjusted = stats.holm([f["p"] for f in found]) if found else []
        for f, p_holm in zip(found, adjusted):
            rows.append({**f, "p_holm": float(p_holm), "significant": bool(p_holm < alpha)})
    return pd.DataFrame(rows, columns=PAIRED_COLUMNS)


def overview_markdown(errors: pd.DataFrame, choices: pd.DataFrame, baseline: str) -> str:
    """One row per (measure, stratifier): medians over the (dataset, m, k, learner) cells of |bias|, the
    split variance, RMSE / RMSE(baseline) and the sample gain; the mean share of test parts with an
    undefined label and of distinct test sets; CV's agreement with the truth's choice of learner."""
    cells = ["dataset", "m", "k", "learner", "measure"]
    base = errors[errors["stratifier"] == baseline].set_index(cells)["rmse"]
    e = errors.assign(ratio=errors["rmse"].to_numpy() / base.reindex(pd.MultiIndex.from_frame(errors[cells])).to_numpy(),
                      abs_bias=errors["bias"].abs(), distinct=errors["distinct_test_sets"] / errors["test_sets"])
    agree = choices.groupby(["measure", "stratifier"])["agreement"].mean() if len(choices) else pd.Series(dtype=float)
    lines = ["| measure | stratifier | median abs bias | median split variance | median RMSE ÷ baseline | "
             "median sample gain | parts with an undefined label | distinct test sets | CV picks the true best |",
             "|---|---|---|---|---|---|---|---|---|"]
    for (measure, stratifier), g in e.groupby(["measure", "stratifier"], sort=False):
        gains = g["sample_gain"].dropna()
        gain = float(np.median(gains)) if len(gains) else float("nan")
        picked = agree.get((measure, stratifier), np.nan)
        lines.append(f"| {measure} | {stratifier} | {g['abs_bias'].median():.4f} | {g['split_variance'].median():.2e} | "
                     f"{g['ratio'].median():.3f} | {'∞' if np.isinf(gain) else 'n/a' if np.isnan(gain) else f'{gain:.2f}'} | "
                     f"{100 * g['parts_undefined'].mean():.1f}% | {100 * g['distinct'].mean():.0f}% | "
                     f"{'' if np.isnan(picked) else f'{100 * picked:.1f}%'} |")
    return "\n".join(lines) + "\n"
