"""Each stratifier's distance from the best split possible: the gap table and its figure."""
from stratbench._snakemake import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, optimality_gap, save_figure
from stratbench.grid.optimum import gap_markdown, gap_table
from stratbench.io import write_csv, write_text

out = snakemake.output
gaps = gap_table(pd.read_csv(snakemake.input.rows), pd.concat(map(pd.read_csv, snakemake.input.optimum)))
write_csv(out.csv, gaps)
write_text(out.md, gap_markdown(gaps))
style = FigureStyle.from_config(snakemake.params.style)
objective = "LD" if (gaps["objective"] == "LD").any() else "FLZ"
save_figure(optimality_gap(gaps, objective, style), out.png, out.pdf, style)
finish()
