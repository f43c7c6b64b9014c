"""Label powerset: one multi-class random forest over the distinct labelsets of the training fold."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers import register
from stratbench.classifiers.base import ForestClassifier
from stratbench.classifiers.forests import ForestTask
from stratbench.labels import labelset_ids


def labelset_task(Y: sp.csr_matrix, forest) -> ForestTask:
    """The LP forest of ``Y``: classes are the distinct training labelsets (the empty one included),
    numbered in order of first appearance."""
    classes = labelset_ids(Y)
    first = np.unique(classes, return_index=True)[1]
    return ForestTask(classes, forest, labelsets=Y[first].toarray().astype(np.float64))


@register("lp")
class LabelPowerset(ForestClassifier):
    """Each distinct training labelset (the empty one included) is a class of one forest. It predicts
    the labelset of the most probable class; a label's score is the summed probability of the
    classes whose labelset contains it (scikit-multilearn ``LabelPowerset.predict_proba``).

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import classifiers
    >>> X, Y = np.arange(12.0).reshape(6, 2), np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
    >>> classifiers.get("lp", n_estimators=5, random_state=0).fit(X, Y).predict(X[:3]).tolist()
    [[1, 0], [1, 0], [1, 0]]
    """

    def fold_forests(self, examples, labels):
        """One forest whose trees cost 1 + C/400 binary ones (:func:`~stratbench.classifiers.forests.shape_forest_seconds`),
        C the labelsets: at most one per example and 2^q."""
        return 1 + min(examples, 2 ** min(labels, 62)) / 400

    def forest_tasks(self, Y):
        task = labelset_task(Y, self.make_forest(self._seeds(1)[0]))
        self.labelsets_ = task.labelsets  # class id -> labelset (C × q)
        return [task]

    def combine(self, outputs):
        scores, predicted = outputs[0]
        return predicted.astype(np.int8), scores
