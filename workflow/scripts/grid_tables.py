"""Gather the grid, summarise it over seeds, rank the stratifiers per k × measure across datasets."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.grid import rank_markdown, summarise
from stratbench.io import write_csv, write_text
from stratbench.measures.names import GRID_MEASURES
from stratbench.stats import compare

out = snakemake.output
rows = pd.concat([pd.read_csv(p) for p in snakemake.input.grid], ignore_index=True)
rows = rows.sort_values(["dataset", "stratifier", "k", "repeat", "measure"], kind="stable")
write_csv(out.rows, rows)
summary = summarise(rows)
write_csv(out.summary, summary)
ranked = summary[summary["measure"].isin(GRID_MEASURES)]
ranks, tests, pairs = compare(ranked, "mean", ["k", "measure"], snakemake.params.groups, ascending=True,
                              alpha=snakemake.params.alpha)
write_csv(out.ranks, ranks)
write_csv(out.tests, tests)
write_csv(out.pairs, pairs)
write_text(out.md, "# Fold-quality grid: average ranks across datasets\n\n" + rank_markdown(ranks, tests))
finish()
