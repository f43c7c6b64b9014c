"""The "does it matter" study: its measures, learners, samples and tables checked on hand-computed
cases, and its quick variant (config/cv_error_quick.yaml) run end to end through Snakemake."""

import numpy as np
import pandas as pd
import pytest
import yaml
from conftest import REPO, figure_heights, run_snakemake

from stratbench import StratbenchError
from stratbench.__main__ import main
from stratbench.cv_error.learners import RIDGE_LAMBDA, NearestNeighbours, Ridge, normalised_rows, similarity
from stratbench.cv_error.measures import label_auc, label_f1, part_measures
from stratbench.cv_error.run import (
    cv_estimates,
    development_rows,
    estimate_rows,
    label_set,
    splitter_factory,
    truth_rows,
    truth_set,
)
from stratbench.cv_error.summary import (
    choice_table,
    dataset_table,
    error_table,
    headline_table,
    overlap_t_test,
    paired_table,
)
from stratbench.figures import MAX_HEIGHT
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


def test_one_fixed_truth_set_per_dataset_and_samples_drawn_from_the_rest():
    truth = truth_set(100, 5, "d", 40)
    assert len(truth) == 40 and np.array_equal(truth, np.sort(truth))
    np.testing.assert_array_equal(truth_set(100, 5, "d", 40), truth)  # drawn once: the same for every size and sample
    assert not np.array_equal(truth_set(100, 5, "e", 40), truth)
    dev = development_rows(100, 30, 5, "d", 0, 40)
    assert len(dev) == 30 and len(set(dev)) == 30 and not set(dev) & set(truth)
    for m in (10, 30, 60):  # 60 = every row outside the truth set
        for r in range(5):
            assert not set(development_rows(100, m, 5, "d", r, 40)) & set(truth)
    assert set(development_rows(100, 60, 5, "d", 0, 40)) == set(range(100)) - set(truth)
    dev50 = development_rows(100, 50, 5, "d", 0, 40)
    assert not np.array_equal(dev50[:30], dev)  # drawn anew for each size: the sizes' tests are independent
    assert not np.array_equal(development_rows(100, 30, 5, "d", 1, 40), dev)
    np.testing.assert_array_equal(development_rows(100, 30, 5, "d", 0, 40), dev)


def test_a_macro_measure_averages_over_one_label_set_in_truth_and_estimate():
    """Label 2 has 1 positive in the sample: at k = 2 it is out of both the truth's and the estimate's macro-F1 (it
    could have no positive in a part); micro-F1 and Hamming loss keep every label."""
    Y = np.array([[1, 0, 0], [1, 1, 0], [0, 1, 1], [1, 1, 0]])
    np.testing.assert_array_equal(label_set(Y, 2), [0, 1])
    np.testing.assert_array_equal(label_set(Y, 4), [])
    S = np.array([[0.9, 0.1, 0.1], [0.8, 0.7, 0.6], [0.2, 0.9, 0.2], [0.6, 0.3, 0.1]])
    every, kept = part_measures(Y, S), part_measures(Y, S, label_set(Y, 2))
    # label 0: TP 3 → F1 1; label 1: TP 2, FN 1 → 4/5; label 2: TP 0, FP 1, FN 1 → 0
    assert every["macro_f1"][0] == pytest.approx((1 + 0.8 + 0) / 3)
    assert kept["macro_f1"][0] == pytest.approx((1 + 0.8) / 2)
    assert kept["micro_f1"] == every["micro_f1"] and kept["hamming_loss"] == every["hamming_loss"]
    assert np.isnan(part_measures(Y, S, label_set(Y, 4))["macro_auc"][0])  # no label in the set
    # the truth rows say how many labels a macro measure counted, the same k as the estimate's
    rng = np.random.default_rng(4)
    X, Yb = rng.normal(size=(90, 4)), (rng.random((90, 6)) < [0.5, 0.4, 0.3, 0.05, 0.02, 0.3]).astype(int)
    rows = pd.DataFrame(truth_rows(X, Yb, 40, 2, ["ridge"], [3, 5], 7, "d", 30, resamples=0),
                        columns=["sample", "learner", "measure", "target", "k", "labels", "rest", "truth", "noise"])
    for (r, k), part in rows.groupby(["sample", "k"]):
        dev = development_rows(90, 40, 7, "d", r, 30)
        expected = len(label_set(Yb[dev], k))
        assert (part[part["measure"].isin(["macro_f1", "macro_auc"])]["labels"] == expected).all()
        assert (part[part["measure"] == "micro_f1"]["labels"] == 6).all() and (part["rest"] == 60).all()


