"""The grid's measurements: every k × seed split of one dataset by one stratifier (one job), and
their mean and std over the seeds."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from stratbench import StratbenchError, stratifiers
from stratbench.labels import label_combinations
from stratbench.measures.fold_quality import exact_size_floors, fold_quality

GRID_COLUMNS = ["dataset", "stratifier", "k", "repeat", "measure", "value", "software"]


def quality_grid(Y, name: str, spec: dict, ks: list[int], seeds: list[int], groups=None) -> pd.DataFrame:
    """Rows (k, repeat, measure, value) of every split of ``Y`` by stratifier ``name`` (config entry
    ``spec``) for each k and seed: every fold-quality measure, ``seconds``, the stratifier's wall
    time (:func:`~stratbench.stratifiers.timed_fold_ids`), and ``rLD floor`` and ``DCP floor``, the best any
    exact-size split can reach (the same for every split of a k: :func:`~stratbench.measures.fold_quality.exact_size_floors`).
    The label combinations of ``Y`` are built once and shared by the pair measures of every split.
    With ``groups`` (a group per example), every split is of whole groups, and checked to be so."""
    comb = label_combinations(Y)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # labels rarer than k: expected in a grid
        for k in ks:
            floors = [(f"{m} floor", v) for m, v in exact_size_floors(Y, k).items()]
            for repeat, seed in enumerate(seeds):
                folds, seconds = stratifiers.timed_fold_ids(stratifiers.build(name, spec, n_splits=k, random_state=seed), Y,
                                                groups)
                if groups is not None:
                    check_whole_groups(folds, groups, name)
                values = fold_quality(Y, folds, k, comb=comb)
                rows += [(k, repeat, m, float(v)) for m, v in [*values.items(), *floors, ("seconds", seconds)]]
    return pd.DataFrame(rows, columns=["k", "repeat", "measure", "value"])


def check_whole_groups(folds: np.ndarray, groups: np.ndarray, name: str) -> None:
    """Stop if a group's rows are in two folds (a leak: the guarantee every grouped split must keep)."""
    _, group = np.unique(groups, return_inverse=True)
    pairs = np.unique(np.column_stack([group.ravel(), folds]), axis=0)
    if len(pairs) != group.max() + 1:
        split = int(np.sum(np.bincount(pairs[:, 0]) > 1))
        raise StratbenchError(f"stratifier {name!r} put the rows of {split} groups into more than one fold")


def summarise(grid: pd.DataFrame) -> pd.DataFrame:
    """Mean and std (ddof 0) over seeds per dataset × stratifier × k × measure."""
    return (grid.groupby(["dataset", "stratifier", "k", "measure"], sort=True)["value"]
            .agg(mean="mean", std=lambda v: float(np.std(v, ddof=0)), repeats="size").reset_index())
