"""How stratbench prints a table as the papers do: a :class:`PaperTable` (blocks of rows of
:class:`Cell`, a rule between blocks, the numbers behind the cells for the CSV) in Markdown, HTML and
LaTeX (booktabs); numbers, counts and p-values formatted as printed; the best of a row marked. The
papers' own layouts live in their modules (:mod:`stratbench.papers`), the study's tables in
:mod:`stratbench.papers.tables`."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stratbench.measures.names import COUNT_MEASURES, FOLD_QUALITY_LABELS


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


def mean_spread(mean: float, std: float, n: int | None, spec: str, std_spec: str | None = None,
                unit: str = "repeat") -> str:
    """"mean ± std" over ``n`` > 1 ``unit``s (format specs ``spec`` and ``std_spec``, default ``spec``); where ``n``
    is 1 there is no spread to print, and the cell says so: "0.099 (1 repeat)", never "0.099 ± 0.000". ``n`` None:
    a table that does not count its repeats, printed as it gives the spread."""
    if mean is None or not np.isfinite(mean):
        return "NaN"
    if n is not None and (n <= 1 or not np.isfinite(std)):
        return f"{mean:{spec}} ({int(n)} {unit}{'s' * (int(n) != 1)})"
    return f"{mean:{spec}} ± {0.0 if not np.isfinite(std) else std:{std_spec or spec}}"


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


def pivot(frame: pd.DataFrame, index: list[str], column: str, value: str) -> pd.DataFrame:
    return frame.pivot_table(index=index, columns=column, values=value, sort=True, dropna=False)


def dataset_block_table(summary, measures, name, caption, order=None) -> PaperTable | None:
    """Rows dataset × stratifier, a column per measure, mean over repeats; the lowest per dataset bold."""
    present = [m for m in measures if m in set(summary["measure"])]
    if not present:
        return None
    part = summary[summary["measure"].isin(present)]
    mean = pivot(part, ["dataset", "stratifier"], "measure", "mean")[present]
    table = PaperTable(name, caption, ["dataset", "stratifier"], [FOLD_QUALITY_LABELS.get(m, m) for m in present],
                       data=part[["dataset", "stratifier", "measure", "mean", "std"]].reset_index(drop=True))
    for dataset, rows in mean.groupby(level="dataset", sort=True):
        rows = rows.droplevel("dataset").reindex(ordered(rows.index.get_level_values("stratifier"), order))
        marks = {m: best(rows[m].to_numpy()) for m in present}
        fmt = {m: count if m in COUNT_MEASURES else number for m in present}
        table.blocks.append([((dataset, stratifier), [Cell(fmt[m](rows.iloc[r][m]), bold=bool(marks[m][r])) for m in present])
                             for r, stratifier in enumerate(rows.index)])
    return table
