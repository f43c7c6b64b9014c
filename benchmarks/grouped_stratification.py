"""Grouped splits: how well each method stratifies when whole groups must share a fold (run by hand;
figures go in issue notes).

    python benchmarks/grouped_stratification.py [--seeds 10] [--groups 200] [--k 5]

Synthetic grouped data (:mod:`stratbench.datasets.grouped_labels`: group sizes from a Zipf law capped
at 30, each group's labels kept by each member with probability 0.8, rows in random order) and, from the MULAN mirror, emotions and
yeast with groups of rows made by k-means on their features (about 15 rows a group). Methods: our
grouped `hybrid`, `iterative` and `random`; the baselines `group_kfold` (scikit-learn's `GroupKFold`),
`stratified_group_kfold` (its `StratifiedGroupKFold` on each example's labelset as its class) and
`maestros` (its method as k folds). Prints the mean LD, LPD, FLZ, DCP and ED per method, and checks that no
group is in two folds.
"""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans

from stratbench import stratifiers
from stratbench.datasets import grouped_labels
from stratbench.measures.fold_quality import fold_quality

ROOT = Path(__file__).resolve().parents[1]

MEASURES = ["LD", "LPD", "FLZ", "DCP", "ED"]
METHODS = ["hybrid", "iterative", "random", "maestros", "group_kfold", "stratified_group_kfold"]


def folds_of(method: str, Y, groups, k: int, seed: int) -> np.ndarray:
    return stratifiers.get(method, n_splits=k, random_state=seed).fold_ids(Y, groups)


def datasets(seeds: int, n_groups: int, mirror: Path | None):
    for seed in range(seeds):
        ds = grouped_labels.generate("synthetic", groups=n_groups, seed=seed)
        Y, groups = ds.Y, ds.groups
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
        for method in METHODS:
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
