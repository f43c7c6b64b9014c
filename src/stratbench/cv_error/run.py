"""The two jobs of the study: the truths of every development sample, and the CV estimates of one stratifier
(docs/ALGORITHMS.md §12).

Each dataset of n rows has one fixed *truth set*: the first ``truth_size`` rows of a permutation drawn from the
seed of (dataset, "truth"), the same for every size and sample. Development sample r of size m is the first m
rows of a permutation of the other n − truth_size rows (the *rest*) drawn from the seed of (dataset, m, r,
"development"): the samples of two sizes are drawn independently, and two samples of one size share m²/rest rows
on average (the overlap the paired tests account for, :mod:`stratbench.cv_error.summary`). No sample ever holds
a truth row, and every sample is scored on the same truth rows.

Two truths of a learner and a measure on the truth set: ``err_xy``, the value for the learner fitted on the
whole development sample (the model at hand), and ``err``, the value for the learner fitted on the sample's
first ⌊m(k − 1)/k⌋ rows (a fresh training set of the size a CV's folds train on: averaged over the samples it
is the expected risk CV estimates, Bates, Hastie & Tibshirani 2023). The truth's own noise is the variance of
the measure over bootstrap resamples of the truth rows.

**One label set.** A macro measure of sample r at k, truth and estimate alike, averages over the labels with k
or more positives in the sample (``labels`` in the rows: how many): a label rarer than that can have no
positive in some part of a CV, so it could enter the truth and not the estimate. The other measures count every
label in both.

A CV repeat j splits the sample with the seed of (dataset, m, r, "cv", j), the same for every stratifier and
k, except a declared A/A control of the baseline's own class (``cv_error.controls``), which draws from a stream
of its own name. Two estimates of each measure: ``part_mean``, the mean over the k test parts of the measure on
that part (a part where it is undefined left out), and ``pooled``, the measure on the out-of-fold predictions of
all k parts at once (Forman & Scholz 2010). A job keeps every repeat's estimate (``estimates``), per (sample, k,
learner, measure, estimator) their mean and variance over the J repeats (``stats``); the picks of the
model-selection tasks; the distinct test sets; and the count-model quantities of
:mod:`stratbench.cv_error.theory`.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import scipy.sparse as sp

from stratbench import stratifiers
from stratbench.cv_error import theory
from stratbench.cv_error.learners import LEARNERS, SELECTION, STUDY_LEARNERS, normalised_rows, similarity
from stratbench.cv_error.measures import LOWER_IS_BETTER, MACRO, MEASURES, part_measures
from stratbench.seeds import derive_seed, seed_sequence

ESTIMATORS = ("part_mean", "pooled")
TRUTH_COLUMNS = ["sample", "learner", "measure", "target", "k", "labels", "rest", "truth", "noise"]
STATS_COLUMNS = ["sample", "k", "learner", "measure", "estimator", "repeats", "mean", "variance", "undefined",
                 "parts_undefined"]
ESTIMATE_COLUMNS = ["sample", "k", "learner", "measure", "estimator", "repeat", "estimate"]
CHOICE_COLUMNS = ["sample", "k", "measure", "estimator", "task", "candidate", "picked"]
SPLIT_COLUMNS = ["sample", "k", "splits", "test_sets", "distinct_test_sets", "split_seconds"]
THEORY_COLUMNS = ["sample", "k", "quantity", "observed", "random", "stratified"]
NOISE_RESAMPLES = 30  # bootstrap resamples of the truth set, on the first NOISE_SAMPLES samples of a size
NOISE_SAMPLES = 10


def truth_set(n: int, base_seed: int, dataset: str, truth_size: int) -> np.ndarray:
    """The fixed truth rows of a dataset of ``n`` rows, sorted: ``truth_size`` of them, drawn once."""
    order = np.random.default_rng(seed_sequence(base_seed, dataset, 0, "truth")).permutation(n)
    return np.sort(order[:truth_size])


def development_rows(n: int, m: int, base_seed: int, dataset: str, sample: int, truth_size: int) -> np.ndarray:
    """The rows of development sample ``sample`` of size ``m``, in their drawn order: the first m of a permutation
    of the rows outside the truth set."""
    rest = np.setdiff1d(np.arange(n), truth_set(n, base_seed, dataset, truth_size))
    order = np.random.default_rng(seed_sequence(base_seed, dataset, sample, "development", m)).permutation(len(rest))
    return rest[order[:m]]


def cv_seed(base_seed: int, dataset: str, m: int, sample: int, repeat: int, stream: str | None = None) -> int:
    """The seed every stratifier gets for CV repeat ``repeat`` of development sample ``sample`` of size m; a
    declared control of the baseline's class draws from the stream of its name instead."""
    extra = () if stream is None else (stream,)
    return derive_seed(base_seed, dataset, sample, "cv", m, repeat, *extra)


