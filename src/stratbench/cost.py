"""What a study costs before it runs: CPU time, memory and wall time of every job, and of the study
on N cores (``python -m stratbench estimate --configfile config/X.yaml --cores N``).

The study's shape gives every job of the workflow (datasets × stratifiers × repeats for the fold jobs,
× classifiers for the evaluation jobs); a short calibration on this machine gives their costs:

- **forests.** Every forest a classifier trains on one fold is known exactly before any is trained:
  ``forest_tasks`` of the training part of a k-fold split of the dataset (training rows, target,
  classes). They are sorted by size and cut into at most ``samples`` strata; the middle task of each
  stratum is trained and applied with few trees (one when a tree takes longer than
  ``SLOW_TREE_S``) and timed; the other tasks of its stratum cost the same per tree, scaled by
  their row count. A forest costs a fixed start-up plus ``n_estimators`` × its per-tree time (both
  measured on a tiny forest). A job trains k folds' forests.
- **stratifiers, fold quality, network stability**: each run once on the dataset and timed, the
  stratifier with the warm-up call its fold job makes.
- every job pays the start-up of a Python job here (interpreter and imports, measured).

A job's wall time at t threads is start-up + max(CPU / t, its largest forest); its memory comes from
the dataset's size in the layout it trains on, the forests' measured size per tree, and one copy of X
per worker. The study's wall time on N cores is a list-scheduling simulation of the DAG (a ready job
with the longest wall time first, each taking min(threads, N) cores). ``benchmarks/job_efficiency.py``
compares the estimate with the Snakemake ``benchmark:`` files of real runs.
"""

from __future__ import annotations

import heapq
import math
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from stratbench import classifiers, stratifiers, study
from stratbench.classifiers._forests import ForestTask, faster_layout, is_streamed, run, strata_of
from stratbench.labels import label_combinations

SLOW_TREE_S = 0.2        # calibrate with a single tree when one takes longer than this
CALIBRATION_TREES = 10
BASE_MB = 250            # a Python job with numpy, scipy, scikit-learn and pandas imported
WORKER_MB = 60           # a forked worker's own pages
AGGREGATION_S = 4.0      # a gather, table or figure job beyond its start-up


@dataclass
class Job:
    """One job of the workflow and its estimated cost."""

    rule: str
    dataset: str = ""
    stratifier: str = ""
    classifier: str = ""
    repeat: int = -1
    threads: int = 1
    cpu_s: float = 0.0
    wall_s: float = 0.0
    mem_mb: int = BASE_MB
    forests: int = 0
    after: tuple = field(default_factory=tuple)  # rules of the same dataset/stratifier/repeat it waits for


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


# --- calibration ------------------------------------------------------------------------------------

def python_startup_seconds() -> float:
    """Wall time of a fresh Python that imports what a job imports (best of two)."""
    code = "import snakemake.script, sklearn.ensemble, pandas, stratbench.evaluation, stratbench.fold_quality"
    best = math.inf
    for _ in range(2):
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
        best = min(best, time.perf_counter() - start)
    return best + 0.5  # Snakemake's own work per job (job script, metadata)


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
    from stratbench.classifiers._forests import train, apply

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


def calibrate_dataset(config: dict, dataset: str, overhead, workdir=".", samples: int = 24,
                      log=print) -> DatasetCost:
    """Time one fold's forests of every classifier, every stratifier and the fold measures on ``dataset``."""
    from stratbench.datasets import save_dataset, load_dataset
    from stratbench.fold_quality import fold_quality
    from stratbench.network import network_stability

    ds = study.load_dataset(config, dataset, workdir)
    Y, k = ds.Y, config["n_splits"]
    with tempfile.TemporaryDirectory() as tmp:  # what a job pays to read the dataset
        save_dataset(ds, Path(tmp) / "d.npz")
        start = time.perf_counter()
        load_dataset(Path(tmp) / "d.npz")
        load_s = time.perf_counter() - start
    stratifier_s = {}
    folds = None
    for name, spec in config["stratifiers"].items():
        splitter = stratifiers.get(spec.get("class", name), **{**spec.get("params", {}), "n_splits": k,
                                                                 "random_state": 0})
        start = time.perf_counter()
        warm = Y[: min(Y.shape[0], 4 * k)]
        if warm.shape[0] >= k:
            splitter.fold_ids(warm)
        ids = splitter.fold_ids(Y)
        stratifier_s[name] = time.perf_counter() - start
        folds = ids if folds is None else folds
    start = time.perf_counter()
    comb = label_combinations(Y)
    combinations_s = time.perf_counter() - start
    start = time.perf_counter()
    fold_quality(Y, folds, k, comb=comb)
    fold_quality_s = time.perf_counter() - start + (0.0 if config.get("grid") else combinations_s)
    network_s = 0.0
    if config.get("network_stability"):
        start = time.perf_counter()
        network_stability(Y, folds, k)
        network_s = time.perf_counter() - start
    forests, X, layout = {}, ds.X, "dense" if not sp.issparse(ds.X) else "sparse"
    chosen = [c for c in (config.get("classifiers") or {}) if dataset in study.classifier_datasets(config, c)]
    if chosen:
        test = folds == 0
        params = {**(config.get("forest") or {})}
        for c in chosen:
            spec = config["classifiers"][c]
            model = classifiers.get(spec.get("class", c), **{**params, **spec.get("params", {}), "random_state": 0})
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
    x_mb = _matrix_mb(X)
    return DatasetCost(dataset, Y.shape[0], Y.shape[1], x_mb, _matrix_mb(Y), layout, load_s, stratifier_s,
                       fold_quality_s, network_s, forests, combinations_s)


