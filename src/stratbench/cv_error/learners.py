"""The study's learners: fast multi-label models whose fits on many CV training parts share work.

The question of the study is the split, not the learner, so the learners are cheap and deterministic,
and each is *prepared* once per development sample: every CV split of that sample then costs a solve
or a lookup, not a fresh fit from the features.

- ``knn``: the 10 nearest training rows by cosine similarity; a label's score is the share of the
  neighbours that carry it (a tie in similarity at the k-th place is broken by numpy's introselect,
  the same way for the same input); predicted where the score ≥ 0.5. ``knn5``, ``knn20`` and ``knn40`` are
  the same with 5, 20 and 40 neighbours: with ``knn``, the close competitors of the model-selection task.
- ``ridge``: binary relevance over ridge regression in its dual (kernel) form on L2-normalised rows,
  K = X Xᵀ + 1 (the 1 is an intercept), α = (K_tr + 1 + λI)⁻¹ Y_tr, scores (K_te,tr + 1) α with λ = 1;
  predicted where the score ≥ 0.5. Every label shares one solve; a held-out part's scores come from
  the whole sample's inverse (:class:`Ridge`). A label with no positive in the training rows has α = 0:
  its scores are exactly 0 (the identity would give round-off of either sign).
- ``forest``: binary relevance over small random forests (one scikit-learn forest of 10 trees per label,
  each seeded from the sample's seed and the label); a label constant in the training rows scores that
  constant. Slower: a study can run it on some datasets and sizes only (``cv_error.forest``).

Features are L2-normalised per row (no statistic of other rows is used, so nothing leaks between a
training part and its test part).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

NEIGHBOURS = 10
SELECTION = ("knn5", "knn", "knn20", "knn40")  # the model-selection task: kNN with 5, 10, 20, 40 neighbours
STUDY_LEARNERS = ("knn", "ridge", "forest")  # what `cv_error.learners` may name
RIDGE_LAMBDA = 1.0
FOREST_TREES = 10


def normalised_rows(X) -> np.ndarray | sp.csr_matrix:
    """X with every row scaled to unit Euclidean norm (an all-zero row stays zero)."""
    if sp.issparse(X):
        X = sp.csr_matrix(X, dtype=np.float64)
        norms = np.sqrt(np.asarray(X.multiply(X).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        return sp.csr_matrix(sp.diags(1.0 / norms) @ X)
    X = np.asarray(X, dtype=np.float64)
    norms = np.linalg.norm(X, axis=1)
    norms[norms == 0] = 1.0
    return X / norms[:, None]


def similarity(A, B) -> np.ndarray:
    """Dense A Bᵀ of row-normalised matrices (cosine similarities)."""
    out = A @ B.T
    return out.toarray() if sp.issparse(out) else np.asarray(out)


class Learner:
    """A learner prepared on one development sample: ``scores(train, test)`` for any CV split of it,
    ``pool_scores(pool_similarity, pool_features, rows)`` for the model fitted on the sample's ``rows`` (all of
    them by default)."""

    name = ""

    def __init__(self, K: np.ndarray, Y: np.ndarray, X=None, seed: int = 0):
        self.K, self.Y, self.X, self.seed = K, Y.astype(np.float64), X, seed

    def scores(self, train: np.ndarray, test: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def pool_scores(self, K_pool: np.ndarray, X_pool=None, rows: np.ndarray | None = None) -> np.ndarray:
        raise NotImplementedError


class NearestNeighbours(Learner):
    name = "knn"
    neighbours = NEIGHBOURS

    def _vote(self, S: np.ndarray, Y: np.ndarray) -> np.ndarray:
        k = min(self.neighbours, S.shape[1])
        nearest = np.argpartition(-S, k - 1, axis=1)[:, :k]  # the k most similar training rows
        weights = sp.csr_matrix((np.full(nearest.size, 1.0 / k), nearest.ravel(), np.arange(0, nearest.size + 1, k)),
                                shape=S.shape)
        return np.asarray(weights @ Y)

    def scores(self, train, test):
        return self._vote(self.K[np.ix_(test, train)], self.Y[train])

    def pool_scores(self, K_pool, X_pool=None, rows=None):
        rows = np.arange(len(self.Y)) if rows is None else rows
        return self._vote(K_pool[:, rows], self.Y[rows])


def neighbours(k: int) -> type:
    """kNN with ``k`` neighbours, named ``knn{k}``."""
    return type(f"NearestNeighbours{k}", (NearestNeighbours,), {"name": f"knn{k}", "neighbours": k})


class Ridge(Learner):
    """Kernel ridge, K + 1 + λI = A. A CV training part's fit is never formed: with A⁻¹ and A⁻¹Y computed
    once for the whole development sample, the scores of a held-out part S are exactly
    Y_S − (A⁻¹)_SS⁻¹ (A⁻¹Y)_S, the fit on the other rows applied to S (the block form of the
    leave-one-out identity of kernel ridge; Cawley & Talbot 2004). A part then costs a solve of its
    own size, not of the training part's. A label with no positive in the training part has the fit α = 0:
    its scores are set to exactly 0, which the identity gives only up to round-off (whose sign would follow
    the test part's labels and make that label's AUC 0 or 1 instead of the 0.5 of tied scores)."""

    name = "ridge"

    def __init__(self, K, Y, X=None, seed: int = 0):
        super().__init__(K, Y, X, seed)
        A = K + 1.0 + RIDGE_LAMBDA * np.eye(len(K))
        self.A_inv = scipy.linalg.inv(A, check_finite=False)
        self.A_inv_Y = self.A_inv @ self.Y

    def scores(self, train, test):
        held_out = scipy.linalg.solve(self.A_inv[np.ix_(test, test)], self.A_inv_Y[test], assume_a="pos",
                                      check_finite=False)
        out = self.Y[test] - held_out
        out[:, self.Y[train].sum(axis=0) == 0] = 0.0  # α = 0 for a label absent from the training part
        return out

    def pool_scores(self, K_pool, X_pool=None, rows=None):
        if rows is None:
            out = (K_pool + 1.0) @ self.A_inv_Y
            out[:, self.Y.sum(axis=0) == 0] = 0.0
            return out
        A = self.K[np.ix_(rows, rows)] + 1.0 + RIDGE_LAMBDA * np.eye(len(rows))
        alpha = scipy.linalg.solve(A, self.Y[rows], assume_a="pos", check_finite=False)
        out = (K_pool[:, rows] + 1.0) @ alpha
        out[:, self.Y[rows].sum(axis=0) == 0] = 0.0
        return out


class Forest(Learner):
    """Binary relevance over random forests of :data:`FOREST_TREES` trees, one per label."""

    name = "forest"

    def _fit_score(self, X_train, Y_train, X_test) -> np.ndarray:
        from sklearn.ensemble import RandomForestClassifier

        out = np.zeros((X_test.shape[0], Y_train.shape[1]))
        for label in range(Y_train.shape[1]):
            y = Y_train[:, label].astype(np.int8)
            if y.min() == y.max():  # one class in the training rows: its score is that class
                out[:, label] = float(y[0])
                continue
            forest = RandomForestClassifier(n_estimators=FOREST_TREES, max_features="sqrt",
                                            random_state=int(np.random.SeedSequence([self.seed, label]).generate_state(1)[0]))
            out[:, label] = forest.fit(X_train, y).predict_proba(X_test)[:, 1]
        return out

    def scores(self, train, test):
        return self._fit_score(self.X[train], self.Y[train], self.X[test])

    def pool_scores(self, K_pool, X_pool=None, rows=None):
        rows = np.arange(len(self.Y)) if rows is None else rows
        return self._fit_score(self.X[rows], self.Y[rows], X_pool)


LEARNERS = {cls.name: cls for cls in (NearestNeighbours, Ridge, Forest, *(neighbours(k) for k in (5, 20, 40)))}
