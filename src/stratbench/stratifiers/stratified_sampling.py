"""Stratified Sampling for extreme multi-label data (SS; Merrillees & Du 2021; docs/ALGORITHMS.md §5.1).

A holdout split by iterative swapping: start from a random split (each example to test with
probability p), then for ``epochs`` epochs score every label by how far its test share is from p and
every example by the sum of its labels' scores (signed by its side), and swap examples with high
scores between train and test with a decaying probability. k folds are made as the optisplit
experiments made them: fold i takes SS's test set of the not yet used rows at p = ⌊n/k⌋/|R| (the last
fold takes the rest). Vectorised over examples (the swaps of an epoch use the scores of its start,
as in the reference); the random draws come from the seeded generator, in example order.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.labels import apportion
from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier


def _label_scores(Y_csc_counts_test, totals, p, mean_labels):
    te = Y_csc_counts_test
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(totals > 0, te / np.maximum(totals, 1), 0.0)
        above = (share - p) / (1 - p) + np.where(share > 0.999, mean_labels, 0.0)
        below = (share - p) / p - np.where(share < 0.001, mean_labels, 0.0)
    scores = np.where(share >= p, above, below)
    return np.where(totals <= 1, 0.0, scores)


def stratified_sample(Y: sp.csr_matrix, p: float, rng: np.random.Generator, epochs: int = 50,
                      swap_probability: float = 0.1, threshold_proportion: float = 0.1,
                      decay: float = 0.1) -> np.ndarray:
    """Boolean test mask of an SS holdout split of CSR ``Y`` with target test share ``p``."""
    n = Y.shape[0]
    test = rng.random(n) <= p
    mean_labels = Y.nnz / n if n else 0.0
    totals = np.asarray(Y.sum(axis=0)).ravel().astype(float)
    Yf = sp.csr_matrix(Y, dtype=np.float64)
    for e in range(epochs):
        te = np.asarray(Yf[test].sum(axis=0)).ravel()
        label_score = _label_scores(te, totals, p, mean_labels)
        sigma = (Yf @ label_score) * np.where(test, 1.0, -1.0)
        low = sigma[sigma < mean_labels]
        theta = max(0.0, float(np.quantile(low, 1 - threshold_proportion / (1 + decay) ** e))) if len(low) else 0.0
        strong = sigma >= mean_labels
        candidate = strong | (sigma > theta)
        idx = np.flatnonzero(candidate)
        draws = rng.random(len(idx))
        prob = np.where(strong[idx], 0.25 / 1.05**e, swap_probability / (1 + decay) ** e)
        swap = idx[draws < prob]
        test[swap] = ~test[swap]
    return test


@register("ss")
class StratifiedSampling(MultilabelStratifier):
    """SS (Merrillees & Du 2021) as a k-fold cross-validator (recursive splits) or a holdout split.

    As published, SS's swaps do not keep sizes: a fold, or a test side asked to hold a few examples, can
    end far from its share (medical, k = 10: a one-example last fold in 5 of 10 seeds; ``test_size=1`` at
    n = 1,000: 111–172 test rows), which the base class warns of. ``exact_sizes=True`` then moves the
    examples whose labels their subset holds most of until every subset has its share (n·r_j ± 1, the
    sizes of :func:`stratbench.labels.apportion`); the default keeps the published algorithm.

    Parameters
    ----------
    epochs : int, default=50
        Epochs of scoring and swapping (the published default).
    swap_probability : float, default=0.1
        An example's chance of a swap in the first epoch, divided by (1 + ``decay``) each epoch.
    threshold_proportion : float, default=0.1
        The share of the examples with the highest scores that may swap in the first epoch, decaying as above.
    decay : float, default=0.1
        The decay of the two above per epoch.
    exact_sizes : bool, default=False
        Move examples afterwards until every subset holds its share (above); False: the published algorithm.

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("ss", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [0, 1, 0, 1, 0, 1]
    """
    reference = "Merrillees & Du 2021 (stratified sampling for extreme multi-label data)"

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 epochs=50, swap_probability=0.1, threshold_proportion=0.1, decay=0.1, exact_sizes=False):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.exact_sizes = exact_sizes
        self.epochs = epochs
        self.swap_probability = swap_probability
        self.threshold_proportion = threshold_proportion
        self.decay = decay

    def _sample(self, Y, p, seed):
        return stratified_sample(Y, p, np.random.default_rng(seed), self.epochs, self.swap_probability,
                                 self.threshold_proportion, self.decay)

    def _assign(self, Y, ratios, rng):
        ids = self._published(Y, ratios, rng)
        return self.fit_sizes(Y, ids, apportion(Y.shape[0], ratios)) if self.exact_sizes else ids

    def _published(self, Y, ratios, rng):
        n = Y.shape[0]
        seed = int(rng.integers(0, 2**63))
        k = len(ratios)
        if self.holdout:  # the test set first, then (with train_size) the training rows of the rest
            ids = self._sample(Y, float(ratios[1]), seed).astype(np.int64)
            if k == 3:
                rest = np.flatnonzero(ids == 0)
                train = self._sample(Y[rest], float(ratios[0] / (ratios[0] + ratios[2])), seed)
                ids[rest[~train]] = 2
            return ids
        folds = np.full(n, -1, dtype=np.int64)
        rest = np.arange(n)
        for i in range(k):
            m = int(np.floor(n * ratios[i] + 1e-9))  # equal shares: ⌊n/k⌋, as the optisplit experiments
            if len(rest) > m and i < k - 1:
                test = self._sample(Y[rest], m / len(rest), seed)  # the same seed for every call
            else:
                test = np.ones(len(rest), dtype=bool)
            folds[rest[test]] = i
            rest = rest[~test]
        return folds
