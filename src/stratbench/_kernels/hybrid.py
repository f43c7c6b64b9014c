"""The hybrid's local search (:mod:`stratbench.stratifiers.hybrid.stratifier`)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel
from stratbench._kernels.combinations import fold_counts
from stratbench._kernels.common import randbelow, stable_argsort
from stratbench._kernels.group_search import dcp_cap
from stratbench._kernels.prefetch import prefetch, prefetch_at


@jit
def _adds_empty(zero_labels, zero_pairs, keep_pairs):  # pragma: no cover - compiled
    """Whether a step that changes the empty (fold, label) and (fold, pair) cells by these counts
    loses positive evidence: more empty label cells, or with ``keep_pairs`` more empty pair cells."""
    return zero_labels > 0 or (keep_pairs and zero_pairs > 0)


@jit
def _single_delta(weight, share, a, b):  # pragma: no cover - compiled
    """ΔF of moving one-example combinations of summed weight ``weight`` from fold a to fold b: each one's
    squared errors go from (1 − s_a)² + Σ_{j≠a} s_j² to (1 − s_b)² + Σ_{j≠b} s_j², a change of 2(s_a − s_b); no
    cell's emptiness and no hinge changes (its one positive stays at or below ⌈r_j⌉ = 1)."""
    return 2.0 * weight * (share[a] - share[b])


@jit
def _deltas(x, a, row_ptr, row_combos, R, share, ideal, fill, single, out, zero_labels, zero_pairs):  # pragma: no cover
    """For moving example x from fold a to each fold b: ΔF (``out[b]``; a (fold, label) or (fold,
    pair) cell filled or emptied counts ∓``fill[0]`` or ∓``fill[1]``) and the change in zero (fold,
    label) and (fold, pair) cells; 0 for b = a. ``single[x]``: the summed weight of x's one-example
    combinations, left out of ``R`` (:func:`_single_delta`)."""
    k = out.shape[0]
    out[:] = 0.0
    zero_labels[:] = 0
    zero_pairs[:] = 0
    for p in range(row_ptr[x], row_ptr[x + 1]):
        c = row_combos[p]
        support, weight, hinge = R[c, k], R[c, k + 1], R[c, k + 2]
        ca = R[c, a]
        leave = weight * (1.0 - 2.0 * (ca - support * share[a]))  # (c − t)² in a: after minus before
        if hinge > 0.0 and ca > dcp_cap(support, ideal[a]):
            leave -= hinge
        lost = 1 if ca == 1.0 else 0
        if R[c, k + 3] > 0.0:  # a pair: no hinge; branch-free over the folds
            for b in range(k):
                cb = R[c, b]
                z = lost - (1 if cb == 0.0 else 0)
                out[b] += leave + weight * (1.0 + 2.0 * (cb - support * share[b])) + fill[1] * z
                zero_pairs[b] += z
        else:
            for b in range(k):
                cb = R[c, b]
                d = leave + weight * (1.0 + 2.0 * (cb - support * share[b]))
                if hinge > 0.0 and cb + 1.0 > dcp_cap(support, ideal[b]):
                    d += hinge
                z = lost - (1 if cb == 0.0 else 0)
                out[b] += d + fill[0] * z
                zero_labels[b] += z
    if single[x] != 0.0:
        for b in range(k):
            out[b] += _single_delta(single[x], share, a, b)
    out[a] = 0.0  # computed as if x moved to its own fold; not a move
    zero_labels[a] = 0
    zero_pairs[a] = 0


@jit
def _delta_to(x, a, b, row_ptr, row_combos, R, share, ideal, fill, single):  # pragma: no cover - compiled
    """(ΔF, Δ zero label cells, Δ zero pair cells) of moving x from fold a to fold b (as :func:`_deltas`)."""
    k = share.shape[0]
    d, zero_labels, zero_pairs = 0.0, 0, 0
    for p in range(row_ptr[x], row_ptr[x + 1]):
        c = row_combos[p]
        support, weight, hinge = R[c, k], R[c, k + 1], R[c, k + 2]
        ca, cb = R[c, a], R[c, b]
        ta, tb = support * share[a], support * share[b]
        d += weight * (2.0 + 2.0 * (cb - tb) - 2.0 * (ca - ta))
        if hinge > 0.0:
            d += hinge * ((1.0 if cb + 1.0 > dcp_cap(support, ideal[b]) else 0.0)
                          - (1.0 if ca > dcp_cap(support, ideal[a]) else 0.0))
        z = (1 if ca == 1.0 else 0) - (1 if cb == 0.0 else 0)
        if R[c, k + 3] > 0.0:
            d += fill[1] * z
            zero_pairs += z
        else:
            d += fill[0] * z
            zero_labels += z
    if single[x] != 0.0:
        d += _single_delta(single[x], share, a, b)
    return d, zero_labels, zero_pairs


