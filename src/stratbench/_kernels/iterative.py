"""Iterative stratification's loop (:mod:`stratbench.stratifiers.iterative`).

The label with the fewest remaining positives (with label weights w_i, the least remaining_i / w_i) comes from
a segment tree over the labels that holds, per node, that least key below it and how many labels have it: the choice is O(log q)
(the lowest index, or the r-th lowest of the tied labels for one uniform draw r), and so is the update of
each label whose count changed since the last choice. The run is O((nnz + q) log q + n·k), near-linear in the
labels."""

import numpy as np

from stratbench._kernels._compile import jit, kernel
from stratbench._kernels.common import choose_fold, place_unlabelled, randbelow


@jit
def _with_room(desired_label, desired_fold, room):  # pragma: no cover - compiled
    """``desired_label`` with the folds that lack ``room`` examples set to −inf, unless every fold lacks it."""
    masked = desired_label.copy()
    any_room = False
    for j in range(masked.shape[0]):
        if desired_fold[j] >= room:
            any_room = True
        else:
            masked[j] = -np.inf
    return masked if any_room else desired_label


_NONE = np.inf  # a label without remaining positives: never the fewest


@jit
def _tree_build(remaining, label_weights):  # pragma: no cover - compiled
    """(fewest, ties) of a segment tree over the keys ``remaining / label_weights``: leaves at [size, size + q),
    node v's children 2v and 2v + 1; ``fewest[v]`` the least key below v (``_NONE`` where no label has
    positives left), ``ties[v]`` how many labels below v have it."""
    q = remaining.shape[0]
    size = np.int64(1)
    while size < q:
        size *= 2
    fewest = np.full(2 * size, _NONE, dtype=np.float64)
    ties = np.zeros(2 * size, dtype=np.int64)
    for i in range(q):
        if remaining[i] > 0:
            fewest[size + i] = remaining[i] / label_weights[i]
            ties[size + i] = 1
    for v in range(size - 1, 0, -1):
        _tree_join(fewest, ties, v)
    return fewest, ties


@jit
def _tree_join(fewest, ties, v):  # pragma: no cover - compiled
    a, b = 2 * v, 2 * v + 1
    if fewest[a] < fewest[b]:
        fewest[v], ties[v] = fewest[a], ties[a]
    elif fewest[b] < fewest[a]:
        fewest[v], ties[v] = fewest[b], ties[b]
    else:
        fewest[v], ties[v] = fewest[a], ties[a] + ties[b]


@jit
def _tree_set(fewest, ties, i, count, weight):  # pragma: no cover - compiled
    """Label i (weight ``weight``) now has ``count`` remaining positives (none if ≤ 0)."""
    v = fewest.shape[0] // 2 + i
    fewest[v] = count / weight if count > 0 else _NONE
    ties[v] = 1 if count > 0 else 0
    v //= 2
    while v >= 1:
        _tree_join(fewest, ties, v)
        v //= 2


@jit
def _tree_pick(fewest, ties, rank):  # pragma: no cover - compiled
    """The label of rank ``rank`` (0: the lowest index) among those with the fewest remaining positives."""
    size = fewest.shape[0] // 2
    target = fewest[1]
    v = np.int64(1)
    while v < size:
        a = 2 * v
        if fewest[a] == target:
            if rank < ties[a]:
                v = a
                continue
            rank -= ties[a]
        v = a + 1
    return v - size


@kernel("int64[::1]", "int64[::1]", "float64[::1]", "int64[::1]", "int64[::1]", "float64[::1]", "float64[::1]",
        "uint64", "boolean", "int64[::1]", "boolean", "float64[::1]")
def iterative_kernel(indptr, indices, counts, col_ptr, col_rows, ratios, weights, seed, random_label_ties,
                     label_order, skmultilearn, label_weights):  # pragma: no cover
    """Fold id per row; CSR (indptr, indices, counts) and CSC (col_ptr, col_rows, rows ascending) of Y.
    A row is an example (``counts`` and ``weights`` all 1) or a group of ``weights[x]`` examples of which
    ``counts`` carry each label: desires and remaining positives are then counted in examples.
    ``label_order``: labels by first appearance (used by the ``skmultilearn`` selection). ``label_weights``
    (> 0; all 1 for the paper's IS): the label taken next is the one of least remaining positives / weight,
    so a heavier label is dealt earlier, while the folds' desires leave the most freedom."""
    n = indptr.shape[0] - 1
    q = col_ptr.shape[0] - 1
    k = ratios.shape[0]
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    desired_fold = weights.sum() * ratios
    remaining = np.zeros(q, dtype=np.int64)
    for pp in range(indices.shape[0]):
        remaining[indices[pp]] += np.int64(counts[pp])
    desired_label = np.empty((q, k))  # label-major: one label's k desires are contiguous
    for i in range(q):
        for j in range(k):
            desired_label[i, j] = remaining[i] * ratios[j]
    fewest, ties = _tree_build(remaining if not skmultilearn else np.zeros(0, dtype=np.int64), label_weights)
    # labels whose count changed since the tree last saw them: the tree is brought up to date once per choice,
    # one update per label touched, not one per positive dealt
    stale = np.zeros(q, dtype=np.bool_)
    stale_list = np.empty(q, dtype=np.int64)
    n_stale = 0
    fold = np.full(n, -1, dtype=np.int64)
    scan_from = 0  # skmultilearn: labels before this position of label_order have no examples left
    while True:
        label = -1
        if skmultilearn:
            while scan_from < label_order.shape[0] and remaining[label_order[scan_from]] <= 0:
                scan_from += 1
            if scan_from < label_order.shape[0]:
                label = label_order[scan_from]
        else:
            for t in range(n_stale):
                i = stale_list[t]
                stale[i] = False
                _tree_set(fewest, ties, i, remaining[i], label_weights[i])
            n_stale = 0
        if not skmultilearn and fewest[1] != _NONE:  # the fewest remaining: the lowest index, or one draw among ties
            tied = ties[1]
            label = _tree_pick(fewest, ties, randbelow(state, tied) if random_label_ties and tied > 1 else 0)
        if label < 0:
            break
        start, stop = col_ptr[label], col_ptr[label + 1]
        for t in range(stop - start):
            x = col_rows[stop - 1 - t] if skmultilearn else col_rows[start + t]
            if fold[x] >= 0:
                continue
            if weights[x] > 1.0:  # a group: only to a fold with room for half of it, where one has
                m = choose_fold(_with_room(desired_label[label], desired_fold, 0.5 * weights[x]), desired_fold,
                                 state, not skmultilearn)
            else:
                m = choose_fold(desired_label[label], desired_fold, state, not skmultilearn)
            fold[x] = m
            desired_fold[m] -= weights[x]
            for pp in range(indptr[x], indptr[x + 1]):
                i = indices[pp]
                desired_label[i, m] -= counts[pp]
                remaining[i] -= np.int64(counts[pp])
                if not skmultilearn and not stale[i]:
                    stale[i] = True
                    stale_list[n_stale] = i
                    n_stale += 1
    place_unlabelled(fold, desired_fold, state, skmultilearn, weights)
    return fold
