"""Every k × seed split of one dataset by one stratifier: fold-quality measures and wall time."""
from stratbench._snakemake import setup

setup(snakemake)

from stratbench.datasets import load_dataset
from stratbench.grid import GRID_COLUMNS, quality_grid
from stratbench.io import write_csv

w, p = snakemake.wildcards, snakemake.params
rows = quality_grid(load_dataset(snakemake.input.data).Y, w.stratifier, p.spec, p.ks, p.seeds)
write_csv(snakemake.output[0], rows.assign(dataset=w.dataset, stratifier=w.stratifier)[GRID_COLUMNS])