@jit
def _move(x, a, b, row_ptr, row_combos, R, fold, sizes):  # pragma: no cover - compiled
    for p in range(row_ptr[x], row_ptr[x + 1]):
        R[row_combos[p], a] -= 1.0
        R[row_combos[p], b] += 1.0
    fold[x] = b
    sizes[a] -= 1
    sizes[b] += 1


@jit
def _ahead(order, i, end, row_ptr, row_combos, R, fold, single):  # pragma: no cover - compiled
    """Cache hints for the rows a pass visits after its i-th (of ``end``), each link of a row's chain a few
    rows before it is read (:mod:`~stratbench._kernels.prefetch`): the 24th row ahead's list bounds, fold and
    weight, the 12th's combination list, the 4th's combinations' records (their first and last columns: a
    record may span two cache lines)."""
    if i + 24 < end:
        z = order[i + 24]
        prefetch(row_ptr, z)
        prefetch(fold, z)
        prefetch(single, z)
    if i + 12 < end:
        z = order[i + 12]
        if row_ptr[z + 1] > row_ptr[z]:
            prefetch(row_combos, row_ptr[z])
    if i + 4 < end:
        z = order[i + 4]
        for p in range(row_ptr[z], row_ptr[z + 1]):
            prefetch_at(R, row_combos[p], 0)
            prefetch_at(R, row_combos[p], R.shape[1] - 1)


@jit
def _partners(state, n, fold, b, x, samples, tries, row_ptr, row_combos, R, single, found):  # pragma: no cover
    """Draw the swap partners of x, members of fold b: for each of ``samples``, up to ``tries`` uniform rows until
    one is in b (none found: that sample is skipped). Into ``found``; returns how many. All are drawn before
    any is scored (scoring draws nothing, so the draws are those of drawing each before scoring it), with
    cache hints for their rows, combination lists and records, so that their reads overlap."""
    m = np.int64(0)
    for _s in range(samples):
        for _t in range(tries):
            cand = randbelow(state, n)
            if fold[cand] == b and cand != x:
                found[m] = cand
                m += 1
                prefetch(row_ptr, cand)
                prefetch(single, cand)
                break
    for s in range(m):
        if row_ptr[found[s] + 1] > row_ptr[found[s]]:
            prefetch(row_combos, row_ptr[found[s]])
    for s in range(m):
        for p in range(row_ptr[found[s]], row_ptr[found[s] + 1]):
            prefetch_at(R, row_combos[p], 0)
            prefetch_at(R, row_combos[p], R.shape[1] - 1)
    return m


@jit
def _objective(R, share, ideal, fold, single):  # pragma: no cover - compiled
    """F of the counts in ``R`` and of the one-example combinations of each example x (summed weight
    ``single[x]``; squared errors (1 − s_a)² + Σ_{j≠a} s_j² in its fold a)."""
    k = share.shape[0]
    total = 0.0
    squares = 0.0
    for j in range(k):
        squares += share[j] ** 2
    for x in range(fold.shape[0]):
        if single[x] != 0.0:
            a = fold[x]
            total += single[x] * ((1.0 - share[a]) ** 2 + squares - share[a] ** 2)
    for c in range(R.shape[0]):
        for j in range(k):
            t = R[c, k] * share[j]
            total += R[c, k + 1] * (R[c, j] - t) ** 2
            cap = dcp_cap(R[c, k], ideal[j])
            if R[c, k + 2] > 0.0 and R[c, j] > cap:
                total += R[c, k + 2] * (R[c, j] - cap)
    return total


