"""Stratifying labels with metadata: fold quality per target kind and cost per split, stratbench's TargetTable beside
what users do today (run by hand; the published table is docs/published/mixed_targets/).

    python benchmarks/mixed_targets.py [--mirror DIR] [--seeds 10] [--k 5] [--out results/mixed_targets]

Datasets: the broad benchmark's (config/stratbench2026.yaml; go_cc_size left out: 577,424 rows, and no features),
each MULAN dataset with a feature as metadata (the first whose commonest value is on at most 3/4 of the rows, in
quartiles as a ``continuous`` column; where none is, as a text dataset's word indicators are not, the one whose
commonest value is on the fewest rows, its values as the classes of a ``multiclass`` column) and the two generated
sets with their feature x0 in quartiles;
``synth_metadata``, the generator with three metadata columns (``site``: multiclass, the argmax of features x2…x5;
``age``: continuous, x0 in quartiles; ``visits``: count, ⌊3·|x1|⌋); and
``synth_multioutput``, a multiclass-multioutput y (three outputs, each the number of positives in a block of four of
the generator's labels: 0…4), declared with ``one_hot_outputs``, no further metadata.

Methods, k folds, seeds 0…``--seeds``−1:

- ``random``: scikit-learn's ``KFold(shuffle=True)``;
- ``StratifiedKFold (one column)``: scikit-learn's, on the metadata's first column's classes (the first output);
- ``iterstrat, one-hot appended``: iterative-stratification 0.1.9's ``MultilabelStratifiedKFold(shuffle=True)`` on the
  labels with the metadata's classes one-hot appended as labels (the recipe of its issue #9);
- ``IS + strata`` and ``hybrid + strata``: stratbench's ``iterative`` (rows shuffled, as the others) and ``hybrid``
  with the metadata as a ``TargetTable`` (every weight 1).

Measures per split (docs/ALGORITHMS.md): LD and FLZ of the labels (the outputs' classes for the multi-output set), and
LD and FLZ of the metadata's classes (all of them, and on synth_metadata per column kind). Cost: seconds of one split
by ``IS + strata`` against ``iterative`` on the labels alone (:func:`stratbench.stratifiers.timed_fold_ids`, after a warm-up). Writes
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


def _metadata_of(X, columns: dict):
    from stratbench.labels import TargetTable

    return TargetTable({name: values for name, (values, _) in columns.items()},
                       kinds={name: kind for name, (_, kind) in columns.items()}, bins=4)


def datasets(mirror: str | None):
    """(name, its set: ``feature`` (a feature as metadata), ``metadata`` or ``multioutput``, label matrix, TargetTable
    of metadata or None, the one column StratifiedKFold splits on) of every dataset of the module doc."""
    from stratbench.datasets import generate_synthetic, load_mulan
    from stratbench.labels import one_hot_outputs

    for name in MULAN if mirror else []:
        ds = load_mulan(name, mirror=mirror)
        index, kind = _metadata_feature(ds.X)
        column = ds.X[:, index]
        column = np.asarray(column.todense()).ravel() if sp.issparse(column) else np.asarray(column).ravel()
        table = _metadata_of(ds.X, {ds.feature_names[index][:24]: (column, kind)})
        yield name, "feature", ds.Y, table, _first_column(table)
    for name, spec in (("synth_cooccur", dict(examples=600, labels=8, features=20, cardinality=2.0, dependence=0.5,
                                               seed=1, centroids=4)),
                       ("synth_sparse", dict(examples=800, labels=20, features=30, cardinality=1.5, dependence=0.1,
                                              seed=2, centroids=4))):
        ds = generate_synthetic(name, **spec)
        table = _metadata_of(ds.X, {"x0": (ds.X[:, 0], "continuous")})
        yield name, "feature", ds.Y, table, _first_column(table)
    ds = generate_synthetic("synth_metadata", examples=1000, labels=12, features=8, cardinality=1.8, dependence=0.3,
                            seed=5, centroids=6)
    table = _metadata_of(ds.X, {
        "site": (np.array([f"s{i}" for i in np.argmax(ds.X[:, 2:6], axis=1)]), "multiclass"),
        "age": (ds.X[:, 0], "continuous"),
        "visits": (np.floor(3 * np.abs(ds.X[:, 1])).astype(int), "count")})
    yield "synth_metadata", "metadata", ds.Y, table, _first_column(table)
    ds = generate_synthetic("synth_multioutput", examples=900, labels=12, features=4, cardinality=2.4, dependence=0.4,
                            seed=6, centroids=4)
    outputs = np.column_stack([np.asarray(ds.Y[:, 4 * o:4 * o + 4].sum(axis=1)).ravel() for o in range(3)])
    yield "synth_multioutput", "multioutput", one_hot_outputs(outputs), None, outputs[:, 0]


def _metadata_feature(X) -> tuple[int, str]:
    """The module doc's feature and its kind: the first whose commonest value is on at most 3/4 of the rows
    (continuous), else the one whose commonest value is on the fewest (multiclass)."""
    n, commonest = X.shape[0], []
    for index in range(X.shape[1]):
        column = X[:, index]
        column = np.asarray(column.todense()).ravel() if sp.issparse(column) else np.asarray(column).ravel()
        commonest.append(np.unique(column, return_counts=True)[1].max() / n)
        if commonest[-1] <= 0.75:
            return index, "continuous"
    return int(np.argmin(commonest)), "multiclass"


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
    for name, role, Y, table, one_column in datasets(mirror):
        out = None if table is None else table.expand()
        for method in METHODS:
            for seed in range(seeds):
                start = time.perf_counter()
                folds = folds_of(method, Y, table, one_column, k, seed)
                seconds = time.perf_counter() - start
                label_ld, label_flz = _quality(Y, folds, k)
                row = dict(dataset=name, set=role, method=method, seed=seed, k=k, n=Y.shape[0], labels=Y.shape[1],
                           label_LD=label_ld, label_FLZ=label_flz, seconds=seconds)
                if out is not None:
                    row["metadata_LD"], row["metadata_FLZ"] = _quality(out.matrix, folds, k)
                for column_kind in sorted(set(out.kinds)) if role == "metadata" else ():
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
            rows.append(dict(dataset=name, set=role, method="cost: IS on labels alone", seed=-1, n=Y.shape[0],
                             labels=Y.shape[1], seconds=plain))
            rows.append(dict(dataset=name, set=role, method="cost: IS + strata", seed=-1, n=Y.shape[0],
                             labels=Y.shape[1], seconds=with_table))
        print(f"{name}: done", flush=True)
    return pd.DataFrame(rows)


def summarise(raw: pd.DataFrame) -> pd.DataFrame:
    """Means over seeds per dataset × method, with k and the number of seeds (the cost rows: the best of three
    splits)."""
    values = [c for c in raw.columns if c.endswith(("_LD", "_FLZ"))] + ["seconds"]
    groups = raw.groupby(["dataset", "set", "method"], sort=False)
    return groups[values].mean().join(groups["k"].first()).join(groups["seed"].size().rename("seeds")).reset_index()


def _mean(values: pd.Series) -> float:
    """The mean of the ratios over the datasets where random's LD is not 0 (an LD of 0 counts as 0)."""
    return float(values.dropna().mean())


