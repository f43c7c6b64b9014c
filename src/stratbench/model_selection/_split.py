"""The cross-validator classes of :mod:`stratbench.model_selection` (its docstring says what their parameters
mean), and ``iterative_train_test_split``."""

from __future__ import annotations

import inspect
import numbers
import warnings

import numpy as np

from stratbench import StratbenchError, stratifiers
from stratbench._registry import keywords
from stratbench.labels import as_label_matrix, with_strata
from stratbench.labels.targets import Indicators, TargetTable
from stratbench.model_selection._peers.iterstrat import kfold_test_folds, random_state, shuffle_split_test_sides
from stratbench.model_selection._peers.skmultilearn import skmultilearn_test_folds
from stratbench.model_selection._rare import RARE, place_in_every_part, warn_missing_parts
from stratbench.stratifiers.base import _check_random_state_value, check_random_state
from stratbench.stratifiers.checks import (
    check_consistent_length,
    check_fold_shares,
    check_groups,
    check_keywords,
    check_n_splits,
    check_splits_fit,
)
from stratbench.stratifiers.sizes import check_size, fit_sizes, holdout_sizes

PEERS = {"iterstrat": "iterative-stratification 0.1.9", "skmultilearn": "scikit-multilearn 0.2.0"}
# what a cross-validator sets on its method itself: not among the method's own parameters
SET_BY_THE_SPLITTER = ("self", "n_splits", "random_state", "test_size", "train_size", "shuffle")


class _MultilabelSplitter:
    """What every cross-validator here shares: the method and its parameters checked at construction (an
    unknown keyword is a TypeError naming it), ``compat`` (a peer's folds) checked, a repr of every parameter,
    ``groups`` and ``strata`` routed to :meth:`split` under scikit-learn's metadata routing.

    Parameters
    ----------
    n_splits : int
        The number of folds (the k-fold classes) or of independent splits (the shuffle split, the parts).
    shuffle : bool, default=False
        Put the rows in a random order (from ``random_state``) before the method runs; without it they keep the
        data's order, and a seeded method still breaks its ties from ``random_state``.
    random_state : None, int, numpy.random.RandomState or numpy.random.Generator, default=None
        One stream for everything random in a split (None: numpy's global RandomState, as scikit-learn).
    method : str, default="iterative"
        The registered stratifier that makes the folds (``stratbench list``).
    compat : {None, "iterstrat", "skmultilearn"}, default=None
        A peer's own folds, bit for bit (the classes that have that peer); None: stratbench's method.
    rare : {"warn", "guarantee", "ignore"}, default="warn"
        What a split does about a label, or a value of ``strata``, left with no positive in some part: one
        warning per split naming them; a positive in every part for each with at least as many positives as
        parts (or a StratbenchError naming those no swap can place); nothing.
    **params : dict
        The method's own parameters (its docstring).
    """

    _compat: tuple = (None,)  # the peers whose folds this class reproduces
    _beyond_peer: tuple = ()  # its own parameters that the peer's class lacks: refused under compat, never ignored

    def _check_method(self, method: str, params: dict, compat) -> None:
        name = type(self).__name__
        if compat not in self._compat:
            raise StratbenchError(f"{name}: compat must be one of {self._compat} (the peer whose folds it gives, bit "
                                  f"for bit), got {compat!r}")
        cls = stratifiers.resolve(method)  # an unknown method stops here, with the registered names
        if compat is not None:
            if method != "iterative" or params:
                raise TypeError(f"{name}: compat={compat!r} gives {PEERS[compat]}'s folds; a method and its "
                                f"parameters do not apply (got method={method!r}, {params or 'no parameters'})")
            defaults = inspect.signature(type(self).__init__).parameters
            for option in self._beyond_peer:
                if getattr(self, option) != defaults[option].default:
                    raise StratbenchError(f"{name}: compat={compat!r} gives {PEERS[compat]}'s folds, and its class has "
                                          f"no {option}; leave {option} at {defaults[option].default!r}, or compat out")
            return
        own = [k for k in inspect.signature(type(self).__init__).parameters if k not in ("self", "params")]
        accepted = keywords(cls, SET_BY_THE_SPLITTER)
        context = f" (neither its own nor a parameter of method {method!r})"
        check_keywords(name, params, None if accepted is None else own + accepted, context)

    def _repr_items(self) -> list[tuple[str, object]]:
        names = [k for k in inspect.signature(type(self).__init__).parameters if k not in ("self", "params")]
        return [(k, getattr(self, k)) for k in names] + list(getattr(self, "params", {}).items())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in self._repr_items())})"

    def get_metadata_routing(self):
        """``groups`` and ``strata`` are routed to :meth:`split` (as scikit-learn's ``BaseCrossValidator`` routes
        ``groups``): ``cross_validate(..., params={"strata": table})`` stratifies on a
        :class:`~stratbench.labels.TargetTable` while the estimator learns ``y``."""
        from sklearn.utils.metadata_routing import MetadataRequest

        request = MetadataRequest(owner=type(self).__name__)
        request.split.add_request(param="groups", alias=True)
        request.split.add_request(param="strata", alias=True)
        return request

    def _indicators(self, strata):
        """``strata`` expanded once (None stays None); the peers stratify on ``y`` alone."""
        if strata is None:
            return None
        if getattr(self, "compat", None) is not None:
            raise StratbenchError(f"compat={self.compat!r} gives {PEERS[self.compat]}'s folds, which stratify on y "
                                  "alone: strata does not apply")
        if not isinstance(strata, (TargetTable, Indicators)):
            with_strata(None, strata)  # refused, naming the declaration
        return strata.expand() if isinstance(strata, TargetTable) else strata

    def _peer_rng(self):
        """The peer's stream: scikit-learn's ``check_random_state`` of ``random_state``."""
        return random_state(self.random_state, self.compat)

    def _check_random_state(self) -> None:
        if getattr(self, "compat", None) is None:
            _check_random_state_value(self.random_state)
        elif not (self.random_state is None or isinstance(self.random_state, np.random.RandomState) or (
                isinstance(self.random_state, numbers.Integral) and not isinstance(self.random_state, bool))):
            raise StratbenchError(f"compat={self.compat!r} takes None, an int or a RandomState as random_state (the "
                                  f"peer's numpy RandomState stream), not {self.random_state!r}")


