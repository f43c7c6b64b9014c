"""The label matrix, the ground floor every other part of stratbench stands on.

- :func:`as_label_matrix` checks a user's ``y`` once, at the boundary, and gives the CSR int8 0/1
  matrix every stratifier, measure and classifier works on (a valid one passes without a copy);
- :func:`label_combinations` and :func:`fold_counts`: the labels and co-occurring label pairs of each
  example, and their counts per fold (docs/ALGORITHMS.md §2);
- :func:`labelset_ids`: each example's label combination as a class id (label powerset);
- :func:`apportion`: integer subset sizes from shares (largest remainder);
- :func:`one_hot_outputs`: a multiclass-multioutput ``y``, declared as such, as a column per (output, class);
- :func:`from_label_lists`: a column of label lists (pandas, Hugging Face ``datasets``) as a column per label;
- :class:`TargetTable`: further columns to stratify on (labels, multiclass, counts, binned continuous values),
  each of a declared kind and weight, expanded into weighted 0/1 indicators.

Nothing here imports another stratbench module but :class:`stratbench.StratbenchError`.
"""

from stratbench.labels.combinations import Combinations, fold_counts, label_combinations
from stratbench.labels.matrix import apportion, as_label_matrix, from_label_lists, labelset_ids, one_hot_outputs
from stratbench.labels.targets import TargetTable, with_strata

__all__ = ["Combinations", "apportion", "as_label_matrix", "fold_counts", "from_label_lists", "label_combinations",
           "labelset_ids", "one_hot_outputs", "TargetTable", "with_strata"]
