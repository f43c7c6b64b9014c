"""The hybrid's cost against IS's over (n, q, k), and what its polish budget costs in LD (run by hand; figures go
in issue notes).

    python benchmarks/hybrid_cost.py grid  [--rows 200 300 500 700 1000 1500 2000] [--k 3 5 10] [--seeds 3]
    python benchmarks/hybrid_cost.py broad [--seeds 10] [--datasets …]

``grid``: yeast subsets of m rows (seeded choice of rows, as the cv_error study draws them), every k: the
seconds of one split of IS and of the hybrid (its polish bounded, ``polish_budget="auto"``, and unbounded, None:
the interleaved swaps and 3-cycles of earlier versions), the largest over the seeds, and the target
max(0.5 s, 3 × IS); LD of each, the mean over the seeds. ``broad``: the broad benchmark's datasets
(config/stratbench2026.yaml, without its 577,424-row one) at k ∈ {3, 5, 10}: LD, LPD and seconds of the hybrid
bounded and unbounded over ``--seeds`` seeds, and the paired change in LD. Every split in this process after a
warm-up split (no compilation is timed). Prints Markdown tables.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np

from stratbench import stratifiers
from stratbench.measures.fold_quality import label_distribution, pair_measures

ROOT = Path(__file__).resolve().parents[1]


def timed(name: str, Y, k: int, seed: int, **params):
    t0 = time.perf_counter()
    folds = stratifiers.get(name, n_splits=k, random_state=seed, **params).fold_ids(Y)
    return folds, time.perf_counter() - t0


def grid(rows: list[int], ks: list[int], seeds: int) -> None:
    from stratbench.datasets import load_mulan

    Y0 = load_mulan("yeast").Y
    timed("hybrid", Y0[:60], 3, 0)
    timed("iterative", Y0[:60], 3, 0)
    print("| m | k | IS s | hybrid s | target s | within | hybrid unbounded s | LD hybrid | LD unbounded |")
    print("|---|---|---|---|---|---|---|---|---|")
    for m in rows:
        Y = Y0[np.sort(np.random.default_rng(m).choice(Y0.shape[0], m, replace=False))]
        for k in ks:
            t_is, t_h, t_u, ld_h, ld_u = [], [], [], [], []
            for seed in range(seeds):
                t_is.append(timed("iterative", Y, k, seed)[1])
                folds, t = timed("hybrid", Y, k, seed)
                t_h.append(t)
                ld_h.append(label_distribution(Y, folds, k))
                folds, t = timed("hybrid", Y, k, seed, polish_budget=None)
                t_u.append(t)
                ld_u.append(label_distribution(Y, folds, k))
            target = max(0.5, 3 * max(t_is))
            print(f"| {m} | {k} | {max(t_is):.4f} | {max(t_h):.3f} | {target:.2f} | {'yes' if max(t_h) <= target else 'NO'} "
                  f"| {max(t_u):.2f} | {np.mean(ld_h):.5f} | {np.mean(ld_u):.5f} |", flush=True)


def broad(seeds: int, names: list[str] | None) -> None:
    from stratbench.study import Study

    study = Study.load(ROOT / "config" / "stratbench2026.yaml")
    names = names or [d for d in study.config["datasets"] if d != "go_cc_size"]
    print("| dataset | k | LD bounded | LD unbounded | ΔLD % (paired mean) | LPD bounded | LPD unbounded | s bounded (max) "
          "| s unbounded (max) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in names:
        Y = study.load_dataset(name, ROOT).Y
        timed("hybrid", Y[:60], 3, 0)
        for k in (3, 5, 10):
            rows = {"auto": [], None: []}
            for seed in range(seeds):
                for budget in rows:
                    folds, t = timed("hybrid", Y, k, seed, polish_budget=budget)
                    rows[budget].append((label_distribution(Y, folds, k), pair_measures(Y, folds, k)["LPD"], t))
            a, u = np.array(rows["auto"]), np.array(rows[None])
            change = 100 * np.mean(a[:, 0] / u[:, 0] - 1)
            print(f"| {name} | {k} | {a[:, 0].mean():.5f} | {u[:, 0].mean():.5f} | {change:+.2f} | {a[:, 1].mean():.5f} "
                  f"| {u[:, 1].mean():.5f} | {a[:, 2].max():.2f} | {u[:, 2].max():.2f} |", flush=True)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("part", choices=["grid", "broad"])
    parser.add_argument("--rows", nargs="+", type=int, default=[200, 300, 500, 700, 1000, 1500, 2000])
    parser.add_argument("--k", nargs="+", type=int, default=[3, 5, 10])
    parser.add_argument("--seeds", type=int, default=None)
    parser.add_argument("--datasets", nargs="+")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")
    if args.part == "grid":
        grid(args.rows, args.k, args.seeds or 3)
    else:
        broad(args.seeds or 10, args.datasets)


if __name__ == "__main__":
    main()
