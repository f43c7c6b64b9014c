"""The scaling track: every stratifier's time and peak memory from 10³ to 10⁶ rows and from 10 to 10⁵
sparse labels, the reference implementations beside ours (run by hand; figures go in issue notes).

    python benchmarks/scaling.py [--rows 1e3 1e4 1e5 1e6] [--labels 10 100 1e3 1e4 1e5] \\
        [--methods …] [--timeout 600] [--out results/scaling]

Two sweeps of random sparse label matrices (:mod:`stratbench.datasets.random_labels`, skew 0.5):
rows n at q = 1,000 labels, and labels q at n = 10⁵ rows; the density is min(0.3, 7.7/q), i.e. 7.7
labels per row, GO "CC"'s density (0.0077) at q = 1,000 (Tiittanen et al. 2021). Each (method, size)
runs in a fresh process (``benchmarks/stratifier_speed.py``'s ``run``): the split's wall time, the
process's CPU time over it, numba's warm-up excluded, the process's peak resident memory and its rise
over the data. A method stopped by ``--timeout`` (10 minutes by default) or failing is not run at the
larger sizes of that sweep. Writes ``scaling.csv``, ``scaling.md`` (the table, the largest size each
method reached, the fitted exponent b of time ∝ n^b over the points above 0.05 s) and ``scaling.png``
(log–log) under ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import stratifier_speed as speed  # noqa: E402  (one way to run a method in a child process, for both benchmarks)

OURS = [*speed.OTHERS, *speed.OURS]  # every stratifier; the child processes look them up in stratifier_speed
DENSE_LIMIT_BYTES = 2e9  # the references take dense label matrices: skipped above n·q·8 = 2 GB unless --dense-limit-gb


def matrix_name(n: int, q: int) -> str:
    """The name ``stratifier_speed.load`` makes the sweep's n × q matrix from."""
    return f"random_{n}x{q}"


def sweep(kind: str, sizes: list[tuple[int, int]], methods: list[str], k: int, timeout: float,
          dense_limit: float = DENSE_LIMIT_BYTES) -> list[dict]:
    rows, stopped = [], set()
    for n, q in sizes:
        for method in methods:
            if method in stopped:
                continue
            if method in speed.REFERENCES and n * q * 8 > dense_limit:
                stopped.add(method)
                continue
            row = {"sweep": kind, "n": n, "q": q, **speed.run(method, matrix_name(n, q), k, 0, timeout)}
            rows.append(row)
            print({key: row.get(key) for key in ("sweep", "n", "q", "method", "seconds", "cpu_s", "peak_mb", "note")},
                  file=sys.stderr, flush=True)
            if not np.isfinite(row.get("seconds", np.nan)):
                stopped.add(method)
    return rows


def exponent(part: pd.DataFrame, x: str) -> float:
    """Slope of log(seconds) against log(x) over the points above 0.05 s (NaN with fewer than two)."""
    ok = part[np.isfinite(part["seconds"]) & (part["seconds"] > 0.05)]
    if len(ok) < 2:
        return float("nan")
    return float(np.polyfit(np.log(ok[x]), np.log(ok["seconds"]), 1)[0])


def summary(table: pd.DataFrame) -> pd.DataFrame:
    out = []
    for method, part in table.groupby("method", sort=False):
        row = {"method": method}
        for kind, x in (("rows", "n"), ("labels", "q")):
            s = part[part["sweep"] == kind]
            done = s[np.isfinite(s["seconds"])]
            row[f"largest {x}"] = int(done[x].max()) if len(done) else 0
            row[f"exponent in {x}"] = exponent(s, x)
        rows = part[(part["sweep"] == "rows") & np.isfinite(part["seconds"])]
        big = rows[rows["n"] == rows["n"].max()]
        row["seconds at largest n"] = float(big["seconds"].iloc[0]) if len(big) else float("nan")
        row["peak MB at largest n"] = float(big["peak_mb"].iloc[0]) if len(big) else float("nan")
        out.append(row)
    return pd.DataFrame(out)


def figure(table: pd.DataFrame, path: Path) -> None:
    import matplotlib.pyplot as plt

    from stratbench.figures import FigureStyle, save_figure

    style = FigureStyle()
    with style.drawing():
        fig, axes = plt.subplots(1, 2, figsize=(style.width, 3.4), sharey=True)
        cmap = plt.get_cmap("tab20")
        for i, (method, part) in enumerate(table.groupby("method", sort=False)):
            for ax, (kind, x) in zip(axes, (("rows", "n"), ("labels", "q"))):
                s = part[(part["sweep"] == kind) & np.isfinite(part["seconds"])].sort_values(x)
                ax.plot(s[x], s["seconds"], marker="o", markersize=3, color=cmap(i % 20), label=method if kind == "rows" else None)
        for ax, title in zip(axes, ("rows n (q = 1,000)", "labels q (n = 100,000)")):
            if ax.has_data():  # a sweep that was not run (--labels with no sizes) stays linear and empty
                ax.set_xscale("log")
                ax.set_yscale("log")
            ax.set_xlabel(title)
            ax.grid(lw=0.3)
        axes[0].set_ylabel("wall time of one 10-fold split (s)")
        fig.legend(loc="outside lower center", ncols=4, frameon=False)
        fig.suptitle("Stratifier time against size (7.7 labels per row)")
    save_figure(fig, path, path.with_suffix(".pdf"), style)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", nargs="+", type=float, default=[1e3, 1e4, 1e5, 1e6])
    parser.add_argument("--labels", nargs="*", type=float, default=[10, 100, 1e3, 1e4, 1e5])  # none: no label sweep
    parser.add_argument("--methods", nargs="+", default=[*OURS, *speed.REFERENCES])
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--out", default=str(ROOT / "results" / "scaling"))
    parser.add_argument("--dense-limit-gb", type=float, default=DENSE_LIMIT_BYTES / 1e9,
                        help="largest n·q·8 bytes a reference is run at (they take dense label matrices)")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    limit = args.dense_limit_gb * 1e9
    rows = sweep("rows", [(int(n), 1000) for n in args.rows], args.methods, args.folds, args.timeout, limit)
    rows += sweep("labels", [(100_000, int(q)) for q in args.labels], args.methods, args.folds, args.timeout, limit)
    table = pd.DataFrame(rows)
    table.to_csv(out / "scaling.csv", index=False)
    table["seconds"] = table["seconds"].astype(float)
    best = summary(table)
    cols = ["sweep", "n", "q", "method", "seconds", "cpu_s", "warmup_s", "peak_mb", "extra_mb", "LD", "note"]
    text = ("# Scaling track\n\n" + best.to_markdown(index=False, floatfmt=".3g") + "\n\n"
            + table[[c for c in cols if c in table]].to_markdown(index=False, floatfmt=".4g") + "\n")
    (out / "scaling.md").write_text(text)
    figure(table, out / "scaling.png")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
