"""stratbench — a reproducible benchmark harness for multi-label cross-validation.

Sub-packages: :mod:`stratbench.datasets` (MULAN reader, registry, download, synthetic generator),
:mod:`stratbench.stratifiers` (scikit-learn compatible multi-label cross-validators),
:mod:`stratbench.classifiers` (multi-label classifiers over random forests), :mod:`stratbench.measures`
(fold quality, classification measures, their names and directions), :mod:`stratbench.tables` (summaries and
printed tables), :mod:`stratbench.papers` (the reproduced papers), :mod:`stratbench.grid` (the fold-quality
benchmark), :mod:`stratbench.cv_error` (the error of the CV estimate per stratifier), :mod:`stratbench.cost`
(a study's cost). Modules: :mod:`stratbench.model_selection` (the cross-validators users know),
:mod:`stratbench.figures`, :mod:`stratbench.seeds`, :mod:`stratbench.config` (a study's config),
:mod:`stratbench.study`.
"""

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


__all__ = ["StratbenchError", "__version__", *_MODEL_SELECTION]
