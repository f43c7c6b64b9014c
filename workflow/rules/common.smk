import inspect
import re
import sys
from pathlib import Path

from stratbench import classifiers, cost, stratifiers, study
from stratbench._snakemake import use_import_paths
from stratbench.datasets import registry
from stratbench.datasets.local import file_list as local_files
from stratbench.seeds import split_seed
from stratbench.stats import with_all_group


# the schema (one line naming a bad key), then what it cannot check (datasets, n_splits, methods and
# their parameters): every config error stops here, before any job runs
study.validate_config(config, Path(workflow.basedir) / "workflow" / "schemas" / "config.schema.yaml")

STUDY = config["study"]
RESULTS = f"results/{STUDY}"
SEED = config["seed"]
N_SPLITS = config["n_splits"]
REPEATS = list(range(config["repeats"]))
THREADS = config.get("threads", 1)
DATASETS = config["datasets"]
STRATIFIERS = config["stratifiers"]
CLASSIFIERS = config.get("classifiers") or {}
FOREST = config.get("forest", {})
DATA = config.get("data", {})
GROUPS = with_all_group(DATASETS, config.get("dataset_groups"))  # for ranks and tests; "all" always
ALPHA = config.get("alpha", 0.05)
REPRODUCES = config.get("reproduces")
GRID_KS = (config.get("grid") or {}).get("n_splits", [])  # a fold-quality grid over these k (grid.smk)

use_import_paths(config.get("import_paths"))  # folders holding a user's own methods (dotted paths)


GENERATED = study.GENERATED


def mulan_name(dataset):
    """Registry name of a MULAN dataset of the config, None for a generated one."""
    return study.mulan_name(config, dataset)


study.check_config(config)

MULAN_USED = sorted({mulan_name(d) for d in DATASETS} - {None})
GENERATED_USED = [d for d in DATASETS if study.generated_spec(config, d)]
LOCAL_USED = [d for d in DATASETS if study.local_spec(config, d)]  # a user's own files


def _alternatives(names):
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or "^$"


wildcard_constraints:
    dataset=_alternatives(DATASETS),
    stratifier=_alternatives(STRATIFIERS),
    classifier=_alternatives(CLASSIFIERS),
    repeat=r"\d+",
    mulan=_alternatives(MULAN_USED),
    subject=_alternatives([*CLASSIFIERS, "fold_quality"]),


# Every job asks for memory and time: from `python -m stratbench estimate` when it has been run for
# this study (results/<study>/estimate/jobs.csv), else from the dataset's shape (stratbench.cost).
ESTIMATE = cost.read_estimate(f"{RESULTS}/estimate/jobs.csv")


def asked(rule, what):
    """A ``resources:`` callable: the ``mem_mb`` or ``runtime`` (minutes) a job of ``rule`` asks for."""
    index = {"mem_mb": 0, "runtime": 1}[what]
    return lambda wildcards, input, threads: cost.rule_resources(rule, wildcards, input, threads, config,
                                                                 ESTIMATE)[index]


ENV = "../envs/stratbench.yaml"  # used with --sdm conda; by default jobs run in the current environment
PACKAGE = Path(workflow.basedir) / "src" / "stratbench"


def code(*parts):
    """Package sources a rule depends on, so that a code change re-runs its jobs."""
    files = []
    for part in parts:
        p = PACKAGE / part
        files += sorted(str(f) for f in p.rglob("*.py")) if p.is_dir() else [str(p)]
    return [f for f in files if Path(f).exists()]


def method_sources(reg, name, spec):
    """Source files of one method: its class's module and the stratbench modules it draws on
    (base classes, helpers). A job depends on these only, so adding a method re-runs nothing else."""
    cls = reg.resolve(spec.get("class", name))
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


def classifier_datasets(classifier):
    """The datasets a classifier runs on (``max_labels`` restricts it, e.g. CLR to < 50 labels)."""
    return study.classifier_datasets(config, classifier)


def score_files():
    return [f"{RESULTS}/scores/{d}/{s}/{c}/rep{r}.csv"
            for c in CLASSIFIERS for d in classifier_datasets(c) for s in STRATIFIERS for r in REPEATS]


def dataset_file(dataset):
    m = mulan_name(dataset)
    return f"resources/mulan/{m}.npz" if m else f"{RESULTS}/datasets/{dataset}.npz"


