"""The label combinations' build and fold counts (:mod:`stratbench.labels.combinations`)."""

import numpy as np

from stratbench._kernels._compile import kernel


@kernel("int64[::1]", "int64[::1]", "int64", "int64[::1]")
def row_keys(indptr, indices, q, row_ptr):  # pragma: no cover - compiled
    keys = np.empty(row_ptr[-1], dtype=np.int64)
    for x in range(indptr.shape[0] - 1):
        out = row_ptr[x]
        lo, hi = indptr[x], indptr[x + 1]
        for a in range(lo, hi):
            for b in range(a, hi):
                keys[out] = np.int64(indices[a]) * q + indices[b]
                out += 1
    return keys


@kernel("int64[::1]", "int64[::1]", "int64", "int64[::1]")
def ids_by_table(indptr, indices, q, row_ptr):  # pragma: no cover - compiled
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


@kernel("int64[::1]", "int32[::1]", "int64[::1]")
def group_rows(row_ptr, row_combos, combo_ptr):  # pragma: no cover - compiled
    fill = combo_ptr[:-1].copy()
    rows = np.empty(row_combos.shape[0], dtype=np.int32)
    for x in range(row_ptr.shape[0] - 1):
        for p in range(row_ptr[x], row_ptr[x + 1]):
            c = row_combos[p]
            rows[fill[c]] = x
            fill[c] += 1
    return rows


@kernel("int64[::1]", "int32[::1]", "int64[::1]", "int64", "int64")
def fold_counts(row_ptr, row_combos, fold, k, n_combos):  # pragma: no cover - compiled
    """Examples of every combination in every fold (combinations × folds, int32)."""
    counts = np.zeros((n_combos, k), dtype=np.int32)
    for x in range(fold.shape[0]):
        for p in range(row_ptr[x], row_ptr[x + 1]):
            counts[row_combos[p], fold[x]] += 1
    return counts