def _check_rare(rare, compat) -> None:
    if rare not in RARE:
        raise StratbenchError(f"rare must be one of {RARE}, got {rare!r}")
    if compat is not None and rare == "guarantee":
        raise StratbenchError(f"compat={compat!r} gives {PEERS[compat]}'s folds as they are: rare='guarantee' would "
                              "move rows; use rare='warn' (it names the labels) or compat out")


def column_names(Y, strata) -> list | None:
    """The names of the columns split on where ``strata`` adds some (y's labels by index, the table's values as
    ``column=value``), else None (labels by index)."""
    if strata is None:
        return None
    return [str(i) for i in range(0 if Y is None else Y.shape[1])] + list(strata.names)


def _prepared(splitter, X, y, groups, strata):
    """(``y`` as the label matrix or None, ``strata``'s indicators or None, the matrix split: y's labels beside the
    indicators, each column's weight or None), after X, y, groups and strata are found of one length: ``y``
    converted, and the table expanded, once per split."""
    if y is None and strata is None:
        raise StratbenchError(f"{type(splitter).__name__}.split needs the label matrix y (n examples × L labels, 0/1), "
                              "or strata")
    check_consistent_length(X=X, y=y, groups=groups, strata=strata)
    Y = None if y is None else as_label_matrix(y)
    strata = splitter._indicators(strata)
    return (Y, strata, *with_strata(Y, strata))


