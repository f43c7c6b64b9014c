"""Gather the stratifiers' wall times (a measurement: it varies from run to run)."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.io import write_csv, write_text
from stratbench.tables.summary import runtime_markdown

rows = pd.concat([pd.read_csv(p) for p in snakemake.input], ignore_index=True)
rows = rows.sort_values(["dataset", "stratifier", "repeat"], kind="stable")
write_csv(snakemake.output.csv, rows)
write_text(snakemake.output.md, runtime_markdown(rows))
finish()
