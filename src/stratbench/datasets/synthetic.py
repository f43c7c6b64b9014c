"""Synthetic multi-label data after Read, Bifet, Holmes & Pfahringer (MLJ 88, 2012).

The generator of MOA's ``MetaMultilabelGenerator``: label priors π scaled to a target cardinality z,
a pairwise dependence matrix θ (each pair dependent with probability u, then "tending to mutual
exclusivity" or "tending to co-occurrence"), labelsets drawn label by label, and features taken
from a binary generator (here a random-RBF one): attribute a is tied to one of the most frequent
labelsets S_a and copies a positive instance's value when S_a ⊆ Y, a negative one's otherwise.
See docs/ALGORITHMS.md §10. Everything is drawn from one ``numpy.random.Generator`` seeded by ``seed``.
"""

from __future__ import annotations

import numba
import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.datasets.core import MultilabelDataset

_CHUNK = 8192


def label_priors(n_labels: int, cardinality: float, rng: np.random.Generator) -> np.ndarray:
    """π_j ~ U(0,1), rescaled by c = Σπ/z and clipped at 1 until Σπ ≥ z."""
    if not 0 < cardinality <= n_labels:
        raise StratbenchError(f"cardinality {cardinality} must lie in (0, labels={n_labels}]")
    pi = rng.random(n_labels)
    for _ in range(10_000):
        if pi.sum() >= cardinality * (1 - 1e-12):
            break
        pi = np.minimum(1.0, pi / (pi.sum() / cardinality))
    return pi


def dependency_matrix(pi: np.ndarray, dependence: float, rng: np.random.Generator) -> np.ndarray:
    """θ with θ_jj = π_j; for j<k independent θ_jk = π_j, dependent max(0, π_j+π_k−1) or
    min(1, π_k/π_j) (fair coin); θ_kj = θ_jk·π_j/π_k as MOA computes it (docs/ALGORITHMS.md §10)."""
    L = len(pi)
    theta = np.diag(pi).astype(np.float64)
    for j in range(L):
        for k in range(j + 1, L):
            if rng.random() <= dependence:
                if rng.random() < 0.5:
                    theta[j, k] = max(0.0, pi[j] + pi[k] - 1.0)
                else:
                    theta[j, k] = min(1.0, pi[k] / pi[j])
                theta[k, j] = theta[j, k] * pi[j] / pi[k]
            else:
                theta[j, k] = pi[j]
                theta[k, j] = theta[j, k] * pi[k] / pi[j]
    return theta


@numba.njit(cache=True)
def _sample_kernel(theta, cdf, u_first, perm_keys, u_accept):  # pragma: no cover - compiled
    n, L = perm_keys.shape
    Y = np.zeros((n, L), dtype=np.uint8)
    for x in range(n):
        first = np.searchsorted(cdf, u_first[x], side="right")
        if first >= L:
            first = L - 1
        Y[x, first] = 1
        order = np.argsort(perm_keys[x])
        for t in range(L):
            j = order[t]
            if j == first:
                continue
            p = 1.0
            for i in range(L):
                if Y[x, i] == 1:
                    p *= theta[j, i]
            if p > u_accept[x, j]:
                Y[x, j] = 1
    return Y