def _matrix_mb(M) -> float:
    if sp.issparse(M):
        return (M.data.nbytes + M.indices.nbytes + M.indptr.nbytes) / 1e6
    return np.asarray(M).nbytes / 1e6


# --- the jobs of a study ----------------------------------------------------------------------------

def study_jobs(config: dict, costs: dict[str, DatasetCost], startup: float) -> list[Job]:
    """Every job of the workflow with its cost (fetch/parse/generate, folds, fold quality, network
    stability, evaluation, and the aggregation jobs)."""
    k, repeats = config["n_splits"], range(config["repeats"])
    threads = config.get("threads", 1)
    grid_ks = (config.get("grid") or {}).get("n_splits", [])
    jobs = []
    for d, c in costs.items():
        base = BASE_MB + c.x_mb + c.y_mb
        jobs.append(Job("dataset", d, cpu_s=startup + 4 * c.load_s, wall_s=startup + 4 * c.load_s,
                        mem_mb=int(base + 3 * c.x_mb)))
        if grid_ks:  # one job per (dataset, stratifier): every k × repeat split and its fold quality
            for s, split_s in c.stratifier_s.items():
                scale = sum(kk / k for kk in grid_ks) * len(repeats)  # both grow about linearly with k
                seconds = startup + c.load_s + c.combinations_s + scale * (split_s + c.fold_quality_s)
                jobs.append(Job("grid_quality", d, s, cpu_s=seconds, wall_s=seconds,
                                mem_mb=int(BASE_MB + 40 * c.y_mb), after=("dataset",)))
            continue
        for s, split_s in c.stratifier_s.items():
            for r in repeats:
                fold_s = startup + c.load_s + split_s
                jobs.append(Job("make_folds", d, s, repeat=r, cpu_s=fold_s, wall_s=fold_s,
                                mem_mb=int(BASE_MB + 30 * c.y_mb), after=("dataset",)))
                quality_s = startup + c.load_s + c.fold_quality_s
                jobs.append(Job("fold_quality", d, s, repeat=r, cpu_s=quality_s, wall_s=quality_s,
                                mem_mb=int(BASE_MB + 10 * c.y_mb), after=("make_folds",)))
                if config.get("network_stability"):
                    net_s = startup + c.load_s + c.network_s
                    jobs.append(Job("network_stability", d, s, repeat=r, cpu_s=net_s, wall_s=net_s,
                                    mem_mb=int(BASE_MB + 10 * c.y_mb), after=("make_folds",)))
                for name, f in c.forests.items():
                    jobs.append(evaluation_job(d, s, name, r, f, c, k, threads, startup))
    n_aggregation = 14 + 4 * len(config.get("classifiers") or {}) + len(costs)
    jobs += [Job("aggregate", cpu_s=startup + AGGREGATION_S, wall_s=startup + AGGREGATION_S, after=("*",))
             for _ in range(n_aggregation)]
    return jobs


def evaluation_job(dataset, stratifier, classifier, repeat, f: ForestCost, c: DatasetCost, k: int, threads: int,
                   startup: float) -> Job:
    """One evaluation job: k folds' forests in a pool of ``threads`` workers."""
    cpu = k * f.cpu_s
    pooled = k * f.forests >= 2 * threads and threads > 1
    wall = startup + c.load_s + max(cpu / threads, f.largest_s)
    workers = threads if pooled else 0
    mem = BASE_MB + 2 * c.x_mb + c.y_mb * 3 + (f.forest_mb if not pooled else 0)
    mem += workers * (WORKER_MB + c.x_mb + f.forest_mb)
    return Job("evaluate", dataset, stratifier, classifier, repeat, threads, startup + c.load_s + cpu, wall,
               int(mem * 1.25) + 1, k * f.forests, after=("make_folds",))


