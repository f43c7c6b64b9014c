"""A study's tables as the papers print them, in CSV, Markdown, HTML and LaTeX (booktabs): each
reproduced paper's own layouts (its module in :mod:`stratbench.papers`: Sechidis et al. 2011, Tables
1, 2 and 4–5; Szymański & Kajdanowicz 2017, Table 1; Tiittanen et al. 2021, Table 2), and the tables
every study has: the average ranks of the fold-quality measures, and the Friedman / Nemenyi tests.

As the papers print them: the best value of a row bold (the direction of each measure from
:data:`stratbench.measure_table.MEASURES`; fold-quality measures and ranks: lower is better), the
lowest std underlined (:mod:`stratbench.table_format`).
"""

from __future__ import annotations

import html

import numpy as np
import pandas as pd

from stratbench import papers
from stratbench.measure_table import FOLD_QUALITY_LABELS, MEASURE_LABELS
from stratbench.table_format import (  # noqa: F401  (re-exported: the names the tables are made of)
    Cell,
    PaperTable,
    best,
    count,
    latex_escape,
    number,
    ordered,
    pvalue,
)


def ranks_table(ranks: pd.DataFrame, tests: pd.DataFrame, name: str, caption: str, group: str = "all",
                labels: dict | None = None, order=None) -> PaperTable | None:
    """Average ranks per measure (rows) and stratifier (columns) for one dataset group, with the
    Friedman test's p-value (Iman–Davenport) and the Nemenyi critical difference; lowest rank bold."""
    part = ranks[ranks["group"] == group]
    if part.empty:
        return None
    labels = labels or {}
    stratifiers = ordered(part["stratifier"], order)
    wide = part.pivot(index="measure", columns="stratifier", values="average_rank").reindex(
        index=ordered(part["measure"], labels), columns=stratifiers)
    t = tests[tests["group"] == group].set_index("measure")
    table = PaperTable(name, caption, ["measure", "N"], [*stratifiers, "Friedman p", "CD"],
                       data=part.merge(t.reset_index()[["measure", "p", "critical_difference", "note"]], on="measure"))
    block = []
    for measure in wide.index:
        values = wide.loc[measure].to_numpy()
        marks = best(values)
        stats_cells = [Cell(pvalue(t.loc[measure, "p"])), cd_cell(t.loc[measure])]
        block.append(((labels.get(measure, measure), int(t.loc[measure, "datasets"])),
                      [*(Cell(number(v, 2), bool(k)) for v, k in zip(values, marks)), *stats_cells]))
    table.blocks.append(block)
    return table


def tests_table(tests: pd.DataFrame, name: str, caption: str, keys: list[str],
                labels: dict | None = None) -> PaperTable | None:
    """Friedman χ², Iman–Davenport F and their p-values, and the Nemenyi CD per comparison."""
    if tests.empty:
        return None
    labels = labels or {}
    rank = {m: i for i, m in enumerate(labels)}
    tests = tests.assign(_order=tests["measure"].map(lambda m: rank.get(m, len(rank))))
    tests = tests.sort_values([*(k for k in keys if k != "measure"), "group", "_order", "measure"], kind="stable")
    tests = tests.drop(columns="_order").assign(measure=tests["measure"].map(lambda m: labels.get(m, m)))
    columns = ["k", "χ²", "p (χ²)", "F", "p (F)", "p (exact)", "CD", "note"]
    table = PaperTable(name, caption, [*keys, "group", "N"], columns, data=tests.reset_index(drop=True))
    table.blocks.append([
        ((*(row[k] for k in keys), row["group"], int(row["datasets"])),
         [Cell(str(int(row["methods"]))), Cell(number(row["chi2"], 3)),
          *(Cell(pvalue(row[c]), bold=judged_significant(row, c)) for c in ("chi2_p",)),
          Cell(number(row["iman_davenport_F"], 3)),
          *(Cell(pvalue(row[c]), bold=judged_significant(row, c)) for c in ("F_p", "exact_p")),
          cd_cell(row, 3), Cell(str(row["note"]))])
        for _, row in tests.iterrows()])
    return table


