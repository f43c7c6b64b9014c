"""stratbench — a reproducible benchmark harness for multi-label cross-validation.

Sub-packages: :mod:`stratbench.datasets` (MULAN reader, registry, download, synthetic generator),
:mod:`stratbench.stratifiers` (scikit-learn compatible multi-label cross-validators),
:mod:`stratbench.classifiers` (multi-label classifiers over random forests). Modules:
:mod:`stratbench.measures.fold_quality`, :mod:`stratbench.measures.classification`, :mod:`stratbench.tables.summary`,
:mod:`stratbench.figures`, :mod:`stratbench.seeds`, :mod:`stratbench.config`.
"""

__version__ = "0.1.0"


class StratbenchError(ValueError):
    """An error caused by the user's input (a file, a config value); its message says which."""
