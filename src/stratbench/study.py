"""A study, built once from its config: what the workflow, the cost estimate and the grid all read.

``Study.load(path)`` reads a study file, validates it against the JSON schema (``data/config.schema.yaml``,
its defaults filled in) and checks what the schema cannot (:meth:`Study.check`). A :class:`Study`
answers what the rules ask: which MULAN dataset a name means, how many labels it has, which datasets
a classifier runs on, where its results go; it builds every method from its config entry
(:func:`make_method`: ``class``, ``params``, and for a classifier the study's forest defaults under
its own parameters), and :func:`timed_fold_ids` times a split the one way every part of stratbench does.
"""

from __future__ import annotations

import contextlib
import time
import warnings
from importlib import resources
from pathlib import Path

import numpy as np
import yaml

from stratbench import StratbenchError, classifiers, papers, stratifiers
from stratbench.datasets import generate_synthetic, load_mulan, registry
from stratbench.datasets import load_dataset as load_npz
from stratbench.datasets.grouped_labels import generate as generate_grouped_labels
from stratbench.datasets.local import file_list, local_shape, read_local
from stratbench.datasets.random_labels import generate as generate_random_labels
from stratbench.seeds import split_seed
from stratbench.stats import with_all_group

GENERATED = {"synthetic": generate_synthetic, "random_labels": generate_random_labels,  # dataset kinds made locally
             "grouped_labels": generate_grouped_labels}
LOCAL = "files"  # a user's own dataset: its files
SCHEMA = resources.files("stratbench") / "data" / "config.schema.yaml"
REGISTRIES = {"stratifier": stratifiers, "classifier": classifiers}


def validate_config(config: dict, schema_path=SCHEMA) -> None:
    """Check ``config`` against the JSON schema and fill in its defaults. The first error stops with
    one line naming the key (``config: n_folds: …``), not the schema."""
    import jsonschema
    from snakemake.utils import validate

    schema = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(config))
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path)
        raise StratbenchError(f"config{': ' + where if where else ''}: {error.message}")
    validate(config, str(schema_path))  # fills in the schema's defaults


