"""Every k × seed split of one dataset by one stratifier: fold-quality measures and wall time (of whole
groups where the dataset is grouped)."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench import stratifiers
from stratbench.datasets import load_dataset
from stratbench.datasets.groups import dataset_groups
from stratbench.grid import GRID_COLUMNS, quality_grid
from stratbench.io import write_csv
from stratbench.records.versions import software

w, p = snakemake.wildcards, snakemake.params
ds = load_dataset(snakemake.input.data)
rows = quality_grid(ds.Y, w.stratifier, p.spec, p.ks, p.seeds, dataset_groups(ds, p.groups, p.group_seed))
made_by = software(stratifiers.entry_class(w.stratifier, p.spec))  # stratbench's version and any package delegated to
write_csv(snakemake.output[0], rows.assign(dataset=w.dataset, stratifier=w.stratifier, software=made_by)[GRID_COLUMNS])
finish()
