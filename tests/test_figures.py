"""Every figure recipe at both journal widths (one column 3.5 in, two columns 7.2 in): at most 9 in tall, no text
overlaps another and no drawn line crosses a text, nothing leaves the canvas (checked from the drawn artists' boxes
and paths), the grid's 12 and up to 15 methods over 17 datasets included; the critical-difference diagram's rank
axis across at least 60% of a two-column panel; layout notes in the caption, never the title; TrueType fonts in the
PDF, 300 dpi PNGs; a method keeps its colour when another is added; the config's ``figures:`` section."""
import functools
import itertools
import re

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
import scipy.sparse as sp  # noqa: E402

from stratbench import figures  # noqa: E402
from stratbench.figures import FigureStyle  # noqa: E402
from stratbench.measures.names import MEASURE_LABELS  # noqa: E402
from stratbench.stats import compare, with_all_group  # noqa: E402
from stratbench.study.figures import RECIPES, Facts, draw  # noqa: E402

STRATIFIERS = ["random", "labelset", "iterative", "sois", "optisplit_rld"]
DATASETS = ["scene", "emotions", "yeast", "genbase", "medical", "enron"]
MEASURES = list(MEASURE_LABELS)


def _scores():
    rng = np.random.default_rng(0)
    rows = [(d, s, r, f, "br", m, rng.random()) for d in DATASETS for s in STRATIFIERS for r in range(2)
            for f in range(5) for m in MEASURES]
    return pd.DataFrame(rows, columns=["dataset", "stratifier", "repeat", "fold", "classifier", "measure", "value"])


def _summary(scores):
    return scores.groupby(["dataset", "stratifier", "classifier", "measure"])["value"].agg(
        mean="mean", std="std").reset_index()


