"""The cross-validators multi-label users know, by the names and signatures of iterative-stratification
(``MultilabelStratifiedKFold``, ``RepeatedMultilabelStratifiedKFold``, ``MultilabelStratifiedShuffleSplit``)
and scikit-multilearn (``IterativeStratification``), plus ``MultilabelStratifiedGroupKFold``; each runs
any registered stratifier (``method="iterative"`` by default, ``"sois"``, ``"hybrid"``, …; ``stratbench
list`` shows them) on sparse or dense ``y``.

What they mean, the same for every method:

- ``random_state``: None (numpy's global RandomState, so ``np.random.seed`` makes it reproducible), an int,
  a ``RandomState`` or a ``Generator`` — one stream for everything random in a split;
- ``shuffle``: the rows are put in a random order (from ``random_state``) before the method runs; without
  it they keep the data's order, and a seeded method still breaks its ties from ``random_state``;
- ``groups``: kept whole by the methods that split by groups (``iterative``, ``hybrid``, ``random``),
  refused by the others (never silently ignored, as scikit-learn's non-group splitters do);
- holdout sizes: ``test_size`` and ``train_size`` as scikit-learn's shuffle splits round them (a float test
  share rounds up), exactly;
- :func:`distinct_test_sets`: how many different test sets a cross-validator gives over its splits.

``compat``: the peers' own folds, bit for bit, so a project can switch mid-study without changing its
folds: ``MultilabelStratifiedKFold(..., compat="iterstrat")`` and ``RepeatedMultilabelStratifiedKFold(...,
compat="iterstrat")`` give iterative-stratification 0.1.9's, ``IterativeStratification(...,
compat="skmultilearn")`` scikit-multilearn 0.2.0's (seeded as a study seeded it: ``random_state=s`` is
``np.random.seed(s)`` before the split; None draws from numpy's global state). Without it, stratbench's own
IS and SOIS (:mod:`stratbench.stratifiers.iterstrat_compat` says how the peers' differ).

Examples
--------
>>> import numpy as np
>>> from stratbench import MultilabelStratifiedKFold
>>> Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
>>> cv = MultilabelStratifiedKFold(n_splits=2, shuffle=True, random_state=0)
>>> [len(test) for _, test in cv.split(np.zeros((6, 1)), Y)]
[3, 3]
"""

from __future__ import annotations

import numpy as np

from stratbench import StratbenchError, stratifiers
from stratbench.labels import as_label_matrix
from stratbench.stratifiers._base import check_random_state
from stratbench.stratifiers._sizes import fit_sizes, holdout_sizes
from stratbench.stratifiers.iterstrat_compat import kfold_test_folds, random_state, skmultilearn_test_folds

__all__ = ["IterativeStratification", "MultilabelStratifiedGroupKFold", "MultilabelStratifiedKFold",
           "MultilabelStratifiedShuffleSplit", "RepeatedMultilabelStratifiedKFold", "distinct_test_sets"]


COMPAT = (None, "iterstrat", "skmultilearn")


class _KFold:
    """k folds of the registered stratifier ``method`` (its own parameters in ``params``), or with ``compat`` a
    peer's own folds."""

    _compat: tuple = (None,)

    def __init__(self, n_splits: int = 3, *, shuffle: bool = False, random_state=None, method: str = "iterative",
                 compat: str | None = None, **params):
        self.n_splits, self.shuffle, self.random_state, self.method, self.compat, self.params = (
            n_splits, shuffle, random_state, method, compat, params)
        stratifiers.resolve(method)  # an unknown method stops here, with the registered names
        if compat not in self._compat:
            raise StratbenchError(f"{type(self).__name__}: compat must be one of {self._compat}, got {compat!r}")

    def fold_ids(self, y, groups=None) -> np.ndarray:
        """The test fold of every row."""
        if self.compat and groups is not None:  # the peers' IS ignores groups: refused, as every non-group method
            raise StratbenchError(f"compat={self.compat!r} does not split by groups: a group's rows would leak across folds")
        if self.compat == "iterstrat":
            return kfold_test_folds(as_label_matrix(y), self.n_splits, self.shuffle, random_state(self.random_state))
        if self.compat == "skmultilearn":
            rng = random_state(self.random_state)
            return skmultilearn_test_folds(as_label_matrix(y), self.n_splits, self.order,
                                           self.sample_distribution_per_fold, rng)
        Y = as_label_matrix(y)
        rng = check_random_state(self.random_state)
        order = rng.permutation(Y.shape[0]) if self.shuffle else np.arange(Y.shape[0])
        inner = stratifiers.get(self.method, n_splits=self.n_splits, random_state=rng, **self.params)
        ids = np.empty(Y.shape[0], dtype=np.int64)
        ids[order] = inner.fold_ids(Y[order], None if groups is None else np.asarray(groups)[order])
        return ids

    def split(self, X=None, y=None, groups=None):
        """(train indices, test indices) of each fold."""
        if y is None:
            raise StratbenchError(f"{type(self).__name__}.split needs the label matrix y")
        folds = self.fold_ids(y, groups)
        for j in range(self.n_splits):
            yield np.flatnonzero(folds != j), np.flatnonzero(folds == j)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits

    def __repr__(self) -> str:
        return f"{type(self).__name__}(n_splits={self.n_splits}, method={self.method!r}, shuffle={self.shuffle}, " \
               f"random_state={self.random_state!r})"


