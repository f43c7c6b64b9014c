"""Reproduction report: a study's numbers beside a paper's published ones, cell by cell.

Each paper is a module of :mod:`stratbench.papers` (its published tables, criteria, comparison and the
named causes of the cells that differ). The report gives, for every comparable cell, our value, the
published one, the difference, whether they agree by the paper's criterion (``agrees``: True, False or NA
for undetermined, the reason in ``note``) and a ``verdict``: ``agrees``, ``differs: <cause>``,
``unexplained`` or ``undetermined``; one summary line per table counts them, and the report lists the
causes with their evidence.
"""

from __future__ import annotations

import html

import pandas as pd

from stratbench import StratbenchError, papers
from stratbench.papers import COLUMNS, Cause
from stratbench.papers._paper import StudyTables, judged
from stratbench.tables.documents import html_document


def published(paper: str) -> dict[str, pd.DataFrame]:
    """The published tables of ``paper`` by key (e.g. ``published("sechidis2011")["table2"]``)."""
    return papers.get(paper).published()


def reproduction(paper: str, stats: pd.DataFrame, fold_quality: pd.DataFrame, n_splits: int,
                 stratifiers: list[str] | dict, summary: pd.DataFrame | None = None,
                 ranks: pd.DataFrame | None = None, groups: dict | None = None,
                 runtime: pd.DataFrame | None = None, scores: pd.DataFrame | None = None,
                 network: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every comparable cell of ``paper``'s tables: ours, published, difference, agreement, verdict.
    ``stratifiers``: their names, or the config's entries by name (what each ran with).
    ``groups``: the study's dataset groups of the average ranks (to judge which rank rows compare);
    ``runtime``: the stratifiers' wall times (shown beside Tiittanen's); ``scores``: the per-fold scores
    (the spread of the ranks over repeats); ``network``: the network-stability summary."""
    spec = papers.get(paper)
    specs = dict(stratifiers) if isinstance(stratifiers, dict) else {}
    study = StudyTables(statistics=stats, fold_quality=fold_quality, n_splits=n_splits, stratifiers=list(stratifiers),
                        stratifier_specs=specs,
                        summary=summary, ranks=ranks, runtime=runtime, groups=groups, scores=scores, network=network)
    report = spec.compare(spec, study)
    report["agrees"] = report["agrees"].astype("boolean")
    report["difference"] = report["ours"] - report["published"]
    return judged(report, spec.causes)[COLUMNS]


def claim_ranks(paper: str, fold_quality: pd.DataFrame, summary: pd.DataFrame | None = None,
                network: pd.DataFrame | None = None) -> pd.DataFrame:
    """The average ranks behind ``paper``'s claims (its ``claim_ranks``), with each panel as the rank
    figure's group: the claim, and for a classifier's measures the classifier."""
    spec = papers.get(paper) if paper else None
    if spec is None or spec.claim_ranks is None:
        raise StratbenchError(f"the study's paper ({paper}) has no claims judged by ranks; "
                              f"those that have: {', '.join(n for n in papers.names() if papers.get(n).claim_ranks)}")
    study = StudyTables(fold_quality=fold_quality, summary=summary, network=network)
    ranks = spec.claim_ranks(study)
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


def _fmt(x) -> str:
    return "" if pd.isna(x) else f"{x:.4g}"


def _shown(part: pd.DataFrame) -> pd.DataFrame:
    """The report's rows with their numbers printed to 4 significant digits."""
    return part.assign(**{c: part[c].map(_fmt) for c in ("ours", "ours_std", "published", "published_std", "difference")})


def _disagreeing(report: pd.DataFrame) -> pd.DataFrame:
    return report[report["agrees"].eq(False).fillna(False)]


