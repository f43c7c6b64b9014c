"""The fold-quality reproduction reports of a paper's study, computed in one process (no Snakemake):
the datasets' statistics and every dataset × stratifier × repeat split of the config, measured and
summarised as the workflow does, then compared with the published tables. Run by hand; the summary lines
go in issue notes.

    python benchmarks/reproduction_summary.py config/szymanski2017.yaml [--repeats R] [--skip go_cc_size]
        [--mirror ../shared/datasets/mulan] [--out results/reproduction_summary]
        [--summary results/szymanski2017/tables/summary.csv]
        [--network results/szymanski2017/tables/network_stability_summary.csv | --network-stability]

Prints the report's summary lines and its causes; writes the report (Markdown and CSV) under ``--out``.
``--summary`` and ``--network`` add a workflow run's classifier summary and network-stability summary (e.g.
of ``snakemake results/szymanski2017/tables/summary.csv``), so that the claims they carry are judged too;
``--network-stability`` measures the network-stability part here instead, on the same splits and the config's
network datasets (one process, no Python start-up per split; on the Szymański config 18.5 min on a 2-core
machine, 13 of them corel5k's community detection and 5 bibtex's). For a paper whose claims are judged by ranks, the
claims figure (``paper_claims.{png,pdf}``, as the workflow's ``plot_paper_claims``) is drawn beside the report.
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import pandas as pd

from stratbench import papers
from stratbench.datasets import dataset_statistics
from stratbench.datasets.statistics import statistics_table
from stratbench.figures import FigureStyle, claim_rank_bars, save_figure
from stratbench.io import write_csv, write_text
from stratbench.labels.network import network_stability, summarise_network_stability
from stratbench.measures.fold_quality import fold_quality
from stratbench.papers import StudyTables
from stratbench.papers.reproduction import claim_ranks, reproduction, reproduction_markdown, summary_lines
from stratbench.stratifiers import timed_fold_ids
from stratbench.study import Study
from stratbench.study.config import read_config
from stratbench.study.plans import BenchmarkPlan
from stratbench.tables.summary import summarise_fold_quality

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configfile")
    parser.add_argument("--repeats", type=int, help="fewer repeats than the config's (the first ones)")
    parser.add_argument("--skip", nargs="*", default=[], help="datasets to leave out")
    parser.add_argument("--mirror", default=str(ROOT.parent / "shared" / "datasets" / "mulan"))
    parser.add_argument("--out", default="results/reproduction_summary")
    parser.add_argument("--summary", help="a workflow's tables/summary.csv (the classifiers' mean and std)")
    network_source = parser.add_mutually_exclusive_group()
    network_source.add_argument("--network", help="a workflow's network-stability summary")
    network_source.add_argument("--network-stability", action="store_true", help="measure the network-stability part here")
    args = parser.parse_args()
    config = read_config(args.configfile)
    config["datasets"] = {d: v for d, v in config["datasets"].items() if d not in args.skip}
    config["repeats"] = args.repeats or config["repeats"]
    config["data"] = {**(config.get("data") or {}), "mirror": args.mirror}
    study = Study.checked(config)
    rows, runtime, statistics, network = [], [], [], []
    network_datasets = BenchmarkPlan(study).network_datasets() if args.network_stability else []
    for dataset in study.datasets:
        Y = study.load_dataset(dataset).Y
        statistics.append(dataset_statistics(dataset, Y))
        for name in study.stratifiers:
            start = time.perf_counter()
            for r in study.repeats:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    splitter = study.stratifier(name, n_splits=study.n_splits, random_state=study.split_seed(dataset, r))
                    folds, seconds = timed_fold_ids(splitter, Y)
                runtime.append((dataset, name, r, seconds))
                rows += [(dataset, name, r, m, float(v)) for m, v in fold_quality(Y, folds, study.n_splits).items()]
                if dataset in network_datasets:
                    network.append(network_stability(Y, folds, study.n_splits).assign(dataset=dataset, stratifier=name, repeat=r))
            print(f"{dataset} {name}: {len(study.repeats)} splits in {time.perf_counter() - start:.1f} s", flush=True)
    quality = pd.DataFrame(rows, columns=["dataset", "stratifier", "repeat", "measure", "value"])
    seconds = pd.DataFrame(runtime, columns=["dataset", "stratifier", "repeat", "seconds"])
    optional = {k: pd.read_csv(getattr(args, k)) for k in ("summary", "network") if getattr(args, k)}
    if network:
        optional["network"] = summarise_network_stability(pd.concat(network, ignore_index=True))
    quality = summarise_fold_quality(quality)
    tables = StudyTables(statistics=statistics_table(statistics), fold_quality=quality, n_splits=study.n_splits,
                         stratifiers=list(study.stratifiers), stratifier_specs=dict(study.stratifiers), runtime=seconds,
                         **optional)
    report = reproduction(study.reproduces, tables)
    out = Path(args.out) / study.name
    write_csv(out / "reproduction.csv", report)
    write_text(out / "reproduction.md", reproduction_markdown(report, study.reproduces, study.name))
    if network:
        write_csv(out / "network_stability_summary.csv", optional["network"])
    if optional and papers.get(study.reproduces).judges_claims_by_ranks:
        ranks = claim_ranks(study.reproduces, tables)
        style = FigureStyle.from_config(study.config)
        save_figure(claim_rank_bars(ranks, study.reproduces, style), out / "paper_claims.png", out / "paper_claims.pdf", style)
    print("\n".join(summary_lines(report)))
    print(report["verdict"].value_counts().to_string())
    print(f"written: {out}/reproduction.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
