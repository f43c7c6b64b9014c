"""The fold-quality grid study (config/stratbench2026.yaml's kind), tiny, end to end: one job per
(dataset, stratifier), ranks per k × measure across datasets, CD diagrams, the recommendation."""
import re

import numpy as np
import pandas as pd
import pytest
from conftest import figure_heights, planned_jobs, run_snakemake, tiny_config

from stratbench.__main__ import main
from stratbench.figures import MAX_HEIGHT
from stratbench.grid import against_baselines, quality_grid
from stratbench.measures.names import GRID_MEASURES as RANKED

pytestmark = pytest.mark.workflow


def grid_config(mirror):
    config = tiny_config(mirror, classifiers={}, repeats=2, grid={"n_splits": [2, 3]})
    config.pop("reproduces", None)
    config["stratifiers"] = {"random": {}, "iterative": {}, "hybrid": {}}
    config["datasets"]["toy2"] = {"synthetic": {**config["datasets"]["toy"]["synthetic"], "seed": 4}}
    return config


def test_quality_grid_rows_of_one_job():
    Y = (np.random.default_rng(0).random((40, 4)) < 0.3).astype(np.int8)
    rows = quality_grid(Y, "random", {}, [2, 4], [11, 12, 13])
    assert len(rows) == 2 * 3 * 15  # k × seeds × (12 fold measures + 2 floors + seconds)
    ed = rows[(rows["measure"] == "ED")]
    floors = rows[rows["measure"] == "rLD floor"].groupby("k")["value"]
    assert (floors.nunique() == 1).all()  # one floor per k, whatever the seed
    rld = rows[rows["measure"] == "rLD"].groupby("k")["value"].min()
    assert (rld >= floors.first() - 1e-12).all()
    assert (ed["value"] < 1).all()  # random windows: equal sizes
    assert (rows.loc[rows["measure"] == "seconds", "value"] > 0).all()


