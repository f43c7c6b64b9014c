import inspect
import re
import sys
from pathlib import Path

from snakemake.utils import validate

from stratbench import StratbenchError, classifiers, stratifiers
from stratbench._snakemake import use_import_paths
from stratbench.datasets import registry
from stratbench.seeds import split_seed
from stratbench.stats import with_all_group


validate(config, "../schemas/config.schema.yaml")

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

use_import_paths(config.get("import_paths"))  # folders holding a user's own methods (dotted paths)


GENERATED = ("synthetic", "random_labels")  # dataset kinds made locally


def mulan_name(dataset):
    """Registry name of a MULAN dataset of the config, None for a generated one."""
    spec = DATASETS[dataset]
    return None if any(kind in spec for kind in GENERATED) else spec.get("mulan", dataset)


def _check_config():
    """Names that the schema cannot check: datasets in the registry, methods that resolve."""
    for d in DATASETS:
        m = mulan_name(d)
        if m is not None and m not in registry.names():
            raise StratbenchError(
                f"config: dataset {d!r} is not a MULAN dataset of the registry "
                f"({', '.join(registry.names())}) and has no 'synthetic' entry"
            )
        if m is None and d in registry.names():
            raise StratbenchError(f"config: synthetic dataset {d!r} shadows the MULAN dataset of that name")
    for kind, methods, reg in (("stratifier", STRATIFIERS, stratifiers), ("classifier", CLASSIFIERS, classifiers)):
        for name, spec in methods.items():
            try:
                reg.resolve(spec.get("class", name))
            except StratbenchError as exc:
                raise StratbenchError(f"config: {kind} {name!r}: {exc}") from None
    for group, members in config.get("dataset_groups", {}).items():
        unknown = sorted(set(members) - set(DATASETS))
        if unknown:
            raise StratbenchError(f"config: dataset_groups.{group} names unknown datasets {unknown}")


_check_config()

MULAN_USED = sorted({mulan_name(d) for d in DATASETS} - {None})


def _alternatives(names):
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or "^$"


wildcard_constraints:
    dataset=_alternatives(DATASETS),
    stratifier=_alternatives(STRATIFIERS),
    classifier=_alternatives(CLASSIFIERS),
    repeat=r"\d+",
    mulan=_alternatives(MULAN_USED),
    subject=_alternatives([*CLASSIFIERS, "fold_quality"]),


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


def dataset_labels(dataset):
    """Number of labels of a dataset of the config (from its definition or the registry)."""
    spec = DATASETS[dataset]
    for kind in GENERATED:
        if kind in spec:
            return spec[kind]["labels"]
    return registry.entry(mulan_name(dataset)).labels


def classifier_datasets(classifier):
    """The datasets a classifier runs on (``max_labels`` restricts it, e.g. CLR to < 50 labels)."""
    limit = CLASSIFIERS[classifier].get("max_labels")
    return [d for d in DATASETS if limit is None or dataset_labels(d) <= limit]


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
    if CLASSIFIERS:
        inputs.update(summary=f"{tables}/summary.csv", ranks=f"{tables}/average_ranks.csv")
    return inputs


def all_outputs():
    tables = f"{RESULTS}/tables"
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
