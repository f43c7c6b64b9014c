"""The label combinations' build and fold counts (:mod:`stratbench.labels.combinations`)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel


@kernel("int64[::1]", "int64[::1]", "int64", "int64[::1]")
def ids_by_sort(indptr, indices, q, row_ptr):  # pragma: no cover - compiled
    """As :func:`ids_by_table` for a label space too large for the table: ids in the order of the keys
    (first label, second label), by two counting sorts (second label, then first: stable), O(pairs + q);
    returns (row_combos, first, second, each id's rank in order of first appearance)."""
    P = row_ptr[-1]
    first_of = np.empty(P, dtype=np.int64)
    second_of = np.empty(P, dtype=np.int64)
    for x in range(indptr.shape[0] - 1):
        out = row_ptr[x]
        lo, hi = indptr[x], indptr[x + 1]
        for a in range(lo, hi):
            for b in range(a, hi):
                first_of[out] = indices[a]
                second_of[out] = indices[b]
                out += 1
    by_second = _counting_order(second_of, np.arange(P), q)
    order = _counting_order(first_of, by_second, q)
    row_combos = np.empty(P, dtype=np.int32)
    first = np.empty(P, dtype=np.int64)
    second = np.empty(P, dtype=np.int64)
    n_ids = np.int64(0)
    for r in range(P):
        o = order[r]
        if r == 0 or first_of[o] != first[n_ids - 1] or second_of[o] != second[n_ids - 1]:
            first[n_ids] = first_of[o]
            second[n_ids] = second_of[o]
            n_ids += 1
        row_combos[o] = n_ids - 1
    first_seen = np.full(n_ids, -1, dtype=np.int64)
    rank = np.int64(0)
    for o in range(P):
        c = row_combos[o]
        if first_seen[c] < 0:
            first_seen[c] = rank
            rank += 1
    return row_combos, first[:n_ids].copy(), second[:n_ids].copy(), first_seen


@jit
def _counting_order(key, within, q):  # pragma: no cover - compiled
    """The positions ``within`` reordered by ``key`` (0 … q − 1), stably: one counting sort."""
    count = np.zeros(q + 1, dtype=np.int64)
    for o in within:
        count[key[o] + 1] += 1
    for v in range(q):
        count[v + 1] += count[v]
    out = np.empty(within.shape[0], dtype=np.int64)
    for o in within:
        out[count[key[o]]] = o
        count[key[o]] += 1
    return out


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