def test_a_label_absent_from_a_training_part_scores_exactly_zero_and_its_auc_is_one_half():
    """Ridge's held-out identity gave round-off of either sign to a label with no positive in the training part;
    the sign followed the test part's labels, so that label's AUC came out 0 or 1 instead of 0.5."""
    rng = np.random.default_rng(3)
    X = normalised_rows(rng.normal(size=(30, 5)))
    Y = np.zeros((30, 2))
    Y[:, 0] = rng.random(30) < 0.5
    Y[[3, 17], 1] = 1  # label 1: two positives, both in the test part
    test = np.array([3, 5, 8, 17, 20, 25])
    train = np.setdiff1d(np.arange(30), test)
    ridge = Ridge(similarity(X, X), Y)
    scores = ridge.scores(train, test)
    assert (scores[:, 1] == 0.0).all()
    assert label_auc(Y[test].astype(bool), scores)[1] == 0.5
    raw = ridge.Y[test] - np.linalg.solve(ridge.A_inv[np.ix_(test, test)], ridge.A_inv_Y[test])
    assert np.abs(raw[:, 1]).max() > 0  # what the identity alone gives: not exact zeros
    assert (ridge.pool_scores(similarity(X[:4], X), rows=train)[:, 1] == 0).all()  # the fresh fit of a part: the same


def test_the_pooled_estimate_scores_every_out_of_fold_prediction_at_once():
    Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0]], dtype=bool)

    class Fixed:  # scores by row, whatever the training part
        S = np.array([[0.9, 0.2], [0.4, 0.8], [0.6, 0.3], [0.1, 0.2]])

        def scores(self, train, test):
            return self.S[test]

    folds = np.array([0, 0, 1, 1])
    parts = [np.array([0, 1]), np.array([2, 3])]
    values, H = cv_estimates(Fixed(), folds, parts, Y)
    # pooled micro-F1: TP 3 (row 0 label 0, row 1 label 1, row 2 label 0), 3 predicted, 4 true → 6/7; the parts:
    # rows 0–1 2·2/(2 + 2) = 1, rows 2–3 2·1/(2 + 1) = 2/3, their mean 5/6
    assert values[("micro_f1", "pooled")][0] == pytest.approx(6 / 7)
    assert values[("micro_f1", "part_mean")][0] == pytest.approx(5 / 6)
    np.testing.assert_array_equal(H, Fixed.S >= 0.5)


def test_estimates_are_deterministic_and_the_unshuffled_kfold_gives_one_split():
    rng = np.random.default_rng(1)
    X, Y = rng.normal(size=(120, 5)), (rng.random((120, 4)) < 0.3).astype(np.int8)
    run = lambda name, stream=None: estimate_rows(X, Y, 60, 2, 3, [3], ["knn", "ridge"], splitter_factory(name, {}), 7,
                                                  "d", 40, stream)
    rows, again = run("iterative"), run("iterative")
    assert all(rows[part] == again[part] for part in ("estimates", "stats", "choices", "theory"))
    estimates = pd.DataFrame(rows["estimates"], columns=["sample", "k", "learner", "measure", "estimator", "repeat",
                                                         "estimate"])
    assert len(estimates) == 3 * len(rows["stats"])  # every repeat's estimate kept
    first = estimates[(estimates["sample"] == 0) & (estimates["learner"] == "ridge")
                      & (estimates["measure"] == "micro_f1") & (estimates["estimator"] == "pooled")]["estimate"]
    stat = next(r for r in rows["stats"] if r[0] == 0 and r[2:5] == ("ridge", "micro_f1", "pooled"))
    assert stat[6] == pytest.approx(first.mean()) and stat[7] == pytest.approx(first.var(ddof=0))
    # a control of the baseline's class on its own seed stream splits otherwise; the shared stream, the same
    assert run("random")["estimates"] != run("random", "random_b")["estimates"]
    assert run("random")["estimates"] == run("random")["estimates"]
    assert [s[:5] for s in rows["splits"]] == [s[:5] for s in again["splits"]]  # all but the seconds
    assert len(rows["stats"]) == 2 * 2 * 6 * 2  # samples × learners × measures × estimators at one k
    kfold = run("kfold")
    assert [s[4] for s in kfold["splits"]] == [3, 3]  # the same 3 test sets in every repeat
    assert [s[4] for s in rows["splits"]] == [9, 9]
    assert all(row[7] == 0.0 for row in kfold["stats"])  # no variance over the repeats
    picks = pd.DataFrame(rows["choices"], columns=["sample", "k", "measure", "estimator", "task", "candidate", "picked"])
    assert (picks.groupby(["sample", "measure", "estimator", "task"])["picked"].sum() == 3).all()
    assert set(picks["task"]) == {"learner", "neighbours"}
    truth = truth_rows(X, Y, 60, 2, ["knn"], [3], 7, "d", 40)
    assert len(truth) == 2 * 6 * 2 and all(0 <= r[7] <= 1 for r in truth)  # err_xy and err


