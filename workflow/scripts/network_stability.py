"""Network stability of one (dataset, stratifier)'s fold assignments, every repeat in one process
(Szymański & Kajdanowicz 2017 §5.2), as tidy rows, one file per repeat."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench.datasets import load_dataset
from stratbench.io import read_folds, write_csv
from stratbench.labels.network import network_stability

w = snakemake.wildcards
Y = load_dataset(snakemake.input.data).Y
for repeat, path, out in zip(snakemake.params.repeats, snakemake.input.folds, snakemake.output):
    folds, n_splits = read_folds(path, Y.shape[0])
    rows = network_stability(Y, folds, n_splits)
    rows.insert(0, "dataset", w.dataset)
    rows.insert(1, "stratifier", w.stratifier)
    rows.insert(2, "repeat", int(repeat))
    write_csv(out, rows)
finish()
