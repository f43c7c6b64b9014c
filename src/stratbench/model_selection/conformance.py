"""A conformance certificate for every splitter a user runs: the registered methods, the classes of
:mod:`stratbench.model_selection` (every ``compat`` mode among them) and the installed peers'. Each property
is ✔ or ✘, and every ✘ comes with the smallest case found that shows it (a reproducer a test runs again);
a property that cannot be checked here is ``n/c`` with the reason (a peer that is not installed, no MULAN
mirror), never ✘; ``–`` is a property that does not apply.

Properties (n rows, k subsets; a holdout splitter's two sides are its subsets, of shares 1 − 1/k and 1/k):

- ``partition``: every row in exactly one subset (disjoint, full coverage);
- ``sizes``: every subset within one row of its share of n, on small random label matrices;
- ``no_empty_fold``: no subset empty (k ≤ n);
- ``same_seed``: the same seed gives the same split;
- ``distinct_repeats``: different seeds give different splits (``–`` where a splitter ignores its seed);
- ``sparse_y``: a scipy.sparse y is taken and split as the dense one;
- ``groups``: with groups, every group's rows share a subset, or the groups are refused (never ignored);
- ``bad_input``: each family of :data:`BAD_INPUTS` (lengths that differ, k above n, k = 1 or 3.0, an unknown
  keyword, a 1-d class vector, NaN, a value other than 0/1, no rows, groups of the wrong length) stops with a
  ValueError or TypeError before any split is yielded (a holdout splitter's k is its test share: the three
  families about k are for the k-fold ones);
- ``peer_folds``: a ``compat`` mode gives the installed peer's folds, bit for bit;
- ``real_sizes``: the most rows any subset is off its share of n on real data (the mirror's small MULAN
  datasets, when a mirror is set) and a synthetic 10⁴ × 100 matrix, k ∈ {5, 10}: ✔ where within one row.

``stratbench certify`` writes the table; :func:`certificate` returns it with the reproducers.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

PROPERTIES = ("partition", "sizes", "no_empty_fold", "same_seed", "distinct_repeats", "sparse_y", "groups",
              "bad_input", "peer_folds", "real_sizes")
CASES = [(n, labels, k) for n in (6, 9, 12, 20, 40) for labels in (2, 4) for k in (2, 3, 5) if k <= n]
SEEDS = (0, 1, 2)
REAL_DATASETS = ("emotions", "flags", "genbase", "medical", "scene", "yeast", "birds", "cal500")
REAL_KS = (5, 10)


class NotChecked(Exception):
    """A property that cannot be checked here; its message says why."""


DISTRIBUTIONS = {"iterstrat": "iterative-stratification", "skmultilearn": "scikit-multilearn"}


def _missing(exc: ModuleNotFoundError) -> NotChecked:
    """The package a splitter needs and lacks, by its distribution's name."""
    module = (exc.name or "a package").split(".")[0]
    return NotChecked(f"{DISTRIBUTIONS.get(module, module)} is not installed")


@dataclass(frozen=True)
class Splitter:
    """A splitter under test: ``make(k, seed, **keywords)`` builds it (the keywords reach its constructor, so an
    unknown one can be tried), and ``make(…).split(X, y, groups)`` yields (train, test) pairs. ``holdout``: its
    two sides (train, test) at test share 1/k; ``seeded``: whether the seed is meant to change the split;
    ``peer``: for a ``compat`` mode, the installed peer it must equal (a :class:`Splitter`), or the reason it
    cannot be checked (a str)."""

    name: str
    make: Callable
    seeded: bool = True
    holdout: bool = False
    peer: object = None

    def subsets(self, Y, k: int, seed, groups=None, X=None) -> np.ndarray:
        """The subset of every row (k-fold: its test fold; holdout: 0 train, 1 test, −1 neither)."""
        n = Y.shape[0]
        ids = np.full(n, -1, dtype=np.int64)
        try:
            splits = self.make(k, seed).split(np.arange(n)[:, None] if X is None else X, Y, groups)
            if self.holdout:
                train, test = next(iter(splits))
                ids[train], ids[test] = 0, 1
                return ids
            for j, (_, test) in enumerate(splits):
                ids[test] = j if ids[test].max(initial=-1) < 0 else -2  # a row in two test folds: −2
            return ids
        except ModuleNotFoundError as exc:
            raise _missing(exc) from None

    def shares(self, k: int) -> np.ndarray:
        return np.array([1 - 1 / k, 1 / k]) if self.holdout else np.full(k, 1 / k)


