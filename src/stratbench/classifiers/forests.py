"""Forest tasks: the unit of work of every classifier over random forests, and how a job runs them.

A classifier describes the training of one fold as a list of :class:`ForestTask` (target, training
rows, seed, forest parameters) and turns the tasks' outputs on the test rows into its predictions.
The same tasks run in two ways that give bit-identical predictions (each forest is fully determined
by its rows, target and seed; scikit-learn's forests do not depend on ``n_jobs`` or on the sparse or
dense layout of X):

- **plain** (``fit`` then ``predict``): the forests are trained one after the other in this process
  and kept, each with ``n_jobs`` threads — the classifier API, for users and tests;
- **pooled** (:class:`ForestPool`, used by :func:`stratbench.classifiers.evaluation.evaluate_folds`): every
  forest of every fold of a job goes to one pool of ``n_jobs`` worker processes, one thread per
  forest, largest first, and only its predictions come back. Tiny forests (CLR's label pairs, rare
  labels, LP communities) no longer pay a thread pool of their own, which dominated their cost
  (≈ 0.5 ms of scikit-learn overhead per tree against microseconds of work), and the workers stay
  busy across folds. With fewer forests than 2 × ``n_jobs`` (LP on one dataset) the forests run
  here, one after the other, with ``n_jobs`` threads each.

X is converted once per job to dense float32 when that is faster for the dataset, decided by timing
a sample of the job's forests both ways (:func:`faster_layout`); the predictions do not change.
"""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import time
import warnings
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

DENSE_LIMIT_BYTES = 2 << 30  # never densify an X larger than this (float32)


def _clone(forest):
    """scikit-learn's ``clone`` (imported where a forest is trained)."""
    from sklearn.base import clone

    return clone(forest)


@dataclass
class ForestTask:
    """One forest: trained on ``X[rows]`` (all rows when None) with target ``y``.

    Binary task (``labelsets`` None): its output is P(y = 1) per test row (a constant 0 or 1 when
    ``y`` has one class). Label-powerset task: ``y`` holds class ids 0…C−1 and ``labelsets`` (C × q)
    the labelset of each class; its output is (scores = P(class) @ labelsets, the labelset of the
    most probable class), both n_test × q.
    """

    y: np.ndarray
    forest: object  # an unfitted scikit-learn classifier with its random_state set (``make_forest``)
    rows: np.ndarray | None = None
    labelsets: np.ndarray | None = None

    @property
    def size(self) -> int:
        """Training rows: the scheduling weight (largest first)."""
        return len(self.y)

    def trains_forest(self) -> bool:
        """Whether a forest is trained at all (not a one-class binary target, not a single labelset)."""
        return self.constant() is None and not (self.labelsets is not None and len(self.labelsets) == 1)

    def minority(self) -> int:
        """A binary task's rarer-class size; a label-powerset task's number of labelsets."""
        if self.labelsets is not None:
            return len(self.labelsets)
        positives = int(np.count_nonzero(self.y))
        return min(positives, len(self.y) - positives)

    def constant(self) -> float | None:
        """The output of a binary task whose target has one class (no forest is trained), else None."""
        if self.labelsets is not None:
            return None
        positives = int(np.count_nonzero(self.y))
        return float(positives > 0) if positives in (0, len(self.y)) else None


def shape_forest_seconds(rows: int, classes: int, trees: int) -> float:
    """A forest's time without calibration: generous per-tree costs fitted to this machine's
    calibrations (yeast BR ×1.4, bibtex BR up to ×10, corel5k and delicious LP ×1–2)."""
    return 0.005 + trees * (1e-3 + 8e-6 * rows * (1 + classes / 400))


def train(task: ForestTask, X_train, n_jobs: int = 1):
    """The fitted forest of ``task`` (or its constant output, or None for a one-class LP)."""
    if not task.trains_forest():
        return task.constant()  # None for a one-labelset LP task
    X = _rows(task, X_train)
    forest = _clone(task.forest)
    if "n_jobs" in forest.get_params():
        forest.set_params(n_jobs=n_jobs)
    with _expected_warnings():
        return forest.fit(X, task.y)


@contextlib.contextmanager
def _expected_warnings():
    """Silence what scikit-learn says of every label-powerset target with more classes than half its
    rows ("y could represent a regression problem"): expected for LP, it filled job logs by the
    thousand."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="The number of unique classes is greater than 50%",
                                category=UserWarning)
        yield


def positive_proba(model, X) -> np.ndarray:
    """P(y = 1) per row of X from a fitted binary forest, or its constant (one-class target)."""
    if isinstance(model, float):
        return np.full(X.shape[0], model)
    return model.predict_proba(X)[:, list(model.classes_).index(1)]


def apply(model, task: ForestTask, X_test):
    """The output of ``task``'s fitted ``model`` on ``X_test`` (see :class:`ForestTask`)."""
    n = X_test.shape[0]
    if task.labelsets is None:
        return positive_proba(model, X_test)
    if model is None:
        return _labelset_output(np.ones((n, 1)), np.zeros(1, dtype=int), task)
    return _labelset_output(model.predict_proba(X_test), model.classes_, task)


