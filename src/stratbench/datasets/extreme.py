"""Label matrices with the shape and label-frequency law of extreme multi-label data.

:data:`REPOSITORY` holds what the Extreme Classification Repository (Bhatia et al. 2016,
http://manikvarma.org/downloads/XC/XMLRepository.html) publishes of its datasets' training split: points n,
labels L and labels per point; the positives are nnz = round(n · labels per point). :func:`generate` draws a
matrix of that shape:

- **label frequencies**: a power law with its rarest label at one point, f_r = ⌊(L / r)^α⌋ for the label of
  rank r (at least 1, at most n), α solved (bisection) so that Σ_r f_r = nnz — the repository's mean points
  per label, most labels with a handful of points and a few with thousands (α = 0.75 for Amazon-670K);
- **rows**: every point has at least one label, 1 + Poisson(labels per point − 1) of them, their sum made
  nnz; the label occurrences are dealt to the rows' slots in a random order (a configuration model), an
  occurrence that repeats a label of its row dealt again among random slots until none does.

Amazon-670K's shape comes out as published (seed 0: 5.45 labels per point, 3.99 points per label); where one
label is on most rows (AmazonCat-13K, Delicious-200K) some of its occurrences cannot find a row of their own
and the matrix keeps fewer labels per point (4.41 of 5.04, 69.7 of 75.5). Labels co-occur at random here (the
real data's label structure is not published); what stratification meets first at this scale, the many
labels with fewer points than folds, follows the law. Seeded: the same (shape, seed) gives the same matrix.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError

# name: (points in the training split, labels, labels per point), from the repository's table
REPOSITORY = {
    "EURLex-4K": (15_539, 3_993, 5.31),
    "Wiki10-31K": (14_146, 30_938, 18.64),
    "AmazonCat-13K": (1_186_239, 13_330, 5.04),
    "Delicious-200K": (196_606, 205_443, 75.54),
    "Amazon-670K": (490_449, 670_091, 5.45),
}


def label_frequencies(points: int, labels: int, positives: int) -> np.ndarray:
    """f_r = min(points, max(1, ⌊(labels / r)^α⌋)), r = 1 … labels, with α ≥ 0 such that Σ f_r is the closest
    to ``positives`` (bisection on α; Σ f_r rises with α). Descending."""
    if not labels <= positives <= points * labels:
        raise StratbenchError(f"{positives} positives cannot give each of {labels} labels at least one of "
                              f"{points} points: they must lie in [{labels}, {points * labels}]")
    base = labels / np.arange(1, labels + 1, dtype=np.float64)

    def frequencies(alpha: float) -> np.ndarray:
        return np.clip(np.floor(base**alpha), 1, points).astype(np.int64)

    low, high = 0.0, 1.0
    while frequencies(high).sum() < positives and high < 64:
        low, high = high, 2 * high
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if frequencies(mid).sum() < positives else (low, mid)
    below, above = frequencies(low), frequencies(high)
    return below if positives - below.sum() <= above.sum() - positives else above


def generate(points: int, labels: int, per_point: float, seed: int = 0) -> sp.csr_matrix:
    """A points × labels 0/1 CSR matrix (int8) with ``per_point`` labels a point on average (module doc)."""
    if points < 1 or labels < 1 or per_point < 1:
        raise StratbenchError(f"an extreme label matrix needs points, labels and labels per point ≥ 1, got "
                              f"{points}, {labels}, {per_point}")
    rng = np.random.default_rng(seed)
    positives = min(round(points * per_point), points * labels)
    positives = max(positives, labels, points)
    frequency = label_frequencies(points, labels, positives)
    total = int(frequency.sum())
    sizes = 1 + rng.poisson(max(per_point - 1.0, 0.0), points)
    sizes = np.minimum(sizes, labels)
    _match_total(sizes, total, labels, rng)
    occurrences = np.repeat(np.arange(labels, dtype=np.int64), frequency)
    rng.shuffle(occurrences)
    rows = np.repeat(np.arange(points, dtype=np.int64), sizes)
    _separate_repeats(rows, occurrences, labels, rng)
    Y = sp.csr_matrix((np.ones(total, dtype=np.int8), (rows, occurrences)), shape=(points, labels))
    Y.data[:] = 1  # a label still dealt twice to one row: kept once
    Y.sort_indices()
    return Y


def _separate_repeats(rows: np.ndarray, occurrences: np.ndarray, labels: int, rng: np.random.Generator,
                      rounds: int = 30) -> None:
    """Deal the occurrences that repeat a label of their row again, with as many at random slots (a random
    permutation among those slots), until none repeats, or ``rounds`` passes, or a pass removes less than a
    tenth of them (a label on most rows cannot avoid them): frequent labels would otherwise lose positives."""
    before = len(occurrences)
    for _ in range(rounds):
        keys = rows * labels + occurrences
        order = np.argsort(keys, kind="stable")
        repeat = order[1:][np.diff(keys[order]) == 0]
        if len(repeat) == 0 or len(repeat) > 0.9 * before:  # none left, or a head label's that cannot fit
            return
        before = len(repeat)
        slots = np.unique(np.concatenate([repeat, rng.integers(0, len(occurrences), len(repeat))]))
        occurrences[slots] = occurrences[rng.permutation(slots)]


def _match_total(sizes: np.ndarray, total: int, labels: int, rng: np.random.Generator) -> None:
    """Add or remove one slot at a time from random rows (never below 1 nor above ``labels``) until the
    sizes sum to ``total``."""
    gap = total - int(sizes.sum())
    while gap != 0:
        step = 1 if gap > 0 else -1
        pick = rng.integers(0, len(sizes), abs(gap))
        pick = np.unique(pick)
        room = sizes[pick] < labels if step > 0 else sizes[pick] > 1
        pick = pick[room][:abs(gap)]
        if len(pick) == 0:
            raise StratbenchError(f"{total} positives do not fit {len(sizes)} points of 1 to {labels} labels")
        sizes[pick] += step
        gap -= step * len(pick)


def repository_matrix(name: str, seed: int = 0, scale: float = 1.0) -> sp.csr_matrix:
    """:func:`generate` with the shape of a dataset of :data:`REPOSITORY`; ``scale`` < 1 shrinks its points and
    labels alike (labels per point kept)."""
    if name not in REPOSITORY:
        raise StratbenchError(f"unknown extreme dataset {name!r}; known: {', '.join(REPOSITORY)}")
    points, labels, per_point = REPOSITORY[name]
    return generate(max(1, round(points * scale)), max(1, round(labels * scale)), per_point, seed)