@dataclass
class Result:
    splitter: str
    marks: dict = field(default_factory=dict)  # property → "✔", "✘", "–" or "n/c"
    reproducers: dict = field(default_factory=dict)  # property → the smallest failing case
    reasons: dict = field(default_factory=dict)  # property → why it was not checked, or what was measured
    measured: dict = field(default_factory=dict)  # real_sizes → (most rows off, where)


def case_matrix(n: int, labels: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, labels)) < 0.4).astype(np.int8)
    Y[np.arange(labels) % n, np.arange(labels)] = 1  # every label present
    return Y


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _off_share(ids: np.ndarray, shares: np.ndarray) -> float:
    """The most rows any subset is off its share of n."""
    sizes = np.bincount(ids[ids >= 0], minlength=len(shares))[: len(shares)]
    return float(np.abs(sizes - len(ids) * shares).max())


def holds(splitter: Splitter, prop: str, n: int, labels: int, k: int, seed: int) -> bool:
    """Whether ``prop`` holds for ``splitter`` on the case (n, labels, k, seed); an error is a failure, except a
    refusal of groups, which the ``groups`` property allows, and a missing package (:class:`NotChecked`)."""
    Y = case_matrix(n, labels, seed)
    groups = np.arange(n) // 2
    try:
        if prop == "groups":
            try:
                ids = _quiet(splitter.subsets, Y, k, seed, groups)
            except (ValueError, TypeError):
                return True  # refused, not ignored
            return all(len(set(ids[groups == g].tolist())) == 1 for g in np.unique(groups))
        ids = _quiet(splitter.subsets, Y, k, seed)
        parts = 2 if splitter.holdout else k
        if prop == "partition":
            return bool(((ids >= 0) & (ids < parts)).all())
        if prop == "sizes":
            return _off_share(ids, splitter.shares(k)) < 1
        if prop == "no_empty_fold":
            return bool(np.bincount(ids[ids >= 0], minlength=parts)[:parts].all())
        if prop == "same_seed":
            return bool((ids == _quiet(splitter.subsets, Y, k, seed)).all())
        if prop == "distinct_repeats":
            return any(not (ids == _quiet(splitter.subsets, Y, k, seed + s)).all() for s in range(1, 6))
        if prop == "sparse_y":
            return bool((ids == _quiet(splitter.subsets, sp.csr_matrix(Y), k, seed)).all())
        if prop == "peer_folds":
            return bool((ids == _quiet(splitter.peer.subsets, Y, k, seed)).all())
    except NotChecked:
        raise
    except Exception:  # noqa: BLE001 - a splitter that raises on a valid case fails the property
        return False
    raise ValueError(f"unknown property {prop!r}")


# --- bad input: each family a way to call a splitter that must stop before any split ------------------

def _rows(n: int = 12, labels: int = 3) -> np.ndarray:
    return case_matrix(n, labels, 0)


