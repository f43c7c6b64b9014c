"""The truths of every development sample of one (dataset, m): each learner (and each candidate of the
model-selection task) fitted on the sample, and on the first m(k − 1)/k rows of it, scored on the dataset's
fixed truth set; its bootstrap noise."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench.cv_error.run import TRUTH_COLUMNS, truth_rows
from stratbench.datasets import load_dataset
from stratbench.io import write_rows

w, p = snakemake.wildcards, snakemake.params
ds = load_dataset(snakemake.input.data)
rows = truth_rows(ds.X, ds.Y, int(w.m), p.samples, p.learners, p.ks, p.seed, w.dataset, p.truth_size)
write_rows(snakemake.output[0], ["dataset", "m", *TRUTH_COLUMNS], [(w.dataset, int(w.m), *r) for r in rows])
finish()
