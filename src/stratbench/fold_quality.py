"""Fold-quality measures of Sechidis et al. 2011 (ED, LD, FZ, FLZ); ALGORITHMS.md Appendix A.

All take the label matrix Y (n × q, sparse or dense 0/1) and the fold id of every example; S_j is
the test set of fold j, c_j = n/k its desired size.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench.stratifiers import as_label_matrix


def fold_label_counts(Y, folds: np.ndarray, n_splits: int) -> tuple[np.ndarray, np.ndarray]:
    """(|S_j| for each fold, |S_j^i| as a k × q array)."""
    Y = as_label_matrix(Y)
    n = Y.shape[0]
    onehot = sp.csr_matrix((np.ones(n), (folds, np.arange(n))), shape=(n_splits, n))
    return np.bincount(folds, minlength=n_splits), np.asarray((onehot @ Y).todense())


def example_distribution(folds: np.ndarray, n_splits: int) -> float:
    """ED = (1/k) Σ_j | |S_j| − n/k |."""
    sizes = np.bincount(folds, minlength=n_splits)
    return float(np.mean(np.abs(sizes - len(folds) / n_splits)))


def label_distribution(Y, folds: np.ndarray, n_splits: int) -> float:
    """LD = (1/q) Σ_i (1/k) Σ_j | |S_j^i|/(|S_j|−|S_j^i|) − |D_i|/(n−|D_i|) |.

    Zero denominators are guarded as optisplit's ``ld`` does: a label present in every example
    counts as present in n−1 of n, and a fold where every example has the label as |S_j|−1 of |S_j|.
    An empty fold makes LD NaN.
    """
    sizes, counts = fold_label_counts(Y, folds, n_splits)
    n = len(folds)
    total = counts.sum(axis=0).astype(float)
    d = np.where(total == n, (n - 1) / n, total / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / sizes[:, None]
        p = np.where(counts == sizes[:, None], (sizes[:, None] - 1) / sizes[:, None], p)
        per_fold = np.abs(p / (1 - p) - d / (1 - d))
    if (sizes == 0).any():
        return float("nan")
    return float(per_fold.mean())


def folds_with_zero_label(Y, folds: np.ndarray, n_splits: int) -> int:
    """FZ = number of test folds in which at least one label has no positive example."""
    _, counts = fold_label_counts(Y, folds, n_splits)
    return int((counts == 0).any(axis=1).sum())


def fold_label_pairs_with_zero(Y, folds: np.ndarray, n_splits: int) -> int:
    """FLZ = number of (fold, label) pairs with no positive example in the test fold."""
    _, counts = fold_label_counts(Y, folds, n_splits)
    return int((counts == 0).sum())


MEASURES = {
    "ED": lambda Y, f, k: example_distribution(f, k),
    "LD": label_distribution,
    "FZ": folds_with_zero_label,
    "FLZ": fold_label_pairs_with_zero,
}


def fold_quality(Y, folds: np.ndarray, n_splits: int) -> dict[str, float]:
    """Every fold-quality measure of one fold assignment, by name."""
    Y = as_label_matrix(Y)
    return {name: fn(Y, folds, n_splits) for name, fn in MEASURES.items()}
