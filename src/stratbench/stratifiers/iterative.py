"""Iterative stratification (Sechidis, Tsoumakas & Vlahavas, ECML PKDD 2011, Algorithm 1).

Desired counts c_j = n·r_j and c_j^i = |D_i|·r_j (reals, decremented per assignment). Repeatedly
take the label with the fewest remaining positives (ties at random, or the lowest index as MULAN
does), and deal each of its remaining examples to the fold with the largest c_j^l, ties by the
largest c_j, further ties at random. Examples without labels go last, each to the fold with the
largest c_j (MULAN's special case). docs/ALGORITHMS.md §1.1.

``rules="skmultilearn"`` follows the rules scikit-multilearn 0.2.0 runs instead (docs/ALGORITHMS.md §1.3,
items 1–4; the code behind the IS rows of Szymański 2017 and Tiittanen 2021): the label taken is the
first, in order of first appearance, that has examples left; its examples go in descending row order;
fold ties are broken at random among the folds with the largest c_j^l (no overall-desire criterion);
examples without labels go in descending order, each to a fold drawn at random among those with
c_j > 0. Its randomness is ours (seeded), not scikit-multilearn's global RNG: its rules, not its folds (those
are ``IterativeStratification(compat="skmultilearn")`` in :mod:`stratbench.model_selection`).

The loop is sequential by nature; it runs compiled (:mod:`stratbench._kernels.iterative`) over the CSR rows and
CSC columns of Y, the label with the fewest remaining positives kept in a segment tree: O((nnz + q) log q + n·k)
time, O(k·q) extra memory. A random label tie is one uniform draw among the tied labels.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench._kernels._compile import call
from stratbench._kernels.iterative import iterative_kernel
from stratbench.stratifiers import register
from stratbench.stratifiers.base import RULES, MultilabelStratifier

LABEL_TIES = ("random", "lowest_index")


def first_appearance(Y: sp.csr_matrix) -> np.ndarray:
    """Labels in order of first appearance, reading rows top-down and each row's labels ascending
    (scikit-multilearn's combination dict order); labels without positives last."""
    Y = sp.csr_matrix(Y)
    Y.sort_indices()
    rows = np.repeat(np.arange(Y.shape[0]), np.diff(Y.indptr))
    first = np.full(Y.shape[1], Y.shape[0], dtype=np.int64)
    np.minimum.at(first, Y.indices, rows)
    return np.lexsort((np.arange(Y.shape[1]), first)).astype(np.int64)


def iterative_fold_ids(Y: sp.csr_matrix, ratios: np.ndarray, seed: int, label_ties: str = "random",
                       rules: str = "paper", weights: np.ndarray | None = None, label_weights: np.ndarray | None = None):
    """Run the IS kernel on CSR ``Y`` with subset proportions ``ratios``. With ``weights``, a row is a
    group of that many examples and ``Y`` holds its positive counts per label. With ``label_weights``, the
    label dealt next is the one of least remaining positives / weight (None: all 1, the paper's rule)."""
    Y = sp.csr_matrix(Y)
    Y.sort_indices()
    C = Y.tocsc()
    C.sort_indices()
    weights = np.ones(Y.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    return call(
        iterative_kernel, indptr=Y.indptr.astype(np.int64), indices=Y.indices.astype(np.int64),
        counts=Y.data.astype(np.float64), col_ptr=C.indptr.astype(np.int64), col_rows=C.indices.astype(np.int64),
        ratios=np.asarray(ratios, dtype=np.float64), weights=weights, seed=np.uint64(seed),
        random_label_ties=label_ties == "random", label_order=first_appearance(Y), skmultilearn=rules == "skmultilearn",
        label_weights=np.ones(Y.shape[1]) if label_weights is None else np.asarray(label_weights, dtype=np.float64),
    )


@register("iterative")
class IterativeStratifier(MultilabelStratifier):
    """Iterative stratification (Sechidis et al. 2011) as a k-fold cross-validator.

    Column weights (a :class:`~stratbench.labels.TargetTable`'s): the label dealt next is the one of least
    remaining positives / weight, so a heavier column's examples are dealt earlier, while every fold's desire
    for them is still open (the paper's rule where every weight is 1). Not under ``rules="skmultilearn"``.

    Parameters
    ----------
    shuffle : bool, default=False
        Permute the rows before stratifying (as ``iterstrat``'s ``shuffle=True``), so the order in which a
        label's examples are dealt is random. False: data order, as the paper's pseudo-code and MULAN's
        IterativeStratification deal them (datasets stored grouped by labelset then deal identical labelsets
        round robin, which lowers LD: scene 0.0032 in data order vs 0.0036 shuffled, yeast 0.040 vs 0.043).
        True is the paper's experiments: MULAN's cross-validation randomises the rows before it splits
        (config/sechidis2011.yaml).
    label_ties : {"random", "lowest_index"}, default="random"
        A tie between labels of equally few remaining positives: drawn at random (the paper) or the lowest
        index (MULAN's implementation).
    rules : {"paper", "skmultilearn"}, default="paper"
        The algorithm as published, or the tie and order rules scikit-multilearn 0.2.0 runs, with our seeded
        draws (the module docstring); ``label_ties`` does not apply to the latter.

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("iterative", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [1, 0, 0, 1, 1, 0]
    """
    reference = "Sechidis, Tsoumakas & Vlahavas, ECML PKDD 2011"
    kernels = (iterative_kernel,)
    compile_seconds = 4

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 shuffle=False, label_ties="random", rules="paper"):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.shuffle = shuffle
        self.label_ties = label_ties
        self.rules = rules

    supports_groups = True
    weighs_labels = True

    def _assign(self, Y, ratios, rng, label_weights=None):
        return self._assign_groups(Y, None, ratios, rng, label_weights=label_weights)

    def _assign_groups(self, Y, sizes, ratios, rng, rows=None, label_weights=None):
        """IS over rows that are examples (``sizes`` None) or groups: a group is dealt whole, to the fold
        that most desires the label being processed, and takes from every desire as many positives as
        it holds and from the fold's size as many examples (singleton groups: the same folds as IS)."""
        if self.label_ties not in LABEL_TIES:
            raise StratbenchError(f"label_ties must be one of {LABEL_TIES}, got {self.label_ties!r}")
        if self.rules not in RULES:
            raise StratbenchError(f"rules must be one of {RULES}, got {self.rules!r}")
        if label_weights is not None and self.rules == "skmultilearn":
            raise StratbenchError("rules='skmultilearn' takes labels in order of first appearance: it cannot weigh "
                                  "columns; use rules='paper' with weights")
        seed = int(rng.integers(0, 2**63))
        if not self.shuffle:
            return iterative_fold_ids(Y, ratios, seed, self.label_ties, self.rules, sizes, label_weights)
        order = rng.permutation(Y.shape[0])
        folds = np.empty(Y.shape[0], dtype=np.int64)
        folds[order] = iterative_fold_ids(Y[order], ratios, seed, self.label_ties, self.rules,
                                          None if sizes is None else sizes[order], label_weights)
        return folds
