"""Fold-quality measures (docs/ALGORITHMS.md Appendix A and §4.1): ED, LD, FZ, FLZ (Sechidis et al. 2011),
LPD, FLPZ and the share of label pairs without positive evidence (Szymański & Kajdanowicz 2017),
rLD and DCP (Tiittanen et al. 2021).

All take the label matrix Y (n × q, sparse or dense 0/1) and the fold id of every example; S_j is
the test set of fold j, c_j = n/k its desired size.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench._kernels.fold_quality import pair_stats
from stratbench.labels import apportion, as_label_matrix, fold_counts, label_combinations


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
    return label_measures(*fold_label_counts(Y, folds, n_splits))["LD"]


def folds_with_zero_label(Y, folds: np.ndarray, n_splits: int) -> int:
    """FZ = number of test folds in which at least one label has no positive example."""
    return label_measures(*fold_label_counts(Y, folds, n_splits))["FZ"]


def fold_label_pairs_with_zero(Y, folds: np.ndarray, n_splits: int) -> int:
    """FLZ = number of (fold, label) pairs with no positive example in the test fold."""
    return label_measures(*fold_label_counts(Y, folds, n_splits))["FLZ"]


def relative_label_distribution(Y, folds: np.ndarray, n_splits: int) -> float:
    """rLD = mean over labels of (1/k) Σ_j |d_i − p_ij| / d_i, d_i = |D_i|/n, p_ij = |T_j ∩ D_i|/|T_j|
    (Tiittanen et al. 2021, optisplit ``rld``); labels without positives are left out."""
    return label_measures(*fold_label_counts(Y, folds, n_splits))["rLD"]


def deviation_from_ideal_share(Y, folds: np.ndarray, n_splits: int) -> float:
    """DCP = mean over labels of max_j |T_j ∩ D_i| / |D_i| − 1/k (Tiittanen et al. 2021, ``dcp``);
    0 is perfect, 1 − 1/k the worst; labels without positives are left out."""
    return label_measures(*fold_label_counts(Y, folds, n_splits))["DCP"]


def label_measures(sizes: np.ndarray, counts: np.ndarray) -> dict[str, float]:
    """ED, LD, FZ, FLZ, rLD and DCP from the fold sizes |S_j| and the k × q counts |S_j^i|
    (definitions in the functions above)."""
    k, n = len(sizes), int(sizes.sum())
    total = counts.sum(axis=0).astype(float)
    keep = total > 0  # rLD, DCP: labels without positives are left out (0/0), docs/ALGORITHMS.md §4.1
    kept, d = counts[:, keep], total[keep] / n
    empty = (sizes == 0).any()
    with np.errstate(divide="ignore", invalid="ignore"):
        rld = np.mean(np.abs(d - kept / sizes[:, None]) / d) if len(d) and not empty else np.nan
    return {
        "ED": float(np.mean(np.abs(sizes - n / k))),
        "LD": _ld(sizes, counts, total, n),
        "FZ": int((counts == 0).any(axis=1).sum()),
        "FLZ": int((counts == 0).sum()),
        "rLD": float(rld),
        "DCP": float(np.mean(kept.max(axis=0) / total[keep] - 1.0 / k)) if len(d) else float("nan"),
    }


def _ld(sizes, counts, total, n) -> float:
    d = np.where(total == n, (n - 1) / n, total / n)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = counts / sizes[:, None]
        p = np.where(counts == sizes[:, None], (sizes[:, None] - 1) / sizes[:, None], p)
        per_fold = np.abs(p / (1 - p) - d / (1 - d))
    if (sizes == 0).any():
        return float("nan")
    return float(per_fold.mean()) if per_fold.size else float("nan")


def pair_measures(Y, folds: np.ndarray, n_splits: int, comb=None) -> dict[str, float]:
    """Second-order measures of Szymański & Kajdanowicz 2017 over the co-occurring pairs E:
    LPD (LD over pairs), FLPZ (fold–pair zeros beyond the inevitable max(0, k − |D^e|)), and the
    share of pairs with no positive example per test fold, mean and std over folds, and the same of the
    shares rounded to 2 decimals as the paper computed them (``comb``: Y's label combinations, if already
    made)."""
    if comb is None:
        comb = label_combinations(as_label_matrix(Y))
    folds = np.asarray(folds, dtype=np.int64)
    pairs = np.flatnonzero(comb.is_pair)
    if len(pairs) == 0:
        nan = float("nan")
        return {"LPD": nan, "FLPZ": 0, "pair_zero_share": nan, "pair_zero_share_std": nan,
                "pair_zero_share_2dp": nan, "pair_zero_share_2dp_std": nan}
    sizes = np.bincount(folds, minlength=n_splits)
    counts = fold_counts(comb.row_ptr, comb.row_combos, folds, n_splits, len(comb.first))
    ld_sum, flpz, zeros = pair_stats(counts, pairs, comb.support.astype(np.float64), sizes.astype(np.float64),
                                      float(len(folds)))
    share = zeros / len(pairs)
    return {
        "LPD": float("nan") if (sizes == 0).any() else float(ld_sum / (len(pairs) * n_splits)),
        "FLPZ": int(flpz),
        "pair_zero_share": float(share.mean()),
        "pair_zero_share_std": float(share.std()),
        # as Szymański & Kajdanowicz 2017 computed their Table 1: each fold's share rounded to 2 decimals
        # (half to even, numpy.round) before the mean and the std (ddof 0)
        "pair_zero_share_2dp": float(np.round(share, 2).mean()),
        "pair_zero_share_2dp_std": float(np.round(share, 2).std()),
    }


def exact_size_floors(Y, n_splits: int) -> dict[str, float]:
    """The lowest rLD and DCP any k-fold split with exact fold sizes (T_j = n/k rounded by largest
    remainder, as the equal-size stratifiers give) can reach: per label, DCP's floor is
    ⌈|D_i|/k⌉/|D_i| − 1/k, and rLD's the least of Σ_j |c_j/T_j − d_i| over integer counts with
    Σ_j c_j = |D_i| (a separable convex sum: filled greedily from ⌊d_i·T_j⌋, cheapest step first).
    Means over the labels with positives, as :func:`label_measures`. A method that leaves fold sizes
    free (optisplit) can go below the rLD floor by putting rare labels into larger folds."""
    Y = as_label_matrix(Y)
    n, k = Y.shape[0], n_splits
    sizes = apportion(n, np.full(k, 1.0 / k)).astype(float)
    support = np.asarray(Y.sum(axis=0)).ravel()
    support = support[support > 0].astype(float)
    rld = np.empty(len(support))
    for i, total in enumerate(support):
        d = total / n
        counts = np.floor(d * sizes)
        for _ in range(int(total - counts.sum())):
            step = np.abs((counts + 1) / sizes - d) - np.abs(counts / sizes - d)
            counts[np.argmin(step)] += 1
        rld[i] = np.mean(np.abs(counts / sizes - d)) / d
    dcp = np.ceil(support / k - 1e-9) / support - 1.0 / k
    nan = float("nan")
    return {"rLD": float(rld.mean()) if len(rld) else nan, "DCP": float(dcp.mean()) if len(dcp) else nan}


def rld_lower_bound(Y, n_splits: int, slack: int = 1) -> float:
    """A lower bound on the rLD of every k-fold split whose folds each hold ⌊n/k⌋ − ``slack`` to
    ⌈n/k⌉ + ``slack`` examples: per label, the least of (1/k) Σ_j |c_j/s_j − d_i| / d_i over integer
    counts with Σ_j c_j = |D_i| and each fold's size s_j chosen freely in that range (for that label
    alone, and without Σ_j s_j = n: a relaxation, hence a bound; min-plus over the folds, O(k·|D_i|²)
    a label). It says how far fold sizes near n/k let rLD go down; :func:`exact_size_floors` is the
    floor at the exact sizes."""
    Y = as_label_matrix(Y)
    n, k = Y.shape[0], n_splits
    sizes = np.arange(max(n // k - slack, 1), -(-n // k) + slack + 1, dtype=float)
    support = np.asarray(Y.sum(axis=0)).ravel()
    bounds = []
    for total in support[support > 0].astype(int):
        d = total / n
        count = np.arange(total + 1)
        cost = np.abs(count[:, None] / sizes[None, :] - d).min(axis=1)  # one fold: its best size per count
        best = cost.copy()  # least cost of the first folds holding 0 … |D_i| positives
        for _ in range(k - 1):
            best = np.array([np.min(best[t::-1] + cost[:t + 1]) for t in range(total + 1)])
        bounds.append(best[total] / (k * d))
    return float(np.mean(bounds)) if bounds else float("nan")


def fold_quality(Y, folds: np.ndarray, n_splits: int, pairs: bool = True, comb=None) -> dict[str, float]:
    """Every fold-quality measure of one fold assignment, by name (``pairs``: the second-order ones
    too, from ``comb`` — Y's label combinations — when given, so that many assignments of one Y share it)."""
    Y = as_label_matrix(Y)
    out = label_measures(*fold_label_counts(Y, folds, n_splits))
    if pairs:
        out.update(pair_measures(Y, folds, n_splits, comb))
    return out
