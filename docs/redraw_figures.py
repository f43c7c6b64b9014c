"""Redraw every figure the README and the docs show from the tables committed beside them, by the code that draws
them (the workflow's recipes, :mod:`stratbench.study.figures`, and the benchmarks' figure functions):

    python docs/redraw_figures.py            # writes docs/figures/*.png
    python docs/redraw_figures.py --check    # exit 1, naming each committed figure that is not what the code draws

A figure's tables live under ``docs/published/<study>/`` with a README that says when, at which commit and on which
machine they were made (``python docs/publish_results.py <study>`` copies a finished study's). The test
``tests/test_front_door.py`` runs the check, so a committed figure is always what the current code draws.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PUBLISHED = REPO / "docs" / "published"


@dataclass(frozen=True)
class Committed:
    """A figure of the docs (``png``, under the repository) drawn from ``tables`` (a folder under docs/published)
    by ``recipe`` (a name of :data:`stratbench.study.figures.RECIPES`, with its ``subject``) or by a benchmark's
    ``figure`` function (``"benchmarks/<script>.py:figure"``, given the table ``table`` and ``args``); ``baseline``:
    a "does it matter" study's."""

    png: str
    tables: str
    recipe: str
    subject: str = ""
    table: str = ""
    args: tuple = ()
    baseline: str = ""


FIGURES = (
    Committed("docs/figures/critical_difference_grid_k10.png", "stratbench2026", "grid_critical_difference", "10"),
    Committed("docs/figures/grid_gap.png", "stratbench2026", "grid_gap"),
    Committed("docs/figures/extreme_labels.png", "extreme_scale", "benchmarks/extreme_scale.py:figure", table="extreme.csv",
              args=(150.0,)),
    Committed("docs/figures/mixed_targets.png", "mixed_targets", "benchmarks/mixed_targets.py:figure",
              table="mixed_summary.csv"),
    *(Committed(f"docs/published/cv_error_quick/{stem}.png", "cv_error_quick", recipe, subject, baseline="random")
      for stem, recipe, subject in (("cv_error_decomposition_pooled", "cv_error_decomposition", "pooled"),
                                    ("cv_error_decomposition_part_mean", "cv_error_decomposition", "part_mean"),
                                    ("cv_error_count_model", "cv_error_count_model", ""),
                                    ("cv_error_model_choice", "cv_error_model_choice", ""))),
)
# Figures the docs show whose tables are not published: none may be added here without a reason, and each leaves
# the list once its tables are published (the check then fails until it does).
UNPUBLISHED: dict[str, str] = {}


def draw(figure: Committed):
    """The figure the current code draws from ``figure``'s committed tables."""
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    folder = PUBLISHED / figure.tables
    if figure.recipe.startswith("benchmarks/"):
        import importlib.util

        script, _, function = figure.recipe.partition(":")
        spec = importlib.util.spec_from_file_location(Path(script).stem, REPO / script)
        if str(REPO / "benchmarks") not in sys.path:  # a benchmark script imports its sibling modules
            sys.path.insert(0, str(REPO / "benchmarks"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return getattr(module, function)(pd.read_csv(folder / figure.table), *figure.args)
    from stratbench.study.figures import Facts, table_reader
    from stratbench.study.figures import draw as draw_recipe

    tables = {p.name: p for p in folder.glob("*.csv")}
    return draw_recipe(figure.recipe, table_reader(tables), figure.subject, _style(figure),
                       Facts(baseline=figure.baseline or None))


def _style(figure: Committed):
    """The style the figure is drawn in: its study's where the study is published with its config (as its run
    drew it), the default otherwise."""
    from stratbench.figures import FigureStyle

    config_file = PUBLISHED / figure.tables / "config.yaml"
    if not config_file.exists():
        return FigureStyle()
    import yaml

    config = yaml.safe_load(config_file.read_text(encoding="utf-8"))
    return FigureStyle.from_config({"figures": config.get("figures") or {}, "stratifiers": list(config["stratifiers"])})


def write(figure: Committed, path: Path) -> None:
    from stratbench.figures import save_figure

    save_figure(draw(figure), path, None, _style(figure))


def stale() -> list[str]:
    """The committed figures that differ, byte for byte, from what the current code draws from their tables."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for figure in FIGURES:
            fresh = Path(tmp) / Path(figure.png).name
            write(figure, fresh)
            committed = REPO / figure.png
            if not committed.exists() or committed.read_bytes() != fresh.read_bytes():
                out.append(figure.png)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    if args.check:
        differ = stale()
        for png in differ:
            print(f"{png}: not what the current code draws from its tables (python docs/redraw_figures.py)",
                  file=sys.stderr)
        return 1 if differ else 0
    for figure in FIGURES:
        write(figure, REPO / figure.png)
        print(f"written: {figure.png}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
