"""The kernels' shared parts: a counter-based RNG (splitmix64: deterministic, self-contained) and the fold
choices of iterative stratification that SOIS and the hybrid make too (Sechidis et al. 2011, Algorithm 1;
Szymański & Kajdanowicz 2017).

Two habits keep every kernel's compilation short (``benchmarks/first_call.py``, under the JIT): a variable that
starts as a constant and later holds an index or a count starts as ``np.int64(-1)`` or ``np.int64(0)``, not
``-1`` or ``0`` (numba types a bare constant as a literal while it infers the variable, and compiles each callee
once more for that signature); and arrays are copied into slices by a loop, not ``a[:, :k] = b`` (whose
shape-mismatch error path compiles string formatting for seconds)."""

import numpy as np

from stratbench._kernels._compile import jit, kernel

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@jit
def ceil(v):  # pragma: no cover - compiled
    """⌈v⌉ for |v| < 2⁶³ (0.0 for −1 < v < 0): by truncation, where np.ceil in code compiled for the generic
    architecture (the wheel's) is a call into libm, in the searches' innermost loops."""
    t = np.float64(np.int64(v))
    return t + 1.0 if t < v else t


@jit
def next_u64(state):  # pragma: no cover - compiled
    """Advance ``state`` (a 1-element uint64 array) and return the next 64-bit output."""
    state[0] += _GAMMA
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@jit
def randbelow(state, m):  # pragma: no cover - compiled
    """A uniform integer in [0, m) (modulo bias below 2⁻⁴⁰ for the m used here)."""
    return np.int64(next_u64(state) % np.uint64(m))


@jit
def argmax_tie(values, state, tol):  # pragma: no cover - compiled
    """Index of the maximum of ``values``, ties (within tol) broken uniformly at random."""
    best = values[0]
    for j in range(1, values.shape[0]):
        if values[j] > best:
            best = values[j]
    n_ties = 0
    pick = 0
    for j in range(values.shape[0]):
        if values[j] >= best - tol:
            n_ties += 1
            if n_ties == 1 or randbelow(state, n_ties) == 0:  # reservoir sampling
                pick = j
    return pick


@jit
def choose_fold(desired_label, desired_fold, state, use_overall):  # pragma: no cover - compiled
    """argmax_j c_j^l, ties by argmax c_j (if ``use_overall``), further ties at random."""
    k = desired_label.shape[0]
    best = desired_label[0]
    for j in range(1, k):
        if desired_label[j] > best:
            best = desired_label[j]
    best_overall = -np.inf
    if use_overall:
        for j in range(k):
            if desired_label[j] == best and desired_fold[j] > best_overall:
                best_overall = desired_fold[j]
    n_ties = 0
    pick = 0
    for j in range(k):
        if desired_label[j] == best and (not use_overall or desired_fold[j] == best_overall):
            n_ties += 1
            if n_ties == 1 or randbelow(state, n_ties) == 0:
                pick = j
    return pick


@jit
def place_unlabelled(fold, desired_fold, state, skmultilearn, weights):  # pragma: no cover - compiled
    """Examples without labels (fold < 0): in row order each to the fold with the largest c_j, ties at
    random (MULAN); or (``skmultilearn``) in descending order to a random fold among those with c_j > 0.
    A row weighs ``weights[x]`` examples (a group of them; 1 for an example)."""
    n = fold.shape[0]
    k = desired_fold.shape[0]
    for t in range(n):
        x = n - 1 - t if skmultilearn else t
        if fold[x] >= 0:
            continue
        m = -1
        if skmultilearn:
            n_open = 0
            for j in range(k):
                if desired_fold[j] > 0:
                    n_open += 1
                    if n_open == 1 or randbelow(state, n_open) == 0:
                        m = j
        if m < 0:
            m = argmax_tie(desired_fold, state, 0.0)
        fold[x] = m
        desired_fold[m] -= weights[x]


@kernel("float64[::1]")
def stable_argsort(keys):  # pragma: no cover - compiled
    """``np.argsort(keys, kind="stable")``: a bottom-up merge sort of the indices (ties in index order, NaN
    last, as NumPy orders them); it compiles in a tenth of the time of NumPy's mergesort under numba."""
    n = keys.shape[0]
    idx = np.arange(n)
    buf = np.empty(n, np.int64)
    width = 1
    while width < n:
        for lo in range(0, n, 2 * width):
            mid, hi = min(lo + width, n), min(lo + 2 * width, n)
            i, j = lo, mid
            for o in range(lo, hi):
                if j < hi and (i == mid or keys[idx[j]] < keys[idx[i]]
                               or (keys[idx[i]] != keys[idx[i]] and keys[idx[j]] == keys[idx[j]])):
                    buf[o] = idx[j]  # the right run's first strictly first (or the left one exhausted)
                    j += 1
                else:
                    buf[o] = idx[i]
                    i += 1
        idx, buf = buf, idx
        width *= 2
    return idx
