"""What a paper is to stratbench, and the judging every paper shares: the report's columns, the rules
that compare a printed number with ours, and the verdict of a cell."""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

import numpy as np
import pandas as pd

COLUMNS = ["table", "classifier", "group", "dataset", "stratifier", "measure", "ours", "ours_std", "published",
           "published_std", "difference", "agrees", "verdict", "cause", "note"]
TEXT_COLUMNS = ("table", "classifier", "group", "dataset", "stratifier", "measure", "verdict", "cause", "note")


@dataclass(frozen=True)
class Cause:
    """A proven reason why some cells of a paper differ from ours: ``name``, the cells it explains, and
    what it is with its evidence (a test, a measurement, the published code). The cells it explains are
    those where ``applies(row)`` holds, or, with ``applies`` None, those whose comparison found it (the
    comparison wrote ``name`` in the row's ``cause`` column: a finding such as an offset common to every
    stratifier, which only the comparison sees)."""

    name: str
    applies: Callable[[pd.Series], bool] | None
    evidence: str

    def explains(self, row: pd.Series) -> bool:
        if self.applies is None:
            return row.get("cause", "") == self.name
        return bool(self.applies(row))


@dataclass(frozen=True, kw_only=True)
class StudyTables:
    """What a paper's comparison reads of a study: its tables (``statistics``, ``fold_quality`` summary,
    and where the paper needs them ``summary``, ``ranks``, ``runtime``, the per-fold ``scores``, the
    ``network`` stability summary), k, its stratifiers, its groups."""

    statistics: pd.DataFrame = field(default_factory=pd.DataFrame)
    fold_quality: pd.DataFrame
    n_splits: int = 0
    stratifiers: list[str] = field(default_factory=list)
    stratifier_specs: dict = field(default_factory=dict)  # name → the config's entry (``params`` …), where given
    summary: pd.DataFrame | None = None
    ranks: pd.DataFrame | None = None
    runtime: pd.DataFrame | None = None
    groups: dict | None = None
    scores: pd.DataFrame | None = None
    network: pd.DataFrame | None = None

    @classmethod
    def read(cls, files: Mapping[str, str | Path], stratifiers: list | dict = (), **fields) -> StudyTables:
        """The tables of a study read from its CSV ``files`` (keys: the table fields, e.g. ``fold_quality``;
        other keys ignored), with its ``stratifiers`` (names, or the config's entries by name: what each ran
        with) and the other ``fields`` (``n_splits``, ``groups``)."""
        tables = {k: pd.read_csv(files[k]) for k in TABLE_FIELDS if k in files}
        specs = dict(stratifiers) if isinstance(stratifiers, dict) else {}
        return cls(**tables, stratifiers=list(stratifiers), stratifier_specs=specs, **fields)


TABLE_FIELDS = ("statistics", "fold_quality", "summary", "ranks", "runtime", "scores", "network")


