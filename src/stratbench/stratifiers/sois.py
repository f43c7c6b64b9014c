"""Second-order iterative stratification (SOIS; Szymański & Kajdanowicz, LIDTA/PMLR 74, 2017).

The paper's procedure (docs/ALGORITHMS.md §2): one pool Λ of every label (i, i) and every co-occurring
pair (i, j); desired counts c_j^e = |D^e|·r_j and c_j = n·r_j. Repeatedly take the combination with
the fewest remaining examples (ties at random), deal each remaining example that carries it to the
fold with the largest c_j^e, ties by the largest c_j, further ties at random, and decrement the
desires of every label and pair of that example. Label-less examples go last to the fold with the
largest c_j. When the pairs are used up, what remains is IS over single labels.

``select`` picks the variant of the combination choice:
- ``paper`` (default): fewest remaining examples among labels and pairs, ties at random;
- ``docstring``: fewest remaining, ties → a pair before a label, then at random (the released code's
  stated intent);
- ``pairs_first``: the pair with the fewest remaining while any pair has examples, then labels
  (scikit-multilearn PR #305);
- ``skmultilearn``: the selection scikit-multilearn 0.1/0.2 actually runs — the first combination in
  order of first appearance with remaining examples; if it is a label with s remaining, the first
  later pair with fewer than s remaining instead. An O(C) scan per choice, as in the original.
``rules="skmultilearn"`` follows the rest of what scikit-multilearn 0.2.0 runs as well (docs/ALGORITHMS.md
§1.3 items 2–4, with the ``skmultilearn`` selection): a combination's examples in descending row order,
fold ties at random among the folds with the largest c_j^e (no overall-desire criterion), examples
without labels in descending order to a random fold among those with c_j > 0.

Compiled (numba): bucket queues keyed by the remaining count give the fewest-remaining choice in
amortised O(1), so the run is O(Σ_x |Y_x|² + n·k) after the O(Σ_x |Y_x|² log) combination build.
"""

from __future__ import annotations

import numpy as np

from stratbench import StratbenchError
from stratbench._kernels._compile import call
from stratbench._kernels.sois import sois_kernel
from stratbench._warn import renamed
from stratbench.labels import label_combinations
from stratbench.stratifiers import register
from stratbench.stratifiers.base import RULES, MultilabelStratifier

SELECT = {"paper": 0, "docstring": 1, "pairs_first": 2, "skmultilearn": 3}


def combination_weights(comb, label_weights: np.ndarray) -> np.ndarray:
    """Each combination's weight: its label's, or for a pair (a, b) the mean (w_a + w_b) / 2."""
    label_weights = np.asarray(label_weights, dtype=np.float64)
    return 0.5 * (label_weights[comb.first] + label_weights[comb.second])


def sois_fold_ids(Y, ratios, seed, select="paper", rules="paper", label_weights=None, comb=None):
    """Run the SOIS kernel; with ``label_weights``, the combination taken next is the one of least remaining
    examples / :func:`combination_weights` (None: the paper's rule)."""
    comb = label_combinations(Y) if comb is None else comb
    weights = np.ones(len(comb.first)) if label_weights is None else combination_weights(comb, label_weights)
    return call(sois_kernel, row_ptr=comb.row_ptr, row_combos=comb.row_combos, combo_ptr=comb.combo_ptr,
                combo_rows=comb.combo_rows, is_pair=comb.is_pair, insertion=comb.insertion,
                ratios=np.asarray(ratios, dtype=np.float64), seed=np.uint64(seed), mode=SELECT[select],
                skmultilearn=rules == "skmultilearn", combo_weights=weights, weighted=label_weights is not None)


@register("sois")
class SecondOrderIterativeStratifier(MultilabelStratifier):
    """SOIS (Szymański & Kajdanowicz 2017) as a k-fold cross-validator (or holdout split).

    Column weights (a :class:`~stratbench.labels.TargetTable`'s): the combination taken next is the one of
    least remaining examples / weight, a pair weighing the mean of its two labels' weights (an O(C) scan per
    choice instead of the bucket queues); ``select``'s tie rules apply to those keys. Not under
    ``rules="skmultilearn"``.

    Parameters
    ----------
    select : {"paper", "docstring", "pairs_first", "skmultilearn"}, default="paper"
        The variant of the combination choice (the module docstring).
    shuffle : bool, default=False
        Permute the rows before stratifying, so the order in which a combination's examples are dealt is random
        (False: data order).
    rules : {"paper", "skmultilearn"}, default="paper"
        The algorithm as published, or the released code's rules throughout, with our seeded draws (implies
        ``select="skmultilearn"``).

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("sois", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [0, 1, 0, 1, 1, 0]
    """
    reference = "Szymański & Kajdanowicz, PMLR 74 (LIDTA 2017)"
    kernels = (sois_kernel,)
    compile_seconds = 4

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 select="paper", shuffle=False, rules="paper"):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.select = select
        self.shuffle = shuffle
        self.rules = rules

    weighs_labels = True

    def _assign(self, Y, ratios, rng, label_weights=None):
        if self.select not in SELECT:
            raise StratbenchError(f"select must be one of {list(SELECT)}, got {self.select!r}")
        if self.rules not in RULES:
            raise StratbenchError(f"rules must be one of {RULES}, got {self.rules!r}")
        select = "skmultilearn" if self.rules == "skmultilearn" else self.select
        if self.rules == "skmultilearn" and self.select not in ("paper", "skmultilearn"):
            raise StratbenchError(f"rules='skmultilearn' selects as scikit-multilearn does; select={self.select!r} "
                                  "applies to the paper's variant only")
        if label_weights is not None and self.rules == "skmultilearn":
            raise StratbenchError("rules='skmultilearn' takes combinations in order of first appearance: it cannot "
                                  "weigh columns; use rules='paper' with weights")
        seed = int(rng.integers(0, 2**63))
        if not self.shuffle:
            return sois_fold_ids(Y, ratios, seed, select, self.rules, label_weights)
        order = rng.permutation(Y.shape[0])
        folds = np.empty(Y.shape[0], dtype=np.int64)
        folds[order] = sois_fold_ids(Y[order], ratios, seed, select, self.rules, label_weights)
        return folds

__getattr__ = renamed(__name__, {"SecondOrderIterativeStratification": "SecondOrderIterativeStratifier"})  # the old name, for one release
