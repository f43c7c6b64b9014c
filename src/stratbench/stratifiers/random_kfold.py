"""Random k-fold: contiguous windows over a seeded shuffle of the rows (Sechidis 2011 "random")."""

from __future__ import annotations

from stratbench.stratifiers import register
from stratbench.stratifiers._base import MultilabelStratifier, windows


@register("random")
class RandomKFold(MultilabelStratifier):
    """k-fold cross-validation (or a holdout split) on randomly permuted rows; ignores the labels.

    Fold sizes follow scikit-learn's ``KFold``: ⌈n/k⌉ for the first n mod k folds, ⌊n/k⌋ after.

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("random", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [1, 1, 0, 0, 1, 0]
    """

    equal_sizes = True

    def _assign(self, Y, ratios, rng):
        return windows(rng.permutation(Y.shape[0]), ratios)
