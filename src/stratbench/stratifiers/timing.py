"""A stratifier's runtime, measured the one way every part of stratbench reports it."""

from __future__ import annotations

import contextlib
import time
import warnings

import numpy as np


def timed_fold_ids(splitter, Y, groups=None, strata=None) -> tuple[np.ndarray, float]:
    """(fold ids, seconds) of ``splitter`` on ``Y`` (and ``groups``; ``strata``: a TargetTable's indicators,
    stratified on beside Y), timed after a warm-up call on the first min(n, 4k) rows (when they are at least k;
    in singleton groups where groups are given), so a compiled kernel's first-call compilation is not counted:
    the stratifier's runtime wherever stratbench reports one."""
    k = splitter.get_n_splits()
    rows = min(Y.shape[0], 4 * k)
    warm = Y[:rows]
    extra = {} if strata is None else {"strata": strata}
    if warm.shape[0] >= k:
        with warnings.catch_warnings(), contextlib.suppress(ValueError):  # a warm-up on a few rows: its
            warnings.simplefilter("ignore")  # sizes, rare labels and a library's refusals say nothing
            splitter.fold_ids(warm, None if groups is None else np.arange(warm.shape[0]),
                              **({} if strata is None else {"strata": strata.take(np.arange(rows))}))
    start = time.perf_counter()
    folds = splitter.fold_ids(Y, groups, **extra)
    return folds, time.perf_counter() - start
