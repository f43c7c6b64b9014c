"""The jobs of a study and their costs: the job list from Snakemake's own plan, each job costed by its
rule's model (:data:`stratbench.cost.requests.RULES`) from the calibration, and the study's wall time
on N cores.

A job's wall time at t threads is start-up + max(CPU / t, its largest forest); its memory comes from
the dataset's size in the layout it trains on, the forests' measured size per tree, and one copy of X
per worker. The study's wall time on N cores is a list-scheduling simulation of the DAG (a ready job
with the longest wall time first, each taking min(threads, N) cores). ``benchmarks/job_efficiency.py``
compares the estimate with the Snakemake ``benchmark:`` files of real runs.
"""

from __future__ import annotations

import heapq
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

import pandas as pd
import yaml

import stratbench
from stratbench import StratbenchError, classifiers
from stratbench.cost.calibration import DatasetCost, ForestCost, calibrate_dataset, forest_overhead, job_startup_seconds
from stratbench.cost.requests import BASE_MB, EVALUATION_RULES, WORKER_MB, cost_model
from stratbench.jobs import server as jobserver
from stratbench.study import Study
from stratbench.study.plans import PLANS, BenchmarkPlan

AGGREGATION_S = 1.5      # a gather, table or figure job beyond its start-up: measured 0.5 s on average in the
#                          quick study (27 jobs), 2.0 s in the Szymański fold-quality part (22; docs/MEASUREMENTS.md)
FIGURE_S = 1.0           # each further figure of a job that draws several: 0.5-1.25 s measured (quick study)
FOLD_RULES = ("make_folds", "make_folds_per_repeat")  # the jobs that write fold files


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


def planned_jobs(output: str) -> dict[str, int]:
    """Job counts per rule from the "Job stats" table Snakemake prints (a dry run's output)."""
    counts, table = {}, False
    for line in output.splitlines():
        if line.startswith("Job stats"):
            table = True
        elif table:
            parts = line.split()
            if parts and parts[0] == "total":
                break
            if len(parts) == 2 and parts[1].isdigit():
                counts[parts[0]] = int(parts[1])
    return counts


def snakefile(workdir=".") -> Path:
    """The workflow's Snakefile: beside the package in a checkout, else in the working directory's
    (``--directory``, a stratbench checkout when the package is installed from PyPI or a wheel)."""
    for candidate in (Path(stratbench.__file__).resolve().parents[2] / "workflow" / "Snakefile",
                      Path(workdir) / "workflow" / "Snakefile", Path.cwd() / "workflow" / "Snakefile"):
        if candidate.is_file():
            return candidate
    raise StratbenchError(f"the estimate needs the workflow (workflow/Snakefile), not found in {Path(workdir).resolve()}: "
                          "run it in a stratbench checkout or give one with --directory")


