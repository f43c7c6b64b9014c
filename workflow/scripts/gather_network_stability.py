"""Gather the network-stability rows and summarise them per dataset × stratifier."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.io import write_csv, write_text
from stratbench.labels.network import summarise_network_stability
from stratbench.tables.summary import network_markdown

rows = pd.concat([pd.read_csv(p) for p in snakemake.input], ignore_index=True)
rows = rows.sort_values(["dataset", "stratifier", "repeat", "fold", "graph", "part", "measure"], kind="stable")
write_csv(snakemake.output.csv, rows)
summary = summarise_network_stability(rows)
write_csv(snakemake.output.summary, summary)
write_text(snakemake.output.md, network_markdown(summary))
finish()
