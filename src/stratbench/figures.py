"""Figures for a paper (matplotlib; PNG and vector PDF with fixed metadata)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from stratbench.io import atomic_path  # noqa: E402


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
