"""What every rule of the workflow asks for (``mem_mb``, ``runtime``), and the one table that says how
each rule's jobs are costed.

:data:`RULES` maps every rule to its cost model, a job kind of :func:`stratbench.cost.jobs.study_jobs`.
The workflow's rules read it through :func:`rule_requests` and the estimate reads it for every rule in
Snakemake's plan, so a rule missing from it stops the workflow when it is parsed and the estimate
before it calibrates: a new rule cannot be forgotten.
"""

from __future__ import annotations

import functools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from stratbench import StratbenchError, classifiers
from stratbench.classifiers.forests import is_streamed, shape_forest_seconds
from stratbench.datasets import load_dataset
from stratbench.io import memo_file, remember

BASE_MB = 250            # a Python job with numpy, scipy, scikit-learn and pandas imported
WORKER_MB = 60           # a forked worker's own pages
FALLBACK = dict(mem_mb=2000, runtime=5)  # an aggregation rule: gathers, tables, figures (seconds each)

# rule → the job kind that costs it: "dataset" (fetch, parse, generate, import), "make_folds" (every repeat's
# split and fold quality of a dataset × stratifier), "make_folds_per_repeat" (one repeat's, of a large label
# matrix: not grouped on a cluster, so its repeats run side by side), "network_stability" (every repeat's), "evaluate"
# (one repeat's forests), "evaluate_repeats" (every repeat's forests of a small dataset × stratifier × classifier),
# "grid_quality", "grid_optimum", "cv_truth" (every development sample's truth of a dataset × m), "cv_estimates"
# (every sample × k × CV repeat of a dataset × m × stratifier), or "aggregate" (a gather, table,
# figure or report job: start-up plus a few seconds), "target" (no job)
RULES = {
    "fetch_mulan_file": "dataset", "parse_mulan": "dataset", "generate_dataset": "dataset", "import_dataset": "dataset",
    "make_folds": "make_folds", "make_folds_per_repeat": "make_folds_per_repeat", "network_stability": "network_stability",
    "evaluate": "evaluate", "evaluate_repeats": "evaluate_repeats", "grid_quality": "grid_quality", "grid_optimum": "grid_optimum",
    "cv_truth": "cv_truth", "cv_estimates": "cv_estimates",
    **dict.fromkeys([
        "dataset_statistics", "gather_runtime", "gather_fold_quality", "compare_fold_quality", "gather_network_stability",
        "gather_scores", "summarise_scores", "paper_tables", "reproduction_report", "plot_paper_claims", "grid_tables", "plot_grid_cd",
        "recommendation", "grid_gap", "cv_error_tables", "plot_cv_error", "cv_error_verdict", "plot_std_by_stratifier",
        "plot_fold_distribution", "plot_rank_bars", "plot_cd_diagrams", "plot_fold_quality_ranks",
        "plot_label_shares", "plot_runtime"], "aggregate"),
    "all": "target",  # the default target: no job of its own
}
EVALUATION_RULES = ("evaluate", "evaluate_repeats")  # the jobs that train forests: one repeat's, or every repeat's
# kinds whose jobs last seconds and travel in groups on a cluster (workflow/profiles/slurm `groups:`): a
# group submission asks for the sum of its members' runtimes, so these add no safety minutes of their own
GROUPED_KINDS = {"dataset", "make_folds", "network_stability"}


def matrix_mb(M) -> float:
    """Megabytes of a matrix's arrays (a sparse one's data, indices and pointers)."""
    if sp.issparse(M):
        return (M.data.nbytes + M.indices.nbytes + M.indptr.nbytes) / 1e6
    return np.asarray(M).nbytes / 1e6


def cost_model(rule: str) -> str:
    """The job kind that costs ``rule``; a rule without one stops with a message saying where to add it."""
    try:
        return RULES[rule]
    except KeyError:
        raise StratbenchError(f"rule {rule!r} has no cost model: add it to stratbench.cost.requests.RULES") from None


ESTIMATES = "estimates"  # beside results/ and logs/: a machine's calibration, never in a study's outputs


def estimate_folder(study: str) -> str:
    """Where ``stratbench estimate`` writes a study's estimate, relative to the workflow's folder: outside
    ``results/<study>``, so that the run's manifest and RO-Crate hold only the study's outputs."""
    return f"{ESTIMATES}/{study}"


def read_estimate(path) -> dict:
    """The jobs of a written estimate (``jobs.csv``) keyed by (job kind, dataset, stratifier, classifier);
    empty when there is none."""
    path = Path(path)
    if not path.is_file():
        return {}
    frame = pd.read_csv(path, keep_default_na=False)
    frame = frame.groupby(["rule", "dataset", "stratifier", "classifier"]).agg(
        mem_mb=("mem_mb", "max"), wall_s=("wall_s", "max"))
    return {key: (int(row.mem_mb), float(row.wall_s)) for key, row in frame.iterrows()}


