"""Stratifying labels with metadata: fold quality per target kind and cost per split, stratbench's TargetTable beside
what users do today (run by hand; the published table is docs/published/mixed_targets/).

    python benchmarks/mixed_targets.py [--mirror DIR] [--seeds 10] [--k 5] [--out results/mixed_targets]

Datasets: the broad benchmark's (config/stratbench2026.yaml; go_cc_size left out: 577,424 rows, and no features),
each MULAN dataset with its first feature binned into quartiles as metadata (a ``continuous`` column) and the two
generated sets with their feature x0 so; ``synth_metadata``, the generator with three metadata columns (``site``:
multiclass, the argmax of features x2…x5; ``age``: continuous, x0 in quartiles; ``visits``: count, ⌊3·|x1|⌋); and
``synth_multioutput``, a multiclass-multioutput y (three outputs, each the number of positives in a block of four of
the generator's labels: 0…4), declared with ``one_hot_outputs``, no further metadata.

Methods, k folds, seeds 0…``--seeds``−1:

- ``random``: scikit-learn's ``KFold(shuffle=True)``;
- ``StratifiedKFold (one column)``: scikit-learn's, on the metadata's first column's classes (the first output);
- ``iterstrat, one-hot appended``: iterative-stratification 0.1.9's ``MultilabelStratifiedKFold(shuffle=True)`` on the
  labels with the metadata's classes one-hot appended as labels (the recipe of its issue #9);
- ``IS + strata`` and ``hybrid + strata``: stratbench's ``iterative`` and ``hybrid`` with the metadata as a
  ``TargetTable`` (every weight 1; hybrid on the datasets of fewer than 10⁶ label cells).

Measures per split (docs/ALGORITHMS.md): LD and FLZ of the labels (the outputs' classes for the multi-output set), and
LD and FLZ of the metadata's classes, per column kind. Cost: seconds of one split by ``IS + strata`` against
``iterative`` on the labels alone (:func:`stratbench.stratifiers.timed_fold_ids`, after a warm-up). Writes
``mixed.csv`` (one row per dataset × method × seed), ``mixed_summary.csv`` (means over seeds), ``mixed.md`` and
``mixed_targets.png`` under ``--out``.
"""

from __future__ import annotations

import argparse
import os
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

ROOT = Path(__file__).resolve().parents[1]
MULAN = ["bibtex", "birds", "cal500", "corel5k", "delicious", "emotions", "enron", "flags", "foodtruck", "genbase",
         "medical", "scene", "tmc2007-500", "yeast"]
METHODS = ["random", "StratifiedKFold (one column)", "iterstrat, one-hot appended", "IS + strata", "hybrid + strata"]
HYBRID_CELLS = 10**6  # hybrid + strata on the datasets of fewer label cells (n × (labels + metadata classes))


def _metadata_of(X, columns: dict):
    from stratbench.labels import TargetTable

    return TargetTable({name: values for name, (values, _) in columns.items()},
                       kinds={name: kind for name, (_, kind) in columns.items()}, bins=4)


def datasets(mirror: str | None):
    """(name, label matrix, TargetTable of metadata or None, the one column StratifiedKFold splits on) of every
    dataset of the module doc."""
    from stratbench.datasets import generate_synthetic, load_mulan
    from stratbench.labels import one_hot_outputs

    for name in MULAN if mirror else []:
        ds = load_mulan(name, mirror=mirror)
        first = ds.X[:, 0]
        first = np.asarray(first.todense()).ravel() if sp.issparse(first) else np.asarray(first).ravel()
        table = _metadata_of(ds.X, {ds.feature_names[0][:24]: (first, "continuous")})
        yield name, ds.Y, table, _first_column(table)
    for name, spec in (("synth_cooccur", dict(examples=600, labels=8, features=20, cardinality=2.0, dependence=0.5,
                                               seed=1, centroids=4)),
                       ("synth_sparse", dict(examples=800, labels=20, features=30, cardinality=1.5, dependence=0.1,
                                              seed=2, centroids=4))):
        ds = generate_synthetic(name, **spec)
        table = _metadata_of(ds.X, {"x0": (ds.X[:, 0], "continuous")})
        yield name, ds.Y, table, _first_column(table)
    ds = generate_synthetic("synth_metadata", examples=1000, labels=12, features=8, cardinality=1.8, dependence=0.3,
                            seed=5, centroids=6)
    table = _metadata_of(ds.X, {
        "site": (np.array([f"s{i}" for i in np.argmax(ds.X[:, 2:6], axis=1)]), "multiclass"),
        "age": (ds.X[:, 0], "continuous"),
        "visits": (np.floor(3 * np.abs(ds.X[:, 1])).astype(int), "count")})
    yield "synth_metadata", ds.Y, table, _first_column(table)
    ds = generate_synthetic("synth_multioutput", examples=900, labels=12, features=4, cardinality=2.4, dependence=0.4,
                            seed=6, centroids=4)
    outputs = np.column_stack([np.asarray(ds.Y[:, 4 * o:4 * o + 4].sum(axis=1)).ravel() for o in range(3)])
    yield "synth_multioutput", one_hot_outputs(outputs), None, outputs[:, 0]


