"""Figure: each measure's spread over the folds per dataset and stratifier, for one classifier."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, fold_distribution, save_figure
from stratbench.measure_table import MEASURE_LABELS

style = FigureStyle.from_config(snakemake.config)
fig = fold_distribution(pd.read_csv(snakemake.input.scores), snakemake.wildcards.classifier, MEASURE_LABELS,
                        style=style)
save_figure(fig, snakemake.output.png, snakemake.output.pdf, style)
