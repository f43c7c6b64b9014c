"""The hybrid's local search over whole groups (``split(X, y, groups)``): stratbench's own.

With groups, the hybrid (:mod:`stratbench.stratifiers.hybrid`) starts from grouped IS and moves or
swaps whole groups. A group g holds a_c^g examples of each combination c (a label, or a co-occurring
label pair); moving it from subset a to subset b changes the hybrid's objective F (same weights w_c,
DCP hinge h_c and evidence rewards f) by

    ΔF = Σ_c w_c [(c_a − a − t_a)² − (c_a − t_a)² + (c_b + a − t_b)² − (c_b − t_b)²]
         + h_c [hinge changes] − f · (cells filled − cells emptied),

and the subsets' sizes by ∓|g| examples. A move or swap is taken only if F drops, the number of empty
(subset, label) cells does not rise, and both subsets stay within the start's largest size error
max_j |s_j − T_j| (in examples, at least 1) of their targets: grouped IS's sizes are as close as its
dealing of the groups made them, and no subset ends further off than the worst of them.
Per pass every group, in a seeded random order, tries its best move, else its best swap with
``samples`` random groups of each other subset. O(k · Σ_g |combinations of g|) a pass.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def group_combinations(comb, member: np.ndarray, n_groups: int) -> sp.csr_matrix:
    """Groups × combinations: how many of a group's examples carry each label and co-occurring pair
    (from the rows' combinations ``comb``, :func:`stratbench.labels.label_combinations`)."""
    lengths = np.diff(comb.row_ptr)
    rows = np.repeat(member, lengths)
    out = sp.csr_matrix((np.ones(len(rows)), (rows, comb.row_combos.astype(np.int64))),
                        shape=(n_groups, len(comb.first)))
    out.sum_duplicates()
    out.sort_indices()
    return out