def simulate(jobs: list[Job], cores: int) -> float:
    """Makespan (s) of ``jobs`` on ``cores`` cores. A job becomes ready when the jobs it waits for have
    finished (fold jobs wait for their dataset, the jobs on a fold file for its fold job, aggregation
    for everything else); free cores go to the ready job with the longest wall time that fits, each
    job taking min(threads, cores) cores."""
    def fold_key(j):
        return (j.dataset, j.stratifier, j.repeat)

    dataset_job = {j.dataset: i for i, j in enumerate(jobs) if j.rule == "dataset"}
    folds_job = {fold_key(j): i for i, j in enumerate(jobs) if j.rule == "make_folds"}
    children = [[] for _ in jobs]
    waiting = [0] * len(jobs)
    last = [i for i, j in enumerate(jobs) if j.rule != "aggregate"]
    for i, j in enumerate(jobs):
        parents = []
        if j.rule in ("make_folds", "grid_quality") and j.dataset in dataset_job:
            parents = [dataset_job[j.dataset]]
        elif j.rule in ("fold_quality", "network_stability", "evaluate") and fold_key(j) in folds_job:
            parents = [folds_job[fold_key(j)]]
        elif j.rule == "aggregate":
            parents = last
        for p in parents:
            children[p].append(i)
        waiting[i] = len(parents)
    ready = [(-j.wall_s, i) for i, j in enumerate(jobs) if waiting[i] == 0]
    heapq.heapify(ready)
    running: list = []
    now, free = 0.0, cores
    while ready or running:
        skipped = []
        while ready and free > 0:
            item = heapq.heappop(ready)
            need = min(jobs[item[1]].threads, cores)
            if need <= free:
                free -= need
                heapq.heappush(running, (now + jobs[item[1]].wall_s, item[1], need))
            else:
                skipped.append(item)
        for item in skipped:
            heapq.heappush(ready, item)
        now, i, need = heapq.heappop(running)
        free += need
        for c in children[i]:
            waiting[c] -= 1
            if waiting[c] == 0:
                heapq.heappush(ready, (-jobs[c].wall_s, c))
    return now


# --- the report -------------------------------------------------------------------------------------

def summary(jobs: list[Job], cores: int) -> pd.DataFrame:
    """CPU hours per dataset × part (each classifier; folds and fold quality), and a total line with
    the simulated wall time on ``cores`` cores."""
    frame = pd.DataFrame([asdict(j) for j in jobs])
    parts = {"aggregate": "aggregation", "dataset": "data", "grid_quality": "grid (every k and seed)"}
    frame["part"] = frame["rule"].map(parts).fillna("folds + fold quality")
    frame.loc[frame["rule"] == "evaluate", "part"] = frame["classifier"]
    rows = []
    for (d, part), g in frame.groupby(["dataset", "part"], sort=False):
        rows.append(dict(dataset=d or "(all)", part=part, jobs=len(g), forests=int(g["forests"].sum()),
                         cpu_hours=g["cpu_s"].sum() / 3600, longest_job_min=g["wall_s"].max() / 60,
                         max_mem_mb=int(g["mem_mb"].max())))
    table = pd.DataFrame(rows)
    wall = simulate(jobs, cores)
    total = dict(dataset="total", part=f"wall on {cores} cores: {_duration(wall)}", jobs=len(frame),
                 forests=int(frame["forests"].sum()), cpu_hours=frame["cpu_s"].sum() / 3600,
                 longest_job_min=frame["wall_s"].max() / 60, max_mem_mb=int(frame["mem_mb"].max()))
    return pd.concat([table, pd.DataFrame([total])], ignore_index=True)


def _duration(seconds: float) -> str:
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def estimate(config: dict, cores: int, workdir=".", samples: int = 24, log=print):
    """(jobs, summary table, calibration) of ``config`` on this machine at ``cores`` cores."""
    startup = python_startup_seconds()
    log(f"job start-up: {startup:.2f} s")
    first = next(iter(config.get("classifiers") or {}), None)
    make = (lambda seed: classifiers.get("br", **{**(config.get("forest") or {}), "random_state": seed}).make_forest(seed))
    overhead = forest_overhead(make) if first else (0.0, 0.0)
    costs = {}
    for d in config["datasets"]:
        start = time.perf_counter()
        costs[d] = calibrate_dataset(config, d, overhead, workdir, samples, log)
        log(f"calibrated {d} in {time.perf_counter() - start:.1f} s")
    jobs = study_jobs(config, costs, startup)
    return jobs, summary(jobs, cores), dict(startup_s=startup, forest_overhead=overhead,
                                            datasets={d: asdict(c) for d, c in costs.items()})


