"""The fold-quality grid study (config/stratbench2026.yaml's kind), tiny, end to end: one job per
(dataset, stratifier), ranks per k × measure across datasets, CD diagrams, the recommendation."""
import re

import numpy as np
import pandas as pd
import pytest
from conftest import planned_jobs, run_snakemake, tiny_config

from stratbench.grid import RANKED, quality_grid

pytestmark = pytest.mark.workflow


def grid_config(mirror):
    config = tiny_config(mirror, classifiers={}, repeats=2, grid={"n_splits": [2, 3]})
    config.pop("reproduces")
    config["stratifiers"] = {"random": {}, "iterative": {}, "hybrid": {}}
    config["datasets"]["toy2"] = {"synthetic": {**config["datasets"]["toy"]["synthetic"], "seed": 4}}
    return config


def test_quality_grid_rows_of_one_job():
    Y = (np.random.default_rng(0).random((40, 4)) < 0.3).astype(np.int8)
    rows = quality_grid(Y, "random", {}, [2, 4], [11, 12, 13])
    assert len(rows) == 2 * 3 * 11  # k × seeds × (10 fold measures + seconds)
    ed = rows[(rows["measure"] == "ED")]
    assert (ed["value"] < 1).all()  # random windows: equal sizes
    assert (rows.loc[rows["measure"] == "seconds", "value"] > 0).all()


def test_grid_study_end_to_end(tmp_path, mirror):
    config = grid_config(mirror)
    jobs = planned_jobs(run_snakemake(tmp_path, config, "-n", "--cores", "1"))
    assert jobs.get("grid_quality") == 3 * 3 and "make_folds" not in jobs and "evaluate" not in jobs
    result = run_snakemake(tmp_path, config, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    tables = tmp_path / "results" / "tiny" / "tables"
    rows = pd.read_csv(tables / "grid_quality.csv")
    assert len(rows) == 3 * 3 * 2 * 2 * 11  # datasets × stratifiers × k × repeats × measures
    ranks = pd.read_csv(tables / "grid_ranks.csv")
    all_ranks = ranks[(ranks["group"] == "all") & ranks["measure"].isin(RANKED)]
    assert set(all_ranks["k"]) == {2, 3} and all_ranks["average_rank"].between(1, 3).all()
    # per k and measure the three ranks sum to 1 + 2 + 3
    assert np.allclose(all_ranks.groupby(["k", "measure"])["average_rank"].sum(), 6)
    md = (tables / "grid_ranks.md").read_text()
    assert "### k = 2" in md and "### k = 3" in md and "mean rank" in md and "**" in md
    recommendation = (tmp_path / "results" / "tiny" / "report" / "recommendation.md").read_text()
    assert recommendation.startswith("# Which stratifier should I use? (tiny)")
    best = re.search(r"\*\*(\w+)\*\* has the best mean rank", recommendation).group(1)
    summary = pd.read_csv(tables / "grid_summary.csv")
    assert best in set(summary["stratifier"])
    for k in (2, 3):
        assert (tmp_path / "results" / "tiny" / "figures" / f"grid_critical_difference_k{k}.png").stat().st_size > 10_000
