"""The count model beside the measurement: what random k-fold and a label-stratified split predict for the
quantities that depend on how many of a label's rows a test part holds (docs/ALGORITHMS.md §12.4).

Under random k-fold a part of s of the m rows of a sample holds c of a label's n positives with the
hypergeometric law: P(c = 0) = C(m − n, s)/C(m, s), Var c = s (n/m)(1 − n/m)(m − s)/(m − 1). A split that
stratifies the label gives each part ⌊n s/m⌋ or ⌈n s/m⌉ of them. Three quantities, each observed on the
study's splits and predicted both ways:

- ``empty_cells``: the share of (part, label) cells without a positive, over the labels with one or more in
  the sample: what makes a macro measure undefined in a part (random: the mean of P(c = 0); stratified: a
  label of n < k positives leaves k − n parts empty);
- ``count_variance``: the variance over the parts of a label's count, mean over labels (random: the
  hypergeometric variance; stratified: f(1 − f) with f the fractional part of n s/m);
- ``f1_gap``: the per-part mean of macro-F1 minus the pooled macro-F1 of the same out-of-fold predictions,
  over the labels with three or more expected true or predicted positives a part. Holding each row's outcome
  (TP, FP, FN, TN) fixed, a part's (TP, FP, FN) counts are multivariate hypergeometric, and F1 = 2a/(2a + b
  + c) is concave in them: its expected per-part value falls below the pooled one by −½ tr(H Σ) to second
  order (H its Hessian at the expected counts, Σ their covariance). Stratifying the label fixes the
  positives a part holds (a + c), which leaves only TP against FN and FP against TN to vary: the predicted
  gap shrinks, and with it the per-part estimator's bias, whatever the learner.
"""

from __future__ import annotations

import numpy as np
from scipy.special import gammaln

QUANTITIES = ("empty_cells", "count_variance", "f1_gap")
MIN_EXPECTED = 3.0  # the f1_gap's labels: 3 or more expected true or predicted positives in a part


def none_in_part(m: int, n: np.ndarray, s: int) -> np.ndarray:
    """P(c = 0) under random k-fold: C(m − n, s)/C(m, s) for each label's n positives.

    >>> none_in_part(10, np.array([0, 1, 5, 10]), 2).round(4).tolist()
    [1.0, 0.8, 0.2222, 0.0]
    """
    n = np.asarray(n, dtype=float)
    ok = m - n >= s
    with np.errstate(invalid="ignore"):
        log_p = gammaln(m - n + 1) - gammaln(np.where(ok, m - n - s, 0) + 1) - gammaln(m + 1) + gammaln(m - s + 1)
    return np.where(ok, np.exp(log_p), 0.0)


def count_variance(m: int, n: np.ndarray, s: int) -> np.ndarray:
    """The hypergeometric variance of a part's count of each label.

    >>> count_variance(10, np.array([5]), 2).round(4).tolist()
    [0.4444]
    """
    p = np.asarray(n, dtype=float) / m
    return s * p * (1 - p) * (m - s) / (m - 1)


def _hessian(a, b, c):
    """The second derivatives of F1 = 2a/(2a + b + c) at (a, b, c): (aa, ab = ac, bb = bc = cc)."""
    D = 2 * a + b + c
    return -8 * (b + c) / D**3, (4 * a - 2 * (b + c)) / D**3, 4 * a / D**3