ABOUT_K = ("more splits than rows", "n_splits=1", "n_splits=3.0")  # for k folds; a holdout's k is its test share
BAD_INPUTS: dict[str, Callable] = {
    "X and y of different lengths": lambda s: s.make(3, 0).split(np.zeros((11, 1)), _rows()),
    "groups of the wrong length": lambda s: s.make(3, 0).split(np.zeros((12, 1)), _rows(), np.arange(11) // 2),
    "more splits than rows": lambda s: s.make(13, 0).split(np.zeros((12, 1)), _rows()),
    "n_splits=1": lambda s: s.make(1, 0).split(np.zeros((12, 1)), _rows()),
    "n_splits=3.0": lambda s: s.make(3.0, 0).split(np.zeros((12, 1)), _rows()),
    "an unknown keyword": lambda s: s.make(3, 0, n_split=5).split(np.zeros((12, 1)), _rows()),
    "a 1-d class vector": lambda s: s.make(3, 0).split(np.zeros((12, 1)), np.arange(12) % 3),
    "NaN in y": lambda s: s.make(3, 0).split(np.zeros((12, 1)), np.where(_rows() == 1, 1.0, np.nan)),
    "a value other than 0/1": lambda s: s.make(3, 0).split(np.zeros((12, 1)), _rows() * 2),
    "y without rows": lambda s: s.make(3, 0).split(np.zeros((0, 1)), np.zeros((0, 3))),
}


def refuses(splitter: Splitter, family: str) -> bool:
    """Whether ``splitter`` stops on the bad input ``family`` with a ValueError or TypeError before it yields
    a split."""
    try:
        splits = _quiet(BAD_INPUTS[family], splitter)
        _quiet(next, iter(splits))
    except ModuleNotFoundError as exc:
        raise _missing(exc) from None
    except (ValueError, TypeError):
        return True
    except Exception:  # noqa: BLE001 - any other error is not the clear refusal scikit-learn gives
        return False
    return False


# --- real-data sizes ------------------------------------------------------------------------------

def real_label_matrices(mirror: str | None = None) -> tuple[dict, str | None]:
    """({name: Y}) of the mirror's small MULAN datasets and a synthetic 10⁴ × 100 matrix; and why the MULAN
    ones are missing, if they are (no mirror set)."""
    from stratbench.datasets import generate_synthetic, load_mulan
    from stratbench.datasets.fetch import resolve_mirror

    synthetic = generate_synthetic("synthetic_1e4", examples=10_000, labels=100, features=2, cardinality=3.0,
                                   dependence=0.01, seed=1, census=2_000)
    matrices, why = {}, None
    mirror = resolve_mirror(mirror)
    if mirror is None:
        why = "no MULAN mirror is set (STRATBENCH_DATA_MIRROR): checked on the synthetic matrix only"
    else:
        matrices = {name: load_mulan(name, mirror=mirror).Y for name in REAL_DATASETS}
    matrices["synthetic 10⁴ × 100"] = synthetic.Y
    return matrices, why


def measure_real_sizes(splitter: Splitter, matrices: dict) -> tuple[float, str]:
    """The most rows any subset is off its share of n over ``matrices`` × :data:`REAL_KS` (seed 0, dense y, as
    every peer takes it), and where; a splitter that raises on one of them is infinitely off, there."""
    worst, where = 0.0, ""
    for name, Y in matrices.items():
        for k in REAL_KS:
            try:
                off = _off_share(_quiet(splitter.subsets, Y.toarray(), k, 0), splitter.shares(k))
            except (NotChecked, ModuleNotFoundError):
                raise
            except Exception as exc:  # noqa: BLE001 - a refusal of valid data: no sizes at all
                return math.inf, f"{name}, k={k}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}"
            if off > worst:
                worst, where = off, f"{name}, k={k}"
    return worst, where


# --- the splitters --------------------------------------------------------------------------------

def ours() -> list[Splitter]:
    """Every registered stratifier (the group baselines, which need groups, given the rows as groups)."""
    from stratbench import stratifiers

    out = []
    for name in stratifiers.names():
        cls = stratifiers.resolve(name)
        if getattr(cls, "context", ()):  # reads folds a study's job names (from_file): nothing of its own to certify
            continue
        make = lambda k, seed, name=name, **kw: stratifiers.get(name, n_splits=k, random_state=seed, **kw)
        if getattr(cls, "needs_groups", False):
            make = _singleton_groups(make)
        out.append(Splitter(name, make, seeded=bool(cls(n_splits=2, random_state=0).seeded)))
    return out


def _singleton_groups(make):
    """A splitter that needs groups, given the rows as singleton groups where the call gives none."""

    class Singletons:
        def __init__(self, k, seed, **kw):
            self.inner = make(k, seed, **kw)

        def split(self, X=None, y=None, groups=None):
            if groups is None and np.ndim(y) == 2 and np.shape(y)[0] > 0:
                groups = np.arange(np.shape(y)[0])
            return self.inner.split(X, y, groups)

    return Singletons


def classes() -> list[Splitter]:
    """The classes of :mod:`stratbench.model_selection` as users build them, every ``compat`` mode included
    (each checked against the installed peer: ``peer_folds``)."""
    from stratbench import model_selection as ms

    peer = {p.name: p for p in peers()}
    iterstrat = peer.get(ITERSTRAT_KFOLD, "iterative-stratification is not installed")
    iterstrat_shuffle = peer.get(ITERSTRAT_SHUFFLE, "iterative-stratification is not installed")
    skml = peer.get(SKML_IS, "scikit-multilearn is not installed")

    class TrainTestSplit:
        """``iterative_train_test_split`` as a one-split holdout splitter (test share 1/k)."""

        def __init__(self, k, seed, compat=None, **kw):
            if not isinstance(k, int) or isinstance(k, bool) or k < 2:
                raise ValueError(f"k={k!r}")  # the certificate's k sets the test share: 1/k
            self.k, self.seed, self.compat, self.kw = k, seed, compat, kw

        def split(self, X, y, groups=None):
            if groups is not None:
                raise TypeError("iterative_train_test_split takes no groups")
            X_train, _, X_test, _ = ms.iterative_train_test_split(X, y, 1 / self.k, random_state=self.seed,
                                                                  compat=self.compat, **self.kw)
            yield np.ravel(X_train), np.ravel(X_test)  # X holds the row ids

    class TwoParts:
        """``MultilabelStratifiedParts`` or ``train_validation_test_split`` with two parts (train, test) at test
        share 1/k: a one-split holdout splitter."""

        def __init__(self, k, seed, function=False, **kw):
            if not isinstance(k, int) or isinstance(k, bool) or k < 2:
                raise ValueError(f"k={k!r}")  # the certificate's k sets the test share: 1/k
            self.sizes, self.seed, self.function = (1 - 1 / k, 1 / k), seed, function
            self.kw = {"rare": "ignore", **kw}
            if not function:
                self.parts = ms.MultilabelStratifiedParts(self.sizes, ("train", "test"), random_state=seed, **self.kw)

        def split(self, X, y, groups=None):
            if self.function:
                X_train, X_test = ms.train_validation_test_split(X, y=y, sizes=self.sizes, groups=groups,
                                                                 random_state=self.seed, **self.kw)
                yield np.ravel(X_train), np.ravel(X_test)  # X holds the row ids
            else:
                yield from self.parts.split(X, y, groups)

    class WithStrata:
        """``MultilabelStratifiedKFold(shuffle=True)`` given ``strata`` beside y: a multiclass column and a continuous
        one of weight 2 in 3 quantile bins (made from the row numbers, so every case has them)."""

        def __init__(self, k, seed, **kw):
            self.cv = ms.MultilabelStratifiedKFold(k, shuffle=True, random_state=seed, **kw)

        def split(self, X, y, groups=None):
            from stratbench.labels import TargetTable
            from stratbench.stratifiers.checks import num_samples

            rows = np.arange(num_samples(y))
            table = TargetTable({"site": rows % 3, "score": np.sin(rows)}, kinds={"site": "multiclass",
                                                                               "score": "continuous"},
                                weights={"score": 2}, bins={"score": 3})
            return self.cv.split(X, y, groups, strata=table)

    def kfold(cls, **fixed):
        return lambda k, seed, **kw: cls(k, random_state=seed, **{**fixed, **kw})

    return [
        Splitter("MultilabelStratifiedKFold(shuffle=True)", kfold(ms.MultilabelStratifiedKFold, shuffle=True)),
        Splitter("MultilabelStratifiedKFold(method='sois')", kfold(ms.MultilabelStratifiedKFold, method="sois")),
        Splitter("MultilabelStratifiedKFold(shuffle=True) with strata (a TargetTable)", WithStrata),
        Splitter("MultilabelStratifiedKFold(compat='iterstrat')",
                 kfold(ms.MultilabelStratifiedKFold, shuffle=True, compat="iterstrat"), peer=iterstrat),
        Splitter("RepeatedMultilabelStratifiedKFold(n_repeats=1)",
                 lambda k, seed, **kw: ms.RepeatedMultilabelStratifiedKFold(k, n_repeats=1, random_state=seed, **kw)),
        Splitter("RepeatedMultilabelStratifiedKFold(n_repeats=1, compat='iterstrat')",
                 lambda k, seed, **kw: ms.RepeatedMultilabelStratifiedKFold(k, n_repeats=1, random_state=seed,
                                                                            compat="iterstrat", **kw),
                 peer=peer.get(ITERSTRAT_REPEATED, "iterative-stratification is not installed")),
        Splitter("MultilabelStratifiedShuffleSplit", _shuffle_split(ms.MultilabelStratifiedShuffleSplit), holdout=True),
        Splitter("MultilabelStratifiedShuffleSplit(compat='iterstrat')",
                 _shuffle_split(ms.MultilabelStratifiedShuffleSplit, compat="iterstrat"), holdout=True,
                 peer=iterstrat_shuffle),
        Splitter("IterativeStratification(order=1)", kfold(ms.IterativeStratification, order=1)),
        Splitter("IterativeStratification(order=2)", kfold(ms.IterativeStratification, order=2)),
        Splitter("IterativeStratification(order=1, compat='skmultilearn')",
                 kfold(ms.IterativeStratification, order=1, compat="skmultilearn"), peer=skml),
        Splitter("MultilabelStratifiedGroupKFold",
                 _singleton_groups(lambda k, seed, **kw: ms.MultilabelStratifiedGroupKFold(k, random_state=seed, **kw))),
        Splitter("MultilabelStratifiedParts", TwoParts, holdout=True),
        Splitter("train_validation_test_split", lambda k, seed, **kw: TwoParts(k, seed, function=True, **kw),
                 holdout=True),
        Splitter("iterative_train_test_split", TrainTestSplit, holdout=True),
        Splitter("iterative_train_test_split(compat='skmultilearn')",
                 lambda k, seed, **kw: TrainTestSplit(k, seed, compat="skmultilearn", **kw), holdout=True,
                 peer=peer.get(SKML_SPLIT, "scikit-multilearn is not installed")),
    ]


def _shuffle_split(cls, **fixed):
    """A shuffle split's first split at test share 1/k."""
    return lambda k, seed, **kw: cls(1, test_size=1 / k, random_state=seed, **{**fixed, **kw})


ITERSTRAT_KFOLD = "iterative-stratification 0.1.9 MultilabelStratifiedKFold"
ITERSTRAT_REPEATED = "iterative-stratification 0.1.9 RepeatedMultilabelStratifiedKFold(n_repeats=1)"
ITERSTRAT_SHUFFLE = "iterative-stratification 0.1.9 MultilabelStratifiedShuffleSplit"
SKML_IS = "scikit-multilearn 0.2.0 IterativeStratification"
SKML_SPLIT = "scikit-multilearn 0.2.0 iterative_train_test_split"


def peers() -> list[Splitter]:
    """The peers' splitters that are installed: iterative-stratification's (shuffled, seeded) and
    scikit-multilearn's (seeded through numpy's global state, as its ``random_state`` does nothing)."""
    out = []
    try:
        from iterstrat.ml_stratifiers import MultilabelStratifiedKFold, MultilabelStratifiedShuffleSplit
        from iterstrat.ml_stratifiers import RepeatedMultilabelStratifiedKFold as Repeated

        out += [
            Splitter(ITERSTRAT_KFOLD, lambda k, seed, **kw: MultilabelStratifiedKFold(k, shuffle=True, random_state=seed,
                                                                                       **kw)),
            Splitter(ITERSTRAT_REPEATED, lambda k, seed, **kw: Repeated(n_splits=k, n_repeats=1, random_state=seed,
                                                                        **kw)),
            Splitter(ITERSTRAT_SHUFFLE, _shuffle_split(MultilabelStratifiedShuffleSplit), holdout=True),
        ]
    except ImportError:
        pass
    try:
        from skmultilearn.model_selection import IterativeStratification, iterative_train_test_split

        class Seeded:
            """scikit-multilearn's splitter, numpy's global state seeded first (its random_state does nothing)."""

            def __init__(self, k, seed, **kw):
                self.seed, self.inner = seed, IterativeStratification(n_splits=k, order=1, **kw)

            def split(self, X, y, groups=None):
                np.random.seed(self.seed)
                return self.inner.split(X, y, groups)

        class SeededTrainTest:
            def __init__(self, k, seed, **kw):
                self.k, self.seed = k, seed

            def split(self, X, y, groups=None):
                np.random.seed(self.seed)
                X_train, _, X_test, _ = iterative_train_test_split(X, y, 1 / self.k)
                yield X_train.ravel(), X_test.ravel()  # X holds the row ids

        out += [Splitter(SKML_IS, Seeded), Splitter(SKML_SPLIT, SeededTrainTest, holdout=True)]
    except ImportError:
        pass
    return out


# --- the certificate ------------------------------------------------------------------------------

def certify(splitter: Splitter, properties=PROPERTIES, matrices: tuple[dict, str | None] | None = None) -> Result:
    """Check every property; the first failing case (in order of size) is its reproducer. ``matrices``: the
    real label matrices of ``real_sizes`` (:func:`real_label_matrices`); None leaves it unchecked."""
    result = Result(splitter.name)
    for prop in properties:
        try:
            _certify_one(splitter, prop, result, matrices)
        except NotChecked as why:
            result.marks[prop], result.reasons[prop] = "n/c", str(why)
    return result


def _certify_one(splitter: Splitter, prop: str, result: Result, matrices) -> None:
    if prop == "distinct_repeats" and not splitter.seeded:
        result.marks[prop] = "–"
        return
    if prop == "peer_folds":
        if splitter.peer is None:
            result.marks[prop] = "–"
            return
        if isinstance(splitter.peer, str):
            raise NotChecked(splitter.peer)
    if prop == "bad_input":
        families = [f for f in BAD_INPUTS if not (splitter.holdout and f in ABOUT_K)]
        failing = [family for family in families if not refuses(splitter, family)]
        result.marks[prop] = "✘" if failing else "✔"
        if failing:
            result.reproducers[prop] = {"families": failing}
        return
    if prop == "real_sizes":
        if matrices is None:
            raise NotChecked("not asked for (stratbench certify --real-data)")
        off, where = measure_real_sizes(splitter, matrices[0])
        result.measured[prop] = (off, where)
        result.marks[prop] = "✔" if off < 1 else "✘"
        result.reasons[prop] = f"{off:.3g} rows off at most ({where})" if where else "exact"
        if matrices[1]:
            result.reasons[prop] += f"; {matrices[1]}"
        if off >= 1:
            result.reproducers[prop] = {"rows_off": round(off, 3), "where": where}
        return
    failing = next(((n, labels, k, seed) for n, labels, k in CASES for seed in SEEDS
                    if not holds(splitter, prop, n, labels, k, seed)), None)
    result.marks[prop] = "✔" if failing is None else "✘"
    if failing is not None:
        n, labels, k, seed = failing
        result.reproducers[prop] = dict(n=n, labels=labels, k=k, seed=seed, Y=case_matrix(n, labels, seed).tolist())


def certificate(splitters: list[Splitter] | None = None, real_data: bool = True, mirror: str | None = None) -> list[Result]:
    """The certificate of ``splitters`` (default: ours, the classes users import, then the installed peers'),
    with ``real_sizes`` measured when ``real_data``."""
    matrices = real_label_matrices(mirror) if real_data else None
    chosen = splitters if splitters is not None else [*ours(), *classes(), *peers()]
    return [certify(s, matrices=matrices) for s in chosen]


def markdown(results: list[Result]) -> str:
    """The table (✔ / ✘ / – / n/c per property and splitter), then each ✘'s reproducer and each n/c's reason."""
    lines = ["| splitter | " + " | ".join(PROPERTIES) + " |", "|---|" + "---|" * len(PROPERTIES)]
    lines += [f"| {r.splitter} | " + " | ".join(r.marks.get(p, "") for p in PROPERTIES) + " |" for r in results]
    failing = [(r.splitter, p, case) for r in results for p, case in r.reproducers.items()]
    if failing:
        lines += ["", "Reproducers (the smallest failing case found: n rows, labels, k, seed, and Y; the bad-input "
                  "families not refused; the most rows off on real data):", ""]
        lines += [f"- {name}, {prop}: " + ", ".join(f"{k}={v}" for k, v in case.items()) for name, prop, case in failing]
    notes = [(r.splitter, p, why) for r in results for p, why in r.reasons.items() if r.marks.get(p) == "n/c"]
    if notes:
        lines += ["", "Not checked here:", ""] + [f"- {name}, {prop}: {why}" for name, prop, why in notes]
    measured = [(r.splitter, why) for r in results for p, why in r.reasons.items() if p == "real_sizes"
                and r.marks.get(p) != "n/c"]
    if measured:
        lines += ["", "Sizes on real data (real_sizes):", ""] + [f"- {name}: {why}" for name, why in measured]
    return "\n".join(lines) + "\n"


def rows_off(off: float) -> str:
    """How a measured size deviation reads in ``stratbench list``.

    >>> rows_off(0.9), rows_off(10.6)
    ('n/k ± 1 (measured)', '11 rows off n/k (measured, one seed; no bound)')
    """
    return "n/k ± 1 (measured)" if off < 1 else f"{math.ceil(off)} rows off n/k (measured, one seed; no bound)"
