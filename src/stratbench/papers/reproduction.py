"""Reproduction report: a study's numbers beside a paper's published ones, cell by cell.

Each paper is a :class:`stratbench.papers.Paper` (its published tables, criteria, comparison and the named
causes of the cells that differ). The report (:meth:`Paper.report`) gives, for every comparable cell, our
value, the published one, the difference, whether they agree by the paper's criterion (``agrees``: True,
False or NA for undetermined, the reason in ``note``) and a ``verdict``: ``agrees``, ``differs: <cause>``,
``unexplained`` or ``undetermined``. It is written as CSV (the rows), and as Markdown and HTML from one list
of sections (:func:`sections`): a summary line per table, the causes with their evidence, what was ruled
out for the unexplained cells, the cells that disagree, and every compared cell.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import pandas as pd

from stratbench import StratbenchError, papers
from stratbench.papers import COLUMNS, Paper, StudyTables
from stratbench.tables.documents import html_document


def published(paper: str | Paper) -> dict[str, pd.DataFrame]:
    """The published tables of ``paper`` by key (e.g. ``published("sechidis2011")["table2"]``)."""
    return papers.get(paper).published()


def reproduction(paper: str | Paper, study: StudyTables) -> pd.DataFrame:
    """Every comparable cell of ``paper``'s tables for the study's tables ``study``: ours, published,
    difference, agreement, verdict (:meth:`Paper.report`)."""
    return papers.get(paper).report(study)


def claim_ranks(paper: str | Paper, study: StudyTables) -> pd.DataFrame:
    """The average ranks behind ``paper``'s claims (its :meth:`Paper.claim_ranks`), with each panel as the rank
    figure's group: the claim, and for a classifier's measures the classifier."""
    paper = papers.get(paper)
    if not paper.judges_claims_by_ranks:
        raise StratbenchError(f"the study's paper ({paper.name}) has no claims judged by ranks; those that have: "
                              f"{', '.join(n for n in papers.names() if papers.get(n).judges_claims_by_ranks)}")
    ranks = paper.claim_ranks(study)
    panel = ranks["panel"].str.replace(r"^.*claim: ", "", regex=True)
    return ranks.assign(group=panel.where(ranks["classifier"] == "", panel + " — " + ranks["classifier"].str.upper()))


def summary_lines(report: pd.DataFrame) -> list[str]:
    """One line per table: how many comparable cells agree."""
    lines = []
    for table, part in report.groupby("table", sort=False):
        unavailable = part.loc[part["measure"] == "", "dataset"].tolist()
        cells = part[~part["measure"].isin(["", "runtime_s"])]  # runtimes are shown, not judged
        causes = cells["cause"] if "cause" in cells else pd.Series("", index=cells.index)
        agree = int(cells["agrees"].eq(True).sum())
        explained = int(causes.fillna("").ne("").sum())
        unexplained = int(cells["agrees"].eq(False).sum()) - explained
        undetermined = len(cells) - agree - explained - unexplained
        criterion = papers.criterion(table)
        line = (f"{table}: {agree} of {len(cells)} cells agree ({criterion}); {explained} differ with a named cause, "
                f"{unexplained} unexplained")
        line += f"; {undetermined} undetermined" if undetermined else ""
        line += f"; datasets not available: {', '.join(unavailable)}" if unavailable else ""
        lines.append(line + ".")
    return lines


@dataclass(frozen=True)
class Section:
    """One section of the report: a ``title`` (empty: none) over a paragraph (``text``), a list of items
    (``items``: (bold lead, the text that follows it) pairs, the lead possibly empty) or a table of cells
    (``cells``)."""

    title: str
    text: str = ""
    items: tuple[tuple[str, str], ...] | None = None
    cells: pd.DataFrame | None = None
    empty: str = "none"  # what a list or table without entries says


def sections(report: pd.DataFrame, paper: str | Paper, study: str, made_with: str = "") -> list[Section]:
    """The report's sections, in order: the citation, what made it (``made_with``: commit, versions,
    machine), a summary line per table, the causes that explain cells, what was ruled out for the
    unexplained cells, the cells that disagree, and every compared cell."""
    paper = papers.get(paper)
    out = [Section("", paper.citation)]
    if made_with:
        out.append(Section("", f"Made with {made_with}. The CPU hours of each claim: `results/{study}/claims.tsv`; "
                               f"of each rule, with the config and data files: `results/{study}/provenance.json`."))
    out.append(Section("Summary", items=tuple(("", line) for line in summary_lines(report)),
                       empty="nothing comparable (no shared datasets or methods)"))
    counts = report["cause"].value_counts() if "cause" in report else pd.Series(dtype=int)
    used = tuple((c.name, f" ({int(counts[c.name])} cells): {c.evidence}") for c in paper.causes if counts.get(c.name, 0))
    if used:
        out.append(Section("Causes of the cells that differ", items=used))
    looked_at = _ruled_out(report, paper)
    if looked_at:
        out.append(Section("Unexplained cells: what was ruled out", items=tuple((c, f": {t}") for c, t in looked_at)))
    out.append(Section("Cells that do not agree", cells=_shown(report[report["agrees"].eq(False).fillna(False)])))
    out.append(Section("Every compared cell", cells=_shown(report)))
    return out


def _ruled_out(report: pd.DataFrame, paper: Paper) -> list[tuple[str, str]]:
    """Each (table, dataset, stratifier) with unexplained cells, with what the paper says was ruled out for
    it (its ``ruled_out``), or that nothing was yet."""
    unexplained = report[report["verdict"].eq("unexplained")] if "verdict" in report else report.iloc[:0]
    out = []
    for key, part in unexplained.groupby(["table", "dataset", "stratifier"], sort=False):
        cells = f"{' / '.join(k for k in key if k)}: {', '.join(part['measure'])}"
        out.append((cells, paper.ruled_out.get(key, "not yet investigated")))
    return out


def _fmt(x) -> str:
    return "" if pd.isna(x) else f"{x:.4g}"


def _shown(part: pd.DataFrame) -> pd.DataFrame:
    """The report's rows as shown: numbers to 4 significant digits, ``agrees`` as yes / no / –, and only the
    columns that hold something."""
    shown = part.assign(**{c: part[c].map(_fmt) for c in ("ours", "ours_std", "published", "published_std", "difference")})
    shown = shown.assign(agrees=shown["agrees"].map({True: "yes", False: "no"}).fillna("–"))
    return shown[[c for c in COLUMNS if c == "agrees" or shown[c].astype(str).str.len().gt(0).any()]]


def _title(paper: Paper, study: str) -> str:
    return f"Reproduction of {paper.name} by the study `{study}`"


def reproduction_markdown(report: pd.DataFrame, paper: str | Paper, study: str, made_with: str = "") -> str:
    """The report as Markdown (:func:`sections`)."""
    paper = papers.get(paper)  # found once: the sections and the title take the Paper
    lines = [f"# {_title(paper, study)}"]
    for s in sections(report, paper, study, made_with):
        lines += ["", f"## {s.title}"] if s.title else []
        if s.items is not None:
            lines += [""] + ([f"- **{lead}**{text}" if lead else f"- {text}" for lead, text in s.items]
                             or [f"- {s.empty}"])
        elif s.cells is not None:
            shown = s.cells.assign(agrees=s.cells["agrees"].replace({"no": "**no**"})) if len(s.cells) else s.cells
            lines += ["", shown.to_markdown(index=False) if len(shown) else s.empty]
        else:
            lines += ["", s.text]
    return "\n".join(lines) + "\n"


def reproduction_html(report: pd.DataFrame, paper: str | Paper, study: str, made_with: str = "") -> str:
    """The report as a self-contained HTML page (for the Snakemake report), the same sections as the Markdown."""
    paper = papers.get(paper)  # found once: the sections and the title take the Paper
    body = [f"<h1>{html.escape(_title(paper, study)).replace('`', '')}</h1>"]
    for s in sections(report, paper, study, made_with):
        body += [f"<h2>{html.escape(s.title)}</h2>"] if s.title else []
        if s.items is not None:
            items = "".join(f"<li><b>{html.escape(lead)}</b>{html.escape(text)}</li>" if lead
                            else f"<li>{html.escape(text)}</li>" for lead, text in s.items)
            body.append(f"<ul>{items or f'<li>{html.escape(s.empty)}</li>'}</ul>")
        elif s.cells is not None:  # the note column (last) wraps
            body.append(s.cells.to_html(index=False, na_rep="", escape=True, border=0, classes="report")
                        if len(s.cells) else f"<p>{html.escape(s.empty)}</p>")
        else:
            body.append(f"<p>{html.escape(s.text)}</p>")
    return html_document(f"Reproduction of {paper.name}", "".join(body))
