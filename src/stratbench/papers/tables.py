"""A study's tables as the papers print them: each registered paper's own layouts (its module:
Sechidis et al. 2011, Tables 1, 2 and 4–5; Szymański & Kajdanowicz 2017, Table 1; Tiittanen et al. 2021,
Table 2) for the study that reproduces it, and the tables every study has: the average ranks of the
fold-quality measures and the Friedman / Nemenyi tests (:mod:`stratbench.tables.ranks`). Which tables a
study prints is known from the papers' declarations before any job runs (:func:`table_names`); :func:`study_tables` makes them and
refuses a layout that prints a table its paper does not declare."""

from __future__ import annotations

import pandas as pd

from stratbench import StratbenchError, papers
from stratbench.measures.names import FOLD_QUALITY_LABELS, MEASURE_LABELS
from stratbench.tables.format import PaperTable
from stratbench.tables.ranks import ranks_table, tests_table

FOLD_QUALITY_RANKS = "fold_quality_ranks"  # every study's: the average ranks of the fold-quality measures
SCORE_TESTS = "friedman_nemenyi"  # every study with classifiers: the Friedman / Nemenyi tests of the scores' std


def _printing(paper: str | None) -> list[papers.Paper]:
    """The papers whose tables a study prints: the one it reproduces (``reproduces:``), or none."""
    return [papers.get(paper)] if paper else []


def table_names(paper: str | None = None, classifiers=()) -> list[str]:
    """Every paper table of a study that reproduces ``paper`` (None: none) and whose evaluated classifiers
    are ``classifiers`` (none: a fold-quality study), in print order: the paper's fold-quality tables, the
    fold-quality ranks, the paper's classifier tables, the tests."""
    printing = _printing(paper)
    names = [n for p in printing for n in p.prints] + [FOLD_QUALITY_RANKS]
    if classifiers:
        names += [n for p in printing for n in p.classifier_table_names(classifiers)]
        names.append(SCORE_TESTS)
    return names


def fold_quality_table_names(paper: str | None = None) -> list[str]:
    """The reproduced paper's table of fold-quality measures (``fold_quality_papers.md``), if it has one."""
    return [p.fold_quality_table for p in _printing(paper) if p.fold_quality_table]


def _declared(paper: papers.Paper, made: list[PaperTable | None], names: list[str]) -> list[PaperTable]:
    """``made`` (a paper's layouts' tables) when each is one of ``names``, the tables it declares."""
    made = [t for t in made if t is not None]
    extra = [t.name for t in made if t.name not in names]
    if extra:
        raise StratbenchError(f"paper {paper.name}: its layouts print {extra}, which it does not declare "
                              f"(Paper.prints, Paper.prints_per_classifier)")
    return made


def study_tables(statistics: pd.DataFrame, fold_quality: pd.DataFrame, runtime: pd.DataFrame | None = None,
                 fold_quality_ranks: pd.DataFrame | None = None, fold_quality_tests: pd.DataFrame | None = None,
                 summary: pd.DataFrame | None = None, ranks: pd.DataFrame | None = None,
                 score_tests: pd.DataFrame | None = None, order: list[str] | None = None,
                 paper: str | None = None) -> list[PaperTable]:
    """Every paper table of one study that reproduces ``paper`` (None: only the tables every study has), in
    print order: the paper's fold-quality layouts, the fold-quality ranks, its classifier layouts, the tests
    (the score tables only if it has classifiers); stratifiers in ``order`` (the config's), others after them."""
    inputs = dict(statistics=statistics, fold_quality=fold_quality, runtime=runtime, summary=summary, ranks=ranks)
    registered = _printing(paper)
    tables = [t for paper in registered if paper.layouts for t in _declared(paper, paper.layouts(inputs, order), list(paper.prints))]
    if fold_quality_ranks is not None and fold_quality_tests is not None:
        tables.append(ranks_table(fold_quality_ranks, fold_quality_tests, FOLD_QUALITY_RANKS,
                                  "Average rank of each fold-quality measure over all datasets (1 = lowest) and "
                                  "Nemenyi critical difference (CD)",
                                  labels=FOLD_QUALITY_LABELS, order=order))
    if summary is not None and not summary.empty:
        classifiers = tuple(dict.fromkeys(summary["classifier"])) if "classifier" in summary else ()
        tables += [t for paper in registered if paper.score_layouts
                   for t in _declared(paper, paper.score_layouts(inputs, order), paper.classifier_table_names(classifiers))]
        if score_tests is not None:
            tables.append(tests_table(score_tests, SCORE_TESTS,
                                      "Friedman's test on the std over folds of each measure: χ² and its asymptotic p, "
                                      "Iman–Davenport F and its p, the exact permutation p (where N·k is small enough "
                                      "to enumerate; bold: the p the comparison is judged by), and the Nemenyi "
                                      "critical difference (CD) of the average ranks",
                                      ["classifier", "measure"], MEASURE_LABELS))
    return [t for t in tables if t is not None]