@functools.cache
def study_tables() -> dict:
    """Every table a figure recipe reads (:data:`stratbench.study.figures.RECIPES`), shaped like a study's: six
    datasets, five stratifiers (the paper's four rows for its claims), a grid at k 3 and 5, a "does it matter"
    study's error terms; ``labels`` and ``folds`` for a dataset's label shares."""
    from stratbench.cv_error.measures import MEASURES as CV_MEASURES
    from stratbench.measures.names import FOLD_QUALITY_LABELS
    from stratbench.papers.szymanski2017 import PAPER_ROWS

    rng = np.random.default_rng(0)
    scores = _scores()
    summary = _summary(scores)
    summary.loc[(summary.dataset == "medical") & (summary.stratifier == "random") & (summary.measure == "micro_auc"),
                "std"] = np.nan  # one missing score: medical leaves that comparison only
    groups = with_all_group(DATASETS, {"small": DATASETS[:3]})
    ranks, tests, _ = compare(summary, "std", ["classifier", "measure"], groups)
    fold_measures = [m for m in FOLD_QUALITY_LABELS if m != "seconds"]
    rows = [(d, s, m, rng.random(), rng.random(), 5) for d in DATASETS for s in STRATIFIERS + PAPER_ROWS[:2]
            for m in fold_measures]
    fold_quality = pd.DataFrame(rows, columns=["dataset", "stratifier", "measure", "mean", "std", "repeats"])
    fq_ranks, fq_tests, _ = compare(fold_quality[fold_quality.stratifier.isin(STRATIFIERS)], "mean", ["measure"], groups)
    claims_summary = pd.concat([summary, summary[summary.stratifier == "random"].assign(stratifier="kfold"),
                                summary[summary.stratifier == "labelset"].assign(stratifier="labelset_sklearn2017")])
    network = pd.DataFrame([(d, s, g, part, m, rng.random(), rng.random()) for d in DATASETS for s in PAPER_ROWS
                            for g in ("unweighted", "weighted") for part in ("train", "test")
                            for m in ("modularity", "communities")],
                           columns=["dataset", "stratifier", "graph", "part", "measure", "mean", "std"])
    grid = pd.DataFrame([(k, d, s, m, rng.random()) for k in (3, 5) for d in DATASETS for s in STRATIFIERS
                         for m in ("ED", "LD", "FZ", "FLZ", "DCP", "LPD")], columns=["k", "dataset", "stratifier", "measure", "mean"])
    grid_ranks, grid_tests, _ = compare(grid, "mean", ["k", "measure"], groups)
    gaps = pd.DataFrame([(d, k, "LD", s, rng.random() / 10, bool(i % 2)) for i, d in enumerate(DATASETS[:4]) for k in (3, 5)
                         for s in STRATIFIERS], columns=["dataset", "k", "objective", "stratifier", "gap", "closed"])
    cells = [(d, m, k, learner, measure) for d in DATASETS[:2] for m in (100, 200) for k in (3, 5)
             for learner in ("ridge", "knn") for measure in CV_MEASURES]
    errors = pd.DataFrame([(*c, e, s, rng.normal(0, 0.05), *rng.random(2) / 100, rng.random() / 1000)
                           for c in cells for e in ("pooled", "part_mean") for s in STRATIFIERS],
                          columns=["dataset", "m", "k", "learner", "measure", "estimator", "stratifier", "bias",
                                   "split_variance", "sample_term", "truth_noise"])
    errors["bias2"] = errors["bias"] ** 2 - rng.random(len(errors)) / 1000  # unbiased: below the bias's square
    errors["mse"] = errors["bias2"] + errors["split_variance"] + errors["sample_term"]
    theory = pd.DataFrame([(d, m, k, s, q, *rng.random(3)) for d in DATASETS[:2] for m in (100, 200) for k in (3, 5)
                           for s in STRATIFIERS for q in ("empty_cells", "absent_labels", "split_variance")],
                          columns=["dataset", "m", "k", "stratifier", "quantity", "observed", "random", "stratified"])
    estimators = pd.DataFrame([(*c, s, rng.uniform(0.5, 1.5)) for c in cells for s in STRATIFIERS],
                              columns=["dataset", "m", "k", "learner", "measure", "stratifier", "ratio"])
    choices = pd.DataFrame([(d, m, k, measure, e, task, s, rng.random()) for d in DATASETS[:2] for m in (100, 200)
                            for k in (3, 5) for measure in CV_MEASURES for e in ("pooled", "part_mean")
                            for task in ("learner", "neighbours") for s in STRATIFIERS],
                           columns=["dataset", "m", "k", "measure", "estimator", "task", "stratifier", "agreement"])
    runtime = pd.DataFrame([(d, s, r, 0.01 * (i + 1) * (j + 1), 1000 * (i + 1), 100 * (i + 1))
                            for i, d in enumerate(DATASETS) for j, s in enumerate(STRATIFIERS) for r in range(2)],
                           columns=["dataset", "stratifier", "repeat", "seconds", "nnz", "examples"])
    Y = sp.csr_matrix((np.random.default_rng(1).random((200, 8)) < 0.2).astype(int))
    folds = {s: np.random.default_rng(i).integers(0, 5, 200) for i, s in enumerate(STRATIFIERS)}
    return {"summary.csv": claims_summary, "scores.csv": scores, "average_ranks.csv": ranks, "friedman_nemenyi.csv": tests,
            "fold_quality_ranks.csv": fq_ranks, "fold_quality_friedman_nemenyi.csv": fq_tests,
            "fold_quality_summary.csv": fold_quality, "network_stability_summary.csv": network,
            "stratifier_runtime.csv": runtime, "grid_ranks.csv": grid_ranks, "grid_friedman_nemenyi.csv": grid_tests,
            "grid_gap.csv": gaps, "cv_error.csv": errors, "cv_error_theory.csv": theory,
            "cv_error_estimators.csv": estimators, "cv_error_choice.csv": choices, "labels": Y, "folds": (folds, 5)}


SUBJECTS = {"classifier": "br", "classifier or fold_quality": "br", "dataset": "synthetic", "k": "5",
            "estimator": "pooled", "study": ""}


GRID_STRATIFIERS = ["hybrid", "sois", "iterative", "sois_skml", "optisplit_rld", "optisplit_dcp", "labelset",
                    "iterative_skml", "ss", "pmbsrs", "random", "kfold", "hybrid_ld", "hybrid_pairs", "optisplit_ld"]
