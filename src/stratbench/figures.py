"""Figures for a paper (matplotlib; PNG and vector PDF with fixed metadata).

Each function returns a matplotlib Figure drawn to a :class:`FigureStyle` (the config's ``figures:``
section): a journal width (3.5 in for one column, 7.2 in for two), fonts in points, TrueType (Type 42)
fonts in the PDF, 300 dpi PNGs, one colour per method that stays with it when methods are added (from
the config's order, or the ``colours`` given), the measures' printed names of
:mod:`stratbench.measures.names` unless ``names`` says otherwise. :func:`save_figure` writes it. The
backend is left to the caller (the workflow's jobs use Agg, a notebook its inline backend)."""

from __future__ import annotations

import textwrap
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from stratbench.io import atomic_path
from stratbench.measures.names import FOLD_QUALITY_LABELS, MEASURE_LABELS, MEASURES
from stratbench.tables.format import ordered

WIDTHS = {"one": 3.5, "two": 7.2}  # inches: one and two journal columns
MAX_HEIGHT = 9.0  # inches: a journal page's text height; a figure of many panels draws those that fit


@dataclass(frozen=True)
class FigureStyle:
    """How every figure is drawn: ``width`` (inches, or "one"/"two" columns), ``dpi`` of the PNG,
    ``font_size`` (pt), ``formats`` (written beside the PNG and the PDF, which are always written: e.g.
    ``("svg", "eps")``), ``order`` (the methods in the config's order: the i-th
    takes the i-th colour of tab10, so adding a method never recolours the others), ``colours``
    (method → matplotlib colour, over the order's), ``names`` (printed names of methods and measures),
    ``measures`` (the measures drawn; empty: all)."""

    width: float = 7.2
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
        width = section.pop("width", "two")
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

    def marker_map(self, present) -> dict:
        """A marker per method, telling apart the methods that share a tab10 colour: the first ten in the
        config's order (then the others, sorted) a circle, the next ten a square, then a triangle."""
        extra = sorted(m for m in set(present) if m not in self.order)
        place = {m: i for i, m in enumerate([*self.order, *extra])}
        return {m: "os^D"[min(place[m] // 10, 3)] for m in present}

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
    def drawing(self, constrained: bool = True):
        """matplotlib settings of the figures drawn and saved inside: sizes in points, Type 42 fonts; matplotlib's
        constrained layout unless the figure places its axes itself (``constrained=False``)."""
        small = self.font_size - 1
        with mpl.rc_context({"font.size": self.font_size, "axes.titlesize": self.font_size,
                             "axes.labelsize": self.font_size, "figure.titlesize": self.font_size + 1,
                             "legend.fontsize": small, "legend.title_fontsize": small, "xtick.labelsize": small,
                             "ytick.labelsize": small, "pdf.fonttype": 42, "ps.fonttype": 42,
                             "figure.constrained_layout.use": constrained}):
            yield


DEFAULT = FigureStyle()


def save_figure(fig, png_path, pdf_path=None, style: FigureStyle = DEFAULT) -> None:
    """Write ``fig`` as PNG (``style.dpi``) and PDF (TrueType fonts), and in ``style.formats`` beside them,
    atomically, without timestamps in the PDF or the SVG (an EPS carries its creation date)."""
    caption = " ".join(caption_notes(fig))
    metadata = {"png": {"Software": None, **({"Description": caption} if caption else {})},
                "pdf": {"CreationDate": None, "Producer": None, **({"Subject": caption} if caption else {})},
                "svg": {"Date": None, **({"Description": caption} if caption else {})}}
    paths = {"png": png_path, "pdf": pdf_path}
    base = Path(png_path or pdf_path)
    paths.update({ext: base.with_suffix(f".{ext}") for ext in style.formats if ext not in paths})
    if fig.get_layout_engine() is not None:
        # the layout solved once and frozen: every format has the same positions, whichever formats are written
        # and in whatever order (a second solve starts from the first's and moves them by ~1e-6 pt)
        with style.drawing():
            fig.draw_without_rendering()
        fig.set_layout_engine("none")
    with style.drawing(constrained=False):
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


MEASURES_CHOSEN = "measures; the config's figures: measures chooses them"


def note_left_out(fig, names: list[str], what: str = MEASURES_CHOSEN) -> None:
    """Record in ``fig``'s caption (:func:`caption_notes`) the panels it does not show; the title keeps to what the
    figure shows. Which panels a page holds is the config's choice (``figures: measures``, ``dataset_groups``)."""
    if names:
        add_caption_note(fig, f"Not shown, to fit a page ({what}): {', '.join(names)}.")


def add_caption_note(fig, note: str) -> None:
    """Add ``note`` (a layout note: what the figure leaves out, how it is drawn) to ``fig``'s caption."""
    fig._stratbench_caption = [*caption_notes(fig), note]


def caption_notes(fig) -> list[str]:
    """The layout notes of ``fig``'s caption: :func:`save_figure` writes them into the file's description
    (PNG ``Description``, PDF ``Subject``, SVG ``Description``), and ``stratbench figure`` prints them."""
    return list(getattr(fig, "_stratbench_caption", []))


def figure_legend(fig, colours: dict, style: FigureStyle, title: str = "stratifier", marker: bool = False) -> None:
    """One legend for the whole figure, below the panels, in as many columns as fit the width; with ``marker``,
    each method's marker (:meth:`FigureStyle.marker_map`) beside its colour."""
    names = [style.name(m) for m in colours]
    markers = style.marker_map(colours)
    handles = [plt.Line2D([], [], color=c, marker=markers[m], linestyle="-") if marker else
               plt.Rectangle((0, 0), 1, 1, color=c) for m, c in colours.items()]
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
                       f"{classifier}: std of the CV estimate over folds (lower is better)")
        note_left_out(fig, [style.name(m) for m in left_out])
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
        fig.suptitle(style.heading(title))
        note_left_out(fig, list(left_out), "dataset groups; the config's dataset_groups chooses them")
    return fig


def claim_rank_bars(ranks: pd.DataFrame, paper: str, style: FigureStyle = DEFAULT):
    """The average ranks behind ``paper``'s claims (:func:`stratbench.papers.reproduction.claim_ranks`), one panel
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


@lru_cache(maxsize=1)
def _text_to_path():
    from matplotlib.textpath import TextToPath

    return TextToPath()


def text_inches(text: str, size: float) -> float:
    """The width in inches of ``text`` set in matplotlib's default font at ``size`` pt (its glyphs' advance,
    as drawn), the measure every layout below is planned with."""
    from matplotlib.font_manager import FontProperties

    font = FontProperties(size=size)
    return max((_text_to_path().get_text_width_height_descent(line, font, ismath=False)[0]
                for line in text.splitlines()), default=0.0) / 72


def _levels(spans: list[tuple[float, float]], gap: float) -> list[int]:
    """A level per span (lo, hi), the lowest free one where it stays ``gap`` clear of the spans already there:
    the cliques' bars stacked so that none touches another."""
    taken: list[list[tuple[float, float]]] = []
    levels = []
    for lo, hi in spans:
        level = next((i for i, row in enumerate(taken) if all(hi + gap <= a or lo - gap >= b for a, b in row)),
                     len(taken))
        if level == len(taken):
            taken.append([])
        taken[level].append((lo, hi))
        levels.append(level)
    return levels


@dataclass(frozen=True)
class CDLayout:
    """How a critical-difference panel is laid out at a width: ``"ends"`` (Demšar 2006, Fig. 1: the rank axis
    across the panel, the methods' names at its two ends) where that axis takes at least :data:`AXIS_SHARE` of the
    panel, else ``"rows"`` (a row per method in rank order, names on the left, its rank a dot on the axis, the
    cliques as bars beside the rows). Sizes in inches: ``line`` a row of names, ``axis`` the rank axis's length."""

    kind: str
    width: float
    size: float
    label_width: float
    axis: float

    @property
    def line(self) -> float:
        return 1.2 * self.size / 72


AXIS_SHARE = 0.6  # the least share of a panel's width the rank axis takes in the "ends" layout
LEADER = 0.12  # inches of horizontal leader between the axis's end and a name
CLIQUE_GAP = 0.06  # inches between two cliques' bars (2.5 pt thick: 1.8 pt of white between them)
TICKS = 0.2  # inches from the rank axis to the top of its tick labels, and room for the CD bar above them
CD_ROW = 0.13  # inches of the CD bar's row (one more line where its label goes above it)
NAME_GAP = 0.15  # "rows" layout: inches between the names and the rank axis
CLIQUE_MARGIN = 0.35  # "rows" layout: inches right of the rank axis for the cliques' bars


def cd_layout(labels: list[str], width: float, style: FigureStyle) -> CDLayout:
    """Measure ``labels`` (name and rank) at the panel's ``width``, then choose the layout (:class:`CDLayout`)."""
    size = style.font_size - 1
    label_width = max((text_inches(t, size) for t in labels), default=0.0) + 0.04
    ends_axis = width - 2 * (label_width + LEADER + 0.05)
    if ends_axis >= AXIS_SHARE * width:
        return CDLayout("ends", width, size, label_width, ends_axis)
    return CDLayout("rows", width, size, label_width, width - label_width - NAME_GAP - CLIQUE_MARGIN)


def _panel_title_lines(title: str, width: float, style: FigureStyle) -> list[str]:
    """``title`` broken into lines no wider than ``width`` inches at the font size (measured, not estimated)."""
    words, lines = [w for w in title.split(" ") if w], []  # a no-break space (U+00A0) keeps "α = 0.05" on one line
    for word in words:
        if lines and text_inches(f"{lines[-1]} {word}", style.font_size) <= width - 0.1:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def cd_geometry(ranks: pd.Series, cd: float, title: str, layout: CDLayout, style: FigureStyle) -> dict:
    ranked = ranks.sort_values(kind="stable")
    k = len(ranked)
    groups = nemenyi_groups(ranked, cd) if np.isfinite(cd) else []
    line = layout.line
    title_lines = _panel_title_lines(title, layout.width, style) if title else []
    title_h = len(title_lines) * 1.25 * style.font_size / 72
    top = 0.03 + title_h + 0.03
    x0 = layout.label_width + (LEADER + 0.05 if layout.kind == "ends" else NAME_GAP)
    scale = layout.axis / max(k - 1, 1)
    cd_text, cd_beside = "", True
    if np.isfinite(cd):
        cd_text = f"CD = {cd:.2f}" if cd <= k - 1 else f"CD = {cd:.2f} > k − 1"
        # beside the bar's right end where the panel has room, else above the bar
        cd_beside = x0 + min(cd, k - 1) * scale + 0.06 + text_inches(cd_text, layout.size) <= layout.width - 0.02
    cd_h = 0.0 if not cd_text else CD_ROW if cd_beside else CD_ROW + line
    if layout.kind == "ends":
        spans = [(x0 + (ranked[g[0]] - 1) * scale - 0.03, x0 + (ranked[g[-1]] - 1) * scale + 0.03) for g in groups]
        levels = _levels(spans, 0.05)
        n_levels = max(levels, default=-1) + 1
        half = (k + 1) // 2
        rows = max(half, k - half)
        height = top + cd_h + TICKS + 0.07 + max(n_levels - 1, 0) * CLIQUE_GAP + 0.06 + rows * line + 0.03
    else:
        levels = _levels([(i, i + len(g) - 1) for i, g in _clique_rows(ranked, groups)], 0.5)
        height = top + cd_h + TICKS + 0.04 + k * line + 0.03
    return dict(ranked=ranked, k=k, groups=groups, levels=levels, title_lines=title_lines, top=top, cd_h=cd_h,
                cd_text=cd_text, cd_beside=cd_beside, x0=x0, scale=scale, height=height)


def _clique_rows(ranked: pd.Series, groups) -> list[tuple[int, tuple[str, ...]]]:
    """(first row, members) of each clique in the "rows" layout, where row i holds the i-th best method."""
    row = {name: i for i, name in enumerate(ranked.index)}
    return [(row[g[0]], g) for g in groups]


def cd_diagram(ax, ranks: pd.Series, cd: float, title: str = "", style: FigureStyle = DEFAULT,
               layout: CDLayout | None = None, geometry: dict | None = None) -> None:
    """A critical-difference diagram (Demšar 2006, JMLR 7, Fig. 1) on ``ax``, whose data units are inches of the
    panel: the average ranks on an axis from 1 (left, best) to k, the CD interval above it, and the cliques (runs of
    methods less than CD apart, not significantly different by the Nemenyi test) as thick bars that never touch.
    In the ``"ends"`` layout each method's name and rank hangs off the axis's nearer end, joined to its rank; in
    the ``"rows"`` layout (narrow panels) a row per method in rank order carries its rank as a dot, the cliques as
    bars beside the rows (:func:`cd_layout` chooses). A CD longer than the axis (k − 1) is drawn to its end and
    marked "> k − 1": no pair can then differ. ``geometry``: the panel's :func:`cd_geometry`, where the caller has
    it already."""
    if layout is None:
        labels = [f"{style.name(n)} ({r:.2f})" for n, r in ranks.items()]
        layout = cd_layout(labels, ax.get_position().width * ax.figure.get_figwidth(), style)
    g = geometry or cd_geometry(ranks, cd, title, layout, style)
    k, x0, scale, height = g["k"], g["x0"], g["scale"], g["height"]
    size = layout.size
    ax.set_xlim(0, layout.width)
    ax.set_ylim(0, height)
    ax.axis("off")

    def x_of(rank):
        return x0 + (rank - 1) * scale

    y = height - 0.03
    for text in g["title_lines"]:
        y -= 1.25 * style.font_size / 72
        ax.text(layout.width / 2, y, text, ha="center", va="bottom", fontsize=style.font_size)
    y = height - g["top"]
    if np.isfinite(cd):
        end = 1 + min(cd, k - 1)
        bar_y = y - g["cd_h"] + CD_ROW / 2
        ax.plot([x_of(1), x_of(end)], [bar_y, bar_y], color="black", linewidth=1.5, solid_capstyle="butt")
        for x in (x_of(1), x_of(end)):
            ax.plot([x, x], [bar_y - 0.03, bar_y + 0.03], color="black", linewidth=0.8)
        if g["cd_beside"]:
            ax.text(x_of(end) + 0.06, bar_y, g["cd_text"], ha="left", va="center", fontsize=size)
        else:
            ax.text((x_of(1) + x_of(end)) / 2, bar_y + 0.05, g["cd_text"], ha="center", va="bottom", fontsize=size)
        y -= g["cd_h"]
    axis_y = y - TICKS
    ax.plot([x_of(1), x_of(k)], [axis_y, axis_y], color="black", linewidth=1)
    for tick in range(1, k + 1):
        ax.plot([x_of(tick)] * 2, [axis_y, axis_y + 0.05], color="black", linewidth=0.8)
        ax.text(x_of(tick), axis_y + 0.07, str(tick), ha="center", va="bottom", fontsize=size)
    if layout.kind == "ends":
        _draw_ends(ax, g, axis_y, layout, x_of, style)
    else:
        _draw_rows(ax, g, axis_y, layout, x_of, style)


def _draw_ends(ax, g: dict, axis_y: float, layout: CDLayout, x_of, style: FigureStyle) -> None:
    ranked, k, groups, levels = g["ranked"], g["k"], g["groups"], g["levels"]
    for members, level in zip(groups, levels):
        y = axis_y - 0.07 - level * CLIQUE_GAP
        ax.plot([x_of(ranked[members[0]]) - 0.03, x_of(ranked[members[-1]]) + 0.03], [y, y], color="black",
                linewidth=2.5, solid_capstyle="butt")
    names_top = axis_y - 0.07 - max(max(levels, default=0), 0) * CLIQUE_GAP - 0.06
    half = (k + 1) // 2
    left_end, right_end = x_of(1) - LEADER, x_of(k) + LEADER
    for i, (name, rank) in enumerate(ranked.items()):
        left = i < half
        row = i if left else k - 1 - i
        y = names_top - (row + 0.5) * layout.line
        x_end = left_end if left else right_end
        ax.plot([x_of(rank), x_of(rank), x_end], [axis_y, y, y], color="black", linewidth=0.7)
        ax.text(x_end + (-0.03 if left else 0.03), y, f"{style.name(name)} ({rank:.2f})",
                ha="right" if left else "left", va="center", fontsize=layout.size)


def _draw_rows(ax, g: dict, axis_y: float, layout: CDLayout, x_of, style: FigureStyle) -> None:
    ranked, k, groups, levels = g["ranked"], g["k"], g["groups"], g["levels"]
    for tick in range(1, k + 1):
        ax.plot([x_of(tick)] * 2, [axis_y - 0.02 - k * layout.line, axis_y], color="0.85", linewidth=0.4, zorder=0)
    for i, (name, rank) in enumerate(ranked.items()):
        y = axis_y - 0.04 - (i + 0.5) * layout.line
        ax.plot([x_of(1), x_of(rank)], [y, y], color="0.6", linewidth=0.6)
        ax.plot([x_of(rank)], [y], marker="o", markersize=3, color="black")
        ax.text(x_of(1) - 0.08, y, f"{style.name(name)} ({rank:.2f})", ha="right", va="center",
                fontsize=layout.size)
    for (first, members), level in zip(_clique_rows(ranked, groups), levels):
        x = x_of(k) + 0.1 + level * CLIQUE_GAP
        top = axis_y - 0.04 - (first + 0.2) * layout.line
        bottom = axis_y - 0.04 - (first + len(members) - 0.2) * layout.line
        ax.plot([x, x], [bottom, top], color="black", linewidth=2.5, solid_capstyle="butt")


def panel_summary(t) -> str:
    """One line for a comparison's panel: N, the Friedman p it is judged by (named by the test that computed it,
    :data:`stratbench.stats.P_VALUE_NAMES`), and what N cannot support (F undefined, too few datasets for Nemenyi
    to separate any pair)."""
    from stratbench.stats import p_value_name

    nb = "\u00a0"  # no-break spaces: a wrapped title never splits "α = 0.05"
    name = p_value_name(t).replace(" ", nb)
    p = f"Friedman p ({name}){nb}={nb}{t['p']:.3g}" if np.isfinite(t["p"]) else "no Friedman test"
    caveat = "; N too few for Nemenyi" if bool(t.get("nemenyi_too_few", False)) else ""
    dropped = t.get("dropped", "")
    left_out = f"; without a score for every method, left out: {dropped}" if isinstance(dropped, str) and dropped else ""
    return f"N{nb}={nb}{int(t['datasets'])} datasets, {p}, α{nb}={nb}{t['alpha']:g}{caveat}{left_out}"


def cd_diagrams(ranks: pd.DataFrame, tests: pd.DataFrame, title: str, group: str = "all",
                labels: dict | None = None, style: FigureStyle = DEFAULT):
    """Critical-difference diagrams, one panel per measure and one panel a row, for one dataset group; each panel
    states N, the Friedman p it is judged by, the Nemenyi CD at the test's α, and what N cannot support. The
    panels that fit a page (:data:`MAX_HEIGHT`) are drawn, in the measures' order; the caption names the others."""
    ranks, tests = ranks[ranks["group"] == group], tests[tests["group"] == group]
    measures = style.keep(ordered(tests.loc[tests["methods"] >= 2, "measure"], labels))
    panels = []
    for measure in measures:
        r = ranks[ranks["measure"] == measure].set_index("stratifier")["average_rank"]
        t = tests[tests["measure"] == measure].iloc[0]
        panels.append((measure, r, float(t["critical_difference"]), f"{style.name(measure, labels)}: {panel_summary(t)}"))
    layout = cd_layout([f"{style.name(n)} ({v:.2f})" for _, r, _, _ in panels for n, v in r.items()], style.width,
                       style)
    heading = style.heading(title)
    heading_h = (heading.count("\n") + 1) * 1.3 * (style.font_size + 1) / 72 + 0.1
    drawn, used = [], heading_h  # (panel, its geometry) of those that fit a page
    for panel in panels:
        geometry = cd_geometry(*panel[1:], layout, style)
        if used + geometry["height"] > MAX_HEIGHT:
            break
        drawn.append((panel, geometry))
        used += geometry["height"]
    total = used if drawn else heading_h + 0.6
    with style.drawing(constrained=False):
        fig = plt.figure(figsize=(style.width, total))
        fig.text(0.5, 1 - 0.05 / total, heading, ha="center", va="top", fontsize=style.font_size + 1)
        top = total - heading_h
        for (_, r, cd, panel_title), geometry in drawn:
            h = geometry["height"]
            ax = fig.add_axes((0, (top - h) / total, 1, h / total))
            cd_diagram(ax, r, cd, panel_title, style, layout, geometry)
            top -= h
        if not drawn:
            fig.text(0.5, 0.3 / total, "fewer than two stratifiers: nothing to compare", ha="center", va="center")
        note_left_out(fig, [style.name(m, labels) for m, *_ in panels[len(drawn):]])
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
                       f"{classifier}: each fold's value minus its repeat's mean")
        note_left_out(fig, [style.name(m, labels) for m in left_out])
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
        fig.suptitle(style.heading(f"{dataset}: each label's positive share per test fold (repeat 0) against the "
                                   "dataset"))
        note_left_out(fig, [style.name(m) for m in left_out], "stratifiers, the last in the config's order")
    return fig


