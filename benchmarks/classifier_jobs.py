"""Classifier figures for the classifiers issue (run by hand; heavy, meant for a many-core machine).

    python benchmarks/classifier_jobs.py reproduce --processes 16   # BR and CLR vs Sechidis Tables 4-5
    python benchmarks/classifier_jobs.py timing --threads 2 --folds-timed 2

``reproduce``: scene, emotions, yeast; random, labelset, iterative; BR and CLR with 100 trees; 10-fold
CV with the sechidis2011 study's seeds (repeat 0); mean ± std over folds next to the published values.
Tasks are (dataset, stratifier, classifier, fold), one forest thread each, in a process pool.
``timing``: wall time of one job (10 folds of one dataset × stratifier × repeat) per classifier on
emotions, yeast, medical and enron with 100 trees and ``--threads`` forest threads, extrapolated from
the first ``--folds-timed`` folds. Datasets come from the cache (``STRATBENCH_CACHE``) or the mirror.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing as mp
import os
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

from stratbench import classifiers, stratifiers
from stratbench.datasets import load_mulan
from stratbench.measures.classification import evaluate
from stratbench.seeds import model_seed, split_seed

SEED, K, TREES = 2011, 10, 100  # config/sechidis2011.yaml
REFERENCE = Path(os.environ.get("STRATBENCH_REFERENCE", Path(__file__).resolve().parents[2] / "shared" / "reference"))
REFERENCE = REFERENCE / "sechidis2011_tables4_5_cv_estimates.csv"
_DATA: dict = {}


def data(name):
    if name not in _DATA:
        _DATA[name] = load_mulan(name)
    return _DATA[name]


@functools.cache
def folds_of(name, stratifier, repeat=0):
    return stratifiers.get(stratifier, n_splits=K, random_state=split_seed(SEED, name, repeat)).fold_ids(data(name).Y)


def one_fold(task):
    name, stratifier, classifier, fold, threads = task
    ds = data(name)
    folds = folds_of(name, stratifier)
    test = folds == fold
    start = time.perf_counter()
    model = classifiers.get(classifier, n_estimators=TREES, max_features="sqrt", n_jobs=threads,
                            random_state=model_seed(SEED, name, 0, fold)).fit(ds.X[~test], ds.Y[~test])
    values = evaluate(ds.Y[test], model.predict(ds.X[test]), model.predict_scores(ds.X[test]))
    seconds = time.perf_counter() - start
    return [dict(dataset=name, stratifier=stratifier, classifier=classifier, fold=fold, measure=m, value=v,
                 seconds=seconds) for m, v in values.items()]


def reproduce(processes: int) -> str:
    tasks = [(d, s, c, f, 1) for d in ("yeast", "scene", "emotions") for c in ("clr", "br")
             for s in ("random", "labelset", "iterative") for f in range(K)]
    with mp.get_context("fork").Pool(processes) as pool:
        rows = [r for part in pool.imap_unordered(one_fold, tasks) for r in part]
    scores = pd.DataFrame(rows)
    agg = scores.groupby(["classifier", "dataset", "stratifier", "measure"])["value"].agg(
        mean=lambda v: float(np.mean(v)), std=lambda v: float(np.std(v))).reset_index()
    ref = pd.read_csv(REFERENCE).rename(columns={"stratification": "stratifier"})
    ref["classifier"] = ref["classifier"].str.lower()
    ref["stratifier"] = ref["stratifier"].replace({"labelsets": "labelset"})
    table = agg.merge(ref[["classifier", "dataset", "stratifier", "measure", "mean", "std"]],
                      on=["classifier", "dataset", "stratifier", "measure"], how="left", suffixes=("", "_paper"))
    table["within_paper_std"] = (table["mean"] - table["mean_paper"]).abs() <= table["std_paper"]
    return table.to_markdown(index=False, floatfmt=".4f")


def timing(threads: int, folds_timed: int) -> str:
    rows = []
    for name in ("emotions", "yeast", "medical", "enron"):
        for classifier in classifiers.names():
            # the fit, predict and measures of each fold, as one_fold times them (not the data or folds)
            per_fold = np.mean([one_fold((name, "iterative", classifier, f, threads))[0]["seconds"]
                                for f in range(folds_timed)])
            rows.append(dict(dataset=name, labels=data(name).n_labels, classifier=classifier,
                             seconds_per_fold=per_fold, job_seconds_estimate=per_fold * K))
            print(rows[-1], file=sys.stderr, flush=True)
    return pd.DataFrame(rows).to_markdown(index=False, floatfmt=".1f")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["reproduce", "timing"])
    parser.add_argument("--processes", type=int, default=mp.cpu_count())
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--folds-timed", type=int, default=2)
    args = parser.parse_args()
    print(reproduce(args.processes) if args.mode == "reproduce" else timing(args.threads, args.folds_timed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