GRID_DATASETS = ["bibtex", "birds", "cal500", "corel5k", "delicious", "emotions", "enron", "flags", "foodtruck",
                 "genbase", "medical", "scene", "tmc2007-500", "yeast", "go_cc_size", "synth_cooccur", "synth_sparse"]


@functools.cache
def grid_tables(methods: int) -> dict:
    """The broad benchmark's shape: ``methods`` stratifiers (12 as in config/stratbench2026.yaml, or 15) on 17
    datasets at k = 10, seven fold measures, ranks spread as the benchmark's are; its runtime table too."""
    rng = np.random.default_rng(methods)
    stratifiers = GRID_STRATIFIERS[:methods]
    grid = pd.DataFrame([(10, d, s, m, i + rng.normal(0, 3)) for d in GRID_DATASETS for i, s in enumerate(stratifiers)
                         for m in ("ED", "LD", "FLZ", "FLPZ", "rLD", "DCP", "LPD")],
                        columns=["k", "dataset", "stratifier", "measure", "mean"])
    ranks, tests, _ = compare(grid, "mean", ["k", "measure"], with_all_group(GRID_DATASETS, None))
    runtime = pd.DataFrame([(d, s, r, 10 ** rng.uniform(-4.5, 1), 1000, 100) for d in GRID_DATASETS for s in stratifiers
                            for r in range(10)], columns=["dataset", "stratifier", "repeat", "seconds", "nnz", "examples"])
    return {"grid_ranks.csv": ranks, "grid_friedman_nemenyi.csv": tests, "stratifier_runtime.csv": runtime}


DRAWN = [*RECIPES, "rank_bars fold_quality", "critical_difference fold_quality", "claim_ranks",
         "grid_critical_difference 12 methods", "grid_critical_difference 15 methods", "runtime 12 methods"]


def drawn_figure(name: str, style):
    """A figure recipe of the workflow (``name``, or ``<name> fold_quality`` for fold quality's ranks and CD
    diagrams), drawn by :func:`stratbench.study.figures.draw` from tables shaped like a study's; or
    ``claim_ranks``: the claims' network panel, whose longest word ("#communities") is wider than a measure's
    slot at one column."""
    if name == "claim_ranks":
        return figures.rank_bars(_claim_ranks(), "szymanski2017: the average ranks behind the paper's claims",
                                 style=style, panel_title="{}")
    recipe, _, subject = name.partition(" ")
    if subject.endswith(" methods"):
        tables = grid_tables(int(subject.split()[0]))
        return draw(recipe, tables.__getitem__, "10", style, Facts())
    tables = study_tables()
    return draw(recipe, tables.__getitem__, subject or SUBJECTS[RECIPES[recipe].of], style,
                Facts(paper="szymanski2017", baseline="random"))


def _claim_ranks():
    """Ranks shaped like reproduction.claim_ranks' network panel: the paper module's ten network measures,
    whose longest word ("#communities") is wider than a measure's slot at one column."""
    from stratbench.papers.szymanski2017 import NETWORK_MEASURES

    measures = list(NETWORK_MEASURES.values())
    return pd.DataFrame([("network", m, s, 1.0 + (i + j) % len(STRATIFIERS), 9) for i, m in enumerate(measures)
                         for j, s in enumerate(STRATIFIERS)],
                        columns=["group", "measure", "stratifier", "average_rank", "datasets"])


def drawn_texts(fig):
    """Every text the figure draws: its titles and texts, each visible axes' title, labels, tick labels
    (those in view) and texts, and the legends'."""
    texts = [*fig.texts, *(t for legend in fig.legends for t in (legend.get_title(), *legend.get_texts()))]
    if fig._suptitle is not None:
        texts.append(fig._suptitle)
    for ax in fig.axes:
        texts += [ax.title, *ax.texts]
        if ax.axison:
            texts += [ax.xaxis.label, ax.yaxis.label]
            texts += [tick.label1 for axis in (ax.xaxis, ax.yaxis) for tick in axis._update_ticks()]  # the ticks in view
        if ax.get_legend() is not None:
            texts += [ax.get_legend().get_title(), *ax.get_legend().get_texts()]
    return list({id(t): t for t in texts}.values())


