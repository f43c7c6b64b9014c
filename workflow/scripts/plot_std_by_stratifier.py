"""Figure: std over folds of every measure, per stratifier and dataset, for one classifier."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, save_figure, std_by_stratifier

style = FigureStyle.from_config(snakemake.config)
fig = std_by_stratifier(pd.read_csv(snakemake.input.summary), snakemake.wildcards.classifier, style)
save_figure(fig, snakemake.output.png, snakemake.output.pdf, style)
