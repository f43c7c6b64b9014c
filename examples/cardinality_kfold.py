"""A user's own stratifier, in its own file: k-fold stratified on the number of labels per example.

Not part of stratbench — an example of adding a method. The config names it by dotted path
(``class: cardinality_kfold.CardinalityKFold``) and lists this folder under ``import_paths``.
"""

import numpy as np

from stratbench.stratifiers import MultilabelStratifier
from stratbench.stratifiers.labelset import weighted_round_robin


class CardinalityKFold(MultilabelStratifier):
    """Shuffle the rows, group them by label cardinality |Y_x| (capped at ``cap``: every example with
    ``cap`` or more labels is one group) and deal the groups round robin over the folds, so every
    fold gets the same mix of label-less, single-label and multi-label examples."""

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 cap=4):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.cap = cap

    def _assign(self, Y, ratios, rng):
        # Y: CSR 0/1 (n × L); ratios: the desired share of each subset; rng: a seeded numpy Generator
        cardinality = np.minimum(np.diff(Y.indptr), self.cap)
        order = rng.permutation(Y.shape[0])
        grouped = order[np.argsort(cardinality[order], kind="stable")]
        folds = np.empty(Y.shape[0], dtype=np.int64)
        folds[grouped] = weighted_round_robin(len(grouped), ratios)
        return folds