def _labelset_output(class_proba, classes, task: ForestTask):
    """(P(class) @ labelsets, labelset of the most probable class) from the forest's probabilities
    of its ``classes`` (class ids)."""
    proba = np.zeros((class_proba.shape[0], len(task.labelsets)))
    proba[:, classes] = class_proba
    return proba @ task.labelsets, task.labelsets[np.argmax(proba, axis=1)]


def run(task: ForestTask, X_train, X_test, n_jobs: int = 1):
    """Train ``task``'s forest and return its output on ``X_test`` (the forest is not kept).

    A label-powerset forest whose trees would hold more than :data:`STREAM_BYTES` of class
    probabilities (nodes ≈ 2 × rows, each with C float64 values: corel5k's 2,932 labelsets give
    ≈ 130 MB a tree, delicious's 14,239 ≈ 1.7 GB) is trained and applied one tree at a time."""
    if is_streamed(task):
        return _labelset_output(*streamed_proba(task.forest, _rows(task, X_train), task.y, X_test), task)
    return apply(train(task, X_train, n_jobs), task, X_test)


STREAM_BYTES = 512 << 20


def is_streamed(task: ForestTask) -> bool:
    """Whether :func:`run` grows ``task``'s forest one tree at a time (an LP forest of more than
    :data:`STREAM_BYTES` of class values, ≈ 2 × rows nodes × C classes × 8 bytes a tree)."""
    if task.labelsets is None or len(task.labelsets) < 2 or "warm_start" not in task.forest.get_params():
        return False
    trees = int(task.forest.get_params().get("n_estimators", 100))
    return 2 * task.size * len(task.labelsets) * 8 * trees > STREAM_BYTES


def _rows(task: ForestTask, X_train):
    return X_train if task.rows is None else X_train[task.rows]


def streamed_proba(forest, X, y, X_test) -> tuple[np.ndarray, np.ndarray]:
    """(``forest.fit(X, y).predict_proba(X_test)``, the forest's ``classes_``) with one tree in
    memory at a time.

    The forest grows by ``warm_start`` one tree per fit, which draws the same tree seeds in the same
    order as one fit of all trees; each new tree's class probabilities are added in tree order and the
    sum divided by the number of trees, as ``predict_proba`` does with one thread — the same numbers.
    """
    grown = _clone(forest)
    trees = grown.get_params()["n_estimators"]
    grown.set_params(warm_start=True, n_jobs=1)
    total = None
    for t in range(1, trees + 1):
        grown.set_params(n_estimators=t)
        with _expected_warnings():
            grown.fit(X, y)
        p = grown.estimators_[-1].predict_proba(X_test)
        total = p if total is None else total + p
        grown.estimators_[-1] = None  # keeps the count (and so the seed sequence), frees the tree
    total /= trees
    return total, grown.classes_


# --- the pool ---------------------------------------------------------------------------------------

_X = None       # the job's feature matrix, inherited by forked workers
_FOLDS = None   # its fold ids
_CACHE: dict = {}


def _fold_rows(fold: int):
    """(X_train, X_test) of ``fold``, sliced once per worker and fold."""
    if _CACHE.get("fold") != fold:
        _CACHE.clear()
        test = _FOLDS == fold
        _CACHE.update(fold=fold, train=_X[~test], test=_X[test])
    return _CACHE["train"], _CACHE["test"]


def _work(item):
    fold, index, task = item
    X_train, X_test = _fold_rows(fold)
    return fold, index, run(task, X_train, X_test)


def _init(X, folds):
    global _X, _FOLDS
    _X, _FOLDS = X, folds
    _CACHE.clear()


