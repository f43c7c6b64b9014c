"""The classifier contract and the random-forest factory every method shares."""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import RandomForestClassifier


class MultiLabelClassifier:
    """Base class. Subclasses implement ``fit``, ``predict`` and ``predict_scores``."""

    def __init__(self, n_estimators=100, max_features="sqrt", n_jobs=1, random_state=None, **forest_params):
        self.n_estimators = n_estimators
        self.max_features = max_features
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.forest_params = forest_params

    def _seeds(self, count: int) -> np.ndarray:
        """``count`` independent forest seeds derived from ``random_state``."""
        return np.random.SeedSequence(self.random_state).generate_state(count, dtype=np.uint32)

    def make_forest(self, seed: int) -> RandomForestClassifier:
        return RandomForestClassifier(
            n_estimators=self.n_estimators, max_features=self.max_features,
            n_jobs=self.n_jobs, random_state=int(seed), **self.forest_params,
        )

    def fit(self, X, Y):
        raise NotImplementedError

    def predict(self, X) -> np.ndarray:
        raise NotImplementedError

    def predict_scores(self, X) -> np.ndarray | None:
        """Per-label relevance scores (n × q), or None if the method gives none."""
        return None
