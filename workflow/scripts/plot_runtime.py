"""Figure: stratifier wall time against dataset size (log–log)."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, runtime_vs_size, save_figure

style = FigureStyle.from_config(snakemake.config)
fig = runtime_vs_size(pd.read_csv(snakemake.input.runtime), style)
save_figure(fig, snakemake.output.png, snakemake.output.pdf, style)
