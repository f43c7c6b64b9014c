"""scikit-learn's ``StratifiedGroupKFold`` on each example's labelset as its class (label-powerset
classes): the usual way to stratify multi-label data by groups with scikit-learn (a grouped-track
baseline)."""

from __future__ import annotations

import warnings

import numpy as np

from stratbench import StratbenchError
from stratbench.labels import labelset_ids
from stratbench.stratifiers import register
from stratbench.stratifiers.groups._baseline import GroupBaseline, folds_of_splits


@register("stratified_group_kfold")
class StratifiedGroupKFoldBaseline(GroupBaseline):
    """scikit-learn's ``StratifiedGroupKFold(shuffle=True)`` with each example's labelset as its class
    (greedy: the groups, in order of decreasing class-count spread, each to the fold that keeps the
    classes' shares most even). Needs ``groups``."""
    reference = "scikit-learn StratifiedGroupKFold on labelsets"

    def _row_folds(self, Y, member, k, seed):
        classes = labelset_ids(Y)
        if np.bincount(classes).max() < k:  # scikit-learn's refusal, said in our terms
            raise StratbenchError(f"StratifiedGroupKFold cannot make {k} folds: every labelset (its class) has fewer "
                                  f"than {k} examples")
        from sklearn.model_selection import StratifiedGroupKFold  # imported by the split that uses it

        cv = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # classes rarer than k: every labelset of one example
            return folds_of_splits(cv.split(np.zeros(len(member)), classes, member), len(member))
