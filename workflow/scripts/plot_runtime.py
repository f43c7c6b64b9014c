"""Figure: stratifier wall time against dataset size (log–log)."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import runtime_vs_size, save_figure

save_figure(runtime_vs_size(pd.read_csv(snakemake.input.runtime)), snakemake.output.png, snakemake.output.pdf)
