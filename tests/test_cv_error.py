"""The "does it matter" study (issue 35): its measures, learners, samples and tables checked on hand-computed
cases, and its quick variant (config/cv_error_quick.yaml) run end to end through Snakemake."""
import re

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO, run_snakemake

from stratbench import StratbenchError
from stratbench.cv_error.learners import RIDGE_LAMBDA, NearestNeighbours, Ridge, normalised_rows, similarity
from stratbench.cv_error.measures import label_auc, label_f1, part_measures
from stratbench.cv_error.run import development_rows, estimate_rows, splitter_factory, truth_rows
from stratbench.cv_error.summary import choice_table, error_table, paired_tests
from stratbench.study import Study


def test_part_measures_by_hand_with_undefined_labels():
    Y = np.array([[1, 0, 0], [0, 0, 0], [1, 1, 0], [0, 1, 0]])
    S = np.array([[0.9, 0.2, 0.1], [0.6, 0.7, 0.0], [0.4, 0.8, 0.2], [0.3, 0.1, 0.3]])
    H = S >= 0.5
    # label 0: TP 1 (row 0), FP 1 (row 1), FN 1 (row 2) → 2/4; label 1: TP 1, FP 1, FN 1 → 0.5; label 2: 0/0
    np.testing.assert_allclose(label_f1(Y.astype(bool), H), [0.5, 0.5, np.nan])
    # label 0: positives {0.9, 0.4} negatives {0.6, 0.3}: pairs won 0.9>0.6, 0.9>0.3, 0.4>0.3 → 3/4
    # label 1: positives {0.8, 0.1} negatives {0.2, 0.7}: 0.8 beats both, 0.1 none → 2/4; label 2: one class
    np.testing.assert_allclose(label_auc(Y.astype(bool), S), [0.75, 0.5, np.nan])
    values = part_measures(Y, S)
    assert values["macro_f1"] == pytest.approx((0.5, 1 / 3))
    assert values["macro_auc"] == pytest.approx((0.625, 1 / 3))
    # micro: TP 2, |Y| 4, |H| 4 → 4/8
    assert values["micro_f1"] == pytest.approx((0.5, 0.0))
    # Hamming: rows differ in 1 (row 1: label 0 and 1 → 2), row 2 (label 0) → 1, row 3 (label 1) → 1: 4 of 12
    assert values["hamming_loss"] == pytest.approx((4 / 12, 0.0))
    assert values["subset_accuracy"] == pytest.approx((1 / 4, 0.0))  # row 0 only
    # a part with no label at all: micro F1 is 0/0
    assert np.isnan(part_measures(np.zeros((2, 2)), np.zeros((2, 2)))["micro_f1"][0])
    # ties count one half: AUC of a constant score is 0.5
    np.testing.assert_allclose(label_auc(np.array([[1], [0]], bool), np.array([[0.3], [0.3]])), [0.5])


def test_ridge_held_out_scores_equal_a_fit_on_the_other_rows():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 6))
    K = X @ X.T
    Y = (rng.random((40, 3)) < 0.3).astype(float)
    test = np.array([2, 9, 10, 31])
    train = np.setdiff1d(np.arange(40), test)
    alpha = np.linalg.solve(K[np.ix_(train, train)] + 1 + RIDGE_LAMBDA * np.eye(len(train)), Y[train])
    np.testing.assert_allclose(Ridge(K, Y).scores(train, test), (K[np.ix_(test, train)] + 1) @ alpha, atol=1e-10)


def test_knn_votes_of_the_nearest_rows():
    X = normalised_rows(np.array([[1.0, 0], [1, 0.1], [0, 1], [0.1, 1]] + [[1, 0.05]] * 8 + [[0.05, 1]] * 8))
    Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1]] + [[1, 1]] * 8 + [[0, 0]] * 8, dtype=float)
    learner = NearestNeighbours(similarity(X, X), Y)
    # training rows 4…11 lie by row 0 and carry both labels, 12…19 lie by row 2 and carry none: the 10
    # nearest of row 0 are 4…11 and two of 12…19 (8 of 10 carry each label), of row 2 the reverse
    scores = learner.scores(np.arange(4, 20), np.array([0, 2]))
    np.testing.assert_allclose(scores, [[0.8, 0.8], [0.2, 0.2]])


