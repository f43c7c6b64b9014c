"""Generate a dataset defined in the config: the synthetic generator of Read et al. 2012, a sparse
random label matrix for scale tests, or grouped synthetic data for the grouped track."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench.datasets import save_dataset
from stratbench.study import GENERATED

make = GENERATED[snakemake.params.kind]
save_dataset(make(snakemake.wildcards.dataset, **snakemake.params.spec), snakemake.output[0])
finish()