def _samples():
    """Two samples of one cell, two stratifiers, hand-made per-sample means, variances (ddof 0 over J = 2 repeats)
    and truths; samples of 50 rows drawn from a rest of 500."""
    rows = []
    truth = [0.5, 0.6]
    stats = {"random": [(0.5, 0.01), (0.7, 0.01)], "iterative": [(0.5, 0.0), (0.6, 0.0)]}
    for s, values in stats.items():
        for r, (mean, variance) in enumerate(values):
            rows.append(dict(dataset="d", m=50, stratifier=s, sample=r, k=5, learner="a", measure="micro_f1",
                             estimator="pooled", repeats=2, mean=mean, variance=variance, undefined=0.0,
                             parts_undefined=0.0, truth=truth[r], noise=0.001, fresh=truth[r] - 0.05, labels=4,
                             rest=500, d=mean - truth[r]))
    return pd.DataFrame(rows)


def test_the_decomposition_by_hand():
    samples = _samples()
    splits = pd.DataFrame([dict(dataset="d", m=50, stratifier=s, sample=r, k=5, splits=2, test_sets=10,
                                distinct_test_sets=10, split_seconds=0.0) for s in ("random", "iterative") for r in (0, 1)])
    t = error_table(samples, splits, ["random", "iterative"]).set_index("stratifier")
    # random: d = 0, +0.1; v = 0.01 over J = 2 → u = 0.02. s²_d = 0.005 (ddof 1). split = 0.02; sample term =
    # 0.005 − 0.02/2 = −0.005; bias² = 0.05² − 0.005/2 = 0; mse = mean(0.01 + 0, 0.01 + 0.01) = 0.015 = their sum
    assert t.loc["random", "bias"] == pytest.approx(0.05)
    assert t.loc["random", "bias2"] == pytest.approx(0.0, abs=1e-15)
    assert t.loc["random", "split_variance"] == pytest.approx(0.02)
    assert t.loc["random", "sample_term"] == pytest.approx(-0.005)
    assert t.loc["random", "mse"] == pytest.approx(0.015)
    assert t.loc["random", "truth_noise"] == pytest.approx(0.001)
    assert t.loc["random", "corr"] == pytest.approx(1.0)  # means 0.5, 0.7 against truths 0.5, 0.6
    assert (t.loc["random", "overlap"], t.loc["random", "labels"]) == (0.1, 4.0)
    # against err (truth − 0.05 each: mean 0.5): bias_err = 0.6 − 0.5; mse_err = mean(0.01 + 0², 0.01 + 0.2²)
    assert t.loc["random", "err"] == pytest.approx(0.5) and t.loc["random", "bias_err"] == pytest.approx(0.1)
    assert t.loc["random", "mse_err"] == pytest.approx(0.03)
    assert t.loc["iterative", "mse"] == pytest.approx(0.0, abs=1e-15)


def test_the_components_are_unbiased_where_ddof_0_was_not():
    """Simulated CVs with a known bias b, split variance σ² and sample term τ²: the mean of each estimate over
    many studies of R = 5 samples and J = 3 repeats lands on its truth; the old estimates (ddof 0, no σ²/J or
    Var(d)/R correction) miss: the split variance by a third, bias² and the sample term by 0.00067 each."""
    from stratbench.cv_error.summary import _terms

    rng = np.random.default_rng(11)
    studies, R, J, b, sigma2, tau2 = 20000, 5, 3, 0.05, 0.004, 0.002
    mu = b + rng.normal(0, np.sqrt(tau2), (studies, R))  # E[ê | D] − t of each sample
    e = mu[..., None] + rng.normal(0, np.sqrt(sigma2), (studies, R, J))  # each repeat's estimate − t
    d, v = e.mean(axis=-1), e.var(axis=-1)
    bias2, split, sample, mse = (x.mean() for x in _terms(d, v, np.full(d.shape, J)))
    se = 4 * np.array([x.std() / np.sqrt(studies) for x in _terms(d, v, np.full(d.shape, J))])
    assert abs(bias2 - b**2) < se[0] and abs(split - sigma2) < se[1] and abs(sample - tau2) < se[2]
    assert abs(mse - (b**2 + sigma2 + tau2)) < se[3]  # the MSE of one CV
    old_bias2, old_split, old_sample = (d.mean(axis=-1) ** 2).mean(), v.mean(), d.var(axis=-1).mean()
    assert sigma2 - old_split > 5 * se[1] and old_sample - tau2 > 5 * se[2] and old_bias2 - b**2 > 5 * se[0]