def test_development_samples_are_seeded_nested_and_disjoint_from_their_pool():
    dev, pool = development_rows(100, 30, 5, "d", 0)
    assert len(dev) == 30 and len(pool) == 70 and not set(dev) & set(pool)
    dev50, _ = development_rows(100, 50, 5, "d", 0)
    np.testing.assert_array_equal(dev50[:30], dev)  # nested: a smaller sample starts the larger one
    assert not np.array_equal(development_rows(100, 30, 5, "d", 1)[0], dev)
    np.testing.assert_array_equal(development_rows(100, 30, 5, "d", 0)[0], dev)


def test_estimates_are_deterministic_and_the_unshuffled_kfold_gives_one_split():
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(120, 5)), (rng.random((120, 4)) < 0.3).astype(np.int8)
    run = lambda name: estimate_rows(X, Y, 60, 2, 3, [3], ["knn", "ridge"], splitter_factory(name, {}), 7, "d")
    rows, splits = run("iterative")
    assert (rows, [s[:5] for s in splits]) == (run("iterative")[0], [s[:5] for s in run("iterative")[1]])
    assert len(rows) == 2 * 3 * 2 * 6  # samples × repeats × learners × measures at one k
    kfold_rows, kfold_splits = run("kfold")
    assert [s[4] for s in kfold_splits] == [3, 3]  # the same 3 test sets in every repeat
    assert [s[4] for s in splits] == [9, 9]
    frame = pd.DataFrame(kfold_rows, columns=["sample", "k", "repeat", "learner", "measure", "estimate", "u", "p"])
    assert frame.groupby(["sample", "learner", "measure"])["estimate"].nunique().eq(1).all()
    truth = truth_rows(X, Y, 60, 2, ["knn"], 7, "d")
    assert len(truth) == 2 * 6 and all(0 <= r[3] <= 1 for r in truth)


def _frames():
    """Two samples × two repeats of two stratifiers, one learner and measure, with hand-made estimates."""
    truth = pd.DataFrame(dict(dataset="d", m=50, sample=[0, 1], learner="a", measure="micro_f1", truth=[0.5, 0.6],
                              undefined=0.0))
    est = {"random": [0.4, 0.6, 0.7, 0.5], "iterative": [0.5, 0.5, 0.6, 0.6]}  # (s0 j0, s0 j1, s1 j0, s1 j1)
    rows = [dict(dataset="d", m=50, stratifier=s, sample=r, k=5, repeat=j, learner="a", measure="micro_f1",
                 estimate=v[2 * r + j], undefined=0.0, parts_undefined=1 if s == "random" else 0)
            for s, v in est.items() for r in (0, 1) for j in (0, 1)]
    splits = pd.DataFrame([dict(dataset="d", m=50, stratifier=s, sample=r, k=5, splits=2, test_sets=10,
                                distinct_test_sets=10, split_seconds=0.0) for s in est for r in (0, 1)])
    return truth, pd.DataFrame(rows), splits


def test_error_table_by_hand():
    truth, estimates, splits = _frames()
    t = error_table(truth, estimates, splits, ["random", "iterative"]).set_index("stratifier")
    # random: errors −0.1, +0.1, +0.1, −0.1 → bias 0, RMSE 0.1; within-sample variances 0.02, 0.02 (ddof 1)
    assert t.loc["random", "bias"] == pytest.approx(0.0, abs=1e-12)
    assert t.loc["random", "rmse"] == pytest.approx(0.1)
    assert t.loc["random", "split_variance"] == pytest.approx(0.02)
    assert t.loc["random", "rmse_repeated"] == pytest.approx(0.0, abs=1e-12)  # each sample's mean is its truth
    # iterative: every estimate 0.5 or 0.6 = its truth → no error, no split variance
    assert t.loc["iterative", "rmse"] == pytest.approx(0.0, abs=1e-12)
    assert t.loc["iterative", "split_variance"] == 0 and np.isinf(t.loc["iterative", "sample_gain"])
    assert t.loc["random", "sample_gain"] == 1.0
    assert t.loc["random", "parts_undefined"] == pytest.approx(4 / 20)  # one of the 5 parts, in 4 CVs
    assert t.loc["random", "distinct_test_sets"] == 10


