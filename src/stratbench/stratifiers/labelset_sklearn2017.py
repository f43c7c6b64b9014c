"""The "labelset" row of Szymański & Kajdanowicz 2017: scikit-learn 0.18/0.19's ``StratifiedKFold``
applied to each example's label combination as its class, unshuffled (docs/ALGORITHMS.md §3).

That code splits every class on its own: its c members, in row order, take the positions 0 … c−1 of
an unshuffled ``KFold(k)`` over max(c, k) positions (the first m mod k windows one larger), and the
positions ≥ c are dropped. A class rarer than k therefore puts its members into folds 0, 1, … in turn:
fold 0 holds every label combination, the last folds are starved and the fold sizes very unequal
(bibtex, k = 10: the share of label pairs without evidence 0.8497 ± 0.287, published 0.851 ± 0.29;
Sechidis's labelset stratification, our ``labelset``, gives 0.689 ± 0.024). 0.19's ``shuffle=True``
with an integer seed permutes every class of the same size identically, so it piles up alike.
Today's scikit-learn (≥ 0.22) allocates differently and does not reproduce the published row.
"""

from __future__ import annotations

import numpy as np

from stratbench.labels import apportion, labelset_ids
from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier


def window_of(position: np.ndarray, m: np.ndarray, ratios: np.ndarray) -> np.ndarray:
    """The window that holds ``position`` when m positions are cut into contiguous windows of sizes
    ``apportion(m, ratios)`` (equal shares: unshuffled ``KFold``'s, ⌈m/k⌉ for the first m mod k windows).

    >>> window_of(np.arange(7), np.full(7, 7), np.full(3, 1 / 3)).tolist()
    [0, 0, 0, 1, 1, 2, 2]
    """
    out = np.empty(len(position), dtype=np.int64)
    for size in np.unique(m):
        at = m == size
        ends = np.cumsum(apportion(int(size), ratios))
        out[at] = np.searchsorted(ends, position[at], side="right")
    return out


def class_ranks(classes: np.ndarray) -> np.ndarray:
    """Each example's 0-based rank among the members of its class, in row order.

    >>> class_ranks(np.array([0, 1, 0, 0, 1])).tolist()
    [0, 0, 1, 2, 1]
    """
    order = np.argsort(classes, kind="stable")
    counts = np.bincount(classes)
    rank = np.empty(len(classes), dtype=np.int64)
    rank[order] = np.arange(len(classes)) - np.repeat(np.cumsum(counts) - counts, counts)
    return rank


@register("labelset_sklearn2017")
class LabelsetSklearn2017(MultilabelStratifier):
    """scikit-learn 0.18/0.19 ``StratifiedKFold`` on labelsets, unshuffled: what Szymański &
    Kajdanowicz 2017 ran as "labelset". Deterministic (``random_state`` is not used). With unequal
    ``fold_shares`` or in holdout mode each class is cut by the same rule at the subsets' shares.

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 0], [1, 0]]
    >>> stratifiers.get("labelset_sklearn2017", n_splits=3).fold_ids(Y).tolist()
    [0, 0, 0, 1, 0, 1, 2]
    """
    reference = "Szymański & Kajdanowicz 2017 (scikit-learn 0.19 StratifiedKFold on labelsets)"

    seeded = False

    def _assign(self, Y, ratios, rng):
        classes = labelset_ids(Y)
        m = np.maximum(np.bincount(classes), len(ratios))[classes]
        return window_of(class_ranks(classes), m, ratios)
