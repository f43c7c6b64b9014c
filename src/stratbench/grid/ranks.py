"""The grid's average-rank tables: stratifiers × measures per k, across the datasets."""

from __future__ import annotations

import numpy as np
import pandas as pd

from stratbench.measures.names import GRID_MEASURES


def rank_table(ranks: pd.DataFrame, k: int, order: list[str] | None = None) -> pd.DataFrame:
    """Stratifiers × measures (average rank over the datasets at ``k``), with the mean over the
    ranked measures; sorted by that mean."""
    part = ranks[(ranks["k"] == k) & (ranks["group"] == "all") & ranks["measure"].isin(GRID_MEASURES)]
    table = part.pivot(index="stratifier", columns="measure", values="average_rank")
    table = table[[m for m in GRID_MEASURES if m in table.columns]]
    table["mean rank"] = table.mean(axis=1)
    table = table.sort_values("mean rank", kind="stable")
    return table if order is None else table.reindex([s for s in order if s in table.index])


def rank_markdown(ranks: pd.DataFrame, tests: pd.DataFrame) -> str:
    """The average-rank table of every k, the best of each column in bold, with N and the CD."""
    parts = []
    for k in sorted(ranks["k"].unique()):
        table = rank_table(ranks, k)
        shown = table.apply(lambda col: [f"**{v:.2f}**" if np.isclose(v, col.min()) else f"{v:.2f}" for v in col])
        t = tests[(tests["k"] == k) & (tests["group"] == "all") & tests["measure"].isin(GRID_MEASURES)]
        n = int(t["datasets"].max()) if len(t) else 0
        cd = float(t["critical_difference"].max()) if len(t) else float("nan")
        parts.append(f"### k = {k}: average rank over {n} datasets (1 = best; Nemenyi CD at α = 0.05: {cd:.2f})\n\n"
                     + shown.reset_index().to_markdown(index=False))
    return "\n\n".join(parts) + "\n"
