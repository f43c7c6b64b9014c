"""Aggregation of the tidy result rows into summaries (CSV and Markdown).

Per (dataset, stratifier, classifier, measure): the mean and std over the k folds of each repeat
(std with ddof=0, as MULAN's ``MultipleEvaluation``; a NaN fold makes both NaN, as in Sechidis
2011 Table 4), then averaged over repeats. Ranks and tests: :mod:`stratbench.stats`; the tables laid
out as the papers print them (CSV, Markdown, LaTeX): :mod:`stratbench.papers.tables`.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from stratbench.measures.names import COUNT_MEASURES, FOLD_QUALITY_LABELS
from stratbench.tables.format import mean_spread

SCORE_COLUMNS = ["dataset", "stratifier", "repeat", "fold", "classifier", "measure", "value", "software"]
FOLD_QUALITY_COLUMNS = ["dataset", "stratifier", "repeat", "measure", "value", "software"]


def _mean(x) -> float:
    return float(np.mean(x.to_numpy(dtype=float)))


def _std(x) -> float:
    return float(np.std(x.to_numpy(dtype=float), ddof=0))


def summarise_scores(scores: pd.DataFrame) -> pd.DataFrame:
    """Mean ± std over folds (averaged over repeats) per dataset × stratifier × classifier × measure."""
    keys = ["dataset", "stratifier", "classifier", "measure"]
    per_repeat = (
        scores.groupby([*keys, "repeat"], sort=True)["value"]
        .agg(mean=_mean, std=_std, folds="size")
        .reset_index()
    )
    out = (
        per_repeat.groupby(keys, sort=True)
        .agg(mean=("mean", _mean), std=("std", _mean), folds=("folds", "first"), repeats=("repeat", "size"))
        .reset_index()
    )
    return out


def summarise_fold_quality(quality: pd.DataFrame) -> pd.DataFrame:
    """Mean and std over repeats of each fold-quality measure per dataset × stratifier."""
    return (
        quality.groupby(["dataset", "stratifier", "measure"], sort=True)["value"]
        .agg(mean=_mean, std=_std, repeats="size")
        .reset_index()
    )


def _fmt(mean: float, std: float, digits: int = 4) -> str:
    if np.isnan(mean):
        return "NaN"
    return f"{mean:.{digits}f} ± {std:.{digits}f}"


def summary_markdown(summary: pd.DataFrame, ranks: pd.DataFrame | None = None) -> str:
    """Markdown: one table per classifier, rows dataset × measure, a column per stratifier."""
    parts = []
    for classifier, part in summary.groupby("classifier", sort=True):
        cell = part.assign(cell=[_fmt(m, s) for m, s in zip(part["mean"], part["std"])])
        wide = cell.pivot(index=["dataset", "measure"], columns="stratifier", values="cell").reset_index()
        parts.append(f"## {classifier}: mean ± std over folds\n\n{wide.to_markdown(index=False)}\n")
        if ranks is not None and not ranks.empty:
            r = ranks[ranks["classifier"] == classifier]
            if not r.empty:
                wide_r = r.pivot(index=["group", "measure", "datasets"], columns="stratifier",
                                 values="average_rank").reset_index()
                parts.append(f"### {classifier}: average rank of the std (1 = lowest)\n\n"
                             f"{wide_r.to_markdown(index=False, floatfmt='.2f')}\n")
    return "\n".join(parts)


def decimals(values, counted: bool = False) -> int:
    """Fixed decimals for a column: its smallest non-zero absolute value to 2 significant digits (0 to 6);
    a counted measure's mean over repeats to 1 decimal."""
    if counted:
        return 1
    values = np.abs(np.asarray(values, dtype=float))
    values = values[np.isfinite(values) & (values > 0)]
    return 0 if values.size == 0 else int(min(6, max(0, 1 - math.floor(math.log10(values.min())))))


def fold_quality_markdown(summary: pd.DataFrame) -> str:
    """Markdown of the fold-quality summary: rows dataset × stratifier, a column per measure (the measures
    of :data:`~stratbench.measures.names.FOLD_QUALITY_LABELS`, in its order, by their printed names; the
    tidy CSV keeps the helper columns such as the pair share at 2 decimals), mean ± std in one fixed-point
    format per measure (:func:`decimals`)."""
    shown = [m for m in FOLD_QUALITY_LABELS if m in set(summary["measure"])]
    part = summary[summary["measure"].isin(shown)]
    places = {m: decimals(g["mean"], m in COUNT_MEASURES) for m, g in part.groupby("measure")}
    repeats = part["repeats"] if "repeats" in part else [None] * len(part)  # a summary that does not count them
    cell = part.assign(cell=[mean_spread(m, s, n, f".{places[k]}f") for k, m, s, n in
                             zip(part["measure"], part["mean"], part["std"], repeats)])
    wide = cell.pivot(index=["dataset", "stratifier"], columns="measure", values="cell").reset_index()
    wide = wide[["dataset", "stratifier", *shown]].rename(columns=FOLD_QUALITY_LABELS)
    return f"## Fold quality: mean ± std over repeats\n\n{wide.to_markdown(index=False)}\n"


def statistics_markdown(stats: pd.DataFrame, identical: list[tuple[str, str]] = ()) -> str:
    """Table 1's columns per dataset (and the synthetic generator's dependence as used, where a dataset is
    synthetic); below them, a warning for each pair of datasets with identical labels."""
    if "dependence" in stats and stats["dependence"].isna().all():
        stats = stats.drop(columns="dependence")
    warnings = "".join(f"\n**Warning:** datasets `{a}` and `{b}` have identical label matrices: they count twice in "
                       f"every rank test and Friedman/Nemenyi test of this study.\n" for a, b in identical)
    return (f"## Datasets (Sechidis et al. 2011, Table 1 columns)\n\n{stats.to_markdown(index=False, floatfmt='.4g')}\n"
            + warnings)


def runtime_markdown(rows: pd.DataFrame) -> str:
    """Markdown of the stratifiers' wall time: mean ± std over repeats, a column per stratifier."""
    agg = rows.groupby(["dataset", "stratifier"], sort=True)["seconds"].agg(["mean", "std", "size"]).reset_index()
    agg["cell"] = [mean_spread(m, s, n, ".4g", ".2g") for m, s, n in zip(agg["mean"], agg["std"], agg["size"])]
    wide = agg.pivot(index="dataset", columns="stratifier", values="cell").reset_index()
    return f"## Stratifier wall time (s): mean ± std over repeats\n\n{wide.to_markdown(index=False)}\n"


def network_markdown(summary: pd.DataFrame) -> str:
    """Network stability (Szymański 2017 §5.2): rows dataset × stratifier × graph, a column per
    (part, measure), mean ± std over folds and repeats."""
    cell = summary.assign(cell=[f"{m:.4g} ± {s:.2g}" for m, s in zip(summary["mean"], summary["std"])],
                          column=summary["part"] + ": " + summary["measure"])
    wide = cell.pivot(index=["dataset", "stratifier", "graph"], columns="column", values="cell").reset_index()
    return f"## Network stability: mean ± std over folds and repeats\n\n{wide.to_markdown(index=False)}\n"
