"""The pair measures' pass over the fold counts (:mod:`stratbench.measures.fold_quality`)."""

import numpy as np

from stratbench._kernels._compile import kernel


@kernel("int32[:, ::1]", "int64[::1]", "float64[::1]", "float64[::1]", "float64")
def pair_stats(counts, pairs, support, sizes, n):  # pragma: no cover - compiled
    """(Σ over pairs and folds of LD's term, FLPZ, zero pairs per fold) in one pass over the counts
    (combinations × folds), with :func:`_ld`'s guards."""
    k = sizes.shape[0]
    ld_sum, flpz = 0.0, 0
    zeros = np.zeros(k)
    for e in pairs:
        total = support[e]
        d = (n - 1) / n if total == n else total / n
        z = 0
        for j in range(k):
            c = counts[e, j]
            if c == 0:
                z += 1
                zeros[j] += 1
            if sizes[j] > 0:
                p = (sizes[j] - 1) / sizes[j] if c == sizes[j] else c / sizes[j]
                ld_sum += abs(p / (1 - p) - d / (1 - d))
        flpz += max(0, z - max(0, k - int(total)))
    return ld_sum, flpz, zeros