def test_the_paired_comparison_by_hand():
    samples = _samples()
    row = paired_table(samples, "random").iloc[0]
    assert row["stratifier"] == "iterative" and row["samples"] == 2 and not row["control"]
    assert row["mse_ratio"] == pytest.approx(0.0, abs=1e-12) and row["split_ratio"] == 0.0
    assert row["bias2_shift"] == pytest.approx(0.0, abs=1e-12)
    assert row["split_variance_shift"] == pytest.approx(-0.02 / 0.015)
    assert (row["wins"], row["losses"]) == (2, 0)
    # per-sample squared-error differences −0.01, −0.02: mean −0.015, s² 5e-5; overlap 50/500 = 0.1:
    # t = −0.015/sqrt(5e-5 (1/2 + 0.1/0.9)) = −2.7136 on 1 degree of freedom (Cauchy): p = 1 − 2 atan(2.7136)/π
    assert row["mse_difference"] == pytest.approx(-0.015)
    assert row["t"] == pytest.approx(-2.713602) and row["p"] == pytest.approx(0.2247727)
    # without the overlap's correction: t = −0.015/sqrt(5e-5/2) = −3, p = 1 − 2 atan(3)/π
    assert row["p_uncorrected"] == pytest.approx(0.2048328)
    assert row["q"] == pytest.approx(0.2247727) and not row["significant"]
    # one iterative CV (MSE 0) equals the mean of J random ones where 0 = bias² + sample term + split/J:
    # 0 − 0.005 + 0.02/J → J = 4
    assert row["random_repeats"] == pytest.approx(4.0)


def test_the_overlap_t_test_holds_its_level_where_the_samples_are_correlated():
    """Paired differences over R samples that share rows are equicorrelated: the uncorrected t-test rejects a
    true null far more often than α, the corrected one (Nadeau & Bengio) about α."""
    rng = np.random.default_rng(3)
    R, rho, trials = 10, 0.3, 4000
    shared = rng.normal(size=(trials, 1))
    x = np.sqrt(rho) * shared + np.sqrt(1 - rho) * rng.normal(size=(trials, R))  # mean 0: the null holds
    corrected = np.mean([overlap_t_test(row, rho)[1] < 0.05 for row in x])
    plain = np.mean([overlap_t_test(row, 0.0)[1] < 0.05 for row in x])
    assert 0.035 < corrected < 0.065 and plain > 0.25
    independent = rng.normal(size=(trials, R))
    assert 0.035 < np.mean([overlap_t_test(row, 0.0)[1] < 0.05 for row in independent]) < 0.065
    assert overlap_t_test(np.zeros(4), 0.2) == (0.0, 1.0) and overlap_t_test(np.full(4, 0.1), 0.2)[1] == 0.0


