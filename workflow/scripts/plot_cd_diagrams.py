"""Figure: critical-difference diagrams (Nemenyi), one panel per measure, over all datasets."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, cd_diagrams, save_figure
from stratbench.measure_table import FOLD_QUALITY_LABELS, MEASURE_LABELS

style = FigureStyle.from_config(snakemake.config)
subject = snakemake.wildcards.subject
tables = [pd.read_csv(p) for p in (snakemake.input.ranks, snakemake.input.tests)]
if subject != "fold_quality":
    tables = [t[t["classifier"] == subject] for t in tables]
title = ("Fold quality: Nemenyi critical differences of the average ranks" if subject == "fold_quality"
         else f"{subject}: Nemenyi critical differences of the average ranks of the std")
labels = FOLD_QUALITY_LABELS if subject == "fold_quality" else MEASURE_LABELS
save_figure(cd_diagrams(*tables, title, labels=labels, style=style), snakemake.output.png, snakemake.output.pdf, style)