def label_set(Y_sample, k: int) -> np.ndarray:
    """The labels a macro measure of a sample averages over at k, truth and estimate alike: k or more positives."""
    return np.flatnonzero(np.asarray(Y_sample.sum(axis=0)).ravel() >= k)


def learners_of(cv: dict, dataset: str, m: int) -> list[str]:
    """The learners of a (dataset, m) cell: the study's, ``forest`` only where ``cv_error.forest`` lets it run."""
    allowed = cv.get("forest") or {}
    def runs(name):
        if name != "forest" or not allowed:
            return True
        return dataset in allowed.get("datasets", [dataset]) and m in allowed.get("sizes", [m])
    return [name for name in cv["learners"] if runs(name)]


def prepare_learners(X, Y, rows, names, seed) -> tuple[dict, object]:
    """The learners ``names`` prepared on the development rows ``rows`` (their kernel computed once), and
    those rows' normalised features."""
    Xd = normalised_rows(X[rows])
    K = similarity(Xd, Xd)
    Yd = Y[rows].toarray() if sp.issparse(Y) else np.asarray(Y)[rows]
    return {name: LEARNERS[name](K, Yd, Xd, seed) for name in names}, Xd


def _dense(Y, rows) -> np.ndarray:
    return Y[rows].toarray() if sp.issparse(Y) else np.asarray(Y)[rows]


