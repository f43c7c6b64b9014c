"""Train and test one classifier on the k folds of one (dataset, stratifier, repeat)."""
from stratbench._snakemake import setup

setup(snakemake)

from stratbench import classifiers
from stratbench.datasets import load_dataset
from stratbench.evaluation import evaluate_folds, read_folds
from stratbench.io import write_csv
from stratbench.seeds import model_seed

w, p = snakemake.wildcards, snakemake.params
ds = load_dataset(snakemake.input.data)
folds, n_splits = read_folds(snakemake.input.folds, ds.Y.shape[0])


def make_classifier(fold):
    seed = model_seed(p.base_seed, w.dataset, int(w.repeat), fold)
    return classifiers.build(w.classifier, p.spec, p.forest, n_jobs=snakemake.threads, random_state=seed)


rows = evaluate_folds(ds.X, ds.Y, folds, n_splits, make_classifier, n_jobs=snakemake.threads)
rows.insert(0, "dataset", w.dataset)
rows.insert(1, "stratifier", w.stratifier)
rows.insert(2, "repeat", int(w.repeat))
rows.insert(4, "classifier", w.classifier)
write_csv(snakemake.output[0], rows)
