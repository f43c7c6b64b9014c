"""A study's config: read from YAML, validated against the JSON schema (``data/config.schema.yaml``,
its defaults filled in), and checked for what a schema cannot see (:func:`check_study`: datasets in the
registry or files that exist, k no larger than any dataset, methods that resolve and accept their
parameters, groups and seeds that fit). Every config error stops here with one line naming the key,
before any job runs."""

from __future__ import annotations

import copy
import difflib
import inspect
import warnings
from importlib import resources
from pathlib import Path

import numpy as np
import yaml

from stratbench import StratbenchError
from stratbench.datasets import registry
from stratbench.datasets.local import file_list
from stratbench.io import memo_file, remember

SCHEMA = resources.files("stratbench") / "data" / "config.schema.yaml"


class ConfigError(StratbenchError):
    """A config value the schema refuses; ``keys`` is where it sits (``("datasets", "emotions", "mulan")``)."""

    def __init__(self, message: str, keys: tuple = ()):
        super().__init__(message)
        self.keys = keys


def check_kind(config: dict, kind) -> None:
    """A key the config's ``kind`` (a :class:`~stratbench.study.plans.Plan` subclass) does not read, but another
    kind does, stops with the key and whose it is (a key no kind reads is the schema's to refuse)."""
    for key in config:
        if (whose := kind.refused(key)) is not None:
            from stratbench.study.plans import PLANS

            raise ConfigError(f"config: {key}: a {kind.kind} study does not read it ({whose}); remove it"
                              + (f" or set kind: {key}" if key in PLANS else ""), (key,))


def validate_config(config: dict, schema_path=SCHEMA) -> None:
    """Check ``config`` against the JSON schema of its kind (:meth:`stratbench.study.plans.Plan.schema`) and fill in
    the defaults of the keys it reads. The first error stops with one line naming the key (``config: n_folds: …``),
    not the schema; so does a key another kind reads (:func:`check_kind`)."""
    import jsonschema

    from stratbench.study.plans import kind_of

    every = yaml.safe_load(Path(schema_path).read_text(encoding="utf-8"))
    try:
        kind = kind_of(config)
    except StratbenchError as exc:
        raise ConfigError(str(exc), ("kind",)) from None
    check_kind(config, kind)
    schema = kind.schema(every)
    error = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(schema).iter_errors(config))
    if error is not None:
        keys, message = tuple(error.absolute_path), error.message
        allowed = set(error.schema.get("properties", {})) if isinstance(error.schema, dict) else set()
        written = set(error.instance) if isinstance(error.instance, dict) else set()
        if error.validator == "additionalProperties":  # the key that is not allowed, not its parent
            extra = sorted(written - allowed)
            keys += tuple(extra[:1])
            near = difflib.get_close_matches(extra[0], sorted(allowed), n=1) if extra else []
            message += f"; did you mean {near[0]!r}?" if near else ""
        elif error.validator == "required":  # the key written in its place, if one is near its name
            missing = next((k for k in error.validator_value if k not in written), "")
            near = difflib.get_close_matches(missing, sorted(written - allowed), n=1)
            if near:
                keys += (near[0],)
                message += f"; {near[0]!r} is written, which the config does not read: did you mean {missing!r}?"
        where = "/".join(str(p) for p in error.absolute_path)
        raise ConfigError(f"config{': ' + where if where else ''}: {message}", keys)
    _with_defaults(jsonschema.Draft202012Validator)(schema).validate(config)


def _with_defaults(validator):
    """``validator`` that also fills in each missing key's ``default`` (a copy) as it checks an object's properties
    (the jsonschema FAQ's recipe, as Snakemake's ``validate`` does)."""
    from jsonschema import validators

    check_properties = validator.VALIDATORS["properties"]

    def properties(checker, specs, instance, schema):
        if isinstance(instance, dict):
            for key, spec in specs.items():
                if "default" in spec:
                    instance.setdefault(key, copy.deepcopy(spec["default"]))
        yield from check_properties(checker, specs, instance, schema)

    return validators.extend(validator, {"properties": properties})


def locate(keys: tuple, files) -> str | None:
    r"""``file, line L, column C`` of the key path ``keys`` (or its deepest part) in the last of the YAML
    ``files`` that holds it (the config files a run was given, later ones over earlier ones), else None.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as f:
    ...     _ = f.write("study: x\ndatasets:\n  emotions: {mulan: emotionz}\n")
    >>> locate(("datasets", "emotions", "mulan"), [f.name]) == f"{f.name}, line 3, column 14"
    True
    >>> os.unlink(f.name)
    """
    for path in reversed([Path(f) for f in files]):
        try:
            node = yaml.compose(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError):
            continue
        found = None
        for key in keys:
            if isinstance(node, yaml.MappingNode):
                match = next(((k, v) for k, v in node.value if k.value == str(key)), None)
                if match is None:
                    break
                found, node = match[0], match[1]
            elif isinstance(node, yaml.SequenceNode) and isinstance(key, int) and key < len(node.value):
                found = node = node.value[key]
            else:
                break
        if found is not None:
            return f"{path}, line {found.start_mark.line + 1}, column {found.start_mark.column + 1}"
    return None


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


