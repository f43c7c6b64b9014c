"""The cost estimate: the scheduling simulation by hand, the study's jobs as Snakemake plans them, a
calibrated estimate of a tiny study, and the resources the rules ask for."""
import re
from pathlib import Path

import pytest
from conftest import planned_jobs, run_snakemake, tiny_config

from stratbench import cost
from stratbench.cost import Job, simulate


def test_simulation_by_hand():
    # three 10-s one-thread jobs on 2 cores: two run, then the third → 20 s
    assert simulate([Job("evaluate", wall_s=10)] * 3, 2) == 20
    # a 2-thread job takes both cores: the 1-thread jobs wait or go first (longest first): 10 + 10
    assert simulate([Job("evaluate", threads=2, wall_s=10), Job("evaluate", wall_s=10)], 2) == 20
    # a job asking more threads than cores runs on all of them
    assert simulate([Job("evaluate", threads=8, wall_s=5)], 2) == 5
    # dependencies: dataset (3 s) → folds of every repeat (2 s) → evaluate (4 s) and network (1 s); aggregate after all
    jobs = [Job("dataset", "d", wall_s=3), Job("make_folds", "d", "s", wall_s=2),
            Job("evaluate", "d", "s", "br", 0, wall_s=4), Job("evaluate", "d", "s", "br", 1, wall_s=4),
            Job("network_stability", "d", "s", wall_s=1), Job("aggregate", wall_s=1)]
    assert simulate(jobs, 4) == 3 + 2 + 4 + 1
    # an evaluation of every repeat waits for the fold jobs of every repeat (split one repeat a job: 2 s, 5 s)
    jobs = [Job("dataset", "d", wall_s=3), Job("make_folds_per_repeat", "d", "s", repeat=0, wall_s=2),
            Job("make_folds_per_repeat", "d", "s", repeat=1, wall_s=5), Job("evaluate_repeats", "d", "s", "br", wall_s=4),
            Job("evaluate", "d", "s", "lp", 0, wall_s=1)]
    assert simulate(jobs, 4) == 3 + 5 + 4


def test_calibrated_estimate_of_the_tiny_study_has_every_planned_job(tmp_path, mirror):
    # the classifiers on one of the two stratifiers, the network part on toy only (5 labels; emotions has 6)
    config = tiny_config(mirror, classifier_stratifiers=["iterative"], network_stability={"max_labels": 5})
    jobs, table, calibration = cost.estimate(config, cores=2, workdir=tmp_path, samples=4, log=lambda m: None)
    planned = planned_jobs(run_snakemake(tmp_path, config, "-n", "--cores", "1"))
    # a fold job per (dataset, stratifier) and an evaluation job per (dataset, stratifier, classifier): both repeats
    rules = ("make_folds", "evaluate_repeats", "network_stability")
    counted = {rule: sum(j.rule == rule for j in jobs) for rule in rules}
    assert counted == {rule: planned[rule] for rule in counted} == dict(zip(rules, (4, 2, 2)))
    evaluate = [j for j in jobs if j.rule == "evaluate_repeats"]
    assert all(j.forests > 0 and j.cpu_s > 0 and j.mem_mb > cost.BASE_MB for j in evaluate)
    emotions = [j for j in evaluate if j.dataset == "emotions"]
    assert all(j.forests == 2 * 3 * 6 for j in emotions)  # 2 repeats × 3 folds × one forest per label
    total = table.iloc[-1]
    assert total["dataset"] == "total" and total["jobs"] == len(jobs) == table["jobs"].iloc[:-1].sum()
    assert total["jobs"] == sum(n for rule, n in planned.items() if rule != "all")  # every planned job, costed once
    assert calibration["wall_s"] > 0 and set(calibration["startups_s"]) == {"split", "job", "network", "aggregate"}
    assert total["cpu_hours"] == pytest.approx(sum(j.cpu_s for j in jobs) / 3600)
    assert min(calibration["startups_s"].values()) > 0.05 and set(calibration["datasets"]) == {"toy", "emotions"}


