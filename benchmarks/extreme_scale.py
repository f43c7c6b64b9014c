"""Stratifying extreme multi-label data: time, memory and fold quality from 10² to 10⁶ labels, ours beside the
peers, and at Amazon-670K's shape (run by hand; figures go in issue notes).

    python benchmarks/extreme_scale.py [--labels 1e2 1e3 1e4 1e5 1e6] [--points 490449] [--folds 10] \\
        [--timeout 600] [--out results/extreme]

The label sweep: ``--points`` rows (Amazon-670K's) and q labels of Amazon-670K's law and 5.45 labels a row
(:mod:`stratbench.datasets.extreme`: power-law label frequencies with the rarest label on one row), q from 10²
to 10⁶. Then Amazon-670K's own shape (490,449 × 670,091; the hybrid also from IS's start alone, with its LD
polish) and a random 10⁵ × 10⁵ matrix at 7.7 labels a row (``benchmarks/scaling.py``'s). Methods: IS, SOIS, the
hybrid (by default, and from IS's start without its LD polish: its setting for such data) and SS (Merrillees & Du
2021) of stratbench; IS of
iterative-stratification 0.1.9 and IS and SOIS of scikit-multilearn 0.2.0 (dense label matrices: not run above
``--dense-limit-gb`` of dense int8, and not at a larger q once one has run past ``--timeout``). Each split in a
fresh process (``benchmarks/stratifier_speed.py``'s ``run``): seconds of the split, peak resident MB, LD, FLZ
and its floor Σ max(0, k − |D_λ|) (the (fold, label) cells no split can fill), ED. Writes ``extreme.csv``,
``extreme.md`` and ``extreme_labels.png`` (seconds against labels, log–log) under ``--out``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
import stratifier_speed as speed  # noqa: E402

OURS = ["IS (ours)", "SOIS (ours)", "hybrid (ours)", "hybrid, IS start, no polish", "ss"]  # the last hybrid: its
# setting for extreme-scale data (docs/user-guide.md)
PEERS = ["IS iterstrat", "IS skmultilearn", "SOIS skmultilearn"]


def label_sweep(points: int, labels: list[int], k: int, timeout: float, dense_limit: float) -> list[dict]:
    rows, stopped = [], {}
    for q in labels:
        for method in OURS + PEERS:
            if method in stopped:
                rows.append({"sweep": "labels", "q": q, "method": method, "seconds": np.nan, "note": stopped[method]})
                continue
            if method in PEERS and points * q > dense_limit:
                stopped[method] = f"not run: its dense label matrix ({points * q / 1e9:.1f} GB) is above the limit"
                rows.append({"sweep": "labels", "q": q, "method": method, "seconds": np.nan, "note": stopped[method]})
                continue
            row = {"sweep": "labels", "q": q, **speed.run(method, f"xc_{points}x{q}", k, 0, timeout)}
            rows.append(row)
            print({key: row.get(key) for key in ("q", "method", "seconds", "peak_mb", "LD", "FLZ", "note")},
                  file=sys.stderr, flush=True)
            if not np.isfinite(row.get("seconds", np.nan)):
                stopped[method] = f"stopped at q = {q:g}: {row.get('note', 'failed')}"
    return rows


def points(k: int, timeout: float) -> list[dict]:
    rows = []
    # at Amazon-670K's shape also the hybrid from IS's start alone, with its LD polish
    for dataset, methods in (("xc_Amazon-670K", OURS + ["hybrid, IS start"]),
                             ("random_100000x100000", ["IS (ours)", "SOIS (ours)", "hybrid (ours)",
                                                       "hybrid, IS start, no polish"])):
        for method in methods:
            row = {"sweep": dataset, **speed.run(method, dataset, k, 0, timeout)}
            rows.append(row)
            print({key: row.get(key) for key in ("sweep", "method", "seconds", "peak_mb", "LD", "FLZ", "note")},
                  file=sys.stderr, flush=True)
    return rows


def figure(table: pd.DataFrame, timeout: float | None = None):
    """Seconds of one split against the number of labels (log–log), a line per method (the peers dashed); a method
    stopped at the time limit is a hollow triangle at the limit. The caption (:func:`stratbench.figures.caption_notes`)
    says how many runs a point is."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stratbench.figures import FigureStyle, add_caption_note

    style = FigureStyle()
    sweep = table[table["sweep"] == "labels"]
    methods = list(dict.fromkeys(sweep["method"]))
    colours = dict(zip(methods, (plt.get_cmap("tab10")(i % 10) for i in range(len(methods)))))
    limit = timeout or float(sweep["seconds"].max()) * 2
    with style.drawing():
        fig, ax = plt.subplots(figsize=(style.width, 3.8))
        stopped_at: dict = {}  # q → methods stopped there so far: their triangles side by side, not on each other
        for method, part in sweep.groupby("method", sort=False):
            done = part[np.isfinite(part["seconds"])]
            ax.plot(done["q"], done["seconds"], marker="o", markersize=3, color=colours[method],
                    linestyle="--" if method in PEERS else "-")
            stopped = part[~np.isfinite(part["seconds"]) & part["note"].fillna("").str.startswith("stopped")]
            for q in stopped["q"]:
                nudge = 1.12 ** stopped_at.setdefault(q, 0)
                stopped_at[q] += 1
                ax.scatter([q * nudge], [limit], marker="^", s=18, facecolors="white", edgecolors=colours[method],
                           zorder=3)
        if timeout:
            ax.axhline(timeout, color="grey", linewidth=0.6, linestyle=":")
        ax.set(xscale="log", yscale="log", xlabel="labels q (490,449 rows, Amazon-670K's label law)",
               ylabel="seconds of a 10-fold split")
        ax.grid(linewidth=0.3)
        handles = [plt.Line2D([], [], color=c, marker="o", markersize=3, linestyle="--" if m in PEERS else "-")
                   for m, c in colours.items()]
        fig.legend(handles, list(colours), title="method (dashed: the peers)", loc="outside lower center", ncols=4,
                   frameon=False)
        fig.suptitle(style.heading("Seconds of a 10-fold split against the number of labels"))
        runs = sorted(set(sweep["runs"].dropna().astype(int))) if "runs" in sweep else [1]
        add_caption_note(fig, f"{'One run' if runs == [1] else 'Runs: ' + ', '.join(map(str, runs))} per point, no "
                              "interval." + (f" Hollow triangles: stopped at the {timeout:g} s limit (dotted), not run "
                                             "at larger q; at one q, side by side." if timeout else ""))
    return fig


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--labels", nargs="+", type=float, default=[1e2, 1e3, 1e4, 1e5, 1e6])
    parser.add_argument("--points", type=int, default=490_449)
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--dense-limit-gb", type=float, default=2.0)
    parser.add_argument("--out", default=str(ROOT / "results" / "extreme"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    rows = label_sweep(args.points, [int(q) for q in args.labels], args.folds, args.timeout, args.dense_limit_gb * 1e9)
    rows += points(args.folds, args.timeout)
    table = pd.DataFrame(rows)
    table.to_csv(out / "extreme.csv", index=False)
    columns = [c for c in ("sweep", "q", "method", "seconds", "peak_mb", "LD", "FLZ", "FLZ_floor", "ED", "note")
               if c in table]
    (out / "extreme.md").write_text(table[columns].to_markdown(index=False, floatfmt=".4g") + "\n")
    from stratbench.figures import FigureStyle, save_figure

    save_figure(figure(table.assign(runs=1), args.timeout), out / "extreme_labels.png", None, FigureStyle())
    print(table[columns].to_markdown(index=False, floatfmt=".4g"))


if __name__ == "__main__":
    main()
