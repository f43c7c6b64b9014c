"""From the jobs' rows to the study's tables (docs/ALGORITHMS.md §12).

Per cell (dataset, m, k, learner, measure, estimator, stratifier), over the R development samples r, with ē_r
and v_r the mean and the variance (ddof 0) of the J_r estimates of sample r, t_r its truth (``err_xy``) and
d_r = ē_r − t_r; s²_d the variance of the d_r (ddof 1) and u_r = v_r J_r/(J_r − 1) the unbiased split variance
of sample r:

- ``mse`` = mean_r (v_r + d_r²) = mean_rj (e_rj − t_r)²: unbiased for the MSE of one CV against the truth;
- ``split_variance`` = mean_r u_r, unbiased for E[Var(ê | D)];
- ``sample_term`` = s²_d − mean_r u_r/J_r, unbiased for Var(E[ê | D] − t) (d_r holds ē_r, whose mean of J
  repeats adds σ²/J to its spread);
- ``bias2`` = (mean_r d_r)² − s²_d/R, unbiased for bias² (the squared mean adds Var(d)/R); it can come out
  below 0 where the bias is small. The three terms add up to ``mse`` exactly;
- ``truth_noise``: the variance of t_r over bootstrap resamples of the truth set (mean over the samples where
  it was computed): the part of ``mse`` that is the truth's own noise, not the estimate's error;
- ``corr``: the correlation over r of ē_r and t_r;
- against ``err`` (the expected risk of a model trained on m(k − 1)/k rows, the mean over r of a fresh
  model's value, with its standard error ``err_se``): ``bias_err`` and ``mse_err`` = mean_r (v_r + (ē_r − err)²);
- ``overlap`` = m / rest, the expected share of rows two development samples share (they are drawn from the
  same rest of the dataset), and ``labels``, the mean size of a macro measure's label set.

The comparisons with the baseline are paired over the R samples of a cell (:func:`paired_table`). The effect
reported is the MSE ratio; its test is a paired t-test of the mean of the per-sample squared-error differences
(zero exactly where the ratio is one), with the variance corrected for the samples' overlap ρ = m/rest as
Nadeau & Bengio (2003) correct resampled tests: s²(1/R + ρ/(1 − ρ)), R − 1 degrees of freedom. Beside it: the
MSE and split-variance ratios with 95% bootstrap percentile intervals (resampling the samples, the same
resamples for both; they ignore the overlap, so they are narrower than the test), each term's shift as a
share of the baseline's MSE, and the number of the baseline's repeats whose mean has the stratifier's MSE
(``random_repeats``: the baseline's MSE with J repeats is bias² + sample term + split variance/J; infinite
where the stratifier's MSE lies at or below the baseline's floor bias² + sample term). The declared A/A
controls (``cv_error.controls``) are tested the same way and kept out of the family; a test whose per-sample
differences repeat another's exactly (e.g. Hamming loss pooled and per part, where the parts are of one size)
is counted once; over the rest, Benjamini–Hochberg q (``q``, which ``significant`` uses) and
Benjamini–Yekutieli q (``q_by``, valid under any dependence). The headline is per dataset, then across the
datasets (:func:`dataset_table`, :func:`headline_table`). The pooled and per-part estimators are compared the
same way (:func:`estimator_table`), as is CV's choice of model (:func:`choice_table`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stratbench.cv_error.measures import LOWER_IS_BETTER, MEASURES

CELL = ["dataset", "m", "k", "learner", "measure", "estimator"]
KEYS = [*CELL, "stratifier"]
ERROR_COLUMNS = [*KEYS, "samples", "bias", "bias2", "split_variance", "sample_term", "mse", "rmse", "truth_noise",
                 "corr", "err", "err_se", "bias_err", "mse_err", "undefined", "parts_undefined", "distinct_test_sets",
                 "test_sets", "truth_mean", "labels", "overlap"]
TERMS = ("bias2", "split_variance", "sample_term")
PAIRED_COLUMNS = [*KEYS, "baseline", "control", "samples", "overlap", "mse_ratio", "mse_ratio_low", "mse_ratio_high",
                  "mse_difference", "t", "p", "p_uncorrected", "duplicate", "q", "q_by", "significant", "split_ratio", "split_ratio_low",
                  "split_ratio_high", "random_repeats", "random_repeats_low", "random_repeats_high",
                  *(f"{t}_shift{s}" for t in TERMS for s in ("", "_low", "_high")), "wins", "losses"]
DATASET_COLUMNS = ["dataset", "stratifier", "control", "measure", "estimator", "cells", "median_ratio", "lower",
                   "higher"]
HEADLINE_COLUMNS = ["stratifier", "control", "measure", "estimator", "datasets", "below", "above", "sign_p",
                    "median_ratio", "lowest_ratio", "highest_ratio"]
CONTROL_COLUMNS = ["stratifier", "estimator", "tests", "alpha", "rejected", "rate", "rate_low", "rate_high",
                   "rejected_uncorrected", "rate_uncorrected", "rate_uncorrected_low", "rate_uncorrected_high"]
ESTIMATOR_COLUMNS = ["dataset", "m", "k", "learner", "measure", "stratifier", "samples", "rmse_part_mean", "rmse_pooled",
                     "ratio", "ratio_low", "ratio_high", "bias_part_mean", "bias_pooled"]
CHOICE_COLUMNS = ["dataset", "m", "k", "measure", "estimator", "task", "stratifier", "samples", "choices", "agreement",
                  "agreement_low", "agreement_high", "regret", "baseline_gap", "baseline_gap_low", "baseline_gap_high"]
THEORY_COLUMNS = ["dataset", "m", "k", "stratifier", "quantity", "samples", "observed", "random", "stratified"]
RESAMPLES = 1000


def per_sample(truth: pd.DataFrame, stats: pd.DataFrame) -> pd.DataFrame:
    """The jobs' per-sample rows joined with both truths: columns of ``stats`` and ``truth``, ``noise``,
    ``labels``, ``rest``, ``fresh`` (the ``err`` target's value for the sample) and ``d`` = mean − truth."""
    keys = ["dataset", "m", "sample", "learner", "measure", "k"]
    at_hand = truth[truth["target"] == "err_xy"][[*keys, "labels", "rest", "truth", "noise"]]
    fresh = truth[truth["target"] == "err"][[*keys, "truth"]].rename(columns={"truth": "fresh"})
    s = stats.merge(at_hand, on=keys, how="left", validate="many_to_one").merge(fresh, on=keys, how="left",
                                                                               validate="many_to_one")
    return s.assign(d=s["mean"] - s["truth"])


def _unbiased_split(v: np.ndarray, J: np.ndarray) -> np.ndarray:
    """u = v J/(J − 1) of each sample (NaN with one repeat)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(J > 1, v * J / (J - 1), np.nan)


def _terms(d: np.ndarray, v: np.ndarray, J: np.ndarray) -> tuple[np.ndarray, ...]:
    """(bias², split variance, sample term, mse), each unbiased (module doc), over the last axis of per-sample
    d, v (ddof 0) and J."""
    R = d.shape[-1]
    u = _unbiased_split(v, J)
    spread = d.var(axis=-1, ddof=1)
    bias2 = d.mean(axis=-1) ** 2 - spread / R
    split = u.mean(axis=-1)
    sample = spread - (u / J).mean(axis=-1)
    return bias2, split, sample, (v + d**2).mean(axis=-1)


def error_table(samples: pd.DataFrame, splits: pd.DataFrame, stratifier_order: list[str]) -> pd.DataFrame:
    """The decomposition of every cell, columns :data:`ERROR_COLUMNS`."""
    rows = []
    for key, part in samples.groupby(KEYS, sort=False, observed=True):
        part = part.dropna(subset=["d", "variance"])
        if len(part) < 2:
            continue
        d, v, J = (part[c].to_numpy(dtype=float) for c in ("d", "variance", "repeats"))
        e, t, fresh = (part[c].to_numpy(dtype=float) for c in ("mean", "truth", "fresh"))
        bias2, split, sample, mse = _terms(d, v, J)
        err = float(np.nanmean(fresh))
        with np.errstate(divide="ignore", invalid="ignore"):
            corr = float(np.corrcoef(e, t)[0, 1]) if e.std() > 0 and t.std() > 0 else float("nan")
        rows.append(dict(zip(KEYS, key), samples=len(part), bias=float(d.mean()), bias2=float(bias2),
                         split_variance=float(split), sample_term=float(sample), mse=float(mse),
                         rmse=float(np.sqrt(mse)), truth_noise=float(part["noise"].mean()), corr=corr, err=err,
                         err_se=float(np.nanstd(fresh, ddof=1) / np.sqrt(len(part))), bias_err=float(e.mean() - err),
                         mse_err=float((v + (e - err) ** 2).mean()), undefined=float(part["undefined"].mean()),
                         parts_undefined=float(part["parts_undefined"].mean()), truth_mean=float(t.mean()),
                         labels=float(part["labels"].mean()), overlap=float((part["m"] / part["rest"]).iloc[0])))
    t = pd.DataFrame(rows)
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


def benjamini_hochberg(p: np.ndarray, method: str = "bh") -> np.ndarray:
    """Benjamini–Hochberg adjusted p-values (q-values; scipy's ``false_discovery_control``), NaN kept;
    ``method="by"`` for Benjamini–Yekutieli's, valid under any dependence between the tests.

    >>> benjamini_hochberg(np.array([0.01, 0.04, 0.03, np.nan])).round(3).tolist()
    [0.03, 0.04, 0.04, nan]
    """
    from scipy.stats import false_discovery_control

    p = np.asarray(p, dtype=float)
    q = np.full_like(p, np.nan)
    ok = ~np.isnan(p)
    if ok.any():
        q[ok] = false_discovery_control(p[ok], method=method)
    return q


def overlap_t_test(differences: np.ndarray, overlap: float) -> tuple[float, float]:
    """(t, two-sided p) of the mean of paired differences over R development samples that share a share
    ``overlap`` of their rows: the variance s²(1/R + ρ/(1 − ρ)) with ρ = overlap (Nadeau & Bengio 2003), R − 1
    degrees of freedom. A mean of 0 gives p = 1; differences all equal and not 0 give p = 0.

    >>> t, p = overlap_t_test(np.array([1.0, 2.0, 3.0]), 0.0)  # mean 2, s² = 1: t = 2/sqrt(1/3)
    >>> round(t, 4), round(p, 4)
    (3.4641, 0.0742)
    """
    from scipy.stats import t as student

    R = len(differences)
    mean = float(differences.mean())
    if mean == 0.0:
        return 0.0, 1.0
    spread = float(differences.var(ddof=1))
    if spread == 0.0:
        return float(np.sign(mean) * np.inf), 0.0
    rho = min(max(overlap, 0.0), 0.99)
    t = mean / np.sqrt(spread * (1 / R + rho / (1 - rho)))
    return float(t), float(2 * student.sf(abs(t), R - 1))


def _interval(values: np.ndarray) -> tuple[float, float]:
    finite = values[np.isfinite(values)]
    if len(finite) < 0.9 * len(values) or not len(finite):
        return float("nan"), float("nan")
    return float(np.percentile(finite, 2.5)), float(np.percentile(finite, 97.5))


def _repeats_equal(mse: np.ndarray, base: tuple) -> np.ndarray:
    """The baseline's repeats J whose mean has the MSE ``mse``: split/(mse − bias² − sample term), infinite at or
    below the floor."""
    floor = base[0] + base[2]
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(mse > floor, base[1] / (mse - floor), np.inf)


def paired_table(samples: pd.DataFrame, baseline: str, alpha: float = 0.05, seed: int = 0,
                 controls: tuple = ()) -> pd.DataFrame:
    """Each stratifier against ``baseline`` in every cell, paired over the samples (module doc); columns
    :data:`PAIRED_COLUMNS`, ``significant`` where the BH q < ``alpha`` (never for a control or a duplicate's
    original counted twice)."""
    rng = np.random.default_rng(seed)
    rows = []
    for cell, part in samples.groupby(CELL, sort=False, observed=True):
        d = part.pivot(index="sample", columns="stratifier", values="d")
        v = part.pivot(index="sample", columns="stratifier", values="variance")
        J = part.pivot(index="sample", columns="stratifier", values="repeats")
        if baseline not in d:
            continue
        keep = d.notna().all(axis=1) & v.notna().all(axis=1)
        d, v, J = d[keep], v[keep], J[keep]
        R = len(d)
        if R < 2:
            continue
        overlap = float((part["m"] / part["rest"]).iloc[0])
        idx = rng.integers(0, R, (RESAMPLES, R))
        db, vb, Jb = (f[baseline].to_numpy(dtype=float) for f in (d, v, J))
        base_terms = _terms(db, vb, Jb)
        base_boot = _terms(db[idx], vb[idx], Jb[idx])
        for s in [c for c in d.columns if c != baseline]:
            ds, vs, Js = (f[s].to_numpy(dtype=float) for f in (d, v, J))
            terms = _terms(ds, vs, Js)
            boot = _terms(ds[idx], vs[idx], Js[idx])
            with np.errstate(divide="ignore", invalid="ignore"):
                ratio = terms[3] / base_terms[3]
                boot_ratio = boot[3] / base_boot[3]
                split_ratio = terms[1] / base_terms[1]
                boot_split = boot[1] / base_boot[1]
                shifts = [(terms[i] - base_terms[i]) / base_terms[3] for i in range(3)]
                boot_shifts = [(boot[i] - base_boot[i]) / base_boot[3] for i in range(3)]
            per = (vs + ds**2) - (vb + db**2)  # per-sample squared error, the stratifier's minus the baseline's
            t, p = overlap_t_test(per, overlap)
            p_uncorrected = overlap_t_test(per, 0.0)[1]
            repeats = _repeats_equal(np.array(terms[3]), base_terms)
            boot_repeats = _repeats_equal(boot[3], base_boot)
            row = dict(zip(CELL, cell), stratifier=s, baseline=baseline, control=s in controls, samples=R,
                       overlap=overlap, mse_ratio=float(ratio), mse_difference=float(per.mean()), t=t, p=p,
                       p_uncorrected=p_uncorrected,
                       split_ratio=float(split_ratio), random_repeats=float(repeats),
                       wins=int((per < 0).sum()), losses=int((per > 0).sum()),
                       _key=(cell[0], cell[1], np.round(per, 12).tobytes()))
            row["mse_ratio_low"], row["mse_ratio_high"] = _interval(boot_ratio)
            row["split_ratio_low"], row["split_ratio_high"] = _interval(boot_split)
            if np.isnan(boot_repeats).any():
                row["random_repeats_low"] = row["random_repeats_high"] = float("nan")
            else:
                low, high = np.quantile(boot_repeats, [0.025, 0.975], method="inverted_cdf")
                row["random_repeats_low"], row["random_repeats_high"] = float(low), float(high)
            for name, shift, boot_shift in zip(TERMS, shifts, boot_shifts):
                row[f"{name}_shift"] = float(shift)
                row[f"{name}_shift_low"], row[f"{name}_shift_high"] = _interval(boot_shift)
            rows.append(row)
    table = pd.DataFrame(rows)
    if table.empty:
        return pd.DataFrame(columns=PAIRED_COLUMNS)
    table["duplicate"] = table.duplicated(["control", "_key"])  # a control never stands for a test of the family
    family = ~table["control"] & ~table["duplicate"]
    q_bh, q_by = np.full(len(table), np.nan), np.full(len(table), np.nan)
    q_bh[family.to_numpy()] = benjamini_hochberg(table.loc[family, "p"].to_numpy())
    q_by[family.to_numpy()] = benjamini_hochberg(table.loc[family, "p"].to_numpy(), "by")
    table["q"], table["q_by"] = q_bh, q_by
    first = table[family].drop_duplicates("_key").set_index("_key")  # a duplicate takes its original's q
    dup = table["duplicate"] & ~table["control"]
    table.loc[dup, "q"] = table.loc[dup, "_key"].map(first["q"]).to_numpy()
    table.loc[dup, "q_by"] = table.loc[dup, "_key"].map(first["q_by"]).to_numpy()
    table["significant"] = (table["q"] < alpha) & ~table["control"]
    return table[PAIRED_COLUMNS]


def controls_table(paired: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The A/A controls' false-positive rate: per control and estimator, the share of its tests (duplicates
    counted once) with p < ``alpha``, with a Clopper–Pearson 95% interval (the tests share samples, so the
    interval is a guide, not exact); the same for the test without the overlap's correction (ρ = 0), which shows
    what the correction costs."""
    from scipy.stats import binomtest

    rows = []
    c = paired[paired["control"] & ~paired["duplicate"]]
    for (stratifier, estimator), part in c.groupby(["stratifier", "estimator"], sort=False):
        row = dict(stratifier=stratifier, estimator=estimator, tests=len(part), alpha=alpha)
        for column, suffix in (("p", ""), ("p_uncorrected", "_uncorrected")):
            rejected = int((part[column] < alpha).sum())
            interval = binomtest(rejected, len(part)).proportion_ci(0.95, method="exact")
            row |= {f"rejected{suffix}": rejected, f"rate{suffix}": rejected / len(part),
                    f"rate{suffix}_low": float(interval.low), f"rate{suffix}_high": float(interval.high)}
        rows.append(row)
    return pd.DataFrame(rows, columns=CONTROL_COLUMNS)


def dataset_table(paired: pd.DataFrame) -> pd.DataFrame:
    """Per (dataset, stratifier, measure, estimator): the median MSE ratio over its (m, k, learner) cells and
    the cells significantly lower and higher."""
    rows = []
    for key, part in paired.groupby(["dataset", "stratifier", "measure", "estimator"], sort=False):
        sig = part["significant"].astype(bool)
        rows.append(dict(zip(["dataset", "stratifier", "measure", "estimator"], key),
                         control=bool(part["control"].iloc[0]), cells=len(part),
                         median_ratio=float(np.nanmedian(part["mse_ratio"])),
                         lower=int((sig & (part["mse_ratio"] < 1)).sum()),
                         higher=int((sig & (part["mse_ratio"] > 1)).sum())))
    return pd.DataFrame(rows, columns=DATASET_COLUMNS)


def headline_table(datasets: pd.DataFrame) -> pd.DataFrame:
    """Across the datasets, per (stratifier, measure, estimator): how many datasets' median MSE ratio lies below
    and above 1, a two-sided sign test of those counts (the dataset is the unit), and the median, lowest and
    highest of the datasets' ratios."""
    from scipy.stats import binomtest

    rows = []
    for key, part in datasets.groupby(["stratifier", "measure", "estimator"], sort=False):
        r = part["median_ratio"].to_numpy(dtype=float)
        r = r[np.isfinite(r)]
        below, above = int((r < 1).sum()), int((r > 1).sum())
        rows.append(dict(zip(["stratifier", "measure", "estimator"], key), control=bool(part["control"].iloc[0]),
                         datasets=len(r), below=below, above=above,
                         sign_p=float(binomtest(below, below + above).pvalue) if below + above else 1.0,
                         median_ratio=float(np.median(r)) if len(r) else np.nan,
                         lowest_ratio=float(r.min()) if len(r) else np.nan,
                         highest_ratio=float(r.max()) if len(r) else np.nan))
    return pd.DataFrame(rows, columns=HEADLINE_COLUMNS)


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
        mse = {e: (v[e].to_numpy() + d[e].to_numpy() ** 2).mean() for e in ("part_mean", "pooled")}
        boot = {e: (v[e].to_numpy()[idx] + d[e].to_numpy()[idx] ** 2).mean(axis=-1) for e in ("part_mean", "pooled")}
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


INPUTS = ("truth", "estimates", "stats", "choices", "splits", "theory")
"""The jobs' rows the tables are made from (every (dataset, m) and stratifier's, concatenated): published
compressed beside the tables, so that :func:`tables` recomputes every table from them."""


def tables(inputs: dict[str, pd.DataFrame], stratifiers: list[str], baseline: str, controls: list[str],
           alpha: float, seed: int) -> dict[str, pd.DataFrame]:
    """Every table of the study from its :data:`INPUTS`: name → frame (``errors``, ``paired``, ``estimators``,
    ``choices``, ``theory``, ``controls``, ``datasets``, ``headline``, and ``summary``: every summary over cells
    the generated page states, :func:`stratbench.cv_error.verdict.page_table`)."""
    from stratbench.cv_error.verdict import page_table

    samples = per_sample(inputs["truth"], inputs["stats"])
    paired = paired_table(samples, baseline, alpha, seed, tuple(controls))
    datasets = dataset_table(paired)
    out = {"errors": error_table(samples, inputs["splits"], stratifiers), "paired": paired,
            "estimators": estimator_table(samples, seed), "choices": choice_table(inputs["truth"], inputs["choices"],
                                                                                  baseline, seed),
            "theory": theory_table(inputs["theory"]), "controls": controls_table(paired, alpha), "datasets": datasets,
           "headline": headline_table(datasets)}
    return out | {"summary": page_table(out, baseline)}

