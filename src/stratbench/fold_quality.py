"""Fold-quality measures (ALGORITHMS.md Appendix A and §4.1): ED, LD, FZ, FLZ (Sechidis et al. 2011),
LPD, FLPZ and the share of label pairs without positive evidence (Szymański & Kajdanowicz 2017),
rLD and DCP (Tiittanen et al. 2021).

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
    return _ld(sizes, counts, counts.sum(axis=0).astype(float), len(folds))


def folds_with_zero_label(Y, folds: np.ndarray, n_splits: int) -> int:
    """FZ = number of test folds in which at least one label has no positive example."""
    _, counts = fold_label_counts(Y, folds, n_splits)
    return int((counts == 0).any(axis=1).sum())


def fold_label_pairs_with_zero(Y, folds: np.ndarray, n_splits: int) -> int:
    """FLZ = number of (fold, label) pairs with no positive example in the test fold."""
    _, counts = fold_label_counts(Y, folds, n_splits)
    return int((counts == 0).sum())


def _label_shares(Y, folds, n_splits):
    sizes, counts = fold_label_counts(Y, folds, n_splits)
    total = counts.sum(axis=0).astype(float)
    keep = total > 0  # labels without positives are left out (0/0), ALGORITHMS.md §4.1
    return sizes, counts[:, keep], total[keep], len(folds)


def relative_label_distribution(Y, folds: np.ndarray, n_splits: int) -> float:
    """rLD = mean over labels of (1/k) Σ_j |d_i − p_ij| / d_i, d_i = |D_i|/n, p_ij = |T_j ∩ D_i|/|T_j|
    (Tiittanen et al. 2021, optisplit ``rld``); labels without positives are left out."""
    sizes, counts, total, n = _label_shares(Y, folds, n_splits)
    if (sizes == 0).any():
        return float("nan")
    d = total / n
    p = counts / sizes[:, None]
    return float(np.mean(np.abs(d - p) / d)) if len(d) else float("nan")


def deviation_from_ideal_share(Y, folds: np.ndarray, n_splits: int) -> float:
    """DCP = mean over labels of max_j |T_j ∩ D_i| / |D_i| − 1/k (Tiittanen et al. 2021, ``dcp``);
    0 is perfect, 1 − 1/k the worst; labels without positives are left out."""
    _, counts, total, _ = _label_shares(Y, folds, n_splits)
    return float(np.mean(counts.max(axis=0) / total - 1.0 / n_splits)) if len(total) else float("nan")


def fold_pair_counts(Y, folds: np.ndarray, n_splits: int):
    """(|S_j|, |D^e| and the k × |E| counts |S_j^e|) for the label pairs e co-occurring in Y."""
    from stratbench.stratifiers._combinations import label_combinations

    Y = as_label_matrix(Y)
    comb = label_combinations(Y)
    pairs = np.flatnonzero(comb.is_pair)
    rows = np.repeat(np.arange(Y.shape[0]), np.diff(comb.row_ptr))
    keys = comb.row_combos.astype(np.int64) * n_splits + folds[rows]
    counts = np.bincount(keys, minlength=len(comb.first) * n_splits).reshape(-1, n_splits)[pairs].T
    return np.bincount(folds, minlength=n_splits), comb.support[pairs], counts


def _ld(sizes, counts, total, n) -> float:
    d = np.where(total == n, (n - 1) / n, total / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / sizes[:, None]
        p = np.where(counts == sizes[:, None], (sizes[:, None] - 1) / sizes[:, None], p)
        per_fold = np.abs(p / (1 - p) - d / (1 - d))
    if (sizes == 0).any():
        return float("nan")
    return float(per_fold.mean()) if per_fold.size else float("nan")


def pair_measures(Y, folds: np.ndarray, n_splits: int) -> dict[str, float]:
    """Second-order measures of Szymański & Kajdanowicz 2017 over the co-occurring pairs E:
    LPD (LD over pairs), FLPZ (fold–pair zeros beyond the inevitable max(0, k − |D^e|)), and the
    share of pairs with no positive example per test fold, mean and std over folds."""
    sizes, support, counts = fold_pair_counts(Y, folds, n_splits)
    if counts.shape[1] == 0:
        nan = float("nan")
        return {"LPD": nan, "FLPZ": 0, "pair_zero_share": nan, "pair_zero_share_std": nan}
    zeros = (counts == 0).sum(axis=0)
    share = (counts == 0).mean(axis=1)
    return {
        "LPD": _ld(sizes, counts, support.astype(float), len(folds)),
        "FLPZ": int(np.maximum(0, zeros - np.maximum(0, n_splits - support)).sum()),
        "pair_zero_share": float(share.mean()),
        "pair_zero_share_std": float(share.std()),
    }


MEASURES = {
    "ED": lambda Y, f, k: example_distribution(f, k),
    "LD": label_distribution,
    "FZ": folds_with_zero_label,
    "FLZ": fold_label_pairs_with_zero,
    "rLD": relative_label_distribution,
    "DCP": deviation_from_ideal_share,
}


RANKED_MEASURES = ["ED", "LD", "FZ", "FLZ", "rLD", "DCP", "LPD", "FLPZ", "pair_zero_share"]  # lower is better


def fold_quality(Y, folds: np.ndarray, n_splits: int, pairs: bool = True) -> dict[str, float]:
    """Every fold-quality measure of one fold assignment, by name (``pairs``: the second-order ones too)."""
    Y = as_label_matrix(Y)
    out = {name: fn(Y, folds, n_splits) for name, fn in MEASURES.items()}
    if pairs:
        out.update(pair_measures(Y, folds, n_splits))
    return out
