"""The label combinations' build and fold counts (:mod:`stratbench.labels.combinations`)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel


@kernel("int64[::1]", "int64[::1]", "int64", "int64")
def ids_by_sort(indptr, indices, q, least):  # pragma: no cover - compiled
    """For a label space too large for :func:`ids_by_table`'s table: the combinations with at least ``least``
    examples, numbered in key order (first label, second label), and each row's count of the others (``least``
    1: every combination). A pair has no more examples than either of its labels, so only the pairs of labels
    with ``least`` or more examples are candidates: a counting sort by first label (each row's labels are sorted,
    so its i-th such label is first in m − i of its candidates), then each bucket sorted by second label (equal
    keys share one id, so no stability is needed); a candidate whose key turns out rarer is counted, not kept.
    Returns (row_ptr, row_combos: each row's kept combinations in its order, first, second, support, each row's
    labels and pairs left out)."""
    n = indptr.shape[0] - 1
    label_support = np.zeros(q, dtype=np.int64)
    for a in range(indptr[n]):
        label_support[indices[a]] += 1
    labels_alone = np.zeros(n, dtype=np.int64)
    pairs_alone = np.zeros(n, dtype=np.int64)
    cand_ptr = np.zeros(n + 1, dtype=np.int64)  # each row's candidates: its combinations of such labels
    start = np.zeros(q + 1, dtype=np.int64)
    for x in range(n):
        lo, hi = indptr[x], indptr[x + 1]
        m = np.int64(0)
        for a in range(hi - 1, lo - 1, -1):  # a label is first in 1 + (such labels after it) candidates
            if label_support[indices[a]] >= least:
                m += 1
                start[indices[a] + 1] += m
        labels_alone[x] = hi - lo - m
        pairs_alone[x] = (hi - lo) * (hi - lo - 1) // 2 - m * (m - 1) // 2
        cand_ptr[x + 1] = cand_ptr[x] + m * (m + 1) // 2
    for v in range(q):
        start[v + 1] += start[v]
    P = cand_ptr[n]
    fill = start[:-1].copy()
    second_of = np.empty(P, dtype=np.int32)
    origin = np.empty(P, dtype=np.int64)
    for x in range(n):
        out = cand_ptr[x]
        lo, hi = indptr[x], indptr[x + 1]
        for a in range(lo, hi):
            v = indices[a]
            if label_support[v] < least:
                continue
            at = fill[v]
            for b in range(a, hi):
                if label_support[indices[b]] >= least:
                    second_of[at] = indices[b]
                    origin[at] = out
                    at += 1
                    out += 1
            fill[v] = at
    for v in range(q):
        _sort_bucket(second_of, origin, start[v], start[v + 1])
    cand_id = np.empty(P, dtype=np.int32)
    first = np.empty(P, dtype=np.int64)
    second = np.empty(P, dtype=np.int64)
    support = np.empty(P, dtype=np.int64)
    n_ids = np.int64(0)
    for v in range(q):
        r = start[v]
        while r < start[v + 1]:
            e = r + 1
            while e < start[v + 1] and second_of[e] == second_of[r]:
                e += 1
            if e - r >= least:
                first[n_ids], second[n_ids], support[n_ids] = v, second_of[r], e - r
                for s in range(r, e):
                    cand_id[origin[s]] = n_ids
                n_ids += 1
            else:
                for s in range(r, e):
                    cand_id[origin[s]] = -1
            r = e
    row_ptr = np.zeros(n + 1, dtype=np.int64)
    row_combos = np.empty(P, dtype=np.int32)
    m = np.int64(0)
    for x in range(n):
        for p in range(cand_ptr[x], cand_ptr[x + 1]):
            if cand_id[p] >= 0:
                row_combos[m] = cand_id[p]
                m += 1
            else:
                pairs_alone[x] += 1
        row_ptr[x + 1] = m
    return (row_ptr, row_combos[:m].copy(), first[:n_ids].copy(), second[:n_ids].copy(), support[:n_ids].copy(),
            labels_alone, pairs_alone)


@kernel("int32[::1]", "int64")
def first_appearance(row_combos, n_ids):  # pragma: no cover - compiled
    """Each combination's rank in order of first appearance in the rows' lists."""
    first_seen = np.full(n_ids, -1, dtype=np.int64)
    rank = np.int64(0)
    for o in range(row_combos.shape[0]):
        c = row_combos[o]
        if first_seen[c] < 0:
            first_seen[c] = rank
            rank += 1
    return first_seen


@jit
def _sort_bucket(key, payload, lo, hi):  # pragma: no cover - compiled
    """Sort ``key[lo:hi]`` (≥ 0) ascending, ``payload`` along (equal keys in any order): insertion sort for a short
    run, a radix sort for a long one, else by argsort."""
    if hi - lo >= 4096:
        _radix_sort(key, payload, lo, hi)
        return
    if hi - lo <= 32:
        for i in range(lo + 1, hi):
            k, p = key[i], payload[i]
            j = i - 1
            while j >= lo and key[j] > k:
                key[j + 1], payload[j + 1] = key[j], payload[j]
                j -= 1
            key[j + 1], payload[j + 1] = k, p
        return
    keys, payloads = key[lo:hi].copy(), payload[lo:hi].copy()
    order = np.argsort(keys)
    for i in range(hi - lo):  # a loop, not a slice assignment (see _kernels)
        key[lo + i] = keys[order[i]]
        payload[lo + i] = payloads[order[i]]


@jit
def _radix_sort(key, payload, lo, hi):  # pragma: no cover - compiled
    """Sort ``key[lo:hi]`` (≥ 0) ascending, ``payload`` along: least significant digit first, 11 bits a pass."""
    m = hi - lo
    keys, payloads = key[lo:hi].copy(), payload[lo:hi].copy()
    into_keys, into_payloads = np.empty_like(keys), np.empty_like(payloads)
    top = np.int64(0)
    for i in range(m):
        top = max(top, np.int64(keys[i]))
    shift = np.int64(0)
    count = np.zeros(2049, dtype=np.int64)
    while shift == 0 or (top >> shift) > 0:
        count[:] = 0
        for i in range(m):
            count[((np.int64(keys[i]) >> shift) & 2047) + 1] += 1
        for d in range(2048):
            count[d + 1] += count[d]
        for i in range(m):
            d = (np.int64(keys[i]) >> shift) & 2047
            into_keys[count[d]] = keys[i]
            into_payloads[count[d]] = payloads[i]
            count[d] += 1
        keys, into_keys = into_keys, keys
        payloads, into_payloads = into_payloads, payloads
        shift += 11
    for i in range(m):  # a loop, not a slice assignment (see _kernels)
        key[lo + i] = keys[i]
        payload[lo + i] = payloads[i]


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
