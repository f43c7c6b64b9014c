"""Plain k-fold: contiguous windows in the dataset's row order, no shuffling (Szymański 2017's
baseline, docs/ALGORITHMS.md §0). Deterministic: ``random_state`` is ignored."""

from __future__ import annotations

import numpy as np

from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier
from stratbench.stratifiers.sizes import windows


@register("kfold")
class KFold(MultilabelStratifier):
    """Fold j holds a contiguous block of rows; the first n mod k blocks are one row larger
    (scikit-learn ``KFold(shuffle=False)``).

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("kfold", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [0, 0, 0, 1, 1, 1]
    """
    reference = "unshuffled k-fold (the k-fold row of Szymański & Kajdanowicz 2017)"

    equal_sizes = True
    seeded = False

    def _assign(self, Y, ratios, rng):
        return windows(np.arange(Y.shape[0]), ratios)
