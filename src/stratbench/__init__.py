"""stratbench — a reproducible benchmark harness for multi-label cross-validation.

Sub-packages: :mod:`stratbench.datasets` (MULAN reader, registry, download, synthetic generator),
:mod:`stratbench.stratifiers` (scikit-learn compatible multi-label cross-validators),
:mod:`stratbench.classifiers` (multi-label classifiers over random forests), :mod:`stratbench.measures`
(fold quality, classification measures, their names and directions), :mod:`stratbench.tables` (summaries and
printed tables), :mod:`stratbench.papers` (the reproduced papers). Modules: :mod:`stratbench.figures`,
:mod:`stratbench.seeds`, :mod:`stratbench.config` (a study's config), :mod:`stratbench.study`.
"""

__version__ = "0.1.0"


class StratbenchError(ValueError):
    """An error caused by the user's input (a file, a config value); its message says which."""
