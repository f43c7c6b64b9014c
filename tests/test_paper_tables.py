"""Paper tables: bold best / underlined lowest std, number formats, Markdown, HTML and LaTeX that compiles."""
import html
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

from stratbench.papers.sechidis2011 import cv_estimates_table, sechidis_table2
from stratbench.papers.szymanski2017 import szymanski_table1
from stratbench.papers.tables import study_tables
from stratbench.papers.tiittanen2021 import tiittanen_table2
from stratbench.tables.documents import latex_document
from stratbench.tables.format import Cell, count, latex_escape, number, pvalue


def summary_frame():
    rows = [("d1", "random", "br", "hamming_loss", 0.20, 0.020), ("d1", "iterative", "br", "hamming_loss", 0.18, 0.010),
            ("d1", "random", "br", "subset_accuracy", 0.50, 0.030), ("d1", "iterative", "br", "subset_accuracy", 0.40, 0.040),
            ("d2", "random", "br", "hamming_loss", 0.10, 0.005), ("d2", "iterative", "br", "hamming_loss", 0.10, 0.009)]
    return pd.DataFrame(rows, columns=["dataset", "stratifier", "classifier", "measure", "mean", "std"])


def ranks_frame():
    return pd.DataFrame([("br", "all", "hamming_loss", "iterative", 1.5, 2), ("br", "all", "hamming_loss", "random", 1.5, 2),
                         ("br", "all", "subset_accuracy", "iterative", 2.0, 1), ("br", "all", "subset_accuracy", "random", 1.0, 1)],
                        columns=["classifier", "group", "measure", "stratifier", "average_rank", "datasets"])


def test_cv_table_marks_best_mean_and_lowest_std():
    t = cv_estimates_table(summary_frame(), ranks_frame(), "br")
    assert t.columns == ["iterative", "random"]
    rows = {labels: cells for block in t.blocks for labels, cells in block}
    # Hamming loss: lower mean is better (iterative), lowest std iterative
    assert rows[("d1", "Hamming loss")] == [Cell("0.1800 ± 0.0100", True, True), Cell("0.2000 ± 0.0200", False, False)]
    # subset accuracy: higher is better (random bold), lowest std random
    assert rows[("d1", "subset accuracy")] == [Cell("0.4000 ± 0.0400"), Cell("0.5000 ± 0.0300", True, True)]
    # equal means: both bold
    assert [c.bold for c in rows[("d2", "Hamming loss")]] == [True, True]
    ranks = rows[("avg. rank of std, all", "Hamming loss (N=2)")]
    assert [c.text for c in ranks] == ["1.50", "1.50"] and all(c.bold for c in ranks)
    assert [c.bold for c in rows[("avg. rank of std, all", "subset accuracy (N=1)")]] == [False, True]
    assert len(t.blocks) == 3  # d1, d2, then the rank rows
    in_config_order = cv_estimates_table(summary_frame(), ranks_frame(), "br", order=["random", "iterative"])
    assert in_config_order.columns == ["random", "iterative"]
    assert in_config_order.blocks[0][0][1][0] == Cell("0.2000 ± 0.0200")


def test_markdown_html_and_latex_render_the_marks():
    t = cv_estimates_table(summary_frame(), ranks_frame(), "br")
    md = t.markdown()
    assert "| d1 | Hamming loss | <u>**0.1800 ± 0.0100**</u> | 0.2000 ± 0.0200 |" in md
    html = t.html()
    assert "<u><strong>0.1800 ± 0.0100</strong></u>" in html and 'class="block"' in html
    tex = t.latex()
    assert r"\underline{\textbf{0.1800 $\pm$ 0.0100}}" in tex
    assert tex.count(r"\toprule") == 1 and tex.count(r"\bottomrule") == 1 and tex.count(r"\midrule") == 3
    assert "\nd1 & Hamming loss &" in tex and "\n & subset accuracy &" in tex  # repeated dataset left blank
    assert r"\begin{tabular}{llrr}" in tex


def test_number_formats():
    assert number(0.0267) == "0.0267" and number(2.77) == "2.77" and number(0.00052) == "0.000520"
    assert number(788.8) == "788.80" and number(float("nan")) == "NaN" and number(0) == "0.00"
    assert count(788.0) == "788" and count(1.2) == "1.2"
    assert pvalue(0.0004) == "< 0.001" and pvalue(0.0494) == "0.049"
    assert latex_escape("a_b & 5% ≤ ±") == r"a\_b \& 5\% $\leq$ $\pm$"


