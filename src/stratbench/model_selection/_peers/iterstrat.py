"""iterative-stratification 0.1.9's folds, bit for bit: its ``MultilabelStratifiedKFold._make_test_folds``,
``MultilabelStratifiedShuffleSplit._iter_indices`` and ``IterativeStratification`` function, ported draw for
draw on the same numpy ``RandomState``, so a project can switch to stratbench mid-study and keep its folds:
``compat="iterstrat"`` in :mod:`stratbench.model_selection`.

Its IS differs from ours (``iterative``) in the ties: the label chosen among the rarest by a uniform draw,
the fold among those with the largest wish for the label, then the largest wish overall, by another; rows
without labels go one by one to the fold with the largest wish. It loops in Python over the rows of a dense
matrix: a reference, not a fast path.
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError


def random_state(seed, compat: str = "iterstrat") -> np.random.RandomState:
    """scikit-learn's ``check_random_state``, which the peers draw from: None → numpy's global RandomState, an
    int → a new one, a RandomState as it is."""
    if seed is None or seed is np.random:  # numpy's global RandomState, by scikit-learn's public function
        from sklearn.utils import check_random_state

        return check_random_state(None)
    if isinstance(seed, numbers.Integral) and not isinstance(seed, bool):
        return np.random.RandomState(seed)
    if isinstance(seed, np.random.RandomState):
        return seed
    raise StratbenchError(f"compat={compat!r} takes None, an int or a RandomState as random_state (the peer's "
                          f"numpy RandomState stream), not {seed!r}")


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


def shuffle_split_test_sides(y, n_train: int, n_test: int, n_splits: int, rng: np.random.RandomState):
    """iterstrat 0.1.9's ``MultilabelStratifiedShuffleSplit._iter_indices``: for each split, the rows shuffled
    by ``rng``, then its IS into two sides of shares (n_train, n_test)/(n_train + n_test) on the same ``rng``;
    yields the boolean test side of each split (the train side is the rest)."""
    y = np.asarray(y.toarray() if sp.issparse(y) else y, dtype=bool)
    r = np.array([n_train, n_test]) / (n_train + n_test)
    for _ in range(n_splits):
        indices = np.arange(y.shape[0])
        rng.shuffle(indices)
        sides = iterative_stratification(y[indices], r, rng)
        yield sides[np.argsort(indices)] == 1
