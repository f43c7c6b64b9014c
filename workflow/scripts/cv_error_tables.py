"""The study's tables: the decomposition of the error, the paired comparisons with the baseline (bootstrap
intervals, Benjamini–Hochberg over every test), the two estimators compared, the choice of model, the count
model."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import pandas as pd

from stratbench.cv_error.summary import (
    choice_table,
    error_table,
    estimator_table,
    paired_table,
    per_sample,
    theory_table,
)
from stratbench.io import write_csv

i, p, out = snakemake.input, snakemake.params, snakemake.output
read = lambda files: pd.concat([pd.read_csv(f) for f in files], ignore_index=True)
truth, stats, choices, splits, theory = (read(files) for files in (i.truth, i.stats, i.choices, i.splits, i.theory))
samples = per_sample(truth, stats)
write_csv(out.errors, error_table(samples, splits, p.stratifiers))
write_csv(out.paired, paired_table(samples, p.baseline, p.alpha, p.seed))
write_csv(out.estimators, estimator_table(samples, p.seed))
write_csv(out.choices, choice_table(truth, choices, p.baseline, p.seed))
write_csv(out.theory, theory_table(theory))
finish()
