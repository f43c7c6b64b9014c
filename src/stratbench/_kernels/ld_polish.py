"""The hybrid's LD polish (:mod:`stratbench.stratifiers.hybrid.ld_polish`)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel
from stratbench._kernels.common import ceil, randbelow
from stratbench._kernels.prefetch import prefetch, prefetch_at


@jit
def _cell(c, size, odds):  # pragma: no cover - compiled
    """|p/(1 − p) − d/(1 − d)| of a cell with count c in a fold of ``size`` rows (p = 1 guarded; 0 for an
    empty fold: a subset whose share rounds to no rows, which the split's repair fills later)."""
    if size <= 0.0:
        return 0.0
    p = (size - 1.0) / size if c >= size else c / size
    return abs(p / (1.0 - p) - odds)


@jit
def _two_cells(ca, cb, to_a, to_b, size_a, size_b, new_a, new_b, odds):  # pragma: no cover - compiled
    """(Δ cost, Δ empty cells) of one combination's cells in folds a and b when its counts change by
    ``to_a``, ``to_b`` and the folds' sizes from ``size_a``, ``size_b`` to ``new_a``, ``new_b``."""
    d = (_cell(ca + to_a, new_a, odds) - _cell(ca, size_a, odds)
         + _cell(cb + to_b, new_b, odds) - _cell(cb, size_b, odds))
    z = (1 if ca + to_a == 0 else 0) + (1 if cb + to_b == 0 else 0) - (1 if ca == 0 else 0) - (1 if cb == 0 else 0)
    return d, z


@jit
def _gain(d_label, d_pair, z_label, z_pair, over, w_label, w_pair, keep_pairs):  # pragma: no cover - compiled
    """G's change for a step with these deltas, or +inf where the step is not allowed (LD does not drop,
    an empty (fold, label) cell is added, a positive goes above its cap, or with ``keep_pairs`` an empty
    (fold, pair) cell is added)."""
    if d_label >= -1e-15 or z_label > 0 or over > 0 or (keep_pairs and z_pair > 0):
        return np.inf
    return w_label * d_label + w_pair * d_pair


@jit
def _tally(pair, d, z, d_label, d_pair, z_label, z_pair):  # pragma: no cover - compiled
    """The running (ΔLD, ΔLPD, empty label cells, empty pair cells) with one combination's change (d, z)
    added to its kind's sums."""
    if pair:
        return d_label, d_pair + d, z_label, z_pair + z
    return d_label + d, d_pair, z_label + z, z_pair


@jit
def _cap(caps, c, j):  # pragma: no cover - compiled
    """⌈|D^c|·r_j⌉ of ``caps`` = (supports, shares, weights): the most positives fold j takes (DCP's floor)."""
    return ceil(caps[0][c] * caps[1][j] - 1e-6)


@jit
def _swap_delta(s, t, a, b, ptr, combos, C, sizes, odds, is_pair, caps):  # pragma: no cover - compiled
    """(ΔLD sum, ΔLPD sum, Δ empty label cells, Δ empty pair cells, positives added above a label's
    cap) of swapping a row of labelset s in fold a with a row of labelset t in fold b."""
    d_label, d_pair, z_label, z_pair, over = 0.0, 0.0, np.int64(0), np.int64(0), 0
    i, j, i_end, j_end = ptr[s], ptr[t], ptr[s + 1], ptr[t + 1]
    while i < i_end or j < j_end:
        if j >= j_end or (i < i_end and combos[i] < combos[j]):
            c, to_a, to_b = combos[i], -1, 1
            i += 1
        elif i >= i_end or combos[j] < combos[i]:
            c, to_a, to_b = combos[j], 1, -1
            j += 1
        else:  # in both labelsets: the swap leaves it
            i += 1
            j += 1
            continue
        ca, cb = C[c, a], C[c, b]
        d, z = _two_cells(ca, cb, to_a, to_b, sizes[a], sizes[b], sizes[a], sizes[b], odds[c])
        d *= caps[2][c]
        d_label, d_pair, z_label, z_pair = _tally(is_pair[c], d, z, d_label, d_pair, z_label, z_pair)
        if not is_pair[c]:
            over += (1 if to_a > 0 and ca + 1 > _cap(caps, c, a) else 0) + (1 if to_b > 0 and cb + 1 > _cap(caps, c, b) else 0)
    return d_label, d_pair, z_label, z_pair, over


@jit
def _hint_combinations(t, ptr, combos, C, odds, support, is_pair):  # pragma: no cover - compiled
    """Cache hints for labelset t's combinations' counts (first and last fold: a row may span two cache lines),
    odds, supports and kinds (:mod:`~stratbench._kernels.prefetch`)."""
    for i in range(ptr[t], ptr[t + 1]):
        c = combos[i]
        prefetch_at(C, c, 0)
        prefetch_at(C, c, C.shape[1] - 1)
        prefetch(odds, c)
        prefetch(support, c)
        prefetch(is_pair, c)


@jit
def _partners(state, row_sets, M, s, a, samples, ptr, combos, C, odds, support, is_pair, sets, folds):  # pragma: no cover
    """The swap partners of a row of labelset s in fold a, into ``sets`` and ``folds``; returns how many: for each
    of ``samples``, a labelset t drawn by its rows, then one of its other folds b (none, or t = s: that sample is
    skipped). All are drawn before any is scored (scoring draws nothing and changes no count, so the draws are
    those of drawing each before scoring it), with cache hints for what their scores read."""
    n, k = row_sets.shape[0], M.shape[1]
    m = np.int64(0)
    for _trial in range(samples):
        t, b, seen = row_sets[randbelow(state, n)], np.int64(-1), 0
        for j in range(k):
            if j != a and M[t, j] > 0:
                seen += 1
                if randbelow(state, seen) == 0:
                    b = j
        if b < 0 or t == s:
            continue
        sets[m], folds[m] = t, b
        m += 1
        prefetch(ptr, t)
    for i in range(m):
        if ptr[sets[i] + 1] > ptr[sets[i]]:
            prefetch(combos, ptr[sets[i]])
    for i in range(m):
        _hint_combinations(sets[i], ptr, combos, C, odds, support, is_pair)
    return m


@jit
def _swap(s, t, a, b, ptr, combos, M, C):  # pragma: no cover - compiled
    """A row of labelset s from fold a to b, one of t from b to a."""
    M[s, a] -= 1
    M[s, b] += 1
    M[t, b] -= 1
    M[t, a] += 1
    for i in range(ptr[s], ptr[s + 1]):
        C[combos[i], a] -= 1
        C[combos[i], b] += 1
    for i in range(ptr[t], ptr[t + 1]):
        C[combos[i], b] -= 1
        C[combos[i], a] += 1


@jit
def _best_cycle(s, a, ptr, combos, is_pair, odds, caps, M, C, sizes, w_label, w_pair, keep_pairs):  # pragma: no cover
    """The best improving 3-cycle from (s, a) — s from a to b, t from b to a, then s from b to c and u
    from c to b, so s ends in c, t in a and u in b — taken if any; returns (1 if one was, the combinations
    it read)."""
    S, k = M.shape
    best, best_t, best_b, best_u, best_c = -1e-12, np.int64(-1), np.int64(-1), np.int64(-1), np.int64(-1)
    length = ptr[s + 1] - ptr[s]
    reads = np.int64(0)
    for b in range(k):
        for t in range(S):
            if b == a or t == s or M[t, b] == 0:
                continue
            dl1, dp1, zl1, zp1, over1 = _swap_delta(s, t, a, b, ptr, combos, C, sizes, odds, is_pair, caps)
            _swap(s, t, a, b, ptr, combos, M, C)
            reads += 3 * (length + ptr[t + 1] - ptr[t])
            for c in range(k):
                for u in range(S):
                    if c == a or c == b or u == s or M[u, c] == 0:
                        continue
                    reads += length + ptr[u + 1] - ptr[u]
                    dl2, dp2, zl2, zp2, over2 = _swap_delta(s, u, b, c, ptr, combos, C, sizes, odds, is_pair, caps)
                    g = _gain(dl1 + dl2, dp1 + dp2, zl1 + zl2, zp1 + zp2, over1 + over2, w_label, w_pair, keep_pairs)
                    if g < best:
                        best, best_t, best_b, best_u, best_c = g, t, b, u, c
            _swap(s, t, b, a, ptr, combos, M, C)  # undone (s back to a, t back to b)
    if best_t < 0:
        return 0, reads
    _swap(s, best_t, a, best_b, ptr, combos, M, C)
    _swap(s, best_u, best_b, best_c, ptr, combos, M, C)
    return 1, reads


@jit
def _move_delta(s, a, b, ptr, combos, C, sizes, odds, is_pair, caps, mark):  # pragma: no cover - compiled
    """As :func:`_swap_delta` for moving one row of labelset s from fold a to fold b alone: the two folds
    change size, so every combination's cells in a and b are scored (``mark``: scratch, all False)."""
    for i in range(ptr[s], ptr[s + 1]):
        mark[combos[i]] = True
    d_label, d_pair, z_label, z_pair, over = 0.0, 0.0, np.int64(0), np.int64(0), 0
    size_a, size_b = sizes[a], sizes[b]
    for c in range(C.shape[0]):
        ca, cb = C[c, a], C[c, b]
        moved = 1 if mark[c] else 0
        d, z = _two_cells(ca, cb, -moved, moved, size_a, size_b, size_a - 1.0, size_b + 1.0, odds[c])
        d *= caps[2][c]
        d_label, d_pair, z_label, z_pair = _tally(is_pair[c], d, z, d_label, d_pair, z_label, z_pair)
        if not is_pair[c]:
            over += 1 if moved and cb + 1 > _cap(caps, c, b) else 0
    for i in range(ptr[s], ptr[s + 1]):
        mark[combos[i]] = False
    return d_label, d_pair, z_label, z_pair, over


@jit
def _best_size_move(s, a, ptr, combos, is_pair, odds, caps, M, C, sizes, w_label, w_pair, keep_pairs, small,
                    mark):  # pragma: no cover - compiled
    """Where fold a holds one row more than ``small``: the best improving move of a row of labelset s to
    a fold of ``small`` rows (the two folds trade sizes; every fold keeps ⌊n/k⌋ or ⌈n/k⌉), taken if
    any; returns 1 if one was."""
    k = sizes.shape[0]
    best, best_b = -1e-12, -1
    for b in range(k):
        if sizes[b] != small:
            continue
        dl, dp, zl, zp, over = _move_delta(s, a, b, ptr, combos, C, sizes, odds, is_pair, caps, mark)
        g = _gain(dl, dp, zl, zp, over, w_label, w_pair, keep_pairs)
        if g < best:
            best, best_b = g, b
    if best_b < 0:
        return 0
    M[s, a] -= 1
    M[s, best_b] += 1
    for i in range(ptr[s], ptr[s + 1]):
        C[combos[i], a] -= 1
        C[combos[i], best_b] += 1
    sizes[a] -= 1.0
    sizes[best_b] += 1.0
    return 1


@kernel("int64[::1]", "int64[::1]", "boolean[::1]", "float64[::1]", "float64[::1]", "float64[::1]", "int32[:, ::1]!",
        "int32[:, ::1]!", "float64[::1]", "int64[::1]", "float64", "boolean", "boolean", "boolean", "boolean", "int64",
        "int64", "uint64", "int64", "float64[::1]")
def polish_kernel(ptr, combos, is_pair, odds, support, ratios, M, C, sizes, row_sets, pair_weight, keep_pairs, exhaustive,
                  cycles, size_moves, samples, passes, seed, budget, combo_weights):  # pragma: no cover - compiled
    """Swaps on the labelset × fold counts ``M`` and combination × fold counts ``C`` (both updated in
    place; module doc), until a pass takes none, ``passes`` passes, or the combinations read exceed
    ``budget`` (≤ 0: no bound); a label's positives in fold j are capped at ⌈|D_λ|·r_j⌉ (``support``,
    ``ratios``). Each combination's LD (or LPD) cells count times ``combo_weights`` (all 1: LD and LPD as
    published). Returns (swaps taken, combinations read)."""
    caps = (support, ratios, combo_weights)
    S, k = M.shape
    ld0, lpd0 = 0.0, 0.0
    for c in range(C.shape[0]):
        for j in range(k):
            if is_pair[c]:
                lpd0 += combo_weights[c] * _cell(C[c, j], sizes[j], odds[c])
            else:
                ld0 += combo_weights[c] * _cell(C[c, j], sizes[j], odds[c])
    if ld0 <= 0.0:
        return 0, np.int64(0)
    w_label, w_pair = 1.0 / ld0, (pair_weight / lpd0 if lpd0 > 0.0 else 0.0)
    state = np.array([np.uint64(seed)], dtype=np.uint64)
    n = row_sets.shape[0]
    small = float(n // k)
    mark = np.zeros(C.shape[0], dtype=np.bool_)
    sets, folds = np.empty(max(samples, 0), dtype=np.int64), np.empty(max(samples, 0), dtype=np.int64)
    swaps = 0
    reads = np.int64(0)
    for phase in range(2 if budget > 0 and cycles else 1):  # bounded: swaps to a standstill, then cycles
        use_cycles = cycles and (budget <= 0 or phase == 1)
        for _ in range(passes):
            taken = 0
            for s in range(S):
                if s + 2 < S:
                    _hint_combinations(s + 2, ptr, combos, C, odds, support, is_pair)
                for a in range(k):
                    if M[s, a] == 0:
                        continue
                    if 0 < budget < reads:
                            return swaps + taken, reads
                    length = ptr[s + 1] - ptr[s]
                    best, best_t, best_b = -1e-12, np.int64(-1), np.int64(-1)
                    if exhaustive:
                        tries = (k - 1) * S
                    else:  # labelsets drawn by their rows, each with one of its other folds
                        tries = _partners(state, row_sets, M, s, a, samples, ptr, combos, C, odds, support, is_pair,
                                          sets, folds)
                    for trial in range(tries):
                        if exhaustive:
                            b, t = trial // S, trial % S
                            b += 1 if b >= a else 0
                        else:
                            t, b = sets[trial], folds[trial]
                        if b == a or t == s or M[t, b] == 0:
                            continue
                        reads += length + ptr[t + 1] - ptr[t]
                        dl, dp, zl, zp, over = _swap_delta(s, t, a, b, ptr, combos, C, sizes, odds, is_pair, caps)
                        g = _gain(dl, dp, zl, zp, over, w_label, w_pair, keep_pairs)
                        if g < best:
                            best, best_t, best_b = g, t, b
                    if best_t >= 0:
                        _swap(s, best_t, a, best_b, ptr, combos, M, C)
                        taken += 1
                        continue
                    cycled = 0
                    if use_cycles:
                        cycled, cycle_reads = _best_cycle(s, a, ptr, combos, is_pair, odds, caps, M, C, sizes, w_label,
                                                          w_pair, keep_pairs)
                        reads += cycle_reads
                    if cycled:
                        taken += 1
                    elif size_moves and sizes[a] == small + 1.0:
                        reads += C.shape[0] * (k - 1)
                        taken += _best_size_move(s, a, ptr, combos, is_pair, odds, caps, M, C, sizes, w_label, w_pair,
                                                 keep_pairs, small, mark)
            swaps += taken
            if taken == 0:
                break
    return swaps, reads


@kernel("int64[::1]", "int64[::1]!")
def sort_segments(ptr, values):  # pragma: no cover - compiled
    """Sort ``values[ptr[i]:ptr[i + 1]]`` in place for every i (insertion sort: a labelset's few combinations)."""
    for i in range(ptr.shape[0] - 1):
        for j in range(ptr[i] + 1, ptr[i + 1]):
            v = values[j]
            m = j - 1
            while m >= ptr[i] and values[m] > v:
                values[m + 1] = values[m]
                m -= 1
            values[m + 1] = v


@kernel("int64[::1]", "int64[::1]", "int32[:, ::1]")
def reassign(row_sets, fold, M):  # pragma: no cover - compiled
    """Fold ids with labelset × fold counts ``M``: each labelset's rows stay where its count allows
    (first rows first), the rest go, in row order, to its lowest folds still short."""
    S, k = M.shape
    used = np.zeros((S, k), dtype=np.int32)
    out = fold.copy()
    moving = np.zeros(fold.shape[0], dtype=np.bool_)
    for x in range(fold.shape[0]):
        s, a = row_sets[x], fold[x]
        if used[s, a] < M[s, a]:
            used[s, a] += 1
        else:
            moving[x] = True
    for x in range(fold.shape[0]):
        if moving[x]:
            s = row_sets[x]
            for j in range(k):
                if used[s, j] < M[s, j]:
                    used[s, j] += 1
                    out[x] = j
                    break
    return out
