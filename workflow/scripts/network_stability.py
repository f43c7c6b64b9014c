"""Network stability of one fold assignment (Szymański & Kajdanowicz 2017 §5.2), as tidy rows."""
from stratbench._snakemake import setup

setup(snakemake)


from stratbench.datasets import load_dataset
from stratbench.evaluation import read_folds
from stratbench.io import write_csv
from stratbench.network import network_stability

w = snakemake.wildcards
Y = load_dataset(snakemake.input.data).Y
folds, n_splits = read_folds(snakemake.input.folds, Y.shape[0])
rows = network_stability(Y, folds, n_splits)
rows.insert(0, "dataset", w.dataset)
rows.insert(1, "stratifier", w.stratifier)
rows.insert(2, "repeat", int(w.repeat))
write_csv(snakemake.output[0], rows)
