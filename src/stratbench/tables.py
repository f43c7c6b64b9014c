"""Aggregation of the tidy result rows into paper tables (CSV and Markdown).

Per (dataset, stratifier, classifier, measure): the mean and std over the k folds of each repeat
(std with ddof=0, as MULAN's ``MultipleEvaluation``; a NaN fold makes both NaN, as in Sechidis
2011 Table 4), then averaged over repeats. Average ranks of the std (rank 1 = lowest, ties
averaged) over the datasets where no stratifier's std is NaN (ALGORITHMS.md §9).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

SCORE_COLUMNS = ["dataset", "stratifier", "repeat", "fold", "classifier", "measure", "value"]
FOLD_QUALITY_COLUMNS = ["dataset", "stratifier", "repeat", "measure", "value"]


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


def average_ranks(summary: pd.DataFrame, value: str = "std", groups: dict | None = None,
                  ascending: bool = True) -> pd.DataFrame:
    """Average rank of ``value`` per classifier × group × measure × stratifier.

    Each dataset is a block: the stratifiers are ranked by ``value`` (rank 1 = smallest when
    ``ascending``), ties get the average rank. Blocks where any stratifier's value is NaN are dropped
    for that measure. ``groups`` maps a group name to a list of datasets (default: one group "all").
    """
    groups = groups or {"all": sorted(summary["dataset"].unique())}
    rows = []
    for (classifier, measure), part in summary.groupby(["classifier", "measure"], sort=True):
        table = part.pivot(index="dataset", columns="stratifier", values=value)
        for group, members in groups.items():
            block = table.loc[table.index.isin(members)].dropna(how="any")
            if block.empty:
                continue
            ranks = block.rank(axis=1, method="average", ascending=ascending).mean(axis=0)
            for stratifier, rank in ranks.items():
                rows.append(dict(classifier=classifier, group=group, measure=measure,
                                 stratifier=stratifier, average_rank=float(rank), datasets=len(block)))
    return pd.DataFrame(rows, columns=["classifier", "group", "measure", "stratifier", "average_rank", "datasets"])


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


def fold_quality_markdown(summary: pd.DataFrame) -> str:
    """Markdown of the fold-quality summary: rows dataset × stratifier, a column per measure."""
    cell = summary.assign(cell=[f"{m:.5g} ± {s:.2g}" for m, s in zip(summary["mean"], summary["std"])])
    wide = cell.pivot(index=["dataset", "stratifier"], columns="measure", values="cell").reset_index()
    return f"## Fold quality: mean ± std over repeats\n\n{wide.to_markdown(index=False)}\n"


def statistics_markdown(stats: pd.DataFrame) -> str:
    return f"## Datasets (Sechidis et al. 2011, Table 1 columns)\n\n{stats.to_markdown(index=False, floatfmt='.4g')}\n"


def runtime_markdown(rows: pd.DataFrame) -> str:
    """Markdown of the stratifiers' wall time: mean ± std over repeats, a column per stratifier."""
    agg = rows.groupby(["dataset", "stratifier"], sort=True)["seconds"].agg(["mean", "std"]).reset_index()
    agg["cell"] = [f"{m:.4g} ± {0.0 if np.isnan(s) else s:.2g}" for m, s in zip(agg["mean"], agg["std"])]
    wide = agg.pivot(index="dataset", columns="stratifier", values="cell").reset_index()
    return f"## Stratifier wall time (s): mean ± std over repeats\n\n{wide.to_markdown(index=False)}\n"


PAPER_FOLD_QUALITY = {
    "Sechidis et al. 2011, Table 2": ["ED", "LD", "FZ", "FLZ"],
    "Szymański & Kajdanowicz 2017, Table 1 (share of label pairs without positive evidence)":
        ["pair_zero_share", "LPD", "FLPZ"],
    "Tiittanen et al. 2021, Table 2": ["ED", "LD", "DCP", "rLD", "seconds"],
}


def paper_fold_quality_markdown(summary: pd.DataFrame, runtime: pd.DataFrame | None = None) -> str:
    """The fold-quality tables of the three papers: rows dataset × stratifier, mean ± std over repeats.

    The pair-zero share is shown as the papers show it: mean over folds ± std over folds (both
    averaged over repeats). ``seconds`` is the stratifier's wall time from the runtime table.
    """
    summary = summary.copy()
    if runtime is not None and not runtime.empty:
        rt = runtime.groupby(["dataset", "stratifier"], sort=True)["seconds"].agg(mean=_mean, std=_std).reset_index()
        summary = pd.concat([summary, rt.assign(measure="seconds")], ignore_index=True)
    wide_mean = summary.pivot_table(index=["dataset", "stratifier"], columns="measure", values="mean", sort=True)
    wide_std = summary.pivot_table(index=["dataset", "stratifier"], columns="measure", values="std", sort=True)
    parts = []
    for title, measures in PAPER_FOLD_QUALITY.items():
        present = [m for m in measures if m in wide_mean.columns]
        if not present:
            continue
        table = pd.DataFrame(index=wide_mean.index)
        for m in present:
            std = wide_mean["pair_zero_share_std"] if m == "pair_zero_share" and "pair_zero_share_std" in wide_mean else wide_std[m]
            label = "pair_zero_share (mean ± std over folds)" if m == "pair_zero_share" else m
            table[label] = [f"{a:.4g} ± {b:.2g}" for a, b in zip(wide_mean[m], std)]
        parts.append(f"## {title}\n\n{table.reset_index().to_markdown(index=False)}\n")
    return "\n".join(parts)


def network_markdown(summary: pd.DataFrame) -> str:
    """Network stability (Szymański 2017 §5.2): rows dataset × stratifier × graph, a column per
    (part, measure), mean ± std over folds and repeats."""
    cell = summary.assign(cell=[f"{m:.4g} ± {s:.2g}" for m, s in zip(summary["mean"], summary["std"])],
                          column=summary["part"] + ": " + summary["measure"])
    wide = cell.pivot(index=["dataset", "stratifier", "graph"], columns="column", values="cell").reset_index()
    return f"## Network stability: mean ± std over folds and repeats\n\n{wide.to_markdown(index=False)}\n"