RESOLUTION_FLOOR = 1e-3  # seconds: a single wall-clock timing below this is scheduler and timer noise, not a result


def runtime_by_dataset(runtime: pd.DataFrame, style: FigureStyle = DEFAULT):
    """The stratifiers' wall time per dataset, a dot plot (a row per dataset, log seconds across): the median over
    repeats as a dot, the range over repeats (min to max) as a bar. The datasets of a study differ in more than size,
    so no line joins them; runtime against size is drawn where size varies by design (``benchmarks/scaling.py``).
    Timings under :data:`RESOLUTION_FLOOR` are drawn hollow at the floor, in the shaded band: not resolved."""
    agg = runtime.groupby(["dataset", "stratifier"], sort=True)["seconds"].agg(
        median="median", low="min", high="max", repeats="size").reset_index()
    stratifiers = style.methods(agg["stratifier"])
    colours, markers = style.colour_map(stratifiers), style.marker_map(stratifiers)
    datasets = sorted(agg["dataset"].unique())
    repeats = sorted(agg["repeats"].unique())
    row = 0.12 * max(len(stratifiers), 2) + 0.08
    with style.drawing():
        fig, ax = plt.subplots(figsize=(style.width, min(MAX_HEIGHT - 1.6, row * len(datasets)) + 1.6))
        step = 0.8 / max(len(stratifiers), 1)
        floor = RESOLUTION_FLOOR
        for i, s in enumerate(stratifiers):
            part = agg[agg["stratifier"] == s].set_index("dataset").reindex(datasets)
            y = np.arange(len(datasets)) + (i - (len(stratifiers) - 1) / 2) * step
            med, low, high = (np.maximum(part[c].to_numpy(dtype=float), floor) for c in ("median", "low", "high"))
            resolved = part["median"].to_numpy(dtype=float) >= floor
            ax.hlines(y, low, high, color=colours[s], linewidth=1.0)
            ax.scatter(med[resolved], y[resolved], s=12, color=colours[s], marker=markers[s], zorder=3)
            ax.scatter(med[~resolved], y[~resolved], s=12, facecolors="white", edgecolors=colours[s],
                       marker=markers[s], zorder=3)
        ax.set_xscale("log")
        ax.set_xlim(floor / 2, max(float(agg["high"].max()) * 1.5 if len(agg) else 1.0, floor * 10))  # all ≥ floor
        ax.axvspan(ax.get_xlim()[0], floor, color="0.9", zorder=0)
        ax.set_yticks(np.arange(len(datasets)), datasets)
        ax.set_ylim(len(datasets) - 0.5, -0.5)
        ax.grid(axis="x", linewidth=0.3)
        ax.set_xlabel("wall time of a k-fold split (s)")
        figure_legend(fig, colours, style, marker=True)
        fig.suptitle(style.heading("Stratifier wall time per dataset"))
        counts = "–".join(str(r) for r in dict.fromkeys((min(repeats, default=1), max(repeats, default=1))))
        spread = "1 repeat: no spread" if counts == "1" else f"bar: the range over {counts} repeats"
        add_caption_note(fig, f"Dot: the median over repeats; {spread}. Shaded, hollow: under {floor * 1000:g} ms, "
                              "a timing not resolved.")
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
