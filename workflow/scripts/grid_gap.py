"""Each stratifier's distance from the best split possible: the gap table and its figure."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, save_figure
from stratbench.grid.optimum import gap_markdown, gap_table
from stratbench.io import write_csv, write_text
from stratbench.study.figures import draw, table_reader

out = snakemake.output
gaps = gap_table(pd.read_csv(snakemake.input.rows), pd.concat(map(pd.read_csv, snakemake.input.optimum)))
write_csv(out.csv, gaps)
write_text(out.md, gap_markdown(gaps))
style = FigureStyle.from_config(snakemake.params.style)
save_figure(draw("grid_gap", table_reader({"grid_gap.csv": out.csv}), "", style), out.png, out.pdf, style)
finish()
