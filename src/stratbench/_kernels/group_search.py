"""The hybrid's search over whole groups (:mod:`stratbench.stratifiers.hybrid.group_search`)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel
from stratbench._kernels.common import ceil, randbelow


@jit
def dcp_cap(support, ideal_share):  # pragma: no cover - compiled
    """The fewest positives the fullest fold can hold, ⌈|D_λ|·r_j⌉: DCP's ideal, whatever T_j's rounding
    (the hybrid's DCP hinge, grouped or not)."""
    return ceil(support * ideal_share - 1e-6)


@jit
def _hinge(count, cap):  # pragma: no cover - compiled
    return count - cap if count > cap else 0.0


@jit
def _move_delta(g, a, b, ptr, combos, amounts, R, sizes, n, m, A, W2, ideal, fill):  # pragma: no cover - compiled
    """(ΔF, Δ empty label cells) of moving group g (``m`` examples) from subset a to b. F's balance
    term is Σ_c w_c Σ_j e_jc² with e_jc = c_jc − d_c·s_j (module doc): every combination's error moves
    when the sizes do, δ_c = a_c − d_c·m; the ones the group lacks (a_c = 0) are summed through
    A_j = Σ_c w_c d_c c_jc and W2 = Σ_c w_c d_c², the ones it holds corrected one by one."""
    k = ideal.shape[0]
    s1a, s1b = A[a] - sizes[a] * W2, A[b] - sizes[b] * W2  # Σ_c w_c d_c e_jc
    d = 2.0 * m * m * W2 - 2.0 * m * (s1b - s1a)  # as if the group held no combination
    zero_labels = 0
    for p in range(ptr[g], ptr[g + 1]):
        c, amount = combos[p], amounts[p]
        support, weight, hinge = R[c, k], R[c, k + 1], R[c, k + 2]
        share = support / n
        ca, cb = R[c, a], R[c, b]
        gap = (cb - share * sizes[b]) - (ca - share * sizes[a])
        delta, lacking = amount - share * m, -share * m
        d += weight * (2.0 * delta * delta + 2.0 * delta * gap - 2.0 * lacking * lacking - 2.0 * lacking * gap)
        if hinge > 0.0:
            capa, capb = dcp_cap(support, ideal[a]), dcp_cap(support, ideal[b])
            d += hinge * (_hinge(ca - amount, capa) - _hinge(ca, capa) + _hinge(cb + amount, capb) - _hinge(cb, capb))
        z = (1 if ca == amount else 0) - (1 if cb == 0.0 else 0)
        if R[c, k + 3] > 0.0:
            d += fill[1] * z
        else:
            d += fill[0] * z
            zero_labels += z
    return d, zero_labels


@jit
def _apply(g, a, b, ptr, combos, amounts, R, fold, gsize, sizes, A, n):  # pragma: no cover - compiled
    k = A.shape[0]
    for p in range(ptr[g], ptr[g + 1]):
        c = combos[p]
        R[c, a] -= amounts[p]
        R[c, b] += amounts[p]
        moved = R[c, k + 1] * (R[c, k] / n) * amounts[p]
        A[a] -= moved
        A[b] += moved
    fold[g] = b
    sizes[a] -= gsize[g]
    sizes[b] += gsize[g]


@jit
def _within(sizes, targets, a, b, band):  # pragma: no cover - compiled
    """Whether subsets a and b are within ``band`` examples of their targets."""
    return abs(sizes[a] - targets[a]) <= band and abs(sizes[b] - targets[b]) <= band


@kernel("int64[::1]", "int64[::1]", "float64[::1]", "float64[::1, :]!", "int64[::1]!", "float64[::1]", "float64[::1]",
        "float64[::1]", "int64", "int64", "uint64", "float64[::1]")
def group_search(ptr, combos, amounts, R, fold, gsize, targets, ideal, passes, samples, seed, fill):  # pragma: no cover
    """Local search over whole groups (module doc); ``fold`` (one subset per group) is changed in place
    and returned. ``R``: the hybrid's combination records (counts per subset, support, weight, hinge,
    pair flag), counts in examples."""
    k = targets.shape[0]
    G = fold.shape[0]
    n = targets.sum()
    sizes = np.zeros(k)
    A = np.zeros(k)  # Σ_c w_c d_c c_jc per subset
    W2 = 0.0  # Σ_c w_c d_c²
    for c in range(R.shape[0]):
        share = R[c, k] / n
        W2 += R[c, k + 1] * share * share
        for j in range(k):
            A[j] += R[c, k + 1] * share * R[c, j]
    for g in range(G):
        sizes[fold[g]] += gsize[g]
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    band = 0.0  # the start's largest size error: no subset leaves it
    for j in range(k):
        band = max(band, abs(sizes[j] - targets[j]))
    band = max(band, 1.0)
    order = np.arange(G)
    for _ in range(passes):
        for i in range(G - 1, 0, -1):  # Fisher–Yates
            j = randbelow(state, i + 1)
            order[i], order[j] = order[j], order[i]
        improved = 0
        for g in order:
            a = fold[g]
            best, best_b = -1e-12, -1
            for b in range(k):
                if b == a:
                    continue
                sizes[a] -= gsize[g]
                sizes[b] += gsize[g]
                fits = _within(sizes, targets, a, b, band)
                sizes[a] += gsize[g]
                sizes[b] -= gsize[g]
                if not fits:
                    continue
                d, zl = _move_delta(g, a, b, ptr, combos, amounts, R, sizes, n, gsize[g], A, W2, ideal, fill)
                if zl <= 0 and d < best:
                    best, best_b = d, b
            if best_b >= 0:
                _apply(g, a, best_b, ptr, combos, amounts, R, fold, gsize, sizes, A, n)
                improved += 1
                continue
            best, best_h = -1e-12, -1  # no move: the best swap with a sampled group of another subset
            for _s in range(samples * (k - 1)):
                h = randbelow(state, G)
                b = fold[h]
                if b == a:
                    continue
                sizes[a] += gsize[h] - gsize[g]
                sizes[b] += gsize[g] - gsize[h]
                fits = _within(sizes, targets, a, b, band)
                sizes[a] -= gsize[h] - gsize[g]
                sizes[b] -= gsize[g] - gsize[h]
                if not fits:
                    continue
                d1, z1 = _move_delta(g, a, b, ptr, combos, amounts, R, sizes, n, gsize[g], A, W2, ideal, fill)
                _apply(g, a, b, ptr, combos, amounts, R, fold, gsize, sizes, A, n)
                d2, z2 = _move_delta(h, b, a, ptr, combos, amounts, R, sizes, n, gsize[h], A, W2, ideal, fill)
                _apply(g, b, a, ptr, combos, amounts, R, fold, gsize, sizes, A, n)
                if z1 + z2 <= 0 and d1 + d2 < best:
                    best, best_h = d1 + d2, h
            if best_h >= 0:
                b = fold[best_h]
                _apply(g, a, b, ptr, combos, amounts, R, fold, gsize, sizes, A, n)
                _apply(best_h, b, a, ptr, combos, amounts, R, fold, gsize, sizes, A, n)
                improved += 1
        if improved == 0:
            break
    return fold
