"""Iterative stratification's loop (:mod:`stratbench.stratifiers.iterative`)."""

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


@kernel("int64[::1]", "int64[::1]", "float64[::1]", "int64[::1]", "int64[::1]", "float64[::1]", "float64[::1]",
        "uint64", "boolean", "int64[::1]", "boolean")
def iterative_kernel(indptr, indices, counts, col_ptr, col_rows, ratios, weights, seed, random_label_ties,
                     label_order, skmultilearn):  # pragma: no cover
    """Fold id per row; CSR (indptr, indices, counts) and CSC (col_ptr, col_rows, rows ascending) of Y.
    A row is an example (``counts`` and ``weights`` all 1) or a group of ``weights[x]`` examples of which
    ``counts`` carry each label: desires and remaining positives are then counted in examples.
    ``label_order``: labels by first appearance (used by the ``skmultilearn`` selection)."""
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
            fewest = np.iinfo(np.int64).max
            n_ties = 0
            for i in range(q):
                r = remaining[i]
                if r <= 0:
                    continue
                if r < fewest:
                    fewest = r
                    label = i
                    n_ties = 1
                elif r == fewest and random_label_ties:
                    n_ties += 1
                    if randbelow(state, n_ties) == 0:
                        label = i
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
    place_unlabelled(fold, desired_fold, state, skmultilearn, weights)
    return fold
