"""Calibrated label ranking (Fürnkranz, Hüllermeier, Loza Mencía & Brinker, MLJ 73(2), 2008).

One forest per label pair (i < j), trained on the examples where exactly one of the two is relevant
(target: λi ≻ λj), plus one forest per label against the virtual label λ0 (binary relevance). MULAN's
standard (hard) voting: v_i = #{j : M_ij prefers λi} + [BR_i predicts λi], v_0 = #{i : BR_i predicts
not λi}; λi is relevant iff v_i ≥ v_0; the score of λi is v_i / L. A pairwise vote goes to λi when
P(λi ≻ λj) ≥ 1/2. A pair without training examples casts no vote; a pair or label whose training
target has one class votes for that class. ``soft=True`` adds the calibration probabilities instead
of hard calibration votes (MULAN's ``setSoft``). ALGORITHMS.md §6.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers import register
from stratbench.classifiers._base import MultiLabelClassifier


def _positive_proba(model, X) -> np.ndarray:
    if isinstance(model, float):
        return np.full(X.shape[0], model)
    return model.predict_proba(X)[:, list(model.classes_).index(1)]


@register("clr")
class CalibratedLabelRanking(MultiLabelClassifier):
    def __init__(self, n_estimators=100, max_features="sqrt", n_jobs=1, random_state=None, soft=False,
                 **forest_params):
        super().__init__(n_estimators, max_features, n_jobs, random_state, **forest_params)
        self.soft = soft

    def _fit_binary(self, X, y, seed):
        positives = int(y.sum())
        if positives in (0, len(y)):
            return float(positives > 0)
        return self.make_forest(seed).fit(X, y)

    def fit(self, X, Y):
        Y = sp.csc_matrix(Y).toarray().astype(bool)
        n, q = Y.shape
        self.n_labels_ = q
        seeds = self._seeds(q + q * (q - 1) // 2)
        self.calibration_ = [self._fit_binary(X, Y[:, i].astype(np.int8), seeds[i]) for i in range(q)]
        self.pairs_ = {}
        s = q
        for i in range(q):
            for j in range(i + 1, q):
                rows = Y[:, i] != Y[:, j]
                if rows.any():
                    self.pairs_[i, j] = self._fit_binary(X[rows], Y[rows, i].astype(np.int8), seeds[s])
                s += 1
        return self

    def votes(self, X) -> tuple[np.ndarray, np.ndarray]:
        """(v: n × L label votes, v0: n virtual-label votes)."""
        n, q = X.shape[0], self.n_labels_
        votes = np.zeros((n, q))
        for (i, j), model in self.pairs_.items():
            prefers_i = _positive_proba(model, X) >= 0.5
            votes[:, i] += prefers_i
            votes[:, j] += ~prefers_i
        calibration = np.column_stack([_positive_proba(m, X) for m in self.calibration_])
        if self.soft:
            votes += calibration
            virtual = (1.0 - calibration).sum(axis=1)
        else:
            relevant = calibration > 0.5
            votes += relevant
            virtual = (~relevant).sum(axis=1).astype(float)
        return votes, virtual

    def predict_scores(self, X) -> np.ndarray:
        return self.votes(X)[0] / self.n_labels_

    def predict(self, X) -> np.ndarray:
        votes, virtual = self.votes(X)
        return (votes >= virtual[:, None]).astype(np.int8)