def reproduction_markdown(report: pd.DataFrame, paper: str, study: str, made_with: str = "") -> str:
    """The report as Markdown: the citation, what made it (``made_with``: commit, versions, machine), a summary
    line per table, the cells that disagree, and every table side by side."""
    lines = [f"# Reproduction of {paper} by the study `{study}`", "", papers.get(paper).citation, ""]
    if made_with:
        lines += [f"Made with {made_with}. The CPU hours of each claim: `results/{study}/claims.tsv`; of each rule, "
                  f"with the config and data files: `results/{study}/provenance.json`.", ""]
    lines += ["## Summary", ""]
    lines += [f"- {line}" for line in summary_lines(report)] or ["- nothing comparable (no shared datasets or methods)"]
    used = _causes_used(report, paper)
    if used:
        lines += ["", "## Causes of the cells that differ", ""]
        lines += [f"- **{c.name}** ({count} cells): {c.evidence}" for c, count in used]
    looked_at = _ruled_out(report, paper)
    if looked_at:
        lines += ["", "## Unexplained cells: what was ruled out", ""]
        lines += [f"- **{cells}**: {text}" for cells, text in looked_at]
    for title, part in (("Cells that do not agree", _disagreeing(report)), ("Every compared cell", report)):
        lines += ["", f"## {title}", ""]
        if part.empty:
            lines.append("none")
            continue
        shown = _shown(part)
        shown = shown.assign(agrees=shown["agrees"].map({True: "yes", False: "**no**"}).fillna("–"))
        keep = [c for c in COLUMNS if c == "agrees" or shown[c].astype(str).str.len().gt(0).any()]
        lines.append(shown[keep].to_markdown(index=False))
    return "\n".join(lines) + "\n"


def _causes_used(report: pd.DataFrame, paper: str) -> list[tuple[Cause, int]]:
    """The paper's causes that explain some cell of ``report``, with how many."""
    counts = report["cause"].value_counts() if "cause" in report else pd.Series(dtype=int)
    return [(c, int(counts.get(c.name, 0))) for c in papers.get(paper).causes if counts.get(c.name, 0)]


def _ruled_out(report: pd.DataFrame, paper: str) -> list[tuple[str, str]]:
    """Each (table, dataset, stratifier) with unexplained cells, with what the paper's module says was
    ruled out for it (its ``ruled_out``), or that nothing was yet."""
    unexplained = report[report["verdict"].eq("unexplained")] if "verdict" in report else report.iloc[:0]
    notes = papers.get(paper).ruled_out
    out = []
    for key, part in unexplained.groupby(["table", "dataset", "stratifier"], sort=False):
        cells = f"{' / '.join(k for k in key if k)}: {', '.join(part['measure'])}"
        out.append((cells, notes.get(key, "not yet investigated")))
    return out


def reproduction_html(report: pd.DataFrame, paper: str, study: str) -> str:
    """The report as a self-contained HTML page (for the Snakemake report)."""
    def table(part):
        return (_shown(part).to_html(index=False, na_rep="", escape=True, border=0, classes="report") if len(part)
                else "<p>none</p>")  # the note column (last) wraps

    items = "".join(f"<li>{html.escape(line)}</li>" for line in summary_lines(report)) or "<li>nothing comparable</li>"
    causes = "".join(f"<li><b>{html.escape(c.name)}</b> ({n} cells): {html.escape(c.evidence)}</li>"
                     for c, n in _causes_used(report, paper))
    looked_at = "".join(f"<li><b>{html.escape(cells)}</b>: {html.escape(text)}</li>"
                        for cells, text in _ruled_out(report, paper))
    body = (f"<h1>Reproduction of {html.escape(paper)} by the study {html.escape(study)}</h1>"
            f"<p>{html.escape(papers.get(paper).citation)}</p><h2>Summary</h2><ul>{items}</ul>"
            + (f"<h2>Causes of the cells that differ</h2><ul>{causes}</ul>" if causes else "")
            + (f"<h2>Unexplained cells: what was ruled out</h2><ul>{looked_at}</ul>" if looked_at else "") +
            f"<h2>Cells that do not agree</h2>{table(_disagreeing(report))}"
            f"<h2>Every compared cell</h2>{table(report)}")
    return html_document(f"Reproduction of {paper}", body)