class _KFolds(_MultilabelSplitter):
    """What the k-fold classes share: their parameters checked by building the method once per split (which checks
    its own: n_splits, random_state, fold shares, its parameters), and one CV's folds of input checked once."""

    def _check_params(self):
        """shuffle (as scikit-learn's ``KFold``), rare, compat, the method's name and keywords; the method built from
        them, which checks the rest: n_splits, random_state, the fold shares, its parameters (None under compat,
        whose n_splits and random_state are checked here). Called at construction and once per split (after
        ``set_params``)."""
        if not isinstance(self.shuffle, (bool, np.bool_)):
            raise TypeError(f"shuffle must be True or False; got {self.shuffle!r}")
        _check_rare(self.rare, self.compat)
        params = self._params()
        self._check_method(self._method(), params, self.compat)
        if self.compat is not None:
            check_n_splits(self.n_splits)
            self._check_random_state()
            return None
        if params.get("fold_shares") is not None:
            self._check_fold_shares(params["fold_shares"])
        return stratifiers.get(self._method(), n_splits=self.n_splits, random_state=self.random_state, **params)

    def _check_fold_shares(self, shares) -> None:
        check_fold_shares(shares, self.n_splits)

    def _method(self) -> str:
        """The registered method that makes the folds."""
        return self.method

    def _params(self) -> dict:
        """Its parameters."""
        return self.params

    def _rng(self):
        """The split's one stream: the peer's (scikit-learn's ``check_random_state``) under compat, else
        stratbench's."""
        return self._peer_rng() if self.compat is not None else check_random_state(self.random_state)

    def _peer_folds(self, Y, rng) -> np.ndarray:
        return kfold_test_folds(Y, self.n_splits, self.shuffle, rng)

    def _folds(self, method, Y, split_on, weights, strata, groups, rng) -> np.ndarray:
        """The test fold of every row of input checked once: ``method`` as :meth:`_check_params` built it, ``Y``
        the labels (None where strata alone is split on), ``split_on`` and ``weights`` from
        :func:`~stratbench.labels.with_strata`, ``rng`` the split's stream."""
        n = split_on.shape[0]
        if self.compat is not None:
            groups = check_groups(groups, n)
            check_splits_fit(self.n_splits, n)
            if groups is not None:  # the peers' IS ignores groups: refused, as every non-group method
                raise StratbenchError(f"compat={self.compat!r} does not split by groups: a group's rows would leak "
                                      "across folds")
            return self._peer_folds(Y, rng)
        groups = method._accept(n, groups, weights, strata)
        if groups is not None and self.rare == "guarantee":
            raise StratbenchError("rare='guarantee' moves single rows between folds: it does not keep groups whole; "
                                  "use rare='warn' with groups")
        if self.shuffle:
            order = rng.permutation(n)
            ids = np.empty(n, dtype=np.int64)
            ids[order] = method._fold_ids(split_on[order], None if groups is None else groups[order], weights, rng)
        else:  # the rows in the data's order: no copy of the matrix
            ids = method._fold_ids(split_on, groups, weights, rng)
        if self.rare == "guarantee":
            ids = place_in_every_part(split_on, ids, self.n_splits)
        return ids

    def _split_once(self, method, Y, strata, split_on, weights, groups, rng, stacklevel: int):
        """One CV's (train, test) pairs; rare='warn': one warning for it, at the caller's line."""
        with warnings.catch_warnings():
            # as the parts splitter: warn names them once, below, among the others; ignore says nothing; under
            # guarantee they are outside the promise, never refused
            warnings.filterwarnings("ignore", message=".*fewer positives than the")
            folds = self._folds(method, Y, split_on, weights, strata, groups, rng)
        if self.rare == "warn":
            warn_missing_parts(split_on, folds, [f"test fold {j}" for j in range(self.n_splits)],
                               stacklevel=stacklevel, label_names=column_names(Y, strata))
        for j in range(self.n_splits):
            yield np.flatnonzero(folds != j), np.flatnonzero(folds == j)


