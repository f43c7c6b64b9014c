"""The papers stratbench reproduces, one module each (``sechidis2011``, ``szymanski2017``,
``tiittanen2021``): a module owns a paper's published CSVs (shipped in ``stratbench/data/published``),
its name maps, its criteria, its comparison and the named causes of the cells that differ, as one
:class:`Paper`. The report (:mod:`stratbench.reproduction`), the workflow and the config check read this
registry. Adding a paper = one module defining ``PAPER`` (listed here) and its CSVs; :func:`register`
adds one from elsewhere (e.g. a test's toy paper).
"""

from stratbench.papers import sechidis2011, szymanski2017, tiittanen2021
from stratbench.papers._paper import COLUMNS, Cause, Paper, Study

_PAPERS: dict[str, Paper] = {m.PAPER.name: m.PAPER for m in (sechidis2011, szymanski2017, tiittanen2021)}


def register(paper: Paper) -> Paper:
    """Add ``paper`` to the registry (by its name)."""
    _PAPERS[paper.name] = paper
    return paper


def get(name: str) -> Paper:
    if name not in _PAPERS:
        raise KeyError(f"no published tables for {name!r}; known: {', '.join(_PAPERS)}")
    return _PAPERS[name]


def names() -> list[str]:
    return list(_PAPERS)


def criterion(table: str) -> str:
    """The criterion a report table (e.g. "Table 4 (BR)", "Szymański Table 1") is judged by."""
    return next((c for paper in _PAPERS.values() if (c := paper.criterion(table))), "")


__all__ = ["COLUMNS", "Cause", "Paper", "Study", "criterion", "get", "names", "register"]