# --- resources of the workflow's rules --------------------------------------------------------------

FALLBACK = dict(mem_mb=2000, runtime=5)  # a rule without its own model: gathers, tables, figures (seconds each)
# rules whose jobs travel in groups on a cluster: a group submission asks for the sum of its members'
# runtimes (whole minutes each), so these add no safety minutes of their own
GROUPED = {"fetch_mulan_file", "parse_mulan", "generate_dataset", "import_dataset", "make_folds", "fold_quality",
           "network_stability"}


def read_estimate(path) -> dict:
    """The jobs of a written estimate (``jobs.csv``) keyed by (rule, dataset, stratifier, classifier);
    empty when there is none."""
    path = Path(path)
    if not path.is_file():
        return {}
    frame = pd.read_csv(path, keep_default_na=False)
    frame = frame.groupby(["rule", "dataset", "stratifier", "classifier"]).agg(
        mem_mb=("mem_mb", "max"), wall_s=("wall_s", "max"))
    return {key: (int(row.mem_mb), float(row.wall_s)) for key, row in frame.iterrows()}


def shape_forest_seconds(rows: int, classes: int, trees: int) -> float:
    """A forest's time without calibration: generous per-tree costs fitted to this machine's
    calibrations (yeast BR ×1.4, bibtex BR up to ×10, corel5k and delicious LP ×1–2)."""
    return 0.005 + trees * (1e-3 + 8e-6 * rows * (1 + classes / 400))


def shape_evaluation(dataset_file, classifier, spec: dict, forest: dict, n_splits: int, threads: int) -> tuple[int, float]:
    """(mem_mb, wall seconds) of an evaluation job from the dataset file alone (no calibration): the
    classifier's forests of a k-fold training part, each :func:`shape_forest_seconds`."""
    from stratbench.datasets import load_dataset

    ds = load_dataset(dataset_file)
    model = classifiers.get(spec.get("class", classifier), **{**forest, **spec.get("params", {}), "random_state": 0})
    keep = np.arange(ds.Y.shape[0]) % n_splits != 0
    tasks = [t for t in model.forest_tasks(ds.Y[keep]) if t.trains_forest()] if hasattr(model, "forest_tasks") else []
    trees = int(forest.get("n_estimators", 100))
    seconds = [shape_forest_seconds(t.size, 2 if t.labelsets is None else len(t.labelsets), trees) for t in tasks]
    cpu = n_splits * sum(seconds) or 60.0
    wall = max(cpu / threads, max(seconds, default=0.0)) + 10
    x_mb = _matrix_mb(ds.X) if sp.issparse(ds.X) else ds.X.nbytes / 1e6
    big = max(((2 * t.size * (2 if t.labelsets is None else len(t.labelsets)) * 8 + 128 * t.size) / 1e6
               * (1 if is_streamed(t) else trees) for t in tasks), default=0.0)
    mem = BASE_MB + 2 * x_mb + threads * (WORKER_MB + x_mb + big)
    return int(1.25 * mem) + 1, wall


def rule_resources(rule: str, wildcards, input, threads: int, config: dict, estimate: dict) -> tuple[int, int]:
    """(mem_mb, runtime in minutes) that a job of ``rule`` asks for: from the written estimate when
    there is one (wall × 1.5, + 2 min for a job submitted alone; memory × 1.25 + 100 MB), else from
    the dataset file (evaluation: ×3 + 5 min), else :data:`FALLBACK`."""
    dataset = wildcards.get("dataset", "") or wildcards.get("mulan", "")
    modelled = {"parse_mulan": "dataset", "generate_dataset": "dataset", "import_dataset": "dataset"}.get(rule, rule)
    key = (modelled, dataset, wildcards.get("stratifier", ""), wildcards.get("classifier", ""))
    if key in estimate:
        mem, wall = estimate[key]
        return int(mem * 1.25) + 100, int(math.ceil(wall * 1.5 / 60)) + (0 if rule in GROUPED else 2)
    if rule == "evaluate":
        data = getattr(input, "data", None)
        if data and Path(data).is_file():
            spec = config["classifiers"][wildcards["classifier"]]
            mem, wall = shape_evaluation(data, wildcards["classifier"], spec, config.get("forest") or {},
                                         config["n_splits"], threads)
            return mem, int(math.ceil(3 * wall / 60)) + 5
        return 8000, 24 * 60
    return FALLBACK["mem_mb"], FALLBACK["runtime"]