def fold_quality_frame():
    rows = []
    for dataset, values in {"d1": {"random": (0.4, 0.02, 3.0, 0.3), "iterative": (2.0, 0.01, 1.0, 0.1)},
                            "d2": {"random": (0.0, 0.03, 2.0, 0.2), "iterative": (1.5, 0.03, 2.0, 0.25)}}.items():
        for s, (ed, ld, flz, share) in values.items():
            for m, v in (("ED", ed), ("LD", ld), ("FZ", 1.0), ("FLZ", flz), ("DCP", ld / 2), ("rLD", ld * 3),
                         ("pair_zero_share", share), ("pair_zero_share_std", share / 10)):
                rows.append((dataset, s, m, v, 0.0, 2))
    return pd.DataFrame(rows, columns=["dataset", "stratifier", "measure", "mean", "std", "repeats"])


def test_fold_quality_tables():
    fq = fold_quality_frame()
    t2 = sechidis_table2(fq)
    rows = {labels: cells for block in t2.blocks for labels, cells in block}
    assert [c.text for c in rows[("d1", "iterative")]] == ["2.00", "0.0100", "1", "1"]
    assert [c.bold for c in rows[("d1", "iterative")]] == [False, True, True, True]
    assert [c.bold for c in rows[("d2", "iterative")]] == [False, True, True, True]  # ties bold both
    t1 = szymanski_table1(fq)
    assert t1.blocks[0][0] == (("d1",), [Cell("10.0 ± 1.0", bold=True), Cell("30.0 ± 3.0")])
    runtime = pd.DataFrame([("d1", "random", 0, 0.5), ("d1", "iterative", 0, 0.25), ("d2", "random", 0, 1.0),
                            ("d2", "iterative", 0, 2.0)], columns=["dataset", "stratifier", "repeat", "seconds"])
    tt = tiittanen_table2(fq, runtime)
    assert tt.columns == ["ED", "LD", "DCP", "rLD", "time (s)"]
    rows = {labels: cells for block in tt.blocks for labels, cells in block}
    assert rows[("d1", "iterative")][-1] == Cell("0.250", bold=True)


def test_tests_table_prints_p_values_as_papers_do():
    from stratbench.measures.names import MEASURE_LABELS
    from stratbench.tables.ranks import tests_table

    tests = pd.DataFrame([dict(classifier="br", measure="subset_accuracy", group="all", datasets=6, methods=3,
                               chi2=7.0, chi2_p=0.0302, iman_davenport_F=7.0, F_df1=2, F_df2=10, F_p=0.0126,
                               exact_p=0.0284, p=0.0284, significant=True, alpha=0.05, q_alpha=2.343,
                               critical_difference=1.353, nemenyi_too_few=False, note="p exact (permutation)"),
                          dict(classifier="br", measure="hamming_loss", group="all", datasets=6, methods=3,
                               chi2=12.0, chi2_p=0.00248, iman_davenport_F=np.nan, F_df1=2, F_df2=10, F_p=np.nan,
                               exact_p=6 / 6**6, p=6 / 6**6, significant=True, alpha=0.05, q_alpha=2.343,
                               critical_difference=1.353, nemenyi_too_few=False,
                               note="F undefined: every dataset ranks the methods alike; p exact (permutation)")])
    t = tests_table(tests, "friedman_nemenyi", "tests", ["classifier", "measure"], MEASURE_LABELS)
    rows = t.blocks[0]
    assert [labels for labels, _ in rows] == [("br", "Hamming loss", "all", 6), ("br", "subset accuracy", "all", 6)]
    assert [c.text for c in rows[0][1]][:7] == ["3", "12.00", "0.002", "NaN", "NaN", "< 0.001", "1.35"]
    assert [c.text for c in rows[1][1]][:7] == ["3", "7.00", "0.030", "7.00", "0.013", "0.028", "1.35"]
    # only the p-value a comparison is judged by (here the exact one) is bold, and only below α
    assert [c.bold for c in rows[1][1]] == [False, False, False, False, False, True, False, False]
    assert rows[0][1][5].bold and not rows[0][1][2].bold


