"""Grouped splits: how well each method stratifies when whole groups must share a fold (run by hand;
figures go in issue notes).

    python benchmarks/grouped_stratification.py [--seeds 10] [--groups 200] [--k 5]

Synthetic grouped data (group sizes from a Zipf law capped at 30, each group's labels kept by each
member with probability 0.8, groups interleaved over the rows) and, from the MULAN mirror, emotions and
yeast with groups of rows made by k-means on their features (about 15 rows a group). Methods: our
grouped `iterative` and `random`, scikit-learn's `GroupKFold` and `StratifiedGroupKFold` on each
example's labelset as its class. Prints the mean LD, LPD, FLZ, DCP and ED per method, and checks that no
group is in two folds.
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from sklearn.model_selection import GroupKFold, StratifiedGroupKFold

from stratbench import stratifiers
from stratbench.fold_quality import fold_quality
from stratbench.labels import as_label_matrix, labelset_ids

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from test_groups import grouped_data  # noqa: E402  (the tests' generator, so the benchmark and tests agree)

MEASURES = ["LD", "LPD", "FLZ", "DCP", "ED"]


def folds_of(method: str, Y, groups, k: int, seed: int) -> np.ndarray:
    if method in ("iterative", "random"):
        return stratifiers.get(method, n_splits=k, random_state=seed).fold_ids(Y, groups)
    if method == "GroupKFold":
        splits = GroupKFold(n_splits=k).split(np.zeros(len(groups)), groups=groups)
    else:
        classes = labelset_ids(as_label_matrix(Y))
        splits = StratifiedGroupKFold(n_splits=k, shuffle=True, random_state=seed).split(
            np.zeros(len(groups)), classes, groups)
    folds = np.empty(len(groups), dtype=np.int64)
    for j, (_, test) in enumerate(splits):
        folds[test] = j
    return folds


def datasets(seeds: int, n_groups: int, mirror: Path | None):
    for seed in range(seeds):
        Y, groups = grouped_data(seed, n_groups=n_groups)
        yield "synthetic", seed, Y, groups
    if mirror is None:
        return
    from stratbench.datasets import load_mulan

    for name in ("emotions", "yeast"):
        ds = load_mulan(name, mirror=str(mirror))
        X = ds.X.toarray() if hasattr(ds.X, "toarray") else ds.X
        for seed in range(seeds):
            groups = KMeans(n_clusters=max(2, ds.Y.shape[0] // 15), n_init=1, random_state=seed).fit_predict(X)
            yield name, seed, ds.Y, groups


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--groups", type=int, default=200)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--mirror", default=str(ROOT.parent / "shared" / "datasets" / "mulan"))
    args = parser.parse_args()
    mirror = Path(args.mirror) if Path(args.mirror).is_dir() else None
    rows = []
    warnings.simplefilter("ignore")
    for dataset, seed, Y, groups in datasets(args.seeds, args.groups, mirror):
        for method in ("iterative", "random", "GroupKFold", "StratifiedGroupKFold"):
            folds = folds_of(method, Y, groups, args.k, seed)
            for g in np.unique(groups):  # no group in two folds
                assert len(np.unique(folds[groups == g])) == 1, (method, dataset, g)
            q = fold_quality(Y, folds, args.k)
            rows.append({"dataset": dataset, "method": method, "seed": seed, **{m: q[m] for m in MEASURES}})
    table = pd.DataFrame(rows).groupby(["dataset", "method"], sort=False)[MEASURES].mean()
    print(table.to_markdown(floatfmt=".4g"))
    print("no group in two folds: checked for every split")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
