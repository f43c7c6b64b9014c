"""Train and test one classifier on the k folds of one (dataset, stratifier) for each repeat of the job (every
repeat of a small dataset, or one), one score file per repeat."""
from stratbench.jobs.script import finish, setup

setup(snakemake)

from stratbench import classifiers
from stratbench.classifiers.evaluation import evaluate_folds
from stratbench.datasets import load_dataset
from stratbench.io import read_folds, write_csv
from stratbench.records.versions import software
from stratbench.seeds import model_seed

w, p = snakemake.wildcards, snakemake.params
ds = load_dataset(snakemake.input.data)
for repeat, path, out in zip(p.repeats, snakemake.input.folds, snakemake.output):
    folds, n_splits = read_folds(path, ds.Y.shape[0])

    def make_classifier(fold, repeat=repeat):
        seed = model_seed(p.base_seed, w.dataset, repeat, fold)
        return classifiers.build(w.classifier, p.spec, p.forest, n_jobs=snakemake.threads, random_state=seed)

    rows = evaluate_folds(ds.X, ds.Y, folds, n_splits, make_classifier, n_jobs=snakemake.threads)
    rows.insert(0, "dataset", w.dataset)
    rows.insert(1, "stratifier", w.stratifier)
    rows.insert(2, "repeat", repeat)
    rows.insert(4, "classifier", w.classifier)
    rows["software"] = software(make_classifier(0))  # stratbench's version and scikit-learn's (the forests)
    write_csv(out, rows)
finish()
