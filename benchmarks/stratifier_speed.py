"""Speed, memory and fold quality of our IS and SOIS against the reference implementations
(scikit-multilearn 0.2.0 IterativeStratification order 1 and 2, iterative-stratification 0.1.9
MultilabelStratifiedKFold), plus optisplit and the hybrid, on the same data and seeds. Run by hand:

    STRATBENCH_DATA_MIRROR=../shared/datasets/mulan python benchmarks/stratifier_speed.py \\
        [--datasets emotions yeast bibtex delicious go] [--folds 10] [--seeds 1] [--timeout 600]

Each (method, dataset, seed) runs in a fresh process: wall time of the split alone, JIT warm-up
(numba compilation or cache load) timed separately, peak resident memory of that process (data
included) and its increase over the process's size after loading the data. "go" is a random label
matrix of the size of the GO "CC" set of Tiittanen et al. 2021 (577,424 × 1,688, density 0.0077).
Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import sys
import time
import warnings

import numpy as np
import pandas as pd

OURS = {"IS (ours)": ("iterative", {}), "SOIS (ours)": ("sois", {}),
        "optisplit-rLD (ours)": ("optisplit_rld", {}), "optisplit-DCP (ours)": ("optisplit_dcp", {}),
        "hybrid (ours)": ("hybrid", {})}
# the other stratifiers, run by name but not by default (benchmarks/scaling.py runs every one)
OTHERS = {"random": ("random", {}), "kfold": ("kfold", {}), "labelset": ("labelset", {}), "ss": ("ss", {}),
          "pmbsrs": ("pmbsrs", {})}
# the hybrid's cheaper settings, run by name (benchmarks/extreme_scale.py at Amazon-670K's shape)
SETTINGS = {"hybrid, IS start": ("hybrid", {"start": "iterative"}),
            "hybrid, IS start, no polish": ("hybrid", {"start": "iterative", "polish": None})}
ALL_OURS = {**OURS, **OTHERS, **SETTINGS}  # every stratbench stratifier this benchmark can run by name
REFERENCES = ["IS iterstrat", "IS skmultilearn", "SOIS skmultilearn"]
CPU = [0.0]  # the last split's CPU seconds


def load(name: str):
    """A MULAN dataset by name; "go" (below); ``random_<n>x<q>``: n × q random labels at 7.7 labels a row
    (density min(0.3, 7.7/q); GO "CC"'s at q = 1,000), as the scaling track sweeps them; ``xc_<name>``: a matrix
    of the shape and label-frequency law of an Extreme Classification Repository dataset, ``xc_<n>x<q>`` one
    of Amazon-670K's law and labels a point with n points and q labels (:mod:`stratbench.datasets.extreme`)."""
    if name.startswith("xc_"):
        from stratbench.datasets import extreme

        shape = name.removeprefix("xc_")
        if shape in extreme.REPOSITORY:
            return extreme.repository_matrix(shape, seed=0)
        n, q = (int(v) for v in shape.split("x"))
        return extreme.generate(n, q, extreme.REPOSITORY["Amazon-670K"][2], seed=0)
    if name.startswith("random_"):
        from stratbench.datasets.random_labels import generate

        n, q = (int(v) for v in name.removeprefix("random_").split("x"))
        return generate(name, n, q, min(0.3, 7.7 / q), skew=0.5, seed=1).Y
    if name == "go":
        from stratbench.datasets.random_labels import generate

        return generate("go", 577_424, 1_688, 0.0077, skew=0.5, seed=1).Y
    from stratbench.datasets import load_mulan

    return load_mulan(name).Y


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def split(method: str, Y, k: int, seed: int):
    """(fold ids, warm-up seconds, split seconds); the split's CPU seconds (this process, every thread)
    in ``CPU[0]``."""
    if method in ALL_OURS:
        from stratbench import stratifiers

        name, params = ALL_OURS[method]
        t0 = time.perf_counter()
        stratifiers.get(name, n_splits=2, random_state=0, **params).fold_ids(Y[:20])
        warm = time.perf_counter() - t0
        t0, c0 = time.perf_counter(), time.process_time()
        folds = stratifiers.get(name, n_splits=k, random_state=seed, **params).fold_ids(Y)
        CPU[0] = time.process_time() - c0
        return folds, warm, time.perf_counter() - t0
    dense = Y.toarray().astype(np.int8) if method != "IS iterstrat" else Y.toarray().astype(bool)
    X = np.zeros((Y.shape[0], 1))
    t0, c0 = time.perf_counter(), time.process_time()
    if method == "IS iterstrat":
        from iterstrat.ml_stratifiers import MultilabelStratifiedKFold

        cv = MultilabelStratifiedKFold(n_splits=k, shuffle=True, random_state=seed)
    else:
        from skmultilearn.model_selection import IterativeStratification

        np.random.seed(seed)  # scikit-multilearn 0.2.0 draws from the global RNG
        cv = IterativeStratification(n_splits=k, order=1 if method.startswith("IS") else 2)
    folds = np.empty(Y.shape[0], dtype=np.int64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, (_, test) in enumerate(cv.split(X, dense)):
            folds[test] = j
    CPU[0] = time.process_time() - c0
    return folds, 0.0, time.perf_counter() - t0


def _child(method, dataset, k, seed, queue):
    from stratbench.measures.fold_quality import fold_quality

    Y = load(dataset)
    base = _rss_mb()
    folds, warm, seconds = split(method, Y, k, seed)
    peak = _rss_mb()
    q = fold_quality(Y, folds, k, pairs=False)
    support = np.bincount(Y.indices, minlength=Y.shape[1])
    floor = int(np.maximum(0, k - support[support > 0]).sum())  # the (fold, label) cells no split can fill
    queue.put(dict(dataset=dataset, method=method, seed=seed, seconds=seconds, cpu_s=CPU[0], warmup_s=warm,
                   peak_mb=peak, extra_mb=peak - base, LD=q["LD"], FLZ=q["FLZ"], FLZ_floor=floor, rLD=q["rLD"],
                   ED=q["ED"]))


def run(method, dataset, k, seed, timeout):
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    proc = ctx.Process(target=_child, args=(method, dataset, k, seed, queue))
    start = time.perf_counter()
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return dict(dataset=dataset, method=method, seed=seed, seconds=float("inf"),
                    note=f"> {timeout:.0f} s (stopped)")
    if queue.empty():
        return dict(dataset=dataset, method=method, seed=seed, seconds=float("nan"), note=f"failed ({proc.exitcode})")
    out = queue.get()
    out["process_s"] = time.perf_counter() - start
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["emotions", "yeast", "bibtex", "delicious", "go"])
    parser.add_argument("--methods", nargs="+", default=[*OURS, *REFERENCES])
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--seeds", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--csv", help="also write the raw rows here")
    args = parser.parse_args()
    rows = []
    for dataset in args.datasets:
        for method in args.methods:
            for seed in range(args.seeds):
                row = run(method, dataset, args.folds, seed, args.timeout)
                rows.append(row)
                print(row, file=sys.stderr, flush=True)
    table = pd.DataFrame(rows)
    if args.csv:
        table.to_csv(args.csv, index=False)
    agg = table.groupby(["dataset", "method"], sort=False).mean(numeric_only=True).reset_index()
    for _, part in agg.groupby("dataset", sort=False):
        fastest_ref = part[part.method.isin(REFERENCES)]["seconds"].min()
        agg.loc[part.index, "speed-up vs fastest reference"] = fastest_ref / part["seconds"]
    cols = ["dataset", "method", "seconds", "speed-up vs fastest reference", "warmup_s", "peak_mb", "extra_mb",
            "LD", "FLZ", "rLD", "ED"]
    print(agg[[c for c in cols if c in agg]].to_markdown(index=False, floatfmt=".4g"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