def test_controls_stay_out_of_the_family_and_a_repeated_test_counts_once():
    base = _samples()
    pooled_twin = base.assign(estimator="part_mean")  # the same numbers under the other estimator: one test twice
    control = base[base["stratifier"] == "random"].assign(stratifier="random_b", mean=lambda f: f["mean"] + 0.01,
                                                          d=lambda f: f["d"] + 0.01)
    paired = paired_table(pd.concat([base, pooled_twin, control, control.assign(estimator="part_mean")]), "random",
                          controls=("random_b",)).set_index(["stratifier", "estimator"])
    assert not paired.loc[("iterative", "pooled"), "duplicate"] and paired.loc[("iterative", "part_mean"), "duplicate"]
    # the family: the one iterative test (its twin and the controls out): q = p, and the twin takes that q
    assert paired.loc[("iterative", "pooled"), "q"] == pytest.approx(paired.loc[("iterative", "pooled"), "p"])
    assert paired.loc[("iterative", "part_mean"), "q"] == paired.loc[("iterative", "pooled"), "q"]
    assert paired.loc["random_b", "control"].all() and paired.loc["random_b", "q"].isna().all()
    assert not paired.loc["random_b", "significant"].any()
    from stratbench.cv_error.summary import controls_table

    rates = controls_table(paired.reset_index(), alpha=0.5)
    # the control's part-mean test repeats its pooled one: one test, its p against 0.5 with and without the
    # overlap's correction (which can only raise p)
    assert rates[["stratifier", "estimator", "tests"]].values.tolist() == [["random_b", "pooled", 1]]
    p, plain = paired.loc[("random_b", "pooled"), ["p", "p_uncorrected"]]
    assert plain <= p and (rates.loc[0, "rejected"], rates.loc[0, "rejected_uncorrected"]) == (int(p < 0.5),
                                                                                              int(plain < 0.5))
    assert (paired["q_by"].dropna() >= paired["q"].dropna() - 1e-12).all()
    # a control whose differences happen to be a real test's (here: iterative's, under a name that comes first)
    # leaves that test in the family
    twin = base[base["stratifier"] == "iterative"].assign(stratifier="a_twin")
    again = paired_table(pd.concat([base, twin]), "random", controls=("a_twin",)).set_index("stratifier")
    assert again.index.tolist() == ["a_twin", "iterative"] and not again.loc["iterative", "duplicate"]
    assert again.loc["iterative", "q"] == pytest.approx(again.loc["iterative", "p"])


def test_the_headline_counts_datasets_and_a_sign_test():
    paired = pd.DataFrame(dict(dataset=["a", "a", "b", "c", "c", "c"], stratifier="s", control=False,
                               measure="micro_f1", estimator="pooled", mse_ratio=[0.8, 1.1, 0.9, 0.7, 0.6, 1.3],
                               significant=[True, False, False, True, False, True]))
    datasets = dataset_table(paired).set_index("dataset")
    assert datasets.loc["a", "median_ratio"] == pytest.approx(0.95) and datasets.loc["c", "median_ratio"] == 0.7
    assert (datasets.loc["c", "lower"], datasets.loc["c", "higher"], datasets.loc["c", "cells"]) == (1, 1, 3)
    row = headline_table(datasets.reset_index()).iloc[0]
    # three datasets, all below 1: two-sided sign test 2 × (1/2)³
    assert (row["datasets"], row["below"], row["above"]) == (3, 3, 0) and row["sign_p"] == pytest.approx(0.25)
    assert (row["median_ratio"], row["lowest_ratio"], row["highest_ratio"]) == pytest.approx((0.9, 0.7, 0.95))


def test_a_zero_split_variance_is_put_down_to_one_split_only_where_the_repeats_give_one():
    """kfold's repeats give k distinct test sets: it ignores its seed. sois's split variance is 0 in a cell where the
    baseline's is 0 too (its repeats gave one estimate on every sample): that is not put down to sois's seed."""
    from stratbench.cv_error import verdict

    def _no_split_variance(errors, baseline):
        rows = verdict._Rows()
        verdict._split_section(rows, errors, baseline)
        summary = verdict._Summary(pd.DataFrame(rows.rows, columns=verdict.SUMMARY_COLUMNS))
        return verdict._no_split_variance(summary, [s for s in dict.fromkeys(errors["stratifier"]) if s != baseline],
                                          baseline)

    def cell(stratifier, measure, split_variance, distinct):
        return dict(stratifier=stratifier, measure=measure, k=5, split_variance=split_variance,
                    distinct_test_sets=distinct, test_sets=50)

    errors = pd.DataFrame([cell("random", "micro_f1", 0.01, 50.0), cell("random", "subset_accuracy", 0.0, 50.0),
                           cell("kfold", "micro_f1", 0.0, 5.0), cell("kfold", "subset_accuracy", 0.0, 5.0),
                           cell("sois", "micro_f1", 0.004, 50.0), cell("sois", "subset_accuracy", 0.0, 49.5)])
    lines = _no_split_variance(errors, "random")
    assert lines[0].startswith("`kfold` ignores its seed: every repeat is the same split") and "sois" not in lines[0]
    assert lines[1].startswith("In 1 of 2 cells `random`'s split variance is 0 too")
    assert len(lines) == 2
    assert _no_split_variance(errors[errors["stratifier"] != "kfold"].assign(split_variance=0.01), "random") == []
    # one repeat: k test sets for every stratifier, so none is said to ignore its seed
    single = errors.assign(test_sets=5, distinct_test_sets=5.0)
    assert _no_split_variance(single, "random") == ["In 1 of 2 cells `random`'s split variance is 0: its J repeats gave "
                                                    "the same estimate on every sample, and there the split-variance "
                                                    "ratio is undefined."]


