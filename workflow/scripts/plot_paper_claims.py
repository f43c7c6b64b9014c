"""Figure: the average ranks behind the claims of the paper the study reproduces (its ``claim_ranks``),
one panel per claim (and classifier), as the paper's own average-rank bar charts."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.figures import FigureStyle, claim_rank_bars, save_figure
from stratbench.reproduction import claim_ranks

inp = snakemake.input
style = FigureStyle.from_config(snakemake.config)
optional = {k: pd.read_csv(inp[k]) for k in ("summary", "network") if k in inp.keys()}
ranks = claim_ranks(snakemake.params.paper, pd.read_csv(inp.fold_quality), **optional)
figure = claim_rank_bars(ranks, snakemake.params.paper, style)
save_figure(figure, snakemake.output.png, snakemake.output.pdf, style)