def f1_gap(A, B, C, m: int, s: int) -> tuple[np.ndarray, np.ndarray]:
    """Per label, the predicted E[part F1] − pooled F1 to second order, under random k-fold and under a split
    stratified on the label, for parts of ``s`` of ``m`` rows whose out-of-fold outcomes hold A TP, B FP,
    C FN (arrays over labels).

    >>> random, stratified = f1_gap(np.array([20.0]), np.array([10.0]), np.array([10.0]), 100, 20)
    >>> bool(random[0] < stratified[0] < 0)
    True
    """
    A, B, C = (np.asarray(x, dtype=float) for x in (A, B, C))
    f = s / m
    a, b, c = A * f, B * f, C * f
    haa, hab, hbb = _hessian(a, b, c)
    finite = m * (m - s) / (m - 1) if m > 1 else 0.0  # s (m − s)/(m − 1) of the share's covariance, times m
    pa, pb, pc = A / m, B / m, C / m
    cov = lambda p, q, same: f * finite * ((p if same else 0.0) - p * q)  # multivariate hypergeometric
    random = 0.5 * (haa * cov(pa, pa, True) + hbb * (cov(pb, pb, True) + cov(pc, pc, True) + 2 * cov(pb, pc, False))
                    + 2 * hab * (cov(pa, pb, False) + cov(pa, pc, False)))
    P, Q = A + C, m - (A + C)  # the label's positives and negatives
    cp, cq = s * P / m, s * Q / m  # what a part holds of each when the label is stratified
    with np.errstate(divide="ignore", invalid="ignore"):
        var_a = np.where(P > 1, cp * (A / P) * (1 - A / P) * (P - cp) / (P - 1), 0.0)
        var_b = np.where(Q > 1, cq * (B / Q) * (1 - B / Q) * (Q - cq) / (Q - 1), 0.0)
    stratified = 0.5 * (var_a * (haa + hbb - 2 * hab) + hbb * var_b)  # c = cp − a; b apart from both
    return random, stratified


def observe(Y: np.ndarray, parts: list[np.ndarray], H: np.ndarray) -> dict[str, tuple[float, float, float]]:
    """quantity → (observed, predicted under random k-fold, predicted under label stratification) for one CV
    of the sample Y (m × q, bool) into ``parts``, with the out-of-fold predicted labels H."""
    m, k = Y.shape[0], len(parts)
    n = Y.sum(axis=0)
    present = n > 0
    counts = np.array([Y[p].sum(axis=0) for p in parts])  # k × q
    sizes = np.array([len(p) for p in parts])
    out = {}
    stratified_empty = np.clip(k - n[present], 0, None) / k
    out["empty_cells"] = (float((counts[:, present] == 0).mean()),
                          float(np.mean([none_in_part(m, n[present], s).mean() for s in sizes])),
                          float(stratified_empty.mean()) if present.any() else np.nan)
    share = n[present] / k
    fraction = share - np.floor(share)
    out["count_variance"] = (float(counts[:, present].var(axis=0).mean()),
                             float(np.mean([count_variance(m, n[present], s).mean() for s in sizes])),
                             float((fraction * (1 - fraction)).mean()) if present.any() else np.nan)
    A, B, C = (Y & H).sum(axis=0), (~Y & H).sum(axis=0), (Y & ~H).sum(axis=0)
    chosen = (A + B + C) * sizes.min() / m >= MIN_EXPECTED
    if not chosen.any():
        out["f1_gap"] = (np.nan, np.nan, np.nan)
        return out
    pooled = 2 * A[chosen] / (2 * A[chosen] + B[chosen] + C[chosen])
    with np.errstate(divide="ignore", invalid="ignore"):
        per_part = [2 * (Y[p] & H[p]).sum(axis=0)[chosen] / (Y[p].sum(axis=0) + H[p].sum(axis=0))[chosen] for p in parts]
    observed = float(np.nanmean(np.nanmean(per_part, axis=1)) - pooled.mean())
    predicted = [f1_gap(A[chosen], B[chosen], C[chosen], m, s) for s in sizes]
    out["f1_gap"] = (observed, float(np.mean([p[0].mean() for p in predicted])),
                     float(np.mean([p[1].mean() for p in predicted])))
    return out


def rows(sample: int, k: int, observations: list[dict]) -> list[tuple]:
    """Rows (sample, k, quantity, observed, random, stratified): the means over a sample's CV repeats."""
    return [(sample, k, q, *np.nanmean([o[q] for o in observations], axis=0).tolist()) for q in QUANTITIES
            if observations and not np.isnan([o[q] for o in observations]).all()]
