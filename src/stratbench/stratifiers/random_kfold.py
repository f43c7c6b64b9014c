"""Random k-fold: contiguous windows over a seeded shuffle of the rows (Sechidis 2011 "random")."""

from __future__ import annotations

import numpy as np

from stratbench import StratbenchError
from stratbench.labels import apportion
from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier, legacy_random_state

PROTOCOLS = ("stratbench", "optisplit")


@register("random")
class RandomKFold(MultilabelStratifier):
    """k-fold cross-validation (or a holdout split) on randomly permuted rows; ignores the labels.

    Fold sizes follow scikit-learn's ``KFold``: ⌈n/k⌉ for the first n mod k folds, ⌊n/k⌋ after (the
    sizes of ``np.array_split``). ``protocol="optisplit"`` shuffles with numpy's legacy stream of the
    integer ``random_state`` (``np.random.seed(s)``, ``np.random.shuffle``), as the optisplit
    experiments' ``random_cv`` (Tiittanen et al. 2021) did: their seeds 1…10 give their random rows.

    Parameters
    ----------
    protocol : {"stratbench", "optisplit"}, default="stratbench"
        Rows permuted from ``random_state``'s Generator, or by numpy's legacy stream as the optisplit experiments.

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("random", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [1, 1, 0, 0, 1, 0]
    """
    reference = "Sechidis et al. 2011 (random)"

    equal_sizes = True

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 protocol="stratbench"):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.protocol = protocol

    supports_groups = True

    def _assign(self, Y, ratios, rng):
        return self._assign_groups(Y, np.ones(Y.shape[0]), ratios, rng)

    def _assign_groups(self, Y, sizes, ratios, rng, rows=None):
        """Shuffled rows (or groups, each as many examples as it holds) cut into windows of the subsets'
        sizes: a group goes to the window holding its middle example (singletons: the rows' windows)."""
        if self.protocol not in PROTOCOLS:
            raise StratbenchError(f"protocol must be one of {PROTOCOLS}, got {self.protocol!r}")
        if self.protocol == "optisplit":  # random_cv: np.random.seed(s); np.random.shuffle(arange(n)); array_split
            order = legacy_random_state(self).permutation(Y.shape[0])
        else:
            order = rng.permutation(Y.shape[0])
        middle = np.cumsum(sizes[order]) - sizes[order] / 2
        folds = np.empty(Y.shape[0], dtype=np.int64)
        folds[order] = np.searchsorted(np.cumsum(apportion(int(sizes.sum()), ratios)), middle, side="right")
        return folds
