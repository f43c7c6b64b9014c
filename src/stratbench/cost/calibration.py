"""Calibration: what one job of a study costs on this machine, measured in a few seconds.

- **forests.** Every forest a classifier trains on one fold is known exactly before any is trained:
  ``forest_tasks`` of the training part of a k-fold split of the dataset (training rows, target,
  classes). They are sorted by size and cut into at most ``samples`` strata; the middle task of each
  stratum is trained and applied with few trees (one when a tree takes longer than
  ``SLOW_TREE_S``) and timed; the other tasks of its stratum cost the same per tree, scaled by
  their row count. A forest costs a fixed start-up plus ``n_estimators`` × its per-tree time (both
  measured on a tiny forest). A job trains k folds' forests.
- **stratifiers, fold quality, network stability**: each run once on the dataset and timed, the
  stratifier as every fold job times it (:func:`stratbench.stratifiers.timed_fold_ids`, warm-up included).
- every job pays the start-up of a Python job here (interpreter and imports, measured; with the run's job
  server, :mod:`stratbench.jobs.server`, a small Python that hands the job to it and the child's imports the
  server had not made) and Snakemake's own work per job (measured on a workflow of jobs that do nothing).
"""

from __future__ import annotations

import math
import resource
import subprocess
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from stratbench.classifiers.forests import ForestTask, apply, faster_layout, is_streamed, run, strata_of, train
from stratbench.cost.requests import matrix_mb
from stratbench.datasets import load_dataset, save_dataset
from stratbench.datasets.groups import dataset_groups
from stratbench.labels import label_combinations
from stratbench.measures.fold_quality import fold_quality
from stratbench.stratifiers import timed_fold_ids
from stratbench.study import Study
from stratbench.study.plans import BenchmarkPlan

SLOW_TREE_S = 0.2        # calibrate with a single tree when one takes longer than this
CALIBRATION_TREES = 10


@dataclass
class ForestCost:
    """The forests of one fold of one classifier on one dataset."""

    forests: int          # forests trained per fold (one-class targets need none)
    cpu_s: float          # their CPU time per fold, n_estimators trees each
    largest_s: float      # the longest single forest
    forest_mb: float      # the largest forest held in memory at once (one tree when streamed)


@dataclass
class DatasetCost:
    dataset: str
    examples: int
    labels: int
    x_mb: float           # X in the layout the forests train on
    y_mb: float
    layout: str
    load_s: float
    stratifier_s: dict
    fold_quality_s: float
    network_s: float
    forests: dict         # classifier -> ForestCost
    combinations_s: float = 0.0  # building the label combinations once (a grid job shares them)
    cv_s: dict = field(default_factory=dict)  # "does it matter": part → {m: seconds per development sample}

STARTUP_IMPORTS = {  # what a job of each kind imports before it works
    "split": "import snakemake.script, stratbench.jobs.script, stratbench.stratifiers, stratbench.measures.fold_quality, "
             "stratbench.datasets, stratbench.io",  # a dataset or fold job
    "job": "import snakemake.script, sklearn.ensemble, pandas, stratbench.classifiers.evaluation, stratbench.measures.fold_quality",
    "network": "import snakemake.script, stratbench.datasets, stratbench.io, stratbench.labels.network",
    "aggregate": "import snakemake.script, pandas, matplotlib.pyplot, stratbench.figures",  # a gather, table or figure
}
NOOP_WORKFLOW = """\
rule all:
    input:
        expand("out/{i}", i=range(config["jobs"])),


rule noop:
    output:
        "out/{i}",
    script:
        "noop.py"
"""


