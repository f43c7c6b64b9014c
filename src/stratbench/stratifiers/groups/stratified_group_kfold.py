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

STRATIFIES_FROM = (1, 8)  # scikit-learn #32478, fixed by #32540 in 1.8: before, shuffle=True stopped stratifying


def check_stratifies(installed: str | None = None) -> None:
    """Refuse a scikit-learn whose ``StratifiedGroupKFold(shuffle=True)`` does not stratify (before 1.8).

    >>> check_stratifies("1.9.1")
    >>> check_stratifies("1.7.2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    stratbench.StratbenchError: stratified_group_kfold needs scikit-learn ≥ 1.8 (installed: 1.7.2): before 1.8, ...
    """
    if installed is None:
        from sklearn import __version__ as installed
    release = tuple(int(part) for part in installed.split(".")[:2] if part.isdigit())
    if release < STRATIFIES_FROM:
        raise StratbenchError(f"stratified_group_kfold needs scikit-learn ≥ 1.8 (installed: {installed}): before 1.8, "
                              "StratifiedGroupKFold(shuffle=True) did not stratify (scikit-learn #32478, fixed by "
                              "#32540); pip install 'scikit-learn>=1.8'")


@register("stratified_group_kfold")
class StratifiedGroupKFoldBaseline(GroupBaseline):
    """scikit-learn's ``StratifiedGroupKFold(shuffle=True)`` with each example's labelset as its class
    (greedy: the groups, in order of decreasing class-count spread, each to the fold that keeps the
    classes' shares most even). Needs ``groups``.

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import stratifiers
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)  # three labels, four examples each
    >>> folds = stratifiers.get("stratified_group_kfold", n_splits=3, random_state=0).fold_ids(Y, groups=np.arange(12) // 2)
    >>> np.bincount(folds).tolist(), [np.bincount(folds[Y[:, l] == 1], minlength=3).tolist() for l in range(3)]
    ([4, 4, 4], [[2, 0, 2], [0, 2, 2], [2, 2, 0]])
    """
    reference = "scikit-learn StratifiedGroupKFold on labelsets"
    delegates_to = ("scikit-learn",)

    def _row_folds(self, Y, member, k, seed):
        check_stratifies()
        classes = labelset_ids(Y)
        if np.bincount(classes).max() < k:  # scikit-learn's refusal, said in our terms
            raise StratbenchError(f"StratifiedGroupKFold cannot make {k} folds: every labelset (its class) has fewer "
                                  f"than {k} examples")
        from sklearn.model_selection import StratifiedGroupKFold  # imported by the split that uses it

        cv = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # classes rarer than k: every labelset of one example
            return folds_of_splits(cv.split(np.zeros(len(member)), classes, member), len(member))
