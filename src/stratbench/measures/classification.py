"""The six evaluation measures of Sechidis et al. 2011, with MULAN's conventions (docs/ALGORITHMS.md §8).

Inputs per test fold: truth Y (n × q, 0/1), bipartition H (n × q, 0/1), scores S (n × q, higher =
more relevant). Rankings are strict: labels are ordered by score, and among equal scores the label
with the lower index gets the worse rank (MULAN's stable sort). Undefined values are NaN:
mean average precision when a label has no positive in the fold, micro AUC when the pooled truth
has a single class. Per label, for the CV-error study's macro measures: :func:`label_f1` and :func:`label_auc`.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp
from scipy.stats import rankdata
from sklearn.metrics import roc_auc_score


def _dense(a) -> np.ndarray:
    return a.toarray() if sp.issparse(a) else np.asarray(a)


def label_ranks(S: np.ndarray) -> np.ndarray:
    """Rank of each label per row (1 = highest score); among equal scores the higher label index
    ranks first, i.e. the lower index gets the worse rank (MULAN's stable sort)."""
    n, q = S.shape
    order = q - 1 - np.argsort(-S[:, ::-1], axis=1, kind="stable")  # reversed: ties keep high index first
    ranks = np.empty((n, q), dtype=np.int64)
    np.put_along_axis(ranks, order, np.broadcast_to(np.arange(1, q + 1), (n, q)), axis=1)
    return ranks


def hamming_loss(Y, H) -> float:
    """(1/(n q)) Σ_x |h_x Δ Y_x|."""
    Y, H = _dense(Y), _dense(H)
    return float(np.mean(Y != H))


def subset_accuracy(Y, H) -> float:
    """(1/n) Σ_x [h_x = Y_x]."""
    Y, H = _dense(Y), _dense(H)
    return float(np.mean((Y == H).all(axis=1)))


def coverage(Y, S) -> float:
    """MULAN coverage: mean over rows of (worst rank of a relevant label − 1); 0 for label-less rows."""
    Y, S = _dense(Y).astype(bool), _dense(S).astype(float)
    ranks = label_ranks(S)
    worst = np.where(Y, ranks, 0).max(axis=1)
    return float(np.mean(np.where(Y.any(axis=1), worst - 1, 0)))


def ranking_loss(Y, S) -> float:
    """Mean over rows of the share of (relevant, irrelevant) pairs ranked in the wrong order;
    0 for rows whose relevant or irrelevant set is empty.

    With strict ranks, the t-th best relevant label (rank r_t) is beaten by r_t − t irrelevant
    labels, so a row's error count is Σ_t r_t − m(m+1)/2 for m relevant labels."""
    Y, S = _dense(Y).astype(bool), _dense(S).astype(float)
    q = Y.shape[1]
    m = Y.sum(axis=1)
    errors = np.where(Y, label_ranks(S), 0).sum(axis=1) - m * (m + 1) / 2
    pairs = m * (q - m)
    with np.errstate(divide="ignore", invalid="ignore"):
        return float(np.mean(np.where(pairs > 0, errors / pairs, 0.0)))


def mean_average_precision(Y, S) -> float:
    """Mean over labels of AP_ℓ = (1/|Y^ℓ|) Σ_{relevant x} (#relevant ranked at or above x)/rank(x),
    examples ranked by descending score (stable: the lower example index first). NaN if a label has
    no positive example (the 2011 MULAN behaviour)."""
    Y, S = _dense(Y).astype(bool), _dense(S).astype(float)
    n, q = Y.shape
    aps = np.empty(q)
    for j in range(q):
        positives = Y[:, j].sum()
        if positives == 0:
            return float("nan")
        order = np.argsort(-S[:, j], kind="stable")
        hits = Y[order, j]
        ranks = np.flatnonzero(hits) + 1
        aps[j] = np.mean(np.arange(1, len(ranks) + 1) / ranks)
    return float(aps.mean())


def micro_auc(Y, S) -> float:
    """ROC AUC of all (example, label) pairs pooled; NaN if the pooled truth has one class."""
    Y, S = _dense(Y).ravel(), _dense(S).astype(float).ravel()
    if Y.min() == Y.max():
        return float("nan")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(roc_auc_score(Y, S))


BIPARTITION_MEASURES = {"hamming_loss": hamming_loss, "subset_accuracy": subset_accuracy}
RANKING_MEASURES = {
    "coverage": coverage,
    "ranking_loss": ranking_loss,
    "mean_average_precision": mean_average_precision,
    "micro_auc": micro_auc,
}
MEASURE_NAMES = [*BIPARTITION_MEASURES, *RANKING_MEASURES]


def label_f1(Y: np.ndarray, H: np.ndarray) -> np.ndarray:
    """F1 of every label; NaN where the label has no true and no predicted positive."""
    tp = (Y & H).sum(axis=0)
    denominator = Y.sum(axis=0) + H.sum(axis=0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(denominator > 0, 2.0 * tp / denominator, np.nan)


def label_auc(Y: np.ndarray, S: np.ndarray) -> np.ndarray:
    """ROC AUC of every label by the Mann–Whitney statistic (ties averaged); NaN where the label has
    a single class in the part."""
    positives = Y.sum(axis=0).astype(float)
    negatives = Y.shape[0] - positives
    ranks = rankdata(S, axis=0)  # average ranks within each label's column
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = ((ranks * Y).sum(axis=0) - positives * (positives + 1) / 2) / (positives * negatives)
    return np.where((positives > 0) & (negatives > 0), auc, np.nan)


def evaluate(Y, H, S) -> dict[str, float]:
    """All six measures of one test fold; a measure whose input is None is NaN."""
    out = {}
    for name, fn in BIPARTITION_MEASURES.items():
        out[name] = fn(Y, H) if H is not None else float("nan")
    for name, fn in RANKING_MEASURES.items():
        out[name] = fn(Y, S) if S is not None else float("nan")
    return out
