"""scikit-multilearn 0.2.0's ``IterativeStratification`` folds, bit for bit (its ``_prepare_stratification``,
``_distribute_positive_evidence`` and ``_distribute_negative_evidence``, ported draw for draw), so a project can
switch to stratbench mid-study and keep its folds: ``compat="skmultilearn"`` in :mod:`stratbench.model_selection`.
It loops in Python over label combinations: a reference, not a fast path."""

from __future__ import annotations

import itertools

import numpy as np
import scipy.sparse as sp


def skmultilearn_test_folds(y, n_splits: int, order: int, shares, rng: np.random.RandomState) -> np.ndarray:
    """scikit-multilearn 0.2.0's ``IterativeStratification(n_splits, order, sample_distribution_per_fold)``, bit
    for bit, with ``rng`` in place of numpy's global state (which it draws from: its ``random_state`` does
    nothing, so ``np.random.seed(s)`` before it is what a study seeded with): its combinations of ``order``
    labels, the most desired one first (as its ``_get_most_desired_combination`` picks it), rows taken from the
    end of each combination's list, ties between folds by a draw, unlabelled rows last from the end, each to a
    random fold that still wants rows. ``shares`` None: equal."""
    y = sp.lil_matrix(y)
    n = y.shape[0]
    shares = [1 / float(n_splits)] * n_splits if not shares else list(shares)
    desired = np.array([shares[i] * n for i in range(n_splits)])
    used = {i: False for i in range(n)}
    per_row: list[list] = [[] for _ in range(n)]
    with_combination: dict = {}
    for row, assigned in enumerate(y.rows):
        for combination in itertools.combinations_with_replacement(assigned, order):
            with_combination.setdefault(combination, []).append(row)
            per_row[row].append(combination)
    wanted = {c: np.array([len(rows) * shares[j] for j in range(n_splits)]) for c, rows in with_combination.items()}
    folds = np.full(n, -1)

    def most_desired():
        chosen, best_size, best_support = None, None, None
        for combination, rows in with_combination.items():
            size, support = len(set(combination)), len(rows)
            if support == 0:
                continue
            if chosen is None or (best_size < size and best_support > support):
                chosen, best_size, best_support = combination, size, support
        return chosen

    def tie_break(want, M):
        if len(M) == 1:
            return M[0]
        top = np.where(np.array(want) == max(want[M]))[0]
        return rng.choice(np.array([x for x in top if x in M]), 1)[0]

    label = most_desired()
    while label is not None:
        while len(with_combination[label]) > 0:
            row = with_combination[label].pop()
            if used[row]:
                continue
            M = np.where(np.array(wanted[label]) == max(wanted[label]))[0]
            m = tie_break(wanted[label], M)
            folds[row] = m
            used[row] = True
            for c in per_row[row]:
                if row in with_combination[c]:
                    with_combination[c].remove(row)
                wanted[c][m] -= 1
            desired[m] -= 1
        label = most_desired()
    left = [i for i, v in used.items() if not v]
    while left:
        row = left.pop()
        m = rng.choice(np.where(desired > 0)[0], 1)[0]
        desired[m] -= 1
        folds[row] = m
    return folds
