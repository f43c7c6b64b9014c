"""Figures for a paper (matplotlib; PNG and vector PDF with fixed metadata).

Each function returns a matplotlib Figure drawn to a :class:`FigureStyle` (the config's ``figures:``
section): a journal width (3.5 in for one column, 7 in for two), fonts in points, TrueType (Type 42)
fonts in the PDF, 300 dpi PNGs, one colour per method that stays with it when methods are added (from
the config's order, or the ``colours`` given), the measures' printed names of
:mod:`stratbench.measures.names` unless ``names`` says otherwise. :func:`save_figure` writes it. The
backend is left to the caller (the workflow's jobs use Agg, a notebook its inline backend)."""

from __future__ import annotations

import textwrap
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from stratbench.io import atomic_path
from stratbench.measures.names import FOLD_QUALITY_LABELS, MEASURE_LABELS, MEASURES
from stratbench.tables.format import ordered

WIDTHS = {"one": 3.5, "two": 7.0}  # inches: one and two journal columns
MAX_HEIGHT = 9.0  # inches: a journal page's text height; a figure of many panels draws those that fit


@dataclass(frozen=True)
class FigureStyle:
    """How every figure is drawn: ``width`` (inches, or "one"/"two" columns), ``dpi`` of the PNG,
    ``font_size`` (pt), ``formats`` (written beside the PNG and the PDF, which are always written: e.g.
    ``("svg", "eps")``), ``order`` (the methods in the config's order: the i-th
    takes the i-th colour of tab10, so adding a method never recolours the others), ``colours``
    (method → matplotlib colour, over the order's), ``names`` (printed names of methods and measures),
    ``measures`` (the measures drawn; empty: all)."""

    width: float = 7.0
    dpi: int = 300
    font_size: float = 8.0
    formats: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    colours: dict = field(default_factory=dict)
    names: dict = field(default_factory=dict)
    measures: tuple[str, ...] = ()

    @classmethod
    def from_config(cls, config: dict, **override) -> FigureStyle:
        """The style of a study: its ``figures:`` section, its stratifiers' order, then ``override``."""
        section = {**(config.get("figures") or {}), **{k: v for k, v in override.items() if v is not None}}
        width = section.pop("width", 7.0)
        return cls(width=float(WIDTHS.get(width, width)), order=tuple(config.get("stratifiers") or ()),
                   **{k: tuple(v) if isinstance(v, list) else v for k, v in section.items()})

    def name(self, key: str, labels: dict | None = None) -> str:
        """The printed name of a method or measure."""
        if key in self.names:
            return self.names[key]
        if labels and key in labels:
            return labels[key]
        return MEASURES[key].label if key in MEASURES else str(key).replace("_", " ")

    def methods(self, present) -> list[str]:
        """The ``present`` methods in the config's order, the others after them sorted."""
        return ordered(present, list(self.order))

    def colour_map(self, present) -> dict:
        """A colour per method: its own from ``colours``, else tab10's by its place in the config's order
        (methods the config does not list follow it, sorted)."""
        cmap = plt.get_cmap("tab10")
        extra = sorted(m for m in set(present) if m not in self.order)
        place = {m: i for i, m in enumerate([*self.order, *extra])}
        return {m: self.colours.get(m, cmap(place[m] % 10)) for m in present}

    def keep(self, measures) -> list[str]:
        """The measures to draw: those of ``measures`` (in order) that the style lists, or all."""
        return [m for m in measures if not self.measures or m in self.measures]

    def chars(self, inches: float | None = None, size: float | None = None) -> float:
        """How many characters fit in ``inches`` (default the figure width) at ``size`` pt (0.6 em each)."""
        return (inches or self.width) * 72 / (0.6 * (size or self.font_size))

    def wrap(self, text: str, inches: float | None = None, size: float | None = None) -> str:
        """``text`` wrapped to ``inches`` (default the figure width) at ``size`` pt."""
        return textwrap.fill(text, max(6, int(self.chars(inches, size))), break_long_words=False)

    def heading(self, text: str) -> str:
        """``text`` wrapped for the figure's title, one point larger than the text (figure.titlesize)."""
        return self.wrap(text, size=self.font_size + 1)

    @contextmanager
    def drawing(self):
        """matplotlib settings of the figures drawn and saved inside: sizes in points, Type 42 fonts."""
        small = self.font_size - 1
        with mpl.rc_context({"font.size": self.font_size, "axes.titlesize": self.font_size,
                             "axes.labelsize": self.font_size, "figure.titlesize": self.font_size + 1,
                             "legend.fontsize": small, "legend.title_fontsize": small, "xtick.labelsize": small,
                             "ytick.labelsize": small, "pdf.fonttype": 42, "ps.fonttype": 42,
                             "figure.constrained_layout.use": True}):
            yield


