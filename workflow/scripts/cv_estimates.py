"""One stratifier's CV estimates on every development sample of one (dataset, m), for every k and CV repeat:
each repeat's, per sample their mean and variance per (learner, measure, estimator), the models CV picks, the distinct test
sets, and the count model's quantities."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench.cv_error.run import (
    CHOICE_COLUMNS,
    ESTIMATE_COLUMNS,
    SPLIT_COLUMNS,
    STATS_COLUMNS,
    THEORY_COLUMNS,
    estimate_rows,
    splitter_factory,
)
from stratbench.datasets import load_dataset
from stratbench.io import write_rows

w, p, out = snakemake.wildcards, snakemake.params, snakemake.output
ds = load_dataset(snakemake.input.data)
rows = estimate_rows(ds.X, ds.Y, int(w.m), p.samples, p.repeats, p.ks, p.learners,
                     splitter_factory(w.stratifier, p.spec), p.seed, w.dataset, p.truth_size, p.stream)
key = (w.dataset, int(w.m), w.stratifier)
columns = {"estimates": ESTIMATE_COLUMNS, "stats": STATS_COLUMNS, "choices": CHOICE_COLUMNS, "splits": SPLIT_COLUMNS,
           "theory": THEORY_COLUMNS}
for part, names in columns.items():
    write_rows(getattr(out, part), ["dataset", "m", "stratifier", *names], [(*key, *r) for r in rows[part]])
finish()
