"""The papers stratbench reproduces, one module each (``sechidis2011``, ``szymanski2017``,
``tiittanen2021``): a module declares everything about its paper as a subclass of :class:`Paper` and names
an instance ``PAPER``: its published CSVs (shipped in ``stratbench/data/published``), name maps, judging
criteria, comparison, the named causes of the cells that differ, and the tables it prints (their names and
layouts). The report (:mod:`stratbench.papers.reproduction`), the paper tables (:mod:`stratbench.papers.tables`),
the workflow and the config check find papers here and nothing else.

Adding a paper = one module defining ``PAPER`` and its CSVs: put in this folder (found by its folder, no
list to edit), or named in a study's config by dotted path (``reproduces: mypapers.toy2030.PAPER``, with
``import_paths``), which :func:`get` imports and registers; :func:`register` adds one from code.
"""

import importlib
import pkgutil

from stratbench import StratbenchError
from stratbench._registry import import_object
from stratbench.papers._paper import COLUMNS, Cause, Paper, StudyTables

_PAPERS: dict[str, Paper] = {}


def _found() -> dict[str, Paper]:
    """The registry, first filled with the ``PAPER`` of every public module in this folder."""
    if not _PAPERS:
        for module in pkgutil.iter_modules(__path__):
            if not module.name.startswith("_"):
                paper = getattr(importlib.import_module(f"{__name__}.{module.name}"), "PAPER", None)
                if isinstance(paper, Paper):
                    _PAPERS.setdefault(paper.name, paper)
    return _PAPERS


def register(paper: Paper) -> Paper:
    """Add ``paper`` to the registry (by its name)."""
    _found()[paper.name] = paper
    return paper


def get(name: "str | Paper") -> Paper:
    """The paper found as ``name``, or the :class:`Paper` (an instance, or a subclass to instantiate) at the
    dotted path ``name`` (``module.ATTRIBUTE``), imported and registered under its own name."""
    if isinstance(name, Paper):
        return name
    known = _found()
    if name in known:
        return known[name]
    if "." in name:
        paper = import_object(name, "paper")
        if isinstance(paper, type) and issubclass(paper, Paper):
            paper = paper()
        if not isinstance(paper, Paper):
            raise StratbenchError(f"{name!r} is a {type(paper).__name__}, not a stratbench.papers.Paper")
        return register(paper)
    raise StratbenchError(f"no published tables for {name!r}; known: {', '.join(known)} "
                          f"(or a dotted path to a Paper, such as mypapers.toy2030.PAPER)")


def names() -> list[str]:
    return list(_found())


def criterion(table: str) -> str:
    """The criterion a report table (e.g. "Table 4 (BR)", "Szymański Table 1") is judged by."""
    return next((c for paper in _found().values() if (c := paper.criterion(table))), "")


__all__ = ["COLUMNS", "Cause", "Paper", "StudyTables", "criterion", "get", "names", "register"]