class _KFold(_KFolds):
    """k folds of the registered stratifier ``method`` (its own parameters in ``params``), or with ``compat`` a
    peer's own folds. ``rare``: ``"warn"`` (one warning per CV naming the labels, and ``strata``'s values, left
    with no positive in some test fold), ``"guarantee"`` (each with at least k positives gets one in every test
    fold, by swaps that keep the sizes, or a StratbenchError names those that cannot before any fold is
    returned), ``"ignore"``."""

    def __init__(self, n_splits: int = 3, *, shuffle: bool = False, random_state=None, method: str = "iterative",
                 compat: str | None = None, rare: str = "warn", **params):
        self.n_splits, self.shuffle, self.random_state, self.method, self.compat, self.rare, self.params = (
            n_splits, shuffle, random_state, method, compat, rare, params)
        self._check_params()

    def fold_ids(self, y, groups=None, strata=None) -> np.ndarray:
        """The test fold of every row; ``strata`` (a :class:`~stratbench.labels.TargetTable`) stratified on
        beside ``y``."""
        method = self._check_params()
        Y, strata, split_on, weights = _prepared(self, None, y, groups, strata)
        return self._folds(method, Y, split_on, weights, strata, groups, self._rng())

    def split(self, X=None, y=None, groups=None, strata=None):
        """(train indices, test indices) of each fold."""
        yield from self._split(X, y, groups, strata, stacklevel=3)  # the warning points at the caller's loop

    def _split(self, X, y, groups, strata, stacklevel: int):
        method = self._check_params()
        Y, strata, split_on, weights = _prepared(self, X, y, groups, strata)
        yield from self._split_once(method, Y, strata, split_on, weights, groups, self._rng(), stacklevel + 1)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits


class MultilabelStratifiedKFold(_KFold):
    """iterative-stratification's ``MultilabelStratifiedKFold(n_splits=3, *, shuffle=False, random_state=None)``:
    k folds of ``method`` (default ``"iterative"``, Sechidis et al. 2011); groups refused unless the method splits
    by groups (use :class:`MultilabelStratifiedGroupKFold` for grouped data). ``compat="iterstrat"``:
    iterative-stratification 0.1.9's folds, bit for bit.

    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> folds = MultilabelStratifiedKFold(n_splits=4, random_state=1).fold_ids(Y)
    >>> [np.bincount(folds[Y[:, l] == 1]).tolist() for l in range(3)]  # each label once in every fold
    [[1, 1, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1]]
    """

    _compat = (None, "iterstrat")


class MultilabelStratifiedGroupKFold(_KFold):
    """k folds that keep every group whole and stratify the labels across them: ``method`` ``"iterative"``
    (default), ``"hybrid"`` or ``"random"``, or a group baseline (``"stratified_group_kfold"``, …). No peer
    has such a splitter, so it has no ``compat``.

    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> groups = np.arange(12) // 2
    >>> folds = MultilabelStratifiedGroupKFold(n_splits=3, random_state=0).fold_ids(Y, groups)
    >>> all(len(set(folds[groups == g])) == 1 for g in range(6))
    True
    """

    compat = None  # no peer has a grouped multi-label k-fold: a class attribute, not a parameter

    def __init__(self, n_splits: int = 5, *, shuffle: bool = False, random_state=None, method: str = "iterative",
                 rare: str = "warn", **params):
        self.n_splits, self.shuffle, self.random_state, self.method, self.rare, self.params = (
            n_splits, shuffle, random_state, method, rare, params)
        self._check_params()

    def _check_params(self):
        method = super()._check_params()
        if not method.supports_groups:
            raise StratbenchError(f"{self.method!r} does not split by groups: choose one that does "
                                  f"({', '.join(n for n in stratifiers.names() if stratifiers.resolve(n).supports_groups)})")
        return method

    def split(self, X=None, y=None, groups=None, strata=None):
        if groups is None:
            raise StratbenchError("MultilabelStratifiedGroupKFold.split needs groups (one per example)")
        yield from self._split(X, y, groups, strata, stacklevel=3)