def text_boxes(fig):
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = []
    for text in drawn_texts(fig):
        if not text.get_visible() or not text.get_text().strip():
            continue
        box = text.get_window_extent(renderer)
        if box.width > 0 and box.height > 0:
            boxes.append((text.get_text(), box))
    return boxes


def drawn_lines(fig):
    """Every line drawn in the figure's axes and on the figure, as (label, path in display coordinates)."""
    lines = [*fig.lines, *(line for ax in fig.axes for line in ax.get_lines())]
    out = []
    for line in lines:
        if not line.get_visible() or line.get_linestyle() in ("None", "", " ") or len(line.get_xydata()) < 2:
            continue
        path = line.get_transform().transform_path(line.get_path())
        out.append((line.get_label(), path))
    return out


def crossings(fig) -> list[tuple[str, str]]:
    """(text, line) pairs where a drawn line passes through a text's box (shrunk by one pixel)."""
    boxes = text_boxes(fig)
    return [(text, label) for label, path in drawn_lines(fig) for text, box in boxes
            if path.intersects_bbox(box.padded(-1.0), filled=False)]


def overlaps(fig) -> list[tuple[str, str]]:
    """Pairs of texts whose boxes (shrunk by half a pixel) overlap."""
    boxes = text_boxes(fig)
    return [(a, b) for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2)
            if box_a.padded(-0.5).overlaps(box_b.padded(-0.5))]


@pytest.mark.parametrize("width", ["one", "two"])
@pytest.mark.parametrize("name", DRAWN)
def test_every_figure_fits_its_width_without_text_on_text_or_lines_through_text(name, width):
    style = FigureStyle.from_config({"stratifiers": {s: {} for s in STRATIFIERS}, "figures": {"width": width}})
    fig = drawn_figure(name, style)
    assert fig.get_figwidth() == pytest.approx({"one": 3.5, "two": 7.2}[width])
    assert fig.get_figheight() <= figures.MAX_HEIGHT, fig.get_figheight()  # fits a page
    boxes = text_boxes(fig)
    canvas = fig.bbox
    for text, box in boxes:
        assert box.x0 >= -0.5 and box.y0 >= -0.5 and box.x1 <= canvas.x1 + 0.5 and box.y1 <= canvas.y1 + 0.5, \
            (text, box.bounds, canvas.bounds)
    assert overlaps(fig) == []
    assert crossings(fig) == []
    title = fig._suptitle.get_text() if fig._suptitle is not None else " ".join(t.get_text() for t in fig.texts[:1])
    assert "not shown" not in title.lower() and "page" not in title  # layout notes go to the caption
    matplotlib.pyplot.close(fig)


def test_the_checks_fail_on_text_on_text_and_a_line_through_a_label():
    """The two checks above, on a figure with a planted defect each: they can fail."""
    fig, ax = matplotlib.pyplot.subplots(figsize=(3.5, 2))
    ax.text(0.5, 0.5, "a method's name")
    ax.text(0.52, 0.5, "another name")
    assert overlaps(fig) != [] and crossings(fig) == []
    fig, ax = matplotlib.pyplot.subplots(figsize=(3.5, 2))
    ax.text(0.3, 0.5, "a method's name", va="center")
    ax.plot([0.0, 1.0], [0.5, 0.5])
    assert overlaps(fig) == [] and crossings(fig) != []
    matplotlib.pyplot.close("all")


