"""Optisplit's loop (:mod:`stratbench.stratifiers.optisplit`)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel
from stratbench._kernels.common import stable_argsort


@jit
def _scores(counts, sizes, totals, n, labels, flipped, method, label_weights, out):  # pragma: no cover - compiled
    """Each label's score, times its weight, in ``out``; their sum."""
    k = sizes.shape[0]
    for t in range(labels.shape[0]):
        i = labels[t]
        total = n - totals[i] if flipped[i] else totals[i]
        d = total / n
        s = 0.0
        if method == 1:
            best = 0.0
            for j in range(k):
                c = sizes[j] - counts[j, i] if flipped[i] else counts[j, i]
                if c > best:
                    best = c
            s = best / total - 1.0 / k
        else:
            for j in range(k):
                c = sizes[j] - counts[j, i] if flipped[i] else counts[j, i]
                p = c / sizes[j] if sizes[j] > 0 else 0.0
                if method == 0:
                    s += abs(d - p) / d
                else:
                    dd = (n - 1.0) / n if d == 1.0 else d
                    pp = (sizes[j] - 1.0) / sizes[j] if (p == 1.0 and sizes[j] > 0) else p
                    s += abs(pp / (1.0 - pp) - dd / (1.0 - dd))
            s /= k
        out[t] = s * label_weights[i]
    return out.sum()


@jit
def _move(x, dest, fold, counts, sizes, indptr, indices):  # pragma: no cover - compiled
    src = fold[x]
    for p in range(indptr[x], indptr[x + 1]):
        counts[src, indices[p]] -= 1
        counts[dest, indices[p]] += 1
    sizes[src] -= 1
    sizes[dest] += 1
    fold[x] = dest


@jit
def _targets(total, ratios):  # pragma: no cover - compiled
    exact = total * ratios
    t = np.floor(exact + 1e-9).astype(np.int64)
    short = total - t.sum()
    frac = -(exact - t)
    order = stable_argsort(frac)
    for r in range(short):
        t[order[r]] += 1
    return t


@kernel("int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]", "int64[::1]!", "float64[::1]", "int64[::1]",
        "boolean[::1]", "int64[::1]", "int64", "int64", "float64[::1]")
def optisplit_kernel(indptr, indices, col_ptr, col_rows, fold, ratios, labels, flipped, rowsum, method,
                     max_epochs, label_weights):  # pragma: no cover - compiled
    """Folds ``fold`` rebalanced; the objective is Σ_i label_weights[i]·score_i (all 1: the paper's sum)."""
    n = indptr.shape[0] - 1
    q = col_ptr.shape[0] - 1
    k = ratios.shape[0]
    counts = np.zeros((k, q), dtype=np.int64)
    sizes = np.zeros(k, dtype=np.int64)
    totals = np.empty(q, dtype=np.int64)
    for i in range(q):
        totals[i] = col_ptr[i + 1] - col_ptr[i]
    for x in range(n):
        sizes[fold[x]] += 1
        for p in range(indptr[x], indptr[x + 1]):
            counts[fold[x], indices[p]] += 1
    res = np.empty(labels.shape[0])
    cand = np.empty(labels.shape[0])
    score0 = _scores(counts, sizes, totals, n, labels, flipped, method, label_weights, res)
    score = score0
    has = np.zeros(n, dtype=np.bool_)
    moved_rows = np.empty(n, dtype=np.int64)
    moved_from = np.empty(n, dtype=np.int64)
    for _epoch in range(max_epochs):
        offset = 0
        for _ in range(labels.shape[0]):
            if offset >= labels.shape[0]:
                break
            order = stable_argsort(-res)
            a = labels[order[offset]]
            # positives of label a (its negatives if flipped), grouped by fold, fewest labels first
            if flipped[a]:
                for p in range(col_ptr[a], col_ptr[a + 1]):
                    has[col_rows[p]] = True
                rows = np.empty(n - (col_ptr[a + 1] - col_ptr[a]), dtype=np.int64)
                r = 0
                for x in range(n):
                    if not has[x]:
                        rows[r] = x
                        r += 1
                for p in range(col_ptr[a], col_ptr[a + 1]):
                    has[col_rows[p]] = False
            else:
                rows = col_rows[col_ptr[a]:col_ptr[a + 1]].astype(np.int64)
            have = np.zeros(k, dtype=np.int64)
            for x in rows:
                have[fold[x]] += 1
            need = _targets(rows.shape[0], ratios) - have
            n_moved = 0
            if np.any(need != 0):
                by_labels = rows[stable_argsort(rowsum[rows])]  # stable: row order on ties
                pool = np.empty(rows.shape[0], dtype=np.int64)
                n_pool = 0
                for j in range(k):
                    if need[j] < 0:
                        take = -need[j]
                        for x in by_labels:
                            if take == 0:
                                break
                            if fold[x] == j:
                                pool[n_pool] = x
                                n_pool += 1
                                take -= 1
                start = 0
                first_fill = True
                for j in range(k):
                    if need[j] > 0:
                        for t in range(start, start + need[j]):
                            x = pool[t]
                            moved_rows[n_moved] = x
                            moved_from[n_moved] = fold[x]
                            n_moved += 1
                            _move(x, j, fold, counts, sizes, indptr, indices)
                        start += need[j]
                        if first_fill:  # np.setdiff1d: the rest of the pool in row order
                            rest = pool[start:n_pool].copy()  # distinct rows: any sort is this one
                            for u, r in enumerate(stable_argsort(rest)):
                                pool[start + u] = rest[r]
                            first_fill = False
            new_score = _scores(counts, sizes, totals, n, labels, flipped, method, label_weights, cand)
            if n_moved > 0 and new_score < score:
                score = new_score
                for t in range(cand.shape[0]):  # a loop, not a slice assignment (see _kernels)
                    res[t] = cand[t]
            else:
                for t in range(n_moved - 1, -1, -1):
                    _move(moved_rows[t], moved_from[t], fold, counts, sizes, indptr, indices)
                offset += 1
        if abs(score0 - score) <= 0.1 + 1e-5 * abs(score):
            break
    return fold
