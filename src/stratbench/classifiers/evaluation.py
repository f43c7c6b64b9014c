"""Train and test a classifier on every fold of one fold assignment (one pipeline job)."""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
import pandas as pd
import scipy.sparse as sp

from stratbench.classifiers.base import ForestClassifier
from stratbench.classifiers.forests import ForestPool, faster_layout
from stratbench.io import read_folds  # noqa: F401 - the fold files this module's jobs read
from stratbench.measures.classification import evaluate

Factory = Callable[[int], object]  # fold index -> an unfitted classifier
log = logging.getLogger(__name__)


def evaluate_folds(X, Y, folds: np.ndarray, n_splits: int, make_classifier: Factory, n_jobs: int = 1,
                   choose_layout: bool = True) -> pd.DataFrame:
    """Tidy rows (fold, measure, value): for each fold j, fit on the other folds, test on fold j.

    Forest classifiers (every built-in one) hand the forests of all k folds to one pool of ``n_jobs``
    workers (:class:`~stratbench.classifiers.forests.ForestPool`); X is made dense float32 first
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