def truth_rows(X, Y, m: int, samples: int | range, names: list[str], ks: list[int], base_seed: int, dataset: str,
               truth_size: int, resamples: int = NOISE_RESAMPLES) -> list[tuple]:
    """Rows :data:`TRUTH_COLUMNS` of every development sample of size ``m`` (``samples`` of them, or those of a
    range), on the dataset's truth set: ``err_xy`` with the truth set's bootstrap noise on the first
    :data:`NOISE_SAMPLES` samples, and ``err``, per k (a macro measure over the sample's label set at k)."""
    n = Y.shape[0]
    pool = truth_set(n, base_seed, dataset, truth_size)
    rest = n - len(pool)
    Xp = normalised_rows(X[pool])
    Y_pool = _dense(Y, pool).astype(bool)
    q = Y_pool.shape[1]
    rows = []
    for r in (range(samples) if isinstance(samples, int) else samples):
        dev = development_rows(n, m, base_seed, dataset, r, truth_size)
        prepared, Xd = prepare_learners(X, Y, dev, names, derive_seed(base_seed, dataset, r, "model", m))
        K_pool = similarity(Xp, Xd)
        Y_dev = _dense(Y, dev)
        draws = (np.random.default_rng(seed_sequence(base_seed, dataset, r, "noise", m)).integers(
            0, len(pool), (resamples, len(pool))) if r < NOISE_SAMPLES and resamples else None)
        for name, learner in prepared.items():
            S = learner.pool_scores(K_pool, Xp)
            for k in ks:
                labels = label_set(Y_dev, k)
                values = part_measures(Y_pool, S, labels)
                noise = {measure: np.nan for measure in MEASURES}
                if draws is not None and name in STUDY_LEARNERS:  # the study's learners (knn is a candidate too)
                    boot = [part_measures(Y_pool[b], S[b], labels) for b in draws]
                    noise = {measure: float(np.nanvar([d[measure][0] for d in boot])) for measure in MEASURES}
                train = np.arange((m * (k - 1)) // k)  # the first rows of a shuffled sample: a fresh training set
                fresh = part_measures(Y_pool, learner.pool_scores(K_pool, Xp, train), labels)
                for measure in MEASURES:
                    counted = len(labels) if measure in MACRO else q
                    rows.append((r, name, measure, "err_xy", k, counted, rest, values[measure][0], noise[measure]))
                    rows.append((r, name, measure, "err", k, counted, rest, fresh[measure][0], np.nan))
    return rows


def estimate_rows(X, Y, m: int, samples: int, repeats: int, ks: list[int], names: list[str], make_splitter,
                  base_seed: int, dataset: str, truth_size: int, stream: str | None = None) -> dict[str, list[tuple]]:
    """One stratifier's rows over every development sample of size ``m``, CV repeat and k: ``estimates``
    (:data:`ESTIMATE_COLUMNS`, each repeat's), ``stats`` (:data:`STATS_COLUMNS`), ``choices``
    (:data:`CHOICE_COLUMNS`: how often CV picks each candidate of a task, ``learner`` among ``names`` and
    ``neighbours`` among kNN's), ``splits`` and ``theory``. ``make_splitter(k, seed)`` builds the stratifier;
    ``stream`` names a control's own seed stream (:func:`cv_seed`)."""
    out = {"estimates": [], "stats": [], "choices": [], "splits": [], "theory": []}
    Y = sp.csr_matrix(Y)
    every = list(dict.fromkeys([*names, *SELECTION]))
    tasks = {"learner": names, "neighbours": list(SELECTION)}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # labels rarer than k, fold sizes: expected on small samples
        for r in range(samples):
            dev = development_rows(Y.shape[0], m, base_seed, dataset, r, truth_size)
            prepared, _ = prepare_learners(X, Y, dev, every, derive_seed(base_seed, dataset, r, "model", m))
            Y_dev = Y[dev]
            truth = Y_dev.toarray().astype(bool)
            for k in ks:
                labels = label_set(Y_dev, k)
                seen, seconds = set(), 0.0
                estimates = {}  # (learner, measure, estimator) → J estimates
                undefined = {}
                observed = []
                for j in range(repeats):
                    start = time.perf_counter()
                    folds = make_splitter(k, cv_seed(base_seed, dataset, m, r, j, stream)).fold_ids(Y_dev)
                    seconds += time.perf_counter() - start
                    parts = [np.flatnonzero(folds == f) for f in range(k)]
                    seen.update(p.tobytes() for p in parts)
                    for name, learner in prepared.items():
                        values, predicted = cv_estimates(learner, folds, parts, truth, labels)
                        for key, (value, share, parts_share) in values.items():
                            estimates.setdefault((name, *key), []).append(value)
                            undefined.setdefault((name, *key), []).append((share, parts_share))
                        if name == names[0]:  # the count model on the first learner's out-of-fold outcomes
                            observed.append(theory.observe(truth, parts, predicted))
                out["splits"].append((r, k, repeats, repeats * k, len(seen), seconds))
                for (name, measure, estimator), values in estimates.items():
                    if name not in names:
                        continue
                    v = np.array(values, dtype=float)
                    out["estimates"] += [(r, k, name, measure, estimator, j, e) for j, e in enumerate(values)]
                    defined = v[~np.isnan(v)]
                    u = np.array(undefined[(name, measure, estimator)])
                    out["stats"].append((r, k, name, measure, estimator, len(defined),
                                         float(defined.mean()) if len(defined) else np.nan,
                                         _variance(defined), float(u[:, 0].mean()), float(u[:, 1].mean())))
                out["choices"] += _picks(r, k, estimates, tasks)
                out["theory"] += theory.rows(r, k, observed)
    return out


def _variance(values: np.ndarray) -> float:
    """The variance over the repeats, ddof 0 (a sample's mean squared error over its J repeats is this plus d²,
    exactly; the tables make it unbiased, J/(J − 1)); exactly 0 where the values are all equal (their mean can
    differ from them in the last bit); NaN with none."""
    if not len(values):
        return float("nan")
    return 0.0 if values.min() == values.max() else float(np.var(values))


def _picks(r: int, k: int, estimates: dict, tasks: dict) -> list[tuple]:
    """How often, over the repeats, CV picks each candidate of each task (an undefined estimate is never
    picked; ties go to the first candidate)."""
    rows = []
    for measure in MEASURES:
        sign = -1.0 if measure in LOWER_IS_BETTER else 1.0
        for estimator in ESTIMATORS:
            for task, candidates in tasks.items():
                if len(candidates) < 2:
                    continue
                table = np.array([estimates[(c, measure, estimator)] for c in candidates], dtype=float) * sign
                table = np.where(np.isnan(table), -np.inf, table)
                counts = np.bincount(table.argmax(axis=0), minlength=len(candidates))
                rows += [(r, k, measure, estimator, task, c, int(n)) for c, n in zip(candidates, counts)]
    return rows


def cv_estimates(learner, folds: np.ndarray, parts: list[np.ndarray], Y: np.ndarray, labels=None):
    """({(measure, estimator): (estimate, share of labels undefined, share of parts with any)}, the out-of-fold
    predicted labels) of one CV: ``part_mean`` is each measure's mean over the parts
    where it is defined (NaN where it is defined in none), ``pooled`` the measure on every part's out-of-fold
    scores at once; a macro measure over the columns ``labels`` (all where None)."""
    oof = np.zeros(Y.shape)
    per_part = []
    for f, test in enumerate(parts):
        S = learner.scores(np.flatnonzero(folds != f), test)
        oof[test] = S
        per_part.append(part_measures(Y[test], S, labels))
    pooled = part_measures(Y, oof, labels)
    out = {}
    for measure in MEASURES:
        values = np.array([p[measure][0] for p in per_part])
        shares = np.array([p[measure][1] for p in per_part])
        estimate = float(np.nanmean(values)) if not np.isnan(values).all() else float("nan")
        out[(measure, "part_mean")] = (estimate, float(shares.mean()), float((shares > 0).mean()))
        out[(measure, "pooled")] = (pooled[measure][0], pooled[measure][1], float(pooled[measure][1] > 0))
    return out, oof >= 0.5


def splitter_factory(name: str, spec: dict):
    """``make_splitter(k, seed)`` for a study's stratifier entry ``name: spec``."""
    return lambda k, seed: stratifiers.build(name, spec, n_splits=k, random_state=seed)
