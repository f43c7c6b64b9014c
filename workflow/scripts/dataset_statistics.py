"""Table 1 statistics (Sechidis et al. 2011) of every dataset of the study."""
from stratbench._snakemake import setup

setup(snakemake)

from stratbench.datasets import dataset_statistics, load_dataset
from stratbench.datasets.statistics import statistics_table
from stratbench.io import write_csv, write_text
from stratbench.tables import statistics_markdown

rows = [dataset_statistics(name, load_dataset(path).Y) for name, path in zip(snakemake.params.names, snakemake.input.data)]
table = statistics_table(rows)
write_csv(snakemake.output.csv, table)
write_text(snakemake.output.md, statistics_markdown(table))
