"""Every measure stratbench reports, described once: its printed label, its direction, whether it is a
count, and which comparisons rank it. Tables, figures, statistics, the grid and the reports all read
this table; the formulas themselves live in :mod:`stratbench.measures.fold_quality` and :mod:`stratbench.measures.classification`.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Measure:
    """One measure: ``name`` (the column value in the tidy tables), ``label`` (as printed), ``kind``
    ("fold" for a fold-quality measure, "score" for a classifier's evaluation measure), ``lower_is_better``,
    ``counted`` (an integer count, printed without decimals), ``ranked`` (ranked in a study's
    fold-quality comparison)."""

    name: str
    label: str
    kind: str
    lower_is_better: bool = True
    counted: bool = False
    ranked: bool = False


MEASURES = {m.name: m for m in [
    # fold quality (docs/ALGORITHMS.md Appendix A, §4.1): lower is better
    Measure("ED", "ED", "fold", ranked=True),
    Measure("LD", "LD", "fold", ranked=True),
    Measure("FZ", "FZ", "fold", counted=True, ranked=True),
    Measure("FLZ", "FLZ", "fold", counted=True, ranked=True),
    Measure("rLD", "rLD", "fold", ranked=True),
    Measure("DCP", "DCP", "fold", ranked=True),
    Measure("LPD", "LPD", "fold", ranked=True),
    Measure("FLPZ", "FLPZ", "fold", counted=True, ranked=True),
    Measure("pair_zero_share", "pairs without evidence", "fold", ranked=True),
    Measure("seconds", "time (s)", "fold"),
    # a classifier's evaluation measures (§8)
    Measure("hamming_loss", "Hamming loss", "score"),
    Measure("subset_accuracy", "subset accuracy", "score", lower_is_better=False),
    Measure("coverage", "coverage", "score"),
    Measure("ranking_loss", "ranking loss", "score"),
    Measure("mean_average_precision", "mean avg. precision", "score", lower_is_better=False),
    Measure("micro_auc", "micro AUC", "score", lower_is_better=False),
]}

RANKED_MEASURES = [m.name for m in MEASURES.values() if m.ranked]  # a study's fold-quality ranks
GRID_MEASURES = ["LD", "LPD", "FLZ", "FLPZ", "rLD", "DCP", "ED"]   # the grid's ranks, in its columns' order
COUNT_MEASURES = {m.name for m in MEASURES.values() if m.counted}
LOWER_IS_BETTER = {m.name: m.lower_is_better for m in MEASURES.values() if m.kind == "score"}
FOLD_QUALITY_LABELS = {m.name: m.label for m in MEASURES.values() if m.kind == "fold"}
MEASURE_LABELS = {m.name: m.label for m in MEASURES.values() if m.kind == "score"}
