"""The synthetic generator's labelset draws (:mod:`stratbench.datasets.synthetic`)."""

import numpy as np

from stratbench._kernels._compile import kernel


@kernel("float64[:, ::1]", "float64[::1]", "float64[::1]", "float64[:, ::1]", "float64[:, ::1]")
def draw_labelsets(theta, cdf, u_first, perm_keys, u_accept):  # pragma: no cover - compiled
    n, L = perm_keys.shape
    Y = np.zeros((n, L), dtype=np.uint8)
    chosen = np.empty(L, dtype=np.int64)
    for x in range(n):
        first = np.searchsorted(cdf, u_first[x], side="right")
        if first >= L:
            first = L - 1
        Y[x, first] = 1
        chosen[0] = first
        m = 1
        order = np.argsort(perm_keys[x])
        for t in range(L):
            j = order[t]
            if j == first:
                continue
            p = 1.0
            for c in range(m):  # the labels already set, in the order they were set
                p *= theta[j, chosen[c]]
            if p > u_accept[x, j]:
                Y[x, j] = 1
                chosen[m] = j
                m += 1
    return Y