class MultilabelStratifiedKFold(_KFold):
    """iterative-stratification's ``MultilabelStratifiedKFold(n_splits=3, shuffle=False, random_state=None)``:
    k folds of ``method`` (default ``"iterative"``, Sechidis et al. 2011); groups refused unless the
    method splits by groups (use :class:`MultilabelStratifiedGroupKFold` for grouped data).

    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> folds = MultilabelStratifiedKFold(n_splits=4, random_state=1).fold_ids(Y)
    >>> [np.bincount(folds[Y[:, l] == 1]).tolist() for l in range(3)]  # each label once in every fold
    [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    """

    _compat = (None, "iterstrat")


class MultilabelStratifiedGroupKFold(_KFold):
    """k folds that keep every group whole and stratify the labels across them: ``method`` ``"iterative"``
    (default), ``"hybrid"`` or ``"random"``, or a group baseline (``"stratified_group_kfold"``, …).

    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> groups = np.arange(12) // 2
    >>> folds = MultilabelStratifiedGroupKFold(n_splits=3, random_state=0).fold_ids(Y, groups)
    >>> all(len(set(folds[groups == g])) == 1 for g in range(6))
    True
    """

    def __init__(self, n_splits: int = 5, *, shuffle: bool = False, random_state=None, method: str = "iterative",
                 **params):
        super().__init__(n_splits, shuffle=shuffle, random_state=random_state, method=method, **params)
        if not stratifiers.resolve(method).supports_groups:
            raise StratbenchError(f"{method!r} does not split by groups: choose one that does "
                                  f"({', '.join(n for n in stratifiers.names() if stratifiers.resolve(n).supports_groups)})")

    def split(self, X=None, y=None, groups=None):
        if groups is None:
            raise StratbenchError("MultilabelStratifiedGroupKFold.split needs groups")
        yield from super().split(X, y, groups)


class IterativeStratification(_KFold):
    """scikit-multilearn's ``IterativeStratification(n_splits=3, order=1, sample_distribution_per_fold=None,
    shuffle=False, random_state=None)``: ``order=1`` is iterative stratification (Sechidis et al. 2011),
    ``order=2`` second-order iterative stratification (SOIS, Szymański & Kajdanowicz 2017);
    ``sample_distribution_per_fold`` the folds' shares (default equal).

    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> folds = IterativeStratification(n_splits=2, order=2, random_state=0).fold_ids(Y)  # SOIS
    >>> np.bincount(folds).tolist()
    [6, 6]
    """

    _compat = (None, "skmultilearn")

    def __init__(self, n_splits: int = 3, order: int = 1, sample_distribution_per_fold=None, shuffle: bool = False,
                 random_state=None, compat: str | None = None):
        if order not in (1, 2):
            raise StratbenchError(f"order must be 1 (iterative stratification) or 2 (SOIS), got {order!r}")
        self.order, self.sample_distribution_per_fold = order, sample_distribution_per_fold
        shares = {} if sample_distribution_per_fold is None or compat else {"fold_shares": list(sample_distribution_per_fold)}
        super().__init__(n_splits, shuffle=shuffle, random_state=random_state,
                         method="iterative" if order == 1 else "sois", compat=compat, **shares)


