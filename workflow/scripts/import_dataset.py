"""Read a user's own dataset (MULAN files or a feature/label matrix pair) into the binary cache."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench.datasets import save_dataset
from stratbench.datasets.local import read_local

save_dataset(read_local(snakemake.wildcards.dataset, snakemake.params.spec), snakemake.output[0])
finish()