def test_choice_table_counts_agreement_with_the_truths_best_learner():
    truth = pd.DataFrame(dict(dataset="d", m=50, sample=0, learner=["a", "b"], measure="hamming_loss",
                              truth=[0.10, 0.20], undefined=0.0))
    # lower is better: the truth picks a; CV picks a in repeat 0, b in repeat 1 (a regret of 0.1)
    est = pd.DataFrame(dict(dataset="d", m=50, stratifier="random", sample=0, k=5, repeat=[0, 0, 1, 1],
                            learner=["a", "b", "a", "b"], measure="hamming_loss", estimate=[0.1, 0.3, 0.3, 0.2],
                            undefined=0.0, parts_undefined=0))
    row = choice_table(truth, est, ["random"]).iloc[0]
    assert (row["choices"], row["agreement"], row["regret"]) == (2, 0.5, pytest.approx(0.05))


def test_paired_tests_count_wins_over_the_blocks():
    blocks = [dict(dataset=f"d{i}", m=100, k=5, learner="a", measure="micro_f1", stratifier=s,
                   rmse=0.1 if s == "random" else 0.05) for i in range(8) for s in ("random", "iterative")]
    row = paired_tests(pd.DataFrame(blocks)).iloc[0]
    assert (row["wins"], row["losses"], row["blocks"]) == (8, 0, 8)
    assert row["median_rmse_ratio"] == pytest.approx(0.5)
    assert row["p"] == pytest.approx(2 / 2**8) and row["significant"]  # exact two-sided: 2 of 256 sign patterns


def test_a_dataset_too_small_for_its_truth_pool_stops_the_config():
    config = yaml.safe_load((REPO / "config" / "cv_error_quick.yaml").read_text())
    config["cv_error"]["sizes"] = [100, 400]
    with pytest.raises(StratbenchError, match=r"dataset 'synth_cooccur' has 600 examples: too few .* 400 .* 300"):
        Study.checked(config)
    config["cv_error"]["sizes"] = [100]
    config["cv_error"]["baseline"] = "nope"
    with pytest.raises(StratbenchError, match="cv_error.baseline 'nope'"):
        Study.checked(config)


