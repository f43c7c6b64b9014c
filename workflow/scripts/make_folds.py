"""Split one dataset with one stratifier for every repeat of the study (or one repeat, for a large label
matrix), in one process: write each
repeat's fold ids, the stratifier's wall time (:func:`stratbench.stratifiers.timed_fold_ids`: after a
warm-up call, so JIT compilation is not counted) and the folds' quality (ED, LD, FZ, FLZ, … as tidy rows). A
dataset's ``strata:`` (features stratified on beside the labels) are split on too, and each column's LD and
FLZ over its values written as ``LD[column]`` and ``FLZ[column]``.
It imports numpy, scipy.sparse, numba and the stratifier: no scikit-learn, pandas or matplotlib."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

import numpy as np

from stratbench import stratifiers
from stratbench.datasets import load_dataset
from stratbench.datasets.core import feature_strata
from stratbench.io import save_npz, write_rows
from stratbench.measures.fold_quality import fold_quality
from stratbench.records.versions import software

w, p, out = snakemake.wildcards, snakemake.params, snakemake.output
out_folds, out_runtime, out_quality = ([x] if isinstance(x, str) else x for x in (out.folds, out.runtime, out.quality))
dataset = load_dataset(snakemake.input.data)
Y = dataset.Y
strata = feature_strata(dataset, p.strata).expand() if p.strata else None
wanted = getattr(stratifiers.entry_class(w.stratifier, p.spec), "context", ())  # e.g. from_file: dataset and repeat
for i, (repeat, seed) in enumerate(zip(p.repeats, p.seeds)):
    context = {k: v for k, v in (("dataset", w.dataset), ("repeat", int(repeat))) if k in wanted}
    splitter = stratifiers.build(w.stratifier, p.spec, n_splits=p.n_splits, random_state=seed, **context)
    try:
        folds, seconds = stratifiers.timed_fold_ids(splitter, Y, strata=strata)
    except ValueError as exc:
        raise SystemExit(f"{snakemake.input.data}: {w.stratifier}: {exc}") from None
    folds = folds.astype(np.int32)
    save_npz(out_folds[i], fold=folds, n_splits=np.int64(p.n_splits), seed=np.int64(seed))
    made_by = software(splitter)  # stratbench's version and any package the method delegates to
    write_rows(out_runtime[i], ["dataset", "stratifier", "repeat", "examples", "labels", "nnz", "seconds", "software"],
               [(w.dataset, w.stratifier, int(repeat), Y.shape[0], Y.shape[1], Y.nnz, seconds, made_by)])
    values = fold_quality(Y, folds.astype(np.int64), int(p.n_splits))
    for column in dict.fromkeys(strata.columns if strata is not None else ()):  # each column over its values
        own = strata.matrix[:, [i for i, c in enumerate(strata.columns) if c == column]]
        quality = fold_quality(own, folds.astype(np.int64), int(p.n_splits))
        values.update({f"{m}[{column}]": quality[m] for m in ("LD", "FLZ")})
    write_rows(out_quality[i], ["dataset", "stratifier", "repeat", "measure", "value", "software"],
               [(w.dataset, w.stratifier, int(repeat), m, float(v), made_by) for m, v in values.items()])
finish()
