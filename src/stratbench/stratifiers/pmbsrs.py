"""PMBSRS — proportional multi-label based stratified random sampling (Charte, Rivera, del Jesus &
Herrera, HAIS 2016), as the optisplit experiments implement it (docs/ALGORITHMS.md §5.2).

Weight each example by the product of its labels' relative frequencies (rare labels and many labels
→ small weight; an example without labels has the empty product 1, so it sorts last), order the
examples by weight (stable), cut the order into k strata, shuffle each stratum, cut each stratum into
k parts and give fold j the j-th part of every stratum. Unlike OPTI's ``np.array_split`` (which gives
every stratum's extra rows to the first folds: n=105, k=10 → [15, 10, …, 10], and leaves the last folds
empty when a stratum has fewer than k rows), each stratum's remainder goes to the folds furthest below
their share so far (ties to the lowest index; docs/ALGORITHMS.md §5.2), so fold sizes stay within ±1 of
n·r_j and no fold is empty when n ≥ k. The mldr code's two bugs (strata applied to the unsorted data,
overlapping slice ends) are not reproduced. Holdout mode and unequal fold shares cut each stratum by
the same rule at the subsets' shares.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier, legacy_random_state

PROTOCOLS = ("stratbench", "optisplit")


def example_weights(Y: sp.csr_matrix) -> np.ndarray:
    """w_x = Π_{λ ∈ Y_x} |D_λ|/n, computed as exp(Σ log f) (1 for a label-less example)."""
    n = Y.shape[0]
    freq = np.asarray(Y.sum(axis=0)).ravel() / n
    logf = np.log(np.where(freq > 0, freq, 1.0))
    return np.exp(sp.csr_matrix(Y, dtype=np.float64) @ logf)


@register("pmbsrs")
class PMBSRS(MultilabelStratifier):
    """Proportional multi-label based stratified random sampling (k strata by example weight).

    ``protocol="optisplit"`` runs the published experiment code instead (:func:`partitioning_cv`: equal
    shares only, ``np.array_split`` remainders, numpy's legacy stream of the integer ``random_state``).

    Parameters
    ----------
    protocol : {"stratbench", "optisplit"}, default="stratbench"
        The method as published, or the optisplit experiments' code (above).

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("pmbsrs", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [0, 1, 1, 0, 0, 1]
    """
    reference = "Charte, Rivera, del Jesus & Herrera 2016 (PMBSRS)"

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 protocol="stratbench"):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.protocol = protocol

    @property
    def equal_sizes(self) -> bool:
        return self.protocol != "optisplit"

    def _assign(self, Y, ratios, rng):
        if self.protocol not in PROTOCOLS:
            raise StratbenchError(f"protocol must be one of {PROTOCOLS}, got {self.protocol!r}")
        if self.protocol == "optisplit":
            return partitioning_cv(Y, len(ratios), legacy_random_state(self))
        n, k = Y.shape[0], len(ratios)
        order = np.argsort(example_weights(Y), kind="stable")
        folds = np.empty(n, dtype=np.int64)
        sizes = np.zeros(k, dtype=np.int64)
        for stratum in np.array_split(order, k):
            stratum = stratum[rng.permutation(len(stratum))]
            parts = stratum_parts(len(stratum), sizes, ratios)
            folds[stratum] = np.repeat(np.arange(k), parts)
            sizes += parts
        return folds


def sequential_weights(Y: sp.csr_matrix) -> np.ndarray:
    """w_x = Π_{λ ∈ Y_x} |D_λ|/n multiplied label by label in column order, as ``np.product`` of a row's
    frequencies does (the float rounding, hence the ties and the order, of the published code)."""
    freq = np.asarray(Y.mean(axis=0)).ravel()
    values = freq[Y.indices]
    weights = np.ones(Y.shape[0])
    for x in np.flatnonzero(np.diff(Y.indptr)):
        w = 1.0
        for v in values[Y.indptr[x]:Y.indptr[x + 1]]:
            w *= v
        weights[x] = w
    return weights


def partitioning_cv(Y: sp.csr_matrix, k: int, state: np.random.RandomState) -> np.ndarray:
    """PMBSRS as the optisplit experiments' ``partitioning_cv`` runs it (Tiittanen et al. 2021): order by
    :func:`sequential_weights` with numpy's default argsort, cut with ``np.array_split`` into k strata
    (the first get the extra rows), shuffle each stratum in turn with ``state``, cut each into k parts
    with ``np.array_split``; fold j takes the j-th part of every stratum, so the first folds are larger
    (bibtex, k = 5: 1,480 × 4 + 1,475, ED 1.6). The order of tied weights is NumPy's (its default sort
    changed across versions), so the exact digits depend on the NumPy of the run."""
    folds = np.empty(Y.shape[0], dtype=np.int64)
    for stratum in np.array_split(np.argsort(sequential_weights(Y)), k):
        state.shuffle(stratum)
        for j, part in enumerate(np.array_split(stratum, k)):
            folds[part] = j
    return folds


def stratum_parts(m: int, sizes: np.ndarray, ratios: np.ndarray) -> np.ndarray:
    """How many of a stratum's m rows each subset takes: ⌊its due⌋, due = (rows so far + m)·r_j −
    its size so far, and the remaining rows one each to the subsets with the largest unmet due
    (ties to the lowest index)."""
    due = (sizes.sum() + m) * np.asarray(ratios) - sizes
    parts = np.clip(np.floor(due + 1e-9).astype(np.int64), 0, None)
    while parts.sum() > m:  # only if some subset is already above its share
        parts[int(np.argmax(parts))] -= 1
    left = m - parts.sum()
    order = np.argsort(-(due - parts), kind="stable")
    parts[order[:left]] += 1
    return parts
