"""From the jobs' rows to the study's tables (docs/ALGORITHMS.md §12).

Per cell (dataset, m, k, learner, measure, estimator, stratifier), over the R development samples r, with ē_r
and v_r the mean and the variance (ddof 0) of the J estimates of sample r, t_r its truth (``err_xy``) and
d_r = ē_r − t_r:

- ``bias`` = mean_r d_r; ``split_variance`` = mean_r v_r, E[Var(ê | D)]; ``sample_term`` = var_r d_r (ddof 0),
  Var(E[ê | D] − t); ``mse`` = bias² + split_variance + sample_term = mean_rj (e_rj − t_r)², exactly;
- ``truth_noise``: the variance of t_r over bootstrap resamples of its pool (mean over the samples where it
  was computed): the part of ``mse`` that is the truth's own noise, not the estimate's error;
- ``corr``: the correlation over r of ē_r and t_r;
- against ``err`` (the expected risk of a model trained on m(k − 1)/k rows, the mean over r of a fresh
  model's pool value, with its standard error ``err_se``): ``bias_err``, ``sample_err`` = var_r ē_r and
  ``mse_err`` = bias_err² + split_variance + sample_err.

The comparisons with the baseline are paired over the R samples of a cell (:func:`paired_table`): the MSE
ratio and the split-variance ratio with 95% bootstrap percentile intervals (resampling the samples, the same
resamples for both), the shift of each term of the decomposition as a share of the baseline's MSE with its
interval, and a two-sided Wilcoxon signed-rank test of the per-sample squared errors, its p adjusted by
Benjamini–Hochberg over every test of the study (the whole grid). The pooled and per-part estimators are
compared the same way (:func:`estimator_table`), as is CV's choice of model (:func:`choice_table`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stratbench.cv_error.measures import LOWER_IS_BETTER, MEASURES

CELL = ["dataset", "m", "k", "learner", "measure", "estimator"]
KEYS = [*CELL, "stratifier"]
ERROR_COLUMNS = [*KEYS, "samples", "bias", "split_variance", "sample_term", "mse", "rmse", "truth_noise", "corr",
                 "err", "err_se", "bias_err", "sample_err", "mse_err", "undefined", "parts_undefined",
                 "distinct_test_sets", "test_sets", "truth_mean"]
TERMS = ("bias2", "split_variance", "sample_term")
PAIRED_COLUMNS = [*KEYS, "baseline", "samples", "mse_ratio", "mse_ratio_low", "mse_ratio_high", "split_ratio",
                  "split_ratio_low", "split_ratio_high", *(f"{t}_shift{s}" for t in TERMS for s in ("", "_low", "_high")),
                  "wins", "losses", "p", "q", "significant"]
ESTIMATOR_COLUMNS = ["dataset", "m", "k", "learner", "measure", "stratifier", "samples", "rmse_part_mean", "rmse_pooled",
                     "ratio", "ratio_low", "ratio_high", "bias_part_mean", "bias_pooled"]
CHOICE_COLUMNS = ["dataset", "m", "k", "measure", "estimator", "task", "stratifier", "samples", "choices", "agreement",
                  "agreement_low", "agreement_high", "regret", "baseline_gap", "baseline_gap_low", "baseline_gap_high"]
THEORY_COLUMNS = ["dataset", "m", "k", "stratifier", "quantity", "samples", "observed", "random", "stratified"]
RESAMPLES = 1000


def per_sample(truth: pd.DataFrame, stats: pd.DataFrame) -> pd.DataFrame:
    """The jobs' per-sample rows joined with both truths: columns of ``stats`` and ``truth``, ``noise``,
    ``fresh`` (the ``err`` target's value for the sample) and ``d`` = mean − truth."""
    keys = ["dataset", "m", "sample", "learner", "measure", "k"]
    at_hand = truth[truth["target"] == "err_xy"][[*keys, "truth", "noise"]]
    fresh = truth[truth["target"] == "err"][[*keys, "truth"]].rename(columns={"truth": "fresh"})
    s = stats.merge(at_hand, on=keys, how="left", validate="many_to_one").merge(fresh, on=keys, how="left",
                                                                               validate="many_to_one")
    return s.assign(d=s["mean"] - s["truth"])


def error_table(samples: pd.DataFrame, splits: pd.DataFrame, stratifier_order: list[str]) -> pd.DataFrame:
    """The decomposition of every cell, columns :data:`ERROR_COLUMNS`."""
    s = samples.assign(d2=samples["d"] ** 2, m2=samples["mean"] ** 2, t2=samples["truth"] ** 2,
                       mt=samples["mean"] * samples["truth"])
    g = s.groupby(KEYS, sort=False, observed=True)
    t = g.agg(samples=("d", "count"), bias=("d", "mean"), d2=("d2", "mean"), split_variance=("variance", "mean"),
              mean=("mean", "mean"), m2=("m2", "mean"), truth_mean=("truth", "mean"), t2=("t2", "mean"),
              mt=("mt", "mean"), truth_noise=("noise", "mean"), err=("fresh", "mean"), err_sd=("fresh", "std"),
              undefined=("undefined", "mean"), parts_undefined=("parts_undefined", "mean")).reset_index()
    t["sample_term"] = np.maximum(t["d2"] - t["bias"] ** 2, 0.0)
    t["mse"] = t["bias"] ** 2 + t["split_variance"] + t["sample_term"]
    t["rmse"] = np.sqrt(t["mse"])
    var_e, var_t = np.maximum(t["m2"] - t["mean"] ** 2, 0), np.maximum(t["t2"] - t["truth_mean"] ** 2, 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        t["corr"] = (t["mt"] - t["mean"] * t["truth_mean"]) / np.sqrt(var_e * var_t)
    t["err_se"] = t["err_sd"] / np.sqrt(t["samples"])
    t["bias_err"] = t["mean"] - t["err"]
    t["sample_err"] = var_e
    t["mse_err"] = t["bias_err"] ** 2 + t["split_variance"] + t["sample_err"]
    distinct = splits.groupby(["dataset", "m", "k", "stratifier"]).agg(
        distinct_test_sets=("distinct_test_sets", "mean"), test_sets=("test_sets", "first")).reset_index()
    t = t.merge(distinct, on=["dataset", "m", "k", "stratifier"], how="left")
    return _ordered(t, stratifier_order)[ERROR_COLUMNS]


def _ordered(frame: pd.DataFrame, stratifier_order: list[str], keys=KEYS) -> pd.DataFrame:
    frame = frame.copy()
    frame["measure"] = pd.Categorical(frame["measure"], [m for m in MEASURES if m in set(frame["measure"])])
    frame["stratifier"] = pd.Categorical(frame["stratifier"], stratifier_order)
    frame = frame.sort_values([k for k in keys if k in frame]).reset_index(drop=True)
    frame["measure"] = frame["measure"].astype(str)
    frame["stratifier"] = frame["stratifier"].astype(str)
    return frame


def benjamini_hochberg(p: np.ndarray) -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (q-values; scipy's ``false_discovery_control``), NaN kept.

    >>> benjamini_hochberg(np.array([0.01, 0.04, 0.03, np.nan])).round(3).tolist()
    [0.03, 0.04, 0.04, nan]
    """
    from scipy.stats import false_discovery_control

    p = np.asarray(p, dtype=float)
    q = np.full_like(p, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        q[ok] = false_discovery_control(p[ok], method="bh")
    return q


def _terms(d: np.ndarray, v: np.ndarray) -> tuple[np.ndarray, ...]:
    """(bias², split variance, sample term, mse) over the last axis of per-sample d and v."""
    bias2 = d.mean(axis=-1) ** 2
    split = v.mean(axis=-1)
    sample = np.maximum((d**2).mean(axis=-1) - bias2, 0.0)
    return bias2, split, sample, bias2 + split + sample


def _interval(values: np.ndarray) -> tuple[float, float]:
    finite = values[np.isfinite(values)]
    if len(finite) < 0.9 * len(values) or not len(finite):
        return float("nan"), float("nan")
    return float(np.percentile(finite, 2.5)), float(np.percentile(finite, 97.5))


def paired_table(samples: pd.DataFrame, baseline: str, alpha: float = 0.05, seed: int = 0) -> pd.DataFrame:
    """Each stratifier against ``baseline`` in every cell, paired over the samples (module doc); columns
    :data:`PAIRED_COLUMNS`, ``significant`` where the BH-adjusted q < ``alpha``."""
    from scipy.stats import wilcoxon

    rng = np.random.default_rng(seed)
    rows = []
    for cell, part in samples.groupby(CELL, sort=False, observed=True):
        d = part.pivot(index="sample", columns="stratifier", values="d")
        v = part.pivot(index="sample", columns="stratifier", values="variance")
        if baseline not in d:
            continue
        keep = d.notna().all(axis=1) & v.notna().all(axis=1)
        d, v = d[keep], v[keep]
        R = len(d)
        if R < 2:
            continue
        idx = rng.integers(0, R, (RESAMPLES, R))
        db, vb = d[baseline].to_numpy(), v[baseline].to_numpy()
        base_terms = _terms(db, vb)
        base_boot = _terms(db[idx], vb[idx])
        for s in [c for c in d.columns if c != baseline]:
            ds, vs = d[s].to_numpy(), v[s].to_numpy()
            terms = _terms(ds, vs)
            boot = _terms(ds[idx], vs[idx])
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = terms[3] / base_terms[3]
                boot_ratio = boot[3] / base_boot[3]
                split_ratio = terms[1] / base_terms[1]
                boot_split = boot[1] / base_boot[1]
                shifts = [(terms[i] - base_terms[i]) / base_terms[3] for i in range(3)]
                boot_shifts = [(boot[i] - base_boot[i]) / base_boot[3] for i in range(3)]
            per = (vs + ds**2) - (vb + db**2)  # per-sample squared error, the stratifier's minus the baseline's
            wins, losses = int((per < 0).sum()), int((per > 0).sum())
            p = float(wilcoxon(per, zero_method="wilcox").pvalue) if wins + losses else 1.0
            row = dict(zip(CELL, cell), stratifier=s, baseline=baseline, samples=R, mse_ratio=float(ratio),
                       split_ratio=float(split_ratio), wins=wins, losses=losses, p=p)
            row["mse_ratio_low"], row["mse_ratio_high"] = _interval(boot_ratio)
            row["split_ratio_low"], row["split_ratio_high"] = _interval(boot_split)
            for name, shift, boot_shift in zip(TERMS, shifts, boot_shifts):
                row[f"{name}_shift"] = float(shift)
                row[f"{name}_shift_low"], row[f"{name}_shift_high"] = _interval(boot_shift)
            rows.append(row)
    table = pd.DataFrame(rows)
    if table.empty:
        return pd.DataFrame(columns=PAIRED_COLUMNS)
    table["q"] = benjamini_hochberg(table["p"].to_numpy())
    table["significant"] = table["q"] < alpha
    return table[PAIRED_COLUMNS]


def estimator_table(samples: pd.DataFrame, seed: int = 0) -> pd.DataFrame:
    """The pooled estimator's RMSE against the per-part mean's, paired over the samples of each (dataset, m,
    k, learner, measure, stratifier), with a 95% bootstrap interval of the ratio."""
    rng = np.random.default_rng(seed)
    rows = []
    keys = ["dataset", "m", "k", "learner", "measure", "stratifier"]
    for cell, part in samples.groupby(keys, sort=False, observed=True):
        d = part.pivot(index="sample", columns="estimator", values="d")
        v = part.pivot(index="sample", columns="estimator", values="variance")
        if not {"part_mean", "pooled"} <= set(d):
            continue
        keep = d.notna().all(axis=1) & v.notna().all(axis=1)
        d, v = d[keep], v[keep]
        if len(d) < 2:
            continue
        idx = rng.integers(0, len(d), (RESAMPLES, len(d)))
        mse = {e: _terms(d[e].to_numpy(), v[e].to_numpy())[3] for e in ("part_mean", "pooled")}
        boot = {e: _terms(d[e].to_numpy()[idx], v[e].to_numpy()[idx])[3] for e in ("part_mean", "pooled")}
        with np.errstate(divide="ignore", invalid="ignore"):
            ratio = np.sqrt(mse["pooled"] / mse["part_mean"])
            low, high = _interval(np.sqrt(boot["pooled"] / boot["part_mean"]))
        rows.append(dict(zip(keys, cell), samples=len(d), rmse_part_mean=float(np.sqrt(mse["part_mean"])),
                         rmse_pooled=float(np.sqrt(mse["pooled"])), ratio=float(ratio), ratio_low=low, ratio_high=high,
                         bias_part_mean=float(d["part_mean"].mean()), bias_pooled=float(d["pooled"].mean())))
    return pd.DataFrame(rows, columns=ESTIMATOR_COLUMNS)


def choice_table(truth: pd.DataFrame, choices: pd.DataFrame, baseline: str, seed: int = 0) -> pd.DataFrame:
    """How often CV picks the candidate the truth (``err_xy``) picks, and the truth lost by its pick, per
    (dataset, m, k, measure, estimator, task, stratifier), each with a 95% bootstrap interval over the samples,
    and the difference in agreement from ``baseline`` (paired over the samples) with its interval."""
    if choices.empty:
        return pd.DataFrame(columns=CHOICE_COLUMNS)
    rng = np.random.default_rng(seed)
    t = truth[truth["target"] == "err_xy"].drop_duplicates(["dataset", "m", "sample", "learner", "measure"])
    t = t.assign(score=np.where(t["measure"].isin(LOWER_IS_BETTER), -1.0, 1.0) * t["truth"])
    c = choices.merge(t[["dataset", "m", "sample", "learner", "measure", "score"]].rename(columns={"learner": "candidate"}),
                      on=["dataset", "m", "sample", "measure", "candidate"], how="left", validate="many_to_one")
    group = ["dataset", "m", "k", "measure", "estimator", "task", "stratifier", "sample"]
    best = c.groupby(group, sort=False)["score"].transform("max")
    repeats = c.groupby(group, sort=False)["picked"].transform("sum")
    c = c.assign(agree=np.where(c["score"] == best, c["picked"], 0) / repeats,
                 regret=(best - c["score"]) * c["picked"] / repeats)
    per = c.groupby(group, sort=False).agg(agree=("agree", "sum"), regret=("regret", "sum"),
                                           choices=("picked", "sum")).reset_index()
    rows = []
    for cell, part in per.groupby(group[:-2], sort=False):
        a = part.pivot(index="sample", columns="stratifier", values="agree").dropna()
        if a.empty:
            continue
        idx = rng.integers(0, len(a), (RESAMPLES, len(a)))
        regret = part.groupby("stratifier")["regret"].mean()
        choices_n = part.groupby("stratifier")["choices"].sum()
        for s in a.columns:
            values = a[s].to_numpy()
            row = dict(zip(group[:-2], cell), stratifier=s, samples=len(a), choices=int(choices_n[s]),
                       agreement=float(values.mean()), regret=float(regret[s]))
            row["agreement_low"], row["agreement_high"] = _interval(values[idx].mean(axis=1))
            if baseline in a and s != baseline:
                gap = values - a[baseline].to_numpy()
                row["baseline_gap"] = float(gap.mean())
                row["baseline_gap_low"], row["baseline_gap_high"] = _interval(gap[idx].mean(axis=1))
            rows.append(row)
    return pd.DataFrame(rows, columns=CHOICE_COLUMNS)


def theory_table(theory: pd.DataFrame) -> pd.DataFrame:
    """The count model's predictions beside what the splits gave: means over the samples of each (dataset, m,
    k, stratifier, quantity)."""
    keys = ["dataset", "m", "k", "stratifier", "quantity"]
    return theory.groupby(keys, sort=False).agg(samples=("sample", "count"), observed=("observed", "mean"),
                                                random=("random", "mean"),
                                                stratified=("stratified", "mean")).reset_index()[THEORY_COLUMNS]