def judged_significant(row, column: str) -> bool:
    """Whether the p-value in ``column`` is the one a comparison is judged by (:class:`stratbench.stats.Friedman`'s
    ``p``: exact where computed, else F's, else χ²'s) and below α: the only p-value printed bold."""
    judged = "exact_p" if np.isfinite(row["exact_p"]) else "F_p" if np.isfinite(row["F_p"]) else "chi2_p"
    return column == judged and bool(row["p"] < row["alpha"])


def cd_cell(row, digits: int = 2) -> Cell:
    """The Nemenyi critical difference, marked where N is too few for any pair to differ."""
    text = number(row["critical_difference"], digits)
    return Cell(f"{text} (N too few)" if bool(row.get("nemenyi_too_few", False)) else text)


_CSS = """body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;margin:1em 0}
caption{text-align:left;font-weight:bold;padding:.4em 0;max-width:60em}
th,td{padding:.2em .7em;text-align:right;white-space:nowrap}.key{text-align:left}
table.report td:last-child{white-space:normal;text-align:left;min-width:16em;max-width:36em}
thead tr{border-top:2px solid #000;border-bottom:1px solid #000}tbody tr:last-child{border-bottom:2px solid #000}
tr.block{border-top:1px solid #000}"""


def html_document(title: str, body: str) -> str:
    """A self-contained HTML page (for the Snakemake report)."""
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            f"<style>{_CSS}</style></head><body>\n{body}\n</body></html>\n")


def html_page(tables: list[PaperTable], title: str) -> str:
    """The tables on one HTML page."""
    return html_document(title, "\n".join(t.html() for t in tables))


def latex_document(names: list[str], title: str) -> str:
    """A LaTeX document that \\input{}s the tables ``names`` (files ``<name>.tex`` beside it)."""
    body = "\n".join(rf"\input{{{n}}}" + "\n\\clearpage" for n in names)
    return (r"""\documentclass[a4paper]{article}
\usepackage[T1]{fontenc}
\usepackage[utf8]{inputenc}
\usepackage{booktabs}
\usepackage[margin=1.5cm]{geometry}
\title{""" + latex_escape(title) + r"""}
\date{}
\begin{document}
\maketitle
""" + body + "\n\\end{document}\n")


def study_tables(statistics: pd.DataFrame, fold_quality: pd.DataFrame, runtime: pd.DataFrame | None = None,
                 fold_quality_ranks: pd.DataFrame | None = None, fold_quality_tests: pd.DataFrame | None = None,
                 summary: pd.DataFrame | None = None, ranks: pd.DataFrame | None = None,
                 score_tests: pd.DataFrame | None = None, order: list[str] | None = None) -> list[PaperTable]:
    """Every paper table of one study, in print order: each paper's fold-quality layouts (registry
    order), the fold-quality ranks, each paper's classifier layouts, the tests (the score tables only if
    it has classifiers); stratifiers in ``order`` (the config's), others after them."""
    inputs = dict(statistics=statistics, fold_quality=fold_quality, runtime=runtime, summary=summary, ranks=ranks)
    registered = [papers.get(name) for name in papers.names()]
    tables = [t for paper in registered if paper.layouts for t in paper.layouts(inputs, order)]
    if fold_quality_ranks is not None and fold_quality_tests is not None:
        tables.append(ranks_table(fold_quality_ranks, fold_quality_tests, "fold_quality_ranks",
                                  "Average rank of each fold-quality measure over all datasets (1 = lowest), "
                                  "Friedman p-value (Iman–Davenport) and Nemenyi critical difference (CD)",
                                  labels=FOLD_QUALITY_LABELS, order=order))
    if summary is not None and not summary.empty:
        tables += [t for paper in registered if paper.score_layouts for t in paper.score_layouts(inputs, order)]
        if score_tests is not None:
            tables.append(tests_table(score_tests, "friedman_nemenyi",
                                      "Friedman and Iman–Davenport tests on the std over folds of each measure, "
                                      "and the Nemenyi critical difference (CD) of the average ranks",
                                      ["classifier", "measure"], MEASURE_LABELS))
    return [t for t in tables if t is not None]