def workflow_plan(config: dict, workdir=".") -> dict[str, int]:
    """Jobs per rule of the whole study as Snakemake plans it (a forced dry run: every job, done or not)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.yaml"
        path.write_text(yaml.safe_dump(config, sort_keys=False))
        done = subprocess.run([sys.executable, "-m", "snakemake", "--dry-run", "--forceall", "--quiet", "rules",
                               "--snakefile", str(snakefile(workdir)), "--directory", str(workdir), "--configfile", str(path),
                               "--workflow-profile", "none"], capture_output=True, text=True)
    planned = planned_jobs(done.stdout + done.stderr)
    if done.returncode != 0 or not planned:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-5:])
        raise StratbenchError(f"Snakemake could not plan the study:\n{tail}")
    return planned


def study_jobs(study: Study, costs: dict[str, DatasetCost], startups: dict[str, float], planned: dict[str, int]) -> list[Job]:
    """Every job of the workflow with its cost: the fetch/parse/generate jobs, the fold jobs (every repeat's
    split and fold quality of a dataset × stratifier), network, evaluation and grid jobs of every dataset
    from its calibration, and as many aggregation jobs as the plan holds, a figure job with :data:`FIGURE_S`
    more for each further figure it draws (every rule of the plan must have a cost model). ``startups``: a job's start-up by the kind of
    :data:`~stratbench.cost.calibration.STARTUP_IMPORTS` (a kind not given: ``"job"``'s)."""
    k, repeats = study.n_splits, study.repeats
    kinds = {rule: cost_model(rule) for rule in planned}
    benchmark = BenchmarkPlan(study)  # a benchmark's job sizes and parts (the other kinds have none of them)
    network = set(benchmark.network_datasets())
    startup = startups["job"]
    light, net_startup, agg_startup = (startups.get(kind, startup) for kind in ("split", "network", "aggregate"))
    jobs = []
    for d, c in costs.items():
        base = BASE_MB + c.x_mb + c.y_mb
        jobs.append(Job("dataset", d, cpu_s=light + 4 * c.load_s, wall_s=light + 4 * c.load_s,
                        mem_mb=int(base + 3 * c.x_mb)))
        if study.kind == "grid":  # one job per (dataset, stratifier): every k × repeat split and its fold quality
            for s, split_s in c.stratifier_s.items():
                scale = sum(kk / k for kk in study.grid_ks) * len(repeats)  # both grow about linearly with k
                seconds = light + c.load_s + c.combinations_s + scale * (split_s + c.fold_quality_s)
                jobs.append(Job("grid_quality", d, s, cpu_s=seconds, wall_s=seconds,
                                mem_mb=int(BASE_MB + 40 * c.y_mb), after=("dataset",)))
            if d in study.optimum.get("datasets", []):  # at most its deterministic time per solve, each worker
                o = study.optimum  # validated: the schema's defaults filled in
                wall = startup + o["max_time"] * len(study.grid_ks) * len(o["objectives"])
                jobs.append(Job("grid_optimum", d, cpu_s=wall * o["workers"], wall_s=wall,
                                mem_mb=int(BASE_MB + 500 + 40 * c.y_mb), after=("dataset",)))
            continue
        if study.kind == "cv_error":  # a job per (m): every sample's truth; a job per (m, stratifier): every estimate
            samples = study.cv_error["samples"]
            for part, m, per_sample in ((p, m, v) for p, by_m in c.cv_s.items() for m, v in by_m.items()):
                seconds = startup + c.load_s + samples * per_sample
                jobs.append(Job("cv_truth" if part == "truth" else "cv_estimates", d, "" if part == "truth" else part,
                                f"m{m}", cpu_s=seconds, wall_s=seconds,
                                mem_mb=int(BASE_MB + 3 * c.x_mb + 3 * c.y_mb + 8 * 3 * m * m / 1e6
                                           + (16 * study.cv_error["truth_size"] * m / 1e6 if part == "truth" else 0)),
                                after=("dataset",)))
            continue
        per_repeat = benchmark.split_per_repeat(d)  # a large label matrix: a fold job per repeat, side by side
        evaluate_per_repeat = benchmark.evaluate_per_repeat(d)  # large forests: an evaluation job per repeat
        for s, split_s in c.stratifier_s.items():  # else one fold job per (dataset, stratifier): every repeat's split
            for r in repeats if per_repeat else [-1]:
                folds_s = light + c.load_s + (1 if per_repeat else len(repeats)) * (split_s + c.fold_quality_s)
                jobs.append(Job("make_folds_per_repeat" if per_repeat else "make_folds", d, s, repeat=r, cpu_s=folds_s,
                                wall_s=folds_s, mem_mb=int(BASE_MB + 30 * c.y_mb), after=("dataset",)))
            if "network_stability" in planned and d in network:
                net_s = net_startup + c.load_s + len(repeats) * c.network_s
                jobs.append(Job("network_stability", d, s, cpu_s=net_s, wall_s=net_s, mem_mb=int(BASE_MB + 10 * c.y_mb),
                                after=("make_folds",)))
            if s not in study.classifier_stratifiers:
                continue
            if evaluate_per_repeat:
                jobs += [evaluation_job(d, s, name, r, f, c, k, study.threads, startup)
                         for r in study.classifier_repeats for name, f in c.forests.items()]
            else:  # every repeat of a (dataset, stratifier, classifier) in one job
                jobs += [evaluation_job(d, s, name, -1, f, c, k, study.threads, startup, len(study.classifier_repeats))
                         for name, f in c.forests.items()]
    # the plan's other dataset jobs (a MULAN dataset's file fetches beside its parse): start-up and a copy each
    extra = sum(n for rule, n in planned.items() if kinds[rule] == "dataset") - sum(j.rule == "dataset" for j in jobs)
    jobs += [Job("dataset", cpu_s=light + 1.0, wall_s=light + 1.0) for _ in range(max(0, extra))]
    figures = figures_per_job(study)
    for rule, n in planned.items():
        if kinds[rule] == "aggregate":
            seconds = agg_startup + AGGREGATION_S + FIGURE_S * max(0, figures.get(rule, 1) - 1)
            jobs += [Job("aggregate", cpu_s=seconds, wall_s=seconds, after=("*",)) for _ in range(n)]
    return jobs


def figures_per_job(study: Study) -> dict[str, int]:
    """The figures that each job of the figure rules drawing several draws (workflow/rules/figures.smk)."""
    benchmark = BenchmarkPlan(study)
    evaluated, ranked = len(benchmark.evaluated_classifiers()), len(benchmark.ranked_classifiers())
    return {"plot_std_by_stratifier": evaluated, "plot_fold_distribution": evaluated,
            "plot_rank_bars": ranked, "plot_cd_diagrams": ranked, "plot_fold_quality_ranks": 2}


def evaluation_job(dataset, stratifier, classifier, repeat, f: ForestCost, c: DatasetCost, k: int, threads: int,
                   startup: float, repeats: int = 1) -> Job:
    """One evaluation job: k folds' forests in a pool of ``threads`` workers, for one repeat (``repeat``), or
    for ``repeats`` of them one after the other (``repeat`` −1: rule ``evaluate_repeats``)."""
    cpu = repeats * k * f.cpu_s
    pooled = k * f.forests >= 2 * threads and threads > 1
    wall = startup + c.load_s + repeats * max(k * f.cpu_s / threads, f.largest_s)
    workers = threads if pooled else 0
    mem = BASE_MB + 2 * c.x_mb + c.y_mb * 3 + (f.forest_mb if not pooled else 0)
    mem += workers * (WORKER_MB + c.x_mb + f.forest_mb)
    rule = "evaluate" if repeat >= 0 else "evaluate_repeats"
    return Job(rule, dataset, stratifier, classifier, repeat, threads, startup + c.load_s + cpu, wall,
               int(mem * 1.25) + 1, repeats * k * f.forests, after=("make_folds",))


def simulate(jobs: list[Job], cores: int) -> float:
    """Makespan (s) of ``jobs`` on ``cores`` cores. A job becomes ready when the jobs it waits for have
    finished (fold jobs wait for their dataset, the jobs on a fold file for its fold job, aggregation
    for everything else); free cores go to the ready job with the longest wall time that fits, each
    job taking min(threads, cores) cores."""
    dataset_job = {j.dataset: i for i, j in enumerate(jobs) if j.rule == "dataset" and j.dataset}
    folds_job: dict[tuple, list[int]] = {}  # (dataset, stratifier) → its fold jobs (one, or one per repeat)
    for i, j in enumerate(jobs):
        if j.rule in FOLD_RULES:
            folds_job.setdefault((j.dataset, j.stratifier), []).append(i)

    def folds_of(j):  # the fold job a job reads: of its repeat where they are split one repeat a job
        found = folds_job.get((j.dataset, j.stratifier), [])
        return [i for i in found if jobs[i].repeat in (-1, j.repeat)] if j.rule == "evaluate" else found

    children = [[] for _ in jobs]
    waiting = [0] * len(jobs)
    last = [i for i, j in enumerate(jobs) if j.rule != "aggregate"]
    for i, j in enumerate(jobs):
        parents = []
        if j.rule in (*FOLD_RULES, "grid_quality", "cv_truth", "cv_estimates") and j.dataset in dataset_job:
            parents = [dataset_job[j.dataset]]
        elif j.rule in EVALUATION_RULES or j.rule == "network_stability":
            parents = folds_of(j)
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


def summary(jobs: list[Job]) -> pd.DataFrame:
    """CPU hours per dataset × part (each classifier; folds and fold quality) and a total line; the
    ``forests`` column only where some job trains forests. The study's wall time on N cores is
    :func:`simulate`'s, said beside the table."""
    frame = pd.DataFrame([asdict(j) for j in jobs])
    parts = {"aggregate": "aggregation", "dataset": "data", "grid_quality": "grid (every k and seed)",
             "grid_optimum": "best split (CP-SAT)"}
    frame["part"] = frame["rule"].map(parts).fillna("folds + fold quality")
    frame.loc[frame["rule"].isin(EVALUATION_RULES), "part"] = frame["classifier"]
    cv = frame["rule"].isin(["cv_truth", "cv_estimates"])  # "does it matter": per development-sample size
    frame.loc[cv, "part"] = frame["rule"].str.replace("cv_", "") + " " + frame["classifier"].str.replace("m", "m=")
    rows = []
    for (d, part), g in frame.groupby(["dataset", "part"], sort=False):
        rows.append(dict(dataset=d or "(all)", part=part, jobs=len(g), forests=int(g["forests"].sum()),
                         cpu_hours=g["cpu_s"].sum() / 3600, longest_job_min=g["wall_s"].max() / 60,
                         max_mem_mb=int(g["mem_mb"].max())))
    table = pd.DataFrame(rows)
    total = dict(dataset="total", part="", jobs=len(frame), forests=int(frame["forests"].sum()),
                 cpu_hours=frame["cpu_s"].sum() / 3600, longest_job_min=frame["wall_s"].max() / 60,
                 max_mem_mb=int(frame["mem_mb"].max()))
    table = pd.concat([table, pd.DataFrame([total])], ignore_index=True)
    return table if total["forests"] else table.drop(columns="forests")



def duration(seconds: float) -> str:
    """A wall time as a person reads it: seconds (under 2 minutes), minutes, hours or days.

    >>> [duration(s) for s in (84.6, 150, 7200, 3 * 86400)]
    ['85 s', '2 min', '2.0 h', '3.0 days']
    """
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} h"
    return f"{seconds / 86400:.1f} days"


