"""SOIS's loop (:mod:`stratbench.stratifiers.sois`): bucket queues of the combinations by remaining count, or,
with combination weights, a scan for the least remaining count / weight (O(C) per choice)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel
from stratbench._kernels.common import choose_fold, place_unlabelled, randbelow


@jit
def _bucket_init(group, remaining, n_groups, max_count):  # pragma: no cover - compiled
    """Per group, combinations sorted by remaining count: vert, pos and bin starts (absolute)."""
    C = remaining.shape[0]
    bin_start = np.zeros((n_groups, max_count + 2), dtype=np.int64)
    sizes = np.zeros(n_groups, dtype=np.int64)
    for c in range(C):
        sizes[group[c]] += 1
        bin_start[group[c], remaining[c] + 1] += 1
    offset = 0
    for g in range(n_groups):
        bin_start[g, 0] = offset
        for d in range(1, max_count + 2):
            bin_start[g, d] += bin_start[g, d - 1]
        offset += sizes[g]
    fill = bin_start.copy()
    vert = np.empty(C, dtype=np.int64)
    pos = np.empty(C, dtype=np.int64)
    for c in range(C):
        p = fill[group[c], remaining[c]]
        vert[p] = c
        pos[c] = p
        fill[group[c], remaining[c]] += 1
    return vert, pos, bin_start


@jit
def _bucket_decrement(c, g, remaining, vert, pos, bin_start):  # pragma: no cover - compiled
    d = remaining[c]
    first = bin_start[g, d]
    w = vert[first]
    pc = pos[c]
    vert[first] = c
    pos[c] = first
    vert[pc] = w
    pos[w] = pc
    bin_start[g, d] += 1
    remaining[c] = d - 1


@jit
def _bucket_min(g, start, bin_start, max_count):  # pragma: no cover - compiled
    """Smallest count ≥ ``start`` (≥ 1) with a non-empty bin in group g, or −1."""
    d = start
    while d <= max_count:
        if bin_start[g, d] < bin_start[g, d + 1]:
            return d
        d += 1
    return -1


@jit
def _least_key(remaining, combo_weights, group, g):  # pragma: no cover - compiled
    """(the least remaining / weight among group g's combinations with examples left, how many have it)."""
    best = np.inf
    ties = np.int64(0)
    for c in range(remaining.shape[0]):
        if group[c] == g and remaining[c] > 0:
            key = remaining[c] / combo_weights[c]
            if key < best:
                best = key
                ties = 1
            elif key == best:
                ties += 1
    return best, ties


@jit
def _with_key(remaining, combo_weights, group, g, key, rank):  # pragma: no cover - compiled
    """The combination of rank ``rank`` (lowest index first) among group g's with examples left and that key."""
    for c in range(remaining.shape[0]):
        if group[c] == g and remaining[c] > 0 and remaining[c] / combo_weights[c] == key:
            if rank == 0:
                return c
            rank -= 1
    return -1


@kernel("int64[::1]", "int32[::1]", "int64[::1]", "int32[::1]", "boolean[::1]", "int64[::1]", "float64[::1]", "uint64",
        "int64", "boolean", "float64[::1]", "boolean")
def sois_kernel(row_ptr, row_combos, combo_ptr, combo_rows, is_pair, insertion, ratios, seed, mode,
                skmultilearn, combo_weights, weighted):  # pragma: no cover
    """Fold id per row. ``weighted``: the combination taken is the one of least remaining examples /
    ``combo_weights`` (a scan), with the tie rules of ``mode``; otherwise the bucket queues (weights unread)."""
    n = row_ptr.shape[0] - 1
    C = combo_ptr.shape[0] - 1
    k = ratios.shape[0]
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    remaining = np.empty(C, dtype=np.int64)
    group = np.empty(C, dtype=np.int64)
    max_count = np.int64(1)  # not the literal 1 (see _kernels)
    for c in range(C):
        remaining[c] = combo_ptr[c + 1] - combo_ptr[c]
        group[c] = 1 if is_pair[c] else 0
        if remaining[c] > max_count:
            max_count = remaining[c]
    desired = np.empty((C, k))
    for c in range(C):
        for j in range(k):
            desired[c, j] = remaining[c] * ratios[j]
    desired_fold = n * ratios
    vert, pos, bin_start = _bucket_init(group, remaining, 2, max_count)
    low = np.ones(2, dtype=np.int64)  # lower bound of each group's smallest positive count
    scan_from = 0  # skmultilearn mode: combinations before this insertion rank are empty
    fold = np.full(n, -1, dtype=np.int64)
    while True:
        e = -1
        if mode == 3:
            while scan_from < C and remaining[insertion[scan_from]] == 0:
                scan_from += 1
            if scan_from == C:
                break
            e = insertion[scan_from]
            if not is_pair[e]:
                s0 = remaining[e]
                for t in range(scan_from + 1, C):
                    c = insertion[t]
                    if is_pair[c] and 0 < remaining[c] < s0:
                        e = c
                        break
        elif weighted:
            k0, t0 = _least_key(remaining, combo_weights, group, 0)
            k1, t1 = _least_key(remaining, combo_weights, group, 1)
            if t0 == 0 and t1 == 0:
                break
            g = -1
            if mode == 0:
                if t1 == 0 or (t0 > 0 and k0 < k1):
                    g = 0
                elif t0 == 0 or k1 < k0:
                    g = 1
                else:  # a tie between labels and pairs: uniform over both
                    r = randbelow(state, t0 + t1)
                    e = _with_key(remaining, combo_weights, group, 0, k0, r) if r < t0 else \
                        _with_key(remaining, combo_weights, group, 1, k1, r - t0)
            elif mode == 1:
                g = 1 if (t1 > 0 and (t0 == 0 or k1 <= k0)) else 0
            else:
                g = 1 if t1 > 0 else 0
            if e < 0:
                key, tied = (k0, t0) if g == 0 else (k1, t1)
                e = _with_key(remaining, combo_weights, group, g, key, randbelow(state, tied))
        else:
            m0 = _bucket_min(np.int64(0), low[0], bin_start, max_count)
            m1 = _bucket_min(np.int64(1), low[1], bin_start, max_count)
            if m0 > 0:
                low[0] = m0
            if m1 > 0:
                low[1] = m1
            if m0 < 0 and m1 < 0:
                break
            g = -1
            if mode == 0:
                if m1 < 0 or (m0 > 0 and m0 < m1):
                    g = 0
                elif m0 < 0 or m1 < m0:
                    g = 1
                else:  # a tie between labels and pairs: uniform over both bins
                    size0 = bin_start[0, m0 + 1] - bin_start[0, m0]
                    size1 = bin_start[1, m1 + 1] - bin_start[1, m1]
                    r = randbelow(state, size0 + size1)
                    if r < size0:
                        e = vert[bin_start[0, m0] + r]
                    else:
                        e = vert[bin_start[1, m1] + r - size0]
            elif mode == 1:
                g = 1 if (m1 > 0 and (m0 < 0 or m1 <= m0)) else 0
            else:
                g = 1 if m1 > 0 else 0
            if e < 0:
                m = m0 if g == 0 else m1
                size = bin_start[g, m + 1] - bin_start[g, m]
                e = vert[bin_start[g, m] + randbelow(state, size)]
        start, stop = combo_ptr[e], combo_ptr[e + 1]
        for t in range(stop - start):
            x = combo_rows[stop - 1 - t] if skmultilearn else combo_rows[start + t]
            if fold[x] >= 0:
                continue
            f = choose_fold(desired[e], desired_fold, state, not skmultilearn)
            fold[x] = f
            desired_fold[f] -= 1.0
            for pp in range(row_ptr[x], row_ptr[x + 1]):
                c = row_combos[pp]
                desired[c, f] -= 1.0
                g = group[c]
                _bucket_decrement(c, g, remaining, vert, pos, bin_start)
                if 0 < remaining[c] < low[g]:
                    low[g] = remaining[c]
    place_unlabelled(fold, desired_fold, state, skmultilearn, np.ones(n))
    return fold