def sample_labelsets(n: int, pi: np.ndarray, theta: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Draw ``n`` labelsets (dense uint8 n × L): a first label k ~ π/Σπ, then each other label j in a
    random order with probability Π_{i set} θ_ji. Every labelset is non-empty."""
    L = len(pi)
    cdf = np.cumsum(pi / pi.sum())
    parts = []
    for start in range(0, n, _CHUNK):
        m = min(_CHUNK, n - start)
        parts.append(_sample_kernel(theta, cdf, rng.random(m), rng.random((m, L)), rng.random((m, L))))
    return np.concatenate(parts) if parts else np.zeros((0, L), dtype=np.uint8)


def attribute_labelsets(census: np.ndarray, n_features: int, rng: np.random.Generator) -> np.ndarray:
    """The labelset S_a tied to each attribute: the most frequent labelsets of the census, the i-th
    getting round(max(w_i·A, 1)) consecutive slots, then the slots shuffled (A × L boolean)."""
    sets, counts = np.unique(census, axis=0, return_counts=True)
    order = np.lexsort((np.arange(len(counts)), -counts))[:n_features]  # by count, then lexicographic
    sets, counts = sets[order], counts[order]
    weights = counts / counts.sum()
    slots: list[int] = []
    while len(slots) < n_features:
        for i, w in enumerate(weights):
            take = min(int(round(max(w * n_features, 1))), n_features - len(slots))
            slots.extend([i] * take)
            if len(slots) == n_features:
                break
    slots_arr = np.array(slots)
    rng.shuffle(slots_arr)
    return sets[slots_arr].astype(bool)


def combine_features(Y: np.ndarray, S: np.ndarray, x_pos: np.ndarray, x_neg: np.ndarray) -> np.ndarray:
    """X[x, a] = x_pos[x, a] if S_a ⊆ Y_x else x_neg[x, a] (float32)."""
    tied = (Y.astype(np.int32) @ S.T.astype(np.int32)) == S.sum(axis=1)
    return np.where(tied, x_pos, x_neg).astype(np.float32)


class RandomRBF:
    """Binary random-RBF generator (MOA ``RandomRBFGenerator``): centroids with a centre in
    [0,1]^d, a class, a spread and a weight; a point is centre + N(0,1)·spread·(random unit vector)."""

    def __init__(self, n_features: int, rng: np.random.Generator, n_centroids: int = 50):
        if n_centroids < 2:
            raise StratbenchError("the random-RBF generator needs at least 2 centroids (one per class)")
        self.centres = rng.random((n_centroids, n_features))
        self.classes = rng.integers(0, 2, n_centroids)
        self.classes[:2] = (0, 1)  # both classes exist
        self.spread = rng.random(n_centroids)
        self.weight = rng.random(n_centroids)

    def sample(self, cls: int, n: int, rng: np.random.Generator) -> np.ndarray:
        idx = np.flatnonzero(self.classes == cls)
        p = self.weight[idx] / self.weight[idx].sum()
        chosen = idx[rng.choice(len(idx), size=n, p=p)]
        direction = rng.standard_normal((n, self.centres.shape[1]))
        direction /= np.linalg.norm(direction, axis=1, keepdims=True)
        scale = rng.standard_normal(n) * self.spread[chosen]
        return self.centres[chosen] + direction * scale[:, None]


def generate(
    name: str,
    examples: int,
    labels: int,
    features: int,
    cardinality: float,
    dependence: float = 0.25,
    seed: int = 1,
    census: int = 100_000,
    centroids: int = 50,
) -> MultilabelDataset:
    """A synthetic multi-label dataset defined entirely by its arguments.

    ``census`` labelsets are drawn to find the most frequent ones (MOA: 100 000); ``centroids`` is
    the random-RBF binary generator's centroid count (MOA: 50). Fewer centroids make each
    attribute's two class-conditional distributions further apart, i.e. the features more
    informative about their labelsets.
    """
    if examples < 1 or labels < 1 or features < 1:
        raise StratbenchError(f"synthetic dataset {name!r}: examples, labels and features must be ≥ 1")
    if not 0.0 <= dependence <= 1.0:
        raise StratbenchError(f"synthetic dataset {name!r}: dependence {dependence} not in [0, 1]")
    rng = np.random.default_rng(seed)
    pi = label_priors(labels, cardinality, rng)
    theta = dependency_matrix(pi, dependence, rng)
    S = attribute_labelsets(sample_labelsets(census, pi, theta, rng), features, rng)
    Y = sample_labelsets(examples, pi, theta, rng)
    binary = RandomRBF(features, rng, n_centroids=centroids)
    x_neg = binary.sample(0, examples, rng)
    x_pos = binary.sample(1, examples, rng)
    X = combine_features(Y, S, x_pos, x_neg)
    return MultilabelDataset(
        name=name, X=X, Y=sp.csr_matrix(Y, dtype=np.int8),
        label_names=[f"label{j}" for j in range(labels)],
        feature_names=[f"x{a}" for a in range(features)],
    )