class IterativeStratification(_KFold):
    """scikit-multilearn's ``IterativeStratification(n_splits=3, order=1, sample_distribution_per_fold=None,
    random_state=None)``, in that positional order: ``order=1`` is iterative stratification (Sechidis et al.
    2011), ``order=2`` second-order iterative stratification (SOIS, Szymański & Kajdanowicz 2017);
    ``sample_distribution_per_fold`` the folds' shares (one per fold, summing to 1; default equal).
    ``compat="skmultilearn"``: scikit-multilearn 0.2.0's folds, bit for bit.

    Parameters
    ----------
    order : {1, 2}, default=1
        1: iterative stratification; 2: second-order iterative stratification (SOIS).
    sample_distribution_per_fold : sequence of float or None, default=None
        Each fold's share, summing to 1 (None: equal folds).

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> folds = IterativeStratification(2, 2, None, 0).fold_ids(Y)  # SOIS, random_state=0
    >>> np.bincount(folds).tolist()
    [6, 6]
    """

    _compat = (None, "skmultilearn")
    _beyond_peer = ("shuffle",)  # scikit-multilearn deals the rows in data order

    def __init__(self, n_splits: int = 3, order: int = 1, sample_distribution_per_fold=None, random_state=None, *,
                 shuffle: bool = False, compat: str | None = None, rare: str = "warn"):
        # stored as given (scikit-learn's rule); the method and its fold shares are derived where a split needs them
        self.n_splits, self.order, self.sample_distribution_per_fold, self.random_state = (
            n_splits, order, sample_distribution_per_fold, random_state)
        self.shuffle, self.compat, self.rare = shuffle, compat, rare
        self._check_params()

    @property
    def method(self) -> str:
        """The registered method ``order`` picks: ``"iterative"`` (1) or ``"sois"`` (2); not a parameter."""
        return "iterative" if self.order == 1 else "sois"

    def _params(self) -> dict:
        shares = self.sample_distribution_per_fold
        return {"fold_shares": list(shares)} if shares is not None and self.compat is None else {}

    def _check_params(self):
        if self.order not in (1, 2) or isinstance(self.order, bool):
            raise StratbenchError(f"order must be 1 (iterative stratification) or 2 (SOIS), got {self.order!r}")
        method = super()._check_params()
        if self.sample_distribution_per_fold is not None and self.compat is not None:  # the peer's shares
            self._check_fold_shares(self.sample_distribution_per_fold)
        return method

    def _check_fold_shares(self, shares) -> None:
        check_fold_shares(shares, self.n_splits, "sample_distribution_per_fold", normalised=True)

    def _check_method(self, method, params, compat) -> None:  # order, not method, picks it; shares checked after
        super()._check_method("iterative" if compat else method, {}, compat)

    def _peer_folds(self, Y, rng) -> np.ndarray:
        shares = self.sample_distribution_per_fold  # as the default path takes them: any sequence of floats, order 1.0
        shares = None if shares is None else [float(share) for share in shares]
        return skmultilearn_test_folds(Y, self.n_splits, int(self.order), shares, rng)

class RepeatedMultilabelStratifiedKFold(_KFolds):
    """iterative-stratification's ``RepeatedMultilabelStratifiedKFold(n_splits=5, *, n_repeats=10,
    random_state=None)``: ``n_repeats`` k-fold CVs of ``method``, each on the rows in a fresh random order
    (one stream from ``random_state``), ``n_splits × n_repeats`` splits in all. ``compat="iterstrat"``:
    iterative-stratification 0.1.9's folds, bit for bit.

    Parameters
    ----------
    n_repeats : int, default=10
        The k-fold CVs, each on the rows in a fresh random order.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> cv = RepeatedMultilabelStratifiedKFold(n_splits=2, n_repeats=3, random_state=0)
    >>> cv.get_n_splits(), [len(test) for _, test in cv.split(None, Y)]
    (6, [6, 6, 6, 6, 6, 6])
    """

    _compat = (None, "iterstrat")
    shuffle = True  # every repeat on the rows in a fresh random order: a class attribute, not a parameter

    def __init__(self, n_splits: int = 5, *, n_repeats: int = 10, random_state=None, method: str = "iterative",
                 compat: str | None = None, rare: str = "warn", **params):
        self.n_splits, self.n_repeats, self.random_state, self.method, self.compat, self.rare, self.params = (
            n_splits, n_repeats, random_state, method, compat, rare, params)
        self._check_params()

    def _check_params(self):
        if not isinstance(self.n_repeats, numbers.Integral) or isinstance(self.n_repeats, bool) or self.n_repeats < 1:
            raise StratbenchError(f"n_repeats must be an integer ≥ 1, got {self.n_repeats!r}")
        return super()._check_params()

    def split(self, X=None, y=None, groups=None, strata=None):
        method = self._check_params()
        Y, strata, split_on, weights = _prepared(self, X, y, groups, strata)
        # iterstrat's repeats draw from one RandomState, as scikit-learn's _RepeatedSplits: the same stream here
        rng = self._rng()
        for _ in range(self.n_repeats):  # one warning per repeat, pointing at the caller's loop
            yield from self._split_once(method, Y, strata, split_on, weights, groups, rng, stacklevel=3)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits * self.n_repeats


