"""Split one dataset with one stratifier for one repeat; write the fold id of every example and
the stratifier's wall time (measured after a warm-up call, so JIT compilation is not counted)."""
from stratbench._snakemake import build, setup

setup(snakemake)

import time  # noqa: E402

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from stratbench import stratifiers  # noqa: E402
from stratbench.datasets import load_dataset  # noqa: E402
from stratbench.io import save_npz, write_csv  # noqa: E402

w = snakemake.wildcards
Y = load_dataset(snakemake.input.data).Y
splitter = build(stratifiers, w.stratifier, snakemake.params.spec,
                 n_splits=snakemake.params.n_splits, random_state=snakemake.params.seed)
try:
    warm = Y[: min(Y.shape[0], 4 * snakemake.params.n_splits)]
    if warm.shape[0] >= snakemake.params.n_splits:
        splitter.fold_ids(warm)
    start = time.perf_counter()
    folds = splitter.fold_ids(Y)
    seconds = time.perf_counter() - start
except ValueError as exc:
    raise SystemExit(f"{snakemake.input.data}: {w.stratifier}: {exc}") from None
save_npz(snakemake.output.folds, fold=folds.astype(np.int32),
         n_splits=np.int64(snakemake.params.n_splits), seed=np.int64(snakemake.params.seed))
write_csv(snakemake.output.runtime, pd.DataFrame(
    [(w.dataset, w.stratifier, int(w.repeat), Y.shape[0], Y.shape[1], Y.nnz, seconds)],
    columns=["dataset", "stratifier", "repeat", "examples", "labels", "nnz", "seconds"]))