class ForestPool:
    """Runs the forest tasks of one job: ``run(tasks_by_fold)`` → outputs by fold, in task order.

    ``X`` is the whole dataset and ``folds`` its fold ids; a task's rows are rows of its fold's
    training part. Worker processes are forked once per job and inherit X (no copy is sent).
    """

    def __init__(self, X, folds: np.ndarray, n_jobs: int = 1):
        self.X, self.folds, self.n_jobs = X, np.asarray(folds), max(1, int(n_jobs))

    def run(self, tasks_by_fold: dict[int, list[ForestTask]]) -> dict[int, list]:
        outputs = {fold: [None] * len(tasks) for fold, tasks in tasks_by_fold.items()}
        pending = []
        for fold, tasks in tasks_by_fold.items():
            for index, task in enumerate(tasks):
                const = task.constant()
                if const is not None:  # no forest: answer here
                    outputs[fold][index] = np.full(int(np.count_nonzero(self.folds == fold)), const)
                else:
                    pending.append((fold, index, task))
        if self.n_jobs == 1 or len(pending) < 2 * self.n_jobs or not _can_fork():
            threads = self.n_jobs
            _init(self.X, self.folds)
            for fold, index, task in pending:
                X_train, X_test = _fold_rows(fold)
                outputs[fold][index] = run(task, X_train, X_test, threads)
            _CACHE.clear()
            return outputs
        # largest forests first (longest-processing-time order), folds in order among equals
        pending.sort(key=lambda item: (-item[2].size, item[0], item[1]))
        chunk = max(1, min(8, len(pending) // (16 * self.n_jobs)))
        context = mp.get_context("fork")
        with context.Pool(self.n_jobs, initializer=_init, initargs=(self.X, self.folds)) as pool:
            for fold, index, output in pool.imap_unordered(_work, pending, chunksize=chunk):
                outputs[fold][index] = output
        return outputs


def _can_fork() -> bool:
    return "fork" in mp.get_all_start_methods()


# --- layout ---------------------------------------------------------------------------------------

def faster_layout(X, tasks: list[ForestTask], train_rows: np.ndarray, probe_trees: int = 20, strata: int = 4):
    """X as a job's forests train fastest: dense float32 when a probe says they run faster that way,
    else X unchanged. Only a sparse X within :data:`DENSE_LIMIT_BYTES` is tried.

    The probe is the job's own work, not one label: ``tasks`` (the forests of one fold, trained on the
    rows ``train_rows`` of X and applied to the others) are sorted by training rows and minority count and
    cut into ``strata`` strata of equal count; the middle task of each is trained with
    ``probe_trees`` trees (label-powerset tasks with 2) and applied, best of two runs each way, and
    the job's time each way is Σ stratum size × its task's time. (One frequent label is not enough:
    on corel5k it ran 13% faster dense, while the job's 374 mostly rare labels ran 2.1× slower.)
    Returns (X, a description for the log)."""
    if not sp.issparse(X):
        return X, "dense"
    n, d = X.shape
    if 4 * n * d > DENSE_LIMIT_BYTES:
        return X, "sparse (too large to densify)"
    probes = [(stratum[(len(stratum) - 1) // 2], len(stratum)) for stratum in strata_of(tasks, strata)]
    if not probes:
        return X, "sparse"
    dense = np.asarray(X.todense(), dtype=np.float32)
    train_rows = np.asarray(train_rows, dtype=bool)

    def seconds(M):
        M_train, M_test, total = M[train_rows], M[~train_rows], 0.0
        for task, weight in probes:
            forest = _clone(task.forest)
            trees = 2 if task.labelsets is not None else probe_trees
            forest.set_params(**{k: v for k, v in dict(n_estimators=trees, n_jobs=1).items() if k in forest.get_params()})
            probe = ForestTask(task.y, forest, task.rows, task.labelsets)
            best = np.inf
            for _ in range(2):
                start = time.perf_counter()
                apply(train(probe, M_train), probe, M_test)
                best = min(best, time.perf_counter() - start)
            total += weight * best
        return total

    t_sparse, t_dense = seconds(X), seconds(dense)
    forests = int(sum(w for _, w in probes))
    what = f"{forests} forest{'s' * (forests != 1)} in {len(probes)} strat{'a' if len(probes) != 1 else 'um'}"
    if t_dense < 0.9 * t_sparse:
        return dense, f"dense float32 (probe of {what}: {t_dense:.3f} s dense, {t_sparse:.3f} s sparse)"
    return X, f"sparse (probe of {what}: {t_sparse:.3f} s sparse, {t_dense:.3f} s dense)"



def strata_of(tasks: list[ForestTask], count: int) -> list[list[ForestTask]]:
    """The tasks that train a forest, sorted by training rows and then minority size (a tree's cost
    follows both), cut into ``count`` consecutive strata of near-equal size (fewer if there are fewer
    tasks): the sample the layout probe and the cost estimate time, one task per stratum."""
    live = sorted((t for t in tasks if t.trains_forest()), key=lambda t: (t.size, t.minority()))
    bounds = np.linspace(0, len(live), min(count, len(live)) + 1).astype(int)
    return [live[a:b] for a, b in zip(bounds[:-1], bounds[1:])]