def shape_evaluation(dataset_file, classifier: str, spec: dict, forest: dict, n_splits: int,
                     threads: int) -> tuple[int, float]:
    """(mem_mb, wall seconds) of an evaluation job from the dataset file alone (no calibration): the
    classifier's forests of a k-fold training part, each :func:`shape_forest_seconds`. Every evaluation job
    of a (dataset, classifier) asks the same, so the answer is worked out once per version of the file and
    of this module, and kept in the working folder for the study's next plan (:func:`stratbench.io.memo_file`;
    label-space partitioning's community detection alone takes a third of a second on corel5k)."""
    path = Path(dataset_file)
    stat = path.stat()
    memo = memo_file("evaluation_requests", [str(path.resolve()), stat.st_mtime_ns, stat.st_size, classifier, spec,
                                             forest, n_splits, threads], _model_source())
    try:
        mem, wall = json.loads(memo.read_text(encoding="utf-8"))
    except (OSError, ValueError, TypeError):  # none kept yet (or not a pair)
        mem, wall = _shape_evaluation(path, classifier, spec, forest, n_splits, threads)
        remember(memo, json.dumps([mem, wall]))
    return int(mem), float(wall)


@functools.cache
def _model_source() -> bytes:
    return Path(__file__).read_bytes()


def _shape_evaluation(dataset_file: Path, classifier: str, spec: dict, forest: dict, n_splits: int,
                      threads: int) -> tuple[int, float]:
    ds = load_dataset(dataset_file)
    model = classifiers.build(classifier, spec, forest, random_state=0)
    keep = np.arange(ds.Y.shape[0]) % n_splits != 0
    tasks = [t for t in model.forest_tasks(ds.Y[keep]) if t.trains_forest()] if hasattr(model, "forest_tasks") else []
    trees = int(forest.get("n_estimators", 100))
    seconds = [shape_forest_seconds(t.size, 2 if t.labelsets is None else len(t.labelsets), trees) for t in tasks]
    cpu = n_splits * sum(seconds) or 60.0
    wall = max(cpu / threads, max(seconds, default=0.0)) + 10
    x_mb = matrix_mb(ds.X) if sp.issparse(ds.X) else ds.X.nbytes / 1e6
    big = max(((2 * t.size * (2 if t.labelsets is None else len(t.labelsets)) * 8 + 128 * t.size) / 1e6
               * (1 if is_streamed(t) else trees) for t in tasks), default=0.0)
    mem = BASE_MB + 2 * x_mb + threads * (WORKER_MB + x_mb + big)
    return int(1.25 * mem) + 1, wall


def rule_resources(rule: str, wildcards, input, threads: int, study, estimate: dict) -> tuple[int, int]:
    """(mem_mb, runtime in minutes) that a job of ``rule`` asks for: from the written estimate when
    there is one (wall × 1.5, + 2 min for a job submitted alone; memory × 1.25 + 100 MB), else from
    the dataset file (evaluation: ×3 + 5 min), else :data:`FALLBACK`."""
    kind = cost_model(rule)
    dataset = wildcards.get("dataset", "") or wildcards.get("mulan", "")
    part = wildcards.get("classifier", "") or (f"m{wildcards.get('m')}" if wildcards.get("m") else "")
    key = (kind, dataset, wildcards.get("stratifier", ""), part)  # a cv_error job: its m where the classifier goes
    if key in estimate:
        mem, wall = estimate[key]
        return int(mem * 1.25) + 100, int(math.ceil(wall * 1.5 / 60)) + (0 if kind in GROUPED_KINDS else 2)
    if kind in EVALUATION_RULES:
        data = getattr(input, "data", None)
        if data and Path(data).is_file():
            c = wildcards["classifier"]
            mem, wall = shape_evaluation(data, c, study.classifiers[c], study.forest, study.n_splits, threads)
            repeats = len(study.classifier_repeats) if kind == "evaluate_repeats" else 1
            return mem, int(math.ceil(3 * repeats * wall / 60)) + 5
        return 8000, 24 * 60
    return FALLBACK["mem_mb"], FALLBACK["runtime"]


def rule_requests(rule: str, study, estimate: dict) -> dict:
    """The ``resources:`` of ``rule`` in the workflow: ``mem_mb`` and ``runtime`` callables of a job."""
    cost_model(rule)

    def ask(index):
        return lambda wildcards, input, threads: rule_resources(rule, wildcards, input, threads, study, estimate)[index]

    return dict(mem_mb=ask(0), runtime=ask(1))