def _first_column(table) -> np.ndarray:
    """Each row's class in the table's first column (its bin, for a binned one)."""
    out = table.expand()
    first = [i for i, c in enumerate(out.columns) if c == out.columns[0]]
    return np.asarray(out.matrix[:, first].argmax(axis=1)).ravel()


def _quality(M: sp.csr_matrix, folds: np.ndarray, k: int) -> tuple[float, float]:
    from stratbench.measures.fold_quality import fold_quality

    values = fold_quality(M, folds, k, pairs=False)
    return float(values["LD"]), float(values["FLZ"])


def folds_of(method: str, Y, table, one_column, k: int, seed: int) -> np.ndarray:
    """Each row's test fold by ``method`` (the module doc)."""
    from sklearn.model_selection import KFold, StratifiedKFold

    from stratbench import stratifiers

    n = Y.shape[0]
    cv = None
    if method == "random":
        cv, target = KFold(k, shuffle=True, random_state=seed), None
    elif method == "StratifiedKFold (one column)":
        cv, target = StratifiedKFold(k, shuffle=True, random_state=seed), one_column
    elif method == "iterstrat, one-hot appended":
        from iterstrat.ml_stratifiers import MultilabelStratifiedKFold

        both = Y if table is None else sp.hstack([Y, table.expand().matrix], format="csr")
        cv, target = MultilabelStratifiedKFold(k, shuffle=True, random_state=seed), both.toarray()
    if cv is not None:
        folds = np.empty(n, dtype=np.int64)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for j, (_, test) in enumerate(cv.split(np.zeros((n, 1)), target)):
                folds[test] = j
        return folds
    name = {"IS + strata": "iterative", "hybrid + strata": "hybrid"}[method]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return stratifiers.get(name, n_splits=k, random_state=seed, **({"shuffle": True} if name == "iterative" else {})
                               ).fold_ids(Y, strata=table)


def measure(mirror: str | None, seeds: int, k: int) -> pd.DataFrame:
    from stratbench import stratifiers
    from stratbench.stratifiers import timed_fold_ids

    rows = []
    for name, Y, table, one_column in datasets(mirror):
        out = None if table is None else table.expand()
        cells = Y.shape[0] * (Y.shape[1] + (0 if out is None else out.matrix.shape[1]))
        kind = "multiclass-multioutput" if table is None else "+".join(sorted(set(out.kinds)))
        for method in METHODS:
            if method == "hybrid + strata" and cells >= HYBRID_CELLS:
                continue
            for seed in range(seeds):
                start = time.perf_counter()
                folds = folds_of(method, Y, table, one_column, k, seed)
                seconds = time.perf_counter() - start
                label_ld, label_flz = _quality(Y, folds, k)
                row = dict(dataset=name, kind=kind, method=method, seed=seed, n=Y.shape[0], labels=Y.shape[1],
                           label_LD=label_ld, label_FLZ=label_flz, seconds=seconds)
                if out is not None:
                    for column_kind in sorted(set(out.kinds)):
                        own = out.matrix[:, [i for i, c in enumerate(out.kinds) if c == column_kind]]
                        row[f"{column_kind}_LD"], row[f"{column_kind}_FLZ"] = _quality(own, folds, k)
                rows.append(row)
        if table is not None:  # cost: IS with the metadata against IS on the labels alone, one split after a warm-up
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                plain = min(timed_fold_ids(stratifiers.get("iterative", n_splits=k, random_state=s), Y)[1]
                            for s in range(3))
                with_table = min(timed_fold_ids(stratifiers.get("iterative", n_splits=k, random_state=s), Y,
                                                strata=out)[1] for s in range(3))
            rows.append(dict(dataset=name, kind=kind, method="cost: IS on labels alone", seed=-1, n=Y.shape[0],
                             labels=Y.shape[1], seconds=plain))
            rows.append(dict(dataset=name, kind=kind, method="cost: IS + strata", seed=-1, n=Y.shape[0],
                             labels=Y.shape[1], seconds=with_table))
        print(f"{name}: done", flush=True)
    return pd.DataFrame(rows)


def summarise(raw: pd.DataFrame) -> pd.DataFrame:
    """Means over seeds per dataset × method (the cost rows: the best of three splits)."""
    values = [c for c in raw.columns if c.endswith(("_LD", "_FLZ"))] + ["seconds"]
    return raw.groupby(["dataset", "kind", "method"], sort=False)[values].mean().reset_index()


