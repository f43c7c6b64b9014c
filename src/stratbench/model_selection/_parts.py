"""k named parts in one call (train, validation and test, or any k): :class:`MultilabelStratifiedParts` and
:func:`train_validation_test_split`; and the check that every label with enough positives has one in every part
(:func:`labels_missing_a_part`, :func:`place_in_every_part`)."""

from __future__ import annotations

import math
import numbers
import warnings

import numpy as np

from stratbench import StratbenchError, stratifiers
from stratbench.labels import from_label_lists
from stratbench.model_selection._rare import RARE, labels_missing_a_part, place_in_every_part, warn_missing_parts
from stratbench.model_selection._split import _MultilabelSplitter, _prepared, _take, column_names
from stratbench.stratifiers.base import check_random_state
from stratbench.stratifiers.checks import check_consistent_length, check_n_splits
from stratbench.stratifiers.sizes import fit_sizes


def part_sizes(n: int, sizes) -> np.ndarray:
    """Each part's rows, as scikit-learn's ``train_test_split`` rounds its two: a share rounds up for every part
    but the first, which takes the rest; counts are taken as they are and must sum to ``n``.

    >>> part_sizes(101, (0.7, 0.15, 0.15)).tolist()
    [69, 16, 16]
    >>> part_sizes(10, (6, 2, 2)).tolist()
    [6, 2, 2]
    """
    values = check_sizes(sizes)
    if _counts(values):
        if sum(values) != n:
            raise StratbenchError(f"sizes {values} as counts must sum to the {n} rows (they sum to {sum(values)})")
        return np.array(values, dtype=np.int64)
    rest = [math.ceil(v * n) for v in values[1:]]
    first = n - sum(rest)
    if first < 1:
        raise StratbenchError(f"with {n} rows, sizes {values} round to {rest} rows for the parts after the first, "
                              "leaving the first empty; give fewer parts or smaller shares")
    return np.array([first, *rest], dtype=np.int64)


def _counts(values) -> bool:
    return all(isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in values)


def check_sizes(sizes) -> list:
    """The parts' sizes as given: 2 or more counts ≥ 1, or 2 or more shares in (0, 1) summing to 1."""
    try:
        values = list(sizes)
    except TypeError:
        raise StratbenchError(f"sizes must be a list of shares or counts, one per part, got {sizes!r}") from None
    if len(values) < 2:
        raise StratbenchError(f"sizes must give 2 or more parts, got {sizes!r}")
    if _counts(values):
        if min(values) < 1:
            raise StratbenchError(f"sizes {values} as counts must be ≥ 1 each")
        return values
    if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) and 0 < v < 1 for v in values):
        raise StratbenchError(f"sizes must be shares in (0, 1) or counts ≥ 1, all of one kind; got {values!r}")
    if abs(sum(values) - 1) > 1e-9:
        raise StratbenchError(f"sizes {values} as shares must sum to 1 (they sum to {sum(values):.6g})")
    return values


