"""The checks scikit-learn's splitters make, with scikit-learn's messages where a user knows them: the
number of splits, the lengths of X, y and groups, fold shares, and the keywords a splitter takes. Every
splitter of stratbench (the registered methods and :mod:`stratbench.model_selection`) runs them, so that
no input it should refuse ever yields a split."""

from __future__ import annotations

import numbers

import numpy as np

from stratbench import StratbenchError


def num_samples(a) -> int:
    """The number of rows of an array-like (its ``shape[0]``, else its length); a scalar stops."""
    shape = getattr(a, "shape", None)
    if shape is not None:
        if len(shape) == 0:
            raise StratbenchError(f"expected an array with rows, got a scalar {a!r}")
        return int(shape[0])
    try:
        return len(a)
    except TypeError:
        raise StratbenchError(f"expected an array-like with rows, got {type(a).__name__}") from None


def check_consistent_length(**arrays) -> int:
    """The common number of rows of the given arrays (None ones skipped); differing lengths stop with
    scikit-learn's message and the arrays named.

    >>> check_consistent_length(X=[[0], [1]], y=[[1], [0]], groups=None)
    2
    """
    lengths = {name: num_samples(a) for name, a in arrays.items() if a is not None}
    if len(set(lengths.values())) > 1:
        named = ", ".join(f"{name} {n}" for name, n in lengths.items())
        raise StratbenchError(f"Found input variables with inconsistent numbers of samples: {list(lengths.values())} "
                              f"({named})")
    return next(iter(lengths.values()), 0)


def check_groups(groups, n: int) -> np.ndarray | None:
    """``groups`` as scikit-learn's ``GroupKFold`` takes them (``check_array(groups, ensure_2d=False, dtype=None)``:
    no NaN or infinity), one id per example (1-d, ``n`` of them), and ids that sort, as grouping needs: a None id,
    or ids of mixed types, stop with a message naming the first, never numpy's sort error or a silent merge.

    >>> check_groups(["a", "b", "a"], 3).tolist()
    ['a', 'b', 'a']
    """
    if groups is None:
        return None
    from sklearn.utils import check_array

    try:
        groups = check_array(groups, input_name="groups", ensure_2d=False, dtype=None)
    except ValueError as exc:
        raise StratbenchError(f"groups: {exc} Give every example a group id (NaN is none).") from None
    if groups.ndim != 1:
        raise StratbenchError(f"groups must be one label per example (1-d), got an array of shape {groups.shape}")
    check_consistent_length(y=np.empty(n), groups=groups)
    if groups.dtype == object:
        missing = next((i for i, g in enumerate(groups) if g is None), None)
        if missing is not None:
            raise StratbenchError(f"groups[{missing}] is None: give every example a group id")
        try:
            np.unique(groups)
        except TypeError:
            kinds = sorted({type(g).__name__ for g in groups})
            raise StratbenchError(f"groups mix ids of types {kinds} that do not sort together: use one kind "
                                  "(all numbers or all strings)") from None
    return groups


def check_n_splits(n_splits, least: int = 2) -> None:
    """An integer ≥ ``least`` (2 for k folds; 1 for repeated holdout), as scikit-learn's ``KFold`` checks it."""
    if not isinstance(n_splits, numbers.Integral) or isinstance(n_splits, bool):
        raise StratbenchError(f"n_splits must be an integer, got {n_splits!r} of type {type(n_splits).__name__}")
    if n_splits < least:
        what = "at least one train/test split: n_splits=2 or more" if least == 2 else "n_splits ≥ 1"
        raise StratbenchError(f"n_splits={n_splits}: cross-validation needs {what}")


def check_splits_fit(n_splits: int, n_samples: int, n_groups: int | None = None) -> None:
    """k no larger than the rows (or the groups, which are split whole), scikit-learn's messages."""
    if n_splits > n_samples:
        raise StratbenchError(f"Cannot have number of splits n_splits={n_splits} greater than the number of samples: "
                              f"n_samples={n_samples}.")
    if n_groups is not None and n_splits > n_groups:
        raise StratbenchError(f"Cannot have number of splits n_splits={n_splits} greater than the number of groups: "
                              f"n_groups={n_groups}.")


def check_fold_shares(shares, n_splits: int | None, name: str = "fold_shares", normalised: bool = False) -> np.ndarray:
    """Each fold's share: ``n_splits`` (when given) finite positive numbers, summing to 1 when ``normalised``
    (a distribution, as scikit-multilearn's ``sample_distribution_per_fold`` is one)."""
    try:
        values = np.asarray(shares, dtype=float)
    except (TypeError, ValueError):
        raise StratbenchError(f"{name} must be a list of numbers, got {shares!r}") from None
    if values.ndim != 1 or len(values) < 2 or not np.all(np.isfinite(values)) or np.any(values <= 0):
        raise StratbenchError(f"{name} must be 2 or more positive numbers, got {shares!r}")
    if n_splits is not None and len(values) != n_splits:
        raise StratbenchError(f"{name} has {len(values)} shares for n_splits={n_splits}: give one share per fold")
    if normalised and abs(values.sum() - 1) > 1e-6:
        raise StratbenchError(f"{name} must sum to 1 (each fold's share of the rows), got {shares!r} (sum "
                              f"{values.sum():.6g})")
    return values


def check_keywords(owner: str, given: dict, accepted: list[str] | None, context: str = "") -> None:
    """Unknown keywords stop at construction with a TypeError naming them and the accepted ones, as Python and
    scikit-learn's estimators do (a misspelled ``n_split=5`` must not build a splitter of 3 folds)."""
    if accepted is None:
        return
    unknown = [k for k in given if k not in accepted]
    if unknown:
        raise TypeError(f"{owner} got an unexpected keyword argument {unknown[0]!r}{context}; it takes "
                        f"{', '.join(accepted)}")
