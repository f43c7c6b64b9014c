"""A conformance certificate for every splitter, ours and the peers': the properties a cross-validator is
trusted for, checked on small random label matrices, ✔ or ✘, and for every ✘ the smallest case found
that shows it (a reproducer a test runs again).

Properties (k-fold, n rows, one fold id per row):

- ``partition``: every row in exactly one test fold (disjoint folds, full coverage);
- ``sizes``: every test fold within one example of n/k;
- ``no_empty_fold``: no test fold empty (k ≤ n);
- ``same_seed``: the same seed gives the same folds;
- ``distinct_repeats``: different seeds give different folds (``–`` for a method that ignores its seed);
- ``sparse_y``: a scipy.sparse y is taken and split as the dense one;
- ``groups``: with groups, every group's rows share a fold, or the groups are refused (never ignored).

``stratbench certify`` writes the table; :func:`certificate` returns it with the reproducers.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

PROPERTIES = ("partition", "sizes", "no_empty_fold", "same_seed", "distinct_repeats", "sparse_y", "groups")
CASES = [(n, labels, k) for n in (6, 9, 12, 20, 40) for labels in (2, 4) for k in (2, 3, 5) if k <= n]
SEEDS = (0, 1, 2)


@dataclass(frozen=True)
class Splitter:
    """A splitter under test: ``fold_ids(Y, k, seed, groups)`` → a fold id per row (dense or sparse ``Y``);
    ``seeded``: whether the seed is meant to change the split."""

    name: str
    fold_ids: Callable
    seeded: bool = True


@dataclass
class Result:
    splitter: str
    marks: dict = field(default_factory=dict)  # property → "✔", "✘" or "–"
    reproducers: dict = field(default_factory=dict)  # property → the smallest failing case


def case_matrix(n: int, labels: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, labels)) < 0.4).astype(np.int8)
    Y[np.arange(labels) % n, np.arange(labels)] = 1  # every label present
    return Y


def _run(splitter: Splitter, Y, k: int, seed: int, groups=None) -> np.ndarray:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return np.asarray(splitter.fold_ids(Y, k, seed, groups))


def holds(splitter: Splitter, prop: str, n: int, labels: int, k: int, seed: int) -> bool:
    """Whether ``prop`` holds for ``splitter`` on the case (n, labels, k, seed); an error is a failure, except
    a refusal of groups, which the ``groups`` property allows."""
    Y = case_matrix(n, labels, seed)
    groups = np.arange(n) // 2
    try:
        if prop == "groups":
            try:
                folds = _run(splitter, Y, k, seed, groups)
            except (ValueError, TypeError):
                return True  # refused, not ignored
            return all(len(set(folds[groups == g].tolist())) == 1 for g in np.unique(groups))
        folds = _run(splitter, Y, k, seed)
        if prop == "partition":
            return folds.shape == (n,) and set(folds.tolist()) <= set(range(k))
        if prop == "sizes":
            return bool(np.abs(np.bincount(folds, minlength=k) - n / k).max() < 1)
        if prop == "no_empty_fold":
            return bool(np.bincount(folds, minlength=k).all())
        if prop == "same_seed":
            return bool((folds == _run(splitter, Y, k, seed)).all())
        if prop == "distinct_repeats":
            return any(not (folds == _run(splitter, Y, k, seed + s)).all() for s in range(1, 6))
        if prop == "sparse_y":
            return bool((folds == _run(splitter, sp.csr_matrix(Y), k, seed)).all())
    except Exception:  # noqa: BLE001 - a splitter that raises on a valid case fails the property
        return False
    raise ValueError(f"unknown property {prop!r}")


def certify(splitter: Splitter, properties=PROPERTIES) -> Result:
    """Check every property on the cases in order of size; the first failing case is its reproducer."""
    result = Result(splitter.name)
    for prop in properties:
        if prop == "distinct_repeats" and not splitter.seeded:
            result.marks[prop] = "–"
            continue
        failing = next(((n, labels, k, seed) for n, labels, k in CASES for seed in SEEDS
                        if not holds(splitter, prop, n, labels, k, seed)), None)
        result.marks[prop] = "✔" if failing is None else "✘"
        if failing is not None:
            n, labels, k, seed = failing
            result.reproducers[prop] = dict(n=n, labels=labels, k=k, seed=seed, Y=case_matrix(n, labels, seed).tolist())
    return result


def ours() -> list[Splitter]:
    """Every registered stratifier (the group baselines with pairs of rows as groups where they need groups)."""
    from stratbench import stratifiers

    out = []
    for name in stratifiers.names():
        cls = stratifiers.resolve(name)
        needs = getattr(cls, "needs_groups", False)

        def fold_ids(Y, k, seed, groups, name=name, needs=needs):
            if needs and groups is None:
                groups = np.arange(Y.shape[0])  # singleton groups: the rows themselves
            return stratifiers.get(name, n_splits=k, random_state=seed).fold_ids(Y, groups)

        out.append(Splitter(name, fold_ids, seeded=bool(cls(n_splits=2, random_state=0).seeded)))
    return out


def peers() -> list[Splitter]:
    """The peers' splitters that are installed: iterative-stratification's ``MultilabelStratifiedKFold``
    (shuffled, seeded) and scikit-multilearn's ``IterativeStratification`` (seeded through numpy's global
    state, as its ``random_state`` breaks on current scikit-learn)."""
    out = []
    try:
        from iterstrat.ml_stratifiers import MultilabelStratifiedKFold

        def iterstrat(Y, k, seed, groups):
            folds = np.empty(Y.shape[0], dtype=int)
            cv = MultilabelStratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
            for j, (_, test) in enumerate(cv.split(np.zeros((Y.shape[0], 1)), Y, groups)):
                folds[test] = j
            return folds

        out.append(Splitter("iterative-stratification 0.1.9 MultilabelStratifiedKFold", iterstrat))
    except ImportError:
        pass
    try:
        from skmultilearn.model_selection import IterativeStratification

        def skmultilearn(Y, k, seed, groups):
            np.random.seed(seed)
            folds = np.empty(Y.shape[0], dtype=int)
            for j, (_, test) in enumerate(IterativeStratification(n_splits=k, order=1).split(
                    np.zeros((Y.shape[0], 1)), Y, groups)):
                folds[test] = j
            return folds

        out.append(Splitter("scikit-multilearn 0.2.0 IterativeStratification", skmultilearn))
    except ImportError:
        pass
    return out


def certificate(splitters: list[Splitter] | None = None) -> list[Result]:
    """The certificate of ``splitters`` (default: ours, then the installed peers')."""
    return [certify(s) for s in (splitters if splitters is not None else [*ours(), *peers()])]


def markdown(results: list[Result]) -> str:
    """The table (✔ / ✘ / – per property and splitter), then each ✘'s reproducer."""
    lines = ["| splitter | " + " | ".join(PROPERTIES) + " |", "|---|" + "---|" * len(PROPERTIES)]
    lines += [f"| {r.splitter} | " + " | ".join(r.marks.get(p, "") for p in PROPERTIES) + " |" for r in results]
    failing = [(r.splitter, p, case) for r in results for p, case in r.reproducers.items()]
    if failing:
        lines += ["", "Reproducers (the smallest failing case found: n rows, labels, k, seed, and Y):", ""]
        lines += [f"- {name}, {prop}: n={c['n']}, labels={c['labels']}, k={c['k']}, seed={c['seed']}, Y={c['Y']}"
                  for name, prop, c in failing]
    return "\n".join(lines) + "\n"
