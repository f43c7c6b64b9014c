"""Snakemake end to end on a tiny study in a temporary folder (real data from the mirror)."""
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.workflow


def tiny_config(mirror, **changes):
    config = {
        "study": "tiny",
        "seed": 7,
        "n_splits": 3,
        "repeats": 2,
        "threads": 1,
        "data": {"mirror": str(mirror)},
        "datasets": {
            "toy": {"synthetic": {"examples": 120, "labels": 5, "features": 6, "cardinality": 1.5,
                                  "dependence": 0.3, "seed": 3, "census": 2000, "centroids": 4}},
            "emotions": {},
        },
        "stratifiers": {"random": {}, "iterative": {}},
        "classifiers": {"br": {}},
        "forest": {"n_estimators": 5},
    }
    config.update(changes)
    return config


def snakemake(workdir: Path, config: dict, *args: str) -> subprocess.CompletedProcess:
    workdir.mkdir(parents=True, exist_ok=True)
    (workdir / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False))
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir),
         "--configfile", str(workdir / "config.yaml"), *args],
        capture_output=True, text=True, env={**os.environ, "STRATBENCH_CACHE": str(workdir / "cache")},
    )


@pytest.fixture(scope="module")
def finished_runs(tmp_path_factory, mirror):
    """The tiny study run twice, in two folders, with 1 and 2 cores."""
    runs = []
    for cores in ("1", "2"):
        workdir = tmp_path_factory.mktemp(f"run{cores}")
        result = snakemake(workdir, tiny_config(mirror), "--cores", cores)
        assert result.returncode == 0, result.stderr[-4000:]
        runs.append(workdir)
    return runs


def test_tables_hold_the_expected_rows(finished_runs):
    tables = finished_runs[0] / "results" / "tiny" / "tables"
    stats = pd.read_csv(tables / "dataset_statistics.csv").set_index("dataset")
    assert list(stats.index) == ["toy", "emotions"]
    assert stats.loc["emotions", ["labels", "examples", "labelsets"]].tolist() == [6, 593, 27]

    scores = pd.read_csv(tables / "scores.csv")
    assert list(scores.columns) == ["dataset", "stratifier", "repeat", "fold", "classifier", "measure", "value"]
    assert len(scores) == 2 * 2 * 2 * 3 * 6  # datasets × stratifiers × repeats × folds × measures
    assert scores.groupby(["dataset", "stratifier", "repeat"])["fold"].nunique().eq(3).all()
    emo = scores[(scores.dataset == "emotions") & (scores.measure == "hamming_loss")]["value"]
    assert emo.between(0.1, 0.35).all()  # a real forest on emotions, not a constant

    summary = pd.read_csv(tables / "summary.csv")
    assert len(summary) == 2 * 2 * 6 and set(summary["repeats"]) == {2} and set(summary["folds"]) == {3}
    quality = pd.read_csv(tables / "fold_quality.csv")
    measures = {"ED", "LD", "FZ", "FLZ", "rLD", "DCP", "LPD", "FLPZ", "pair_zero_share", "pair_zero_share_std"}
    assert len(quality) == 2 * 2 * 2 * len(measures) and set(quality["measure"]) == measures
    runtime = pd.read_csv(tables / "stratifier_runtime.csv")
    assert len(runtime) == 8 and (runtime["seconds"] > 0).all() and (runtime["seconds"] < 60).all()
    ranks = pd.read_csv(tables / "average_ranks.csv")
    assert set(ranks["stratifier"]) == {"random", "iterative"} and len(ranks) == 12
    assert "± " in (tables / "summary.md").read_text()
    figures = finished_runs[0] / "results" / "tiny" / "figures"
    assert (figures / "std_by_stratifier_br.png").stat().st_size > 10_000
    assert (figures / "std_by_stratifier_br.pdf").read_bytes().startswith(b"%PDF")
    for rule in ("make_folds", "evaluate", "fold_quality", "parse_mulan", "generate_dataset"):
        assert any((finished_runs[0] / "logs").rglob(f"*{rule}*")), rule


def test_fold_files_follow_the_contract(finished_runs):
    folds = finished_runs[0] / "results" / "tiny" / "folds"
    with np.load(folds / "emotions" / "iterative" / "rep1.npz") as z:
        f = z["fold"]
    assert f.shape == (593,) and set(f.tolist()) == {0, 1, 2}
    assert np.bincount(f).max() - np.bincount(f).min() <= 15  # IS trades exact sizes for label balance


