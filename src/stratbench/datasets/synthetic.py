"""Synthetic multi-label data after Read, Bifet, Holmes & Pfahringer (MLJ 88, 2012).

The generator of MOA's ``MetaMultilabelGenerator``: label priors π scaled to a target, a pairwise
dependence matrix θ (each pair dependent with probability u, then "tending to mutual exclusivity" or
"tending to co-occurrence"), labelsets drawn label by label, and features taken from a binary generator
(here a random-RBF one): attribute a is tied to one of the most frequent labelsets S_a and copies a
positive instance's value when S_a ⊆ Y, a negative one's otherwise. See docs/ALGORITHMS.md §10.

The configured ``cardinality`` z is what the data realises: the mean number of labels a row. MOA rescales
the priors to Σπ = z (both ways), but its draw (a first label always, then each other label with a
probability) realises about 1 + z − Σπ²/z labels a row in the independent case, not z (1.5 configured gave
2.4 at 20 labels). So the priors are rescaled, MOA's way, to the sum s whose draw realises z on a
calibration sample (bisection on s with common random numbers, :func:`calibrated_priors`). Everything is
drawn from one ``numpy.random.Generator`` seeded by ``seed``.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench._kernels.synthetic import draw_labelsets
from stratbench._warn import warn
from stratbench.datasets.core import MultilabelDataset

_CHUNK = 8192
CALIBRATION_ENTRIES = 1_000_000  # rows × labels of the calibration sample (at most 20 000 rows)


def rescaled(raw: np.ndarray, total: float) -> np.ndarray:
    """MOA's ``generatePriors`` normalisation of the weights ``raw`` to the sum ``total``: repeat {c ← Σπ/total;
    π_j ← min(1, π_j/c)} until Σπ ≥ total — at least once, so a sum above ``total`` is scaled down too.

    >>> rescaled(np.array([0.5, 0.5, 1.0]), 1.0).tolist()
    [0.25, 0.25, 0.5]
    >>> rescaled(np.array([0.1, 0.2, 0.9]), 2.4).round(3).tolist()
    [0.467, 0.933, 1.0]
    """
    pi = np.asarray(raw, dtype=np.float64)
    for _ in range(10_000):
        pi = np.minimum(1.0, pi / (pi.sum() / total))
        if pi.sum() >= total * (1 - 1e-12):
            break
    return pi


def label_priors(n_labels: int, cardinality: float, rng: np.random.Generator) -> np.ndarray:
    """MOA's priors: π_j ~ U(0,1), :func:`rescaled` to Σπ = ``cardinality``."""
    _check_cardinality(n_labels, cardinality)
    return rescaled(rng.random(n_labels), cardinality)


def _check_cardinality(n_labels: int, cardinality: float) -> None:
    if not 1 <= cardinality <= n_labels:
        raise StratbenchError(f"cardinality {cardinality} must lie in [1, labels={n_labels}]: every labelset the "
                              "generator draws holds at least one label, and at most all of them")