@pytest.mark.parametrize("methods", [12, 15])
def test_the_cd_diagram_spans_a_two_column_panel_and_stays_readable_at_one_column(methods):
    """At two columns (7.2 in) the rank axis takes at least 60% of the panel, names at its two ends (Demšar 2006,
    Fig. 1); at one column, where that axis would be narrower, a row per method; every tick label 1…k drawn apart."""
    for width, kind in (("two", "ends"), ("one", "rows")):
        style = FigureStyle.from_config({"figures": {"width": width}})
        fig = drawn_figure(f"grid_critical_difference {methods} methods", style)
        fig.canvas.draw()
        panel = fig.axes[0]
        ticks = [t for t in panel.texts if t.get_text().isdigit()]
        assert [t.get_text() for t in ticks] == [str(i) for i in range(1, methods + 1)]
        left, right = ticks[0].get_position()[0], ticks[-1].get_position()[0]
        share = (right - left) / style.width
        names = [t for t in panel.texts if t.get_text().endswith(")")]
        assert len(names) == methods
        if kind == "ends":
            assert share >= 0.6, share
            assert {t.get_ha() for t in names} == {"left", "right"}  # names hang off both ends
        else:
            assert {t.get_ha() for t in names} == {"right"}
        matplotlib.pyplot.close(fig)


def test_a_figure_of_more_panels_than_a_page_holds_draws_the_first_and_names_the_rest_in_its_caption(tmp_path):
    """Nine fold-quality measures of five stratifiers at one column: the first that fit a page are drawn (the
    measures' print order), the caption (written into the file) names the others; the title says what is shown."""
    from PIL import Image

    from stratbench.measures.names import FOLD_QUALITY_LABELS

    measures = [m for m in FOLD_QUALITY_LABELS if m != "seconds"]
    rng = np.random.default_rng(2)
    rows = [(d, s, m, rng.random()) for d in DATASETS for s in STRATIFIERS for m in measures]
    table = pd.DataFrame(rows, columns=["dataset", "stratifier", "measure", "mean"])
    ranks, tests, _ = compare(table, "mean", ["measure"], with_all_group(DATASETS, None))
    style = FigureStyle.from_config({"stratifiers": {s: {} for s in STRATIFIERS}, "figures": {"width": "one"}})
    fig = figures.cd_diagrams(ranks, tests, "Fold quality", labels=FOLD_QUALITY_LABELS, style=style)
    assert fig.get_figheight() <= figures.MAX_HEIGHT
    shown = [t.get_text().split(":")[0] for ax in fig.axes for t in ax.texts if ": N\u00a0=\u00a0" in t.get_text()]
    assert shown == [FOLD_QUALITY_LABELS[m] for m in measures[:len(shown)]] and 3 <= len(shown) < len(measures)
    note = " ".join(figures.caption_notes(fig))
    assert note.endswith(", ".join(FOLD_QUALITY_LABELS[m] for m in measures[len(shown):]) + "."), note
    assert all("not shown" not in t.get_text().lower() for t in fig.texts)
    figures.save_figure(fig, tmp_path / "f.png", tmp_path / "f.pdf", style)
    with Image.open(tmp_path / "f.png") as image:
        assert image.info["Description"] == note
    assert b"/Subject" in (tmp_path / "f.pdf").read_bytes()


def test_cd_panels_state_n_and_the_missing_score_rule():
    summary = _summary(_scores())
    summary.loc[(summary.dataset == "medical") & (summary.stratifier == "random") & (summary.measure == "micro_auc"),
                "std"] = np.nan
    _, tests, _ = compare(summary, "std", ["classifier", "measure"], with_all_group(DATASETS, None))
    t = tests.set_index("measure")
    assert t.loc["micro_auc", "datasets"] == 5 and t.loc["micro_auc", "dropped"] == "medical"
    assert t.loc["hamming_loss", "datasets"] == 6 and t.loc["hamming_loss", "dropped"] == ""  # the other measures keep it
    line = figures.panel_summary(t.loc["micro_auc"]).replace("\u00a0", " ")  # no-break spaces keep "α = 0.05" whole
    assert line.startswith("N = 5 datasets, Friedman p (") and line.endswith("left out: medical")


def test_colours_follow_the_config_order_and_adding_a_method_recolours_none():
    before = FigureStyle(order=("random", "iterative")).colour_map(["iterative", "random"])
    after = FigureStyle(order=("random", "iterative", "sois")).colour_map(["iterative", "random", "sois"])
    assert before["random"] == after["random"] and before["iterative"] == after["iterative"]
    assert FigureStyle(order=("random",), colours={"random": "black"}).colour_map(["random"])["random"] == "black"