class Paper:
    """A paper stratbench reproduces. A paper is a subclass that declares, as class attributes:

    - ``name`` and ``citation``;
    - ``tables``: its published tables, key → (CSV file, dtype of the columns whose printed digits matter),
      read from ``folder`` (by default the package's ``data/published``);
    - ``criteria``: the judging criterion of each of its report tables (table-name prefix → text);
    - ``causes``: the named causes of the cells that differ; ``ruled_out``: what was tried for the cells
      still unexplained ((table, dataset, stratifier) → text);
    - ``needs``: the study tables beyond statistics and the fold-quality summary that ``compare`` reads
      (``runtime``; ``summary``, ``ranks`` and ``scores`` where the study has classifiers; ``network``);
    - ``prints``: the names of the tables :meth:`layouts` makes, in print order (``fold_quality_table``:
      the one of them that holds its fold-quality measures), and ``prints_per_classifier``: the names of
      those :meth:`score_layouts` makes, with ``{classifier}``; so the workflow knows every file before a
      job runs;

    and implements :meth:`compare` (the report's rows), and where the paper has them :meth:`layouts`,
    :meth:`score_layouts` (its tables as it prints them), :meth:`claim_ranks` (the average ranks its claims
    are judged by, drawn as the ``paper_claims`` figure) and :meth:`one_draw_cells` (its printed cells that
    are one draw of a random statistic, for ``benchmarks/one_draw_tails.py``). Its module names an
    instance ``PAPER``: modules of :mod:`stratbench.papers` are found by their folder; one outside the
    package by dotted path (``reproduces: mypapers.toy2030.PAPER``)."""

    name: str = ""
    citation: str = ""
    tables: dict[str, tuple[str, dict | None]] = {}
    criteria: dict[str, str] = {}
    causes: tuple[Cause, ...] = ()
    ruled_out: dict[tuple[str, str, str], str] = {}
    needs: tuple[str, ...] = ()
    folder: Path | None = None
    prints: tuple[str, ...] = ()
    fold_quality_table: str | None = None
    prints_per_classifier: tuple[str, ...] = ()

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"

    def compare(self, study: StudyTables) -> pd.DataFrame:
        """The report's rows (:func:`rows`) for ``study``: every comparable cell, ours beside the printed one,
        with ``agrees`` by the paper's criterion."""
        raise NotImplementedError(f"{type(self).__name__}.compare")

    def layouts(self, inputs: dict, order: list | None = None) -> list:
        """The tables it prints (:class:`stratbench.tables.format.PaperTable`, named as ``prints``) made from a
        study's tables (``inputs``: statistics, fold_quality, runtime, summary, ranks), stratifiers in ``order``."""
        return []

    def score_layouts(self, inputs: dict, order: list | None = None) -> list:
        """Its classifier tables as it prints them (named as ``prints_per_classifier``), like :meth:`layouts`."""
        return []

    def claim_ranks(self, study: StudyTables) -> pd.DataFrame:
        """Where its claims are judged by average ranks, every method's rank behind them (a frame of panel,
        classifier, measure, stratifier, average_rank, datasets)."""
        raise NotImplementedError(f"{self.name}: no claims judged by ranks")

    @property
    def judges_claims_by_ranks(self) -> bool:
        return type(self).claim_ranks is not Paper.claim_ranks

    def one_draw_cells(self) -> pd.DataFrame | None:
        """Its printed cells that are one draw of a random statistic (dataset, stratifier, measure, printed,
        runs), or None."""
        return None

    def report(self, study: StudyTables) -> pd.DataFrame:
        """Every comparable cell: ours, published, difference, agreement and verdict (:func:`judged`)."""
        report = self.compare(study)
        report["agrees"] = report["agrees"].astype("boolean")
        report["difference"] = report["ours"] - report["published"]
        return judged(report, self.causes)[COLUMNS]

    def published(self) -> dict[str, pd.DataFrame]:
        """The published tables, by key; columns whose printed precision matters are read as text."""
        return {key: self._read(file, dtype) for key, (file, dtype) in self.tables.items()}

    def _read(self, file: str, dtype) -> pd.DataFrame:
        base = self.folder if self.folder is not None else resources.files("stratbench").joinpath("data/published")
        return pd.read_csv(io.StringIO(base.joinpath(file).read_text(encoding="utf-8")), dtype=dtype)

    def criterion(self, table: str) -> str:
        return next((text for prefix, text in self.criteria.items() if table.startswith(prefix)), "")

    def classifier_table_names(self, classifiers) -> list[str]:
        """The tables this paper prints for the classifiers ``classifiers``: ``prints_per_classifier`` for each."""
        return [p.format(classifier=c) for p in self.prints_per_classifier for c in classifiers]


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


DRAW_COLUMNS = ["dataset", "stratifier", "measure", "runs", "printed", "draws", "at_or_below", "at_or_above", "min",
                "max", "mean", "std"]


def draw_tails(values, printed: str) -> dict:
    """Where a printed value lies among ``values``, our draws of the same quantity (one per seed): how many
    would print as it or below (≤ printed + half a unit) and as it or above (≥ printed − half a unit),
    with their range, mean and std (ddof 0)."""
    values = np.asarray(values, dtype=float)
    half = half_unit(printed)
    return dict(printed=printed, draws=len(values), at_or_below=int((values <= float(printed) + half + 1e-12).sum()),
                at_or_above=int((values >= float(printed) - half - 1e-12).sum()), min=float(values.min()),
                max=float(values.max()), mean=float(values.mean()), std=float(values.std()))


def draws_file(paper: str) -> str:
    """The shipped file of ``paper``'s one-draw cells measured by ``benchmarks/one_draw_tails.py``."""
    return f"{paper}_one_draw.csv"


@cache
def measured(file: str) -> pd.DataFrame:
    """One of our measurements shipped in ``stratbench/data/measured`` (written by a benchmark), e.g. the
    draws of :func:`draw_tails`; empty where the file is not there."""
    path = resources.files("stratbench").joinpath("data/measured", file)
    if not path.is_file():
        return pd.DataFrame(columns=DRAW_COLUMNS)
    return pd.read_csv(io.StringIO(path.read_text(encoding="utf-8")), dtype={"printed": str})