@pytest.mark.workflow
def test_the_quick_does_it_matter_study_end_to_end(tmp_path):
    config = yaml.safe_load((REPO / "config" / "cv_error_quick.yaml").read_text())
    result = run_snakemake(tmp_path, config, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    out = tmp_path / "results" / "cv_error_quick"
    errors = pd.read_csv(out / "tables" / "cv_error.csv")
    cv = config["cv_error"]
    n_cells = len(config["datasets"]) * len(cv["sizes"]) * len(cv["n_splits"]) * len(cv["learners"]) * 6
    assert len(errors) == n_cells * len(config["stratifiers"])
    assert (errors[errors["stratifier"] == "kfold"]["split_variance"] == 0).all()
    random_gain = errors[errors["stratifier"] == "random"]["sample_gain"]
    assert (random_gain.dropna() == 1).all() and random_gain.notna().mean() > 0.9  # NaN: no split varied (0/0)
    # a row of the table recomputed from the jobs' files
    est = pd.read_csv(out / "cv_error" / "synth_rare" / "m100" / "estimates" / "iterative.csv")
    truth = pd.read_csv(out / "cv_error" / "synth_rare" / "m100" / "truth.csv")
    e = est[(est["k"] == 3) & (est["learner"] == "ridge") & (est["measure"] == "macro_f1")]
    t = truth[(truth["learner"] == "ridge") & (truth["measure"] == "macro_f1")].set_index("sample")["truth"]
    row = errors[(errors["dataset"] == "synth_rare") & (errors["m"] == 100) & (errors["k"] == 3)
                 & (errors["learner"] == "ridge") & (errors["measure"] == "macro_f1")
                 & (errors["stratifier"] == "iterative")].iloc[0]
    assert row["bias"] == pytest.approx((e["estimate"] - e["sample"].map(t)).mean())
    assert row["split_variance"] == pytest.approx(e.groupby("sample")["estimate"].var(ddof=1).mean())
    # the verdict states the tables' numbers
    verdict = (out / "report" / "does_it_matter.md").read_text()
    assert verdict.startswith("## Does it matter?") and "### Where `hybrid` does not help" in verdict
    random = errors[errors["stratifier"] == "random"]
    share = np.median(random["split_variance"] / random["rmse"] ** 2)
    assert f"a median {100 * share:.1f}% of one CV's squared error" in verdict
    iterative_gain = np.nanmedian(errors[errors["stratifier"] == "iterative"]["sample_gain"])
    assert re.search(rf"\| iterative \| {iterative_gain:.2f} \|", verdict)
    # 2 datasets × 2 sizes: a two-sided signed-rank test on 4 blocks cannot go below p = 2 / 2⁴
    blocks = len(config["datasets"]) * len(cv["sizes"])
    assert f"With {blocks} (dataset, m) blocks no paired test can be significant: its smallest p is 0.125." in verdict
    for name in ("cv_error_bias_variance", "cv_error_model_choice"):
        assert (out / "figures" / f"{name}.png").stat().st_size > 20_000


def test_the_estimate_costs_every_truth_and_estimate_job_from_the_calibration():
    from stratbench.cost.calibration import DatasetCost
    from stratbench.cost.jobs import simulate, study_jobs, summary

    config = yaml.safe_load((REPO / "config" / "cv_error_quick.yaml").read_text())
    study = Study.checked(config)
    costs = {d: DatasetCost(d, 600, 8, 1.0, 0.1, "", 0.01, {}, 0.0, 0.0, {},
                            cv_s={"truth": {100: 0.5, 200: 1.0},
                                  **{s: {100: 2.0, 200: 4.0} for s in study.stratifiers}})
             for d in study.datasets}
    planned = {"generate_dataset": 2, "cv_truth": 4, "cv_estimates": 24, "cv_error_tables": 1}
    jobs = study_jobs(study, costs, {"job": 1.0, "split": 0.5}, planned)
    truth = [j for j in jobs if j.rule == "cv_truth"]
    estimates = [j for j in jobs if j.rule == "cv_estimates"]
    assert len(truth) == 4 and len(estimates) == 2 * 2 * len(study.stratifiers)
    R = config["cv_error"]["samples"]
    # start-up + loading + R samples × seconds per sample
    assert sorted({round(j.cpu_s, 6) for j in truth}) == [1.01 + R * 0.5, 1.01 + R * 1.0]
    assert sorted({round(j.cpu_s, 6) for j in estimates}) == [1.01 + R * 2.0, 1.01 + R * 4.0]
    table = summary(jobs).set_index(["dataset", "part"])
    assert table.loc[("synth_rare", "estimates m=200"), "jobs"] == len(study.stratifiers)
    assert simulate(jobs, 2) >= sum(j.wall_s for j in jobs) / 2


def test_the_calibration_times_the_truth_and_every_stratifier_at_every_size():
    from stratbench.cost.calibration import calibrate_cv_error

    config = yaml.safe_load((REPO / "config" / "cv_error_quick.yaml").read_text())
    config["stratifiers"] = {"random": {}, "iterative": {}}
    study = Study.checked(config)
    seconds = calibrate_cv_error(study, "synth_rare", study.load_dataset("synth_rare"), log=lambda *a: None)
    assert set(seconds) == {"truth", "random", "iterative"}
    assert all(set(by_m) == {100, 200} and all(v > 0 for v in by_m.values()) for by_m in seconds.values())
