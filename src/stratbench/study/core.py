"""A study, built once from its config: what the workflow, the cost estimate and the grid all read.

``Study.load(path)`` reads a study file, validates it against the JSON schema and checks what the schema
cannot (:mod:`stratbench.study.config`). A :class:`Study` answers what the rules ask: which MULAN dataset a name
means, how many labels it has, which datasets a classifier runs on, where its results go; it builds each
of its methods from its config entry (``stratifiers.build``, ``classifiers.build``: ``class``, ``params``,
and for a classifier the study's forest defaults under its own parameters). Each dataset entry is parsed
once, into a :class:`DatasetEntry`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from stratbench import StratbenchError, classifiers, stratifiers
from stratbench.datasets import generate_synthetic, load_mulan, registry
from stratbench.datasets import load_dataset as load_npz
from stratbench.datasets.grouped_labels import generate as generate_grouped_labels
from stratbench.datasets.local import local_shape, read_local
from stratbench.datasets.random_labels import generate as generate_random_labels
from stratbench.seeds import split_seed
from stratbench.stats import with_all_group
from stratbench.study.config import check_study, locate, read_config, validate_config

GENERATED = {"synthetic": generate_synthetic, "random_labels": generate_random_labels,  # dataset kinds made locally
             "grouped_labels": generate_grouped_labels}
LOCAL = "files"  # a user's own dataset: its files
REGISTRIES = {"stratifier": stratifiers, "classifier": classifiers}


@dataclass(frozen=True)
class DatasetEntry:
    """One entry of a study's ``datasets:``, parsed: ``kind`` (``mulan``, a generator of :data:`GENERATED`,
    or ``files``), its ``params`` (a generator's parameters, a user's files), ``mulan`` (the registry name
    of a MULAN dataset, else None), ``grouped`` (split by groups: its own or made ones) and every ``kinds``
    the entry names (more than one is a config error, :func:`stratbench.study.config.check_study`)."""

    name: str
    kind: str
    params: dict
    mulan: str | None
    grouped: bool
    kinds: tuple[str, ...]

    @classmethod
    def parse(cls, name: str, spec: dict) -> DatasetEntry:
        kinds = tuple(sorted(set(spec) - {"groups", "strata"}))
        generated = next((kind for kind in GENERATED if kind in spec), None)
        if generated:
            kind, params, mulan = generated, spec[generated], None
        elif LOCAL in spec:
            kind, params, mulan = LOCAL, spec[LOCAL], None
        else:
            kind, params, mulan = "mulan", {}, spec.get("mulan", name)
        return cls(name, kind, params, mulan, "groups" in spec or "grouped_labels" in spec, kinds)


class Study:
    """One study's config with everything derived from it once.

    Attributes: ``config`` (validated, defaults filled in), ``name``, ``results`` (``results/<study>``),
    ``kind`` (``benchmark``, ``grid`` or ``cv_error``), ``seed``, ``n_splits`` (a benchmark's k; the largest k
    of a grid or cv_error study), ``repeats`` (0 … r−1), ``classifier_repeats`` (the first of them, where the
    classifiers are evaluated), ``threads``, ``datasets``, ``stratifiers``, ``classifier_stratifiers`` (those
    the classifiers are evaluated on), ``network_stability`` (and ``network_max_labels``),
    ``classifiers``, ``forest`` (a classifier's defaults), ``data`` (download settings), ``groups``
    (dataset groups of the rank tables, ``all`` included), ``alpha``, ``reproduces``, ``grid_ks`` (the
    k of a fold-quality grid study, empty otherwise), ``optimum`` (its ``grid.optimum``), ``cv_error`` (the
    settings of a "does it matter" study, empty otherwise) and ``import_paths``.

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
        self.kind = config.get("kind", "benchmark")
        self.repeats = list(range(config["repeats"]))
        self.classifier_repeats = self.repeats[: config.get("classifier_repeats", config["repeats"])]
        self.threads = config.get("threads", 1)
        self.datasets = config["datasets"]
        self.entries = {name: DatasetEntry.parse(name, spec) for name, spec in self.datasets.items()}
        self._shapes: dict[str, tuple[int, int]] = {}
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
        self.cv_error = config.get("cv_error") or {}  # the "does it matter" study's settings, empty: none
        # k: what the checks hold every dataset to (its kind's: a benchmark's one; a grid's or cv_error's largest)
        self.n_splits = self.kind_class().largest_k(config)
        network = config.get("network_stability", False)
        self.network_stability = bool(network)
        self.network_max_labels = network.get("max_labels") if isinstance(network, dict) else None
        self.classifier_stratifiers = list(config.get("classifier_stratifiers") or self.stratifiers)
        self.import_paths = config.get("import_paths") or []

    def kind_class(self):
        """The class of the study's kind (:func:`stratbench.study.plans.kind_of`)."""
        from stratbench.study.plans import kind_of

        return kind_of(self.config)

    @classmethod
    def load(cls, path: str | Path) -> Study:
        """The study in ``path``, validated against the schema (defaults filled in) and checked."""
        return cls.checked(read_config(path), files=[path])

    @classmethod
    def checked(cls, config: dict, files=()) -> Study:
        """The study of ``config`` after :func:`~stratbench.study.config.validate_config` and
        :func:`~stratbench.study.config.check_study`; an error names the config ``files`` it came from, with the
        line and column of a key the schema refuses."""
        try:
            validate_config(config)
            study = cls(config)
            check_study(study)
        except StratbenchError as exc:
            if not files:
                raise
            where = locate(getattr(exc, "keys", ()), files) or ", ".join(str(f) for f in files)
            raise StratbenchError(f"{where}: {exc}") from None
        return study

    # --- methods ------------------------------------------------------------------------------------

    def stratifier(self, name: str, **fixed):
        """The stratifier ``name`` of the study, built with ``fixed`` (n_splits, random_state…)."""
        return stratifiers.build(name, self.stratifiers[name], **fixed)

    def classifier(self, name: str, **fixed):
        """The classifier ``name`` of the study, the forest defaults under its own parameters."""
        return classifiers.build(name, self.classifiers[name], self.forest, **fixed)

    def method_class(self, kind: str, name: str) -> type:
        spec = (self.stratifiers if kind == "stratifier" else self.classifiers)[name]
        return REGISTRIES[kind].entry_class(name, spec)

    def split_seed(self, dataset: str, repeat: int) -> int:
        """The seed of every stratifier's split of (dataset, repeat): the config's ``split_seeds[repeat]``
        (a paper's own seeds) where given, else derived from (seed, dataset, repeat)."""
        seeds = self.config.get("split_seeds")
        return int(seeds[repeat]) if seeds else split_seed(self.seed, dataset, repeat)

    # --- datasets -----------------------------------------------------------------------------------

    def mulan_name(self, dataset: str) -> str | None:
        """Registry name of a MULAN dataset of the study, None for a generated or local one."""
        return self.entries[dataset].mulan

    def local_spec(self, dataset: str) -> dict | None:
        """The files of a user's own dataset, None for the others."""
        entry = self.entries[dataset]
        return entry.params if entry.kind == LOCAL else None

    def generated_spec(self, dataset: str) -> tuple[str, dict] | None:
        """(kind, parameters) of a generated dataset, None for the others."""
        entry = self.entries[dataset]
        return (entry.kind, entry.params) if entry.kind in GENERATED else None

    def dataset_file(self, dataset: str) -> str:
        """The workflow's cache of a dataset: shared by studies for a MULAN one, the study's own else."""
        m = self.mulan_name(dataset)
        return self.dataset_file_of(m) if m else f"{self.results}/datasets/{dataset}.npz"

    @staticmethod
    def dataset_file_of(mulan: str) -> str:
        """The workflow's cache of the MULAN dataset ``mulan``."""
        return f"resources/mulan/{mulan}.npz"

    def shape(self, dataset: str) -> tuple[int, int]:
        """(examples, labels) of a dataset: from its definition, the registry, or its files (worked out
        once per study)."""
        if dataset not in self._shapes:
            self._shapes[dataset] = self._shape(dataset)
        return self._shapes[dataset]

    def _shape(self, dataset: str) -> tuple[int, int]:
        generated = self.generated_spec(dataset)
        if generated and "examples" not in generated[1]:  # grouped_labels: its size is drawn (quick)
            return GENERATED[generated[0]](dataset, **generated[1]).Y.shape
        if generated:
            return generated[1]["examples"], generated[1]["labels"]
        if self.local_spec(dataset):
            return local_shape(self.local_spec(dataset))
        e = registry.entry(self.mulan_name(dataset))
        return e.examples, e.labels

    def strata_spec(self, dataset: str) -> dict | None:
        """The dataset's ``strata:`` (columns stratified on beside its labels), None where it has none."""
        return self.config["datasets"][dataset].get("strata")

    def grouped(self, dataset: str) -> bool:
        """Whether the dataset is split by groups: its own (``grouped_labels``) or made (``groups:``)."""
        return self.entries[dataset].grouped

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

    def check(self) -> None:
        """The checks of :func:`stratbench.study.config.check_study`."""
        check_study(self)