@jit
def _fit_sizes(lo, hi, fold, sizes, row_ptr, row_combos, R, share, ideal, fill, single, keep_pairs):  # pragma: no cover
    """Move examples until every fold j holds lo_j … hi_j of them. In each round, a fold above its
    most (else the fold with most to spare) gives to the fold furthest below its least (else to any
    fold with room); its examples whose moves raise F least without losing evidence (:func:`_adds_empty`)
    go first (others only if too few can), each to its
    cheapest fold with room, scored once per round (one destination: :func:`_delta_to` alone)."""
    k = sizes.shape[0]
    d, zl, zp = np.zeros(k), np.zeros(k, np.int64), np.zeros(k, np.int64)
    room = np.zeros(k, np.int64)
    while True:
        src, dst = np.int64(-1), np.int64(-1)
        for j in range(k):
            if sizes[j] > hi[j] and (src < 0 or sizes[j] - hi[j] > sizes[src] - hi[src]):
                src = j
            if sizes[j] < lo[j] and (dst < 0 or lo[j] - sizes[j] > lo[dst] - sizes[dst]):
                dst = j
        if src < 0 and dst < 0:
            return
        if src < 0:
            for j in range(k):
                if j != dst and (src < 0 or sizes[j] - lo[j] > sizes[src] - lo[src]):
                    src = j
        spare = int(sizes[src] - hi[src]) if sizes[src] > hi[src] else int(sizes[src] - lo[src])
        for j in range(k):
            room[j] = 0
        if dst >= 0:
            room[dst] = int(lo[dst] - sizes[dst])
        else:
            for j in range(k):
                if j != src:
                    room[j] = max(int(hi[j] - sizes[j]), 0)
        need = max(min(spare, room.sum()), 1)
        members = np.flatnonzero(fold == src)
        score = np.empty(members.shape[0])
        choice = np.empty(members.shape[0], np.int64)
        for i in range(members.shape[0]):
            _ahead(members, i, members.shape[0], row_ptr, row_combos, R, fold, single)
            if dst >= 0:
                d_x, zl_x, zp_x = _delta_to(members[i], src, dst, row_ptr, row_combos, R, share, ideal, fill, single)
                score[i] = d_x + (1e12 if _adds_empty(zl_x, zp_x, keep_pairs) else 0.0)  # lost evidence: last resort
                choice[i] = dst
                continue
            _deltas(members[i], src, row_ptr, row_combos, R, share, ideal, fill, single, d, zl, zp)
            score[i], choice[i] = np.inf, -1
            for b in range(k):
                cost = d[b] + (1e12 if _adds_empty(zl[b], zp[b], keep_pairs) else 0.0)
                if room[b] > 0 and cost < score[i]:
                    score[i], choice[i] = cost, b
        moved = 0
        for i in stable_argsort(score):
            if moved == need:
                break
            b = choice[i]
            if room[b] > 0:
                _move(members[i], src, b, row_ptr, row_combos, R, fold, sizes)
                room[b] -= 1
                moved += 1


@kernel("int64[::1]", "int32[::1]", "int64[::1]", "boolean[::1]")
def carried_combinations(row_ptr, row_combos, renumber, is_pair):  # pragma: no cover - compiled
    """Each row's combinations renumbered by ``renumber`` (−1: a one-example combination, left out), in their
    order, and each row's number of left-out labels and pairs: (row_ptr, row_combos, labels, pairs)."""
    n = row_ptr.shape[0] - 1
    kept_ptr = np.zeros(n + 1, dtype=np.int64)
    labels = np.zeros(n, dtype=np.int64)
    pairs = np.zeros(n, dtype=np.int64)
    kept = np.empty(row_combos.shape[0], dtype=np.int32)
    m = 0
    for x in range(n):
        for p in range(row_ptr[x], row_ptr[x + 1]):
            c = row_combos[p]
            if renumber[c] >= 0:
                kept[m] = renumber[c]
                m += 1
            elif is_pair[c]:
                pairs[x] += 1
            else:
                labels[x] += 1
        kept_ptr[x + 1] = m
    return kept_ptr, kept[:m].copy(), labels, pairs


@kernel("int64[::1]", "int32[::1]", "float32[:, ::1]!", "int64[::1]!", "float64[::1]", "float64[::1]", "float64[::1]",
        "float64[::1]", "int64", "int64", "uint64", "float64[::1]", "float64[::1]", "int64", "boolean", "boolean")
