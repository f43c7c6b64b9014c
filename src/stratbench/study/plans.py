"""Each kind of study as one class: its ``kind`` of the config (``benchmark``, ``grid``, ``cv_error``) is a
:class:`Plan` subclass.

A kind owns its config keys (:meth:`Plan.schema`: the keys every kind reads, the config schema's keys it reads
(``reads``, of which it needs ``needs``) and keys of its own (``keys``, JSON schemas); a key of another kind is
refused, naming whose it is), their checks that a schema cannot make (:meth:`Plan.check`), the k every dataset is
held to (:meth:`Plan.largest_k`), the workflow's default target (:meth:`Plan.targets`: every file the study makes,
so a file deleted from a finished study is made again by a plain run), the rule files it runs (beyond the shared
``common`` and ``datasets``), and where it has them the sizes of its jobs and what its figures are of: read by the
config check, the workflow (``workflow/rules/common.smk``) and ``stratbench estimate`` alike. :func:`plan` gives a
study's plan, :func:`kind_class` the class of a kind's name.

A new kind of study is a :class:`Plan` subclass and its rule file: here and under ``workflow/rules``, or in a
user's own module named by dotted path (``kind: mykinds.toy.ToyPlan``, with ``import_paths``), its rule files by
path.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING

from stratbench import StratbenchError, papers
from stratbench._registry import import_object
from stratbench.classifiers.forests import shape_forest_seconds
from stratbench.jobs.script import use_import_paths
from stratbench.papers import tables as paper_tables
from stratbench.study.figures import file_stem

if TYPE_CHECKING:
    from stratbench.study import Study

# a label matrix of this many cells or more is split one repeat a job (its splits take minutes, and the repeats
# then run side by side); every smaller one all repeats in one job (its splits take milliseconds to seconds)
SPLIT_PER_REPEAT_CELLS = 10**8
# a dataset whose evaluation by some classifier would take this many seconds a repeat or more (by the shape
# estimate, generous) is evaluated one repeat a job; a smaller one every repeat of a (dataset, stratifier,
# classifier) in one job, so that its forests, not the job's start-up (about 2 s: scikit-learn), fill the job
EVALUATE_PER_REPEAT_S = 30.0


class Plan:
    """A kind of study: its config keys and their checks, its k, what it makes (``targets``) and the rule files it
    runs (``rule_files``: names under ``workflow/rules``, or paths of ``.smk`` files)."""

    kind = ""
    rule_files: tuple[str, ...] = ()
    shared = ("kind", "study", "seed", "repeats", "threads", "data", "datasets", "stratifiers", "figures",
              "import_paths")
    """The config keys every kind reads."""
    reads: tuple[str, ...] = ()
    """The config schema's keys of some kinds that this kind reads."""
    needs: tuple[str, ...] = ()
    """Of ``reads`` and ``keys``, those a config of this kind must give."""
    keys: dict = {}
    """Keys of this kind's own (not in the config schema): each key's JSON schema."""
    hints: dict = {}
    """Why this kind refuses a key another kind reads, where more than whose it is (e.g. its own k)."""
    reads_strata = False
    """Whether its jobs read the columns a dataset declares to stratify on beside its labels (``strata:``)."""
    splits_groups = False
    """Whether it splits grouped datasets (keeping each group in one fold)."""

    def __init__(self, study: Study):
        self.study = study
        self.results = study.results

    @classmethod
    def schema(cls, every: dict) -> dict:
        """The JSON schema of a config of this kind, from ``every`` (the config schema, every kind's keys): the
        shared keys, those of ``reads`` and ``keys``; ``additionalProperties`` false; required: the schema's and
        ``needs``."""
        known = every["properties"]
        schema = {k: v for k, v in every.items() if k not in ("properties", "required", "additionalProperties")}
        schema["required"] = [*every.get("required", []), *cls.needs]  # first: a missing key is named before a stray
        schema["properties"] = {key: copy.deepcopy(spec) for key, spec in known.items()
                                if key in cls.shared or key in cls.reads} | copy.deepcopy(cls.keys)
        schema["additionalProperties"] = False
        return schema

    @classmethod
    def refused(cls, key: str) -> str | None:
        """Why a config of this kind may not set ``key``: whose it is (the first built-in kind that reads it) and
        this kind's hint; None where this kind reads it or no built-in kind does."""
        if key in cls.shared or key in cls.reads or key in cls.keys:
            return None
        other = next((k for k in PLANS.values() if key in k.reads or key in k.keys), None)
        if other is None:
            return None
        return cls.hints.get(key) or f"a {other.kind} study's (kind: {other.kind})"

    @classmethod
    def check(cls, study: Study) -> None:
        """The checks of this kind's keys that the schema cannot make (it has checked their types)."""

    @classmethod
    def notes(cls, study: Study) -> list[str]:
        """What a valid config of this kind leaves out or decides that its user should read before it runs
        (``stratbench check`` prints them)."""
        return []

    @classmethod
    def largest_k(cls, config: dict) -> int | None:
        """The k every dataset of a config of this kind is held to (its largest); None: it splits into no folds."""
        return config.get("n_splits")

    def targets(self) -> list[str]:
        """Every file a study of this kind makes (the workflow's default target), as its jobs name them."""
        raise NotImplementedError(f"{type(self).__name__}.targets")

    def figure_files(self, *stems: str) -> list[str]:
        """Each figure's PNG and PDF under ``results/<study>/figures``."""
        return [f"{self.results}/figures/{stem}.{ext}" for stem in stems for ext in ("png", "pdf")]


