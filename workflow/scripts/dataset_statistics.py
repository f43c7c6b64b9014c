"""Table 1 statistics (Sechidis et al. 2011) of every dataset of the study."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import warnings

from stratbench.datasets import dataset_statistics, load_dataset
from stratbench.datasets.statistics import identical_label_matrices, statistics_table
from stratbench.io import write_csv, write_text
from stratbench.tables.summary import statistics_markdown

data = {name: load_dataset(path) for name, path in zip(snakemake.params.names, snakemake.input.data)}
labels = {name: ds.Y for name, ds in data.items()}
table = statistics_table([dataset_statistics(name, ds.Y, ds.dependence) for name, ds in data.items()])
same = identical_label_matrices(labels)
for a, b in same:
    warnings.warn(f"datasets {a!r} and {b!r} have identical label matrices: they count twice in every rank test", stacklevel=1)
write_csv(snakemake.output.csv, table)
write_text(snakemake.output.md, statistics_markdown(table, same))
finish()
