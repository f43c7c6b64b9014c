"""The study's tables as the papers print them: CSV, Markdown, LaTeX (booktabs) and HTML, one LaTeX
document that inputs them all, and the fold-quality tables of the three papers in one Markdown file."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from pathlib import Path

import pandas as pd

from stratbench.io import write_csv, write_text
from stratbench.papers.tables import fold_quality_table_names, study_tables
from stratbench.tables.documents import html_page, latex_document

inp, out = snakemake.input, snakemake.output
paper = snakemake.params.paper  # the paper the study reproduces (a user's by dotted path), or None
optional = {k: pd.read_csv(inp[k]) for k in ("summary", "ranks", "score_tests") if k in inp.keys()}
tables = {t.name: t for t in study_tables(pd.read_csv(inp.statistics), pd.read_csv(inp.fold_quality), pd.read_csv(inp.runtime),
                                          pd.read_csv(inp.fold_quality_ranks), pd.read_csv(inp.fold_quality_tests),
                                          **optional, order=snakemake.params.stratifiers, paper=paper)}
folder = Path(out.document).parent
names = snakemake.params.names
for name in names:
    table = tables.get(name)
    if table is None:  # a declared table without data (e.g. a classifier that ran on no dataset)
        raise SystemExit(f"paper table {name!r}: no data in this study's results")
    write_csv(folder / f"{name}.csv", table.data)
    write_text(folder / f"{name}.md", table.markdown())
    write_text(folder / f"{name}.tex", table.latex())
    write_text(folder / f"{name}.html", html_page([table], table.caption))
write_text(out.document, latex_document(names, f"stratbench study {snakemake.params.study}"))
write_text(out.markdown, "\n".join(tables[n].markdown() for n in names))
if paper:
    fold_quality_papers = [n for n in fold_quality_table_names(paper) if n in tables]
    write_text(out.fold_quality_papers, "\n".join(tables[n].markdown() for n in fold_quality_papers))
finish()
