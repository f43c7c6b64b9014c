"""Data-driven label-space partitioning (Szymański, Kajdanowicz & Kersting, Entropy 18(8), 2016).

Build the label co-occurrence graph of the training fold (unweighted for ``fg``, weighted by the
number of co-occurrences for ``fgw``), split the labels into fast-greedy modularity communities and
train one label powerset per community. The communities partition the labels, so the prediction is
the union (concatenation) of the LPs' labelsets and the scores are their per-label marginals.
"""

from __future__ import annotations

import numpy as np

from stratbench.classifiers import register
from stratbench.classifiers.base import ForestClassifier, forest_seeds
from stratbench.classifiers.label_powerset import labelset_task


class _Partitioned(ForestClassifier):
    weighted = False

    def forest_tasks(self, Y):
        from stratbench.labels.network import label_partition  # networkx, where a partition is made

        self.n_labels_ = Y.shape[1]
        self.communities_ = label_partition(Y, self.weighted)
        tasks = []
        for community, seed in zip(self.communities_, self._seeds(len(self.communities_))):
            # a community's forest is seeded as LabelPowerset(random_state=seed) seeds its one forest
            forest = self.make_forest(forest_seeds(int(seed), 1)[0])
            tasks.append(labelset_task(Y[:, list(community)].tocsr(), forest))
        return tasks

    def combine(self, outputs):
        n = outputs[0][0].shape[0]
        predicted, scores = np.zeros((n, self.n_labels_), dtype=np.int8), np.zeros((n, self.n_labels_))
        for community, (part_scores, part_predicted) in zip(self.communities_, outputs):
            scores[:, list(community)] = part_scores
            predicted[:, list(community)] = part_predicted
        return predicted, scores


@register("fg")
class FastGreedyPartitioning(_Partitioned):
    """LP per fast-greedy community of the unweighted label co-occurrence graph (FG).

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import classifiers
    >>> X, Y = np.arange(12.0).reshape(6, 2), np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
    >>> classifiers.get("fg", n_estimators=5, random_state=0).fit(X, Y).predict(X[:3]).tolist()
    [[1, 0], [1, 0], [1, 0]]
    """

    weighted = False


@register("fgw")
class WeightedFastGreedyPartitioning(_Partitioned):
    """LP per fast-greedy community of the weighted label co-occurrence graph (FGW).

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import classifiers
    >>> X, Y = np.arange(12.0).reshape(6, 2), np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
    >>> classifiers.get("fgw", n_estimators=5, random_state=0).fit(X, Y).predict(X[:3]).tolist()
    [[1, 0], [1, 0], [1, 0]]
    """

    weighted = True