def markdown(summary: pd.DataFrame) -> str:
    """Mean over the datasets of each method's mean LD and FLZ per target kind, where the method ran on every
    dataset of that kind; the cost ratio of IS with the metadata to IS on the labels alone."""
    quality = summary[~summary["method"].str.startswith("cost")]
    lines = ["| method | datasets | labels LD | labels FLZ | metadata LD (continuous) | metadata FLZ (continuous) | "
             "synth_metadata: site LD… multiclass | count LD | multi-output classes LD |",
             "|---|---|---|---|---|---|---|---|---|"]
    for method in METHODS:
        part = quality[quality["method"] == method]
        broad = part[part["kind"] == "continuous"]
        meta = part[part["dataset"] == "synth_metadata"]
        multi = part[part["kind"] == "multiclass-multioutput"]

        def cell(frame, column, places=4):
            return f"{frame[column].mean():.{places}f}" if len(frame) and column in frame else "–"

        lines.append(f"| {method} | {len(broad)} | {cell(broad, 'label_LD')} | {cell(broad, 'label_FLZ', 1)} | "
                     f"{cell(broad, 'continuous_LD')} | {cell(broad, 'continuous_FLZ', 1)} | "
                     f"{cell(meta, 'multiclass_LD')} | {cell(meta, 'count_LD')} | {cell(multi, 'label_LD')} |")
    cost = summary[summary["method"].str.startswith("cost")].pivot(index="dataset", columns="method", values="seconds")
    ratio = cost["cost: IS + strata"] / cost["cost: IS on labels alone"]
    lines.append("")
    lines.append(f"Cost of one split, IS with the metadata against IS on the labels alone (best of three): ratio "
                 f"{ratio.min():.2f}–{ratio.max():.2f} over {len(ratio)} datasets (median {ratio.median():.2f}; the "
                 f"largest, {ratio.idxmax()}: {cost.loc[ratio.idxmax(), 'cost: IS + strata']:.3g} s against "
                 f"{cost.loc[ratio.idxmax(), 'cost: IS on labels alone']:.3g} s).")
    return "\n".join(lines) + "\n"


def figure(summary: pd.DataFrame):
    """Two panels over the datasets with metadata in quartiles: each method's mean LD of the labels (left) and of
    the metadata's classes (right), a dot per dataset and the mean as a bar."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stratbench.figures import FigureStyle, add_caption_note

    style = FigureStyle()
    broad = summary[(summary["kind"] == "continuous") & ~summary["method"].str.startswith("cost")]
    methods = [m for m in METHODS if m in set(broad["method"])]
    short = {"random": "random", "StratifiedKFold (one column)": "StratifiedKFold\n(metadata)",
             "iterstrat, one-hot appended": "iterstrat\n(one-hot)", "IS + strata": "IS +\nstrata",
             "hybrid + strata": "hybrid +\nstrata"}
    with style.drawing():
        fig, axes = plt.subplots(1, 2, figsize=(style.width, 3.0), sharey=False)
        for ax, column, title in zip(axes, ("label_LD", "continuous_LD"), ("labels", "metadata (feature quartiles)")):
            for i, method in enumerate(methods):
                values = broad[broad["method"] == method][column]
                ax.bar(i, values.mean(), color="0.85", width=0.7)
                ax.scatter(np.full(len(values), i) + np.linspace(-0.2, 0.2, len(values)), values, s=5, color="C0",
                           zorder=3)
            ax.set_xticks(range(len(methods)), [short[m] for m in methods], fontsize=style.font_size - 1)
            ax.set_yscale("log")
            ax.set_title(f"LD of the {title}", fontsize=style.font_size)
            ax.grid(axis="y", linewidth=0.3)
        axes[0].set_ylabel("LD, mean over seeds (log scale)")
        fig.suptitle(style.heading("Label distribution of labels and metadata, per method"))
        datasets_n = broad["dataset"].nunique()
        add_caption_note(fig, f"A dot per dataset ({datasets_n} with a feature in quartiles as metadata; hybrid on those "
                              f"of under 10⁶ label cells), a bar at the mean; lower is better.")
    return fig


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", default=os.environ.get("STRATBENCH_DATA_MIRROR"))
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--out", default=str(ROOT / "results" / "mixed_targets"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    raw = measure(args.mirror, args.seeds, args.k)
    raw.to_csv(out / "mixed.csv", index=False)
    summary = summarise(raw)
    summary.to_csv(out / "mixed_summary.csv", index=False, float_format="%.6g")
    (out / "mixed.md").write_text(markdown(summary))
    from stratbench.figures import FigureStyle, save_figure

    save_figure(figure(summary), out / "mixed_targets.png", None, FigureStyle())
    print((out / "mixed.md").read_text())


if __name__ == "__main__":
    main()