def read_config(path: str | Path) -> dict:
    """The YAML study file ``path`` as a dict; a file that cannot be read, or is not YAML, stops with
    one line naming the file, and the line and column of a syntax error."""
    path = Path(path)
    try:
        config = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise StratbenchError(f"{path}: cannot read the study: {exc.strerror or exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f", line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        context = getattr(exc, "context", None)
        raise StratbenchError(f"{path}{where}: not valid YAML: {problem}{f' ({context})' if context else ''}") from None
    if not isinstance(config, dict):
        raise StratbenchError(f"{path}: a study is a YAML mapping (study: …, datasets: …), not {type(config).__name__}")
    return config


def make_method(kind: str, name: str, spec: dict, forest: dict | None = None, **fixed):
    """The ``kind`` ("stratifier" or "classifier") of config entry ``name: spec``: class ``spec["class"]``
    (default ``name``, a registered name or a dotted path) built with ``forest`` (a classifier's study
    defaults), then ``spec["params"]``, then ``fixed`` (n_splits, random_state, n_jobs…), each over the last."""
    params = {**(forest or {}), **(spec.get("params") or {}), **fixed}
    return REGISTRIES[kind].get(spec.get("class", name), **params)


def timed_fold_ids(splitter, Y, groups=None) -> tuple[np.ndarray, float]:
    """(fold ids, seconds) of ``splitter`` on ``Y`` (and ``groups``), timed after a warm-up call on the
    first min(n, 4k) rows (when they are at least k; in singleton groups where groups are given), so a
    compiled kernel's first-call compilation is not counted: the stratifier's runtime wherever
    stratbench reports one."""
    k = splitter.get_n_splits()
    warm = Y[: min(Y.shape[0], 4 * k)]
    if warm.shape[0] >= k:
        with warnings.catch_warnings(), contextlib.suppress(ValueError):  # a warm-up on a few rows: its
            warnings.simplefilter("ignore")  # sizes, rare labels and a library's refusals say nothing
            splitter.fold_ids(warm, None if groups is None else np.arange(warm.shape[0]))
    start = time.perf_counter()
    folds = splitter.fold_ids(Y, groups)
    return folds, time.perf_counter() - start


class Study:
    """One study's config with everything derived from it once.

    Attributes: ``config`` (validated, defaults filled in), ``name``, ``results`` (``results/<study>``),
    ``seed``, ``n_splits``, ``repeats`` (0 … r−1), ``classifier_repeats`` (the first of them, where the
    classifiers are evaluated), ``threads``, ``datasets``, ``stratifiers``, ``classifier_stratifiers`` (those
    the classifiers are evaluated on), ``network_stability`` (and ``network_max_labels``),
    ``classifiers``, ``forest`` (a classifier's defaults), ``data`` (download settings), ``groups``
    (dataset groups of the rank tables, ``all`` included), ``alpha``, ``reproduces``, ``grid_ks`` (the
    k of a fold-quality grid study, empty otherwise), ``optimum`` (its ``grid.optimum``), ``import_paths``.

    Examples
    --------
    >>> study = Study.checked({"study": "toy", "seed": 1, "n_splits": 3, "repeats": 2, "stratifiers": {"iterative": {}},
    ...     "datasets": {"toy": {"synthetic": {"examples": 30, "labels": 3, "features": 2, "cardinality": 1.2}}}})
    >>> study.results, study.dataset_file("toy"), study.shape("toy")
    ('results/toy', 'results/toy/datasets/toy.npz', (30, 3))
    >>> study.stratifier("iterative", n_splits=3, random_state=study.split_seed("toy", 0)).get_n_splits()
    3
    """

    def __init__(self, config: dict):
        self.config = config
        self.name = config["study"]
        self.results = f"results/{self.name}"
        self.seed = config["seed"]
        self.n_splits = config["n_splits"]
        self.repeats = list(range(config["repeats"]))
        self.classifier_repeats = self.repeats[: config.get("classifier_repeats", config["repeats"])]
        self.threads = config.get("threads", 1)
        self.datasets = config["datasets"]
        self.stratifiers = config["stratifiers"]
        self.classifiers = config.get("classifiers") or {}
        self.forest = config.get("forest") or {}
        self.data = config.get("data") or {}
        self.groups = with_all_group(self.datasets, config.get("dataset_groups"))
        self.alpha = config.get("alpha", 0.05)
        self.reproduces = config.get("reproduces")
        self.grid = config.get("grid") or {}
        self.grid_ks = self.grid.get("n_splits", [])
        self.optimum = self.grid.get("optimum") or {}  # the optimality gap's solver settings, empty: none
        network = config.get("network_stability", False)
        self.network_stability = bool(network)
        self.network_max_labels = network.get("max_labels") if isinstance(network, dict) else None
        self.classifier_stratifiers = list(config.get("classifier_stratifiers") or self.stratifiers)
        self.import_paths = config.get("import_paths") or []

    @classmethod
    def load(cls, path: str | Path) -> Study:
        """The study in ``path``, validated against the schema (defaults filled in) and checked."""
        return cls.checked(read_config(path))

    @classmethod
    def checked(cls, config: dict) -> Study:
        """The study of ``config`` after :func:`validate_config` and :meth:`check`."""
        validate_config(config)
        study = cls(config)
        study.check()
        return study

    # --- methods ------------------------------------------------------------------------------------

    def stratifier(self, name: str, **fixed):
        """The stratifier ``name`` of the study, built with ``fixed`` (n_splits, random_state…)."""
        return make_method("stratifier", name, self.stratifiers[name], **fixed)

    def classifier(self, name: str, **fixed):
        """The classifier ``name`` of the study, the forest defaults under its own parameters."""
        return make_method("classifier", name, self.classifiers[name], self.forest, **fixed)

    def method_class(self, kind: str, name: str) -> type:
        spec = (self.stratifiers if kind == "stratifier" else self.classifiers)[name]
        return REGISTRIES[kind].resolve(spec.get("class", name))

    def split_seed(self, dataset: str, repeat: int) -> int:
        """The seed of every stratifier's split of (dataset, repeat): the config's ``split_seeds[repeat]``
        (a paper's own seeds) where given, else derived from (seed, dataset, repeat)."""
        seeds = self.config.get("split_seeds")
        return int(seeds[repeat]) if seeds else split_seed(self.seed, dataset, repeat)

    # --- datasets -----------------------------------------------------------------------------------

    def mulan_name(self, dataset: str) -> str | None:
        """Registry name of a MULAN dataset of the study, None for a generated or local one."""
        spec = self.datasets[dataset]
        return None if any(kind in spec for kind in (*GENERATED, LOCAL)) else spec.get("mulan", dataset)

    def local_spec(self, dataset: str) -> dict | None:
        """The files of a user's own dataset, None for the others."""
        return self.datasets[dataset].get(LOCAL)

    def generated_spec(self, dataset: str) -> tuple[str, dict] | None:
        """(kind, parameters) of a generated dataset, None for the others."""
        spec = self.datasets[dataset]
        return next(((kind, spec[kind]) for kind in GENERATED if kind in spec), None)

    def dataset_file(self, dataset: str) -> str:
        """The workflow's cache of a dataset: shared by studies for a MULAN one, the study's own else."""
        m = self.mulan_name(dataset)
        return f"resources/mulan/{m}.npz" if m else f"{self.results}/datasets/{dataset}.npz"

    def shape(self, dataset: str) -> tuple[int, int]:
        """(examples, labels) of a dataset: from its definition, the registry, or its files."""
        generated = self.generated_spec(dataset)
        if generated and "examples" not in generated[1]:  # grouped_labels: its size is drawn (quick)
            return GENERATED[generated[0]](dataset, **generated[1]).Y.shape
        if generated:
            return generated[1]["examples"], generated[1]["labels"]
        if self.local_spec(dataset):
            return local_shape(self.local_spec(dataset))
        e = registry.entry(self.mulan_name(dataset))
        return e.examples, e.labels

    def grouped(self, dataset: str) -> bool:
        """Whether the dataset is split by groups: its own (``grouped_labels``) or made (``groups:``)."""
        return "groups" in self.datasets[dataset] or "grouped_labels" in self.datasets[dataset]

    def classifier_datasets(self, classifier: str) -> list[str]:
        """The datasets a classifier runs on (``max_labels`` restricts it, e.g. CLR to < 50 labels)."""
        limit = self.classifiers[classifier].get("max_labels")
        return [d for d in self.datasets if limit is None or self.shape(d)[1] <= limit]

    def network_datasets(self) -> list[str]:
        """The datasets of the network-stability part (``network_stability: {max_labels: …}`` restricts it)."""
        if not self.network_stability:
            return []
        limit = self.network_max_labels
        return [d for d in self.datasets if limit is None or self.shape(d)[1] <= limit]

    def load_dataset(self, dataset: str, workdir: str | Path = "."):
        """The dataset from the workflow's cache under ``workdir`` when it exists, else generated,
        read from its files, or read through the MULAN cache and mirror."""
        if self.local_spec(dataset):
            return read_local(dataset, self.local_spec(dataset))
        cached = Path(workdir) / self.dataset_file(dataset)
        if cached.is_file():
            return load_npz(cached)
        generated = self.generated_spec(dataset)
        if generated:
            return GENERATED[generated[0]](dataset, **generated[1])
        return load_mulan(self.mulan_name(dataset), mirror=self.data.get("mirror"))

    # --- checks -------------------------------------------------------------------------------------

    def check(self) -> None:
        """What the schema cannot check, before any job runs: datasets in the registry (or files that
        exist), n_splits no larger than any dataset, methods that resolve and take their parameters,
        groups that name datasets of the study."""
        k = self.n_splits
        for d in self.datasets:
            m = self.mulan_name(d)
            if m is not None and m not in registry.names():
                raise StratbenchError(
                    f"config: dataset {d!r} is not a MULAN dataset of the registry "
                    f"({', '.join(registry.names())}) and has no 'synthetic' or 'files' entry"
                )
            if m is None and d in registry.names():
                raise StratbenchError(f"config: dataset {d!r} shadows the MULAN dataset of that name")
            if self.local_spec(d):
                missing = [f for f in file_list(self.local_spec(d)) if not Path(f).is_file()]
                if missing:
                    raise StratbenchError(f"config: dataset {d!r}: no such file {missing[0]}")
            examples = self.shape(d)[0]
            if k > examples:
                raise StratbenchError(f"config: n_splits={k} is greater than the {examples} examples of dataset {d!r}")
        for d, spec in self.datasets.items():
            kinds = sorted(set(spec) - {"groups"})
            if len(kinds) > 1:
                raise StratbenchError(f"config: dataset {d!r} has {len(kinds)} kinds ({', '.join(kinds)}): give one")
        for kind, methods in (("stratifier", self.stratifiers), ("classifier", self.classifiers)):
            for name in methods:
                try:
                    self.method_class(kind, name)
                except StratbenchError as exc:
                    raise StratbenchError(f"config: {kind} {name!r}: {exc}") from None
        self._check_groups()
        for kind, methods in (("stratifier", self.stratifiers), ("classifier", self.classifiers)):
            for name, spec in methods.items():
                if spec.get("params") or (kind == "classifier" and self.forest):
                    self._try_method(kind, name, spec)
        if self.reproduces is not None and self.reproduces not in papers.names():
            raise StratbenchError(f"config: reproduces: {self.reproduces!r} is not a paper of stratbench.papers "
                                  f"({', '.join(papers.names())})")
        if self.config.get("classifier_repeats", 0) > len(self.repeats):
            raise StratbenchError(f"config: classifier_repeats={self.config['classifier_repeats']} is more than the "
                                  f"{len(self.repeats)} repeats")
        unknown = sorted(set(self.classifier_stratifiers) - set(self.stratifiers))
        if unknown:
            raise StratbenchError(f"config: classifier_stratifiers names stratifiers not in `stratifiers`: {unknown}")
        if len(self.config.get("split_seeds") or self.repeats) < len(self.repeats):
            raise StratbenchError(f"config: split_seeds has {len(self.config['split_seeds'])} seeds for "
                                  f"{len(self.repeats)} repeats")
        unknown = sorted(set(self.optimum.get("datasets", [])) - set(self.datasets))
        if unknown:
            raise StratbenchError(f"config: grid.optimum.datasets names unknown datasets {unknown}")
        for group, members in (self.config.get("dataset_groups") or {}).items():
            unknown = sorted(set(members) - set(self.datasets))
            if unknown:
                raise StratbenchError(f"config: dataset_groups.{group} names unknown datasets {unknown}")

    def _check_groups(self) -> None:
        """Grouped datasets are split by the grid (a study with ``grid:``), by stratifiers that split
        whole groups; the group baselines (``needs_groups``) split grouped datasets only."""
        grouped = [d for d in self.datasets if self.grouped(d)]
        if grouped and not self.grid_ks:
            raise StratbenchError(f"config: dataset {grouped[0]!r} is grouped: grouped datasets are split by a grid "
                                  "study (grid: {n_splits: [...]}, as config/grouped2026.yaml)")
        for name in self.stratifiers:
            cls = self.method_class("stratifier", name)
            if grouped and not cls.supports_groups:
                raise StratbenchError(f"config: stratifier {name!r} does not split by groups, and dataset "
                                      f"{grouped[0]!r} is grouped: its rows would leak across folds")
            ungrouped = [d for d in self.datasets if not self.grouped(d)]
            if ungrouped and getattr(cls, "needs_groups", False):
                raise StratbenchError(f"config: stratifier {name!r} splits grouped data only, and dataset "
                                      f"{ungrouped[0]!r} has no groups (give it groups: {{clusters: 15}})")

    def _try_method(self, kind: str, name: str, spec: dict) -> None:
        """Build the method with its parameters and run it on a toy problem, so that a parameter it does
        not take, or a value it refuses, stops now with one line naming it."""
        k = self.n_splits
        Y = np.tile(np.eye(3, dtype=np.int8), (2 * k, 1))
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                if kind == "stratifier":
                    groups = np.arange(len(Y)) // 2 if getattr(self.method_class(kind, name), "needs_groups", False) else None
                    self.stratifier(name, n_splits=k, random_state=0).fold_ids(Y, groups)
                else:
                    model = self.classifier(name, random_state=0)
                    forest = model.make_forest(0) if hasattr(model, "make_forest") else None
                    if hasattr(forest, "_validate_params"):
                        forest._validate_params()  # the forest's own parameter constraints, n_estimators included
                    if isinstance(getattr(model, "n_estimators", None), int) and model.n_estimators > 2:
                        model.n_estimators = 2  # a small forest for the toy fit
                    model.fit(np.arange(len(Y), dtype=float)[:, None], Y)
        except Exception as exc:  # noqa: BLE001 - any refusal is a config error here
            message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise StratbenchError(f"config: {kind} {name!r} with params {spec.get('params', {})}: {message}") from None