class BenchmarkPlan(Plan):
    """Folds of every (dataset, stratifier, repeat), their quality, the classifiers' scores on them, the tables
    and figures of both, and the report of the paper the study reproduces."""

    kind = "benchmark"
    rule_files = ("benchmark", "folds", "fold_quality", "evaluate", "network", "aggregate", "figures", "report")
    reads = ("n_splits", "classifiers", "classifier_repeats", "classifier_stratifiers", "forest", "network_stability",
             "reproduces", "split_seeds", "dataset_groups", "alpha")
    needs = ("n_splits",)
    reads_strata = True

    @classmethod
    def check(cls, study: Study) -> None:
        """The paper it reproduces, the repeats and stratifiers its classifiers are evaluated on."""
        if study.reproduces is not None:
            try:
                papers.get(study.reproduces)  # a registered paper, or one by dotted path (imported and registered)
            except StratbenchError as exc:
                raise StratbenchError(f"config: reproduces: {study.reproduces!r} is not a paper of stratbench.papers "
                                      f"({', '.join(papers.names())}): {exc}") from None
        if study.config.get("classifier_repeats", 0) > len(study.repeats):
            raise StratbenchError(f"config: classifier_repeats={study.config['classifier_repeats']} is more than the "
                                  f"{len(study.repeats)} repeats")
        unknown = sorted(set(study.classifier_stratifiers) - set(study.stratifiers))
        if unknown:
            raise StratbenchError(f"config: classifier_stratifiers names stratifiers not in `stratifiers`: {unknown}")

    # --- job sizes ---------------------------------------------------------------------------------

    def split_per_repeat(self, dataset: str) -> bool:
        """Whether the dataset's splits run one repeat a job (a label matrix of at least
        :data:`SPLIT_PER_REPEAT_CELLS` cells) rather than every repeat in one job."""
        examples, labels = self.study.shape(dataset)
        return examples * labels >= SPLIT_PER_REPEAT_CELLS

    def evaluation_seconds(self, dataset: str, classifier: str) -> float:
        """A repeat's forests of ``classifier`` on ``dataset`` from its shape alone: k folds × the classifier's
        forests a fold (:meth:`~stratbench.classifiers.base.MultilabelClassifier.fold_forests`) × a
        binary forest on the training rows (:func:`~stratbench.classifiers.forests.shape_forest_seconds`)."""
        study = self.study
        examples, labels = study.shape(dataset)
        model = study.classifier(classifier)
        trees = int(getattr(model, "n_estimators", 100))
        rows = examples * (study.n_splits - 1) // study.n_splits
        forests = model.fold_forests(examples, labels) if hasattr(model, "fold_forests") else labels  # a duck-typed class
        return study.n_splits * forests * shape_forest_seconds(rows, 2, trees)

    def evaluate_per_repeat(self, dataset: str) -> bool:
        """Whether the dataset is evaluated one repeat a job (some classifier's repeat takes at least
        :data:`EVALUATE_PER_REPEAT_S` by :meth:`evaluation_seconds`) rather than every repeat of a (dataset,
        stratifier, classifier) in one job. Decided per dataset, so that a score file has one rule."""
        return any(self.evaluation_seconds(dataset, c) >= EVALUATE_PER_REPEAT_S
                   for c in self.study.classifiers if dataset in self.classifier_datasets(c))

    # --- what its parts and figures are of -----------------------------------------------------------

    def classifier_datasets(self, classifier: str) -> list[str]:
        """The datasets a classifier runs on (``max_labels`` restricts it, e.g. CLR to < 50 labels)."""
        limit = self.study.classifiers[classifier].get("max_labels")
        return [d for d in self.study.datasets if limit is None or self.study.shape(d)[1] <= limit]

    def evaluated_classifiers(self) -> list[str]:
        """The classifiers that run on some dataset of the study (``max_labels`` may leave one none)."""
        return [c for c in self.study.classifiers if self.classifier_datasets(c)]

    def rank_counts(self) -> dict[str, int]:
        """fold_quality and each evaluated classifier, with the number of datasets its ranks are over."""
        return {"fold_quality": len(self.study.datasets),
                **{c: len(self.classifier_datasets(c)) for c in self.evaluated_classifiers()}}

    def ranked_subjects(self) -> list[str]:
        """The subjects of the rank bars and CD diagrams: fold_quality and the classifiers ranked over two
        datasets or more (over one, every rank is a single draw and no test can separate two methods)."""
        return [s for s, n in self.rank_counts().items() if n >= 2]

    def ranked_classifiers(self) -> list[str]:
        """The classifiers among :meth:`ranked_subjects`: each has its rank bars and CD diagram."""
        return [s for s in self.ranked_subjects() if s != "fold_quality"]

    def network_datasets(self) -> list[str]:
        """The datasets of the network-stability part (``network_stability: {max_labels: …}`` restricts it)."""
        study = self.study
        if not study.network_stability:
            return []
        return [d for d in study.datasets if study.network_max_labels is None
                or study.shape(d)[1] <= study.network_max_labels]

    # --- its files ------------------------------------------------------------------------------------

    def job_outputs(self, *kinds: str) -> list[str]:
        """Every (dataset, stratifier, repeat) job's file of each kind (config/README.md lists them)."""
        suffix = {"folds": "npz"}
        study = self.study
        return [f"{self.results}/{kind}/{d}/{s}/rep{r}.{suffix.get(kind, 'csv')}" for kind in kinds
                for d in (self.network_datasets() if kind == "network" else study.datasets)
                for s in study.stratifiers for r in study.repeats]

    def score_files(self) -> list[str]:
        study = self.study
        return [f"{self.results}/scores/{d}/{s}/{c}/rep{r}.csv" for c in study.classifiers
                for d in self.classifier_datasets(c) for s in study.classifier_stratifiers for r in study.classifier_repeats]

    def paper_tables(self) -> list[str]:
        """The paper tables, as the papers declare them (:mod:`stratbench.papers`): the paper's, then every study's."""
        return paper_tables.table_names(self.study.reproduces, self.evaluated_classifiers() if self.study.classifiers else ())

    def paper_table_files(self) -> list[str]:
        return [f"{self.results}/tables/paper/{name}.{ext}" for name in self.paper_tables() for ext in ("csv", "md", "tex")]

    def targets(self) -> list[str]:
        study, tables = self.study, f"{self.results}/tables"
        ranked = self.ranked_subjects()
        outputs = [
            *self.job_outputs("folds", "runtime", "fold_quality", *(["network"] if study.network_stability else [])),
            f"{tables}/dataset_statistics.csv", f"{tables}/fold_quality.csv", f"{tables}/fold_quality_summary.md",
            f"{tables}/stratifier_runtime.csv", *([f"{tables}/fold_quality_papers.md"] if study.reproduces else []),
            f"{tables}/fold_quality_ranks.csv", f"{tables}/paper_tables.md", f"{tables}/paper/tables.tex",
            *self.paper_table_files(),
            *self.figure_files(*(f"{kind}_fold_quality" for kind in ("rank_bars", "critical_difference")
                                 if "fold_quality" in ranked),
                               "stratifier_runtime", *(f"label_shares_{d}" for d in study.datasets)),
        ]
        if study.network_stability:
            outputs.append(f"{tables}/network_stability_summary.md")
        if study.reproduces:
            outputs.append(f"{self.results}/report/reproduction.md")
            if papers.get(study.reproduces).judges_claims_by_ranks:
                outputs += self.figure_files("paper_claims")
        if not study.classifiers:  # a fold-quality-only study
            return outputs
        return outputs + [
            *self.score_files(), f"{tables}/scores.csv", f"{tables}/summary.csv", f"{tables}/summary.md",
            f"{tables}/average_ranks.csv", f"{tables}/friedman_nemenyi.csv",
            *self.figure_files(*(f"{kind}_{c}" for c in self.evaluated_classifiers()
                                 for kind in ("std_by_stratifier", "fold_distribution")),
                               *(f"{kind}_{c}" for c in self.ranked_classifiers() for kind in ("rank_bars", "critical_difference"))),
        ]


