"""The two jobs of the study: the truth of every development sample, and the CV estimates of one
stratifier (docs/ALGORITHMS.md §12).

For sample r of size m of a dataset with n rows, a permutation of the rows drawn from the seed of
(dataset, r, "development") gives the development sample (its first m rows, in that shuffled order)
and the truth pool (the other n − m rows); the samples of two sizes are nested. The *truth* of a
learner and a measure is its value on the pool for the learner fitted on the whole development
sample. The *estimate* of CV repeat j is the mean over the k test parts of the measure on that part
(a part where the measure is undefined is left out of the mean), the split drawn by the stratifier
with the seed of (dataset, r, "cv", j): the same seed for every stratifier, size and k.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import scipy.sparse as sp

from stratbench import stratifiers
from stratbench.cv_error.learners import LEARNERS, normalised_rows, similarity
from stratbench.cv_error.measures import MEASURES, part_measures
from stratbench.seeds import derive_seed, seed_sequence

TRUTH_COLUMNS = ["sample", "learner", "measure", "truth", "undefined"]
ESTIMATE_COLUMNS = ["sample", "k", "repeat", "learner", "measure", "estimate", "undefined", "parts_undefined"]
SPLIT_COLUMNS = ["sample", "k", "splits", "test_sets", "distinct_test_sets", "split_seconds"]


def development_rows(n: int, m: int, base_seed: int, dataset: str, sample: int) -> tuple[np.ndarray, np.ndarray]:
    """(development rows in their drawn order, truth-pool rows sorted) of sample ``sample``."""
    order = np.random.default_rng(seed_sequence(base_seed, dataset, sample, "development")).permutation(n)
    return order[:m], np.sort(order[m:])


def cv_seed(base_seed: int, dataset: str, sample: int, repeat: int) -> int:
    """The seed every stratifier gets for CV repeat ``repeat`` of development sample ``sample``."""
    return derive_seed(base_seed, dataset, sample, "cv", repeat)


def prepare_learners(X, Y, rows, learners, seed) -> tuple[dict, np.ndarray]:
    """The learners prepared on the development rows ``rows`` (their kernel computed once), and those
    rows' normalised features."""
    Xd = normalised_rows(X[rows])
    K = similarity(Xd, Xd)
    Yd = Y[rows].toarray() if sp.issparse(Y) else np.asarray(Y)[rows]
    return {name: LEARNERS[name](K, Yd, Xd, seed) for name in learners}, Xd


def truth_rows(X, Y, m: int, samples: int, learners: list[str], base_seed: int, dataset: str) -> list[tuple]:
    """Rows (sample, learner, measure, truth, undefined) of every development sample of size ``m``."""
    rows = []
    for r in range(samples):
        dev, pool = development_rows(Y.shape[0], m, base_seed, dataset, r)
        prepared, Xd = prepare_learners(X, Y, dev, learners, derive_seed(base_seed, dataset, r, "model"))
        Xp = normalised_rows(X[pool])
        K_pool = similarity(Xp, Xd)
        Y_pool = Y[pool].toarray() if sp.issparse(Y) else np.asarray(Y)[pool]
        for name, learner in prepared.items():
            values = part_measures(Y_pool, learner.pool_scores(K_pool, Xp))
            rows += [(r, name, measure, *values[measure]) for measure in MEASURES]
    return rows


def estimate_rows(X, Y, m: int, samples: int, repeats: int, ks: list[int], learners: list[str], make_splitter,
                  base_seed: int, dataset: str) -> tuple[list[tuple], list[tuple]]:
    """(estimate rows, split rows) of one stratifier over every development sample of size ``m``, CV
    repeat and k. ``make_splitter(k, seed)`` builds the stratifier."""
    rows, splits = [], []
    Y = sp.csr_matrix(Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # labels rarer than k, fold sizes: expected on small samples
        for r in range(samples):
            dev, _ = development_rows(Y.shape[0], m, base_seed, dataset, r)
            prepared, _ = prepare_learners(X, Y, dev, learners, derive_seed(base_seed, dataset, r, "model"))
            Y_dev = Y[dev]
            truth_dense = Y_dev.toarray().astype(bool)
            for k in ks:
                seen, seconds = set(), 0.0
                for j in range(repeats):
                    start = time.perf_counter()
                    folds = make_splitter(k, cv_seed(base_seed, dataset, r, j)).fold_ids(Y_dev)
                    seconds += time.perf_counter() - start
                    parts = [np.flatnonzero(folds == f) for f in range(k)]
                    seen.update(p.tobytes() for p in parts)
                    for name, learner in prepared.items():
                        rows += [(r, k, j, name, *row) for row in cv_estimate(learner, folds, parts, truth_dense)]
                splits.append((r, k, repeats, repeats * k, len(seen), seconds))
    return rows, splits


def cv_estimate(learner, folds: np.ndarray, parts: list[np.ndarray], Y: np.ndarray) -> list[tuple]:
    """(measure, estimate, share of labels undefined, parts with any undefined) of one CV: each measure's
    mean over the test parts where it is defined (NaN where it is defined in none)."""
    per_part = [part_measures(Y[test], learner.scores(np.flatnonzero(folds != f), test)) for f, test in enumerate(parts)]
    rows = []
    for measure in MEASURES:
        values = np.array([p[measure][0] for p in per_part])
        undefined = np.array([p[measure][1] for p in per_part])
        estimate = float(np.nanmean(values)) if not np.isnan(values).all() else float("nan")
        rows.append((measure, estimate, float(undefined.mean()), int((undefined > 0).sum())))
    return rows


def splitter_factory(name: str, spec: dict):
    """``make_splitter(k, seed)`` for a study's stratifier entry ``name: spec``."""
    return lambda k, seed: stratifiers.build(name, spec, n_splits=k, random_state=seed)
