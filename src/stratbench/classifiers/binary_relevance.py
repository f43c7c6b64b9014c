"""Binary relevance: one random forest per label, trained independently."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers import register
from stratbench.classifiers._base import MultiLabelClassifier


@register("br")
class BinaryRelevance(MultiLabelClassifier):
    """One ``RandomForestClassifier`` per label; its P(label) is the label's score and the label is
    predicted when P > 0.5. A label with a single class in the training fold predicts that class
    with score 0 or 1."""

    def fit(self, X, Y):
        Y = sp.csc_matrix(Y)
        n, q = Y.shape
        self.n_labels_ = q
        self.models_ = []
        for j, seed in enumerate(self._seeds(q)):
            y = np.zeros(n, dtype=np.int8)
            y[Y.indices[Y.indptr[j]:Y.indptr[j + 1]]] = 1
            positives = int(y.sum())
            if positives in (0, n):
                self.models_.append(float(positives > 0))
            else:
                self.models_.append(self.make_forest(seed).fit(X, y))
        return self

    def predict_scores(self, X) -> np.ndarray:
        n = X.shape[0]
        scores = np.empty((n, self.n_labels_))
        for j, model in enumerate(self.models_):
            if isinstance(model, float):
                scores[:, j] = model
            else:
                scores[:, j] = model.predict_proba(X)[:, list(model.classes_).index(1)]
        return scores

    def predict(self, X) -> np.ndarray:
        return (self.predict_scores(X) > 0.5).astype(np.int8)
