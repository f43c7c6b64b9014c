"""The method of ``maestros`` (PyPI, 2023; ``multilabel_stratified_group_split``) as k folds: iterstrat's
``MultilabelStratifiedKFold`` over the groups, each group one row carrying the union of its members'
labels, its size ignored (a grouped-track baseline; maestros itself returns one train/test split,
the first of these k folds)."""

from __future__ import annotations

import warnings

import numpy as np

from stratbench.stratifiers import register
from stratbench.stratifiers.groups._baseline import GroupBaseline, folds_of_splits


@register("maestros")
class MaestrosBaseline(GroupBaseline):
    """maestros's grouped multi-label split as k folds: ``MultilabelStratifiedKFold(shuffle=True)``
    (iterative-stratification 0.1.9) over the groups' label unions. Needs ``groups`` and the
    ``iterative-stratification`` package.

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import stratifiers
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)  # three labels, four examples each
    >>> folds = stratifiers.get("maestros", n_splits=3, random_state=0).fold_ids(Y, groups=np.arange(12) // 2)
    >>> np.bincount(folds).tolist(), [np.bincount(folds[Y[:, l] == 1], minlength=3).tolist() for l in range(3)]
    ([4, 4, 4], [[0, 2, 2], [2, 2, 0], [2, 0, 2]])
    """
    reference = "maestros (PyPI, 2023): iterative-stratification over group labelsets"
    delegates_to = ("iterative-stratification",)

    def _row_folds(self, Y, member, k, seed):
        from iterstrat.ml_stratifiers import MultilabelStratifiedKFold

        n_groups = int(member.max()) + 1
        union = np.zeros((n_groups, Y.shape[1]), dtype=bool)
        rows, cols = Y.nonzero()
        union[member[rows], cols] = True
        cv = MultilabelStratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            group_folds = folds_of_splits(cv.split(np.zeros((n_groups, 1)), union), n_groups)
        return group_folds[member]