def test_benjamini_hochberg_over_the_whole_grid():
    from stratbench.cv_error.summary import benjamini_hochberg

    p = np.array([0.001, 0.008, 0.039, 0.041, 0.042, 0.06, 0.074, 0.205])
    bh = [0.008, 0.032, 0.0672, 0.0672, 0.0672, 0.08, 0.08457, 0.205]
    np.testing.assert_allclose(benjamini_hochberg(p), bh, atol=1e-4)
    # Benjamini–Yekutieli: BH's times Σ 1/i over the 8 tests (2.717857), at most 1
    np.testing.assert_allclose(benjamini_hochberg(p, "by"), np.minimum(1, np.array(bh) * 2.717857), atol=3e-4)


def test_the_choice_of_model_by_hand():
    truth = pd.DataFrame(dict(dataset="d", m=50, sample=0, learner=["a", "b"], measure="hamming_loss",
                              target="err_xy", k=5, truth=[0.10, 0.20], noise=np.nan))
    # lower is better: the truth picks a; CV picked a in 3 repeats, b in 1 (a regret of 0.1 there)
    choices = pd.DataFrame(dict(dataset="d", m=50, stratifier="random", sample=0, k=5, measure="hamming_loss",
                                estimator="pooled", task="learner", candidate=["a", "b"], picked=[3, 1]))
    row = choice_table(truth, choices, "random").iloc[0]
    assert (row["choices"], row["agreement"], row["regret"]) == (4, 0.75, pytest.approx(0.025))


def test_the_count_model_by_hand():
    from stratbench.cv_error.theory import count_variance, f1_gap, none_in_part, observe

    # 10 rows, a label on 2 of them, parts of 5: P(none in a part) = C(8,5)/C(10,5) = 56/252
    assert none_in_part(10, np.array([2]), 5)[0] == pytest.approx(56 / 252)
    assert count_variance(10, np.array([2]), 5)[0] == pytest.approx(5 * 0.2 * 0.8 * 5 / 9)
    random, stratified = f1_gap(np.array([30.0]), np.array([10.0]), np.array([10.0]), 200, 40)
    assert random[0] < stratified[0] < 0  # F1 is concave: the part mean falls below the pooled; stratifying halves less
    Y = np.zeros((6, 1), bool)
    Y[[0, 1], 0] = True
    out = observe(Y, [np.array([0, 1, 2]), np.array([3, 4, 5])], Y.copy())
    assert out["empty_cells"][0] == 0.5 and out["empty_cells"][2] == 0.0  # stratified: one positive a part
    assert out["count_variance"][0] == 1.0  # counts 2 and 0


def test_sizes_whose_samples_would_overlap_too_much_are_left_out_and_said_and_a_dataset_without_any_stops():
    from stratbench.study.plans import CvErrorPlan

    config = yaml.safe_load((REPO / "config" / "cv_error_quick.yaml").read_text())
    config["cv_error"]["sizes"] = [100, 400]  # 400 of the 700 rows outside a truth set of 300: 0.57 shared
    study = Study.checked(config)
    assert CvErrorPlan.cells(study) == [("synth_cooccur", 100), ("synth_rare", 100)]
    assert [(d, m, round(o, 3)) for d, m, o in CvErrorPlan.left_out(study)] == [("synth_cooccur", 400, 0.571),
                                                                               ("synth_rare", 400, 0.571)]
    assert CvErrorPlan(study).verdict_setup()["left_out"] == CvErrorPlan.left_out(study)
    assert CvErrorPlan.notes(study)[0] == ("not run: synth_cooccur at m = 400 (two samples would share 0.57 of their "
                                           "rows on average, above cv_error.max_overlap 0.5)")
    config["cv_error"]["sizes"] = [400]
    with pytest.raises(StratbenchError, match=r"dataset 'synth_cooccur' has 1000 examples: after its truth set of 300 "
                                              r"\(cv_error.truth_size\), 700 rows are left, too few for a development "
                                              r"sample of 400 sharing at most 0.5"):
        Study.checked(config)
    config["cv_error"]["sizes"] = [100]
    config["cv_error"]["controls"] = ["random"]  # the baseline cannot be its own control
    with pytest.raises(StratbenchError, match="cv_error.controls 'random' is not one of the stratifiers other than"):
        Study.checked(config)
    config["cv_error"]["controls"] = []
    with pytest.raises(StratbenchError, match="a cv_error study needs 2 or more CV repeats of each sample"):
        Study.checked({**config, "repeats": 1})
    config["cv_error"]["baseline"] = "nope"
    with pytest.raises(StratbenchError, match="cv_error.baseline 'nope'"):
        Study.checked(config)


