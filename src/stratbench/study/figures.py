"""Every figure of a study, one recipe each (:data:`RECIPES`): which of the study's tables it reads, what one
figure is of (its subjects), its file name and its drawing (:mod:`stratbench.figures`,
:mod:`stratbench.cv_error.figures`). The workflow's plot rules and ``stratbench figure`` both draw through
:func:`draw`, so the command redraws the workflow's figure exactly (byte for byte at the same style).

A recipe's drawing takes ``read(table)`` (the table by its file name under ``results/<study>/tables``; for
``label_shares`` also ``labels`` and ``folds``: the dataset's label matrix and its repeat-0 folds), the
figure's ``subject``, the :class:`~stratbench.figures.FigureStyle` and the study's :class:`Facts` (the paper it
reproduces, the baseline of a "does it matter" study), and returns the figure. The drawing modules (matplotlib)
are imported when a figure is drawn, not when the workflow reads the recipes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from stratbench import StratbenchError
from stratbench.measures.names import FOLD_QUALITY_LABELS, GRID_MEASURES, MEASURE_LABELS

Read = Callable[[str], Any]


@dataclass(frozen=True)
class Facts:
    """What a figure may need to know of its study beyond its tables: the paper it reproduces (``paper``) and
    the baseline of a "does it matter" study (``baseline``)."""

    paper: str | None = None
    baseline: str | None = None

    @classmethod
    def of(cls, study) -> Facts:
        return cls(study.reproduces, (study.cv_error or {}).get("baseline"))


def _ranks_and_tests(read: Read, subject: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The average ranks and Friedman/Nemenyi tests of a classifier's std, or of the fold-quality measures."""
    if subject == "fold_quality":
        return read("fold_quality_ranks.csv"), read("fold_quality_friedman_nemenyi.csv")
    ranks, tests = read("average_ranks.csv"), read("friedman_nemenyi.csv")
    return ranks[ranks["classifier"] == subject], tests[tests["classifier"] == subject]


def _labels(subject: str) -> dict:
    return FOLD_QUALITY_LABELS if subject == "fold_quality" else MEASURE_LABELS


def rank_bars(read: Read, subject: str, style, facts: Facts):
    """Average rank of each measure per stratifier (fold quality: of the measure; a classifier: of its std)."""
    from stratbench import figures

    ranks = read("fold_quality_ranks.csv") if subject == "fold_quality" else read("average_ranks.csv")
    if "classifier" in ranks:
        ranks = ranks[ranks["classifier"] == subject]
    title = ("Fold quality: average rank of each measure (lower is better)" if subject == "fold_quality"
             else f"{subject}: average rank of the std over folds (1 = lowest variance)")
    return figures.rank_bars(ranks, title, _labels(subject), style)


def critical_difference(read: Read, subject: str, style, facts: Facts):
    """Nemenyi critical-difference diagrams of the average ranks, one panel per measure."""
    from stratbench import figures

    title = ("Fold quality: Nemenyi critical differences of the average ranks" if subject == "fold_quality"
             else f"{subject}: Nemenyi critical differences of the average ranks of the std")
    return figures.cd_diagrams(*_ranks_and_tests(read, subject), title, labels=_labels(subject), style=style)


def std_by_stratifier(read: Read, subject: str, style, facts: Facts):
    """A classifier's std over folds per measure, dataset and stratifier."""
    from stratbench import figures

    return figures.std_by_stratifier(read("summary.csv"), subject, style)


def fold_distribution(read: Read, subject: str, style, facts: Facts):
    """A classifier's fold values minus their repeat's mean, as box plots."""
    from stratbench import figures

    return figures.fold_distribution(read("scores.csv"), subject, MEASURE_LABELS, style=style)


def runtime(read: Read, subject: str, style, facts: Facts):
    """The stratifiers' wall time per dataset (a dot plot, with the range over repeats)."""
    from stratbench import figures

    return figures.runtime_by_dataset(read("stratifier_runtime.csv"), style)


def paper_claims(read: Read, subject: str, style, facts: Facts):
    """The average ranks behind the claims of the study's paper."""
    from stratbench import figures
    from stratbench.papers import StudyTables
    from stratbench.papers.reproduction import claim_ranks

    optional = {}
    for key, name in (("summary", "summary.csv"), ("network", "network_stability_summary.csv")):
        try:
            optional[key] = read(name)
        except (FileNotFoundError, StratbenchError):  # a table the study does not make
            pass
    study = StudyTables(fold_quality=read("fold_quality_summary.csv"), **optional)
    return figures.claim_rank_bars(claim_ranks(facts.paper, study), facts.paper, style)


def label_shares(read: Read, subject: str, style, facts: Facts):
    """A dataset's label shares in each test fold of repeat 0 against the whole dataset, per stratifier."""
    from stratbench import figures

    folds, n_splits = read("folds")
    return figures.label_shares(read("labels"), folds, n_splits, subject, style)


def grid_critical_difference(read: Read, subject: str, style, facts: Facts):
    """The grid's Nemenyi critical differences at one k (``subject``), one panel per fold measure."""
    from stratbench import figures

    k = int(subject)
    ranks, tests = read("grid_ranks.csv"), read("grid_friedman_nemenyi.csv")
    ranks = ranks[(ranks["k"] == k) & ranks["measure"].isin(GRID_MEASURES)]
    tests = tests[(tests["k"] == k) & tests["measure"].isin(GRID_MEASURES)]
    return figures.cd_diagrams(ranks, tests, f"Fold quality across datasets, k = {k}", labels=FOLD_QUALITY_LABELS,
                               style=style)


