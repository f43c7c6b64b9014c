"""Parse a MULAN dataset's ARFF + XML files into the binary cache."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from pathlib import Path

from stratbench.datasets.core import save_dataset
from stratbench.datasets.mulan import parse_mulan

ds = parse_mulan(snakemake.wildcards.mulan, [Path(p) for p in snakemake.input.files])
save_dataset(ds, snakemake.output[0])
finish()
