"""The study's two figures: the error of the estimate split into bias² and split variance, and the
share of correct choices of learner, one panel per measure, stratifiers in the config's order."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from stratbench.cv_error.measures import MEASURES
from stratbench.figures import DEFAULT, FigureStyle, _grid, _legend

PANEL = 2.3  # inches: a panel's width and height


def _panels(measures, style: FigureStyle):
    nrows, ncols = _grid(len(measures), style, PANEL)
    fig, axes = plt.subplots(nrows, ncols, figsize=(style.width, PANEL * nrows + 1.1), squeeze=False)
    for ax in list(axes.flat)[len(measures):]:
        ax.axis("off")
    return fig, axes


def bias_variance(errors: pd.DataFrame, baseline: str, style: FigureStyle = DEFAULT):
    """Per measure and stratifier, the median over (dataset, m, k, learner) cells of bias², split
    variance and mean squared error, each divided by the baseline's mean squared error of the cell:
    where the split-variance bar is small beside the MSE bar, no split can do much."""
    cells = ["dataset", "m", "k", "learner", "measure"]
    e = errors.assign(mse=errors["rmse"] ** 2, bias2=errors["bias"] ** 2)
    base = e[e["stratifier"] == baseline].set_index(cells)["mse"]
    scale = base.reindex(pd.MultiIndex.from_frame(e[cells])).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        parts = {"bias²": e["bias2"] / scale, "split variance": e["split_variance"] / scale, "MSE": e["mse"] / scale}
    e = e.assign(**{name: values.to_numpy() for name, values in parts.items()})
    measures = style.keep([m for m in MEASURES if m in set(e["measure"])])
    stratifiers = style.methods(e["stratifier"].unique())
    colours = dict(zip(parts, ["#9ecae1", "#3182bd", "#636363"]))
    with style.drawing():
        fig, axes = _panels(measures, style)
        x = np.arange(len(stratifiers))
        width = 0.8 / len(parts)
        for ax, measure in zip(axes.flat, measures):
            m = e[e["measure"] == measure].groupby("stratifier")[list(parts)].median().reindex(stratifiers)
            for i, name in enumerate(parts):
                ax.bar(x + (i - 1) * width, m[name].to_numpy(), width, color=colours[name])
            ax.axhline(1.0, color="black", linewidth=0.6, linestyle="--")
            ax.set_title(style.name(measure))
            ax.set_xticks(x, [style.name(s) for s in stratifiers], rotation=90)
        for ax in axes[:, 0]:
            ax.set_ylabel(f"÷ MSE of {baseline}")
        _legend(fig, colours, style, title="median over datasets, sizes, k and learners")
        fig.suptitle(style.heading("Error of the CV estimate against the truth, per stratifier "
                                   f"(dashed: {baseline}'s MSE)"))
    return fig


def model_choice(choices: pd.DataFrame, baseline: str, style: FigureStyle = DEFAULT):
    """Per measure, the share of draws where CV picks the truth's best learner, per stratifier (mean
    over datasets, sizes and k); the dashed line is the baseline's."""
    measures = style.keep([m for m in MEASURES if m in set(choices["measure"])])
    stratifiers = style.methods(choices["stratifier"].unique())
    colours = style.colour_map(stratifiers)
    with style.drawing():
        fig, axes = _panels(measures, style)
        x = np.arange(len(stratifiers))
        for ax, measure in zip(axes.flat, measures):
            agree = choices[choices["measure"] == measure].groupby("stratifier")["agreement"].mean().reindex(stratifiers)
            ax.bar(x, agree.to_numpy(), 0.8, color=[colours[s] for s in stratifiers])
            if baseline in agree:
                ax.axhline(agree[baseline], color="black", linewidth=0.6, linestyle="--")
            low = max(0.0, float(np.nanmin(agree.to_numpy())) - 0.05)
            ax.set_ylim(low, min(1.0, float(np.nanmax(agree.to_numpy())) + 0.05))
            ax.set_title(style.name(measure))
            ax.set_xticks(x, [style.name(s) for s in stratifiers], rotation=90)
        for ax in axes[:, 0]:
            ax.set_ylabel("CV picks the true best")
        _legend(fig, colours, style)
        fig.suptitle(style.heading(f"Choice of learner: how often CV agrees with the truth (dashed: {baseline})"))
    return fig