def test_a_control_of_the_baselines_class_draws_from_its_own_stream_every_other_from_the_shared_one():
    from stratbench.study.plans import CvErrorPlan

    study = Study.checked(yaml.safe_load((REPO / "config" / "cv_error_quick.yaml").read_text()))
    assert CvErrorPlan(study).streams() == {"random": None, "kfold": None, "random_b": "random_b", "iterative": None,
                                            "sois": None, "hybrid": None}


@pytest.mark.workflow
def test_the_quick_does_it_matter_study_end_to_end(tmp_path):
    config = yaml.safe_load((REPO / "config" / "cv_error_quick.yaml").read_text())
    result = run_snakemake(tmp_path, config, "--cores", "2")
    assert result.returncode == 0, result.stderr[-3000:]
    out = tmp_path / "results" / "cv_error_quick"
    heights = figure_heights(out)  # every figure of the study fits a page (figures.MAX_HEIGHT)
    assert len(heights) == 4 and max(heights.values()) <= MAX_HEIGHT + 0.01, heights
    redrawn = tmp_path / "redrawn.png"  # `stratbench figure` redraws the study's figures byte for byte
    for name, subject, stem in (("cv_error_decomposition", "part_mean", "cv_error_decomposition_part_mean"),
                                ("cv_error_model_choice", "", "cv_error_model_choice")):
        assert main(["figure", name, "--configfile", str(tmp_path / "config.yaml"), "--directory", str(tmp_path),
                     *(["--subject", subject] if subject else []), "--out", str(redrawn)]) == 0
        assert redrawn.read_bytes() == (out / "figures" / f"{stem}.png").read_bytes(), name
    errors = pd.read_csv(out / "tables" / "cv_error.csv")
    cv = config["cv_error"]
    n_cells = len(config["datasets"]) * len(cv["sizes"]) * len(cv["n_splits"]) * len(cv["learners"]) * 6 * 2
    assert len(errors) == n_cells * len(config["stratifiers"])
    assert (errors[errors["stratifier"] == "kfold"]["split_variance"] == 0).all()
    assert np.allclose(errors["mse"], errors["bias2"] + errors["split_variance"] + errors["sample_term"])
    # a row of the table recomputed from the jobs' files
    stats = pd.read_csv(out / "cv_error" / "synth_rare" / "m100" / "stats" / "iterative.csv")
    truth = pd.read_csv(out / "cv_error" / "synth_rare" / "m100" / "truth.csv")
    e = stats[(stats["k"] == 3) & (stats["learner"] == "ridge") & (stats["measure"] == "macro_f1")
              & (stats["estimator"] == "pooled")].set_index("sample")
    t = truth[(truth["learner"] == "ridge") & (truth["measure"] == "macro_f1") & (truth["target"] == "err_xy")
              & (truth["k"] == 3)].set_index("sample")["truth"]
    row = errors[(errors["dataset"] == "synth_rare") & (errors["m"] == 100) & (errors["k"] == 3)
                 & (errors["learner"] == "ridge") & (errors["measure"] == "macro_f1") & (errors["estimator"] == "pooled")
                 & (errors["stratifier"] == "iterative")].iloc[0]
    J = config["repeats"]
    assert row["bias"] == pytest.approx((e["mean"] - t).mean())
    assert row["split_variance"] == pytest.approx(e["variance"].mean() * J / (J - 1))
    assert row["overlap"] == pytest.approx(100 / 700)
    # the paired table covers every stratifier but the baseline in every cell; the controls are marked and out of
    # the family, whose q is at least its p
    paired = pd.read_csv(out / "tables" / "cv_error_paired.csv")
    assert len(paired) == n_cells * (len(config["stratifiers"]) - 1)
    assert set(paired[paired["control"]]["stratifier"]) == set(cv["controls"]) and paired[paired["control"]]["q"].isna().all()
    family = paired[~paired["control"]]
    assert (family["q"] >= family["p"] - 1e-12).all() and (family["q_by"] >= family["q"] - 1e-12).all()
    assert (paired["mse_ratio_low"] <= paired["mse_ratio_high"]).all()
    controls = pd.read_csv(out / "tables" / "cv_error_controls.csv")
    assert set(controls["stratifier"]) == {"kfold", "random_b"} and (controls["tests"] > 0).all()
    # every table and the page recomputed from the published rows, byte for byte
    again = tmp_path / "again"
    assert main(["cv-error-tables", "--configfile", str(tmp_path / "config.yaml"), "--inputs",
                 str(out / "tables" / "cv_error_inputs"), "--out", str(again)]) == 0
    from stratbench.cv_error.publish import PAGE, TABLE_FILES

    for name in TABLE_FILES.values():
        assert (again / name).read_bytes() == (out / "tables" / name).read_bytes(), name
    verdict_text = (out / "report" / "does_it_matter.md").read_text()
    assert (again / PAGE).read_text() == verdict_text
    # the verdict states the tables' numbers and names the baseline the config names; every number in it is in a
    # published table or the config, and a number that is not is found
    from stratbench.cv_error.verdict import unpublished_numbers

    published = [pd.read_csv(out / "tables" / TABLE_FILES[n]) for n in ("summary", "headline", "datasets", "controls")]
    assert unpublished_numbers(verdict_text, published, config) == []
    assert unpublished_numbers(verdict_text.replace("the baseline is", "7.77 the baseline is"), published,
                               config) == ["7.77"]
    assert verdict_text.startswith("## Does it matter?") and "the baseline is `random`" in verdict_text
    assert f"Of the {len(paired)} tests, {int(paired['control'].sum())} are controls'" in verdict_text
    assert "median correlation" not in verdict_text
    for name in ("cv_error_decomposition_pooled", "cv_error_decomposition_part_mean", "cv_error_count_model",
                 "cv_error_model_choice"):
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
    config["cv_error"]["controls"] = []
    study = Study.checked(config)
    seconds = calibrate_cv_error(study, "synth_rare", study.load_dataset("synth_rare"), log=lambda *a: None)
    assert set(seconds) == {"truth", "random", "iterative"}
    assert all(set(by_m) == {100, 200} and all(v > 0 for v in by_m.values()) for by_m in seconds.values())


