"""Calibrated label ranking (Fürnkranz, Hüllermeier, Loza Mencía & Brinker, MLJ 73(2), 2008).

One forest per label pair (i < j), trained on the examples where exactly one of the two is relevant
(target: λi ≻ λj), plus one forest per label against the virtual label λ0 (binary relevance). MULAN's
standard (hard) voting: v_i = #{j : M_ij prefers λi} + [BR_i predicts λi], v_0 = #{i : BR_i predicts
not λi}; λi is relevant iff v_i ≥ v_0; the score of λi is v_i / L. A pairwise vote goes to λi when
P(λi ≻ λj) ≥ 1/2. A pair without training examples casts no vote; a pair or label whose training
target has one class votes for that class. ``soft=True`` adds the calibration probabilities instead
of hard calibration votes (MULAN's ``setSoft``). docs/ALGORITHMS.md §6.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers import register
from stratbench.classifiers.base import ForestClassifier, column_targets
from stratbench.classifiers.forests import ForestTask, positive_proba


@register("clr")
class CalibratedLabelRanking(ForestClassifier):
    """Calibrated label ranking over random forests: one forest per label pair and one per label against
    the virtual label (docs/ALGORITHMS.md §6).

    Parameters
    ----------
    soft : bool, default=False
        Sum the forests' probabilities instead of their hard votes.

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import classifiers
    >>> X, Y = np.arange(12.0).reshape(6, 2), np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
    >>> classifiers.get("clr", n_estimators=5, random_state=0).fit(X, Y).predict(X[:3]).tolist()
    [[1, 0], [1, 0], [1, 1]]
    """

    def __init__(self, n_estimators=100, max_features="sqrt", n_jobs=1, random_state=None, soft=False,
                 **forest_params):
        super().__init__(n_estimators, max_features, n_jobs, random_state, **forest_params)
        self.soft = soft

    def fold_forests(self, examples, labels):
        """q calibration forests and q(q − 1)/2 pairwise ones, each on fewer rows (counted as whole)."""
        return float(labels + labels * (labels - 1) // 2)

    def forest_tasks(self, Y):
        """q calibration forests (label i against λ0), then one forest per pair (i < j) with training
        rows, in the order (0,1), (0,2), …, (q−2, q−1); seeds in that order, pairs without rows
        skipping theirs."""
        q = Y.shape[1]
        self.n_labels_ = q
        seeds = self._seeds(q + q * (q - 1) // 2)
        targets = column_targets(Y)
        tasks = [ForestTask(targets[i], self.make_forest(seeds[i])) for i in range(q)]
        dense = sp.csc_matrix(Y).toarray().astype(bool)
        self.pair_labels_ = []
        s = q
        for i in range(q):
            for j in range(i + 1, q):
                rows = np.flatnonzero(dense[:, i] != dense[:, j])
                if len(rows):
                    tasks.append(ForestTask(targets[i][rows], self.make_forest(seeds[s]), rows=rows))
                    self.pair_labels_.append((i, j))
                s += 1
        return tasks

    def fit(self, X, Y):
        super().fit(X, Y)
        q = self.n_labels_
        self.calibration_ = self.forests_[:q]
        self.pairs_ = dict(zip(self.pair_labels_, self.forests_[q:]))
        return self

    def combine(self, outputs):
        q = self.n_labels_
        votes, virtual = self.votes_from(dict(zip(self.pair_labels_, outputs[q:])), outputs[:q])
        return (votes >= virtual[:, None]).astype(np.int8), votes / q

    def votes_from(self, pair_proba: dict, calibration_proba: list) -> tuple[np.ndarray, np.ndarray]:
        """(v: n × L label votes, v0: n virtual-label votes) from P(λi ≻ λj) per pair and
        P(λi relevant) per label."""
        calibration = np.column_stack(calibration_proba)
        votes = np.zeros(calibration.shape)
        for (i, j), p in pair_proba.items():
            prefers_i = p >= 0.5
            votes[:, i] += prefers_i
            votes[:, j] += ~prefers_i
        if self.soft:
            votes += calibration
            virtual = (1.0 - calibration).sum(axis=1)
        else:
            relevant = calibration > 0.5
            votes += relevant
            virtual = (~relevant).sum(axis=1).astype(float)
        return votes, virtual

    def votes(self, X) -> tuple[np.ndarray, np.ndarray]:
        """(v, v0) of the fitted ``pairs_`` and ``calibration_`` models on X."""
        return self.votes_from({pair: positive_proba(m, X) for pair, m in self.pairs_.items()},
                               [positive_proba(m, X) for m in self.calibration_])

    def _predict_both(self, X):
        votes, virtual = self.votes(X)
        return (votes >= virtual[:, None]).astype(np.int8), votes / self.n_labels_
