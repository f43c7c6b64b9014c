"""The study's tables (stratbench.cv_error.summary.tables): the decomposition of the error, the paired comparisons
with the baseline and their false-discovery control, the A/A controls, the headline per dataset and across them,
the two estimators compared, the choice of model, the count model; and the jobs' rows they come from, compressed,
from which `python -m stratbench cv-error-tables` recomputes them."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.cv_error.summary import INPUTS, tables
from stratbench.io import write_csv

i, p, out = snakemake.input, snakemake.params, snakemake.output
inputs = {name: pd.concat([pd.read_csv(f) for f in i[name]], ignore_index=True) for name in INPUTS}
for name, frame in tables(inputs, p.stratifiers, p.baseline, p.controls, p.alpha, p.seed).items():
    write_csv(out[name], frame)
for name in INPUTS:
    write_csv(out[f"input_{name}"], inputs[name])
finish()