def job_startup_seconds(jobs: int = 8, server: bool = True) -> dict[str, float]:
    """The start-up of a job of each kind in ``STARTUP_IMPORTS`` (best of two): a fresh Python that imports what
    the job imports and leaves as a job does, without the interpreter's teardown
    (:func:`stratbench.jobs.script.finish`), plus :func:`snakemake_job_seconds`, Snakemake's own work per job.
    With ``server`` (the default), where a local run's jobs are forked by its job server
    (:func:`stratbench.jobs.server.enabled`), the fresh Python imports ``snakemake.script`` and hands the job to a
    server started here, whose child imports what the server had not, and leaves; the job ends when the child
    has. ``server=False``: each job a fresh Python, as where the server is off."""
    from stratbench.jobs import server as jobserver

    per_job = snakemake_job_seconds(jobs)
    exits = {kind: f"{code}; import os; os._exit(0)" for kind, code in STARTUP_IMPORTS.items()}
    with tempfile.TemporaryDirectory() as tmp:
        running = jobserver.start(Path(tmp, "jobserver.log")) if server else None
        if running is None:  # turned off, or not on this system
            return {kind: import_seconds(code) + per_job for kind, code in exits.items()}
        try:
            deadline = time.monotonic() + 120
            while not running.ready():
                if running.process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the job server did not start: {Path(tmp, 'jobserver.log').read_text()}")
                time.sleep(0.05)
            seconds = {}
            for kind, code in exits.items():
                script = Path(tmp, f"{kind}.py")
                script.write_text(f"import snakemake.script\nfrom stratbench.jobs.server import delegate\ndelegate()\n{code}\n")
                seconds[kind] = import_seconds(str(script), script=True) + per_job
        finally:
            running.stop()
    return seconds


def import_seconds(code: str, script: bool = False) -> float:
    """Wall time of a fresh Python that runs ``code`` (or, with ``script``, the file ``code``; best of two)."""
    best = math.inf
    for _ in range(2):
        start = time.perf_counter()
        subprocess.run([sys.executable, *([] if script else ["-c"]), code], check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best


def snakemake_job_seconds(jobs: int = 8) -> float:
    """Snakemake's own work per local job beyond the job's interpreter and ``import snakemake.script``
    (scheduling, the script's preamble, the job's metadata): a workflow of ``jobs`` script jobs that do
    nothing, run on one core, less its dry run (the same parse and plan), per job, less a bare
    ``import snakemake.script``; 0 where the difference is below the noise. Each is the CPU time of the processes
    (:func:`_cpu_seconds`): a wall clock measures the machine's other load as well, several-fold on a busy one."""
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "Snakefile").write_text(NOOP_WORKFLOW)
        Path(tmp, "noop.py").write_text("open(snakemake.output[0], 'w').close()\n")
        command = [sys.executable, "-m", "snakemake", "--cores", "1", "--quiet", "all", "--directory", tmp,
                   "--snakefile", str(Path(tmp, "Snakefile")), "--config", f"jobs={jobs}", "--workflow-profile", "none"]
        planned, ran = (_cpu_seconds(command + extra) for extra in (["--dry-run"], []))
    imported = min(_cpu_seconds([sys.executable, "-c", "import snakemake.script"]) for _ in range(2))
    return max((ran - planned) / jobs - imported, 0.0)


def _cpu_seconds(command: list[str]) -> float:
    """The CPU time (user and system) of ``command`` and every process it waited for."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, check=True, capture_output=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def forest_overhead(make_forest) -> tuple[float, float]:
    """(fixed seconds per forest, seconds per tree) of a tiny forest: its start-up, not its work."""
    rng = np.random.default_rng(0)
    X, y = rng.random((24, 3)), np.arange(24) % 2
    task = ForestTask(y, make_forest(0))

    def seconds(trees):
        t = replace(task, forest=_with_trees(task.forest, trees))
        start = time.perf_counter()
        run(t, X, X[:4])
        return time.perf_counter() - start

    one = min(seconds(1) for _ in range(3))
    many = min(seconds(21) for _ in range(3))
    per_tree = max((many - one) / 20, 1e-5)
    return max(one - per_tree, 0.0), per_tree


def _with_trees(forest, trees):
    from sklearn.base import clone

    forest = clone(forest)
    forest.set_params(n_estimators=trees, n_jobs=1)
    return forest


def forest_cost(tasks: list[ForestTask], X_train, X_test, trees: int, overhead: tuple[float, float],
                samples: int) -> ForestCost:
    """Cost of the forests of one fold from timing one task per size stratum (see the module doc)."""
    fixed, per_tree_floor = overhead
    strata = strata_of(tasks, samples)
    if not strata:
        return ForestCost(0, 0.0, 0.0, 0.0)
    per_tree, tree_mb = [], []
    for stratum in strata:
        probe = stratum[(len(stratum) - 1) // 2]
        seconds, mb = _time_per_tree(probe, X_train, X_test, fixed)
        tree_mb.append(mb)
        sizes = np.array([t.size for t in stratum], dtype=float)
        work = max(seconds - per_tree_floor, 0.0)
        per_tree.append(per_tree_floor + work * sizes / max(probe.size, 1))
    per_tree = np.concatenate(per_tree)
    each = fixed + trees * per_tree
    largest = strata[-1][-1]
    streamed = is_streamed(replace(largest, forest=_with_trees(largest.forest, trees)))
    forest_mb = max(tree_mb) * (1 if streamed else trees)
    return ForestCost(len(per_tree), float(each.sum()), float(each.max()), float(forest_mb))


def _time_per_tree(task: ForestTask, X_train, X_test, fixed: float) -> tuple[float, float]:
    """(seconds per tree, MB per tree) of ``task`` trained and applied with one or a few trees."""
    def timed(trees):
        t = replace(task, forest=_with_trees(task.forest, trees))
        start = time.perf_counter()
        model = train(t, X_train)
        apply(model, t, X_test)
        return time.perf_counter() - start, model

    seconds, model = timed(1)
    trees = 1
    if seconds < SLOW_TREE_S:
        trees = CALIBRATION_TREES
        seconds, model = timed(trees)
    mb = _model_mb(model) / trees
    return max(seconds - fixed, 0.0) / trees, mb


def _model_mb(model) -> float:
    """Memory of a fitted forest's trees: nodes × (node record + class values)."""
    if not hasattr(model, "estimators_"):
        return 0.0
    total = 0
    for tree in model.estimators_:
        t = tree.tree_
        total += t.node_count * (64 + 8 * int(t.n_outputs) * int(t.max_n_classes))
    return total / 1e6