def test_saved_figures_have_truetype_fonts_and_300_dpi(tmp_path):
    from PIL import Image

    style = FigureStyle(width=3.5)
    fig = figures.runtime_by_dataset(pd.DataFrame([("d", "random", 0, 0.1, 10, 5)], columns=["dataset", "stratifier",
                                                                                          "repeat", "seconds", "nnz",
                                                                                          "examples"]), style)
    figures.save_figure(fig, tmp_path / "f.png", tmp_path / "f.pdf", style)
    pdf = (tmp_path / "f.pdf").read_bytes()
    subtypes = set(re.findall(rb"/Subtype ?/(\w+)", pdf))
    assert b"Type3" not in subtypes and b"CIDFontType2" in subtypes  # TrueType outlines (Type 42), no Type 3
    with Image.open(tmp_path / "f.png") as image:
        assert round(image.info["dpi"][0]) == 300 and image.size[0] == pytest.approx(3.5 * 300, abs=2)


def test_the_figures_section_of_a_config():
    style = FigureStyle.from_config({"stratifiers": {"iterative": {}, "random": {}},
                                     "figures": {"width": 5, "dpi": 600, "measures": ["hamming_loss"],
                                                 "names": {"iterative": "IS"}, "colours": {"random": "grey"}}})
    assert (style.width, style.dpi, style.order) == (5.0, 600, ("iterative", "random"))
    assert style.name("iterative") == "IS" and style.name("hamming_loss") == "Hamming loss"
    assert style.keep(["subset_accuracy", "hamming_loss"]) == ["hamming_loss"]
    assert style.colour_map(["random"]) == {"random": "grey"}


def test_extra_formats_are_written_beside_the_png_and_the_pdf(tmp_path):
    style = FigureStyle.from_config({"figures": {"formats": ["svg", "eps"], "width": "one"}})
    runtime = pd.DataFrame([("d", "random", 0, 0.1, 10, 5)], columns=["dataset", "stratifier", "repeat", "seconds",
                                                                     "nnz", "examples"])
    figures.save_figure(figures.runtime_by_dataset(runtime, style), tmp_path / "f.png", tmp_path / "f.pdf", style)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.eps", "f.pdf", "f.png", "f.svg"]
    assert (tmp_path / "f.svg").read_text().lstrip().startswith("<?xml")


def test_timings_under_the_resolution_floor_are_drawn_as_unresolved_and_one_repeat_as_no_spread():
    """The runtime figure: a row per dataset, no line joining datasets; a median under 1 ms is a hollow marker at the
    floor, one over it a filled one at its value; the caption says what the bars are, and that one repeat has none."""
    runtime = pd.DataFrame([("a", "random", 0, 2e-4), ("a", "iterative", 0, 0.05), ("b", "random", 0, 3e-4),
                            ("b", "iterative", 0, 0.2)], columns=["dataset", "stratifier", "repeat", "seconds"])
    fig = figures.runtime_by_dataset(runtime, FigureStyle(width=3.5, order=("random", "iterative")))
    ax = fig.axes[0]
    assert not [line for line in ax.get_lines() if len(line.get_xdata()) > 1]  # no line from dataset to dataset
    from matplotlib.collections import PathCollection

    points = [(tuple(c.get_offsets()[:, 0]), tuple(np.atleast_2d(c.get_facecolors())[0])) for c in ax.collections
              if isinstance(c, PathCollection) and len(c.get_offsets())]  # the markers, not the range bars
    hollow = [xs for xs, face in points if face == (1.0, 1.0, 1.0, 1.0)]
    assert hollow == [(figures.RESOLUTION_FLOOR, figures.RESOLUTION_FLOOR)]  # random's two sub-millisecond medians
    assert (0.05, 0.2) in [xs for xs, _ in points]
    assert "1 repeat: no spread" in " ".join(figures.caption_notes(fig))
    assert "not resolved" in " ".join(figures.caption_notes(fig))
    matplotlib.pyplot.close(fig)
