"""Gather every evaluation job's rows into the study's tidy scores table."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.io import write_csv
from stratbench.tables.summary import SCORE_COLUMNS

rows = pd.concat([pd.read_csv(p) for p in snakemake.input], ignore_index=True)[SCORE_COLUMNS]
rows = rows.sort_values(["dataset", "stratifier", "classifier", "repeat", "fold", "measure"], kind="stable")
write_csv(snakemake.output[0], rows)
finish()
