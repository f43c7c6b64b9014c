"""Figures for a paper (matplotlib; PNG and vector PDF with fixed metadata).

Each function returns a matplotlib Figure; :func:`save_figure` writes it. The backend is left to the
caller (the workflow's jobs use Agg, a notebook its inline backend)."""

from __future__ import annotations

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from stratbench.fold_quality import fold_label_counts
from stratbench.io import atomic_path
from stratbench.paper_tables import ordered


def save_figure(fig, png_path, pdf_path) -> None:
    """Write ``fig`` as PNG (150 dpi) and PDF, atomically, without timestamps in the PDF."""
    with atomic_path(png_path) as tmp:
        fig.savefig(tmp, format="png", dpi=150, bbox_inches="tight", metadata={"Software": None})
    with atomic_path(pdf_path) as tmp:
        fig.savefig(tmp, format="pdf", bbox_inches="tight", metadata={"CreationDate": None, "Producer": None})
    plt.close(fig)


def std_by_stratifier(summary: pd.DataFrame, classifier: str):
    """One panel per measure: the std over folds of each stratifier (bars), grouped by dataset."""
    part = summary[summary["classifier"] == classifier]
    measures = list(dict.fromkeys(part["measure"]))
    stratifiers = sorted(part["stratifier"].unique())
    datasets = sorted(part["dataset"].unique())
    ncols = min(3, len(measures))
    nrows = int(np.ceil(len(measures) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols, 3.2 * nrows), squeeze=False)
    width = 0.8 / max(1, len(stratifiers))
    x = np.arange(len(datasets))
    for ax, measure in zip(axes.flat, measures):
        table = part[part["measure"] == measure].pivot(index="dataset", columns="stratifier", values="std")
        table = table.reindex(index=datasets, columns=stratifiers)
        for i, s in enumerate(stratifiers):
            ax.bar(x + (i - (len(stratifiers) - 1) / 2) * width, table[s].to_numpy(), width, label=s)
        ax.set_title(measure.replace("_", " "))
        ax.set_xticks(x, datasets, rotation=30, ha="right")
        ax.set_ylabel("std over folds")
    for ax in list(axes.flat)[len(measures):]:
        ax.axis("off")
    axes.flat[0].legend(title="stratifier", fontsize="small")
    fig.suptitle(f"{classifier}: variance of the CV estimate per stratifier (lower is better)")
    fig.tight_layout()
    return fig


def _label(name: str, labels: dict | None = None) -> str:
    return (labels or {}).get(name, name.replace("_", " "))


def _stratifier_colours(stratifiers) -> dict:
    cmap = plt.get_cmap("tab10")
    return {s: cmap(i % 10) for i, s in enumerate(sorted(stratifiers))}


