"""Generate a dataset defined in the config: the synthetic generator of Read et al. 2012, or a
sparse random label matrix for scale tests."""
from stratbench._snakemake import setup

setup(snakemake)

from stratbench.datasets import generate_synthetic, save_dataset
from stratbench.datasets.random_labels import generate as generate_random_labels

make = {"synthetic": generate_synthetic, "random_labels": generate_random_labels}[snakemake.params.kind]
save_dataset(make(snakemake.wildcards.dataset, **snakemake.params.spec), snakemake.output[0])