class GridPlan(Plan):
    """Fold quality over a grid of k and seeds, its ranks and tests per k, the recommendation, and where
    ``grid.optimum`` asks for it each stratifier's distance from the best split possible."""

    kind = "grid"
    rule_files = ("grid",)
    reads = ("grid", "dataset_groups", "alpha")
    needs = ("grid",)
    hints = {"n_splits": "a grid study's k are grid.n_splits"}
    splits_groups = True

    @classmethod
    def check(cls, study: Study) -> None:
        """The datasets of its optimality gap."""
        unknown = sorted(set(study.optimum.get("datasets", [])) - set(study.datasets))
        if unknown:
            raise StratbenchError(f"config: grid.optimum.datasets names unknown datasets {unknown}")

    @classmethod
    def largest_k(cls, config: dict) -> int | None:
        return max(config["grid"]["n_splits"])

    def targets(self) -> list[str]:
        study, tables = self.study, f"{self.results}/tables"
        return [
            *(f"{self.results}/grid/{d}/{s}.csv" for d in study.datasets for s in study.stratifiers),
            f"{tables}/dataset_statistics.csv", f"{tables}/grid_ranks.md", f"{self.results}/report/recommendation.md",
            *self.figure_files(*(file_stem("grid_critical_difference", str(k)) for k in study.grid_ks)),
            *([f"{tables}/grid_gap.md", f"{self.results}/figures/grid_gap.png"] if study.optimum else []),
        ]


