"""Figure: std over folds of every measure, per stratifier and dataset, for one classifier."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import save_figure, std_by_stratifier

fig = std_by_stratifier(pd.read_csv(snakemake.input.summary), snakemake.wildcards.classifier)
save_figure(fig, snakemake.output.png, snakemake.output.pdf)
