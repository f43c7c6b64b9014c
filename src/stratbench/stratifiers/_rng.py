"""A tiny counter-based RNG (splitmix64) for the compiled kernels: deterministic, self-contained."""

import numba
import numpy as np

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@numba.njit(cache=True)
def next_u64(state):  # pragma: no cover - compiled
    """Advance ``state`` (a 1-element uint64 array) and return the next 64-bit output."""
    state[0] += _GAMMA
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def randbelow(state, m):  # pragma: no cover - compiled
    """A uniform integer in [0, m) (modulo bias below 2⁻⁴⁰ for the m used here)."""
    return np.int64(next_u64(state) % np.uint64(m))
