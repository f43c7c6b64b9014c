"""Gather the fold-quality rows of the study and summarise them over repeats."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.io import write_csv, write_text
from stratbench.tables.summary import FOLD_QUALITY_COLUMNS, fold_quality_markdown, summarise_fold_quality

rows = pd.concat([pd.read_csv(p) for p in snakemake.input], ignore_index=True)
rows = rows[FOLD_QUALITY_COLUMNS].sort_values(["dataset", "stratifier", "repeat", "measure"], kind="stable")
write_csv(snakemake.output.csv, rows)
summary = summarise_fold_quality(rows)
write_csv(snakemake.output.summary, summary)
write_text(snakemake.output.md, fold_quality_markdown(summary))
finish()