class MultilabelStratifiedParts(_MultilabelSplitter):
    """k named parts of the rows (train, validation and test by default) in one stratified split, ``n_splits``
    independent draws: the method (``"iterative"`` by default, any registered one) splits the rows in a fresh
    random order into k subsets of the parts' shares, moved to the exact sizes of :func:`part_sizes` by the fewest
    label changes (without groups; with ``groups`` every group stays whole and the sizes are as near as the
    groups allow). ``rare``: ``"warn"`` (one warning per split naming the labels left with no positive in some
    part), ``"guarantee"`` (every label with at least k positives gets one in every part, or a StratbenchError
    names the labels that cannot), ``"ignore"``. :meth:`split` yields one tuple of k index arrays per draw.

    Parameters
    ----------
    sizes : sequence of float or of int, default=(0.8, 0.1, 0.1)
        Each part's share (summing to 1) or number of rows (summing to the rows).
    names : sequence of str, default=("train", "validation", "test")
        Each part's name, as warnings name them.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(10, axis=0)
    >>> cv = MultilabelStratifiedParts((0.6, 0.2, 0.2), random_state=0)
    >>> [len(rows) for rows in next(cv.split(None, Y))]
    [18, 6, 6]
    """

    def __init__(self, sizes=(0.8, 0.1, 0.1), names=("train", "validation", "test"), *, n_splits: int = 1,
                 random_state=None, method: str = "iterative", rare: str = "warn", **params):
        self.sizes, self.names, self.n_splits, self.random_state, self.method, self.rare, self.params = (
            sizes, names, n_splits, random_state, method, rare, params)
        self._check_params()

    def _check_params(self):
        """n_splits, rare, sizes, names, the method's name and keywords; the method built for k equal parts, which
        checks random_state and its parameters (the parts' shares are set on it where the rows are known). At
        construction and once per split."""
        check_n_splits(self.n_splits, least=1)
        if self.rare not in RARE:
            raise StratbenchError(f"rare must be one of {RARE}, got {self.rare!r}")
        k = len(check_sizes(self.sizes))
        names = list(self.names)
        if len(names) != k or len(set(names)) != k:
            raise StratbenchError(f"names {names} must name each of the {k} parts once")
        if "fold_shares" in self.params:
            raise TypeError(f"{type(self).__name__} takes sizes, not fold_shares")
        self._check_method(self.method, self.params, None)
        return stratifiers.get(self.method, n_splits=k, random_state=self.random_state, **self.params)

    def part_ids(self, y, groups=None, strata=None) -> np.ndarray:
        """``n_splits`` × n: each row's part (0…k−1, in the order of ``sizes``) in every draw; ``strata`` (a
        :class:`~stratbench.labels.TargetTable`) stratified on beside ``y``, its values placed as labels are."""
        method = self._check_params()
        _, strata, split_on, weights = _prepared(self, None, y, groups, strata)
        return self._part_ids(method, split_on, weights, strata, groups)

    def _part_ids(self, method, split_on, weights, strata, groups) -> np.ndarray:
        """:meth:`part_ids` of input checked once: the matrix split (every column: sizes fitted and rare values
        placed on them) and its weights."""
        n, k = split_on.shape[0], len(self.sizes)
        groups = method._accept(n, groups, weights, strata)
        targets = part_sizes(n, self.sizes)
        if groups is not None and self.rare == "guarantee":  # refused before any split; the method refuses
            # groups itself where it does not keep them whole (stratifiers.base)
            raise StratbenchError("rare='guarantee' moves single rows between parts: it does not keep groups "
                                  "whole; use rare='warn' with groups")
        method.fold_shares = (targets / n).tolist()  # the parts' shares of these rows: valid by construction
        rng = check_random_state(self.random_state)
        draws = []
        for _ in range(self.n_splits):
            order = rng.permutation(n)
            ids = np.empty(n, dtype=np.int64)
            with warnings.catch_warnings():
                warnings.filterwarnings("ignore", message=".*fewer positives than the")  # said once, below
                ids[order] = method._fold_ids(split_on[order], None if groups is None else groups[order], weights, rng)
            if groups is None:
                ids = fit_sizes(split_on, ids, targets)
                if self.rare == "guarantee":
                    ids = place_in_every_part(split_on, ids, k)
            draws.append(ids)
        return np.stack(draws)

    def split(self, X=None, y=None, groups=None, strata=None):
        """One tuple of k index arrays (the rows of each part, in the order of ``sizes``) per draw."""
        yield from self._split(X, y, groups, strata, stacklevel=3)  # the warning points at the caller's loop

    def _split(self, X, y, groups, strata, stacklevel: int):
        method = self._check_params()
        Y, strata, split_on, weights = _prepared(self, X, y, groups, strata)
        for ids in self._part_ids(method, split_on, weights, strata, groups):
            if self.rare == "warn":
                warn_missing_parts(split_on, ids, list(self.names), stacklevel=stacklevel,
                                   label_names=column_names(Y, strata))
            yield tuple(np.flatnonzero(ids == j) for j in range(len(self.sizes)))

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits


def train_validation_test_split(*arrays, y, sizes=(0.8, 0.1, 0.1), groups=None, strata=None, random_state=None,
                                method: str = "iterative", rare: str = "warn", **params) -> list:
    """Every array of ``arrays`` (X, y, sample weights, …; arrays, sparse matrices, pandas objects or lists) in
    k stratified parts of one split by ``y`` (train, validation and test by default), in scikit-learn's
    ``train_test_split`` order: the parts of the first array, then the next's. Sizes, groups, ``strata`` (a
    :class:`~stratbench.labels.TargetTable` stratified on beside ``y``; ``y=None`` for it alone), ``rare`` and the
    method as :class:`MultilabelStratifiedParts`. ``y`` may name a column of label lists in the first array (a
    pandas DataFrame, or a Hugging Face ``datasets`` Dataset whose parts come back as Datasets): read by
    :func:`~stratbench.labels.from_label_lists`, labels sorted.

    Examples
    --------
    >>> import numpy as np
    >>> X, Y = np.arange(30).reshape(30, 1), np.eye(3, dtype=int).repeat(10, axis=0)
    >>> X_train, X_val, X_test, y_train, y_val, y_test = train_validation_test_split(X, Y, y=Y, random_state=0)
    >>> len(X_train), len(X_val), len(X_test), y_test.sum(axis=0).tolist()
    (24, 3, 3, [1, 1, 1])
    """
    if not arrays:
        raise StratbenchError("train_validation_test_split needs at least one array to split (e.g. X, y)")
    if isinstance(y, str):
        y = _label_lists_column(arrays[0], y)
    check_consistent_length(**{f"arrays[{i}]": a for i, a in enumerate(arrays)}, y=y, groups=groups, strata=strata)
    k = len(check_sizes(sizes))
    names = ("train", "validation", "test") if k == 3 else tuple(f"part {j}" for j in range(k))
    cv = MultilabelStratifiedParts(sizes, names, random_state=random_state, method=method, rare=rare, **params)
    parts = next(cv._split(None, y, groups, strata, stacklevel=3))  # the warning points at the caller's line
    return [_take(a, rows) for a in arrays for rows in parts]


def _label_lists_column(table, name: str):
    """The label matrix of the column ``name`` of label lists in ``table`` (a DataFrame or a Dataset)."""
    columns = getattr(table, "column_names", None)
    columns = list(getattr(table, "columns", []) if columns is None else columns)
    if name not in columns:
        raise StratbenchError(f"y={name!r} names a column of label lists in the first array, which has columns "
                              f"{columns}; pass y as a label matrix otherwise")
    return from_label_lists(table[name])


__all__ = ["MultilabelStratifiedParts", "check_sizes", "labels_missing_a_part", "part_sizes", "place_in_every_part",
           "train_validation_test_split"]