def test_a_figure_job_costs_a_start_up_and_a_second_more_per_further_figure(mirror):
    """A job that draws the figure of every classifier costs start-up + AGGREGATION_S + FIGURE_S per further
    figure; CLR, on toy alone, has std figures but no rank figures; fold quality's rank job draws two."""
    from stratbench.cost.jobs import AGGREGATION_S, FIGURE_S, figures_per_job, study_jobs
    from stratbench.study import Study

    config = tiny_config(mirror)
    config["classifiers"]["clr"] = {"max_labels": 5}  # toy has 5 labels, emotions 6
    study = Study(config)
    assert figures_per_job(study) == {"plot_std_by_stratifier": 2, "plot_fold_distribution": 2, "plot_rank_bars": 1,
                                      "plot_cd_diagrams": 1, "plot_fold_quality_ranks": 2}
    jobs = study_jobs(study, {}, {"job": 1.0, "aggregate": 0.5}, {"plot_std_by_stratifier": 1, "plot_rank_bars": 1,
                                                                  "gather_scores": 1})
    assert [j.cpu_s for j in jobs] == [0.5 + AGGREGATION_S + FIGURE_S, 0.5 + AGGREGATION_S, 0.5 + AGGREGATION_S]


def test_the_summary_omits_what_does_not_apply():
    """A study without classifiers has no forests column; the total is a row of numbers (the wall time is
    said beside the table, not in a cell)."""
    table = cost.summary([Job("dataset", "d", cpu_s=3, wall_s=3), Job("make_folds", "d", "s", cpu_s=7, wall_s=7),
                          Job("aggregate", cpu_s=2, wall_s=2)])
    assert list(table.columns) == ["dataset", "part", "jobs", "cpu_hours", "longest_job_min", "max_mem_mb"]
    assert table.iloc[-1].to_dict()["jobs"] == 3 == table["jobs"].iloc[:-1].sum()
    assert table.iloc[-1]["part"] == "" and table.iloc[-1]["cpu_hours"] == pytest.approx(12 / 3600)


def test_rules_ask_for_the_estimate_or_the_shape_of_the_data(tmp_path):
    estimate = {("evaluate", "emotions", "iterative", "br"): (800, 120.0)}
    mem, minutes = cost.rule_resources("evaluate", {"dataset": "emotions", "stratifier": "iterative",
                                                   "classifier": "br"}, None, 2, {}, estimate)
    assert (mem, minutes) == (int(800 * 1.25) + 100, 3 + 2)  # 120 s × 1.5 = 3 min, + 2 min
    assert cost.rule_resources("gather_scores", {}, None, 1, {}, {}) == (2000, 5)
    # a grouped job (a fold job: 2 s) asks for whole minutes without safety minutes of its own
    grouped = cost.rule_resources("make_folds", {"dataset": "emotions", "stratifier": "random"}, None, 1, {},
                                  {("make_folds", "emotions", "random", ""): (300, 2.0)})
    assert grouped == (int(300 * 1.25) + 100, 1)
    # an evaluation job without an estimate: a generous shape model (×3 + 5 min)
    forest = cost.shape_forest_seconds(rows=900, classes=2, trees=100)
    assert 0.5 < forest < 2.0 and cost.shape_forest_seconds(900, 400, 100) > 1.5 * forest


def test_every_rule_of_the_workflow_has_a_cost_model_and_the_slurm_groups_hold_the_small_jobs():
    """One rule → cost-model table (stratbench.cost.requests.RULES): the workflow's rules and the
    estimate both read it, so a new rule without a model stops the workflow at parse time."""
    import re
    from pathlib import Path

    import yaml

    from stratbench import StratbenchError
    from stratbench.cost.requests import GROUPED_KINDS

    workflow = Path(__file__).resolve().parents[1] / "workflow"
    rules = {m for f in workflow.rglob("*.smk") for m in re.findall(r"^\s*rule (\w+):", f.read_text(), re.M)}  # some under an if
    rules |= set(re.findall(r"^rule (\w+):", (workflow / "Snakefile").read_text(), re.M))
    # the per-classifier plot rules, made from the table CLASSIFIER_FIGURES (rule, recipe, …)
    rules |= set(re.findall(r'^\s*\(?"(plot_\w+)",', (workflow / "rules" / "figures.smk").read_text(), re.M))
    assert rules == set(cost.RULES)
    with pytest.raises(StratbenchError, match="rule 'new_rule' has no cost model: add it to stratbench.cost"):
        cost.rule_requests("new_rule", None, {})
    profile = yaml.safe_load((workflow / "profiles" / "slurm" / "config.yaml").read_text())
    grouped = {entry.split("=")[0] for entry in profile["groups"]}
    assert grouped == {r for r, kind in cost.RULES.items() if kind in GROUPED_KINDS | {"aggregate"}}


