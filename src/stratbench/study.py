"""A study's configuration, as the workflow and the cost estimate both read it.

``load_config`` reads a study file, validates it against the JSON schema (with its defaults) and
runs :func:`check_config`; the other functions answer what the workflow's rules ask of a study:
which MULAN dataset a name means, how many labels it has, which datasets a classifier runs on.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from stratbench import StratbenchError, classifiers, stratifiers
from stratbench.datasets import registry

GENERATED = ("synthetic", "random_labels")  # dataset kinds made locally
LOCAL = "files"                              # a user's own dataset: its files
REPO = Path(__file__).resolve().parents[2]
SCHEMA = REPO / "workflow" / "schemas" / "config.schema.yaml"


def load_config(path: str | Path) -> dict:
    """The study in ``path``, validated against the schema (defaults filled in) and checked."""
    path = Path(path)
    try:
        config = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise StratbenchError(f"{path}: cannot read the study: {exc}") from None
    validate_config(config)
    check_config(config)
    return config


def validate_config(config: dict, schema_path: str | Path = SCHEMA) -> None:
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


def mulan_name(config: dict, dataset: str) -> str | None:
    """Registry name of a MULAN dataset of the config, None for a generated or local one."""
    spec = config["datasets"][dataset]
    return None if any(kind in spec for kind in (*GENERATED, LOCAL)) else spec.get("mulan", dataset)


def local_spec(config: dict, dataset: str) -> dict | None:
    """The files of a user's own dataset, None for the others."""
    return config["datasets"][dataset].get(LOCAL)


def generated_spec(config: dict, dataset: str) -> tuple[str, dict] | None:
    """(kind, parameters) of a generated dataset, None for a MULAN one."""
    spec = config["datasets"][dataset]
    return next(((kind, spec[kind]) for kind in GENERATED if kind in spec), None)


def dataset_shape(config: dict, dataset: str) -> tuple[int, int]:
    """(examples, labels) of a dataset of the config: from its definition, the registry, or its files."""
    from stratbench.datasets.local import local_shape

    generated = generated_spec(config, dataset)
    if generated:
        return generated[1]["examples"], generated[1]["labels"]
    if local_spec(config, dataset):
        return local_shape(local_spec(config, dataset))
    e = registry.entry(mulan_name(config, dataset))
    return e.examples, e.labels


def dataset_labels(config: dict, dataset: str) -> int:
    """Number of labels of a dataset of the config."""
    return dataset_shape(config, dataset)[1]


def classifier_datasets(config: dict, classifier: str) -> list[str]:
    """The datasets a classifier runs on (``max_labels`` restricts it, e.g. CLR to < 50 labels)."""
    limit = (config.get("classifiers") or {})[classifier].get("max_labels")
    return [d for d in config["datasets"] if limit is None or dataset_labels(config, d) <= limit]


def check_config(config: dict) -> None:
    """What the schema cannot check, before any job runs: datasets in the registry (or files that
    exist), n_splits no larger than any dataset, methods that resolve and take their parameters,
    groups that name datasets of the study."""
    from stratbench.datasets.local import file_list

    k = config["n_splits"]
    for d in config["datasets"]:
        m = mulan_name(config, d)
        if m is not None and m not in registry.names():
            raise StratbenchError(
                f"config: dataset {d!r} is not a MULAN dataset of the registry "
                f"({', '.join(registry.names())}) and has no 'synthetic' or 'files' entry"
            )
        if m is None and d in registry.names():
            raise StratbenchError(f"config: dataset {d!r} shadows the MULAN dataset of that name")
        if local_spec(config, d):
            missing = [f for f in file_list(local_spec(config, d)) if not Path(f).is_file()]
            if missing:
                raise StratbenchError(f"config: dataset {d!r}: no such file {missing[0]}")
        examples = dataset_shape(config, d)[0]
        if k > examples:
            raise StratbenchError(f"config: n_splits={k} is greater than the {examples} examples of dataset {d!r}")
    for kind, methods, reg in (("stratifier", config["stratifiers"], stratifiers),
                               ("classifier", config.get("classifiers") or {}, classifiers)):
        for name, spec in methods.items():
            try:
                reg.resolve(spec.get("class", name))
            except StratbenchError as exc:
                raise StratbenchError(f"config: {kind} {name!r}: {exc}") from None
            if spec.get("params") or (kind == "classifier" and config.get("forest")):
                _try_method(kind, name, spec, config)
    for group, members in (config.get("dataset_groups") or {}).items():
        unknown = sorted(set(members) - set(config["datasets"]))
        if unknown:
            raise StratbenchError(f"config: dataset_groups.{group} names unknown datasets {unknown}")


def _try_method(kind: str, name: str, spec: dict, config: dict) -> None:
    """Build the method with its parameters and run it on a toy problem, so that a parameter it does
    not take, or a value it refuses, stops now with one line naming it."""
    import warnings

    import numpy as np

    k = config["n_splits"]
    Y = np.tile(np.eye(3, dtype=np.int8), (2 * k, 1))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if kind == "stratifier":
                stratifiers.get(spec.get("class", name), **{**spec.get("params", {}), "n_splits": k,
                                                              "random_state": 0}).fold_ids(Y)
            else:
                params = {**(config.get("forest") or {}), **spec.get("params", {}), "n_estimators": 2}
                model = classifiers.get(spec.get("class", name), **params, random_state=0)
                model.fit(np.arange(len(Y), dtype=float)[:, None], Y)
    except Exception as exc:  # noqa: BLE001 - any refusal is a config error here
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StratbenchError(f"config: {kind} {name!r} with params {spec.get('params', {})}: {message}") from None


def load_dataset(config: dict, dataset: str, workdir: str | Path = "."):
    """The dataset ``dataset`` of the study: the pipeline's cache under ``workdir`` when it exists,
    else generated (synthetic, random labels) or read through the MULAN cache and mirror."""
    from stratbench.datasets import generate_synthetic, load_dataset as load_npz, load_mulan
    from stratbench.datasets.random_labels import generate as generate_random_labels

    from stratbench.datasets.local import read_local

    workdir = Path(workdir)
    if local_spec(config, dataset):
        return read_local(dataset, local_spec(config, dataset))
    generated = generated_spec(config, dataset)
    if generated:
        cached = workdir / "results" / config["study"] / "datasets" / f"{dataset}.npz"
        if cached.is_file():
            return load_npz(cached)
        make = {"synthetic": generate_synthetic, "random_labels": generate_random_labels}[generated[0]]
        return make(dataset, **generated[1])
    name = mulan_name(config, dataset)
    cached = workdir / "resources" / "mulan" / f"{name}.npz"
    if cached.is_file():
        return load_npz(cached)
    return load_mulan(name, mirror=(config.get("data") or {}).get("mirror"))
