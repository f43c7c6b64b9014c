"""Label combinations of order ≤ 2: every label i as (i, i) and every co-occurring pair (i, j), i < j.

For each example with sorted labels a < b < …, ``itertools.combinations_with_replacement(Y_x, 2)``
order: (a,a), (a,b), (a,c), (b,b), (b,c), (c,c) — docs/ALGORITHMS.md §2. Built once in compiled code over
the CSR rows, with a counting sort for the combination → examples lists (rows ascending).
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import scipy.sparse as sp


@numba.njit(cache=True)
def _row_keys(indptr, indices, q, row_ptr):  # pragma: no cover - compiled
    keys = np.empty(row_ptr[-1], dtype=np.int64)
    for x in range(indptr.shape[0] - 1):
        out = row_ptr[x]
        lo, hi = indptr[x], indptr[x + 1]
        for a in range(lo, hi):
            for b in range(a, hi):
                keys[out] = np.int64(indices[a]) * q + indices[b]
                out += 1
    return keys


@numba.njit(cache=True)
def _ids_by_table(indptr, indices, q, row_ptr):  # pragma: no cover - compiled
    """Combination ids in order of first appearance through a dense q × q lookup table:
    one pass, no sort. Returns (row_combos, first label, second label) of each combination."""
    table = np.full(q * q, -1, dtype=np.int32)
    row_combos = np.empty(row_ptr[-1], dtype=np.int32)
    first = np.empty(row_ptr[-1], dtype=np.int64)
    second = np.empty(row_ptr[-1], dtype=np.int64)
    n_ids = 0
    for x in range(indptr.shape[0] - 1):
        out = row_ptr[x]
        lo, hi = indptr[x], indptr[x + 1]
        for a in range(lo, hi):
            for b in range(a, hi):
                key = indices[a] * q + indices[b]
                c = table[key]
                if c < 0:
                    c = n_ids
                    table[key] = c
                    first[c] = indices[a]
                    second[c] = indices[b]
                    n_ids += 1
                row_combos[out] = c
                out += 1
    return row_combos, first[:n_ids].copy(), second[:n_ids].copy()


_TABLE_LIMIT = 1 << 24  # a dense lookup table for q² ≤ 16 M keys (64 MB); a sort beyond


@numba.njit(cache=True)
def _group_rows(row_ptr, row_combos, combo_ptr):  # pragma: no cover - compiled
    fill = combo_ptr[:-1].copy()
    rows = np.empty(row_combos.shape[0], dtype=np.int32)
    for x in range(row_ptr.shape[0] - 1):
        for p in range(row_ptr[x], row_ptr[x + 1]):
            c = row_combos[p]
            rows[fill[c]] = x
            fill[c] += 1
    return rows


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


def label_combinations(Y: sp.csr_matrix) -> Combinations:
    Y = sp.csr_matrix(Y)
    Y.sort_indices()
    n, q = Y.shape
    t = np.diff(Y.indptr).astype(np.int64)
    row_ptr = np.concatenate([[0], np.cumsum(t * (t + 1) // 2)]).astype(np.int64)
    indptr, indices = Y.indptr.astype(np.int64), Y.indices.astype(np.int64)
    if q * q <= _TABLE_LIMIT:
        row_combos, first, second = _ids_by_table(indptr, indices, np.int64(q), row_ptr)
        first_seen = np.arange(len(first), dtype=np.int64)
    else:
        keys = _row_keys(indptr, indices, np.int64(q), row_ptr)
        unique, first_index, inverse = np.unique(keys, return_index=True, return_inverse=True)
        del keys
        row_combos = inverse.astype(np.int32)
        del inverse
        first, second = (unique // q).astype(np.int64), (unique % q).astype(np.int64)
        first_seen = np.empty(len(unique), dtype=np.int64)
        first_seen[np.argsort(first_index, kind="stable")] = np.arange(len(unique))
    combo_ptr = np.concatenate([[0], np.cumsum(np.bincount(row_combos, minlength=len(first)))]).astype(np.int64)
    combo_rows = _group_rows(row_ptr, row_combos, combo_ptr)
    return Combinations(row_ptr, row_combos, combo_ptr, combo_rows, first, second, first_seen)


@numba.njit(cache=True)
def fold_counts(row_ptr, row_combos, fold, k, n_combos):  # pragma: no cover - compiled
    """Examples of every combination in every fold (combinations × folds, int32)."""
    counts = np.zeros((n_combos, k), dtype=np.int32)
    for x in range(fold.shape[0]):
        for p in range(row_ptr[x], row_ptr[x + 1]):
            counts[row_combos[p], fold[x]] += 1
    return counts
