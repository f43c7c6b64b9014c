"""Where a paper's one-draw cells lie among our draws: for every printed cell that is one draw of a random
statistic (the paper's ``one_draw_cells``: Szymański 2017's IS and SOIS rows, each one CV; Tiittanen 2021's
random rows, each the mean of 10 runs), ``--draws`` draws of the same statistic by our code, its splits
seeded as the study seeds its repeats (repeat 0, 1, …), each measured as the paper measured it; then how
many of them would print at or below, at or above the published digits. Written to
``src/stratbench/data/measured/<paper>_one_draw.csv`` (replacing the cells measured again, keeping the
others), which the paper's ``within-our-draws`` cause reads.
Run by hand after a change to those stratifiers (``tests/test_published_protocols.py`` recomputes rows):

    python benchmarks/one_draw_tails.py config/szymanski2017.yaml [--draws 1000] [--datasets emotions scene]
        [--mirror ../shared/datasets/mulan] [--out src/stratbench/data/measured]
    python benchmarks/one_draw_tails.py config/tiittanen2021.yaml --draws 200 --datasets bibtex
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from stratbench import papers
from stratbench.io import write_csv
from stratbench.labels import as_label_matrix, label_combinations
from stratbench.measures.fold_quality import fold_quality
from stratbench.papers._paper import DRAW_COLUMNS, draw_tails, draws_file
from stratbench.seeds import split_seed
from stratbench.study import Study
from stratbench.study.config import read_config

ROOT = Path(__file__).resolve().parents[1]


def cell_draws(study: Study, dataset: str, stratifier: str, measures: list[str], draws: int,
               runs: int = 1) -> dict[str, np.ndarray]:
    """``draws`` values of each measure, each the mean over ``runs`` splits of (dataset, stratifier); the
    splits seeded as the study's repeats 0, 1, … (draw d holds repeats d·runs … d·runs + runs − 1)."""
    Y = as_label_matrix(study.load_dataset(dataset).Y)
    k = study.n_splits
    pairs = not set(measures) <= set(fold_quality(Y, np.arange(Y.shape[0]) % k, k, pairs=False))  # LPD, shares…
    comb = label_combinations(Y) if pairs else None
    values = {m: np.empty(draws * runs) for m in measures}
    for r in range(draws * runs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            splitter = study.stratifier(stratifier, n_splits=k, random_state=split_seed(study.seed, dataset, r))
            quality = fold_quality(Y, splitter.fold_ids(Y), k, pairs=pairs, comb=comb)
        for m in measures:
            values[m][r] = quality[m]
    return {m: v.reshape(draws, runs).mean(axis=1) for m, v in values.items()}


def one_draw_table(study: Study, cells: pd.DataFrame, draws: int) -> pd.DataFrame:
    """One row per printed cell of ``cells`` whose dataset and stratifier the study has (DRAW_COLUMNS)."""
    out = []
    cells = cells if "runs" in cells else cells.assign(runs=1)
    for (dataset, stratifier, runs), part in cells.groupby(["dataset", "stratifier", "runs"], sort=False):
        if dataset not in study.datasets or stratifier not in study.stratifiers:
            continue
        start = time.perf_counter()
        values = cell_draws(study, dataset, stratifier, list(part["measure"]), draws, runs)
        out += [dict(dataset=dataset, stratifier=stratifier, measure=row["measure"], runs=runs,
                     **draw_tails(values[row["measure"]], row["printed"])) for _, row in part.iterrows()]
        print(f"{dataset} {stratifier}: {draws} draws of {runs} split(s) in {time.perf_counter() - start:.1f} s",
              flush=True)
    return pd.DataFrame(out, columns=DRAW_COLUMNS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configfile")
    parser.add_argument("--draws", type=int, default=1000)
    parser.add_argument("--datasets", nargs="*", help="only these (default: every dataset of the config)")
    parser.add_argument("--mirror", default=str(ROOT.parent / "shared" / "datasets" / "mulan"))
    parser.add_argument("--out", default=str(ROOT / "src" / "stratbench" / "data" / "measured"))
    args = parser.parse_args()
    config = read_config(args.configfile)
    if args.datasets:
        config["datasets"] = {d: v for d, v in config["datasets"].items() if d in args.datasets}
    config["data"] = {**(config.get("data") or {}), "mirror": args.mirror}
    study = Study.checked(config)
    paper = papers.get(study.reproduces)
    cells = paper.one_draw_cells()
    if cells is None:
        raise SystemExit(f"{paper.name} prints no one-draw cells")
    table = one_draw_table(study, cells, args.draws)
    path = Path(args.out) / draws_file(paper.name)
    if path.is_file():  # keep the cells of the datasets not measured this time, in the paper's order
        key = ["dataset", "stratifier", "measure"]
        kept = pd.read_csv(path, dtype={"printed": str}).set_index(key)
        kept = kept.drop(index=table.set_index(key).index, errors="ignore").reset_index()
        order = {cell: i for i, cell in enumerate(cells[key].itertuples(index=False, name=None))}
        table = pd.concat([kept, table], ignore_index=True)
        table = table.iloc[sorted(range(len(table)), key=lambda i: order[tuple(table.loc[i, key])])][DRAW_COLUMNS]
    write_csv(path, table)
    print(table.to_string(index=False))
    print(f"written: {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
