"""Train and test a classifier on every fold of one fold assignment (one pipeline job)."""

from __future__ import annotations

from typing import Callable

import numpy as np
import pandas as pd

from stratbench.measures import evaluate

Factory = Callable[[int], object]  # fold index -> an unfitted classifier


def evaluate_folds(X, Y, folds: np.ndarray, n_splits: int, make_classifier: Factory) -> pd.DataFrame:
    """Tidy rows (fold, measure, value): for each fold j, fit on the other folds, test on fold j."""
    rows = []
    for j in range(n_splits):
        test = folds == j
        train = ~test
        model = make_classifier(j).fit(X[train], Y[train])
        H = model.predict(X[test])
        S = model.predict_scores(X[test])
        for measure, value in evaluate(Y[test], H, S).items():
            rows.append((j, measure, value))
    return pd.DataFrame(rows, columns=["fold", "measure", "value"])
