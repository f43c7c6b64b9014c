"""iterative-stratification 0.1.9's ``MultilabelStratifiedKFold`` folds, bit for bit (its ``_make_test_folds``
and ``IterativeStratification`` function, ported draw for draw on the same numpy ``RandomState``), so a
project can switch to stratbench mid-study and keep its folds: ``MultilabelStratifiedKFold(...,
compat="iterstrat")`` in :mod:`stratbench.model_selection`.

Its IS differs from ours (``iterative``) in the ties: the label chosen among the rarest by a uniform draw,
the fold among those with the largest wish for the label, then the largest wish overall, by another; rows
without labels go one by one to the fold with the largest wish. It loops in Python over the rows of a dense
matrix: a reference, not a fast path.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp


def random_state(seed) -> np.random.RandomState:
    """scikit-learn's ``check_random_state``: None → numpy's global RandomState, an int → a new one, a
    RandomState as it is."""
    if seed is None or seed is np.random:
        return np.random.mtrand._rand
    if isinstance(seed, numbers.Integral):
        return np.random.RandomState(seed)
    if isinstance(seed, np.random.RandomState):
        return seed
    raise ValueError(f"compat='iterstrat' takes None, an int or a RandomState as random_state, not {seed!r}")


def iterative_stratification(labels: np.ndarray, r: np.ndarray, rng: np.random.RandomState) -> np.ndarray:
    """iterstrat 0.1.9's ``IterativeStratification(labels, r, random_state)``: a test fold per row."""
    n_samples = labels.shape[0]
    test_folds = np.zeros(n_samples, dtype=int)
    c_folds = r * n_samples
    c_folds_labels = np.outer(r, labels.sum(axis=0))
    not_processed = np.ones(n_samples, dtype=bool)
    while np.any(not_processed):
        num_labels = labels[not_processed].sum(axis=0)
        if num_labels.sum() == 0:
            for sample_idx in np.where(not_processed)[0]:
                fold_idx = np.where(c_folds == c_folds.max())[0]
                fold_idx = fold_idx[rng.choice(fold_idx.shape[0])] if fold_idx.shape[0] > 1 else fold_idx[0]
                test_folds[sample_idx] = fold_idx
                c_folds[fold_idx] -= 1
            break
        label_idx = np.where(num_labels == num_labels[np.nonzero(num_labels)].min())[0]
        if label_idx.shape[0] > 1:
            label_idx = label_idx[rng.choice(label_idx.shape[0])]
        for sample_idx in np.where(np.logical_and(labels[:, label_idx].flatten(), not_processed))[0]:
            label_folds = c_folds_labels[:, label_idx]
            fold_idx = np.where(label_folds == label_folds.max())[0]
            if fold_idx.shape[0] > 1:
                best = np.where(c_folds[fold_idx] == c_folds[fold_idx].max())[0]
                if best.shape[0] > 1:
                    fold_idx = fold_idx[best][rng.choice(best.shape[0])]
                else:
                    fold_idx = fold_idx[best[0]]
            else:
                fold_idx = fold_idx[0]
            test_folds[sample_idx] = fold_idx
            not_processed[sample_idx] = False
            c_folds_labels[fold_idx, labels[sample_idx]] -= 1
            c_folds[fold_idx] -= 1
    return test_folds


def kfold_test_folds(y, n_splits: int, shuffle: bool, rng: np.random.RandomState) -> np.ndarray:
    """iterstrat 0.1.9's ``MultilabelStratifiedKFold._make_test_folds``: the rows shuffled by ``rng`` when
    ``shuffle``, then its IS with equal shares on the same ``rng``."""
    y = np.asarray(y.toarray() if sp.issparse(y) else y, dtype=bool)
    indices = np.arange(y.shape[0])
    if shuffle:
        rng.shuffle(indices)
        y = y[indices]
    folds = iterative_stratification(y, np.asarray([1 / n_splits] * n_splits), rng)
    return folds[np.argsort(indices)]


def skmultilearn_test_folds(y, n_splits: int, order: int, shares, rng: np.random.RandomState) -> np.ndarray:
    """scikit-multilearn 0.2.0's ``IterativeStratification(n_splits, order, sample_distribution_per_fold)``, bit
    for bit, with ``rng`` in place of numpy's global state (which it draws from: its ``random_state`` does
    nothing, so ``np.random.seed(s)`` before it is what a study seeded with): its combinations of ``order``
    labels, the most desired one first (as its ``_get_most_desired_combination`` picks it), rows taken from the
    end of each combination's list, ties between folds by a draw, unlabelled rows last from the end, each to a
    random fold that still wants rows. ``shares`` None: equal."""
    import itertools

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