def calibrate_dataset(study: Study, dataset: str, overhead, workdir=".", samples: int = 24,
                      log=print) -> DatasetCost:
    """Time one fold's forests of every classifier, every stratifier and the fold measures on ``dataset``
    (of a "does it matter" study: :func:`calibrate_cv_error`)."""
    ds = study.load_dataset(dataset, workdir)
    Y, k = ds.Y, study.n_splits
    with tempfile.TemporaryDirectory() as tmp:  # what a job pays to read the dataset
        save_dataset(ds, Path(tmp) / "d.npz")
        start = time.perf_counter()
        load_dataset(Path(tmp) / "d.npz")
        load_s = time.perf_counter() - start
    if study.kind == "cv_error":
        return DatasetCost(dataset, Y.shape[0], Y.shape[1], matrix_mb(ds.X), matrix_mb(Y), "", load_s, {}, 0.0, 0.0,
                           {}, cv_s=calibrate_cv_error(study, dataset, ds, log))
    groups = dataset_groups(ds, study.datasets[dataset].get("groups"), study.split_seed(dataset, 0))
    stratifier_s, folds = {}, None
    for name in study.stratifiers:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # rare labels, far fold sizes: the fold jobs say them
            ids, stratifier_s[name] = timed_fold_ids(study.stratifier(name, n_splits=k, random_state=0), Y, groups)
        folds = ids if folds is None else folds
    start = time.perf_counter()
    comb = label_combinations(Y)
    combinations_s = time.perf_counter() - start
    start = time.perf_counter()
    fold_quality(Y, folds, k, comb=comb)
    fold_quality_s = time.perf_counter() - start + (0.0 if study.grid else combinations_s)
    network_s = 0.0
    parts = BenchmarkPlan(study)  # which datasets a benchmark's network part and classifiers run on
    if dataset in parts.network_datasets():
        from stratbench.labels.network import network_stability  # networkx, for a study with the network part

        start = time.perf_counter()
        network_stability(Y, folds, k)
        network_s = time.perf_counter() - start
    forests, X, layout = {}, ds.X, "dense" if not sp.issparse(ds.X) else "sparse"
    test = folds == 0
    for c in [c for c in study.classifiers if dataset in parts.classifier_datasets(c)]:
        model = study.classifier(c, random_state=0)
        if not hasattr(model, "forest_tasks"):
            log(f"  {dataset} {c}: not a forest classifier; its cost is not estimated")
            continue
        tasks = model.forest_tasks(Y[~test])
        X_job, _ = faster_layout(ds.X, tasks, ~test)  # as the evaluation job will choose
        if not sp.issparse(X_job) and layout != "dense":
            X, layout = X_job, "dense float32"  # the memory estimate follows the larger layout
        trees = int(model.make_forest(0).get_params().get("n_estimators", 100))
        forests[c] = forest_cost(tasks, X_job[~test], X_job[test], trees, overhead, samples)
        log(f"  {dataset} {c}: {forests[c].forests} forests per fold, {forests[c].cpu_s:.1f} CPU-s per fold")
    return DatasetCost(dataset, Y.shape[0], Y.shape[1], matrix_mb(X), matrix_mb(Y), layout, load_s, stratifier_s,
                       fold_quality_s, network_s, forests, combinations_s)




