"""A fold-quality grid: every stratifier on every dataset over several k and seeds (``grid:`` in a
study config; ``config/stratbench2026.yaml``), and what it says a user should pick.

One job per (dataset, stratifier) runs all k × seeds splits (:mod:`.quality`), so a grid of 17
datasets, 12 stratifiers, 3 values of k and 10 seeds is 204 jobs, not 12,240. A split's seed is the
study's (dataset, repeat) seed, the same for every stratifier and k.

Tables (:mod:`.ranks`): mean and std over seeds per dataset × stratifier × k × measure; average ranks
per k × measure across datasets (rank 1 = lowest, ties averaged) with Friedman/Iman–Davenport and
Nemenyi (:func:`stratbench.stats.compare`); the recommendation (:mod:`.recommendation`) is drawn from them.
"""

from stratbench.grid.quality import GRID_COLUMNS, quality_grid, summarise
from stratbench.grid.ranks import rank_markdown, rank_table
from stratbench.grid.recommendation import against_baselines, recommendation

__all__ = ["GRID_COLUMNS", "against_baselines", "quality_grid", "rank_markdown", "rank_table", "recommendation",
           "summarise"]