def tail_probability(draw: pd.Series) -> float:
    """Two-sided empirical tail probability of a printed value among our draws: 2·min(at or below, at or
    above)/draws, at most 1."""
    return min(1.0, 2 * min(draw["at_or_below"], draw["at_or_above"]) / draw["draws"])


def _draws_of(file: str, dataset: str, stratifier: str, measure: str) -> pd.Series | None:
    """The row of the measured ``file`` for one cell, or None."""
    draws = measured(file)
    hit = draws[(draws["dataset"] == dataset) & (draws["stratifier"] == stratifier) & (draws["measure"] == measure)]
    return None if hit.empty else hit.iloc[0]


def draw_note(file: str, dataset: str, stratifier: str, measure: str) -> str:
    """Where the printed value of a cell lies among our draws of it (the measured ``file``), for its note."""
    d = _draws_of(file, dataset, stratifier, measure)
    if d is None:
        return ""
    of = f" of the mean of {d['runs']} splits" if d["runs"] > 1 else ""
    return (f"; our {d['draws']} seeded draws{of}: {d['min']:.4g}–{d['max']:.4g}, {d['at_or_below']} print at or "
            f"below the published value, {d['at_or_above']} at or above (two-sided tail {tail_probability(d):.3g})")


def within_our_draws(file: str, alpha: float = 0.05, ours: dict | None = None) -> Cause:
    """The cause of a cell whose published value is one draw of a random statistic (one CV; the mean of a
    few runs) that our study's few repeats judge by too narrow or an off-centre band: a cell of the
    measured ``file`` (see :func:`draw_tails`) whose two-sided tail probability among our many draws of the
    same statistic is at least α/m, m the number of cells measured (Bonferroni over the table: at α = 0.05
    and 40 cells, about 2 fall outside a per-cell 95% band by chance alone), and whose value in the study
    lies within the draws' range (the draws are of the same code). With 1,000 draws and m ≥ 20 this is: at
    least one of our seeded draws would print as the published value or beyond it. ``ours`` maps the report's
    (paper's) dataset and stratifier names to the study's, under which the draws were measured."""
    ours = ours or {}

    def applies(row: pd.Series) -> bool:
        d = _draws_of(file, ours.get(row["dataset"], row["dataset"]), ours.get(row["stratifier"], row["stratifier"]),
                      row["measure"])
        # the draws are of our cell's code: our study's mean over its repeats lies among them
        return (d is not None and d["min"] - 1e-9 <= row["ours"] <= d["max"] + 1e-9
                and tail_probability(d) >= alpha / len(measured(file)))

    return Cause("within-our-draws", applies,
                 f"the published value is one draw of a random statistic (one CV, or the mean of a paper's runs), "
                 f"and our study's repeats place a band too narrow or off-centre for it; among our many seeded draws "
                 f"of the same statistic (src/stratbench/data/measured/{file}, benchmarks/one_draw_tails.py; the "
                 f"cell's note) its two-sided tail probability is at least α/m (α = {alpha}, m the cells measured, "
                 f"Bonferroni): our code gives it, and with m cells judged at 95% a few fall outside by chance "
                 f"(tests/test_reproduction.py::test_a_published_draw_in_the_tail_of_ours_is_one_draw)")


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


def verdict(row: pd.Series, causes: list[Cause]) -> tuple[str, str]:
    """(verdict, cause) of a cell: ``agrees``; ``differs: <cause>`` where a cause of the paper explains the
    cell (the first that does; the cause's name also in the second item); ``unexplained``; or
    ``undetermined`` (no criterion applies: one repeat, other datasets, a runtime, a missing dataset)."""
    if row["measure"] in ("", "runtime_s") or pd.isna(row["agrees"]):
        return "undetermined", ""
    if bool(row["agrees"]):
        return "agrees", ""
    cause = next((c.name for c in causes if c.explains(row)), "")
    return (f"differs: {cause}" if cause else "unexplained"), cause


def judged(report: pd.DataFrame, causes: list[Cause]) -> pd.DataFrame:
    """``report`` with its ``verdict`` and ``cause`` columns filled (:func:`verdict`, row by row)."""
    report = report.copy()
    if "cause" not in report:
        report["cause"] = ""
    report["cause"] = report["cause"].fillna("")
    judged_rows = [verdict(row, causes) for _, row in report.iterrows()]
    report["verdict"] = [v for v, _ in judged_rows]
    report["cause"] = [c for _, c in judged_rows]
    return report