def test_snakemakes_own_work_per_job_is_measured_not_assumed(monkeypatch):
    """A workflow of jobs that do nothing, less its dry run: Snakemake's own work per job is a measured
    fraction of a second (a whole job here is about 0.15 s); a job's start-up is its imports plus that."""
    from stratbench.cost import calibration

    assert 0.0 <= calibration.snakemake_job_seconds(jobs=4) < 1.0
    monkeypatch.setattr(calibration, "snakemake_job_seconds", lambda jobs: 0.25)
    monkeypatch.setattr(calibration, "import_seconds", lambda code: 1.5 if "sklearn" in code else 0.5)
    assert calibration.job_startup_seconds(server=False) == {"split": 0.75, "job": 1.75, "network": 0.75,
                                                             "aggregate": 0.75}


def test_with_the_job_server_a_jobs_start_up_is_timed_through_it(monkeypatch):
    """A local run's jobs are forked by its job server (stratbench.jobs.server): the start-up is then timed as
    a fresh Python that hands a job importing what the kind imports to a server started for the purpose, whose
    children run them (best of two: two of each kind)."""
    from stratbench.cost import calibration
    from stratbench.jobs import server as jobserver

    monkeypatch.setattr(calibration, "snakemake_job_seconds", lambda jobs: 0.25)
    served = []
    start, stop = jobserver.start, jobserver.Server.stop

    def started(log, *args):
        running = start(log, *args)
        running.log = Path(log)
        return running

    def stopped(running):
        served.append(running.log.read_text())
        return stop(running)

    monkeypatch.setattr(jobserver, "start", started)
    monkeypatch.setattr(jobserver.Server, "stop", stopped)
    startups = calibration.job_startup_seconds()
    assert set(startups) == set(calibration.STARTUP_IMPORTS) and all(s > 0.25 for s in startups.values())
    children = re.findall(r"^child \d+ \((\w+)\.py\) ended with status 0", served[0], flags=re.M)
    assert sorted(children) == sorted(2 * list(calibration.STARTUP_IMPORTS)), served


def test_an_evaluation_jobs_request_is_worked_out_once_per_dataset_version(tmp_path, monkeypatch):
    """The shape model's answer is kept in Snakemake's working folder: the next plan reads it instead of
    building the classifier's forest tasks again, and a dataset written again is worked out again."""
    import os

    import numpy as np
    import scipy.sparse as sp

    from stratbench.cost import requests
    from stratbench.datasets import MultilabelDataset, save_dataset

    monkeypatch.chdir(tmp_path)
    rng = np.random.default_rng(0)
    data = tmp_path / "toy.npz"
    Y = sp.csr_matrix((rng.random((60, 3)) < 0.4).astype(np.int8))
    save_dataset(MultilabelDataset("toy", rng.random((60, 4)).astype(np.float32), Y, ["a", "b", "c"], list("wxyz")), data)
    first = cost.shape_evaluation(data, "br", {}, {"n_estimators": 10}, 3, 1)
    kept = list((tmp_path / ".snakemake" / "stratbench" / "evaluation_requests").iterdir())
    assert len(kept) == 1 and first[0] > requests.BASE_MB and first[1] > 10

    def fail(*args):
        raise AssertionError("worked out again")

    monkeypatch.setattr(requests, "_shape_evaluation", fail)  # the next plan reads the kept answer
    assert cost.shape_evaluation(data, "br", {}, {"n_estimators": 10}, 3, 1) == first
    stat = data.stat()
    os.utime(data, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # the dataset made again
    with pytest.raises(AssertionError, match="worked out again"):
        cost.shape_evaluation(data, "br", {}, {"n_estimators": 10}, 3, 1)