def relative(summary: pd.DataFrame, column: str) -> pd.Series:
    """Each (dataset, method)'s ``column`` divided by random's on that dataset (NaN where random's is 0)."""
    quality = summary[~summary["method"].str.startswith("cost")].set_index(["dataset", "method"])[column]
    random = quality.xs("random", level="method")
    return quality / random.reindex(quality.index.get_level_values("dataset")).to_numpy()


def markdown(summary: pd.DataFrame) -> str:
    """Per method, over the datasets with a feature as metadata: the mean over datasets of its
    LD divided by random's (labels, and the metadata's classes), and the mean FLZ; on synth_metadata the LD of each
    column kind; on synth_multioutput the LD of the outputs' classes; and the cost ratio of IS with the metadata to
    IS on the labels alone."""
    quality = summary[~summary["method"].str.startswith("cost")]
    broad = quality[quality["set"] == "feature"]
    label_ratio, meta_ratio = relative(broad, "label_LD"), relative(broad, "metadata_LD")
    lines = ["| method | datasets | labels: LD ÷ random's | labels: FLZ | metadata: LD ÷ random's | metadata: FLZ | "
             "synth_metadata: LD of site (multiclass) | of age (continuous) | of visits (count) | "
             "synth_multioutput: LD of the outputs' classes |",
             "|---|---|---|---|---|---|---|---|---|---|"]

    def cell(frame, column, places=4):
        return f"{frame[column].mean():.{places}f}" if len(frame) and column in frame else "–"

    for method in METHODS:
        part = broad[broad["method"] == method]
        meta = quality[(quality["dataset"] == "synth_metadata") & (quality["method"] == method)]
        multi = quality[(quality["set"] == "multioutput") & (quality["method"] == method)]
        lines.append(f"| {method} | {len(part)} | {_mean(label_ratio.xs(method, level='method')):.2f} | "
                     f"{cell(part, 'label_FLZ', 1)} | {_mean(meta_ratio.xs(method, level='method')):.2f} | "
                     f"{cell(part, 'metadata_FLZ', 1)} | {cell(meta, 'multiclass_LD')} | {cell(meta, 'continuous_LD')} | "
                     f"{cell(meta, 'count_LD')} | {cell(multi, 'label_LD')} |")
    cost = summary[summary["method"].str.startswith("cost")].pivot(index="dataset", columns="method", values="seconds")
    ratio = cost["cost: IS + strata"] / cost["cost: IS on labels alone"]
    slowest = cost["cost: IS on labels alone"].idxmax()
    lines.append("")
    lines.append(f"Cost of one split, IS with the metadata against IS on the labels alone (best of three): ratio "
                 f"{ratio.min():.2f}–{ratio.max():.2f} over {len(ratio)} datasets (median {ratio.median():.2f}; on the "
                 f"slowest, {slowest}: {cost.loc[slowest, 'cost: IS + strata']:.3g} s against "
                 f"{cost.loc[slowest, 'cost: IS on labels alone']:.3g} s).")
    return "\n".join(lines) + "\n"