def check_study(study) -> None:
    """What the schema cannot check, before any job runs: datasets in the registry (or files that
    exist), n_splits no larger than any dataset, methods that resolve and take their parameters,
    groups that name datasets of the study; then the checks of the keys of the study's kind
    (:meth:`stratbench.study.plans.Plan.check`)."""
    k = study.n_splits
    for d in study.datasets:
        m = study.mulan_name(d)
        if m is not None and m not in registry.names():
            raise StratbenchError(
                f"config: dataset {d!r} is not a MULAN dataset of the registry "
                f"({', '.join(registry.names())}) and has no 'synthetic' or 'files' entry"
            )
        if m is None and d in registry.names():
            raise StratbenchError(f"config: dataset {d!r} shadows the MULAN dataset of that name")
        if study.local_spec(d):
            missing = [f for f in file_list(study.local_spec(d)) if not Path(f).is_file()]
            if missing:
                raise StratbenchError(f"config: dataset {d!r}: no such file {missing[0]}")
        examples = study.shape(d)[0]
        if k is not None and k > examples:
            raise StratbenchError(f"config: n_splits={k} is greater than the {examples} examples of dataset {d!r}")
    _check_mirror(study)
    for d, entry in study.entries.items():
        if len(entry.kinds) > 1:
            raise StratbenchError(f"config: dataset {d!r} has {len(entry.kinds)} kinds ({', '.join(entry.kinds)}): give one")
        if entry.kind == "synthetic":
            _check_synthetic(d, entry.params)
    for kind, methods in (("stratifier", study.stratifiers), ("classifier", study.classifiers)):
        for name in methods:
            try:
                study.method_class(kind, name)
            except StratbenchError as exc:  # located: the entry's class, or its name where it names the method
                keys = (f"{kind}s", name, *(("class",) if "class" in (methods[name] or {}) else ()))
                raise ConfigError(f"config: {kind} {name!r}: {exc}", keys) from None
    _check_groups(study)
    _check_strata(study)
    for kind, methods in (("stratifier", study.stratifiers), ("classifier", study.classifiers)):
        for name, spec in methods.items():
            if spec.get("params") or (kind == "classifier" and study.forest):
                _try_method_once(study, kind, name, spec)
    if len(study.config.get("split_seeds") or study.repeats) < len(study.repeats):
        raise StratbenchError(f"config: split_seeds has {len(study.config['split_seeds'])} seeds for "
                              f"{len(study.repeats)} repeats")
    for group, members in (study.config.get("dataset_groups") or {}).items():
        unknown = sorted(set(members) - set(study.datasets))
        if unknown:
            raise StratbenchError(f"config: dataset_groups.{group} names unknown datasets {unknown}")
    study.kind_class().check(study)


def _check_mirror(study) -> None:
    """The MULAN datasets the workflow has not cached yet come from the mirror when one is set: a mirror folder
    that does not exist, or lacks one of their files, stops the plan (and ``stratbench check``) here."""
    from stratbench.datasets.fetch import check_mirror, resolve_mirror, source_of

    missing = [m for m in {study.mulan_name(d) for d in study.datasets} - {None}
               if m in registry.names() and not Path(study.dataset_file_of(m)).is_file()]
    if not missing:
        return
    configured = study.data.get("mirror")
    try:
        check_mirror(configured)
    except StratbenchError as exc:
        raise StratbenchError(f"config: {exc}") from None
    mirror = resolve_mirror(configured)
    if mirror is not None and Path(mirror).is_dir():
        for m in sorted(missing):
            absent = [f.path for f in registry.entry(m).files if not Path(source_of(f, mirror)).is_file()]
            if absent:
                raise StratbenchError(f"config: dataset {m!r}: {absent[0]} is not in the MULAN mirror {mirror}; add "
                                      "it there (laid out as <folder>/<dataset>/<file>), or unset the mirror to "
                                      "download it")


def _check_split_files(study, name: str, spec: dict) -> None:
    """A stratifier that reads folds from files (``from_file``): each dataset's file exists, holds the study's
    repeats, and partitions the dataset's rows into its k."""
    from stratbench.io import read_openml_splits

    path = (spec.get("params") or {}).get("path")
    if not path:
        raise StratbenchError(f"config: stratifier {name!r} needs params: {{path: …}} (an OpenML split file; "
                              "{dataset} stands for the dataset)")
    for d in study.datasets:
        file = path.replace("{dataset}", d)
        try:
            splits = read_openml_splits(file, study.shape(d)[0])
        except StratbenchError as exc:
            raise StratbenchError(f"config: stratifier {name!r}: {exc}") from None
        missing = sorted(set(study.repeats) - set(splits))
        if missing or any(int(f.max()) + 1 != study.n_splits for f in splits.values()):
            raise StratbenchError(f"config: stratifier {name!r}: {file} lacks repeats {missing} or has not "
                                  f"{study.n_splits} folds")


