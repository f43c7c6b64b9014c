"""Subset sizes: holdout sides as scikit-learn rounds them, and the repairs that bring a method's subsets
to their sizes: an empty subset filled (guarantee 2 of :class:`~stratbench.stratifiers.MultilabelStratifier`),
every subset moved to an exact target, contiguous windows of the apportioned sizes."""

from __future__ import annotations

import math
import numbers

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.labels import apportion


def check_size(size, name: str) -> None:
    """A holdout side as scikit-learn's shuffle splits take it: a share in (0, 1) or a count ≥ 1."""
    if size is None:
        return
    if isinstance(size, numbers.Integral) and not isinstance(size, bool):
        if size < 1:
            raise StratbenchError(f"{name}={size}: a count of examples must be ≥ 1")
        return
    if isinstance(size, numbers.Real) and not isinstance(size, bool) and 0 < size < 1:
        return
    raise StratbenchError(f"{name} must be a share in (0, 1) or a count ≥ 1, got {size!r}")


def holdout_sizes(n: int, test_size, train_size) -> tuple[int, int]:
    """(n_train, n_test) as scikit-learn's shuffle splits round them: a float test share rounds up,
    a float train share down, an int is a count, a missing side is the rest. An empty side, or
    sides larger than n together, stop with a message."""
    def count(size, name, rounding):
        if size is None:
            return None
        if isinstance(size, numbers.Integral) and not isinstance(size, bool):
            if not 0 < size < n:
                raise StratbenchError(f"{name}={size} must be a count in [1, {n - 1}] for {n} examples")
            return int(size)
        if isinstance(size, numbers.Real) and 0 < size < 1:
            return int(rounding(size * n))
        raise StratbenchError(f"{name} must be a share in (0, 1) or a count, got {size!r}")

    n_test, n_train = count(test_size, "test_size", math.ceil), count(train_size, "train_size", math.floor)
    if n_test is None:
        n_test = n - n_train
    if n_train is None:
        n_train = n - n_test
    if n_train + n_test > n:
        raise StratbenchError(f"train_size={train_size!r} and test_size={test_size!r} ask for {n_train} + {n_test} "
                              f"of {n} examples")
    if n_test == 0 or n_train == 0:
        side = "test" if n_test == 0 else "train"
        raise StratbenchError(f"with n_samples={n}, test_size={test_size!r} and train_size={train_size!r}, the "
                              f"{side} set would be empty; adjust them")
    return n_train, n_test


def leaving_cost(Y: sp.csr_matrix, rows: np.ndarray) -> np.ndarray:
    """What each of a subset's ``rows`` costs its labels if it leaves: Σ_λ∈Y_x 1/|S^λ| over the subset
    (0 for a label-less row), the order in which the repairs move rows out."""
    sub = Y[rows]
    held = np.bincount(sub.indices, minlength=Y.shape[1]).astype(float)
    return np.asarray(sub @ (1.0 / np.maximum(held, 1.0))).ravel() if sub.nnz else np.zeros(len(rows))


def fit_sizes(Y: sp.csr_matrix, ids: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Move examples until every subset holds ``targets[j]`` examples: one at a time, from the subset
    furthest above its target to the one furthest below, the example whose labels the giving subset
    holds most of (cost Σ_λ∈Y_x 1/|S_donor^λ|, a label-less example first), lowest row among equals."""
    ids = ids.copy()
    sizes = np.bincount(ids, minlength=len(targets))
    targets = np.asarray(targets, dtype=np.int64)
    while (sizes != targets).any():
        donor, taker = int(np.argmax(sizes - targets)), int(np.argmin(sizes - targets))
        rows = np.flatnonzero(ids == donor)
        cost = leaving_cost(Y, rows)
        moves = min(int(sizes[donor] - targets[donor]), int(targets[taker] - sizes[taker]))
        moved = rows[np.argsort(cost, kind="stable")[:moves]]
        ids[moved] = taker
        sizes[donor] -= moves
        sizes[taker] += moves
    return ids


def repair_empty(Y: sp.csr_matrix, ids: np.ndarray, ratios: np.ndarray, weights: np.ndarray | None = None) -> np.ndarray:
    """Fill every empty subset with one row (guarantee 2): taken from the subset furthest above its
    desired size (with ≥ 2 rows), the one whose labels are most common in that subset — cost
    Σ_λ∈Y_x 1/|S_donor^λ|, 0 for a label-less row — lowest row on ties. A row is an example, or a
    group of ``weights[x]`` examples (sizes then counted in examples)."""
    members = np.bincount(ids, minlength=len(ratios))
    if members.all() or len(ids) < len(ratios):
        return ids
    weights = np.ones(len(ids)) if weights is None else np.asarray(weights, dtype=float)
    sizes = np.bincount(ids, weights=weights, minlength=len(ratios))
    ids = ids.copy()
    desired = weights.sum() * np.asarray(ratios)
    for empty in np.flatnonzero(members == 0):
        surplus = np.where(members >= 2, sizes - desired, -np.inf)
        donor = int(np.argmax(surplus))
        rows = np.flatnonzero(ids == donor)
        cost = leaving_cost(Y, rows)
        moved = rows[int(np.argmin(cost))]
        ids[moved] = empty
        members[donor] -= 1
        members[empty] += 1
        sizes[donor] -= weights[moved]
        sizes[empty] += weights[moved]
    return ids


def windows(order: np.ndarray, ratios: np.ndarray) -> np.ndarray:
    """Subset ids for contiguous windows over ``order`` with sizes ``apportion(n, ratios)``."""
    n = len(order)
    folds = np.empty(n, dtype=np.int64)
    folds[order] = np.repeat(np.arange(len(ratios)), apportion(n, ratios))
    return folds
