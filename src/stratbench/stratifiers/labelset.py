"""Labelset (label-powerset) stratification (Sechidis 2011 "labelsets"; MULAN's
``LabelPowersetStratification`` with Weka's stratification; docs/ALGORITHMS.md §3).

Each distinct labelset (the empty one included) is a class. The rows are shuffled, grouped by class
(classes in order of first appearance in the shuffled sequence, members in sequence order) and
dealt round robin: position p of the grouped sequence goes to fold p mod k. A labelset with m
members gets ⌊m/k⌋ or ⌈m/k⌉ of them in each fold; labelsets rarer than k land in consecutive folds
of the round robin, as Weka deals them (no warning, no error). Holdout mode deals with a smooth
weighted round robin, which reduces to p mod k for equal shares.
"""

from __future__ import annotations

import numpy as np

from stratbench._warn import renamed
from stratbench.labels import labelset_ids
from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier


def weighted_round_robin(n: int, ratios: np.ndarray) -> np.ndarray:
    """Subset of positions 0…n−1 dealt by smooth weighted round robin (equal ratios: p mod k)."""
    ratios = np.asarray(ratios, dtype=float)
    if np.allclose(ratios, ratios[0]):
        return np.arange(n) % len(ratios)
    current = np.zeros(len(ratios))
    out = np.empty(n, dtype=np.int64)
    for p in range(n):
        current += ratios
        j = int(np.argmax(current))
        current[j] -= 1.0
        out[p] = j
    return out


@register("labelset")
class LabelsetStratifier(MultilabelStratifier):
    """Stratified k-fold over labelsets (label powerset classes), Weka's round-robin deal.

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("labelset", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [0, 1, 1, 0, 1, 0]
    """
    reference = "Sechidis et al. 2011 (labelsets; MULAN)"

    equal_sizes = True

    def _assign(self, Y, ratios, rng):
        order = rng.permutation(Y.shape[0])
        classes = labelset_ids(Y[order])  # ids in order of first appearance in the shuffled rows
        grouped = order[np.argsort(classes, kind="stable")]
        folds = np.empty(Y.shape[0], dtype=np.int64)
        folds[grouped] = weighted_round_robin(len(grouped), ratios)
        return folds

__getattr__ = renamed(__name__, {"LabelsetStratification": "LabelsetStratifier"})  # the old name, for one release