def _balanced(tex: str) -> bool:
    depth = 0
    for ch in re.sub(r"\\[{}]", "", tex):
        depth += {"{": 1, "}": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


def test_a_study_document_compiles(tmp_path):
    statistics = pd.DataFrame([dict(dataset=d, labels=5, examples=100, labelsets=10, labelsets_per_example=0.1,
                                    examples_per_labelset_min=1, examples_per_labelset_avg=10.0,
                                    examples_per_labelset_max=30, examples_per_label_min=3,
                                    examples_per_label_avg=20.5, examples_per_label_max=50) for d in ("d1", "d2")])
    from stratbench import papers

    tables = list({t.name: t for paper in papers.names()  # every paper's layouts, and every study's tables
                   for t in study_tables(statistics, fold_quality_frame(), summary=summary_frame(), ranks=ranks_frame(),
                                         paper=paper)}.values())
    assert {"sechidis2011_table2", "szymanski2017_table1", "cv_estimates_br"} <= {t.name for t in tables}
    for t in tables:
        (tmp_path / f"{t.name}.tex").write_text(t.latex())
        assert _balanced(t.latex()), t.name
        assert re.findall(r"\\begin\{(\w+)\}", t.latex()) == ["table", "tabular"]
    doc = latex_document([t.name for t in tables], "test study_1 & co")
    (tmp_path / "tables.tex").write_text(doc)
    assert _balanced(doc) and doc.count(r"\input{") == len(tables)
    if shutil.which("pdflatex") is None:
        pytest.skip("pdflatex not installed (Debian: texlive-latex-recommended); checked by parsing only")
    result = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "tables.tex"], cwd=tmp_path,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout[-3000:]
    assert (tmp_path / "tables.pdf").read_bytes().startswith(b"%PDF")
    assert np.all([f"tab:{t.name}" in (tmp_path / "tables.aux").read_text() for t in tables])


def _judged_tests(exact: list[float], f_p: list[float]) -> pd.DataFrame:
    measures = ["ED", "LD", "FZ"][:len(exact)]
    return pd.DataFrame([dict(group="all", measure=m, datasets=6, methods=3, chi2=7.0, chi2_p=0.03,
                              iman_davenport_F=7.0, F_df1=2, F_df2=10, F_p=f, exact_p=e, p=e if np.isfinite(e) else f,
                              significant=True, alpha=0.05, q_alpha=2.343, critical_difference=1.353,
                              nemenyi_too_few=False, note="") for m, e, f in zip(measures, exact, f_p)])


@pytest.mark.parametrize("exact, f_p, named, not_named", [
    ([0.050, 0.010], [0.028, 0.004], "Friedman p (exact permutation)", "Iman–Davenport"),
    ([np.nan, np.nan], [0.028, 0.004], "Friedman p (Iman–Davenport F)", "exact"),
    ([0.050, np.nan], [0.028, 0.004], "Friedman p ((e): exact permutation, (F): Iman–Davenport F)", "χ²"),
])
def test_a_ranks_caption_names_the_test_its_p_column_holds(exact, f_p, named, not_named):
    """The caption of the average-rank table names the test whose p its "Friedman p" column prints, in every
    format (from one source, stats.P_VALUE_NAMES): the exact permutation p at small N·k, else Iman–Davenport's;
    where the rows mix them, each cell is marked. The issue's case: ED's exact 0.050 under a caption that said
    Iman–Davenport (whose p is 0.028)."""
    from stratbench.tables.ranks import ranks_table

    tests = _judged_tests(exact, f_p)
    ranks = pd.DataFrame([("all", m, s, r, 6) for m in tests["measure"] for s, r in (("a", 1.5), ("b", 1.5), ("c", 3.0))],
                         columns=["group", "measure", "stratifier", "average_rank", "datasets"])
    table = ranks_table(ranks, tests, "fold_quality_ranks", "Average rank", labels={"ED": "ED", "LD": "LD"})
    assert table.caption == f"Average rank; {named}" and not_named not in table.caption
    from stratbench.tables.format import latex_escape

    assert f"### Average rank; {named}" in table.markdown()
    assert rf"\caption{{{latex_escape(table.caption)}}}" in table.latex()
    assert f"<caption>{html.escape(table.caption)}</caption>" in table.html()
    p_cells = [cells[-2].text for block in table.blocks for _, cells in block]
    assert p_cells == ([f"{exact[0]:.3f} (e)", f"{f_p[1]:.3f} (F)"] if "(e)" in named
                       else [f"{v:.3f}" for v in (exact if "exact permutation" in named else f_p)])


def test_one_repeat_prints_no_spread():
    """A study of one repeat has no spread over repeats: the tables print "(1 repeat)", never "± 0.000"."""
    from stratbench.tables.format import mean_spread
    from stratbench.tables.summary import fold_quality_markdown, runtime_markdown

    assert mean_spread(0.0994, 0.0, 1, ".3f") == "0.099 (1 repeat)"
    assert mean_spread(0.0994, 0.0123, 5, ".3f") == "0.099 ± 0.012"
    fq = pd.DataFrame([("d", "random", "ED", 0.0994, 0.0, 1), ("d", "iterative", "ED", 0.0512, 0.0021, 5)],
                      columns=["dataset", "stratifier", "measure", "mean", "std", "repeats"])
    md = fold_quality_markdown(fq)
    assert "0.099 (1 repeat)" in md and "0.051 ± 0.002" in md and "± 0.000" not in md
    runtime = pd.DataFrame([("d", "random", 0, 0.25)], columns=["dataset", "stratifier", "repeat", "seconds"])
    assert "0.25 (1 repeat)" in runtime_markdown(runtime)