def _calibrated(args):
    study, d, overhead, workdir, samples = args
    start = time.perf_counter()
    lines: list[str] = []
    cost = calibrate_dataset(study, d, overhead, workdir, samples, lines.append)
    return d, cost, lines + [f"calibrated {d} in {time.perf_counter() - start:.1f} s"]


def calibrate_datasets(study: Study, overhead, workdir, samples: int, cores: int, log) -> dict[str, DatasetCost]:
    """Every dataset's :func:`calibrate_dataset`, as many at once as this machine has cores (each with one BLAS
    thread, as a job has), in the study's order."""
    import os
    from concurrent.futures import ProcessPoolExecutor

    tasks = [(study, d, overhead, workdir, samples) for d in study.datasets]
    workers = max(1, min(len(tasks), len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1))
    if workers == 1:
        results = map(_calibrated, tasks)
    else:
        pool = ProcessPoolExecutor(workers)
        results = pool.map(_calibrated, tasks)
    costs = {}
    for d, cost, lines in results:
        for line in lines:
            log(line)
        costs[d] = cost
    return costs


def estimate(config: dict, cores: int, workdir=".", samples: int = 24, log=print):
    """(jobs, summary table, calibration) of the study ``config`` on this machine at ``cores`` cores (a study of a
    built-in kind: each has its jobs' cost models)."""
    study = Study(config)
    if study.kind not in PLANS:
        raise StratbenchError(f"stratbench estimate prices the built-in kinds of study ({', '.join(PLANS)}); the kind "
                              f"{study.kind!r} has no cost model of its jobs: time its run instead")
    planned = workflow_plan(config, workdir)
    planned = {rule: n for rule, n in planned.items() if cost_model(rule) != "target"}  # `all` runs nothing
    log(f"planned: {sum(planned.values())} jobs of {len(planned)} rules")
    startups = job_startup_seconds()
    how = "forked by the run's job server" if jobserver.enabled() else "each a fresh Python (STRATBENCH_JOBSERVER=0)"
    log(f"job start-up: {startups['split']:.2f} s (a dataset or fold job), {startups['job']:.2f} s (an evaluation "
        f"job), {startups['network']:.2f} s (network stability), {startups['aggregate']:.2f} s (a table or figure); "
        f"jobs {how}")
    overhead = (0.0, 0.0)
    if study.classifiers:
        forest = study.forest
        overhead = forest_overhead(lambda seed: classifiers.get("br", **forest, random_state=seed)
                                   .make_forest(seed))
    costs = calibrate_datasets(study, overhead, workdir, samples, cores, log)
    jobs = study_jobs(study, costs, startups, planned)
    wall = simulate(jobs, cores)
    return jobs, summary(jobs), dict(startups_s=startups, cores=cores, wall_s=wall, forest_overhead=overhead,
                                     datasets={d: asdict(c) for d, c in costs.items()})