class CvErrorPlan(Plan):
    """"Does it matter?": the CV estimates of every (dataset, size, stratifier) against the truth, the error
    table, its figures and the verdict."""

    kind = "cv_error"
    rule_files = ("cv_error",)
    reads = ("cv_error",)
    needs = ("cv_error",)
    hints = {"n_splits": "a cv_error study's k are cv_error.n_splits"}

    @classmethod
    def check(cls, study: Study) -> None:
        """A truth set and room for a development sample of some size beside it in every dataset, k no larger
        than the smallest sample, its baseline and controls among the stratifiers."""
        cv = study.cv_error
        if cv["baseline"] not in study.stratifiers:
            raise StratbenchError(f"config: cv_error.baseline {cv['baseline']!r} is not one of the stratifiers "
                                  f"({', '.join(study.stratifiers)})")
        unknown = [c for c in cv.get("controls", []) if c not in study.stratifiers or c == cv["baseline"]]
        if unknown:
            raise StratbenchError(f"config: cv_error.controls {unknown[0]!r} is not one of the stratifiers other than "
                                  f"the baseline ({', '.join(s for s in study.stratifiers if s != cv['baseline'])})")
        if len(study.repeats) < 2:
            raise StratbenchError("config: repeats: a cv_error study needs 2 or more CV repeats of each sample (its "
                                  f"split variance is their variance); got {len(study.repeats)}")
        if max(cv["n_splits"]) > min(cv["sizes"]):
            raise StratbenchError(f"config: cv_error.n_splits {max(cv['n_splits'])} is greater than the smallest "
                                  f"development sample ({min(cv['sizes'])} rows)")
        forest = cv.get("forest") or {}
        unknown = sorted(set(forest.get("datasets", [])) - set(study.datasets))
        if unknown or set(forest.get("sizes", [])) - set(cv["sizes"]):
            raise StratbenchError(f"config: cv_error.forest names datasets or sizes the study does not have: "
                                  f"{unknown or sorted(set(forest['sizes']) - set(cv['sizes']))}")
        runs = {d for d, _ in cls.cells(study)}
        for d in study.datasets:
            if d not in runs:
                examples = study.shape(d)[0]
                rest = examples - cv["truth_size"]
                raise StratbenchError(
                    f"config: dataset {d!r} has {examples} examples: after its truth set of {cv['truth_size']} "
                    f"(cv_error.truth_size), {max(rest, 0)} rows are left, too few for a development sample of "
                    f"{min(cv['sizes'])} sharing at most {cv['max_overlap']} of its rows with another "
                    f"(cv_error.max_overlap); lower truth_size or the sizes, or leave the dataset out")

    @staticmethod
    def overlap(study: Study, dataset: str, m: int) -> float:
        """The expected share of rows two development samples of size m of ``dataset`` share: m / (rows outside
        the truth set); infinite where there are fewer than m."""
        rest = study.shape(dataset)[0] - study.cv_error["truth_size"]
        return m / rest if rest >= m else float("inf")

    @classmethod
    def cells(cls, study: Study) -> list[tuple[str, int]]:
        """The (dataset, m) the study runs: those whose overlap is at most ``cv_error.max_overlap``."""
        cv = study.cv_error
        return [(d, m) for d in study.datasets for m in cv["sizes"]
                if cls.overlap(study, d, m) <= cv["max_overlap"]]

    @classmethod
    def left_out(cls, study: Study) -> list[tuple[str, int, float]]:
        """The (dataset, m, overlap) not run: their samples would share more than ``cv_error.max_overlap``."""
        run = set(cls.cells(study))
        return [(d, m, cls.overlap(study, d, m)) for d in study.datasets for m in study.cv_error["sizes"]
                if (d, m) not in run]

    @classmethod
    def notes(cls, study: Study) -> list[str]:
        cv = study.cv_error

        def why(d, m, overlap):
            if overlap == float("inf"):
                return f"only {study.shape(d)[0] - cv['truth_size']} rows lie outside its truth set"
            return f"two samples would share {overlap:.2f} of their rows on average, above cv_error.max_overlap " \
                   f"{cv['max_overlap']}"

        return [f"not run: {d} at m = {m} ({why(d, m, overlap)})" for d, m, overlap in cls.left_out(study)]

    def verdict_setup(self) -> dict:
        """What the generated page states of the study's design (:func:`stratbench.cv_error.verdict.verdict`)."""
        cv = self.study.cv_error
        return dict(datasets=list(self.study.datasets), sizes=cv["sizes"], left_out=self.left_out(self.study),
                    truth_size=cv["truth_size"], controls=cv.get("controls", []), samples=cv["samples"],
                    repeats=len(self.study.repeats), ks=cv["n_splits"], learners=cv["learners"],
                    forest=cv.get("forest") or {})

    def table_arguments(self) -> dict:
        """What :func:`stratbench.cv_error.publish.recompute` needs of the study beside its rows."""
        study, cv = self.study, self.study.cv_error
        return dict(stratifiers=list(study.stratifiers), baseline=cv["baseline"], controls=cv.get("controls", []),
                    alpha=study.alpha, seed=study.seed, setup=self.verdict_setup())

    def streams(self) -> dict[str, str | None]:
        """stratifier → the stream of its CV seeds: None (the shared one) but for a declared control of the
        baseline's class, which draws from its own name's."""
        study = self.study
        cls_of = lambda name: (study.stratifiers[name] or {}).get("class", name)
        base = cls_of(study.cv_error["baseline"])
        controls = study.cv_error.get("controls", [])
        return {s: (s if s in controls and cls_of(s) == base else None) for s in study.stratifiers}

    @classmethod
    def largest_k(cls, config: dict) -> int | None:
        return max(config["cv_error"]["n_splits"])
    drawn = (("cv_error_decomposition", "pooled"), ("cv_error_decomposition", "part_mean"),
             ("cv_error_count_model", ""), ("cv_error_model_choice", ""))
    """(recipe, subject) of the study's figures (:mod:`stratbench.study.figures`), in the order its job draws them."""

    def figure_stems(self) -> list[str]:
        return [file_stem(*drawn) for drawn in self.drawn]

    def targets(self) -> list[str]:
        return [f"{self.results}/tables/dataset_statistics.csv", f"{self.results}/report/does_it_matter.md",
                *self.figure_files(*self.figure_stems())]


