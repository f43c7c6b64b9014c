import inspect
import re
import sys
from datetime import datetime, timezone
from pathlib import Path

import stratbench
from snakemake.logging import logger
from stratbench import cost, papers
from stratbench.jobs import server as jobserver
from stratbench.datasets import registry
from stratbench.cv_error.learners import SELECTION
from stratbench.cv_error.run import learners_of
from stratbench.datasets.local import file_list as local_files
from stratbench.study.plans import plan
from stratbench.records.provenance import record_run
from stratbench.study import Study

RUN = {"started": datetime.now(timezone.utc).isoformat(timespec="seconds")}  # the run's start: set again by onstart


def stop_jobserver():
    """Stop the run's job server, if onstart started one (stratbench.jobs.server); say so if it had failed."""
    if RUN.get("jobserver") and RUN.pop("jobserver").stop():
        logger.warning(
            f"the job server had stopped early: the jobs after it each started a Python of their own "
            f"(logs/{study.name}/jobserver.log says why)"
        )


# the schema (one line naming a bad key, with its file, line and column), then what it cannot check (datasets,
# n_splits, methods and their parameters): every config error stops here, before any job runs
study = Study.checked(config, files=workflow.configfiles or ["config/config.yaml"])
PLAN = plan(study)  # what the study's kind makes (its targets), how its jobs are sized, its rule files

MULAN_USED = sorted({study.mulan_name(d) for d in study.datasets} - {None})
# what a figure's look depends on, a parameter of every figure job: changing it redraws the figures
FIGURE_STYLE = {"figures": config.get("figures") or {}, "stratifiers": list(study.stratifiers)}
GENERATED_USED = [d for d in study.datasets if study.generated_spec(d)]
LOCAL_USED = [d for d in study.datasets if study.local_spec(d)]  # a user's own files


def _alternatives(names):
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or "^$"


wildcard_constraints:
    dataset=_alternatives(study.datasets),
    stratifier=_alternatives(study.stratifiers),
    classifier=_alternatives(study.classifiers),
    repeat=r"\d+",
    mulan=_alternatives(MULAN_USED),
    m=r"\d+",


# Every job asks for memory and time: from `stratbench estimate` when it has been run for this study
# (estimates/<study>/jobs.csv, beside results/), else from the dataset's shape (stratbench.cost.resources).
# A rule without a cost model stops the workflow here, so the estimate cannot forget it.
ESTIMATE = cost.read_estimate(f"{cost.estimate_folder(study.name)}/jobs.csv")


def asks(rule):
    """The ``resources:`` of a job of ``rule``: its ``mem_mb`` and ``runtime`` (minutes)."""
    return cost.rule_requests(rule, study, ESTIMATE)


# the stratifier whose split starts the optimality-gap solver (grid.optimum.hint), if the study has it
OPTIMUM_HINT = study.optimum.get("hint") if study.optimum.get("hint") in study.stratifiers else None
ENV = "../envs/stratbench.yaml"  # used with --sdm conda; by default jobs run in the current environment
PACKAGE = Path(stratbench.__file__).parent


def code(*parts):
    """Package sources a rule depends on, so that a code change re-runs its jobs; a part that is not in the
    package stops the workflow, naming it (a dependency dropped without a word would never re-run a job)."""
    files = []
    for part in parts:
        p = PACKAGE / part
        if not p.exists():
            raise ValueError(f"code({part!r}): no {p}; name the module or folder by its path in the package")
        files += sorted(str(f) for f in p.rglob("*.py")) if p.is_dir() else [str(p)]
    return files


def method_sources(kind, name):
    """Source files of one method: its class's module and the stratbench modules it draws on
    (base classes, helpers). A job depends on these only, so adding a method re-runs nothing else."""
    cls = study.method_class(kind, name)
    modules = {cls.__module__} | {c.__module__ for c in cls.__mro__}
    for obj in vars(sys.modules[cls.__module__]).values():
        modules.add(obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", None) or "")
    files = set()
    for m in modules:
        if m == cls.__module__ or m.startswith("stratbench."):
            path = getattr(sys.modules.get(m), "__file__", None)
            if path and Path(path).exists():
                files.add(str(Path(path).resolve()))
    return sorted(files)


def paper_table_inputs(wildcards):
    """The tables the paper tables are made from (the score tables only in a study with classifiers)."""
    tables = f"{study.results}/tables"
    inputs = dict(
        statistics=f"{tables}/dataset_statistics.csv",
        fold_quality=f"{tables}/fold_quality_summary.csv",
        runtime=f"{tables}/stratifier_runtime.csv",
        fold_quality_ranks=f"{tables}/fold_quality_ranks.csv",
        fold_quality_tests=f"{tables}/fold_quality_friedman_nemenyi.csv",
        code=code("tables", "papers", "measures/names.py"),
    )
    if study.classifiers:
        inputs.update(
            summary=f"{tables}/summary.csv",
            ranks=f"{tables}/average_ranks.csv",
            score_tests=f"{tables}/friedman_nemenyi.csv",
        )
    return inputs


def reproduction_inputs(wildcards):
    """Our tables that the reproduction report compares with the published ones."""
    tables = f"{study.results}/tables"
    inputs = dict(
        statistics=f"{tables}/dataset_statistics.csv",
        fold_quality=f"{tables}/fold_quality_summary.csv",
        code=code("papers/reproduction.py", "papers"),
    )
    available = dict(runtime=f"{tables}/stratifier_runtime.csv")
    if study.network_stability:
        available.update(network=f"{tables}/network_stability_summary.csv")
    if study.classifiers:
        available.update(
            summary=f"{tables}/summary.csv",
            ranks=f"{tables}/average_ranks.csv",
            scores=f"{tables}/scores.csv",
        )
    needs = papers.get(study.reproduces).needs  # what the paper's comparison reads beyond the two above
    return inputs | {k: path for k, path in available.items() if k in needs}


def cv_files(kind):
    """The files ``kind`` of every (dataset, m) a "does it matter" study runs (workflow/rules/cv_error.smk)."""
    return [f"{study.results}/cv_error/{dataset}/m{m}/{kind}" for dataset, m in PLAN.cells(study)]


CV_PARTS = ("estimates", "stats", "choices", "splits", "theory")  # a cv_estimates job's (stratbench.cv_error.run)
CV_INPUTS = ("truth", *CV_PARTS)  # what the tables are made from (stratbench.cv_error.summary.INPUTS)


def cv_learners(dataset, m):
    """The learners of a (dataset, m) cell (``forest`` where ``cv_error.forest`` lets it run)."""
    return learners_of(study.cv_error, dataset, m)


def cv_truth_learners(dataset, m):
    """The cell's learners and the model-selection task's candidates, whose truths its tables need."""
    return list(dict.fromkeys([*cv_learners(dataset, m), *SELECTION]))


def subject_figures(kind, subjects, caption, category, label, under_classifier=False):
    """The figure ``kind`` of each subject (a classifier, or fold_quality) as a png, in the report (filed under
    the classifier's subcategory with ``under_classifier``), and a pdf, in the order the figure job draws
    them: each subject's png, then its pdf."""
    outputs = []
    for s in subjects:
        where = (
            dict(subcategory=s, labels={"figure": label, "classifier": s})
            if under_classifier
            else dict(labels={"figure": label, "of": s})
        )
        png = report(f"{study.results}/figures/{kind}_{s}.png", caption=caption, category=category, **where)
        outputs += [png, f"{study.results}/figures/{kind}_{s}.pdf"]
    return outputs