class MultilabelStratifiedShuffleSplit(_MultilabelSplitter):
    """iterative-stratification's ``MultilabelStratifiedShuffleSplit(n_splits=10, *, test_size="default",
    train_size=None, random_state=None)``: ``n_splits`` independent (train, test) splits of ``method``, each on
    the rows in a fresh random order; the sides hold exactly scikit-learn's sizes (test ⌈p·n⌉ for a float share,
    the rest train; ``"default"``: 0.1), the method's split moved to them by the fewest label changes
    (:func:`stratbench.stratifiers.sizes.fit_sizes`). ``compat="iterstrat"``: iterative-stratification 0.1.9's
    splits, bit for bit (its sides are near those sizes, not at them). ``rare`` as the k-fold classes', for the two
    sides of each split (one warning per split; ``"guarantee"`` where no rows are left out of both sides).

    Parameters
    ----------
    test_size : float, int, "default" or None, default="default"
        The test side's share or number of rows (``"default"`` and None: 0.1 when ``train_size`` is None, else
        the rest).
    train_size : float, int or None, default=None
        The training side's share or number of rows (None: the rest).

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.eye(3, dtype=int).repeat(4, axis=0)
    >>> [(len(train), len(test)) for train, test in MultilabelStratifiedShuffleSplit(3, test_size=0.3, random_state=0).split(None, Y)]
    [(8, 4), (8, 4), (8, 4)]
    """

    _compat = (None, "iterstrat")

    def __init__(self, n_splits: int = 10, *, test_size="default", train_size=None, random_state=None,
                 method: str = "iterative", compat: str | None = None, rare: str = "warn", **params):
        (self.n_splits, self.test_size, self.train_size, self.random_state, self.method, self.compat, self.rare,
         self.params) = (n_splits, test_size, train_size, random_state, method, compat, rare, params)
        self._check_params()

    def _check_params(self):
        """rare, compat, the method's name and keywords, and a test_size of ``"default"``; the method built from them
        in holdout mode, which checks the rest (n_splits, the sizes, random_state, its parameters), or under compat
        (None) those checked here. At construction and once per split."""
        _check_rare(self.rare, self.compat)
        if self.params.get("fold_shares") is not None:
            raise TypeError(f"{type(self).__name__} takes test_size and train_size, not fold_shares")
        self._check_method(self.method, self.params, self.compat)
        if self.compat is not None:
            check_n_splits(self.n_splits, least=1)
            if not (isinstance(self.test_size, str) and self.test_size == "default"):
                check_size(self.test_size, "test_size")
            check_size(self.train_size, "train_size")
            self._check_random_state()
            return None
        if isinstance(self.test_size, str) and self.test_size != "default":
            check_size(self.test_size, "test_size")  # refused, naming it
        return stratifiers.get(self.method, n_splits=self.n_splits, test_size=self._test_size(),
                               train_size=self.train_size, random_state=self.random_state, **self.params)

    def _test_size(self):
        """``"default"`` (iterstrat's spelling) or None (scikit-learn's): 0.1 when ``train_size`` is None, else the
        rest, as both document it."""
        if self.test_size is None or isinstance(self.test_size, str):
            return 0.1 if self.train_size is None else None
        return self.test_size

    def split(self, X=None, y=None, groups=None, strata=None):
        method = self._check_params()
        Y, strata, split_on, weights = _prepared(self, X, y, groups, strata)
        n = split_on.shape[0]
        groups = check_groups(groups, n) if method is None else method._accept(n, groups, weights, strata)
        n_train, n_test = holdout_sizes(n, self._test_size(), self.train_size)
        rest = n - n_train - n_test  # rows in neither side where the two sizes leave some out
        if self.rare == "guarantee" and (groups is not None or rest):
            raise StratbenchError("rare='guarantee' swaps single rows between the two sides: it takes no groups and "
                                  "no train_size that leaves rows out; use rare='warn' there")
        names = column_names(Y, strata)  # the sizes fitted, and rare labels placed, on every column split on
        if self.compat is not None:
            if groups is not None:
                raise StratbenchError(f"compat={self.compat!r} does not split by groups: a group's rows would leak "
                                      "across the sides")
            for test in shuffle_split_test_sides(Y, n_train, n_test, self.n_splits, self._peer_rng()):
                self._warn_sides(split_on, np.where(test, 1, 0), names)
                yield np.flatnonzero(~test), np.flatnonzero(test)
            return
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message=".*fewer positives than the")  # as in the k-fold classes
            draws = method._holdout_ids(split_on, groups, weights, check_random_state(self.random_state))
        for ids in draws:
            if groups is None:  # scikit-learn's exact sizes, the rows left out as a third subset (id −1 → 2)
                ids = fit_sizes(split_on, np.where(ids < 0, 2, ids), np.array([n_train, n_test, rest]))
            if self.rare == "guarantee":
                ids = place_in_every_part(split_on, ids, 2)
            self._warn_sides(split_on, ids, names)
            yield np.flatnonzero(ids == 0), np.flatnonzero(ids == 1)

    def _warn_sides(self, split_on, ids, names) -> None:
        """rare='warn': one warning for this split, at the caller's line, over the rows of its two sides."""
        if self.rare == "warn":
            sides = (ids == 0) | (ids == 1)
            warn_missing_parts(split_on[sides], ids[sides], ["train", "test"], stacklevel=3, label_names=names)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits


