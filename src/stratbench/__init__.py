"""stratbench — a reproducible benchmark harness for multi-label cross-validation.

Rooms, from the ground up: :mod:`stratbench.labels` (the label matrix, targets, label co-occurrence graphs),
:mod:`stratbench.datasets` (MULAN reader, registry, download, synthetic generator), :mod:`stratbench.stratifiers`
(the multi-label splitting methods), :mod:`stratbench.classifiers` (multi-label classifiers over random forests,
and a fold assignment's evaluation), :mod:`stratbench.measures` (fold quality, classification measures, their names
and directions), :mod:`stratbench.stats` (ranks, Friedman and Nemenyi), :mod:`stratbench.model_selection` (the
cross-validators users know, and their conformance certificate), :mod:`stratbench.tables` (summaries and printed
tables), :mod:`stratbench.papers` (the reproduced papers and the reproduction report), :mod:`stratbench.figures`
(drawing), :mod:`stratbench.grid` (the fold-quality benchmark), :mod:`stratbench.cv_error` (the error of the CV
estimate per stratifier), :mod:`stratbench.study` (the study and its plan), :mod:`stratbench.records` (a run's
records: provenance, manifest, archive), :mod:`stratbench.jobs` (the workflow's job side), :mod:`stratbench.cost`
(a study's cost). Base modules: :mod:`stratbench.io`, :mod:`stratbench.seeds`.
"""

import sys as _sys

from stratbench._warn import MovedModules as _MovedModules

__version__ = "0.1.0"


class StratbenchError(ValueError):
    """An error caused by the user's input (a file, a config value); its message says which."""


# the cross-validators users know (iterative-stratification's and scikit-multilearn's names), from
# stratbench.model_selection when first used: `import stratbench` stays light
_MODEL_SELECTION = ("IterativeStratification", "MultilabelStratifiedGroupKFold", "MultilabelStratifiedKFold",
                    "MultilabelStratifiedShuffleSplit", "RepeatedMultilabelStratifiedKFold", "distinct_test_sets",
                    "iterative_train_test_split")


def __getattr__(name: str):
    if name in _MODEL_SELECTION:  # imported by name: the package's root imports none of its floors
        import importlib

        return getattr(importlib.import_module("stratbench.model_selection"), name)
    raise AttributeError(f"module 'stratbench' has no attribute {name!r}")


# modules grouped into rooms, importable by their old paths for one release
MOVED = {f"stratbench.{old}": f"stratbench.{new}" for old, new in (
    ("config", "study.config"), ("plans", "study.plans"), ("study_figures", "study.figures"),
    ("provenance", "records.provenance"), ("bundle", "records.bundle"), ("_versions", "records.versions"),
    ("_snakemake", "jobs.script"), ("jobserver", "jobs.server"), ("evaluation", "classifiers.evaluation"),
    ("network", "labels.network"), ("reproduction", "papers.reproduction"),
    ("conformance", "model_selection.conformance"))}
if not any(isinstance(finder, _MovedModules) for finder in _sys.meta_path):
    _sys.meta_path.append(_MovedModules(MOVED))

__all__ = ["StratbenchError", "__version__", *_MODEL_SELECTION]
