"""Figure: average rank per measure and stratifier, one panel per dataset group (a classifier's std
over folds, or the fold-quality measures)."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, rank_bars, save_figure
from stratbench.measure_table import FOLD_QUALITY_LABELS, MEASURE_LABELS

style = FigureStyle.from_config(snakemake.config)
subject = snakemake.wildcards.subject
ranks = pd.read_csv(snakemake.input.ranks)
if "classifier" in ranks:
    ranks = ranks[ranks["classifier"] == subject]
title = ("Fold quality: average rank of each measure (lower is better)" if subject == "fold_quality"
         else f"{subject}: average rank of the std over folds (1 = lowest variance)")
labels = FOLD_QUALITY_LABELS if subject == "fold_quality" else MEASURE_LABELS
save_figure(rank_bars(ranks, title, labels, style), snakemake.output.png, snakemake.output.pdf, style)
