"""The tables of the three papers, laid out as they print them, in CSV, Markdown and LaTeX (booktabs).

- Sechidis et al. 2011, Table 2: ED, LD, FZ, FLZ per dataset × stratifier (mean over repeats);
- Sechidis et al. 2011, Tables 4–5: mean ± std over folds per dataset × measure, a column per
  stratifier, one table per classifier, with the average rank of the std per dataset group below;
- Szymański & Kajdanowicz 2017, Table 1: the share of label pairs without positive evidence in a
  test fold (mean ± std over folds), a column per stratifier;
- Tiittanen et al. 2021, Table 2: ED, LD, DCP, rLD and the stratifier's wall time;
- the average ranks of the fold-quality measures, and the Friedman / Nemenyi tests.

As the papers print them: the best value of a row bold (the direction of each measure from
:data:`stratbench.measure_table.MEASURES`; fold-quality measures and ranks: lower is better), the
lowest std underlined. A table is a :class:`PaperTable`: blocks of rows of :class:`Cell` (a rule
between blocks) plus the numbers behind the cells for the CSV.
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stratbench.measure_table import COUNT_MEASURES, FOLD_QUALITY_LABELS, LOWER_IS_BETTER, MEASURE_LABELS


@dataclass(frozen=True)
class Cell:
    """One printed cell: its text and how the papers emphasise it."""

    text: str
    bold: bool = False
    underline: bool = False

    def markdown(self) -> str:
        text = f"**{self.text}**" if self.bold else self.text
        return f"<u>{text}</u>" if self.underline else text

    def html(self) -> str:
        text = html.escape(self.text)
        text = f"<strong>{text}</strong>" if self.bold else text
        return f"<u>{text}</u>" if self.underline else text

    def latex(self) -> str:
        text = latex_escape(self.text)
        text = rf"\textbf{{{text}}}" if self.bold else text
        return rf"\underline{{{text}}}" if self.underline else text


@dataclass
class PaperTable:
    """A table as printed: ``keys`` name the row-label columns, ``columns`` the value columns;
    ``blocks`` are lists of (row labels, cells), separated by a rule; ``data`` holds the numbers."""

    name: str
    caption: str
    keys: list[str]
    columns: list[str]
    blocks: list[list[tuple[tuple, list[Cell]]]] = field(default_factory=list)
    data: pd.DataFrame = field(default_factory=pd.DataFrame)

    def markdown(self) -> str:
        header = [*self.keys, *self.columns]
        lines = [f"### {self.caption}", "", "| " + " | ".join(header) + " |",
                 "|" + "|".join([":---"] * len(self.keys) + ["---:"] * len(self.columns)) + "|"]
        for block in self.blocks:
            for labels, cells in block:
                lines.append("| " + " | ".join([*map(str, labels), *(c.markdown() for c in cells)]) + " |")
        return "\n".join(lines) + "\n"

    def html(self) -> str:
        head = "".join([*(f'<th class="key">{html.escape(h)}</th>' for h in self.keys),
                        *(f"<th>{html.escape(h)}</th>" for h in self.columns)])
        rows = []
        for b, block in enumerate(self.blocks):
            for r, (labels, cells) in enumerate(block):
                css = ' class="block"' if b and not r else ""
                tds = [f'<td class="key">{html.escape(str(v))}</td>' for v in labels] + [f"<td>{c.html()}</td>" for c in cells]
                rows.append(f"<tr{css}>{''.join(tds)}</tr>")
        return (f'<table id="{html.escape(self.name)}"><caption>{html.escape(self.caption)}</caption>'
                f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>")

    def latex(self) -> str:
        spec = "l" * len(self.keys) + "r" * len(self.columns)
        lines = [r"\begin{table}[htbp]", r"\centering", r"\small", rf"\caption{{{latex_escape(self.caption)}}}",
                 rf"\label{{tab:{self.name}}}", rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
                 " & ".join(latex_escape(h) for h in [*self.keys, *self.columns]) + r" \\", r"\midrule"]
        for b, block in enumerate(self.blocks):
            if b:
                lines.append(r"\midrule")
            previous: tuple = ()
            for labels, cells in block:
                same = 0  # a label repeated from the row above (as a prefix) is left blank
                while same < len(labels) - 1 and same < len(previous) and labels[same] == previous[same]:
                    same += 1
                shown = [""] * same + [latex_escape(str(v)) for v in labels[same:]]
                lines.append(" & ".join([*shown, *(c.latex() for c in cells)]) + r" \\")
                previous = labels
        lines += [r"\bottomrule", r"\end{tabular}", r"\end{table}"]
        return "\n".join(lines) + "\n"


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "<": r"\textless{}", ">": r"\textgreater{}", "±": r"$\pm$", "−": "-", "≤": r"$\leq$",
                  "≥": r"$\geq$", "ń": r"\'n", "χ": r"$\chi$", "²": r"$^2$", "α": r"$\alpha$"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (and ±, ≤, ≥ as math)."""
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def number(x: float, digits: int = 3) -> str:
    """Fixed point with at least two decimals and ``digits`` significant ones (at most six): 0.0267,
    2.77, 0.00052. NaN prints as NaN, ±inf as inf."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "NaN"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    if x == 0:
        return "0.00"
    decimals = min(6, max(2, digits - 1 - math.floor(math.log10(abs(x)))))
    return f"{x:.{decimals}f}"


def count(x: float) -> str:
    """A count, or a mean of counts over repeats: an integer as such, else one decimal."""
    if x is None or not np.isfinite(x):
        return "NaN"
    return f"{x:.0f}" if float(x).is_integer() else f"{x:.1f}"


def pvalue(p: float) -> str:
    """A p-value as printed in papers: three decimals, '< 0.001' below."""
    if p is None or not np.isfinite(p):
        return "NaN"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


def ordered(names, preferred=None) -> list:
    """The distinct ``names`` in the order of ``preferred`` (a list, or a dict's keys), the others after
    them sorted."""
    names = list(dict.fromkeys(names))
    known = [n for n in (preferred or {}) if n in names]
    return known + sorted(n for n in names if n not in known)


def best(values, lower_is_better: bool = True) -> np.ndarray:
    """Mask of the best finite value(s) of ``values`` (all tied best ones)."""
    v = np.asarray(values, dtype=float)
    finite = np.isfinite(v)
    if not finite.any():
        return np.zeros(len(v), dtype=bool)
    target = np.nanmin(np.where(finite, v, np.nan)) if lower_is_better else np.nanmax(np.where(finite, v, np.nan))
    return finite & np.isclose(v, target, rtol=0, atol=1e-12)


def _pivot(frame: pd.DataFrame, index: list[str], column: str, value: str) -> pd.DataFrame:
    return frame.pivot_table(index=index, columns=column, values=value, sort=True, dropna=False)


def _dataset_block_table(summary, measures, name, caption, order=None) -> PaperTable | None:
    """Rows dataset × stratifier, a column per measure, mean over repeats; the lowest per dataset bold."""
    present = [m for m in measures if m in set(summary["measure"])]
    if not present:
        return None
    part = summary[summary["measure"].isin(present)]
    mean = _pivot(part, ["dataset", "stratifier"], "measure", "mean")[present]
    table = PaperTable(name, caption, ["dataset", "stratifier"], [FOLD_QUALITY_LABELS.get(m, m) for m in present],
                       data=part[["dataset", "stratifier", "measure", "mean", "std"]].reset_index(drop=True))
    for dataset, rows in mean.groupby(level="dataset", sort=True):
        rows = rows.droplevel("dataset").reindex(ordered(rows.index.get_level_values("stratifier"), order))
        marks = {m: best(rows[m].to_numpy()) for m in present}
        fmt = {m: count if m in COUNT_MEASURES else number for m in present}
        table.blocks.append([((dataset, stratifier), [Cell(fmt[m](rows.iloc[r][m]), bold=bool(marks[m][r])) for m in present])
                             for r, stratifier in enumerate(rows.index)])
    return table


TABLE1_COLUMNS = {"labels": "labels", "examples": "examples", "labelsets": "labelsets",
                  "labelsets_per_example": "labelsets/examples", "examples_per_labelset_min": "per labelset: min",
                  "examples_per_labelset_avg": "avg", "examples_per_labelset_max": "max",
                  "examples_per_label_min": "per label: min", "examples_per_label_avg": "avg",
                  "examples_per_label_max": "max"}


def sechidis_table1(statistics: pd.DataFrame) -> PaperTable:
    """Sechidis et al. 2011, Table 1: the datasets, ordered by labelsets per example as the paper orders
    them (averages rounded, the ratio to two decimals, as printed)."""
    stats = statistics.sort_values(["labelsets_per_example", "dataset"], kind="stable")
    columns = list(TABLE1_COLUMNS)
    table = PaperTable("sechidis2011_table1", "Datasets, with the columns of Sechidis et al. 2011, Table 1 "
                       "(examples per labelset and per label: min, average, max)", ["dataset"],
                       [TABLE1_COLUMNS[c] for c in columns], data=stats.reset_index(drop=True))

    def text(column, value):
        return f"{value:.2f}" if column == "labelsets_per_example" else f"{value:.0f}"

    table.blocks.append([((row["dataset"],), [Cell(text(c, row[c])) for c in columns]) for _, row in stats.iterrows()])
    return table


def sechidis_table2(fold_quality: pd.DataFrame, order=None) -> PaperTable | None:
    """Sechidis et al. 2011, Table 2: ED, LD, FZ, FLZ (mean over repeats), lowest per dataset bold."""
    return _dataset_block_table(fold_quality, ["ED", "LD", "FZ", "FLZ"], "sechidis2011_table2",
                                "Fold quality as in Sechidis et al. 2011, Table 2 (mean over repeats; lower is better)",
                                order)


def tiittanen_table2(fold_quality: pd.DataFrame, runtime: pd.DataFrame | None = None, order=None) -> PaperTable | None:
    """Tiittanen et al. 2021, Table 2: ED, LD, DCP, rLD and the stratifier's wall time (s)."""
    summary = fold_quality
    if runtime is not None and not runtime.empty:
        seconds = (runtime.groupby(["dataset", "stratifier"], sort=True)["seconds"]
                   .agg(mean="mean", std=lambda v: float(np.std(v))).reset_index().assign(measure="seconds"))
        summary = pd.concat([fold_quality, seconds], ignore_index=True)
    return _dataset_block_table(summary, ["ED", "LD", "DCP", "rLD", "seconds"], "tiittanen2021_table2",
                                "Fold quality as in Tiittanen et al. 2021, Table 2 (mean over repeats; "
                                "time: the stratifier's wall time; lower is better)", order)


def szymanski_table1(fold_quality: pd.DataFrame, order=None) -> PaperTable | None:
    """Szymański & Kajdanowicz 2017, Table 1: % of label pairs with no positive example in a test fold,
    mean ± std over folds (each averaged over repeats); the lowest mean of a dataset bold."""
    part = fold_quality[fold_quality["measure"].isin(["pair_zero_share", "pair_zero_share_std"])]
    if part.empty:
        return None
    mean = _pivot(part[part.measure == "pair_zero_share"], ["dataset"], "stratifier", "mean")
    stratifiers = ordered(mean.columns, order)
    mean = mean[stratifiers]
    std = _pivot(part[part.measure == "pair_zero_share_std"], ["dataset"], "stratifier", "mean").reindex_like(mean)
    table = PaperTable("szymanski2017_table1",
                       "Label pairs without positive evidence in a test fold (%), mean ± std over folds, "
                       "as in Szymański & Kajdanowicz 2017, Table 1 (lower is better)",
                       ["dataset"], stratifiers,
                       data=pd.DataFrame({"dataset": np.repeat(mean.index, len(stratifiers)),
                                          "stratifier": np.tile(stratifiers, len(mean)),
                                          "mean": mean.to_numpy().ravel(), "std": std.to_numpy().ravel()}))
    block = []
    for dataset in mean.index:
        m, s = mean.loc[dataset].to_numpy(), std.loc[dataset].to_numpy()
        marks = best(m)
        block.append(((dataset,), [Cell(f"{100 * a:.1f} ± {100 * b:.1f}", bold=bool(k)) for a, b, k in zip(m, s, marks)]))
    table.blocks.append(block)
    return table


def cv_estimates_table(summary: pd.DataFrame, ranks: pd.DataFrame, classifier: str, order=None) -> PaperTable:
    """Sechidis et al. 2011, Tables 4–5 for one classifier: mean ± std over folds per dataset × measure,
    best mean bold, lowest std underlined; then the average rank of the std per group."""
    part = summary[summary["classifier"] == classifier]
    stratifiers = ordered(part["stratifier"], order)
    measures = [m for m in MEASURE_LABELS if m in set(part["measure"])]
    mean = _pivot(part, ["dataset", "measure"], "stratifier", "mean").reindex(columns=stratifiers)
    std = _pivot(part, ["dataset", "measure"], "stratifier", "std").reindex(columns=stratifiers)
    table = PaperTable(f"cv_estimates_{classifier}",
                       f"{classifier.upper()}: mean ± std over the folds (averaged over repeats), as in "
                       "Sechidis et al. 2011, Tables 4–5; best mean bold, lowest std underlined; below, the "
                       "average rank of the std (1 = lowest)",
                       ["dataset", "measure"], stratifiers,
                       data=part[["dataset", "stratifier", "measure", "mean", "std"]].reset_index(drop=True))
    for dataset in sorted(part["dataset"].unique()):
        block = []
        for measure in measures:
            if (dataset, measure) not in mean.index:
                continue
            m, s = mean.loc[(dataset, measure)].to_numpy(), std.loc[(dataset, measure)].to_numpy()
            bold, under = best(m, LOWER_IS_BETTER.get(measure, True)), best(s)
            block.append(((dataset, MEASURE_LABELS.get(measure, measure)),
                          [Cell("NaN" if np.isnan(a) else f"{a:.4f} ± {b:.4f}", bool(x), bool(u))
                           for a, b, x, u in zip(m, s, bold, under)]))
        table.blocks.append(block)
    r = ranks[ranks["classifier"] == classifier] if not ranks.empty else ranks
    for group, rows in r.groupby("group", sort=False):
        wide = rows.pivot(index="measure", columns="stratifier", values="average_rank").reindex(columns=stratifiers)
        n = rows.groupby("measure")["datasets"].first()
        block = []
        for measure in [m for m in measures if m in wide.index]:
            values = wide.loc[measure].to_numpy()
            marks = best(values)
            block.append(((f"avg. rank of std, {group}", f"{MEASURE_LABELS.get(measure, measure)} (N={n[measure]})"),
                          [Cell(number(v, 2) if np.isfinite(v) else "–", bool(k)) for v, k in zip(values, marks)]))
        table.blocks.append(block)
    return table


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
    """Every paper table of one study, in print order (the score tables only if it has classifiers);
    stratifiers in ``order`` (the config's), others after them."""
    tables = [sechidis_table1(statistics), sechidis_table2(fold_quality, order), szymanski_table1(fold_quality, order),
              tiittanen_table2(fold_quality, runtime, order)]
    if fold_quality_ranks is not None and fold_quality_tests is not None:
        tables.append(ranks_table(fold_quality_ranks, fold_quality_tests, "fold_quality_ranks",
                                  "Average rank of each fold-quality measure over all datasets (1 = lowest), "
                                  "Friedman p-value (Iman–Davenport) and Nemenyi critical difference (CD)",
                                  labels=FOLD_QUALITY_LABELS, order=order))
    if summary is not None and not summary.empty:
        tables += [cv_estimates_table(summary, ranks if ranks is not None else pd.DataFrame(), c, order)
                   for c in sorted(summary["classifier"].unique())]
        if score_tests is not None:
            tables.append(tests_table(score_tests, "friedman_nemenyi",
                                      "Friedman and Iman–Davenport tests on the std over folds of each measure, "
                                      "and the Nemenyi critical difference (CD) of the average ranks",
                                      ["classifier", "measure"], MEASURE_LABELS))
    return [t for t in tables if t is not None]