EVALUATED = [c for c in CLASSIFIERS if classifier_datasets(c)]  # classifiers that run on some dataset
PAPER_TABLES = ["sechidis2011_table1", "sechidis2011_table2", "szymanski2017_table1", "tiittanen2021_table2",
                "fold_quality_ranks"]
if CLASSIFIERS:
    PAPER_TABLES += [f"cv_estimates_{c}" for c in EVALUATED] + ["friedman_nemenyi"]


def paper_table_files():
    return expand(f"{RESULTS}/tables/paper/{{name}}.{{ext}}", name=PAPER_TABLES, ext=["csv", "md", "tex"])


def figures(*stems):
    return expand(f"{RESULTS}/figures/{{stem}}.{{ext}}", stem=stems, ext=["png", "pdf"])


def paper_table_inputs(wildcards):
    """The tables the paper tables are made from (the score tables only in a study with classifiers)."""
    tables = f"{RESULTS}/tables"
    inputs = dict(
        statistics=f"{tables}/dataset_statistics.csv",
        fold_quality=f"{tables}/fold_quality_summary.csv",
        runtime=f"{tables}/stratifier_runtime.csv",
        fold_quality_ranks=f"{tables}/fold_quality_ranks.csv",
        fold_quality_tests=f"{tables}/fold_quality_friedman_nemenyi.csv",
        code=code("paper_tables.py"),
    )
    if CLASSIFIERS:
        inputs.update(summary=f"{tables}/summary.csv", ranks=f"{tables}/average_ranks.csv",
                      score_tests=f"{tables}/friedman_nemenyi.csv")
    return inputs


def rank_inputs(wildcards):
    """Ranks and tests of a classifier's std (or of the fold-quality measures)."""
    tables = f"{RESULTS}/tables"
    if wildcards.subject == "fold_quality":
        return dict(ranks=f"{tables}/fold_quality_ranks.csv", tests=f"{tables}/fold_quality_friedman_nemenyi.csv")
    return dict(ranks=f"{tables}/average_ranks.csv", tests=f"{tables}/friedman_nemenyi.csv")


def reproduction_inputs(wildcards):
    """Our tables that the reproduction report compares with the published ones."""
    tables = f"{RESULTS}/tables"
    inputs = dict(statistics=f"{tables}/dataset_statistics.csv", fold_quality=f"{tables}/fold_quality_summary.csv",
                  code=code("reproduction.py"))
    if REPRODUCES == "tiittanen2021":
        inputs["runtime"] = f"{tables}/stratifier_runtime.csv"
    if CLASSIFIERS and REPRODUCES == "sechidis2011":  # the only paper with classifier tables
        inputs.update(summary=f"{tables}/summary.csv", ranks=f"{tables}/average_ranks.csv")
    return inputs


def all_outputs():
    tables = f"{RESULTS}/tables"
    if GRID_KS:  # a fold-quality grid study: its tables, CD diagrams and recommendation only
        return [f"{tables}/dataset_statistics.csv", f"{tables}/grid_ranks.md", f"{RESULTS}/report/recommendation.md",
                *expand(f"{RESULTS}/figures/grid_critical_difference_k{{k}}.{{ext}}", k=GRID_KS, ext=["png", "pdf"])]
    outputs = [
        f"{tables}/dataset_statistics.csv",
        f"{tables}/fold_quality.csv",
        f"{tables}/fold_quality_summary.md",
        f"{tables}/stratifier_runtime.csv",
        f"{tables}/fold_quality_papers.md",
        f"{tables}/fold_quality_ranks.csv",
        f"{tables}/paper_tables.md",
        f"{tables}/paper/tables.tex",
        *paper_table_files(),
        *figures("rank_bars_fold_quality", "critical_difference_fold_quality", "stratifier_runtime",
                 *(f"label_shares_{d}" for d in DATASETS)),
    ]
    if config.get("network_stability", False):
        outputs.append(f"{tables}/network_stability_summary.md")
    if REPRODUCES:
        outputs.append(f"{RESULTS}/report/reproduction.md")
    if not CLASSIFIERS:  # a fold-quality-only study
        return outputs
    return outputs + [
        f"{tables}/scores.csv",
        f"{tables}/summary.csv",
        f"{tables}/summary.md",
        f"{tables}/average_ranks.csv",
        f"{tables}/friedman_nemenyi.csv",
        *figures(*(f"{kind}_{c}" for c in EVALUATED
                   for kind in ("std_by_stratifier", "fold_distribution", "rank_bars", "critical_difference"))),
    ]