def grid_gap(read: Read, subject: str, style, facts: Facts):
    """Each stratifier's distance from the best split possible, one panel per k."""
    from stratbench import figures

    gaps = read("grid_gap.csv")
    return figures.optimality_gap(gaps, "LD" if (gaps["objective"] == "LD").any() else "FLZ", style)


def cv_error_decomposition(read: Read, subject: str, style, facts: Facts):
    """The error of one CV estimator (``subject``: pooled or part_mean), term by term, per stratifier."""
    from stratbench.cv_error.figures import decomposition

    return decomposition(read("cv_error.csv"), facts.baseline, subject, style)


def cv_error_count_model(read: Read, subject: str, style, facts: Facts):
    """The count model's predictions against what the splits gave."""
    from stratbench.cv_error.figures import count_model

    return count_model(read("cv_error_theory.csv"), facts.baseline, style)


def cv_error_model_choice(read: Read, subject: str, style, facts: Facts):
    """How often CV picks the truth's best model, each measure by the estimator the verdict recommends."""
    from stratbench.cv_error.figures import model_choice
    from stratbench.cv_error.verdict import recommended_estimators

    chosen = recommended_estimators(read("cv_error_estimators.csv"), facts.baseline)
    choices = read("cv_error_choice.csv")
    return model_choice(choices[choices["estimator"] == choices["measure"].map(chosen)], facts.baseline, style)


@dataclass(frozen=True)
class Recipe:
    """One kind of figure: its drawing (``draw``), the tables it reads (``reads``), what one figure is of
    (``of``: a classifier or ``fold_quality``, a dataset, a k, an estimator, or the whole study), and its file
    name under ``results/<study>/figures`` (``stem``, with ``{name}`` and ``{subject}``)."""

    draw: Callable
    reads: tuple[str, ...]
    of: str
    stem: str = "{name}_{subject}"


RECIPES: dict[str, Recipe] = {
    "std_by_stratifier": Recipe(std_by_stratifier, ("summary.csv",), "classifier"),
    "fold_distribution": Recipe(fold_distribution, ("scores.csv",), "classifier"),
    "rank_bars": Recipe(rank_bars, ("average_ranks.csv", "fold_quality_ranks.csv"), "classifier or fold_quality"),
    "critical_difference": Recipe(critical_difference, ("average_ranks.csv", "friedman_nemenyi.csv",
                                                        "fold_quality_ranks.csv", "fold_quality_friedman_nemenyi.csv"),
                                  "classifier or fold_quality"),
    "runtime": Recipe(runtime, ("stratifier_runtime.csv",), "study", "stratifier_runtime"),
    "paper_claims": Recipe(paper_claims, ("fold_quality_summary.csv", "summary.csv", "network_stability_summary.csv"),
                           "study", "paper_claims"),
    "label_shares": Recipe(label_shares, ("labels", "folds"), "dataset"),
    "grid_critical_difference": Recipe(grid_critical_difference, ("grid_ranks.csv", "grid_friedman_nemenyi.csv"), "k",
                                       "{name}_k{subject}"),
    "grid_gap": Recipe(grid_gap, ("grid_gap.csv",), "study", "grid_gap"),
    "cv_error_decomposition": Recipe(cv_error_decomposition, ("cv_error.csv",), "estimator"),
    "cv_error_count_model": Recipe(cv_error_count_model, ("cv_error_theory.csv",), "study", "cv_error_count_model"),
    "cv_error_model_choice": Recipe(cv_error_model_choice, ("cv_error_estimators.csv", "cv_error_choice.csv"), "study",
                                    "cv_error_model_choice"),
}


def file_stem(name: str, subject: str) -> str:
    """The workflow's file name (without extension) of figure ``name`` of ``subject``."""
    return RECIPES[name].stem.format(name=name, subject=subject)


def draw(name: str, read: Read, subject: str, style, facts: Facts = Facts()):
    """Figure ``name`` of ``subject``, drawn from the tables ``read`` gives, in ``style``."""
    if name not in RECIPES:
        raise StratbenchError(f"unknown figure {name!r}; figures: {', '.join(RECIPES)}")
    return RECIPES[name].draw(read, subject, style, facts)


def table_reader(tables: dict, labels=None, folds: dict | None = None) -> Read:
    """``read`` over ``tables`` (file name → path, e.g. a rule's inputs), and for a dataset's figure ``labels``
    (its label matrix file) and ``folds`` (stratifier → its repeat-0 fold file); a table it lacks raises
    FileNotFoundError."""
    def read(name: str):
        if name == "labels" and labels is not None:
            from stratbench.datasets import load_dataset

            return load_dataset(labels).Y
        if name == "folds" and folds is not None:
            return repeat_folds(folds)
        if name not in tables:
            raise FileNotFoundError(name)
        return pd.read_csv(tables[name])

    return read


def repeat_folds(paths: dict) -> tuple[dict, int]:
    """(stratifier → fold of each example, k) of one repeat's fold files (stratifier → ``rep<r>.npz``)."""
    import numpy as np

    folds, n_splits = {}, 0
    for stratifier, path in paths.items():
        with np.load(path) as z:
            folds[stratifier], n_splits = z["fold"].astype(np.int64), int(z["n_splits"])
    return folds, n_splits