def test_the_published_page_and_tables_are_what_the_code_makes_from_the_published_rows(tmp_path):
    """docs/published/cv_error_quick: every table and the page recomputed from the rows published beside them, and
    every number of the page in a published table or the config. The tables' numbers agree to 1e-9 (relative): the
    other Pythons' legs' scipy builds give the intervals' last digits otherwise (byte for byte with the same
    libraries: the quick study's own test); the page, whose numbers have three digits, the same text."""
    from stratbench.cv_error.publish import PAGE, TABLE_FILES
    from stratbench.cv_error.verdict import unpublished_numbers

    published = REPO / "docs" / "published" / "cv_error_quick"
    assert main(["cv-error-tables", "--configfile", str(published / "config.yaml"), "--inputs",
                 str(published / "inputs"), "--out", str(tmp_path)]) == 0
    for name in TABLE_FILES.values():
        pd.testing.assert_frame_equal(pd.read_csv(tmp_path / name), pd.read_csv(published / name), check_exact=False,
                                      rtol=1e-9, atol=1e-12, obj=name)
    page = (published / PAGE).read_text()
    assert (tmp_path / PAGE).read_text() == page
    # a folder without the rows stops with one line naming the file
    assert main(["cv-error-tables", "--configfile", str(published / "config.yaml"), "--inputs", str(published),
                 "--out", str(tmp_path / "none")]) == 1
    assert (published / "report.md").read_text().endswith(page.partition("\n")[2].lstrip())  # the docs' copy
    tables = [pd.read_csv(published / TABLE_FILES[n]) for n in ("summary", "headline", "datasets", "controls")]
    assert unpublished_numbers(page, tables, yaml.safe_load((published / "config.yaml").read_text())) == []


def test_a_compressed_table_is_the_same_bytes_whatever_its_path_and_time(tmp_path):
    """gzip's header holds a time and a file name: write_csv leaves both out (the atomic write's temporary name and
    the clock made two runs' cv_error_inputs differ)."""
    import gzip
    import time

    from stratbench.io import write_csv

    frame = pd.DataFrame({"a": [1, 2], "b": [0.1, float("nan")]})
    write_csv(tmp_path / "one.csv.gz", frame)
    time.sleep(1.1)
    write_csv(tmp_path / "two.csv.gz", frame)
    assert (tmp_path / "one.csv.gz").read_bytes() == (tmp_path / "two.csv.gz").read_bytes()
    assert gzip.decompress((tmp_path / "one.csv.gz").read_bytes()) == b"a,b\n1,0.1\n2,\n"
    assert pd.read_csv(tmp_path / "two.csv.gz").equals(frame)
