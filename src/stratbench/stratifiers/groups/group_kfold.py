"""scikit-learn's ``GroupKFold``: whole groups into k folds of about equal sizes, the labels ignored
(a grouped-track baseline)."""

from __future__ import annotations

import numpy as np

from stratbench.stratifiers import register
from stratbench.stratifiers.groups._baseline import GroupBaseline, folds_of_splits


@register("group_kfold")
class GroupKFoldBaseline(GroupBaseline):
    """scikit-learn's ``GroupKFold`` (groups dealt largest first to the fold with the fewest examples;
    deterministic, labels ignored). Needs ``groups``.

    >>> from stratbench import stratifiers
    >>> stratifiers.get("group_kfold", n_splits=2).fold_ids([[1], [0], [1], [0]], groups=[0, 0, 1, 2]).tolist()
    [0, 0, 1, 1]
    """
    reference = "scikit-learn GroupKFold (Pedregosa et al. 2011)"

    seeded = False
    delegates_to = ("scikit-learn",)

    def _row_folds(self, Y, member, k, seed):
        from sklearn.model_selection import GroupKFold  # imported by the split that uses it

        return folds_of_splits(GroupKFold(n_splits=k).split(np.zeros(len(member)), groups=member), len(member))
