"""Critical-difference diagrams of the grid at one k, one panel per fold measure."""
from stratbench._snakemake import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, cd_diagrams, save_figure
from stratbench.measures.names import GRID_MEASURES

style = FigureStyle.from_config(snakemake.params.style)
k = int(snakemake.wildcards.k)
ranks, tests = (pd.read_csv(p) for p in (snakemake.input.ranks, snakemake.input.tests))
ranks = ranks[(ranks["k"] == k) & ranks["measure"].isin(GRID_MEASURES)]
tests = tests[(tests["k"] == k) & tests["measure"].isin(GRID_MEASURES)]
fig = cd_diagrams(ranks, tests, f"Fold quality across datasets, k = {k}", style=style)
save_figure(fig, snakemake.output.png, snakemake.output.pdf, style)
finish()