def _check_synthetic(name: str, params: dict) -> None:
    """A synthetic dataset whose cardinality its dependence cannot realise stops here, before any job (the
    generator's first draws, remembered in the working folder as the method checks are)."""
    from stratbench.datasets import synthetic

    mark = memo_file("synthetic", [name, params], Path(synthetic.__file__).read_bytes())
    if mark.is_file():
        return
    try:
        synthetic.label_model(name, **params)
    except StratbenchError as exc:
        raise StratbenchError(f"config: {exc}") from None
    remember(mark, f"{name}\n")


def _check_strata(study) -> None:
    """Columns stratified on beside the labels (``strata:``) are read by a kind that says so (a benchmark: its
    make_folds jobs read them); a
    weight other than 1 needs every stratifier of the study to weigh columns (the others refuse weights)."""
    declared = {d: study.strata_spec(d) for d in study.datasets if study.strata_spec(d)}
    if declared and not study.kind_class().reads_strata:
        raise StratbenchError(f"config: dataset {next(iter(declared))!r} declares strata: a {study.kind} study does not "
                              "read them; declare them in a benchmark study")
    weighted = sorted({f"{d}.{c}" for d, spec in declared.items() for c, e in spec.items() if e.get("weight", 1) != 1})
    if weighted:
        unweighing = [n for n in study.stratifiers if not getattr(study.method_class("stratifier", n), "weighs_labels",
                                                                   False)]
        if unweighing:
            raise StratbenchError(f"config: strata {weighted} weigh other than 1, and stratifiers {unweighing} do not "
                                  "weigh columns (iterative, sois, hybrid and optisplit do): leave the weights at 1, or "
                                  "leave those stratifiers out")


def _check_groups(study) -> None:
    """Grouped datasets are split by a kind that says so (the grid), by stratifiers that split whole groups;
    the group baselines (``needs_groups``) split grouped datasets only."""
    grouped = [d for d in study.datasets if study.grouped(d)]
    if grouped and not study.kind_class().splits_groups:
        raise StratbenchError(f"config: dataset {grouped[0]!r} is grouped: grouped datasets are split by a grid "
                              "study (kind: grid, grid: {n_splits: [...]}, as config/grouped2026.yaml)")
    for name in study.stratifiers:
        cls = study.method_class("stratifier", name)
        if grouped and not cls.supports_groups:
            raise StratbenchError(f"config: stratifier {name!r} does not split by groups, and dataset "
                                  f"{grouped[0]!r} is grouped: its rows would leak across folds")
        ungrouped = [d for d in study.datasets if not study.grouped(d)]
        if ungrouped and getattr(cls, "needs_groups", False):
            raise StratbenchError(f"config: stratifier {name!r} splits grouped data only, and dataset "
                                  f"{ungrouped[0]!r} has no groups (give it groups: {{clusters: 15}})")

def _try_method_once(study, kind: str, name: str, spec: dict) -> None:
    """:func:`_try_method`, remembered: a method whose class (its module's source) and parameters were tried
    before in this working folder is not tried again, so planning a study again costs no toy fits (and no
    scikit-learn import)."""
    cls = study.method_class(kind, name)
    try:
        source = Path(inspect.getfile(cls)).read_bytes()
    except (OSError, TypeError):
        source = b""
    mark = memo_file("checked", [kind, name, spec, study.forest if kind == "classifier" else {}, study.n_splits,
                                 cls.__module__, cls.__qualname__], source)
    if mark.is_file():
        return
    _try_method(study, kind, name, spec)
    remember(mark, f"{kind} {name}\n")


def _try_method(study, kind: str, name: str, spec: dict) -> None:
    """Build the method with its parameters and run it on a toy problem, so that a parameter it does
    not take, or a value it refuses, stops now with one line naming it."""
    from stratbench.stratifiers.base import tiny_labels  # the toy a compiled method's kernels first compile on

    k = study.n_splits
    if kind == "stratifier" and getattr(study.method_class(kind, name), "context", ()):
        _check_split_files(study, name, spec)  # folds read from files (from_file): the files, not a toy split
        return
    Y = tiny_labels(k).toarray()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if kind == "stratifier":
                groups = np.arange(len(Y)) // 2 if getattr(study.method_class(kind, name), "needs_groups", False) else None
                study.stratifier(name, n_splits=k, random_state=0).fold_ids(Y, groups)
            else:
                model = study.classifier(name, random_state=0)
                forest = model.make_forest(0) if hasattr(model, "make_forest") else None
                if hasattr(forest, "_validate_params"):
                    forest._validate_params()  # the forest's own parameter constraints, n_estimators included
                if isinstance(getattr(model, "n_estimators", None), int) and model.n_estimators > 2:
                    model.n_estimators = 2  # a small forest for the toy fit
                model.fit(np.arange(len(Y), dtype=float)[:, None], Y)
    except Exception as exc:  # noqa: BLE001 - any refusal is a config error here
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise StratbenchError(f"config: {kind} {name!r} with params {spec.get('params', {})}: {message}") from None