def hybrid_kernel(row_ptr, row_combos, R, fold, targets, least, most, ideal, passes, samples, seed, fill, single,
                  visit, exact, keep_pairs):  # pragma: no cover - compiled
    """Steps 3 and 4 of the module doc on the start ``fold``, with the combinations' parameters in
    ``R[:, k:]`` (its counts are filled here), the summed weights ``single`` of each example's one-example
    combinations (left out of ``R``), and the desired shares ``ideal`` (r_j): ``passes`` passes over ``visit`` examples each (all of
    them: n), then exact sizes if ``exact``. Returns (fold ids, F, zero (fold, label) cells)."""
    n = fold.shape[0]
    k = targets.shape[0]
    fold = fold.copy()
    R = R.copy()
    counts = fold_counts(row_ptr, row_combos, fold, k, R.shape[0])
    for c in range(R.shape[0]):  # a loop, not a slice assignment (see _kernels)
        for j in range(k):
            R[c, j] = counts[c, j]
    sizes = np.zeros(k, dtype=np.int64)
    for x in range(n):
        sizes[fold[x]] += 1
    share = targets / n
    state = np.array([np.uint64(seed)], dtype=np.uint64)
    order = np.arange(n)
    d_x, zl_x, zp_x = np.zeros(k), np.zeros(k, np.int64), np.zeros(k, np.int64)
    found = np.empty(samples, dtype=np.int64)
    # within one of the target sizes
    _fit_sizes(targets - 1, targets + 1, fold, sizes, row_ptr, row_combos, R, share, ideal, fill, single,
               keep_pairs)
    total = _objective(R, share, ideal, fold, single)
    for _ in range(passes):
        for i in range(n - 1, 0, -1):  # Fisher–Yates
            r = randbelow(state, i + 1)
            order[i], order[r] = order[r], order[i]
        gain = 0.0
        end = min(visit, n)
        for i in range(end):
            _ahead(order, i, end, row_ptr, row_combos, R, fold, single)
            x = order[i]
            if row_ptr[x + 1] == row_ptr[x] and single[x] == 0.0:
                continue  # a label-less example changes no count
            a = fold[x]
            _deltas(x, a, row_ptr, row_combos, R, share, ideal, fill, single, d_x, zl_x, zp_x)
            best_b, best_d = np.int64(-1), -1e-12
            for b in range(k):
                if b != a and not _adds_empty(zl_x[b], zp_x[b], keep_pairs) and d_x[b] < best_d:
                    best_b, best_d = b, d_x[b]
            if best_b < 0:
                continue
            b = best_b
            if sizes[a] - 1 >= targets[a] - 1 and sizes[b] + 1 <= targets[b] + 1:
                _move(x, a, b, row_ptr, row_combos, R, fold, sizes)
                gain += best_d
                continue
            # a swap: x to b, and back to a the best of `samples` random members of b
            zl, zp = zl_x[b], zp_x[b]
            _move(x, a, b, row_ptr, row_combos, R, fold, sizes)
            best_y, best_total = np.int64(-1), 0.0
            for s in range(_partners(state, n, fold, b, x, samples, 4 * k, row_ptr, row_combos, R, single, found)):
                y = found[s]
                d_y, zl_y, zp_y = _delta_to(y, b, a, row_ptr, row_combos, R, share, ideal, fill, single)
                if not _adds_empty(zl + zl_y, zp + zp_y, keep_pairs) and best_d + d_y < best_total - 1e-12:
                    best_y, best_total = y, best_d + d_y
            if best_y >= 0:
                _move(best_y, b, a, row_ptr, row_combos, R, fold, sizes)
                gain += best_total
            else:
                _move(x, b, a, row_ptr, row_combos, R, fold, sizes)
        total += gain
        if -gain <= 1e-6 * abs(total):
            break
    if exact:
        _fit_sizes(least, most, fold, sizes, row_ptr, row_combos, R, share, ideal, fill, single, keep_pairs)  # step 5
    zero_labels = 0
    for c in range(R.shape[0]):
        if R[c, k + 3] == 0.0:
            for j in range(k):
                if R[c, j] == 0.0:
                    zero_labels += 1
    return fold, _objective(R, share, ideal, fold, single), zero_labels
