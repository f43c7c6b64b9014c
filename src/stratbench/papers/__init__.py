"""The papers stratbench reproduces, one module each (``sechidis2011``, ``szymanski2017``,
``tiittanen2021``): a module declares everything about its paper as one :class:`Paper`: its published
CSVs (shipped in ``stratbench/data/published``), name maps, judging criteria, comparison, the named causes
of the cells that differ, and the tables it prints (their names and layouts). The report
(:mod:`stratbench.reproduction`), the paper tables (:mod:`stratbench.papers.tables`), the workflow and the
config check read this registry and nothing else.

Adding a paper = one module defining ``PAPER`` and its CSVs: listed here, or named in a study's config by
dotted path (``reproduces: mypapers.toy2030.PAPER``, with ``import_paths``), which :func:`get` imports and
registers; :func:`register` adds one from code (e.g. a test's toy paper).
"""

from stratbench import StratbenchError
from stratbench._registry import import_object
from stratbench.papers import sechidis2011, szymanski2017, tiittanen2021
from stratbench.papers._paper import COLUMNS, Cause, Paper, StudyTables

_PAPERS: dict[str, Paper] = {m.PAPER.name: m.PAPER for m in (sechidis2011, szymanski2017, tiittanen2021)}


def register(paper: Paper) -> Paper:
    """Add ``paper`` to the registry (by its name)."""
    _PAPERS[paper.name] = paper
    return paper


def get(name: str) -> Paper:
    """The paper registered as ``name``, or the :class:`Paper` at the dotted path ``name``
    (``module.ATTRIBUTE``), imported and registered under its own name."""
    if name in _PAPERS:
        return _PAPERS[name]
    if "." in name:
        paper = import_object(name, "paper")
        if not isinstance(paper, Paper):
            raise StratbenchError(f"{name!r} is a {type(paper).__name__}, not a stratbench.papers.Paper")
        return register(paper)
    raise StratbenchError(f"no published tables for {name!r}; known: {', '.join(_PAPERS)} "
                          f"(or a dotted path to a Paper, such as mypapers.toy2030.PAPER)")


def names() -> list[str]:
    return list(_PAPERS)


def criterion(table: str) -> str:
    """The criterion a report table (e.g. "Table 4 (BR)", "Szymański Table 1") is judged by."""
    return next((c for paper in _PAPERS.values() if (c := paper.criterion(table))), "")


__all__ = ["COLUMNS", "Cause", "Paper", "StudyTables", "criterion", "get", "names", "register"]
