"""Split one dataset with one stratifier for one repeat; write the fold id of every example and
the stratifier's wall time (:func:`stratbench.stratifiers.timed_fold_ids`: after a warm-up call, so JIT
compilation is not counted)."""
from stratbench._snakemake import setup

setup(snakemake)

import numpy as np
import pandas as pd

from stratbench import stratifiers
from stratbench.datasets import load_dataset
from stratbench.io import save_npz, write_csv

w, p = snakemake.wildcards, snakemake.params
Y = load_dataset(snakemake.input.data).Y
splitter = stratifiers.build(w.stratifier, p.spec, n_splits=p.n_splits, random_state=p.seed)
try:
    folds, seconds = stratifiers.timed_fold_ids(splitter, Y)
except ValueError as exc:
    raise SystemExit(f"{snakemake.input.data}: {w.stratifier}: {exc}") from None
save_npz(snakemake.output.folds, fold=folds.astype(np.int32), n_splits=np.int64(p.n_splits), seed=np.int64(p.seed))
write_csv(snakemake.output.runtime, pd.DataFrame(
    [(w.dataset, w.stratifier, int(w.repeat), Y.shape[0], Y.shape[1], Y.nnz, seconds)],
    columns=["dataset", "stratifier", "repeat", "examples", "labels", "nnz", "seconds"]))
