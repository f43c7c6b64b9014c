"""Split one dataset with one stratifier for one repeat; write the fold id of every example."""
from stratbench._snakemake import build, log_to

log_to(snakemake.log[0])

import numpy as np  # noqa: E402

from stratbench import stratifiers  # noqa: E402
from stratbench.datasets import load_dataset  # noqa: E402
from stratbench.io import save_npz  # noqa: E402

Y = load_dataset(snakemake.input.data).Y
splitter = build(stratifiers, snakemake.wildcards.stratifier, snakemake.params.spec,
                 n_splits=snakemake.params.n_splits, random_state=snakemake.params.seed)
try:
    folds = splitter.fold_ids(Y)
except ValueError as exc:
    raise SystemExit(f"{snakemake.input.data}: {snakemake.wildcards.stratifier}: {exc}") from None
save_npz(snakemake.output[0], fold=folds.astype(np.int32),
         n_splits=np.int64(snakemake.params.n_splits), seed=np.int64(snakemake.params.seed))
