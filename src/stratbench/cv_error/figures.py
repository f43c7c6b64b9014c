"""The study's figures: the error of the estimate split into its terms, per stratifier and estimator; the count
model's predictions against what the splits gave; CV's agreement with the truth's choice of model. Each is one
panel per measure (or quantity), at most 9 in tall at one or two columns."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from stratbench.cv_error.measures import MEASURES
from stratbench.figures import DEFAULT, FigureStyle, figure_legend, panel_grid

PANEL = 2.3  # inches: a panel's width and height
TERMS = {"bias2": "bias²", "split_variance": "split variance", "sample_term": "sample term", "truth_noise": "truth noise"}


def _panels(names, style: FigureStyle, extra: float = 1.3):
    nrows, ncols = panel_grid(len(names), style, PANEL)
    fig, axes = plt.subplots(nrows, ncols, figsize=(style.width, min(9.0, PANEL * nrows + extra)), squeeze=False)
    for ax in list(axes.flat)[len(names):]:
        ax.axis("off")
    return fig, axes


def decomposition(errors: pd.DataFrame, baseline: str, estimator: str, style: FigureStyle = DEFAULT):
    """Per measure and stratifier, the mean over the (dataset, m, k, learner) cells of bias², the split
    variance and the sample term (each unbiased: bias² can fall below 0), each divided by the baseline's MSE of
    the cell, stacked (means add up: the
    bar's height is the mean MSE ratio, the baseline's 1, dashed), and the truth's noise, part of the MSE, as a
    narrow hatched bar: which term a stratifier moves."""
    cells = ["dataset", "m", "k", "learner", "measure", "estimator"]
    e = errors[errors["estimator"] == estimator]
    base = e[e["stratifier"] == baseline].set_index(cells)["mse"]
    scale = base.reindex(pd.MultiIndex.from_frame(e[cells])).to_numpy()
    with np.errstate(divide="ignore", invalid="ignore"):
        e = e.assign(**{t: e[t].to_numpy() / scale for t in TERMS})
    measures = style.keep([m for m in MEASURES if m in set(e["measure"])])
    stratifiers = style.methods(e["stratifier"].unique())
    colours = dict(zip(TERMS.values(), ["#9ecae1", "#3182bd", "#fdae6b", "#bdbdbd"]))
    with style.drawing():
        fig, axes = _panels(measures, style)
        x = np.arange(len(stratifiers))
        for ax, measure in zip(axes.flat, measures):
            m = e[e["measure"] == measure].replace([np.inf, -np.inf], np.nan).groupby("stratifier")[list(TERMS)].mean()
            m = m.reindex(stratifiers)
            bottom = np.zeros(len(stratifiers))
            for term, label in TERMS.items():
                if term == "truth_noise":
                    continue  # inside the MSE: drawn as a hatched band at the bottom of the sample term
                values = np.nan_to_num(m[term].to_numpy())
                ax.bar(x, values, 0.8, bottom=bottom, color=colours[label])
                bottom += values
            noise = np.nan_to_num(m["truth_noise"].to_numpy())
            ax.bar(x, np.minimum(noise, bottom), 0.4, color=colours["truth noise"], hatch="///", alpha=0.8)
            ax.axhline(1.0, color="black", linewidth=0.6, linestyle="--")
            ax.set_title(style.name(measure))
            ax.set_xticks(x, [style.name(s) for s in stratifiers], rotation=90)
        for ax in axes[:, 0]:
            ax.set_ylabel(f"÷ MSE of {baseline}")
        figure_legend(fig, colours, style, title="mean over datasets, sizes, k and learners (narrow bar: the truth's noise)")
        fig.suptitle(style.heading(f"The error of the {estimator.replace('_', '-')} CV estimate, term by term"))
    return fig


def count_model(theory: pd.DataFrame, baseline: str, style: FigureStyle = DEFAULT):
    """Per quantity of :mod:`stratbench.cv_error.theory`, what each (dataset, m, k) observed against what the
    count model predicts: random k-fold's prediction for the baseline, label stratification's for the others."""
    quantities = list(dict.fromkeys(theory["quantity"]))
    stratifiers = style.methods(theory["stratifier"].unique())
    colours = style.colour_map(stratifiers)
    with style.drawing():
        fig, axes = _panels(quantities, style)
        for ax, quantity in zip(axes.flat, quantities):
            part = theory[theory["quantity"] == quantity]
            for s in stratifiers:
                ps = part[part["stratifier"] == s]
                predicted = ps["random"] if s == baseline else ps["stratified"]
                ax.scatter(predicted, ps["observed"], s=8, color=colours[s], marker="o" if s == baseline else "^")
            values = pd.concat([part["observed"], part["random"], part["stratified"]]).replace([np.inf, -np.inf], np.nan)
            low, high = float(np.nanmin(values)), float(np.nanmax(values))
            ax.plot([low, high], [low, high], color="black", linewidth=0.6, linestyle="--")
            ax.set_title(quantity.replace("_", " "))
            ax.set_xlabel("predicted")
        for ax in axes[:, 0]:
            ax.set_ylabel("observed")
        figure_legend(fig, colours, style, title=f"stratifier ({baseline}: random k-fold's prediction; others: stratified)",
                marker=True)
        fig.suptitle(style.heading("The count model: predicted against observed, per dataset, size and k"))
    return fig


def model_choice(choices: pd.DataFrame, baseline: str, style: FigureStyle = DEFAULT):
    """Per task, the share of draws where CV picks the truth's best model, per stratifier (mean over datasets,
    sizes, k and measures, each measure with the estimator given in ``choices``); the dashed line is the
    baseline's."""
    tasks = list(dict.fromkeys(choices["task"]))
    stratifiers = style.methods(choices["stratifier"].unique())
    colours = style.colour_map(stratifiers)
    with style.drawing():
        fig, axes = _panels(tasks, style)
        x = np.arange(len(stratifiers))
        for ax, task in zip(axes.flat, tasks):
            agree = choices[choices["task"] == task].groupby("stratifier")["agreement"].mean().reindex(stratifiers)
            ax.bar(x, agree.to_numpy(), 0.8, color=[colours[s] for s in stratifiers])
            if baseline in agree and np.isfinite(agree[baseline]):
                ax.axhline(agree[baseline], color="black", linewidth=0.6, linestyle="--")
            finite = agree.to_numpy()[np.isfinite(agree.to_numpy())]
            if len(finite):
                ax.set_ylim(max(0.0, finite.min() - 0.05), min(1.0, finite.max() + 0.05))
            ax.set_title({"learner": "which learner", "neighbours": "how many neighbours"}.get(task, task))
            ax.set_xticks(x, [style.name(s) for s in stratifiers], rotation=90)
        for ax in axes[:, 0]:
            ax.set_ylabel("CV picks the true best")
        figure_legend(fig, colours, style)
        fig.suptitle(style.heading(f"Choice of model: how often CV agrees with the truth (dashed: {baseline})"))
    return fig
