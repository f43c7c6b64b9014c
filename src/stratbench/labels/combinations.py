"""Label combinations of order ≤ 2: every label i as (i, i) and every co-occurring pair (i, j), i < j.

For each example with sorted labels a < b < …, ``itertools.combinations_with_replacement(Y_x, 2)``
order: (a,a), (a,b), (a,c), (b,b), (b,c), (c,c) — docs/ALGORITHMS.md §2. Built once in compiled code over
the CSR rows, with a counting sort for the combination → examples lists (rows ascending).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from stratbench._kernels.combinations import first_appearance, fold_counts, group_rows, ids_by_sort, ids_by_table

# fold_counts: examples of each combination per fold
__all__ = ["Combinations", "KeptCombinations", "fold_counts", "kept_combinations", "label_combinations"]

_TABLE_LIMIT = 1 << 24  # a dense lookup table for q² ≤ 16 M keys (64 MB); a sort beyond


@dataclass
class Combinations:
    """Combinations of one label matrix: ``row_ptr``/``row_combos`` (example → combination ids),
    ``combo_ptr``/``combo_rows`` (combination → examples, ascending), ``first``/``second`` (the two
    labels; equal for a single label), ``first_seen`` (rank in order of first appearance)."""

    row_ptr: np.ndarray
    row_combos: np.ndarray
    combo_ptr: np.ndarray
    combo_rows: np.ndarray
    first: np.ndarray
    second: np.ndarray
    first_seen: np.ndarray

    @property
    def is_pair(self) -> np.ndarray:
        return self.first != self.second

    @property
    def support(self) -> np.ndarray:
        return np.diff(self.combo_ptr)

    @property
    def insertion(self) -> np.ndarray:
        """The combinations in order of first appearance (``first_seen``'s inverse permutation)."""
        order = np.empty(len(self.first_seen), dtype=np.int64)
        order[self.first_seen] = np.arange(len(self.first_seen))
        return order


@dataclass
class KeptCombinations:
    """The combinations with more than one example: ``row_ptr``/``row_combos`` (example → their ids, in the
    example's order), ``support``, ``is_pair``; and each example's number of one-example labels
    (``labels_alone``) and pairs (``pairs_alone``), left out."""

    row_ptr: np.ndarray
    row_combos: np.ndarray
    support: np.ndarray
    is_pair: np.ndarray
    labels_alone: np.ndarray
    pairs_alone: np.ndarray


def _sorted_rows(Y) -> tuple[np.ndarray, np.ndarray, int]:
    Y = sp.csr_matrix(Y)
    Y.sort_indices()
    return Y.indptr.astype(np.int64), Y.indices.astype(np.int64), Y.shape[1]


def sorted_numbering(q: int) -> bool:
    """Whether :func:`label_combinations` numbers the combinations of q labels in key order (first label,
    second label), by a sort: a label space too large for the lookup table (which numbers by first appearance)."""
    return q * q > _TABLE_LIMIT


def kept_combinations(Y: sp.csr_matrix) -> KeptCombinations:
    """The combinations of :func:`label_combinations` with more than one example, numbered in key order, built
    without the others (:func:`~stratbench._kernels.combinations.ids_by_sort`): the same as filtering
    ``label_combinations(Y)`` where it numbers them in that order (:func:`sorted_numbering`)."""
    row_ptr, row_combos, first, second, support, labels_alone, pairs_alone = ids_by_sort(*_sorted_rows(Y), 2)
    return KeptCombinations(row_ptr, row_combos, support, first != second, labels_alone, pairs_alone)


def label_combinations(Y: sp.csr_matrix) -> Combinations:
    indptr, indices, q = _sorted_rows(Y)
    if not sorted_numbering(q):
        t = np.diff(indptr)
        row_ptr = np.concatenate([[0], np.cumsum(t * (t + 1) // 2)]).astype(np.int64)
        row_combos, first, second = ids_by_table(indptr, indices, np.int64(q), row_ptr)
        first_seen = np.arange(len(first), dtype=np.int64)
        support = np.bincount(row_combos, minlength=len(first))
    else:  # every combination (at least one example), numbered in key order
        row_ptr, row_combos, first, second, support, _, _ = ids_by_sort(indptr, indices, np.int64(q), np.int64(1))
        first_seen = first_appearance(row_combos, np.int64(len(first)))
    combo_ptr = np.concatenate([[0], np.cumsum(support)]).astype(np.int64)
    combo_rows = group_rows(row_ptr, row_combos, combo_ptr)
    return Combinations(row_ptr, row_combos, combo_ptr, combo_rows, first, second, first_seen)


