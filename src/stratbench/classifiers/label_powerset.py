"""Label powerset: one multi-class random forest over the distinct labelsets of the training fold."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers import register
from stratbench.classifiers._base import MultiLabelClassifier
from stratbench.datasets.statistics import labelset_ids


@register("lp")
class LabelPowerset(MultiLabelClassifier):
    """Each distinct training labelset (the empty one included) is a class of one forest. It predicts
    the labelset of the most probable class; a label's score is the summed probability of the
    classes whose labelset contains it (scikit-multilearn ``LabelPowerset.predict_proba``)."""

    def fit(self, X, Y):
        Y = sp.csr_matrix(Y)
        classes = labelset_ids(Y)
        first = np.unique(classes, return_index=True)[1]
        self.labelsets_ = Y[first].toarray().astype(np.float64)  # class id -> labelset (C × q)
        if len(first) == 1:
            self.forest_ = None
        else:
            self.forest_ = self.make_forest(self._seeds(1)[0]).fit(X, classes)
        return self

    def predict_class_proba(self, X) -> np.ndarray:
        """P(class) for every labelset class, n × C in class-id order."""
        if self.forest_ is None:
            return np.ones((X.shape[0], 1))
        proba = np.zeros((X.shape[0], len(self.labelsets_)))
        proba[:, self.forest_.classes_] = self.forest_.predict_proba(X)
        return proba

    def predict_scores(self, X) -> np.ndarray:
        return self.predict_class_proba(X) @ self.labelsets_

    def predict(self, X) -> np.ndarray:
        return self.labelsets_[np.argmax(self.predict_class_proba(X), axis=1)].astype(np.int8)
