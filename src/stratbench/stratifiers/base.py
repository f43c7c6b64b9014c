"""Common base of the multi-label stratifiers: a scikit-learn cross-validator over subset ids.

A stratifier computes one subset id per example; in k-fold mode subset j is the test set of fold j
(docs/ALGORITHMS.md notation: S_j) and its training set the rest; in holdout mode subset 0 is the training
set and 1 the test set (and −1 the rows in neither, when ``train_size`` + ``test_size`` < 1).
``y`` may be anything scikit-learn accepts as a label matrix (dense, scipy.sparse, pandas, lists,
bool or nullable dtypes); it is checked and converted once to CSR int8 0/1.
"""

from __future__ import annotations

import copy
import numbers
import warnings

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench._kernels._compile import compile_once
from stratbench._warn import warn
from stratbench.labels import as_label_matrix, with_strata
from stratbench.labels.targets import weighted_columns
from stratbench.stratifiers.checks import (
    check_consistent_length,
    check_fold_shares,
    check_groups,
    check_n_splits,
    check_splits_fit,
)
from stratbench.stratifiers.sizes import check_size, fit_sizes, holdout_sizes, repair_empty

RULES = ("paper", "skmultilearn")  # whose tie and unlabelled-row rules IS and SOIS follow (with our seeded draws)


