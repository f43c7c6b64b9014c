"""Figures for the walking-skeleton note (run by hand):

1. load time of every real dataset, first (fetch from the mirror + parse + cache) and cached;
2. ED/LD/FZ/FLZ of random and iterative 10-fold CV (mean over 5 seeds) next to Sechidis 2011 Table 2.

    STRATBENCH_DATA_MIRROR=../shared/datasets/mulan python benchmarks/walking_skeleton.py
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from stratbench import stratifiers
from stratbench.datasets import load_mulan
from stratbench.measures.fold_quality import fold_quality

REFERENCE = Path(__file__).resolve().parents[2] / "shared" / "reference"
DATASETS = ["scene", "emotions", "genbase", "yeast", "medical", "bibtex", "enron", "corel5k", "delicious",
            "tmc2007-500", "cal500", "birds", "flags", "foodtruck"]
CV_DATASETS = ["scene", "emotions", "genbase", "yeast", "medical", "bibtex", "enron", "corel5k"]
SEEDS = range(5)


def loading(cache: Path) -> pd.DataFrame:
    rows = []
    for name in DATASETS:
        t0 = time.perf_counter()
        load_mulan(name, cache_dir=cache)
        first = time.perf_counter() - t0
        t0 = time.perf_counter()
        ds = load_mulan(name, cache_dir=cache)
        cached = time.perf_counter() - t0
        rows.append(dict(dataset=name, examples=ds.n_examples, labels=ds.n_labels,
                         first_s=round(first, 3), cached_s=round(cached, 4)))
    return pd.DataFrame(rows)


def table2(cache: Path) -> pd.DataFrame:
    ref = pd.read_csv(REFERENCE / "sechidis2011_table2_fold_statistics.csv")
    rows = []
    for name in CV_DATASETS:
        Y = load_mulan(name, cache_dir=cache).Y
        for method in ("random", "iterative"):
            q = [fold_quality(Y, stratifiers.get(method, n_splits=10, random_state=s).fold_ids(Y), 10) for s in SEEDS]
            r = ref[(ref.dataset == name) & (ref.stratification == method)].iloc[0]
            row = dict(dataset=name, stratifier=method)
            for m in ("ED", "LD", "FZ", "FLZ"):
                row[m] = float(np.mean([x[m] for x in q]))
                row[f"{m}_paper"] = r[m]
            rows.append(row)
    return pd.DataFrame(rows)


def main() -> int:
    if not os.environ.get("STRATBENCH_DATA_MIRROR"):
        print("set STRATBENCH_DATA_MIRROR", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        print(loading(Path(tmp)).to_markdown(index=False))
        print()
        print(table2(Path(tmp)).to_markdown(index=False, floatfmt=".4g"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
