"""Wall time of the aggregation stage at the size of the full sechidis2011 study (run by hand).

    python benchmarks/aggregation.py

The full study (config/sechidis2011.yaml) has 8 datasets × 3 stratifiers × 5 repeats × 10 folds × 6
measures for BR, and CLR on the 5 datasets with < 50 labels: 12,000 fold scores, 120 fold-quality rows
per measure. Training it takes days on two cores, so this script times the aggregation on tidy tables
of exactly that shape filled with random values (the aggregation does not look at the values' origin),
each step in-process: summaries, ranks and tests, paper tables, figures, reproduction report. Under
Snakemake each aggregation job also pays a Python start-up (about 2 s here); time that on a finished
study with `snakemake --cores 2 --forcerun gather_scores gather_fold_quality gather_runtime`.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

from stratbench.figures import cd_diagrams, fold_distribution, rank_bars, save_figure
from stratbench.measures.classification import MEASURE_NAMES
from stratbench.measures.names import MEASURE_LABELS, RANKED_MEASURES
from stratbench.papers import StudyTables
from stratbench.papers.reproduction import reproduction
from stratbench.papers.tables import study_tables
from stratbench.stats import compare, with_all_group
from stratbench.tables.summary import summarise_fold_quality, summarise_scores

DATASETS = ["scene", "emotions", "genbase", "yeast", "medical", "bibtex", "enron", "corel5k"]
SMALL = ["scene", "emotions", "genbase", "yeast", "medical"]
STRATIFIERS = ["random", "labelset", "iterative"]
GROUPS = {"labelsets_per_example<=0.1": SMALL, "labelsets_per_example>=0.39": ["bibtex", "enron", "corel5k"]}


def full_size_tables(rng):
    rows = [(d, s, r, f, c, m, rng.random()) for c, datasets in (("br", DATASETS), ("clr", SMALL))
            for d in datasets for s in STRATIFIERS for r in range(5) for f in range(10) for m in MEASURE_NAMES]
    scores = pd.DataFrame(rows, columns=["dataset", "stratifier", "repeat", "fold", "classifier", "measure", "value"])
    quality = pd.DataFrame([(d, s, r, m, rng.random()) for d in DATASETS for s in STRATIFIERS for r in range(5)
                            for m in [*RANKED_MEASURES, "pair_zero_share_std"]],
                           columns=["dataset", "stratifier", "repeat", "measure", "value"])
    runtime = pd.DataFrame([(d, s, r, 1000, 10, 2000, rng.random()) for d in DATASETS for s in STRATIFIERS
                            for r in range(5)], columns=["dataset", "stratifier", "repeat", "examples", "labels",
                                                         "nnz", "seconds"])
    stats = pd.DataFrame([dict(dataset=d, labels=10, examples=1000, labelsets=50, labelsets_per_example=0.05,
                               examples_per_labelset_min=1, examples_per_labelset_avg=20.0,
                               examples_per_labelset_max=100, examples_per_label_min=5, examples_per_label_avg=100.0,
                               examples_per_label_max=500) for d in DATASETS])
    return scores, quality, runtime, stats


def in_process(out: Path) -> pd.DataFrame:
    rng = np.random.default_rng(0)
    scores, quality, runtime, stats = full_size_tables(rng)
    groups = with_all_group(DATASETS, GROUPS)
    times = []

    def step(name, fn):
        t0 = time.perf_counter()
        result = fn()
        times.append((name, time.perf_counter() - t0))
        return result

    summary = step("summarise scores (mean ± std over folds)", lambda: summarise_scores(scores))
    ranks, tests, _ = step("ranks, Friedman, Nemenyi of the std", lambda: compare(summary, "std", ["classifier", "measure"], groups))
    fq = step("summarise fold quality", lambda: summarise_fold_quality(quality))
    fq_ranks, fq_tests, _ = step("ranks and tests of fold quality",
                                 lambda: compare(fq[fq.measure.isin(RANKED_MEASURES)], "mean", ["measure"], groups))
    tables = step("paper tables (objects)", lambda: study_tables(stats, fq, runtime, fq_ranks, fq_tests, summary, ranks,
                                                                 tests, order=STRATIFIERS, paper="sechidis2011"))
    step("paper tables (render md/tex/html)", lambda: [(t.markdown(), t.latex(), t.html()) for t in tables])
    step("figures (rank bars, CD, fold spread; PNG+PDF)", lambda: [
        save_figure(f, out / f"{i}.png", out / f"{i}.pdf") for i, f in enumerate([
            rank_bars(ranks[ranks.classifier == "br"], "br", MEASURE_LABELS),
            cd_diagrams(ranks[ranks.classifier == "br"], tests[tests.classifier == "br"], "br", labels=MEASURE_LABELS),
            fold_distribution(scores, "br", MEASURE_LABELS)])])
    study = StudyTables(statistics=stats, fold_quality=fq, n_splits=10, stratifiers=STRATIFIERS, summary=summary, ranks=ranks)
    step("reproduction report", lambda: reproduction("sechidis2011", study))
    return pd.DataFrame(times, columns=["step", "seconds"])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        table = in_process(Path(tmp))
    table.loc[len(table)] = ("total", table["seconds"].sum())
    print(table.to_markdown(index=False, floatfmt=".3f"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
