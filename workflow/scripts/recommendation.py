"""'Which stratifier should I use', drawn from the grid's ranks, tests and runtimes."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.grid import recommendation
from stratbench.io import write_text

inp = snakemake.input
tables = {name: pd.read_csv(inp[name]) for name in ("summary", "ranks", "tests", "pairs", "statistics")}
gaps = pd.read_csv(inp.gaps) if "gaps" in inp.keys() else None
write_text(snakemake.output[0], recommendation(tables["summary"], tables["ranks"], tables["tests"], tables["pairs"],
                                               tables["statistics"], snakemake.params.study,
                                               baselines=snakemake.params.baselines, alpha=snakemake.params.alpha,
                                               synthetic=snakemake.params.synthetic, gaps=gaps,
                                               grouped=snakemake.params.grouped))
finish()
