"""ED, LD, FZ, FLZ of one fold assignment, as tidy rows."""
from stratbench._snakemake import setup

setup(snakemake)

import pandas as pd

from stratbench.datasets import load_dataset
from stratbench.evaluation import read_folds
from stratbench.io import write_csv
from stratbench.measures.fold_quality import fold_quality

w = snakemake.wildcards
Y = load_dataset(snakemake.input.data).Y
folds, n_splits = read_folds(snakemake.input.folds, Y.shape[0])
values = fold_quality(Y, folds, n_splits)
write_csv(snakemake.output[0], pd.DataFrame(
    [(w.dataset, w.stratifier, int(w.repeat), m, float(v)) for m, v in values.items()],
    columns=["dataset", "stratifier", "repeat", "measure", "value"]))
