"""One stratifier's CV estimates on every development sample of one (dataset, m), for every k and CV
repeat, and the distinct test sets its splits gave."""
from stratbench._snakemake import finish, setup

setup(snakemake)

from stratbench.cv_error.run import ESTIMATE_COLUMNS, SPLIT_COLUMNS, estimate_rows, splitter_factory
from stratbench.datasets import load_dataset
from stratbench.io import write_rows

w, p, out = snakemake.wildcards, snakemake.params, snakemake.output
ds = load_dataset(snakemake.input.data)
rows, splits = estimate_rows(ds.X, ds.Y, int(w.m), p.samples, p.repeats, p.ks, p.learners,
                             splitter_factory(w.stratifier, p.spec), p.seed, w.dataset)
key = (w.dataset, int(w.m), w.stratifier)
write_rows(out.estimates, ["dataset", "m", "stratifier", *ESTIMATE_COLUMNS], [(*key, *r) for r in rows])
write_rows(out.splits, ["dataset", "m", "stratifier", *SPLIT_COLUMNS], [(*key, *r) for r in splits])
finish()