def iterative_train_test_split(X, y, test_size, *, random_state=None, compat: str | None = None):
    """scikit-multilearn's ``iterative_train_test_split(X, y, test_size)``: one stratified holdout split by
    second-order iterative stratification (``IterativeStratification(n_splits=2, order=2,
    sample_distribution_per_fold=[test_size, 1 − test_size])``), returned in its order: ``X_train, y_train,
    X_test, y_test``. ``test_size`` is the test share in (0, 1). ``compat="skmultilearn"``: scikit-multilearn
    0.2.0's split, bit for bit (``random_state=None`` draws from numpy's global state, as it does).

    >>> import numpy as np
    >>> X, Y = np.arange(12).reshape(12, 1), np.eye(3, dtype=int).repeat(4, axis=0)
    >>> X_train, y_train, X_test, y_test = iterative_train_test_split(X, Y, test_size=0.25, random_state=0)
    >>> len(X_train), y_test.sum(axis=0).tolist()
    (9, [1, 1, 1])
    """
    if isinstance(test_size, bool) or not isinstance(test_size, numbers.Real) or not 0 < test_size < 1:
        raise StratbenchError(f"test_size must be a share in (0, 1), as scikit-multilearn's iterative_train_test_split "
                              f"takes it, got {test_size!r}")
    if compat not in (None, "skmultilearn"):
        raise StratbenchError(f"iterative_train_test_split: compat must be None or 'skmultilearn' (the peer whose split "
                              f"it gives, bit for bit), got {compat!r}")
    check_consistent_length(X=X, y=y)
    cv = IterativeStratification(n_splits=2, order=2, sample_distribution_per_fold=[test_size, 1.0 - test_size],
                                 random_state=random_state, compat=compat, rare="ignore")  # as the peer: no warning
    train, test = next(cv.split(X, y))
    return _take(X, train), _take(y, train), _take(X, test), _take(y, test)


def _take(a, rows: np.ndarray):
    """The ``rows`` of an array, a sparse matrix, a pandas object (by position), a Hugging Face ``datasets``
    Dataset (its ``select``: a Dataset) or a list."""
    if hasattr(a, "iloc"):
        return a.iloc[rows]
    if hasattr(a, "select") and hasattr(a, "column_names"):  # datasets.Dataset: indexing would give a dict
        return a.select(rows)
    if hasattr(a, "shape"):
        return a[rows]
    return [a[i] for i in rows]


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