def test_grid_study_end_to_end(tmp_path, mirror):
    config = grid_config(mirror)
    config["grid"]["optimum"] = {"datasets": ["toy"], "max_time": 5, "workers": 1}
    jobs = planned_jobs(run_snakemake(tmp_path, config, "-n", "--cores", "1"))
    assert jobs.get("grid_quality") == 3 * 3 and "make_folds" not in jobs and "evaluate" not in jobs
    assert jobs.get("grid_optimum") == 1 and jobs.get("grid_gap") == 1
    result = run_snakemake(tmp_path, config, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    tables = tmp_path / "results" / "tiny" / "tables"
    heights = figure_heights(tmp_path / "results" / "tiny")  # the CD diagrams, label shares and gap fit a page
    assert max(heights.values()) <= MAX_HEIGHT + 0.01, heights
    for name, subject, stem in (("grid_critical_difference", "3", "grid_critical_difference_k3"),
                                ("grid_gap", "", "grid_gap")):  # `stratbench figure` redraws the grid's figures
        out = tmp_path / f"redrawn_{stem}.png"
        assert main(["figure", name, "--configfile", str(tmp_path / "config.yaml"), "--directory", str(tmp_path),
                     *(["--subject", subject] if subject else []), "--out", str(out)]) == 0
        assert out.read_bytes() == (tmp_path / "results" / "tiny" / "figures" / f"{stem}.png").read_bytes(), name
    rows = pd.read_csv(tables / "grid_quality.csv")
    assert len(rows) == 3 * 3 * 2 * 2 * 15  # datasets × stratifiers × k × repeats × measures
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
    # the optimality gap of toy: every stratifier at or above the proven optimum, the solver's own split at it
    gaps = pd.read_csv(tables / "grid_gap.csv")
    assert set(gaps["stratifier"]) == {"random", "iterative", "hybrid"} and set(gaps["k"]) == {2, 3}
    assert set(gaps["objective"]) == {"LD", "FLZ"} and (gaps["gap"] >= -1e-9).all()
    optimum = pd.read_csv(tmp_path / "results" / "tiny" / "optimum" / "toy.csv")
    rows = rows[rows["dataset"] == "toy"]
    for _, o in optimum.iterrows():
        found = rows[(rows["k"] == o["k"]) & (rows["measure"] == o["objective"])]["value"]
        assert o["bound"] <= found.min() + 1e-9 and o["value"] <= found.min() + 1e-9
    assert "# Distance from the best split possible" in (tables / "grid_gap.md").read_text()
    assert "## How far from the best split possible" in recommendation
    assert (tmp_path / "results" / "tiny" / "figures" / "grid_gap.png").stat().st_size > 10_000


def test_against_baselines_tests_the_best_with_its_baselines_alone():
    """10 real datasets (and a synthetic one, with LD only), 4 stratifiers ranked the same way on every
    measure (best, b3, b2, b1):
    among 4 methods the Nemenyi CD is q·√(4·5/(6·10)) = 2.569·0.577 = 1.48, so best (rank 1) is
    significantly better than b1 (rank 4, difference 3) and b2 (rank 3, difference 2), not than b3
    (rank 2). On real dataset d0, best's DCP at k = 5 is 10% above b3's: the one place named."""
    rows = []
    for i in range(10):
        for m in RANKED:
            for s, value in [("best", 1.0), ("b3", 1.05), ("b2", 1.2), ("b1", 1.3)]:
                if (i, m, s) == (0, "DCP", "best"):
                    value = 1.05 * 1.1
                rows.append({"dataset": f"d{i}", "stratifier": s, "k": 5, "measure": m, "mean": value})
        rows.append({"dataset": "d0", "stratifier": "best", "k": 5, "measure": "DCP floor", "mean": 0.9})
    rows.append({"dataset": "synth", "stratifier": "best", "k": 5, "measure": "LD", "mean": 9.0})
    rows += [{"dataset": "synth", "stratifier": s, "k": 5, "measure": "LD", "mean": 1.0} for s in ("b1", "b2", "b3")]
    lines = against_baselines(pd.DataFrame(rows), "best", ["b1", "b2", "b3"], synthetic=["synth"])
    text = "\n".join(lines)
    row = next(line for line in lines if line.startswith("| 5 |"))
    cells = [c.strip() for c in row.strip("|").split("|")]
    assert cells[1] == "1.48"
    assert cells[2] == "LD, LPD, FLZ, FLPZ, rLD, ED" or cells[2].startswith("LD")  # b1: every measure but DCP on d0
    assert cells[4] == "–"  # b3: within the critical difference everywhere
    assert "d0, k = 5, DCP: 1.155 against b3's 1.05 (+10%; exact-size floor 0.9)" in text
    assert "synth" not in text.split("Where best")[1]  # synthetic datasets are left out of the 5% check
    # paired: best lower on all 10 real datasets → exact one-sided Wilcoxon p = 2⁻¹⁰, Holm over 3: 3·2⁻¹⁰ = 0.0029
    lpd = next(line for line in lines if line.startswith("| 5 | LPD |"))
    assert lpd == "| 5 | LPD | 10/0/0, **0.0029** | 10/0/0, **0.0029** | 10/0/0, **0.0029** |"


def grouped_grid_config(mirror):
    config = tiny_config(mirror, classifiers={}, repeats=2, grid={"n_splits": [2, 3]})
    config.pop("reproduces", None)
    config["datasets"] = {"toy": {**config["datasets"]["toy"], "groups": {"clusters": 6}},
                          "grouped": {"grouped_labels": {"groups": 40, "labels": 4, "seed": 5}}}
    config["stratifiers"] = {"hybrid": {}, "iterative": {}, "group_kfold": {}, "stratified_group_kfold": {}}
    return config


def test_grouped_grid_study_end_to_end(tmp_path, mirror):
    """The grouped track (config/grouped2026.yaml's kind): every split is of whole groups (checked by
    the grid job), the baselines beside ours, ranks across the datasets."""
    config = grouped_grid_config(mirror)
    result = run_snakemake(tmp_path, config, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    tables = tmp_path / "results" / "tiny" / "tables"
    rows = pd.read_csv(tables / "grid_quality.csv")
    assert set(rows["stratifier"]) == {"hybrid", "iterative", "group_kfold", "stratified_group_kfold"}
    assert set(rows["dataset"]) == {"toy", "grouped"}
    ld = rows[rows["measure"] == "LD"].groupby("stratifier")["value"].mean()
    assert ld["hybrid"] < ld["group_kfold"]  # stratifying the groups beats dealing them by size alone
    recommendation = (tmp_path / "results" / "tiny" / "report" / "recommendation.md").read_text()
    assert "Grouped data: 2 of the 2 datasets are split by whole groups (toy, grouped)" in recommendation


def test_grouped_quality_grid_stops_on_a_leak():
    from stratbench import StratbenchError
    from stratbench.grid.quality import check_whole_groups

    check_whole_groups(np.array([0, 0, 1, 1]), np.array(["a", "a", "b", "c"]), "ok")
    with pytest.raises(StratbenchError, match="'leaky' put the rows of 1 groups into more than one fold"):
        check_whole_groups(np.array([0, 1, 1, 1]), np.array(["a", "a", "b", "c"]), "leaky")
