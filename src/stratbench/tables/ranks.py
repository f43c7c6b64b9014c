"""The tables every study prints beside its papers' own: the average ranks of the measures per
stratifier, with the Friedman p-value each comparison is judged by (named from :data:`stratbench.stats.P_VALUE_NAMES`)
and the Nemenyi critical difference, and the Friedman / Nemenyi tests themselves; the best rank and the p-value a
comparison is judged by in bold."""

from __future__ import annotations

import pandas as pd

from stratbench.stats import P_MARKS, friedman_p_caption, judged_p, p_value_name
from stratbench.tables.format import Cell, PaperTable, best, number, ordered, pvalue


def ranks_table(ranks: pd.DataFrame, tests: pd.DataFrame, name: str, caption: str, group: str = "all",
                labels: dict | None = None, order=None) -> PaperTable | None:
    """Average ranks per measure (rows) and stratifier (columns) for one dataset group, with the
    Friedman p-value each comparison is judged by and the Nemenyi critical difference; lowest rank bold.
    ``caption`` is completed by the name of the test behind the p column (:func:`stratbench.stats.friedman_p_caption`:
    one name, or a mark per cell where the rows were judged by different tests)."""
    part = ranks[ranks["group"] == group]
    if part.empty:
        return None
    labels = labels or {}
    stratifiers = ordered(part["stratifier"], order)
    wide = part.pivot(index="measure", columns="stratifier", values="average_rank").reindex(
        index=ordered(part["measure"], labels), columns=stratifiers)
    t = tests[tests["group"] == group].set_index("measure")
    t = t.loc[[m for m in wide.index if m in t.index]]
    p_names = {measure: p_value_name(row) for measure, row in t.iterrows()}
    mixed = len(set(p_names.values())) > 1
    caption = f"{caption}; {friedman_p_caption(p_names.values())}" if p_names else caption
    table = PaperTable(name, caption, ["measure", "N"], [*stratifiers, "Friedman p", "CD"],
                       data=part.merge(t.reset_index()[["measure", "p", "critical_difference", "note"]], on="measure"))
    block = []
    for measure in wide.index:
        values = wide.loc[measure].to_numpy()
        marks = best(values)
        mark = P_MARKS[p_names[measure]] if mixed else ""
        stats_cells = [Cell(pvalue(t.loc[measure, "p"]) + mark), cd_cell(t.loc[measure])]
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
    return column == judged_p(row) and bool(row["p"] < row["alpha"])


def cd_cell(row, digits: int = 2) -> Cell:
    """The Nemenyi critical difference, marked where N is too few for any pair to differ."""
    text = number(row["critical_difference"], digits)
    return Cell(f"{text} (N too few)" if bool(row.get("nemenyi_too_few", False)) else text)
