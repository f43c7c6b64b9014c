"""The best split of one (small) dataset with exact fold sizes, per grid k and objective (CP-SAT)."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import warnings

from stratbench import stratifiers
from stratbench.datasets import load_dataset
from stratbench.grid.optimum import OPTIMUM_COLUMNS, optimum_rows
from stratbench.io import write_csv

p = snakemake.params
Y = load_dataset(snakemake.input.data).Y
hints = {}
if p.hint:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        hints = {k: stratifiers.build(p.hint, p.spec, n_splits=k, random_state=p.seed).fold_ids(Y)
                 for k in p.ks}
rows = optimum_rows(Y, p.ks, p.settings["objectives"], p.settings["max_time"], snakemake.threads, hints)
write_csv(snakemake.output[0], rows.assign(dataset=snakemake.wildcards.dataset)[OPTIMUM_COLUMNS])
finish()