def test_same_config_gives_byte_identical_folds_and_tables(finished_runs):
    a, b = (run / "results" / "tiny" for run in finished_runs)
    files = sorted(p.relative_to(a) for sub in ("folds", "scores", "fold_quality", "tables")
                   for p in (a / sub).rglob("*") if p.is_file())
    # wall times are measurements: the runtime tables and the Tiittanen-style table that shows them
    files = [f for f in files if "runtime" not in f.name and f.name != "fold_quality_papers.md"]
    assert len(files) == 8 + 8 + 8 + 9  # fold files, score files, fold-quality files, tables
    for rel in files:
        assert (a / rel).read_bytes() == (b / rel).read_bytes(), rel


def test_a_finished_study_has_nothing_left_to_do(finished_runs, mirror):
    result = snakemake(finished_runs[0], tiny_config(mirror), "-n", "--cores", "1")
    assert result.returncode == 0
    assert "Nothing to be done" in result.stdout + result.stderr


@pytest.mark.parametrize(
    "change, message",
    [
        ({"n_folds": 3}, r"Additional properties are not allowed \('n_folds' was unexpected\)"),
        ({"n_splits": 1}, r"1 is less than the minimum of 2"),
        ({"stratifiers": {"sois_typo": {}}}, r"stratifier 'sois_typo': unknown stratifier 'sois_typo'"),
        ({"datasets": {"emotion": {}}}, r"dataset 'emotion' is not a MULAN dataset of the registry"),
    ],
)
def test_config_errors_name_the_key(tmp_path, mirror, change, message):
    result = snakemake(tmp_path, tiny_config(mirror, **change), "-n", "--cores", "1")
    assert result.returncode != 0
    import re
    assert re.search(message, result.stdout + result.stderr), (result.stdout + result.stderr)[-3000:]


def test_k_larger_than_the_dataset_stops_with_a_clear_message(tmp_path, mirror):
    config = tiny_config(mirror, n_splits=200, repeats=1)
    config["datasets"] = {"toy": config["datasets"]["toy"]}
    result = snakemake(tmp_path, config, "--cores", "1", "--until", "make_folds")
    assert result.returncode != 0
    logs = "".join(p.read_text() for p in (tmp_path / "logs").rglob("*.log"))
    assert "n_splits=200 greater than the number of examples=120" in logs
    assert not list((tmp_path / "results").rglob("rep*.npz"))


def planned_jobs(result) -> dict[str, int]:
    """Job counts from the 'Job stats' table of a dry run."""
    counts, table = {}, False
    for line in (result.stdout + result.stderr).splitlines():
        if line.startswith("Job stats"):
            table = True
        elif table:
            parts = line.split()
            if len(parts) == 2 and parts[1].isdigit():
                counts[parts[0]] = int(parts[1])
            elif parts and parts[0] == "total":
                break
    return counts


def test_adding_a_classifier_runs_only_its_jobs_and_the_aggregation(finished_runs, mirror):
    config = tiny_config(mirror)
    config["classifiers"]["lp"] = {}
    result = snakemake(finished_runs[0], config, "-n", "--cores", "1")
    assert result.returncode == 0, result.stderr[-3000:]
    jobs = planned_jobs(result)
    assert jobs.get("evaluate") == 2 * 2 * 2  # lp on datasets × stratifiers × repeats
    assert "make_folds" not in jobs and "fold_quality" not in jobs and "generate_dataset" not in jobs
    assert {"gather_scores", "summarise_scores"} <= set(jobs)


def test_adding_a_stratifier_runs_only_its_jobs_and_the_aggregation(finished_runs, mirror):
    config = tiny_config(mirror)
    config["stratifiers"]["sois"] = {}
    jobs = planned_jobs(snakemake(finished_runs[0], config, "-n", "--cores", "1"))
    assert jobs.get("make_folds") == 2 * 2 and jobs.get("evaluate") == 2 * 2  # sois: datasets × repeats
    assert "parse_mulan" not in jobs


def test_max_labels_restricts_a_classifier_to_small_label_sets(tmp_path, mirror):
    config = tiny_config(mirror)
    config["classifiers"]["clr"] = {"max_labels": 5}  # toy has 5 labels, emotions 6
    jobs = planned_jobs(snakemake(tmp_path, config, "-n", "--cores", "1"))
    assert jobs.get("evaluate") == 2 * 2 * 2 + 1 * 2 * 2  # br everywhere, clr on toy only
