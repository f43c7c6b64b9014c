"""Every figure of a study, one recipe each: which of the study's tidy tables it reads, its title and its
drawing (:mod:`stratbench.figures`). The workflow's plot rules and ``stratbench figure`` both draw through
:func:`draw`, so the command redraws the workflow's figure exactly (byte for byte at the same style).

A recipe takes ``read(table)`` (the table by its file name under ``results/<study>/tables``), the figure's
``subject`` (a classifier, or ``fold_quality``), the :class:`~stratbench.figures.FigureStyle` and the
study's paper, and returns the figure.
"""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from stratbench import StratbenchError, figures
from stratbench.measures.names import FOLD_QUALITY_LABELS, MEASURE_LABELS

Read = Callable[[str], pd.DataFrame]


def _ranks_and_tests(read: Read, subject: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The average ranks and Friedman/Nemenyi tests of a classifier's std, or of the fold-quality measures."""
    if subject == "fold_quality":
        return read("fold_quality_ranks.csv"), read("fold_quality_friedman_nemenyi.csv")
    ranks, tests = read("average_ranks.csv"), read("friedman_nemenyi.csv")
    return ranks[ranks["classifier"] == subject], tests[tests["classifier"] == subject]


def _labels(subject: str) -> dict:
    return FOLD_QUALITY_LABELS if subject == "fold_quality" else MEASURE_LABELS


def rank_bars(read: Read, subject: str, style, paper=None):
    """Average rank of each measure per stratifier (fold quality: of the measure; a classifier: of its std)."""
    ranks = read("fold_quality_ranks.csv") if subject == "fold_quality" else read("average_ranks.csv")
    if "classifier" in ranks:
        ranks = ranks[ranks["classifier"] == subject]
    title = ("Fold quality: average rank of each measure (lower is better)" if subject == "fold_quality"
             else f"{subject}: average rank of the std over folds (1 = lowest variance)")
    return figures.rank_bars(ranks, title, _labels(subject), style)


def critical_difference(read: Read, subject: str, style, paper=None):
    """Nemenyi critical-difference diagrams of the average ranks, one panel per measure."""
    title = ("Fold quality: Nemenyi critical differences of the average ranks" if subject == "fold_quality"
             else f"{subject}: Nemenyi critical differences of the average ranks of the std")
    return figures.cd_diagrams(*_ranks_and_tests(read, subject), title, labels=_labels(subject), style=style)


def std_by_stratifier(read: Read, subject: str, style, paper=None):
    """A classifier's std over folds per measure, dataset and stratifier."""
    return figures.std_by_stratifier(read("summary.csv"), subject, style)


def fold_distribution(read: Read, subject: str, style, paper=None):
    """A classifier's fold values minus their repeat's mean, as box plots."""
    return figures.fold_distribution(read("scores.csv"), subject, MEASURE_LABELS, style=style)


def runtime(read: Read, subject: str, style, paper=None):
    """The stratifiers' wall time against the datasets' size."""
    return figures.runtime_vs_size(read("stratifier_runtime.csv"), style)


def paper_claims(read: Read, subject: str, style, paper=None):
    """The average ranks behind the claims of the study's paper."""
    from stratbench.papers import StudyTables
    from stratbench.reproduction import claim_ranks

    optional = {}
    for key, name in (("summary", "summary.csv"), ("network", "network_stability_summary.csv")):
        try:
            optional[key] = read(name)
        except (FileNotFoundError, StratbenchError):  # a table the study does not make
            pass
    study = StudyTables(fold_quality=read("fold_quality_summary.csv"), **optional)
    return figures.claim_rank_bars(claim_ranks(paper, study), paper, style)


RECIPES: dict[str, Callable] = {
    "std_by_stratifier": std_by_stratifier,
    "fold_distribution": fold_distribution,
    "rank_bars": rank_bars,
    "critical_difference": critical_difference,
    "runtime": runtime,
    "paper_claims": paper_claims,
}
FILE_STEMS = {"runtime": "stratifier_runtime", "paper_claims": "paper_claims"}  # the others: <name>_<subject>


def file_stem(name: str, subject: str) -> str:
    """The workflow's file name (without extension) of figure ``name`` of ``subject``."""
    return FILE_STEMS.get(name, f"{name}_{subject}")


def draw(name: str, read: Read, subject: str, style, paper: str | None = None):
    """Figure ``name`` of ``subject``, drawn from the tables ``read`` gives, in ``style``."""
    if name not in RECIPES:
        raise StratbenchError(f"unknown figure {name!r}; figures: {', '.join(RECIPES)}")
    return RECIPES[name](read, subject, style, paper)


def table_reader(tables: dict) -> Read:
    """``read`` over ``tables`` (file name → path, e.g. a rule's inputs): a table it lacks raises
    FileNotFoundError."""
    def read(name: str) -> pd.DataFrame:
        if name not in tables:
            raise FileNotFoundError(name)
        return pd.read_csv(tables[name])

    return read