def tiny_labels(n_subsets: int) -> sp.csr_matrix:
    """A label matrix of 8·max(k, 3) rows and 4 labels, every label and every label pair present in each block
    of 8 rows, one row unlabelled: what a method's kernels are first compiled on, and the config's methods
    tried on."""
    rows = 8 * max(int(n_subsets), 3)
    pattern = np.array([[1, 0, 0, 1], [0, 1, 0, 0], [1, 1, 0, 0], [0, 0, 1, 1], [1, 0, 1, 0], [0, 0, 0, 0],
                        [0, 1, 1, 1], [1, 1, 1, 0]], dtype=np.int8)
    return sp.csr_matrix(np.tile(pattern, (rows // 8, 1)))


def check_random_state(random_state) -> np.random.Generator:
    """A numpy Generator from what scikit-learn accepts: None (a seed drawn from numpy's global
    RandomState, so ``np.random.seed`` makes it reproducible), a non-negative int, a RandomState (a seed
    drawn from it) or a Generator (used as is)."""
    _check_random_state_value(random_state)
    if isinstance(random_state, np.random.Generator):
        return random_state
    if random_state is None:
        return np.random.default_rng(np.random.randint(0, 2**63 - 1, dtype=np.int64))
    if isinstance(random_state, np.random.RandomState):
        return np.random.default_rng(random_state.randint(0, 2**63 - 1, dtype=np.int64))
    return np.random.default_rng(int(random_state))


def _check_random_state_value(random_state) -> None:
    if random_state is None or isinstance(random_state, (np.random.Generator, np.random.RandomState)):
        return
    if not isinstance(random_state, numbers.Integral) or isinstance(random_state, bool):
        raise StratbenchError(f"random_state must be None, an int, a RandomState or a Generator, not {random_state!r}")
    if random_state < 0:
        raise StratbenchError(f"random_state={random_state}: a seed must be a non-negative integer")


class MultilabelStratifier:
    """Base class: subclasses implement ``_assign(Y, ratios, rng) -> subset id per row``.

    Modes:

    - **k-fold** (``test_size`` None): k = ``n_splits`` subsets of desired share 1/k, or
      k = len(``fold_shares``) subsets of the given (normalised) shares; subset j is the test set of fold j.
    - **repeated holdout** (``test_size`` set, a share or a count): ``n_splits`` independent random
      (train, test) splits; ``train_size`` (share or count) leaves the rest of the rows out (id −1).

    Guarantees of every registered stratifier (tested with hypothesis over random small and
    degenerate label matrices: all zeros, all ones, one row per label, n = k):

    1. every example gets exactly one subset id, and the same ``random_state`` (an int) gives the same ids;
    2. every test fold is non-empty whenever k ≤ n: when a method's own assignment leaves a subset
       empty, a final repair moves the cheapest example into it — from the subset furthest above its
       desired size, the example whose labels that subset holds most of (a label-less one first),
       lowest row first among equals (:func:`~stratbench.stratifiers.sizes.repair_empty`);
    3. methods with ``equal_sizes = True`` give every subset n·r_j ± 1 examples (r_j its share);
    4. holdout sides follow scikit-learn's rounding (:func:`holdout_sizes`: test ⌈p·n⌉, train the rest
       or ⌊q·n⌋), exactly for the ``equal_sizes`` methods and as desired sizes for the others; a side
       that would be empty is refused with a ValueError.

    A label with fewer positives than subsets raises a UserWarning (it cannot be in every test fold), as
    scikit-learn's ``StratifiedKFold`` warns for rare classes.

    Every registered method takes the parameters below; its own docstring lists those it adds.

    Parameters
    ----------
    n_splits : int, default=10
        k-fold mode: the number of folds k (each of desired share 1/k). Holdout mode: the number of independent
        (train, test) splits.
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator, default=None
        The seed of every random choice of a split: None draws a seed from numpy's global RandomState (as
        scikit-learn), an int seeds a Generator, a RandomState gives a seed, a Generator is used as it is.
    test_size : float, int or None, default=None
        Holdout mode when set: the test side's share (in (0, 1)) or number of rows.
    train_size : float, int or None, default=None
        Holdout mode: the training side's share or number of rows (default: the rest); the rows in neither side
        get id −1.
    fold_shares : sequence of float or None, default=None
        k-fold mode with unequal folds: each fold's share, normalised (k = its length).

    Examples
    --------
    >>> import numpy as np
    >>> from stratbench import stratifiers
    >>> Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]])
    >>> cv = stratifiers.get("iterative", n_splits=2, random_state=0)
    >>> [test.tolist() for train, test in cv.split(np.zeros((6, 1)), Y)]
    [[1, 2, 5], [0, 3, 4]]
    """

    equal_sizes = False  # whether the method itself keeps every subset at n·r_j ± 1
    seeded = True  # whether the split depends on random_state (False: the same split for every seed)
    supports_groups = False  # whether the method splits whole groups (``_assign_groups``)
    kernels: tuple = ()  # its compiled (numba) kernels: compiled once per environment, their first compilation announced
    compile_seconds = 0.0  # about how long that compilation takes (this project's 2-core machine)
    needs_groups = False  # whether it splits only with groups (the grouped track's baselines)
    delegates_to: tuple = ()  # the packages whose code makes its folds (their versions go in the result tables)
    weighs_labels = False  # whether ``_assign`` takes ``label_weights`` (a TargetTable's column weights)

    def __init__(self, n_splits: int = 10, random_state=None, test_size=None, train_size=None, fold_shares=None):
        self.n_splits = n_splits
        self.random_state = random_state
        self.test_size = test_size
        self.train_size = train_size
        self.fold_shares = fold_shares
        self._check_params()

    def _check_params(self) -> None:
        """What scikit-learn checks when a splitter is built (``KFold``'s n_splits, the shuffle splits'
        sizes), so that ``get_n_splits()`` never answers an invalid value; checked again at every split,
        after ``set_params``."""
        check_n_splits(self.n_splits, least=1 if self.holdout else 2)
        check_size(self.test_size, "test_size")
        check_size(self.train_size, "train_size")
        if self.fold_shares is not None:
            if self.holdout:
                raise StratbenchError("fold_shares is for k-fold mode; a holdout split takes test_size/train_size")
            check_fold_shares(self.fold_shares, None)
        _check_random_state_value(self.random_state)

    @property
    def holdout(self) -> bool:
        return self.test_size is not None or self.train_size is not None

    def _ratios(self, n: int) -> np.ndarray:
        """Desired share of every subset (holdout: train, test[, left out]) of the n examples (the parameters checked
        by the caller, once per split)."""
        if self.holdout:
            if n < 2:
                raise StratbenchError(f"a holdout split needs at least 2 examples, got {n}")
            n_train, n_test = holdout_sizes(n, self.test_size, self.train_size)
            shares = [n_train / n, n_test / n] + ([(n - n_train - n_test) / n] if n_train + n_test < n else [])
            return np.array(shares)
        if self.fold_shares is not None:
            shares = np.asarray(self.fold_shares, dtype=float)
            ratios = shares / shares.sum()
        else:
            ratios = np.full(self.n_splits, 1.0 / self.n_splits)
        check_splits_fit(len(ratios), n)
        return ratios

    def fold_ids(self, y, groups=None, strata=None) -> np.ndarray:
        """The subset id of every example in row order: its test fold (0…k−1), or in holdout mode
        (the first of the ``n_splits`` splits) 0 for training, 1 for test and −1 for neither.
        With ``groups`` (one label per example), the rows of a group always share a subset. With ``strata``
        (a :class:`~stratbench.labels.TargetTable`), its columns are stratified on beside ``y``'s labels
        (``y`` may then be None), with their weights."""
        if self.holdout:
            return self.holdout_ids(y, repeats=1, groups=groups, strata=strata)[0]
        self._check_params()
        Y, groups, weights = self._input(y, groups, strata)
        return self._fold_ids(Y, groups, weights, check_random_state(self.random_state))

    def _fold_ids(self, Y: sp.csr_matrix, groups, weights, rng: np.random.Generator) -> np.ndarray:
        """:meth:`fold_ids` of input checked once by the caller: ``Y`` the matrix split (labels beside any strata's
        indicators), ``groups`` checked, ``weights`` each column's (or None), ``rng`` the split's stream (the
        cross-validators of :mod:`stratbench.model_selection` pass theirs, drawn from before)."""
        return self._subset_ids(Y, self._ratios(Y.shape[0]), rng, groups, weights)

    def holdout_ids(self, y, repeats: int | None = None, groups=None, strata=None) -> np.ndarray:
        """Holdout mode: the subset ids of the ``n_splits`` splits (n_splits × n; 0 train, 1 test, −1
        neither), or of the first ``repeats``.

        Every split is a draw of its own: the method runs on the rows in a fresh random order each time
        (as iterstrat's ``MultilabelStratifiedShuffleSplit`` shuffles), so a method whose ties seldom
        occur with two subsets (IS, SOIS) still gives independent test sets. A method that ignores its
        seed (``seeded = False``, e.g. ``kfold``) runs in row order and repeats its one split.
        """
        if not self.holdout:
            raise StratbenchError("holdout_ids needs test_size or train_size (holdout mode)")
        self._check_params()
        Y, groups, weights = self._input(y, groups, strata)
        return self._holdout_ids(Y, groups, weights, check_random_state(self.random_state), repeats)

    def _holdout_ids(self, Y: sp.csr_matrix, groups, weights, rng: np.random.Generator,
                     repeats: int | None = None) -> np.ndarray:
        """:meth:`holdout_ids` of input checked once by the caller (as :meth:`_fold_ids`)."""
        ratios = self._ratios(Y.shape[0])
        draws = []
        for _ in range(self.n_splits if repeats is None else repeats):
            if not self.seeded:
                draws.append(self._subset_ids(Y, ratios, rng, groups, weights))
                continue
            order = rng.permutation(Y.shape[0])
            ids = np.empty(Y.shape[0], dtype=np.int64)
            ids[order] = self._subset_ids(Y[order], ratios, rng, None if groups is None else groups[order], weights)
            draws.append(ids)
        return np.stack(draws)

    def _groups(self, groups, n: int) -> np.ndarray | None:
        """``groups`` checked: one per example, and a method that splits whole groups (never ignored)."""
        if groups is None:
            return None
        if not self.supports_groups:  # scikit-learn's non-group splitters ignore them: a group would leak
            from stratbench import stratifiers

            whole = [n for n in stratifiers.names() if stratifiers.resolve(n).supports_groups]
            raise StratbenchError(f"{type(self).__name__} does not split by groups: the rows of one group could land "
                                  f"in different folds. Pass groups=None, or use a stratifier that splits whole groups "
                                  f"({', '.join(whole)})")
        return check_groups(groups, n)

    def _input(self, y, groups=None, strata=None) -> tuple[sp.csr_matrix, np.ndarray | None, np.ndarray | None]:
        """(the matrix split: ``y``'s labels beside ``strata``'s indicators, the groups checked, each column's weight
        or None), for :meth:`_accept`."""
        if y is None and strata is None:
            raise StratbenchError("y is None: a stratifier splits by the label matrix y (n examples × L labels, 0/1), "
                                  "or by the columns of strata (a TargetTable)")
        Y, weights = with_strata(None if y is None else as_label_matrix(y), strata)
        return Y, self._accept(Y.shape[0], groups, weights, strata), weights

    def _accept(self, n: int, groups, weights, strata) -> np.ndarray | None:
        """``groups`` checked for ``n`` rows (:meth:`_groups`), and column weights other than 1 refused unless this
        method weighs labels (``weighs_labels``), naming the columns and the methods that do; the checked groups.
        Every split's input passes here once, this class's own or a cross-validator's."""
        if weights is not None and not self.weighs_labels:
            from stratbench import stratifiers

            weighing = [n for n in stratifiers.names() if getattr(stratifiers.resolve(n), "weighs_labels", False)]
            raise StratbenchError(f"{type(self).__name__} does not weigh columns, and strata weighs "
                                  f"{weighted_columns(strata)}: use a method that does ({', '.join(weighing)}), or "
                                  "leave every weight at 1")
        return self._groups(groups, n)

    def _subset_ids(self, Y: sp.csr_matrix, ratios: np.ndarray, rng: np.random.Generator, groups=None,
                    label_weights=None) -> np.ndarray:
        """Each row's subset id; ``label_weights`` (None: every column 1) reach a method that weighs labels."""
        weighted = {} if label_weights is None else {"label_weights": label_weights}
        if self.kernels:
            kernels, here, elsewhere = self._compile_plan(groups is not None)
            compile_once(getattr(self, "registered_name", type(self).__name__), kernels, here, elsewhere,
                         self.compile_seconds)
        self._warn_rare_labels(Y, ratios)
        if groups is None:
            ids = self._checked(self._assign(Y, ratios, rng, **weighted), Y.shape[0], len(ratios))
            ids = self._repair(Y, ids, ratios)
        else:  # the method splits the groups, each a row of positive counts weighing its size
            member, counts, sizes = group_matrix(Y, groups)
            check_splits_fit(len(ratios), Y.shape[0], len(sizes))
            ids = self._checked(self._assign_groups(counts, sizes, ratios, rng, rows=(Y, member), **weighted),
                                len(sizes), len(ratios))
            ids = self._repair(counts, ids, ratios, sizes)[member]
        self._warn_far_sizes(ids, ratios)
        if self.holdout:
            ids[ids == 2] = -1
        return ids

    def _compile_plan(self, grouped: bool) -> tuple:
        """(the kernels a split calls, a callable that compiles them in this process, ``"module:function"``
        parts compiled meanwhile in processes of their own): by default every kernel, compiled by the same
        method on a tiny label matrix (:func:`~stratbench.stratifiers._kernels.compile_once`)."""
        return self.kernels, lambda: self._warm_up(grouped), ()

    def _tiny_labels(self) -> sp.csr_matrix:
        """:func:`tiny_labels` with rows enough for this method's subsets."""
        return tiny_labels(max(self.n_splits, len(self.fold_shares if self.fold_shares is not None else ())))

    def _warm_up(self, grouped: bool) -> None:
        """This method's split of a tiny label matrix (its kernels compile with the types of any split)."""
        method = copy.copy(self)
        method.random_state = 0  # never a draw from the caller's generator
        Y = self._tiny_labels()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            method.fold_ids(Y, np.arange(Y.shape[0]) // 2 if grouped else None)

    def _warn_rare_labels(self, Y: sp.csr_matrix, ratios: np.ndarray) -> None:
        k = 2 if self.holdout else len(ratios)
        positives = np.bincount(Y.indices, minlength=Y.shape[1])
        rare = (positives > 0) & (positives < k)
        if rare.any():
            warn(f"{int(rare.sum())} of {Y.shape[1]} labels have fewer positives than the "
                 f"{k} {'sides' if self.holdout else 'folds'} (the least populated has "
                 f"{int(positives[rare].min())}): they cannot be in every "
                 f"{'side' if self.holdout else 'test fold'}")

    def _warn_far_sizes(self, ids: np.ndarray, ratios: np.ndarray) -> None:
        """A UserWarning when a subset holds less than half or more than 1.5 times its desired n·r_j
        examples (and is more than one example off): e.g. SS's last fold, or its test side for a
        test_size of a few examples. config/README.md says how far each method's sizes may be."""
        sizes = np.bincount(ids, minlength=len(ratios))
        desired = len(ids) * np.asarray(ratios)
        far = (np.abs(sizes - desired) > 1) & ((sizes < 0.5 * desired) | (sizes > 1.5 * desired))
        if far.any():
            j = int(np.flatnonzero(far)[0])
            side = (["training set", "test set", "left-out rows"][j] if self.holdout else f"test fold {j}")
            warn(f"{type(self).__name__}: the {side} holds {int(sizes[j])} examples where {desired[j]:.4g} "
                 f"were asked (sizes {sizes.tolist()}); see 'Fold sizes' in config/README.md")

    fit_sizes = staticmethod(fit_sizes)  # the size repairs (stratifiers.sizes), for subclasses
    _repair = staticmethod(repair_empty)

    def _checked(self, ids, rows: int, k: int) -> np.ndarray:
        """A method's assignment as it promises it: one id per row (``rows``), each in 0…k − 1; a wrong one is
        named as what it is (its shape, its type, the ids out of range)."""
        name = type(self).__name__
        ids = np.asarray(ids)
        if ids.shape != (rows,):
            raise StratbenchError(f"{name} assigned an array of shape {ids.shape} where one subset id per row was "
                                  f"due: shape ({rows},)")
        whole = np.issubdtype(ids.dtype, np.integer) or ids.dtype == bool or (
            np.issubdtype(ids.dtype, np.floating) and bool(np.all(np.isfinite(ids) & (ids == np.round(ids)))))
        if not whole:
            raise StratbenchError(f"{name} assigned ids of dtype {ids.dtype} that are not whole numbers; subset ids "
                                  f"are integers 0…{k - 1}")
        ids = ids.astype(np.int64)
        if rows and (ids.min() < 0 or ids.max() >= k):
            bad = sorted(set(ids[(ids < 0) | (ids >= k)].tolist()))
            raise StratbenchError(f"{name} assigned ids {bad[:5]} outside 0…{k - 1}")
        return ids

    def _assign_groups(self, counts: sp.csr_matrix, sizes: np.ndarray, ratios: np.ndarray,
                       rng: np.random.Generator, rows=None) -> np.ndarray:
        """A subset id per group (``supports_groups`` methods): ``counts`` (groups × L) holds each
        group's positives per label, ``sizes`` its number of examples; sizes are counted in examples.
        ``rows``: (Y, each row's group index), for a method that needs more than the label counts."""
        raise NotImplementedError

    def _assign(self, Y: sp.csr_matrix, ratios: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        raise NotImplementedError

    def split(self, X=None, y=None, groups=None, strata=None):
        """Yield (train indices, test indices) for each fold, or for each of the ``n_splits`` holdout
        splits. With ``groups``, a group's rows are never on both sides (methods with
        ``supports_groups``; the others refuse groups rather than ignore them). With ``strata`` (a
        :class:`~stratbench.labels.TargetTable`), its columns are stratified on beside ``y``'s labels."""
        if y is None and strata is None:
            raise StratbenchError(f"{type(self).__name__}.split needs the label matrix y (or strata, a TargetTable)")
        check_consistent_length(X=X, y=y, groups=groups, strata=strata)
        self._check_params()
        Y, groups, weights = self._input(y, groups, strata)
        rng = check_random_state(self.random_state)
        if self.holdout:
            for ids in self._holdout_ids(Y, groups, weights, rng):
                yield np.flatnonzero(ids == 0), np.flatnonzero(ids == 1)
            return
        folds = self._fold_ids(Y, groups, weights, rng)
        for j in range(self.get_n_splits()):
            yield np.flatnonzero(folds != j), np.flatnonzero(folds == j)

    def _iter_test_indices(self, X=None, y=None, groups=None, strata=None):
        for _, test in self.split(X, y, groups, strata):
            yield test

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        if not self.holdout and self.fold_shares is not None:
            return len(self.fold_shares)
        return self.n_splits

    # scikit-learn's cross-validator protocol without importing scikit-learn where a split is all a job
    # needs (its import is most of a split job's start-up): model selection duck-types ``split`` and
    # ``get_n_splits``; the repr and the metadata routing of ``groups`` are scikit-learn's own, imported
    # when asked for
    def __repr__(self) -> str:
        from sklearn.model_selection._split import _build_repr

        return _build_repr(self)

    def get_metadata_routing(self):
        """``groups`` and ``strata`` are routed to :meth:`split` (as scikit-learn's ``BaseCrossValidator`` routes
        ``groups``), so ``cross_validate(..., params={"strata": table})`` stratifies on the table while the
        estimator learns ``y``."""
        from sklearn.utils.metadata_routing import MetadataRequest

        request = MetadataRequest(owner=type(self).__name__)
        request.split.add_request(param="groups", alias=True)
        request.split.add_request(param="strata", alias=True)
        return request


def group_matrix(Y: sp.csr_matrix, groups: np.ndarray) -> tuple[np.ndarray, sp.csr_matrix, np.ndarray]:
    """(each row's group index, groups × L positive counts, group sizes), groups numbered by first
    appearance, so singleton groups are the rows themselves in row order.

    >>> member, counts, sizes = group_matrix(sp.csr_matrix([[1, 0], [1, 1], [0, 1]]), np.array(["b", "a", "b"]))
    >>> member.tolist(), counts.toarray().tolist(), sizes.tolist()
    ([0, 1, 0], [[1.0, 1.0], [1.0, 1.0]], [2.0, 1.0])
    """
    _, first, inverse = np.unique(groups, return_index=True, return_inverse=True)
    member = np.argsort(np.argsort(first, kind="stable"), kind="stable")[inverse.ravel()]
    n_groups = len(first)
    onehot = sp.csr_matrix((np.ones(len(member)), (member, np.arange(len(member)))), shape=(n_groups, len(member)))
    counts = sp.csr_matrix(onehot @ sp.csr_matrix(Y, dtype=np.float64))
    counts.sort_indices()
    return member, counts, np.bincount(member, minlength=n_groups).astype(np.float64)


def legacy_random_state(stratifier) -> np.random.RandomState:
    """numpy's legacy RandomState seeded with the stratifier's integer ``random_state``: the stream of
    ``np.random.seed(s)`` then ``np.random.shuffle`` that published experiment code draws from, without
    touching numpy's global state (a protocol option for reproducing a paper's splits digit for digit)."""
    seed = stratifier.random_state
    if not isinstance(seed, numbers.Integral) or isinstance(seed, bool):
        raise StratbenchError(f"{type(stratifier).__name__}: the published protocol draws from np.random.seed(s): "
                              f"random_state must be an integer, got {seed!r}")
    return np.random.RandomState(int(seed) % 2**32)