PLANS: dict[str, type[Plan]] = {p.kind: p for p in (BenchmarkPlan, GridPlan, CvErrorPlan)}


def kind_of(config: dict) -> type[Plan]:
    """The kind of study of ``config`` (its ``kind``, default ``benchmark``; :func:`kind_class`), with the config's
    ``import_paths`` first on the path, where a kind of one's own is found."""
    paths = config.get("import_paths")
    use_import_paths(paths if isinstance(paths, list) else None)  # before the schema's check: a list or nothing
    return kind_class(config.get("kind", "benchmark"))


def kind_class(name: str) -> type[Plan]:
    """The kind of study ``name``: a built-in one (:data:`PLANS`), or the :class:`Plan` subclass at the dotted path
    ``name`` (imported: its folder on ``import_paths``)."""
    if not isinstance(name, str):
        raise StratbenchError(f"config: kind: {name!r} is not a kind of study's name")
    if name in PLANS:
        return PLANS[name]
    if "." in name:
        found = import_object(name, "kind of study")
        if isinstance(found, type) and issubclass(found, Plan):
            return found
        raise StratbenchError(f"config: kind: {name!r} is a {type(found).__name__}, not a stratbench.study.plans.Plan")
    raise StratbenchError(f"config: kind: {name!r} is not a kind of study; known: {', '.join(PLANS)} (or a dotted "
                          "path to a Plan subclass, such as mykinds.toy.ToyPlan)")


def plan(study: Study) -> Plan:
    """The plan of ``study``'s kind."""
    return kind_class(study.kind)(study)
