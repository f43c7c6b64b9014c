"""ED, LD, FZ, FLZ of one fold assignment, as tidy rows."""
from stratbench._snakemake import setup

setup(snakemake)

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from stratbench.datasets import load_dataset  # noqa: E402
from stratbench.fold_quality import fold_quality  # noqa: E402
from stratbench.io import write_csv  # noqa: E402

w = snakemake.wildcards
with np.load(snakemake.input.folds) as z:
    folds, n_splits = z["fold"].astype(np.int64), int(z["n_splits"])
values = fold_quality(load_dataset(snakemake.input.data).Y, folds, n_splits)
write_csv(snakemake.output[0], pd.DataFrame(
    [(w.dataset, w.stratifier, int(w.repeat), m, float(v)) for m, v in values.items()],
    columns=["dataset", "stratifier", "repeat", "measure", "value"]))
