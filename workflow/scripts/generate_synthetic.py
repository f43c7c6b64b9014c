"""Generate a synthetic multi-label dataset (Read et al. 2012) from its config entry."""
from stratbench._snakemake import log_to

log_to(snakemake.log[0])

from stratbench.datasets import generate_synthetic, save_dataset  # noqa: E402

save_dataset(generate_synthetic(snakemake.wildcards.dataset, **snakemake.params.spec), snakemake.output[0])
