"""The worked example of README's "Add a stratifier / classifier": a user's stratifier and classifier in
their own files, named by dotted path in examples/my_study.yaml, run end to end; adding them to a
finished study re-runs only their jobs and the aggregation."""
import copy

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO, planned_jobs, run_snakemake

pytestmark = pytest.mark.workflow


def test_user_methods_run_end_to_end_and_adding_them_reruns_only_their_jobs(tmp_path):
    config = yaml.safe_load((REPO / "examples" / "my_study.yaml").read_text())
    assert config["stratifiers"]["cardinality"]["class"] == "cardinality_kfold.CardinalityKFold"
    config["import_paths"] = [str(REPO / "examples")]  # the example runs from the repository root
    without = copy.deepcopy(config)
    del without["stratifiers"]["cardinality"], without["classifiers"]["extra_trees_br"]
    first = run_snakemake(tmp_path, without, "--cores", "2")
    assert first.returncode == 0, first.stderr[-3000:]

    plan = planned_jobs(run_snakemake(tmp_path, config, "-n", "--cores", "1"))
    datasets, repeats = len(config["datasets"]), config["repeats"]
    assert plan["make_folds"] == datasets and "fold_quality" not in plan  # the new stratifier only, every repeat
    # evaluation: the new stratifier with both classifiers, the new classifier on the old stratifiers
    assert plan["evaluate_repeats"] == datasets * (2 + 2) and repeats == 1  # small datasets: every repeat a job
    assert "generate_dataset" not in plan and "dataset_statistics" not in plan
    assert {"gather_scores", "summarise_scores", "gather_fold_quality", "paper_tables"} <= set(plan)

    second = run_snakemake(tmp_path, config, "--cores", "2")
    assert second.returncode == 0, second.stderr[-3000:]
    tables = tmp_path / "results" / "my_study" / "tables"
    scores = pd.read_csv(tables / "scores.csv")
    assert set(scores["stratifier"]) == {"random", "iterative", "cardinality"}
    assert set(scores["classifier"]) == {"br", "extra_trees_br"}
    extra = scores[(scores.classifier == "extra_trees_br") & (scores.measure == "hamming_loss")]["value"]
    assert extra.between(0.0, 0.5).all() and extra.nunique() > 1
    with np.load(tmp_path / "results" / "my_study" / "folds" / "dependent" / "cardinality" / "rep0.npz") as z:
        folds = z["fold"]
    assert np.bincount(folds).tolist() == [60] * 5  # 300 rows dealt round robin
    assert "cardinality" in (tables / "summary.md").read_text()  # no paper tables: the study reproduces none
    assert not (tables / "paper" / "cv_estimates_extra_trees_br.md").exists()

    # `stratbench check`, `estimate` and `figure` read the study as Snakemake does, import_paths included
    from stratbench.__main__ import main

    study_file = tmp_path / "my_study.yaml"
    study_file.write_text(yaml.safe_dump(config, sort_keys=False))
    assert main(["check", "--configfile", str(study_file)]) == 0
    out = tmp_path / "cardinality_ranks.png"
    assert main(["figure", "rank_bars", "--subject", "br", "--configfile", str(study_file), "--directory",
                 str(tmp_path), "--out", str(out)]) == 0
    assert out.read_bytes() == (tmp_path / "results" / "my_study" / "figures" / "rank_bars_br.png").read_bytes()
    assert main(["estimate", "--configfile", str(study_file), "--directory", str(tmp_path), "--cores", "2",
                 "--samples", "2"]) == 0
    jobs = pd.read_csv(tmp_path / "estimates" / "my_study" / "jobs.csv")  # beside results/, never in it:
    assert not (tmp_path / "results" / "my_study" / "estimate").exists()
    from stratbench.records.provenance import verify

    assert verify(tmp_path / "results" / "my_study") == {"changed": [], "missing": [], "unlisted": []}
    assert (jobs.loc[jobs["rule"] == "make_folds", "stratifier"] == "cardinality").sum() == 2  # one per dataset


def test_the_user_stratifier_stratifies_label_cardinality():
    import sys

    sys.path.insert(0, str(REPO / "examples"))
    try:
        from cardinality_kfold import CardinalityKFold
    finally:
        sys.path.remove(str(REPO / "examples"))
    Y = np.zeros((40, 6), dtype=int)
    for x in range(40):
        Y[x, : x % 5] = 1  # cardinalities 0..4, eight rows each
    folds = CardinalityKFold(n_splits=4, random_state=0, cap=3).fold_ids(Y)
    cardinality = np.minimum(Y.sum(axis=1), 3)
    for c in range(4):  # every fold gets 2 of each cardinality 0, 1, 2 and 4 of "3 or more"
        assert np.bincount(folds[cardinality == c], minlength=4).tolist() == [2 if c < 3 else 4] * 4
