"""Train and test a classifier on every fold of one fold assignment (one pipeline job)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
import pandas as pd
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.classifiers._base import ForestClassifier
from stratbench.classifiers._forests import ForestPool, faster_layout
from stratbench.measures.classification import evaluate

Factory = Callable[[int], object]  # fold index -> an unfitted classifier
log = logging.getLogger(__name__)


def read_folds(path, n_rows: int) -> tuple[np.ndarray, int]:
    """(fold ids, k) of a fold file, checked against its dataset: one id per row, every test fold and
    every training part non-empty — else one message naming the file (never scikit-learn's "Found
    array with 0 sample(s)" from inside a job)."""
    with np.load(path) as z:
        folds, k = z["fold"].astype(np.int64), int(z["n_splits"])
    if folds.shape != (n_rows,):
        raise StratbenchError(f"{path}: {folds.shape[0]} fold ids for a dataset of {n_rows} rows")
    sizes = np.bincount(folds[folds >= 0], minlength=k)
    if folds.min() < 0 or folds.max() >= k or not sizes.all() or (sizes == n_rows).any():
        empty = [j for j in range(k) if sizes[j] in (0, n_rows)]
        raise StratbenchError(f"{path}: fold ids must be 0…{k - 1} with no fold empty and none holding every row; "
                              f"sizes {sizes.tolist()} (folds {empty})")
    return folds, k


def evaluate_folds(X, Y, folds: np.ndarray, n_splits: int, make_classifier: Factory, n_jobs: int = 1,
                   choose_layout: bool = True) -> pd.DataFrame:
    """Tidy rows (fold, measure, value): for each fold j, fit on the other folds, test on fold j.

    Forest classifiers (every built-in one) hand the forests of all k folds to one pool of ``n_jobs``
    workers (:class:`~stratbench.classifiers._forests.ForestPool`); X is made dense float32 first
    when a probe of the job's own forests says that is faster. Others run ``fit_predict`` per fold.
    The rows do not depend on ``n_jobs`` or on the layout.
    """
    Y = sp.csr_matrix(Y)
    models = [make_classifier(j) for j in range(n_splits)]
    if all(isinstance(m, ForestClassifier) for m in models):
        predictions = _pooled(X, Y, folds, models, n_jobs, choose_layout)
    else:
        predictions = [models[j].fit_predict(X[folds != j], Y[folds != j], X[folds == j]) for j in range(n_splits)]
    rows = []
    for j, (H, S) in enumerate(predictions):
        for measure, value in evaluate(Y[folds == j], H, S).items():
            rows.append((j, measure, value))
    return pd.DataFrame(rows, columns=["fold", "measure", "value"])


def _pooled(X, Y, folds, models, n_jobs, choose_layout):
    tasks = {j: model.forest_tasks(Y[folds != j]) for j, model in enumerate(models)}
    if choose_layout and sp.issparse(X):
        X, layout = faster_layout(X, tasks[0], folds != 0)
        log.info("X layout: %s", layout)
    outputs = ForestPool(X, folds, n_jobs).run(tasks)
    return [model.combine(outputs[j]) for j, model in enumerate(models)]