def figure(summary: pd.DataFrame):
    """Two panels over the datasets with a feature as metadata: each method's LD divided by random's, of
    the labels (left) and of the metadata's classes (right); a dot per dataset, a bar at the mean."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from stratbench.figures import FigureStyle, add_caption_note

    style = FigureStyle()
    broad = summary[(summary["set"] == "feature") & ~summary["method"].str.startswith("cost")]
    methods = [m for m in METHODS if m in set(broad["method"])]
    short = {"random": "random", "StratifiedKFold (one column)": "StratifiedKFold\n(metadata)",
             "iterstrat, one-hot appended": "iterstrat\n(one-hot)", "IS + strata": "IS +\nstrata",
             "hybrid + strata": "hybrid +\nstrata"}
    with style.drawing():
        fig, axes = plt.subplots(1, 2, figsize=(style.width, 3.0), sharey=False)
        for ax, column, title in zip(axes, ("label_LD", "metadata_LD"), ("labels", "metadata (a feature)")):
            ratios = relative(broad, column)
            for i, method in enumerate(methods):
                values = ratios.xs(method, level="method").dropna()
                ax.bar(i, _mean(values), color="0.85", width=0.7)
                ax.scatter(np.full(len(values), i) + np.linspace(-0.2, 0.2, len(values)), values, s=5, color="C0",
                           zorder=3)
            ax.set_xticks(range(len(methods)), [short[m] for m in methods], fontsize=style.font_size - 1)
            ax.set_yscale("log")
            ax.set_title(f"LD of the {title}", fontsize=style.font_size)
            ax.grid(axis="y", linewidth=0.3)
        axes[0].set_ylabel("LD ÷ random's LD (log scale)")
        fig.suptitle(style.heading("Label distribution of labels and metadata, per method"))
        datasets_n = broad["dataset"].nunique()
        seeds, k = int(broad["seeds"].max()), int(broad["k"].max())
        add_caption_note(fig, f"LD as the mean over {seeds} seeds of {k}-fold splits, divided by random's on the "
                              f"dataset. A dot per dataset ({datasets_n} with a feature as metadata), a bar at "
                              f"the mean; lower is better. A ratio of 0 (an LD of 0) has no dot on the log scale.")
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
