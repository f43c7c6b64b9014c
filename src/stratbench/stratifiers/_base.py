"""Common base of the multi-label stratifiers: a scikit-learn cross-validator over fold ids.

A stratifier computes one fold id (0…k−1) per example; fold j's test set is {x : fold(x) = j} and
its training set the rest (ALGORITHMS.md notation: S_j is the test set of fold j). ``y`` may be
dense or scipy.sparse; it is converted once to CSR int8 and checked to hold only 0/1.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils.validation import _num_samples

from stratbench import StratbenchError


def as_label_matrix(y) -> sp.csr_matrix:
    """``y`` as a CSR int8 0/1 matrix (n × L); a 1-d ``y`` is one label. Non-0/1 values stop."""
    Y = sp.csr_matrix(y) if sp.issparse(y) else sp.csr_matrix(np.asarray(y).reshape(len(y), -1))
    Y.sum_duplicates()
    bad = (Y.data != 0) & (Y.data != 1)
    if bad.any():
        col = int(Y.indices[np.flatnonzero(bad)[0]])
        raise StratbenchError(f"label column {col} is not 0/1 (value {float(Y.data[bad][0]):g})")
    Y.eliminate_zeros()
    Y = Y.astype(np.int8)
    Y.sort_indices()
    return Y


def check_random_state(random_state) -> np.random.Generator:
    """A numpy Generator from None (fresh entropy), an int seed or a Generator."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None or isinstance(random_state, numbers.Integral):
        return np.random.default_rng(random_state)
    raise StratbenchError(f"random_state must be None, an int or a numpy Generator, not {random_state!r}")


def apportion(n: int, ratios: np.ndarray) -> np.ndarray:
    """Integer subset sizes summing to n, proportional to ``ratios`` (largest remainder; ties to the
    lower index, so equal ratios give scikit-learn ``KFold``'s sizes: the first n mod k one larger)."""
    exact = n * np.asarray(ratios, dtype=float)
    sizes = np.floor(exact + 1e-9).astype(np.int64)
    short = n - sizes.sum()
    order = np.argsort(-(exact - sizes), kind="stable")
    sizes[order[:short]] += 1
    return sizes


class MultilabelStratifier(BaseCrossValidator):
    """Base class: subclasses implement ``_assign(Y, ratios, rng) -> subset id per row``.

    k-fold mode (``test_size=None``): k = ``n_splits`` subsets of desired share 1/k; subset j is
    the test set of fold j. Holdout mode (``test_size=p``): two subsets of desired shares (1−p, p);
    ``split`` yields one (train, test) pair and subset 1 is the test set.
    """

    def __init__(self, n_splits: int = 10, random_state=None, test_size: float | None = None):
        self.n_splits = n_splits
        self.random_state = random_state
        self.test_size = test_size

    @property
    def holdout(self) -> bool:
        return self.test_size is not None

    def _ratios(self) -> np.ndarray:
        if self.holdout:
            if not 0 < float(self.test_size) < 1:
                raise StratbenchError(f"test_size must lie in (0, 1), got {self.test_size!r}")
            return np.array([1.0 - self.test_size, float(self.test_size)])
        return np.full(self.n_splits, 1.0 / self.n_splits)

    def _check(self, n_samples: int) -> None:
        if self.holdout:
            if n_samples < 2:
                raise StratbenchError(f"a holdout split needs at least 2 examples, got {n_samples}")
            return
        if not isinstance(self.n_splits, numbers.Integral) or self.n_splits < 2:
            raise StratbenchError(f"n_splits must be an integer ≥ 2, got {self.n_splits!r}")
        if self.n_splits > n_samples:
            raise StratbenchError(
                f"cannot have n_splits={self.n_splits} greater than the number of examples={n_samples}"
            )

    def fold_ids(self, y) -> np.ndarray:
        """The subset id of every example in row order: its test fold (0…k−1), or in holdout mode
        0 for training and 1 for test."""
        Y = as_label_matrix(y)
        self._check(Y.shape[0])
        ratios = self._ratios()
        folds = np.asarray(self._assign(Y, ratios, check_random_state(self.random_state)), dtype=np.int64)
        assert folds.shape == (Y.shape[0],)
        return folds

    def _assign(self, Y: sp.csr_matrix, ratios: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def split(self, X=None, y=None, groups=None):
        """Yield (train indices, test indices) for each fold (one pair in holdout mode)."""
        if y is None:
            raise StratbenchError(f"{type(self).__name__}.split needs the label matrix y")
        if X is not None and _num_samples(X) != _num_samples(y):
            raise StratbenchError(f"X has {_num_samples(X)} rows but y has {_num_samples(y)}")
        folds = self.fold_ids(y)
        for j in [1] if self.holdout else range(self.n_splits):
            yield np.flatnonzero(folds != j), np.flatnonzero(folds == j)

    def _iter_test_indices(self, X=None, y=None, groups=None):
        for _, test in self.split(X, y, groups):
            yield test

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return 1 if self.holdout else self.n_splits


def windows(order: np.ndarray, ratios: np.ndarray) -> np.ndarray:
    """Subset ids for contiguous windows over ``order`` with sizes ``apportion(n, ratios)``."""
    n = len(order)
    folds = np.empty(n, dtype=np.int64)
    folds[order] = np.repeat(np.arange(len(ratios)), apportion(n, ratios))
    return folds
