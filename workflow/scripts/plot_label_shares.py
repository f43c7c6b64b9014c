"""Figure: per-label positive share in each test fold against the whole dataset, per stratifier."""
from stratbench._snakemake import finish, setup

setup(snakemake)

import numpy as np

from stratbench.datasets import load_dataset
from stratbench.figures import FigureStyle, label_shares, save_figure

folds = {}
for stratifier, path in zip(snakemake.params.stratifiers, snakemake.input.folds):
    with np.load(path) as z:
        folds[stratifier], n_splits = z["fold"].astype(np.int64), int(z["n_splits"])
style = FigureStyle.from_config(snakemake.params.style)
fig = label_shares(load_dataset(snakemake.input.data).Y, folds, n_splits, snakemake.wildcards.dataset, style)
save_figure(fig, snakemake.output.png, snakemake.output.pdf, style)
finish()
