"""``stratbench._kernels.combinations.fold_counts`` in Cython: the exit from numba.pycc, prototyped on one kernel
(benchmarks/pycc_exit.py). Typed memoryviews of the same C-contiguous arrays the compiled kernel takes."""
from libc.stdint cimport int32_t, int64_t

import numpy as np


def fold_counts(const int64_t[::1] row_ptr, const int32_t[::1] row_combos, const int64_t[::1] fold, int64_t k,
                int64_t n_combos):
    """Examples of every combination in every fold (combinations × folds, int32)."""
    counts = np.zeros((n_combos, k), dtype=np.int32)
    cdef int32_t[:, ::1] c = counts
    cdef Py_ssize_t x, p
    with nogil:
        for x in range(fold.shape[0]):
            for p in range(row_ptr[x], row_ptr[x + 1]):
                c[row_combos[p], fold[x]] += 1
    return counts
