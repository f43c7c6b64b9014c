"""What the group baselines share (scikit-learn's ``GroupKFold`` and ``StratifiedGroupKFold``,
``maestros``): k-fold splitters that need ``groups`` and hand the rows to another library's splitter.
They are the grouped track's baselines (``config/grouped2026.yaml``), not stratbench's methods."""

from __future__ import annotations

import numpy as np

from stratbench import StratbenchError
from stratbench.stratifiers.base import MultilabelStratifier


class GroupBaseline(MultilabelStratifier):
    """A k-fold splitter of whole groups by another library: subclasses give :meth:`_row_folds` (a fold
    per row from the label matrix, each row's group index and a seed); split without groups or in a
    holdout mode, it stops with a message."""

    supports_groups = True
    needs_groups = True

    def _assign(self, Y, ratios, rng):
        raise StratbenchError(f"{type(self).__name__} splits groups: pass groups (one per example), e.g. "
                              "split(X, y, groups) or cross_validate(..., groups=groups)")

    def _assign_groups(self, counts, sizes, ratios, rng, rows=None):
        if self.holdout or self.fold_shares is not None:
            raise StratbenchError(f"{type(self).__name__} makes k equal folds only (no test_size, no fold_shares)")
        Y, member = rows
        row_folds = self._row_folds(Y, member, len(ratios), int(rng.integers(0, 2**31 - 1)))
        folds = np.empty(len(sizes), dtype=np.int64)
        folds[member] = row_folds  # every row of a group has the group's fold
        return folds

    def _row_folds(self, Y, member: np.ndarray, k: int, seed: int) -> np.ndarray:
        raise NotImplementedError


def folds_of_splits(splits, n: int) -> np.ndarray:
    """A fold id per row from a splitter's (train, test) pairs."""
    folds = np.empty(n, dtype=np.int64)
    for j, (_, test) in enumerate(splits):
        folds[test] = j
    return folds
