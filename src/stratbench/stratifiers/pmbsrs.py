"""PMBSRS — proportional multi-label based stratified random sampling (Charte, Rivera, del Jesus &
Herrera, HAIS 2016), as the optisplit experiments implement it (ALGORITHMS.md §5.2).

Weight each example by the product of its labels' relative frequencies (rare labels and many labels
→ small weight; an example without labels has the empty product 1, so it sorts last), order the
examples by weight (stable), cut the order into k strata, shuffle each stratum, cut each stratum into
k parts and give fold j the j-th part of every stratum (``np.array_split``: the first parts are one
larger). The mldr code's two bugs (strata applied to the unsorted data, overlapping slice ends) are
not reproduced. Holdout mode cuts each stratum at the cumulative shares instead.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.stratifiers import register
from stratbench.stratifiers._base import MultilabelStratifier, windows


def example_weights(Y: sp.csr_matrix) -> np.ndarray:
    """w_x = Π_{λ ∈ Y_x} |D_λ|/n, computed as exp(Σ log f) (1 for a label-less example)."""
    n = Y.shape[0]
    freq = np.asarray(Y.sum(axis=0)).ravel() / n
    logf = np.log(np.where(freq > 0, freq, 1.0))
    return np.exp(sp.csr_matrix(Y, dtype=np.float64) @ logf)


@register("pmbsrs")
class PMBSRS(MultilabelStratifier):
    """Proportional multi-label based stratified random sampling (k strata by example weight)."""

    def _assign(self, Y, ratios, rng):
        n = Y.shape[0]
        k = len(ratios) if self.holdout else self.n_splits
        order = np.argsort(example_weights(Y), kind="stable")
        folds = np.empty(n, dtype=np.int64)
        for stratum in np.array_split(order, k):
            stratum = stratum[rng.permutation(len(stratum))]
            folds[stratum] = windows(np.arange(len(stratum)), ratios)
        return folds