def calibrate_cv_error(study: Study, dataset: str, ds, log=print) -> dict:
    """Seconds per development sample of a "does it matter" study's jobs, each size m, with one BLAS thread
    as a job has, timed on sample 0 and a few parts of the work, not all of it:

    - the truth: every learner and model-selection candidate fitted on the sample and on its fold-sized start,
      scored on the pool (timed once, at the largest m: the pool, not the sample, weighs), plus the pool's
      bootstrap (timed with 2 resamples, scaled to :data:`~stratbench.cv_error.run.NOISE_RESAMPLES`) on the
      share of samples that have it;
    - a stratifier's estimates: the sample's preparation (its kernel, the learners' solves), timed once; J times
      one CV repeat at every k of the learners, timed once on unshuffled k-fold's split (the same for every
      stratifier: the learners do not see who split); and J times the stratifier's own split at every k, timed
      once (after one split, which loads its compiled kernels as a job does once)."""
    from threadpoolctl import threadpool_limits

    from stratbench.cv_error.learners import SELECTION
    from stratbench.cv_error.run import (
        NOISE_RESAMPLES,
        NOISE_SAMPLES,
        development_rows,
        estimate_rows,
        learners_of,
        prepare_learners,
        splitter_factory,
        truth_rows,
    )
    from stratbench.study.plans import CvErrorPlan

    cv, seed = study.cv_error, study.seed
    out: dict = {part: {} for part in ["truth", *study.stratifiers]}
    truth_s = None
    loaded = set()  # stratifiers whose kernels are loaded
    with threadpool_limits(1), warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # labels rarer than k in small samples: expected
        for m in sorted({m for d, m in CvErrorPlan.cells(study) if d == dataset}, reverse=True):
            names = learners_of(cv, dataset, m)
            every = list(dict.fromkeys([*names, *SELECTION]))
            if truth_s is None:  # scoring the truth set outweighs the fits: timed at the largest m
                start = time.perf_counter()
                truth_rows(ds.X, ds.Y, m, 1, every, cv["n_splits"], seed, dataset, cv["truth_size"], 0)
                plain = time.perf_counter() - start
                start = time.perf_counter()  # the pool's bootstrap, with 2 resamples
                truth_rows(ds.X, ds.Y, m, 1, names, cv["n_splits"], seed, dataset, cv["truth_size"], 2)
                bootstrap = max(0.0, time.perf_counter() - start - plain * len(names) / len(every)) * NOISE_RESAMPLES / 2
                truth_s = plain + min(1.0, NOISE_SAMPLES / cv["samples"]) * bootstrap
            out["truth"][m] = truth_s
            dev = development_rows(ds.Y.shape[0], m, seed, dataset, 0, cv["truth_size"])
            start = time.perf_counter()
            prepare_learners(ds.X, ds.Y, dev, every, 0)
            prepare_s = time.perf_counter() - start
            start = time.perf_counter()
            estimate_rows(ds.X, ds.Y, m, 1, 1, cv["n_splits"], names, splitter_factory("kfold", {}), seed, dataset,
                          cv["truth_size"])
            learners_s = max(0.0, time.perf_counter() - start - prepare_s)
            Y_dev = ds.Y[dev]
            for name, spec in study.stratifiers.items():
                make = splitter_factory(name, spec)
                split_s = 0.0
                for k in cv["n_splits"]:
                    if name not in loaded:  # loads its kernels: a job pays that once, not once a repeat
                        make(k, 0).fold_ids(Y_dev)
                        loaded.add(name)
                    start = time.perf_counter()
                    make(k, 1).fold_ids(Y_dev)
                    split_s += time.perf_counter() - start
                out[name][m] = prepare_s + len(study.repeats) * (learners_s + split_s)
            log(f"  {dataset} m={m}: truth {out['truth'][m]:.2f} s per sample; estimates "
                f"{sum(out[s][m] for s in study.stratifiers):.1f} s per sample, every stratifier")
    return out