class RepeatedMultilabelStratifiedKFold:
    """iterative-stratification's ``RepeatedMultilabelStratifiedKFold(n_splits=5, n_repeats=10,
    random_state=None)``: ``n_repeats`` k-fold CVs of ``method``, each on the rows in a fresh random order
    (one stream from ``random_state``), ``n_splits × n_repeats`` splits in all.

    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> cv = RepeatedMultilabelStratifiedKFold(n_splits=2, n_repeats=3, random_state=0)
    >>> cv.get_n_splits(), [len(test) for _, test in cv.split(None, Y)]
    (6, [6, 6, 6, 6, 6, 6])
    """

    def __init__(self, n_splits: int = 5, *, n_repeats: int = 10, random_state=None, method: str = "iterative",
                 compat: str | None = None, **params):
        self.n_splits, self.n_repeats, self.random_state, self.method, self.compat, self.params = (
            n_splits, n_repeats, random_state, method, compat, params)
        MultilabelStratifiedKFold(n_splits, method=method, compat=compat, **params)  # checks method and compat

    def split(self, X=None, y=None, groups=None):
        # iterstrat's repeats draw from one RandomState, as scikit-learn's _RepeatedSplits: the same stream here
        rng = random_state(self.random_state) if self.compat else check_random_state(self.random_state)
        for _ in range(self.n_repeats):
            cv = MultilabelStratifiedKFold(self.n_splits, shuffle=True, random_state=rng, method=self.method,
                                           compat=self.compat, **self.params)
            yield from cv.split(X, y, groups)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits * self.n_repeats


class MultilabelStratifiedShuffleSplit:
    """iterative-stratification's ``MultilabelStratifiedShuffleSplit(n_splits=10, test_size="default",
    train_size=None, random_state=None)``: ``n_splits`` independent (train, test) splits of ``method``,
    each on the rows in a fresh random order; the sides hold exactly scikit-learn's sizes (test ⌈p·n⌉ for a
    float share, the rest train; ``"default"``: 0.1), the method's split moved to them by the fewest label
    changes (:func:`stratbench.stratifiers._sizes.fit_sizes`).

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> [(len(train), len(test)) for train, test in MultilabelStratifiedShuffleSplit(3, test_size=0.3, random_state=0).split(None, Y)]
    [(8, 4), (8, 4), (8, 4)]
    """

    def __init__(self, n_splits: int = 10, *, test_size="default", train_size=None, random_state=None,
                 method: str = "iterative", **params):
        self.n_splits, self.test_size, self.train_size, self.random_state, self.method, self.params = (
            n_splits, 0.1 if test_size == "default" and train_size is None else test_size, train_size, random_state,
            method, params)
        if self.test_size == "default":
            self.test_size = None
        stratifiers.resolve(method)

    def split(self, X=None, y=None, groups=None):
        if y is None:
            raise StratbenchError("MultilabelStratifiedShuffleSplit.split needs the label matrix y")
        Y = as_label_matrix(y)
        n_train, n_test = holdout_sizes(Y.shape[0], self.test_size, self.train_size)
        inner = stratifiers.get(self.method, n_splits=self.n_splits, test_size=self.test_size, train_size=self.train_size,
                                random_state=self.random_state, **self.params)
        for ids in inner.holdout_ids(Y, groups=groups):
            if groups is None and n_train + n_test == Y.shape[0]:
                ids = fit_sizes(Y, ids, np.array([n_train, n_test]))
            yield np.flatnonzero(ids == 0), np.flatnonzero(ids == 1)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits


def distinct_test_sets(cv, X=None, y=None, groups=None) -> int:
    """How many different test sets ``cv`` gives over all its splits (iterative-stratification #16): k for one
    k-fold CV, up to ``k × n_repeats`` for repeated CV on shuffled rows; fewer where a method (or a small
    dataset) leaves little room for another split.

    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> distinct_test_sets(MultilabelStratifiedKFold(3, method="kfold"), y=Y)
    3
    >>> distinct_test_sets(RepeatedMultilabelStratifiedKFold(3, n_repeats=4, random_state=0), y=Y) > 3
    True
    """
    return len({tuple(test.tolist()) for _, test in cv.split(X, y, groups)})
