"""Binary relevance: one random forest per label, trained independently."""

from __future__ import annotations

import numpy as np

from stratbench.classifiers import register
from stratbench.classifiers.base import ForestClassifier, column_targets
from stratbench.classifiers.forests import ForestTask


@register("br")
class BinaryRelevance(ForestClassifier):
    """One ``RandomForestClassifier`` per label; its P(label) is the label's score and the label is
    predicted when P > 0.5. A label with a single class in the training fold predicts that class
    with score 0 or 1.

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import classifiers
    >>> X, Y = np.arange(12.0).reshape(6, 2), np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
    >>> classifiers.get("br", n_estimators=5, random_state=0).fit(X, Y).predict(X[:3]).tolist()
    [[1, 0], [1, 0], [1, 1]]
    """

    def forest_tasks(self, Y):
        self.n_labels_ = Y.shape[1]
        return [ForestTask(y, self.make_forest(seed)) for y, seed in zip(column_targets(Y), self._seeds(Y.shape[1]))]

    def combine(self, outputs):
        scores = np.column_stack(outputs) if outputs else np.zeros((0, 0))
        return (scores > 0.5).astype(np.int8), scores