DEFAULT = FigureStyle()


def save_figure(fig, png_path, pdf_path=None, style: FigureStyle = DEFAULT) -> None:
    """Write ``fig`` as PNG (``style.dpi``) and PDF (TrueType fonts), and in ``style.formats`` beside them,
    atomically, without timestamps in the PDF or the SVG (an EPS carries its creation date)."""
    metadata = {"png": {"Software": None}, "pdf": {"CreationDate": None, "Producer": None}, "svg": {"Date": None}}
    paths = {"png": png_path, "pdf": pdf_path}
    base = Path(png_path or pdf_path)
    paths.update({ext: base.with_suffix(f".{ext}") for ext in style.formats if ext not in paths})
    with style.drawing():
        for ext, path in paths.items():
            if path:
                with atomic_path(path) as tmp:
                    fig.savefig(tmp, format=ext, dpi=style.dpi, metadata=metadata.get(ext))
    plt.close(fig)


def panel_grid(n: int, style: FigureStyle, panel_width: float) -> tuple[int, int]:
    """(rows, columns) of n panels at least ``panel_width`` inches wide."""
    ncols = max(1, min(n, int(style.width // panel_width)))
    return int(np.ceil(n / ncols)) or 1, ncols


def _fit_page(panels: list, style: FigureStyle, panel_width: float, row_height: float, extra: float):
    """(drawn, left out): the first ``panels`` (in the measures' print order, or the config's) whose grid
    of rows ``row_height`` tall, plus ``extra`` inches of title and legend, fits :data:`MAX_HEIGHT`."""
    _, ncols = panel_grid(max(1, len(panels)), style, panel_width)
    rows = max(1, int((MAX_HEIGHT - extra) // row_height))
    return list(panels[: rows * ncols]), list(panels[rows * ncols:])


def _left_out(title: str, names: list[str], what: str = "measures") -> str:
    """``title``, naming the panels the figure does not show (none: as it is). Which panels a page holds is the
    config's choice (``figures: measures``, ``dataset_groups``); the reader needs only what is missing."""
    if not names:
        return title
    return f"{title}; not shown: {', '.join(names)}"


def figure_legend(fig, colours: dict, style: FigureStyle, title: str = "stratifier", marker: bool = False) -> None:
    """One legend for the whole figure, below the panels, in as many columns as fit the width."""
    names = [style.name(m) for m in colours]
    handles = [plt.Line2D([], [], color=c, marker="o", linestyle="-") if marker else
               plt.Rectangle((0, 0), 1, 1, color=c) for c in colours.values()]
    longest = max((len(n) for n in names), default=4)
    ncols = max(1, min(len(names), int(style.width * 72 / ((longest + 4) * 0.55 * (style.font_size - 1)))))
    fig.legend(handles, names, title=style.wrap(title), loc="outside lower center", ncols=ncols, frameon=False)


def _finish_panels(fig, axes, used: int, ylabel: str, colours: dict, style: FigureStyle, title: str) -> None:
    """A grid of per-measure panels finished alike: the y label on the first column, the unused panels
    hidden, one legend below, the title wrapped to the width."""
    for ax in axes[:, 0]:
        ax.set_ylabel(ylabel)
    for ax in list(axes.flat)[used:]:
        ax.axis("off")
    figure_legend(fig, colours, style)
    fig.suptitle(style.heading(title))


def std_by_stratifier(summary: pd.DataFrame, classifier: str, style: FigureStyle = DEFAULT):
    """One panel per measure: the std over folds of each stratifier (bars), grouped by dataset."""
    part = summary[summary["classifier"] == classifier]
    measures = style.keep(ordered(part["measure"], list(MEASURES)))
    stratifiers = style.methods(part["stratifier"])
    colours = style.colour_map(stratifiers)
    datasets = sorted(part["dataset"].unique())
    measures, left_out = _fit_page(measures, style, 1.7, 1.7, 0.9)
    nrows, ncols = panel_grid(len(measures), style, 1.7)
    with style.drawing():
        fig, axes = plt.subplots(nrows, ncols, figsize=(style.width, 1.7 * nrows + 0.9), squeeze=False)
        width = 0.8 / max(1, len(stratifiers))
        x = np.arange(len(datasets))
        for ax, measure in zip(axes.flat, measures):
            table = part[part["measure"] == measure].pivot(index="dataset", columns="stratifier", values="std")
            table = table.reindex(index=datasets, columns=stratifiers)
            for i, s in enumerate(stratifiers):
                ax.bar(x + (i - (len(stratifiers) - 1) / 2) * width, table[s].to_numpy(), width, color=colours[s])
            ax.set_title(style.wrap(style.name(measure), style.width / ncols))
            ax.set_xticks(x, datasets, rotation=90)
        _finish_panels(fig, axes, len(measures), "std over folds", colours, style,
                       _left_out(f"{classifier}: std of the CV estimate over folds (lower is better)",
                                 [style.name(m) for m in left_out]))
    return fig


def rank_bars(ranks: pd.DataFrame, title: str, labels: dict | None = None, style: FigureStyle = DEFAULT,
              panel_title: str = "datasets: {}"):
    """Average rank (1 = best) per measure and stratifier, one panel per dataset group (``panel_title``
    names it), like the average-rank bar charts of Szymański & Kajdanowicz 2017 (Figures 1–7). The dashed
    line is the rank every method would get if the stratifiers did not differ, (k + 1)/2; N under each measure."""
    groups, left_out = _fit_page(list(dict.fromkeys(ranks["group"])), style, style.width, 1.9, 1.0)
    stratifiers = style.methods(ranks["stratifier"])
    colours = style.colour_map(stratifiers)
    measures = style.keep(ordered(ranks["measure"], labels))
    with style.drawing():
        fig, axes = plt.subplots(len(groups), 1, figsize=(style.width, 1.9 * len(groups) + 1.0), squeeze=False)
        width = 0.8 / len(stratifiers)
        for ax, group in zip(axes[:, 0], groups):
            part = ranks[ranks["group"] == group]
            wide = part.pivot(index="measure", columns="stratifier", values="average_rank").reindex(
                index=[m for m in measures if m in set(part["measure"])], columns=stratifiers)
            x = np.arange(len(wide))
            for i, s in enumerate(stratifiers):
                ax.bar(x + (i - (len(stratifiers) - 1) / 2) * width, wide[s].to_numpy(), width, color=colours[s])
            ax.axhline((len(stratifiers) + 1) / 2, color="grey", linestyle="--", linewidth=0.8)
            n = part.groupby("measure")["datasets"].first().reindex(wide.index)
            per_measure = 0.85 * style.width / max(1, len(wide))  # the axes' share of the width
            size = style.font_size - 1
            names = [style.wrap(style.name(m, labels), per_measure, size) for m in wide.index]
            # a word longer than its measure's slot cannot wrap: the panel's tick labels shrink to fit it,
            # to 90% of the slot so neighbours keep a gap
            longest = max(len(line) for name in names for line in name.splitlines())
            shrink = min(1.0, 0.9 * style.chars(per_measure, size) / longest)
            ax.set_xticks(x, [f"{name}\n(N={k})" for name, k in zip(names, n)], fontsize=size * shrink)
            ax.set_ylabel("average rank")
            ax.set_ylim(0, len(stratifiers) + 0.5)
            ax.set_title(style.wrap(panel_title.format(group)))
        figure_legend(fig, colours, style)
        fig.suptitle(style.heading(_left_out(title, left_out, "the dataset groups (dataset_groups)")))
    return fig


def claim_rank_bars(ranks: pd.DataFrame, paper: str, style: FigureStyle = DEFAULT):
    """The average ranks behind ``paper``'s claims (:func:`stratbench.reproduction.claim_ranks`), one panel
    per claim (and classifier)."""
    return rank_bars(ranks, f"{paper}: the average ranks behind the paper's claims (1 = best)",
                     {**FOLD_QUALITY_LABELS, **MEASURE_LABELS}, style, panel_title="{}")


def nemenyi_groups(ranks: pd.Series, cd: float) -> list[tuple[str, ...]]:
    """Maximal runs of methods, in rank order, whose average ranks lie less than ``cd`` apart
    (Demšar's bars: members of a run are not significantly different by the Nemenyi test)."""
    ordered_ranks = ranks.sort_values(kind="stable")
    names, values = list(ordered_ranks.index), ordered_ranks.to_numpy()
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


def cd_diagram(ax, ranks: pd.Series, cd: float, title: str = "", style: FigureStyle = DEFAULT) -> None:
    """A critical-difference diagram (Demšar 2006, Fig. 1) on ``ax``: the average ranks on an axis from
    1 (left, best) to k, each method's name joined to its rank, a bar joining methods less than CD
    apart (not significantly different), and the CD interval above the axis. A CD longer than the axis
    (k − 1) is drawn to its end and marked "> k − 1": no pair can then differ."""
    ranked = ranks.sort_values(kind="stable")
    k = len(ranked)
    half = (k + 1) // 2
    groups = nemenyi_groups(ranked, cd) if np.isfinite(cd) else []
    rows = max(half, k - half)
    labels = [f"{style.name(n)} ({r:.2f})" for n, r in ranked.items()]
    # room for the names beside the axis: the longest label in axis units at this width
    axes_inches = ax.get_position().width * ax.figure.get_figwidth()
    label_inches = max(len(t) for t in labels) * 0.55 * (style.font_size - 1) / 72 + 0.1
    margin = max(0.5, label_inches * (k - 1) / max(axes_inches - 2 * label_inches, 0.3 * axes_inches))
    axis_y, step = 0.0, 1.0
    ax.set_xlim(1 - margin, k + margin)
    ax.set_ylim(-(rows + 0.9) * step - 0.25 * len(groups), 1.9)
    ax.axis("off")
    ax.plot([1, k], [axis_y, axis_y], color="black", linewidth=1)
    for tick in range(1, k + 1):
        ax.plot([tick, tick], [axis_y, axis_y + 0.18], color="black", linewidth=1)
        ax.text(tick, axis_y + 0.3, str(tick), ha="center", va="bottom", fontsize=style.font_size - 1)
    for half_tick in np.arange(1.5, k, 1.0):
        ax.plot([half_tick, half_tick], [axis_y, axis_y + 0.09], color="black", linewidth=0.6)
    if np.isfinite(cd):
        end = 1 + min(cd, k - 1)
        ax.plot([1, end], [1.3, 1.3], color="black", linewidth=1.5)
        for x in (1, end):
            ax.plot([x, x], [1.2, 1.4], color="black", linewidth=1)
        text = f"CD = {cd:.2f}" if cd <= k - 1 else f"CD = {cd:.2f} > k − 1"
        ax.text((1 + end) / 2, 1.45, text, ha="center", va="bottom", fontsize=style.font_size - 1)
    for g, members in enumerate(groups):
        y = axis_y - 0.35 - 0.25 * g
        ax.plot([ranked[members[0]] - 0.03, ranked[members[-1]] + 0.03], [y, y], color="black", linewidth=2.5,
                solid_capstyle="butt")
    bar_space = 0.35 + 0.25 * len(groups)
    for i, ((_, rank), label) in enumerate(zip(ranked.items(), labels)):
        left = i < half
        row = i if left else k - 1 - i
        y = axis_y - bar_space - (row + 0.6) * step
        x_end = 1 - 0.3 * margin if left else k + 0.3 * margin
        ax.plot([rank, rank, x_end], [axis_y, y, y], color="black", linewidth=0.8)
        ax.text(x_end + (-0.03 if left else 0.03), y, label, ha="right" if left else "left", va="center",
                fontsize=style.font_size - 1)
    if title:
        ax.set_title(style.wrap(title, axes_inches))


def panel_summary(t) -> str:
    """One line for a comparison's panel: N, the Friedman p it is judged by (which one), and what N
    cannot support (F undefined, too few datasets for Nemenyi to separate any pair)."""
    which = "exact" if np.isfinite(t["exact_p"]) else "Iman–Davenport" if np.isfinite(t["F_p"]) else "χ²"
    p = f"Friedman p ({which}) = {t['p']:.3g}" if np.isfinite(t["p"]) else "no Friedman test"
    caveat = "; N too few for Nemenyi" if bool(t.get("nemenyi_too_few", False)) else ""
    dropped = t.get("dropped", "")
    left_out = f"; without a score for every method, left out: {dropped}" if isinstance(dropped, str) and dropped else ""
    return f"N = {int(t['datasets'])} datasets, {p}, α = {t['alpha']:g}{caveat}{left_out}"


def cd_diagrams(ranks: pd.DataFrame, tests: pd.DataFrame, title: str, group: str = "all",
                labels: dict | None = None, style: FigureStyle = DEFAULT):
    """Critical-difference diagrams, one panel per measure, for one dataset group; each panel states
    N, the Friedman p it is judged by, the Nemenyi CD at the test's α, and what N cannot support."""
    ranks, tests = ranks[ranks["group"] == group], tests[tests["group"] == group]
    measures = style.keep(ordered(tests.loc[tests["methods"] >= 2, "measure"], labels))
    k = int(tests["methods"].max()) if len(tests) else 2
    height = 0.2 * (max(1, (k + 1) // 2) + 4) + 0.45
    measures, left_out = _fit_page(measures, style, 3.4, height, 0.5)
    nrows, ncols = panel_grid(max(1, len(measures)), style, 3.4)
    with style.drawing():
        fig, axes = plt.subplots(nrows, ncols, figsize=(style.width, height * nrows + 0.5), squeeze=False)
        for ax in list(axes.flat)[len(measures):]:
            ax.axis("off")
        for ax, measure in zip(axes.flat, measures):
            r = ranks[ranks["measure"] == measure].set_index("stratifier")["average_rank"]
            t = tests[tests["measure"] == measure].iloc[0]
            cd_diagram(ax, r, float(t["critical_difference"]), f"{style.name(measure, labels)}: {panel_summary(t)}",
                       style)
        if not measures:
            axes[0, 0].text(0.5, 0.5, "fewer than two stratifiers: nothing to compare", ha="center", va="center")
            axes[0, 0].axis("off")
        fig.suptitle(style.heading(_left_out(title, [style.name(m, labels) for m in left_out])))
    return fig


def fold_distribution(scores: pd.DataFrame, classifier: str, labels: dict | None = None,
                      style: FigureStyle = DEFAULT):
    """The spread of each measure over the folds, per dataset and stratifier: every fold's value
    minus the mean of its repeat's folds (the CV estimate), as box plots. Narrow boxes = a stratifier
    whose folds agree, i.e. a low-variance estimate."""
    part = scores[scores["classifier"] == classifier].dropna(subset=["value"])
    part = part.assign(deviation=part["value"] - part.groupby(["dataset", "stratifier", "repeat", "measure"])["value"]
                       .transform("mean"))
    measures = style.keep(ordered(part["measure"], labels))
    stratifiers = style.methods(part["stratifier"])
    datasets = sorted(part["dataset"].unique())
    colours = style.colour_map(stratifiers)
    measures, left_out = _fit_page(measures, style, 1.7, 1.7, 0.9)
    nrows, ncols = panel_grid(len(measures), style, 1.7)
    with style.drawing():
        fig, axes = plt.subplots(nrows, ncols, figsize=(style.width, 1.7 * nrows + 0.9), squeeze=False)
        width = 0.8 / max(1, len(stratifiers))
        for ax, measure in zip(axes.flat, measures):
            m = part[part["measure"] == measure]
            for i, s in enumerate(stratifiers):
                data = [m.loc[(m["dataset"] == d) & (m["stratifier"] == s), "deviation"].to_numpy() for d in datasets]
                positions = np.arange(len(datasets)) + (i - (len(stratifiers) - 1) / 2) * width
                keep = [j for j, v in enumerate(data) if len(v)]
                if keep:
                    box = ax.boxplot([data[j] for j in keep], positions=positions[keep], widths=width * 0.9,
                                     patch_artist=True, showfliers=True, flierprops={"markersize": 2},
                                     medianprops={"color": "black", "linewidth": 1.0})
                    for patch in box["boxes"]:
                        patch.set_facecolor(colours[s])
                        patch.set_alpha(0.75)
            ax.axhline(0, color="grey", linewidth=0.6)
            ax.set_xticks(np.arange(len(datasets)), datasets, rotation=90)
            ax.set_title(style.wrap(style.name(measure, labels), style.width / ncols))
        _finish_panels(fig, axes, len(measures), "fold − CV mean", colours, style,
                       _left_out(f"{classifier}: each fold's value minus its repeat's mean",
                                 [style.name(m, labels) for m in left_out]))
    return fig


def label_shares(Y, folds_by_stratifier: dict, n_splits: int, dataset: str, style: FigureStyle = DEFAULT):
    """Per stratifier: for every label and test fold, the share of the fold's examples that carry
    the label (y) against the label's share in the whole dataset (x), log–log. Perfect stratification
    lies on the diagonal; a fold without a positive of the label is drawn at the bottom edge (×)."""
    stratifiers, left_out = _fit_page(style.methods(folds_by_stratifier), style, 2.3, 2.0, 0.7)
    nrows, ncols = panel_grid(len(stratifiers), style, 2.3)
    from stratbench.measures.fold_quality import fold_label_counts  # numba: here, not in every figure job

    n = Y.shape[0]
    with style.drawing():
        fig, axes = plt.subplots(nrows, ncols, figsize=(style.width, 2.0 * nrows + 0.7), squeeze=False,
                                 sharex=True, sharey=True)
        for ax, s in zip(axes.flat, stratifiers):
            sizes, counts = fold_label_counts(Y, folds_by_stratifier[s], n_splits)
            total = counts.sum(axis=0)
            keep = total > 0
            d = np.broadcast_to(total[keep] / n, counts[:, keep].shape).ravel()
            p = (counts[:, keep] / np.maximum(sizes, 1)[:, None]).ravel()
            floor = 0.5 * min(d.min(), p[p > 0].min() if (p > 0).any() else d.min())
            zero = p == 0
            ax.scatter(d[~zero], p[~zero], s=3, alpha=0.35, color="tab:blue", linewidths=0)
            ax.scatter(d[zero], np.full(zero.sum(), floor), s=8, marker="x", color="tab:red", linewidths=0.6)
            ax.plot([floor, 1.0], [floor, 1.0], color="grey", linewidth=0.8)
            ax.set_xscale("log")
            ax.set_yscale("log")
            ax.set_title(style.wrap(f"{style.name(s)}: {int(zero.sum())} × no positive", style.width / ncols))
        for ax in axes[-1, :]:
            ax.set_xlabel("share in the dataset")
        for ax in axes[:, 0]:
            ax.set_ylabel("share in a test fold")
        for ax in list(axes.flat)[len(stratifiers):]:
            ax.axis("off")
        fig.suptitle(style.heading(_left_out(f"{dataset}: each label's positive share per test fold (repeat 0) against the "
                                             "dataset", [style.name(m) for m in left_out], "order (the stratifiers')")))
    return fig


def runtime_vs_size(runtime: pd.DataFrame, style: FigureStyle = DEFAULT):
    """The stratifiers' wall time (mean over repeats) against the dataset's size, log–log: x is the
    number of positive labels (non-zeros of Y), the quantity IS and SOIS scale with."""
    agg = runtime.groupby(["dataset", "stratifier"], sort=True).agg(
        seconds=("seconds", "mean"), nnz=("nnz", "first"), examples=("examples", "first")).reset_index()
    colours = style.colour_map(style.methods(agg["stratifier"]))
    with style.drawing():
        fig, ax = plt.subplots(figsize=(style.width, min(0.7 * style.width, 3.6) + 0.6))
        for s in colours:
            part = agg[agg["stratifier"] == s].sort_values("nnz")
            ax.plot(part["nnz"], part["seconds"], marker="o", markersize=3, color=colours[s])
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("dataset size: positive labels (non-zeros of Y)")
        ax.set_ylabel("wall time (s)")
        figure_legend(fig, colours, style, marker=True)
        fig.suptitle(style.heading("Stratifier runtime against dataset size"))
    return fig


def optimality_gap(gaps: pd.DataFrame, objective: str = "LD", style: FigureStyle = DEFAULT):
    """Each stratifier's distance from the best split (:func:`stratbench.grid.optimum.gap_table`), one
    panel per k: a row per stratifier, a marker per dataset at its gap (LD: % above the optimum, log
    scale; FLZ: cells above), filled where the solver proved the optimum, hollow where the gap is to
    its lower bound (an upper bound on the true gap)."""
    part = gaps[gaps["objective"] == objective]
    ks = sorted(part["k"].unique())
    methods = style.methods(part["stratifier"].unique())
    datasets = sorted(part["dataset"].unique())
    markers = dict(zip(datasets, "osD^v<>pP*Xh"))
    cmap = plt.get_cmap("tab10")
    relative = objective == "LD"
    with style.drawing():
        nrows, ncols = panel_grid(len(ks), style, 2.2)
        fig, axes = plt.subplots(nrows, ncols, figsize=(style.width, 0.3 * len(methods) * nrows + 1.4),
                                 squeeze=False, sharey=True, sharex=True)
        for ax, k in zip(axes.flat, ks):
            at = part[part["k"] == k]
            for i, d in enumerate(datasets):
                rows = at[at["dataset"] == d].set_index("stratifier").reindex(methods)
                y = np.arange(len(methods)) + (i - (len(datasets) - 1) / 2) * 0.5 / max(len(datasets), 1)
                x = 100 * rows["gap"] if relative else rows["gap"]
                closed = rows["closed"].fillna(False).astype(bool).to_numpy()
                colour = cmap(i % 10)
                ax.scatter(x[closed], y[closed], marker=markers.get(d, "o"), s=14, color=colour)
                ax.scatter(x[~closed], y[~closed], marker=markers.get(d, "o"), s=14, facecolors="none",
                           edgecolors=colour)
            if relative:
                ax.set_xscale("symlog", linthresh=1.0)
                ax.axvline(5.0, color="grey", lw=0.6, ls=":")
            ax.set_yticks(np.arange(len(methods)), [style.name(m) for m in methods])
            ax.invert_yaxis()
            ax.set_title(f"k = {k}")
            ax.set_xlabel("% above the optimum" if relative else "cells above the fewest")
            ax.grid(axis="x", lw=0.3)
        for ax in list(axes.flat)[len(ks):]:
            ax.axis("off")
        handles = [plt.Line2D([], [], marker=markers.get(d, "o"), color=cmap(i % 10), linestyle="")
                   for i, d in enumerate(datasets)]
        fig.legend(handles, datasets, title="dataset (hollow: gap to the solver's bound)", loc="outside lower center",
                   ncols=min(len(datasets), max(1, int(style.width // 1.1))), frameon=False)
        fig.suptitle(style.heading(f"{style.name(objective)}: distance of each stratifier from the best split possible"))
    return fig
