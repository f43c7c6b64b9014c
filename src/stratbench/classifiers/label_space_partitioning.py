"""Data-driven label-space partitioning (Szymański, Kajdanowicz & Kersting, Entropy 18(8), 2016).

Build the label co-occurrence graph of the training fold (unweighted for ``fg``, weighted by the
number of co-occurrences for ``fgw``), split the labels into fast-greedy modularity communities and
train one label powerset per community. The communities partition the labels, so the prediction is
the union (concatenation) of the LPs' labelsets and the scores are their per-label marginals.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers import register
from stratbench.classifiers._base import MultiLabelClassifier
from stratbench.classifiers.label_powerset import LabelPowerset
from stratbench.network import label_partition


class _Partitioned(MultiLabelClassifier):
    weighted = False

    def fit(self, X, Y):
        Y = sp.csc_matrix(Y)
        self.n_labels_ = Y.shape[1]
        self.communities_ = label_partition(Y, self.weighted)
        seeds = self._seeds(len(self.communities_))
        self.models_ = []
        for community, seed in zip(self.communities_, seeds):
            lp = LabelPowerset(self.n_estimators, self.max_features, self.n_jobs, int(seed), **self.forest_params)
            self.models_.append(lp.fit(X, Y[:, list(community)].tocsr()))
        return self

    def _assemble(self, X, method: str) -> np.ndarray:
        out = np.zeros((X.shape[0], self.n_labels_))
        for community, model in zip(self.communities_, self.models_):
            out[:, list(community)] = getattr(model, method)(X)
        return out

    def predict_scores(self, X) -> np.ndarray:
        return self._assemble(X, "predict_scores")

    def predict(self, X) -> np.ndarray:
        return self._assemble(X, "predict").astype(np.int8)


@register("fg")
class FastGreedyPartitioning(_Partitioned):
    """LP per fast-greedy community of the unweighted label co-occurrence graph (FG)."""

    weighted = False


@register("fgw")
class WeightedFastGreedyPartitioning(_Partitioned):
    """LP per fast-greedy community of the weighted label co-occurrence graph (FGW)."""

    weighted = True