def dependence_draws(n_labels: int, dependence: float, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """For each pair j < k: whether it is dependent (probability ``dependence``) and, if so, whether it tends to
    co-occurrence (a fair coin; else to mutual exclusivity), as two upper-triangular boolean matrices."""
    upper = np.triu(np.ones((n_labels, n_labels), dtype=bool), 1)
    dependent = (rng.random((n_labels, n_labels)) <= dependence) & upper
    cooccur = (rng.random((n_labels, n_labels)) < 0.5) & dependent
    return dependent, cooccur


def conditionals(pi: np.ndarray, dependent: np.ndarray, cooccur: np.ndarray) -> np.ndarray:
    """θ with θ_jj = π_j; for j<k independent θ_jk = π_j and θ_kj = θ_jk·π_k/π_j (= π_k), dependent
    θ_jk = min(1, π_k/π_j) (co-occurrence) or max(0, π_j+π_k−1) (exclusivity) and θ_kj = θ_jk·π_j/π_k, as MOA
    computes them (docs/ALGORITHMS.md §10).

    >>> conditionals(np.array([0.5, 0.2]), np.array([[False, True], [False, False]]),
    ...              np.array([[False, True], [False, False]])).round(2).tolist()
    [[0.5, 0.4], [1.0, 0.2]]
    """
    pj, pk = pi[:, None], pi[None, :]
    upper = np.where(dependent, np.where(cooccur, np.minimum(1.0, pk / pj), np.maximum(0.0, pj + pk - 1.0)),
                     np.broadcast_to(pj, dependent.shape))
    upper = np.triu(upper, 1)
    theta = upper + np.where(dependent, upper * pj / pk, upper * pk / pj).T  # θ_kj (Bayes' rule, as MOA writes it)
    np.fill_diagonal(theta, pi)
    return theta


def dependency_matrix(pi: np.ndarray, dependence: float, rng: np.random.Generator) -> np.ndarray:
    """θ for the priors ``pi``, its pairs' dependence drawn from ``rng`` (:func:`dependence_draws`)."""
    return conditionals(pi, *dependence_draws(len(pi), dependence, rng))


class _Draws:
    """The uniforms of ``n`` labelsets over ``L`` labels (first label, label order, acceptances), drawn once so
    that the same labelsets can be drawn for other priors (common random numbers)."""

    def __init__(self, n: int, L: int, rng: np.random.Generator):
        self.u_first, self.perm_keys, self.u_accept = rng.random(n), rng.random((n, L)), rng.random((n, L))

    def labelsets(self, pi: np.ndarray, theta: np.ndarray) -> np.ndarray:
        cdf = np.cumsum(pi / pi.sum())
        return draw_labelsets(theta, cdf, self.u_first, self.perm_keys, self.u_accept)


def sample_labelsets(n: int, pi: np.ndarray, theta: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Draw ``n`` labelsets (dense uint8 n × L): a first label k ~ π/Σπ, then each other label j in a
    random order with probability Π_{i set} θ_ji. Every labelset is non-empty."""
    L = len(pi)
    parts = [_Draws(min(_CHUNK, n - start), L, rng).labelsets(pi, theta) for start in range(0, n, _CHUNK)]
    return np.concatenate(parts) if parts else np.zeros((0, L), dtype=np.uint8)


CALIBRATION_TOLERANCE = 5e-3  # the realised cardinality within this share of the target


class UnrealisableCardinality(StratbenchError):
    """A cardinality below the least that the dependence drawn lets the generator realise."""


def _calibration(raw: np.ndarray, dependent: np.ndarray, cooccur: np.ndarray, rng: np.random.Generator):
    """``realised(s)``: (the mean cardinality of one calibration sample, π, θ) with the priors rescaled to sum s; the
    sample (up to 20 000 labelsets) is drawn once from ``rng``, so every s is scored on the same uniforms."""
    L = len(raw)
    draws = _Draws(int(min(20_000, max(1_000, CALIBRATION_ENTRIES // L))), L, rng)

    def realised(total):
        pi = rescaled(raw, total) if total < L else np.ones(L)
        theta = conditionals(pi, dependent, cooccur)
        return float(draws.labelsets(pi, theta).sum(axis=1).mean()), pi, theta

    return realised


def calibrated_priors(raw: np.ndarray, dependent: np.ndarray, cooccur: np.ndarray, cardinality: float,
                      rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """(π, θ) whose draw realises ``cardinality`` labels a row: π = :func:`rescaled` (raw, s) with the sum s
    found by bisection so that the mean cardinality of one calibration sample (:func:`_calibration`) is within
    0.5% of the target.

    s = L sets every label. As s → 0 the draw does not fall to one label a row: a pair tending to co-occurrence
    keeps θ = min(1, π_k/π_j), a ratio the scale leaves alone, so a first label still brings its partners. A
    cardinality below that least one stops with :class:`UnrealisableCardinality`, naming it."""
    L = len(raw)
    _check_cardinality(L, cardinality)
    realised = _calibration(raw, dependent, cooccur, rng)
    tolerance = CALIBRATION_TOLERANCE * cardinality
    least = realised(1e-9)
    if least[0] > cardinality + tolerance:
        raise UnrealisableCardinality(
            f"cardinality {cardinality:g} cannot be realised: with {int(dependent.sum())} of {L * (L - 1) // 2} label "
            f"pairs dependent ({int(cooccur.sum())} tending to co-occur), the least this generator realises is "
            f"{least[0]:.2f} labels a row; lower the dependence or raise the cardinality")
    lo, hi, best = 0.0, float(L), least
    for _ in range(60):
        if abs(best[0] - cardinality) <= tolerance:
            break
        got = realised((lo + hi) / 2)
        if abs(got[0] - cardinality) < abs(best[0] - cardinality):
            best = got
        lo, hi = ((lo + hi) / 2, hi) if got[0] < cardinality else (lo, (lo + hi) / 2)
    return best[1], best[2]


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


def label_model(name: str, labels: int, cardinality: float, dependence: float = 0.25, seed: int = 1, **_):
    """(π, θ, the generator's random stream after them, the dependence used) of the synthetic dataset ``name``:
    the first draws of
    :func:`generate`, also what a config check runs to refuse a cardinality that cannot be realised before any
    job (the other parameters, ``**_``, do not enter)."""
    if labels < 1:
        raise StratbenchError(f"synthetic dataset {name!r}: examples, labels and features must be ≥ 1")
    if not 0.0 <= dependence <= 1.0:
        raise StratbenchError(f"synthetic dataset {name!r}: dependence {dependence} not in [0, 1]")
    if not 1 <= cardinality <= labels:
        raise StratbenchError(f"synthetic dataset {name!r}: cardinality {cardinality} must lie in [1, labels={labels}]: "
                              "every labelset the generator draws holds at least one label, and at most all of them")
    rng = np.random.default_rng(seed)
    raw = rng.random(labels)
    try:
        pi, theta = calibrated_priors(raw, *dependence_draws(labels, dependence, rng), cardinality, rng)
        return pi, theta, rng, dependence
    except UnrealisableCardinality:
        used = weaker_dependence(labels, cardinality, dependence, seed)
        if used is None:
            raise StratbenchError(f"synthetic dataset {name!r} (labels {labels}, seed {seed}): cardinality "
                                  f"{cardinality:g} cannot be realised even with independent labels; raise it") from None
    warn(f"synthetic dataset {name!r}: cardinality {cardinality:g} over {labels} labels cannot be realised at "
         f"dependence {dependence:g}; the generator uses {used:.4g}, the strongest it allows (as MOA's generator "
         f"weakens the dependence a cardinality cannot afford)")
    rng = np.random.default_rng(seed)  # the draws of a config that asked for the weaker dependence itself
    raw = rng.random(labels)
    pi, theta = calibrated_priors(raw, *dependence_draws(labels, used, rng), cardinality, rng)
    return pi, theta, rng, used


def weaker_dependence(labels: int, cardinality: float, dependence: float, seed: int) -> float | None:
    """The largest dependence below ``dependence`` with which the generator of ``seed`` realises ``cardinality``
    (bisection to 1/4096 of ``dependence`` on the same random draws: a weaker dependence makes fewer pairs dependent,
    so fewer labels come along with a first one), or None where not even independent labels realise it."""
    def fits(u: float) -> bool:
        rng = np.random.default_rng(seed)
        raw = rng.random(labels)
        least = _calibration(raw, *dependence_draws(labels, u, rng), rng)(1e-9)[0]
        return least <= cardinality * (1 + CALIBRATION_TOLERANCE)

    if not fits(0.0):
        return None
    lo, hi = 0.0, dependence
    for _ in range(12):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if fits(mid) else (lo, mid)
    return lo


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
    if examples < 1 or features < 1:
        raise StratbenchError(f"synthetic dataset {name!r}: examples, labels and features must be ≥ 1")
    pi, theta, rng, used = label_model(name, labels, cardinality, dependence, seed)
    S = attribute_labelsets(sample_labelsets(census, pi, theta, rng), features, rng)
    Y = sample_labelsets(examples, pi, theta, rng)
    binary = RandomRBF(features, rng, n_centroids=centroids)
    x_neg = binary.sample(0, examples, rng)
    x_pos = binary.sample(1, examples, rng)
    X = combine_features(Y, S, x_pos, x_neg)
    return MultilabelDataset(
        name=name, X=X, Y=sp.csr_matrix(Y, dtype=np.int8),
        label_names=[f"label{j}" for j in range(labels)],
        feature_names=[f"x{a}" for a in range(features)], dependence=used,
    )
