"""What a paper is to stratbench, and the judging every paper shares: the report's columns, the rules
that compare a printed number with ours, and the verdict of a cell."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

COLUMNS = ["table", "classifier", "group", "dataset", "stratifier", "measure", "ours", "ours_std", "published",
           "published_std", "difference", "agrees", "verdict", "note"]
TEXT_COLUMNS = ("table", "classifier", "group", "dataset", "stratifier", "measure", "verdict", "note")


@dataclass(frozen=True)
class Cause:
    """A proven reason why some cells of a paper differ from ours: ``name``, the cells it explains
    (``applies(row)``), and what it is with its evidence (a test, a measurement, the published code)."""

    name: str
    applies: Callable[[pd.Series], bool]
    evidence: str


@dataclass(frozen=True)
class Study:
    """What a paper's comparison reads of a study: its tables (``statistics``, ``fold_quality`` summary,
    and where the paper needs them ``summary``, ``ranks``, ``runtime``, the per-fold ``scores``, the
    ``network`` stability summary), k, its stratifiers, its groups."""

    statistics: pd.DataFrame
    fold_quality: pd.DataFrame
    n_splits: int
    stratifiers: list[str]
    summary: pd.DataFrame | None = None
    ranks: pd.DataFrame | None = None
    runtime: pd.DataFrame | None = None
    groups: dict | None = None
    scores: pd.DataFrame | None = None
    network: pd.DataFrame | None = None


@dataclass(frozen=True)
class Paper:
    """One reproduced paper: its citation; its published tables (``tables``: key → (CSV file, dtype of the
    columns whose printed digits matter), read from ``folder``, by default the package's
    ``data/published``); the judging criterion of each of its tables (``criteria``: table-name prefix →
    text); the named ``causes`` of the cells that differ; ``compare(paper, study)`` → the report's rows;
    ``needs``: the study tables beyond statistics and the fold-quality summary that it compares
    (``runtime``; ``summary``, ``ranks`` and ``scores`` where the study has classifiers); ``layouts`` and
    ``score_layouts``: its tables as it prints them, made from a study's tables (a dict of statistics,
    fold_quality, runtime, summary, ranks) in the stratifiers' ``order``
    (:class:`stratbench.table_format.PaperTable`; the fold-quality ones, then the classifier ones);
    ``claim_ranks(study)``: where the paper's claims are judged by average ranks, every method's rank behind
    them (a frame of panel, classifier, measure, stratifier, average_rank, datasets), drawn as the
    workflow's ``paper_claims`` figure."""

    name: str
    citation: str
    tables: dict[str, tuple[str, dict | None]]
    criteria: dict[str, str]
    compare: Callable[[Paper, Study], pd.DataFrame]
    causes: list[Cause] = field(default_factory=list)
    needs: tuple[str, ...] = ()
    folder: Path | None = None
    layouts: Callable[[dict, list | None], list] | None = None
    score_layouts: Callable[[dict, list | None], list] | None = None
    claim_ranks: Callable[[Study], pd.DataFrame] | None = None

    def published(self) -> dict[str, pd.DataFrame]:
        """The published tables, by key; columns whose printed precision matters are read as text."""
        return {key: self._read(file, dtype) for key, (file, dtype) in self.tables.items()}

    def _read(self, file: str, dtype) -> pd.DataFrame:
        base = self.folder if self.folder is not None else resources.files("stratbench").joinpath("data/published")
        return pd.read_csv(io.StringIO(base.joinpath(file).read_text(encoding="utf-8")), dtype=dtype)

    def criterion(self, table: str) -> str:
        return next((text for prefix, text in self.criteria.items() if table.startswith(prefix)), "")


def rows(**columns) -> pd.DataFrame:
    """Report rows with every column of :data:`COLUMNS` (text ones empty, numbers NaN, ``agrees`` as
    True, False or NA for undetermined)."""
    frame = pd.DataFrame(columns)
    for c in COLUMNS:
        if c not in frame:
            frame[c] = "" if c in TEXT_COLUMNS else np.nan
    frame["agrees"] = frame["agrees"].astype("boolean")
    return frame[COLUMNS]


def half_unit(printed: str) -> float:
    """Half a unit of the last printed digit: '0.0267' → 0.00005, '788' → 0.5."""
    decimals = len(printed.split(".")[1]) if "." in printed else 0
    return 0.5 * 10.0**-decimals


def within_repeats(ours: float, spread: float, repeats: int, printed: str, published_runs: int | None = None):
    """(agrees, band): |ours − published| within 2 × our std over ``repeats`` (of a single published
    run), or within 2 standard errors of the difference of two means (``published_runs`` runs), plus
    half the printed last digit; undetermined (NA) with one repeat. A deterministic split (std 0) must
    equal the printed digits."""
    if repeats < 2 or np.isnan(spread):
        return pd.NA, "undetermined: one repeat, no spread"
    s = spread * np.sqrt(repeats / (repeats - 1))  # ddof 1
    band = 2 * s if published_runs is None else 2 * s * np.sqrt(1 / repeats + 1 / published_runs)
    return abs(ours - float(printed)) <= band + half_unit(printed) + 1e-12, band


def in_paper_names(ours: pd.DataFrame, stratifier_names: dict, dataset_names: dict) -> pd.DataFrame:
    """Our rows of the compared stratifiers, with datasets, stratifiers and classifiers as the paper names them."""
    ours = ours[ours["stratifier"].isin(stratifier_names)]
    renamed = dict(dataset=ours["dataset"].map(lambda d: dataset_names.get(d, d)),
                   stratifier=ours["stratifier"].map(stratifier_names))
    if "classifier" in ours:
        renamed["classifier"] = ours["classifier"].str.upper()
    return ours.assign(**renamed)


def unavailable(table: str, paper_rows: pd.DataFrame, ours: set, reason: str) -> pd.DataFrame:
    """One row per dataset of the paper's table that the study does not have, with the reason."""
    missing = [d for d in dict.fromkeys(paper_rows["dataset"]) if d not in ours]
    return rows(table=[table] * len(missing), dataset=missing, measure=[""] * len(missing),
                agrees=[pd.NA] * len(missing), note=[reason] * len(missing))


def table_rows(table: str, cells: list[dict], paper_rows: pd.DataFrame, present: set, reason: str) -> pd.DataFrame:
    """One table's judged ``cells`` (dicts of dataset, stratifier, measure, ours, ours_std, published,
    agrees, note), then a row per dataset of the paper's table that the study does not have."""
    frame = rows(table=table, **pd.DataFrame(cells, columns=["dataset", "stratifier", "measure", "ours", "ours_std",
                                                            "published", "agrees", "note"]))
    return pd.concat([frame, unavailable(table, paper_rows, present, reason)], ignore_index=True)


def verdict(row: pd.Series, causes: list[Cause]) -> str:
    """``agrees``; ``differs: <cause>`` where a cause of the paper explains the cell; ``unexplained``;
    or ``undetermined`` (no criterion applies: one repeat, other datasets, a runtime, a missing dataset)."""
    if row["measure"] in ("", "runtime_s") or pd.isna(row["agrees"]):
        return "undetermined"
    if bool(row["agrees"]):
        return "agrees"
    cause = next((c.name for c in causes if c.applies(row)), None)
    return f"differs: {cause}" if cause else "unexplained"
