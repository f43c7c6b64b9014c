"""Random k-fold: k contiguous windows over a seeded shuffle of the rows (Sechidis 2011 "random")."""

from __future__ import annotations

from stratbench.stratifiers import register
from stratbench.stratifiers._base import MultilabelStratifier, folds_from_order


@register("random")
class RandomKFold(MultilabelStratifier):
    """k-fold cross-validation on randomly permuted rows; ignores the labels.

    Fold sizes follow scikit-learn's ``KFold``: ⌈n/k⌉ for the first n mod k folds, ⌊n/k⌋ after.
    """

    def _fold_ids(self, Y, rng):
        return folds_from_order(rng.permutation(Y.shape[0]), self.n_splits)