def rank_bars(ranks: pd.DataFrame, title: str, labels: dict | None = None):
    """Average rank (1 = best) per measure and stratifier, one panel per dataset group, like the
    average-rank bar charts of Szymański & Kajdanowicz 2017 (Figures 1–7). The dashed line is the
    rank every method would get if the stratifiers did not differ, (k + 1)/2."""
    groups = list(dict.fromkeys(ranks["group"]))
    stratifiers = sorted(ranks["stratifier"].unique())
    colours = _stratifier_colours(stratifiers)
    measures = ordered(ranks["measure"], labels)
    fig, axes = plt.subplots(len(groups), 1, figsize=(max(6.0, 0.9 * len(measures) * max(1, len(stratifiers)) / 2.5),
                                                     3.0 * len(groups)), squeeze=False)
    width = 0.8 / len(stratifiers)
    for ax, group in zip(axes[:, 0], groups):
        part = ranks[ranks["group"] == group]
        wide = part.pivot(index="measure", columns="stratifier", values="average_rank").reindex(
            index=[m for m in measures if m in set(part["measure"])], columns=stratifiers)
        x = np.arange(len(wide))
        for i, s in enumerate(stratifiers):
            ax.bar(x + (i - (len(stratifiers) - 1) / 2) * width, wide[s].to_numpy(), width, label=s, color=colours[s])
        ax.axhline((len(stratifiers) + 1) / 2, color="grey", linestyle="--", linewidth=0.8)
        n = part.groupby("measure")["datasets"].first().reindex(wide.index)
        ax.set_xticks(x, [f"{textwrap.fill(_label(m, labels), 14)}\n(N={k})" for m, k in n.items()], fontsize="small")
        ax.set_ylabel("average rank (1 = best)")
        ax.set_ylim(0, len(stratifiers) + 0.5)
        ax.set_title(f"datasets: {group}", fontsize="medium")
    axes[0, 0].legend(title="stratifier", fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def nemenyi_groups(ranks: pd.Series, cd: float) -> list[tuple[str, ...]]:
    """Maximal runs of methods, in rank order, whose average ranks lie less than ``cd`` apart
    (Demšar's bars: members of a run are not significantly different by the Nemenyi test)."""
    ordered = ranks.sort_values(kind="stable")
    names, values = list(ordered.index), ordered.to_numpy()
    groups: list[tuple[str, ...]] = []
    last_end = -1
    for i in range(len(values)):
        j = i
        while j + 1 < len(values) and values[j + 1] - values[i] < cd:
            j += 1
        if j > i and j > last_end:
            groups.append(tuple(names[i:j + 1]))
            last_end = j
    return groups


def cd_diagram(ax, ranks: pd.Series, cd: float, title: str = "") -> None:
    """A critical-difference diagram (Demšar 2006, Fig. 1) on ``ax``: the average ranks on an axis from
    1 (left, best) to k, each method's name joined to its rank, a bar joining methods less than CD
    apart (not significantly different), and the CD interval above the axis."""
    ordered = ranks.sort_values(kind="stable")
    k = len(ordered)
    half = (k + 1) // 2
    groups = nemenyi_groups(ordered, cd) if np.isfinite(cd) else []
    rows = max(half, k - half)
    axis_y, step = 0.0, 1.0
    ax.set_xlim(0.3, k + 0.7)
    ax.set_ylim(-(rows + 1.2) * step - 0.25 * len(groups), 1.6)
    ax.axis("off")
    ax.plot([1, k], [axis_y, axis_y], color="black", linewidth=1)
    for tick in range(1, k + 1):
        ax.plot([tick, tick], [axis_y, axis_y + 0.18], color="black", linewidth=1)
        ax.text(tick, axis_y + 0.3, str(tick), ha="center", va="bottom", fontsize="small")
    for half_tick in np.arange(1.5, k, 1.0):
        ax.plot([half_tick, half_tick], [axis_y, axis_y + 0.09], color="black", linewidth=0.6)
    if np.isfinite(cd):
        ax.plot([1, 1 + cd], [1.2, 1.2], color="black", linewidth=1.5)
        for end in (1, 1 + cd):
            ax.plot([end, end], [1.1, 1.3], color="black", linewidth=1)
        ax.text(1 + cd / 2, 1.32, f"CD = {cd:.2f}", ha="center", va="bottom", fontsize="small")
    for g, members in enumerate(groups):
        y = axis_y - 0.35 - 0.25 * g
        ax.plot([ordered[members[0]] - 0.03, ordered[members[-1]] + 0.03], [y, y], color="black", linewidth=2.5,
                solid_capstyle="butt")
    bar_space = 0.35 + 0.25 * len(groups)
    for i, (name, rank) in enumerate(ordered.items()):
        left = i < half
        row = i if left else k - 1 - i
        y = axis_y - bar_space - (row + 0.6) * step
        x_end = 0.5 if left else k + 0.5
        ax.plot([rank, rank, x_end], [axis_y, y, y], color="black", linewidth=0.8)
        ax.text(x_end + (-0.05 if left else 0.05), y, f"{name} ({rank:.2f})", ha="right" if left else "left",
                va="center", fontsize="small")
    if title:
        ax.set_title(title, fontsize="small")


def panel_summary(t) -> str:
    """One line for a comparison's panel: N, the Friedman p it is judged by (which one), and what N
    cannot support (F undefined, too few datasets for Nemenyi to separate any pair)."""
    which = "exact" if np.isfinite(t["exact_p"]) else "Iman–Davenport" if np.isfinite(t["F_p"]) else "χ²"
    p = f"Friedman p ({which}) = {t['p']:.3g}" if np.isfinite(t["p"]) else "no Friedman test"
    caveat = "; N too few for Nemenyi" if bool(t.get("nemenyi_too_few", False)) else ""
    return f"N = {int(t['datasets'])} datasets, {p}, α = {t['alpha']:g}{caveat}"


def cd_diagrams(ranks: pd.DataFrame, tests: pd.DataFrame, title: str, group: str = "all",
                labels: dict | None = None):
    """Critical-difference diagrams, one panel per measure, for one dataset group; each panel names
    N, the Iman–Davenport p-value of Friedman's test and the Nemenyi CD at the test's α."""
    ranks, tests = ranks[ranks["group"] == group], tests[tests["group"] == group]
    measures = ordered(tests.loc[tests["methods"] >= 2, "measure"], labels)
    k = int(tests["methods"].max()) if len(tests) else 2
    height = 0.45 * (max(1, (k + 1) // 2) + 3)
    fig, axes = plt.subplots(max(1, len(measures)), 1, figsize=(6.5, height * max(1, len(measures))), squeeze=False)
    for ax, measure in zip(axes[:, 0], measures):
        r = ranks[ranks["measure"] == measure].set_index("stratifier")["average_rank"]
        t = tests[tests["measure"] == measure].iloc[0]
        cd_diagram(ax, r, float(t["critical_difference"]), f"{_label(measure, labels)}: {panel_summary(t)}")
    if not measures:
        axes[0, 0].text(0.5, 0.5, "fewer than two stratifiers: nothing to compare", ha="center", va="center")
        axes[0, 0].axis("off")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def fold_distribution(scores: pd.DataFrame, classifier: str, labels: dict | None = None):
    """The spread of each measure over the folds, per dataset and stratifier: every fold's value
    minus the mean of its repeat's folds (the CV estimate), as box plots. Narrow boxes = a stratifier
    whose folds agree, i.e. a low-variance estimate."""
    part = scores[scores["classifier"] == classifier].dropna(subset=["value"])
    part = part.assign(deviation=part["value"] - part.groupby(["dataset", "stratifier", "repeat", "measure"])["value"]
                       .transform("mean"))
    measures = ordered(part["measure"], labels)
    stratifiers = sorted(part["stratifier"].unique())
    datasets = sorted(part["dataset"].unique())
    colours = _stratifier_colours(stratifiers)
    ncols = min(2, max(1, len(measures)))
    nrows = int(np.ceil(len(measures) / ncols)) or 1
    fig, axes = plt.subplots(nrows, ncols, figsize=(max(5.5, 1.1 * len(datasets) * len(stratifiers) / 2) * ncols,
                                                  3.0 * nrows), squeeze=False)
    width = 0.8 / max(1, len(stratifiers))
    for ax, measure in zip(axes.flat, measures):
        m = part[part["measure"] == measure]
        for i, s in enumerate(stratifiers):
            data = [m.loc[(m["dataset"] == d) & (m["stratifier"] == s), "deviation"].to_numpy() for d in datasets]
            positions = np.arange(len(datasets)) + (i - (len(stratifiers) - 1) / 2) * width
            keep = [j for j, v in enumerate(data) if len(v)]
            if keep:
                box = ax.boxplot([data[j] for j in keep], positions=positions[keep], widths=width * 0.9,
                                 patch_artist=True, showfliers=True, flierprops={"markersize": 2})
                for patch in box["boxes"]:
                    patch.set_facecolor(colours[s])
                    patch.set_alpha(0.75)
        ax.axhline(0, color="grey", linewidth=0.6)
        ax.set_xticks(np.arange(len(datasets)), datasets, rotation=30, ha="right")
        ax.set_title(_label(measure, labels), fontsize="medium")
        ax.set_ylabel("fold value − CV mean")
    for ax in list(axes.flat)[len(measures):]:
        ax.axis("off")
    handles = [plt.Rectangle((0, 0), 1, 1, color=colours[s], alpha=0.75) for s in stratifiers]
    axes.flat[0].legend(handles, stratifiers, title="stratifier", fontsize="small")
    fig.suptitle(f"{classifier}: each fold's value minus its repeat's mean, per stratifier")
    fig.tight_layout()
    return fig


def label_shares(Y, folds_by_stratifier: dict, n_splits: int, dataset: str):
    """Per stratifier: for every label and test fold, the share of the fold's examples that carry
    the label (y) against the label's share in the whole dataset (x), log–log. Perfect stratification
    lies on the diagonal; a fold without a positive of the label is drawn at the bottom edge (×)."""
    stratifiers = list(folds_by_stratifier)
    ncols = min(3, len(stratifiers))
    nrows = int(np.ceil(len(stratifiers) / ncols))
    fig, axes = plt.subplots(nrows, ncols, figsize=(3.6 * ncols, 3.4 * nrows), squeeze=False, sharex=True, sharey=True)
    n = Y.shape[0]
    for ax, s in zip(axes.flat, stratifiers):
        sizes, counts = fold_label_counts(Y, folds_by_stratifier[s], n_splits)
        total = counts.sum(axis=0)
        keep = total > 0
        d = np.broadcast_to(total[keep] / n, counts[:, keep].shape).ravel()
        p = (counts[:, keep] / np.maximum(sizes, 1)[:, None]).ravel()
        floor = 0.5 * min(d.min(), p[p > 0].min() if (p > 0).any() else d.min())
        zero = p == 0
        ax.scatter(d[~zero], p[~zero], s=4, alpha=0.35, color="tab:blue", linewidths=0)
        ax.scatter(d[zero], np.full(zero.sum(), floor), s=10, marker="x", color="tab:red", linewidths=0.6,
                   label=f"no positive ({zero.sum()})")
        lims = [floor, 1.0]
        ax.plot(lims, lims, color="grey", linewidth=0.8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_title(s, fontsize="medium")
        ax.legend(fontsize="x-small", loc="upper left")
    for ax in axes[-1, :]:
        ax.set_xlabel("label's share of all examples")
    for ax in axes[:, 0]:
        ax.set_ylabel("share in a test fold")
    for ax in list(axes.flat)[len(stratifiers):]:
        ax.axis("off")
    fig.suptitle(f"{dataset}: per-label positive share in each test fold (repeat 0) vs the whole dataset")
    fig.tight_layout()
    return fig


def runtime_vs_size(runtime: pd.DataFrame):
    """The stratifiers' wall time (mean over repeats) against the dataset's size, log–log: x is the
    number of positive labels (non-zeros of Y), the quantity IS and SOIS scale with."""
    agg = runtime.groupby(["dataset", "stratifier"], sort=True).agg(
        seconds=("seconds", "mean"), nnz=("nnz", "first"), examples=("examples", "first")).reset_index()
    colours = _stratifier_colours(agg["stratifier"].unique())
    fig, ax = plt.subplots(figsize=(6.0, 4.2))
    for s, part in agg.groupby("stratifier", sort=True):
        part = part.sort_values("nnz")
        ax.plot(part["nnz"], part["seconds"], marker="o", label=s, color=colours[s])
    for _, row in agg.drop_duplicates("dataset").iterrows():
        ax.annotate(row["dataset"], (row["nnz"], agg.loc[agg.dataset == row["dataset"], "seconds"].min()),
                    textcoords="offset points", xytext=(0, -12), ha="center", fontsize="x-small", color="grey")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("dataset size: positive labels (non-zeros of Y)")
    ax.set_ylabel("stratifier wall time (s)")
    ax.legend(title="stratifier", fontsize="small")
    ax.set_title("Stratifier runtime against dataset size")
    fig.tight_layout()
    return fig
