"""Targets of every kind: a TargetTable's columns expanded into weighted indicators,
stratified on by every method, weights honoured by the methods that weigh columns, routed like groups; and the
k-fold classes' ``rare`` option."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from stratbench import StratbenchError, stratifiers
from stratbench.labels import TargetTable, as_label_matrix, with_strata
from stratbench.model_selection import (
    IterativeStratification,
    MultilabelStratifiedGroupKFold,
    MultilabelStratifiedKFold,
    MultilabelStratifiedParts,
    MultilabelStratifiedShuffleSplit,
    RepeatedMultilabelStratifiedKFold,
    train_validation_test_split,
)

WEIGHING = ("iterative", "sois", "optisplit_rld", "optisplit_dcp", "hybrid")


def mixed(n=300, labels=40, seed=2):
    rng = np.random.default_rng(seed)
    Y = (rng.random((n, labels)) < rng.uniform(0.02, 0.3, labels)).astype(np.int8)
    frame = pd.DataFrame({"site": rng.choice([f"s{i}" for i in range(8)], n), "age": rng.normal(40, 10, n),
                          "visits": rng.poisson(3, n), "smoker": rng.integers(0, 2, n)})
    return Y, frame


def test_each_kind_expands_as_the_module_states_on_a_hand_computed_table():
    table = TargetTable({"sex": ["f", "m", "f", "m", "f"], "age": [20.0, 30.0, 40.0, 50.0, 60.0],
                         "n": [0, 2, 2, 0, 1], "ill": [1, 0, 0, 1, 1]},
                        kinds={"sex": "multiclass", "age": "continuous", "n": "count", "ill": "labels"},
                        bins={"age": 2, "n": 3})
    out = table.expand()
    # age: the median 40 is the one inner edge (2 bins); n: 3 values ≤ 3 bins, a class per value; ill: itself
    assert out.names == ["sex=f", "sex=m", "age∈[-inf, 40)", "age∈[40, inf)", "n=0", "n=1", "n=2", "ill"]
    assert out.matrix.toarray().tolist() == [[1, 0, 1, 0, 1, 0, 0, 1], [0, 1, 1, 0, 0, 0, 1, 0],
                                             [1, 0, 0, 1, 0, 0, 1, 0], [0, 1, 0, 1, 1, 0, 0, 1],
                                             [1, 0, 0, 1, 0, 1, 0, 1]]
    assert out.columns == ["sex", "sex", "age", "age", "n", "n", "n", "ill"]
    np.testing.assert_array_equal(table.bin_edges()["age"], [40.0])
    # a count with more values than bins is binned by its quantiles; given edges are used as they are
    many = TargetTable({"n": np.arange(10)}, kinds={"n": "count"}, bins=2)
    assert many.expand().names == ["n∈[-inf, 4.5)", "n∈[4.5, inf)"]
    given = TargetTable({"x": [0.5, 1.5, 2.5, 9.0]}, kinds={"x": "continuous"}, bins={"x": [1.0, 2.0]})
    assert given.expand().matrix.toarray().argmax(axis=1).tolist() == [0, 1, 2, 2]
    assert repr(given) == "TargetTable(4 rows; x: continuous, edges [1.0, 2.0])"


@pytest.mark.parametrize(("data", "kinds", "extra", "says"), [
    ({"a": [1, 2]}, {"b": "labels"}, {}, "not a column"),
    ({"a": [1, 2]}, {"a": "ordinal"}, {}, "a kind is one of"),
    ({"a": [0, 2]}, {"a": "labels"}, {}, "declared labels but row 1 holds 2"),
    ({"a": [-1, 2]}, {"a": "count"}, {}, "a count is an integer ≥ 0"),
    ({"a": ["x", None]}, {"a": "multiclass"}, {}, "missing value in row 1"),
    ({"a": [1.0, np.nan]}, {"a": "continuous"}, {}, "missing or infinite value in row 1"),
    ({"a": ["x", "y"]}, {"a": "continuous"}, {}, "declare it multiclass"),
    ({"a": [1.0, 2.0]}, {"a": "continuous"}, {"weights": {"a": 0}}, "must be a number > 0"),
    ({"a": [1.0, 2.0]}, {"a": "continuous"}, {"bins": 1}, "at least 2 bins"),
    ({"a": [1.0, 2.0]}, {"a": "continuous"}, {"bins": {"b": 3}}, "bins names 'b', which kinds does not declare"),
    ({"a": [1.0, 2.0]}, {"a": "continuous"}, {"bins": [2.0, 1.0]}, "increasing finite edges"),
])
def test_a_table_that_cannot_mean_what_it_says_is_refused_naming_the_column(data, kinds, extra, says):
    with pytest.raises(StratbenchError, match=says):
        TargetTable(data, kinds=kinds, **extra).expand()


def test_an_undeclared_frame_or_a_length_mismatch_is_refused_never_guessed():
    Y, frame = mixed(30)
    with pytest.raises(StratbenchError, match="declare each column's kind"):
        next(MultilabelStratifiedKFold(3).split(None, Y, strata=frame))
    with pytest.raises(StratbenchError, match="inconsistent numbers of samples"):
        next(MultilabelStratifiedKFold(3).split(None, Y, strata=TargetTable(frame[:20], kinds={"site": "multiclass"})))


def test_strata_of_weight_one_split_as_their_indicators_appended_to_y_and_alone_without_y():
    """The table is its indicators: the same folds as those columns hstacked onto y, for every registered
    method (the published rules, no weights)."""
    Y, frame = mixed(120, 6)
    table = TargetTable(frame, kinds={"site": "multiclass", "age": "continuous", "visits": "count",
                                      "smoker": "labels"})
    stacked = sp.hstack([sp.csr_matrix(Y), table.expand().matrix], format="csr")
    for name in stratifiers.names():
        if stratifiers.resolve(name).needs_groups or name == "from_file":  # folds read from a file
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = stratifiers.get(name, n_splits=3, random_state=0).fold_ids(Y, strata=table)
            want = stratifiers.get(name, n_splits=3, random_state=0).fold_ids(stacked)
        np.testing.assert_array_equal(got, want, err_msg=name)
    alone = stratifiers.get("iterative", n_splits=3, random_state=0).fold_ids(None, strata=table)
    np.testing.assert_array_equal(alone, stratifiers.get("iterative", n_splits=3, random_state=0)
                                  .fold_ids(table.expand().matrix))


def _spread(folds, table, column):
    """Mean over folds of Σ_values |a fold's share of the value − its share in all rows| for ``column``."""
    out = table.expand()
    M = out.matrix.toarray()[:, [i for i, c in enumerate(out.columns) if c == column]]
    return np.mean([np.abs(M[folds == j].mean(axis=0) - M.mean(axis=0)).sum() for j in range(folds.max() + 1)])


@pytest.mark.parametrize("method", WEIGHING)
def test_a_heavier_column_keeps_its_distribution_better(method):
    """site (8 classes) at weight 10 against weight 1, beside 40 labels, 10 folds, 5 seeds: its values' shares
    per fold nearer their shares in the data (measured: IS 0.217 → 0.078, SOIS 0.300 → 0.171, optisplit rLD
    0.161 → 0.053, hybrid 0.115 → 0.082)."""
    Y, frame = mixed()
    spread = {}
    for weight in (1, 10):
        table = TargetTable(frame, kinds={"site": "multiclass"}, weights={"site": weight})
        spread[weight] = np.mean([_spread(stratifiers.get(method, n_splits=10, random_state=s).fold_ids(Y, strata=table),
                                          table, "site") for s in range(5)])
    assert spread[10] < 0.8 * spread[1], spread


def test_a_method_that_cannot_weigh_refuses_weights_naming_the_column_and_takes_weight_one():
    Y, frame = mixed(60, 4)
    heavy = TargetTable(frame, kinds={"site": "multiclass", "age": "continuous"}, weights={"age": 3})
    with pytest.raises(StratbenchError, match=r"LabelsetStratifier does not weigh columns, and strata weighs "
                                              r"\['age'\]: use a method that does \(hybrid, iterative"):
        stratifiers.get("labelset", n_splits=3, random_state=0).fold_ids(Y, strata=heavy)
    with pytest.raises(StratbenchError, match="rules='skmultilearn' takes labels in order of first appearance"):
        stratifiers.get("iterative", n_splits=3, random_state=0, rules="skmultilearn").fold_ids(Y, strata=heavy)
    plain = TargetTable(frame, kinds={"site": "multiclass"})
    assert len(stratifiers.get("labelset", n_splits=3, random_state=0).fold_ids(Y, strata=plain)) == 60


def test_every_splitter_takes_strata_and_scikit_learn_routes_them_like_groups():
    import sklearn
    from sklearn.dummy import DummyClassifier
    from sklearn.model_selection import cross_validate

    Y, frame = mixed(90, 5)
    table = TargetTable(frame, kinds={"site": "multiclass", "age": "continuous"}, weights={"age": 2})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sizes = {type(cv).__name__: [tuple(len(p) for p in split) for split in cv.split(None, Y, strata=table)]
                 for cv in (MultilabelStratifiedKFold(3, shuffle=True, random_state=0),
                            RepeatedMultilabelStratifiedKFold(3, n_repeats=2, random_state=0),
                            MultilabelStratifiedShuffleSplit(2, test_size=0.2, random_state=0),
                            MultilabelStratifiedParts(random_state=0))}
        assert sizes == {"MultilabelStratifiedKFold": [(60, 30)] * 3, "RepeatedMultilabelStratifiedKFold": [(60, 30)] * 6,
                         "MultilabelStratifiedShuffleSplit": [(72, 18)] * 2, "MultilabelStratifiedParts": [(72, 9, 9)]}
        groups = np.arange(90) // 3
        grouped = MultilabelStratifiedGroupKFold(3, random_state=0).fold_ids(Y, groups, table)
        assert all(len(set(grouped[groups == g])) == 1 for g in range(30))
        parts = train_validation_test_split(frame, y=None, strata=table, random_state=0)
        assert [len(p) for p in parts] == [72, 9, 9]
        cv = MultilabelStratifiedKFold(3, shuffle=True, random_state=0)
        want = [test.tolist() for _, test in cv.split(None, Y[:, 0], strata=table)]
        seen = []

        class Recording(MultilabelStratifiedKFold):
            def split(self, X=None, y=None, groups=None, strata=None):
                for train, test in super().split(X, y, groups, strata):
                    seen.append(test.tolist())
                    yield train, test

        with sklearn.config_context(enable_metadata_routing=True):
            cross_validate(DummyClassifier(), np.zeros((90, 1)), Y[:, 0],
                           cv=Recording(3, shuffle=True, random_state=0), params={"strata": table})
    assert seen == want  # y (the label the estimator learns) and the table, stratified on together
    with pytest.raises(StratbenchError, match="stratify on y alone: strata does not apply"):
        next(IterativeStratification(3, compat="skmultilearn").split(None, Y, strata=table))


def test_rare_guarantee_places_every_label_and_value_in_every_fold_or_refuses_warn_names_them_at_the_callers_line():
    rng = np.random.default_rng(0)
    Y = np.zeros((60, 3), dtype=np.int8)
    Y[:, 0] = rng.random(60) < 0.5
    Y[[1, 7, 8, 30, 41], 1] = 1  # 5 positives, 5 folds
    Y[[2, 3], 2] = 1  # 2 positives: cannot be in 5 folds
    table = TargetTable({"site": ["a"] * 55 + ["b"] * 5}, kinds={"site": "multiclass"})
    loose = MultilabelStratifiedKFold(5, method="random", random_state=3)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(loose.split(None, Y, strata=table))
    said = [w for w in caught if "no positive in some part" in str(w.message)]
    assert len(said) == 1 and said[0].filename == __file__, [str(w.message) for w in caught]
    assert "(test fold 0 … test fold 4)" in str(said[0].message) and "'2'" in str(said[0].message)
    sure = MultilabelStratifiedKFold(5, method="random", random_state=3, rare="guarantee")
    folds = sure.fold_ids(Y, strata=table)
    M = with_strata(as_label_matrix(Y), table)[0].toarray()
    for column in (0, 1, 4):  # label 1 (5 positives) and site=b (5 rows) in every fold
        assert all(M[folds == j, column].sum() >= 1 for j in range(5)), column
    assert np.bincount(folds).tolist() == np.bincount(loose.fold_ids(Y, strata=table)).tolist()
    with pytest.raises(StratbenchError, match="does not keep groups whole"):
        sure.fold_ids(Y, np.arange(60) // 2)
    with pytest.raises(StratbenchError, match="rare='guarantee' would move rows"):
        MultilabelStratifiedKFold(5, compat="iterstrat", rare="guarantee")
    with pytest.raises(StratbenchError, match="rare must be one of"):
        RepeatedMultilabelStratifiedKFold(5, rare="always")


def test_a_datasets_features_become_strata_by_name_or_index_and_a_missing_one_is_named():
    from stratbench.datasets import generate_synthetic
    from stratbench.datasets.core import feature_strata

    ds = generate_synthetic("g", examples=50, labels=3, features=4, cardinality=1.5, seed=1, centroids=2)
    table = feature_strata(ds, {"a": {"feature": "x0", "kind": "continuous", "bins": 2},
                                "b": {"feature": 3, "kind": "continuous", "weight": 2}})
    np.testing.assert_array_equal(table.data["a"], ds.X[:, 0])
    np.testing.assert_array_equal(table.data["b"], ds.X[:, 3])
    assert repr(table) == "TargetTable(50 rows; a: continuous, 2 quantile bins; b: continuous, 5 quantile bins, weight 2)"
    with pytest.raises(StratbenchError, match=r"dataset 'g': strata 'a' names feature 'age', which it does not have "
                                              r"\(4 features\)"):
        feature_strata(ds, {"a": {"feature": "age", "kind": "continuous"}})
    with pytest.raises(StratbenchError, match="has features 0…3"):
        feature_strata(ds, {"a": {"feature": 9, "kind": "continuous"}})


STRATA_STUDY = ("study: s\nseed: 1\nn_splits: 3\nrepeats: 1\nstratifiers: {{{methods}}}\n"
                "datasets: {{toy: {{synthetic: {{examples: 60, labels: 3, features: 4, cardinality: 1.2}},\n"
                "  strata: {{x0: {{feature: x0, kind: continuous, weight: {weight}}}}}}}}}\n")


@pytest.mark.parametrize(("methods", "weight", "says"), [
    ("iterative: {}, hybrid: {}", 2, None),
    ("iterative: {}, labelset: {}", 1, None),
    ("iterative: {}, labelset: {}", 2, r"config: strata \['toy.x0'\] weigh other than 1, and stratifiers \['labelset'\] "
                                       "do not weigh columns"),
])
def test_stratbench_check_takes_a_datasets_strata_and_refuses_weights_a_stratifier_cannot_honour(tmp_path, capsys,
                                                                                                methods, weight, says):
    from stratbench.__main__ import main

    path = tmp_path / "study.yaml"
    path.write_text(STRATA_STUDY.format(methods=methods, weight=weight))
    assert main(["check", "--configfile", str(path)]) == (0 if says is None else 1)
    if says:
        assert re.search(says, capsys.readouterr().err)


@pytest.mark.workflow
def test_a_studys_strata_are_split_on_and_measured_per_column(tmp_path):
    """A declaration as the config example's, on a generated dataset: every make_folds job splits on the labels and
    the feature, and writes LD[x0] and FLZ[x0] for each stratifier and repeat; no bin misses a fold, and IS at
    weight 3 keeps the bins' shares within LD 0.01."""
    from conftest import run_snakemake

    config = {"study": "s", "seed": 1, "n_splits": 3, "repeats": 2,
              "datasets": {"toy": {"synthetic": {"examples": 90, "labels": 4, "features": 3, "cardinality": 1.5,
                                                 "seed": 2, "centroids": 2},
                                   "strata": {"x0": {"feature": "x0", "kind": "continuous", "bins": 3, "weight": 3}}}},
              "stratifiers": {"iterative": {}, "optisplit_rld": {}}}
    result = run_snakemake(tmp_path, config, "--cores", "2", "results/s/tables/fold_quality_summary.csv")
    assert result.returncode == 0, result.stderr[-3000:]
    summary = pd.read_csv(tmp_path / "results/s/tables/fold_quality_summary.csv")
    shown = summary[summary["measure"].isin(["LD[x0]", "FLZ[x0]"])]
    assert len(shown) == 4 and set(shown["repeats"]) == {2}
    assert shown[shown["measure"] == "FLZ[x0]"]["mean"].max() == 0  # every bin in every fold
    iterative_ld = shown[(shown["stratifier"] == "iterative") & (shown["measure"] == "LD[x0]")]["mean"].item()
    assert iterative_ld < 0.01, iterative_ld  # 30 rows of each bin dealt 10 to a fold


def test_the_mixed_target_benchmark_divides_by_randoms_ld_per_dataset_and_averages_the_ratios():
    """benchmarks/mixed_targets.py's table, on a hand-made summary: method a has LD 0.5× and 2× random's on two
    datasets (mean 1.25), b 0.25× on both (0.25)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import mixed_targets

    rows = [("d1", "random", 0.4), ("d1", "a", 0.2), ("d1", "b", 0.1), ("d2", "random", 0.1), ("d2", "a", 0.2),
            ("d2", "b", 0.025)]
    summary = pd.DataFrame([dict(dataset=d, set="feature", method=m, label_LD=v, metadata_LD=v) for d, m, v in rows])
    ratio = mixed_targets.relative(summary, "label_LD")
    assert ratio.round(6).to_dict() == {("d1", "random"): 1.0, ("d1", "a"): 0.5, ("d1", "b"): 0.25,
                                        ("d2", "random"): 1.0, ("d2", "a"): 2.0, ("d2", "b"): 0.25}
    assert mixed_targets._mean(ratio.xs("a", level="method")) == pytest.approx(1.25)
    assert mixed_targets._mean(ratio.xs("b", level="method")) == pytest.approx(0.25)


def test_the_shuffle_split_guarantees_rare_labels_on_both_sides_or_names_them_once_per_split():
    rng = np.random.default_rng(0)
    Y = np.zeros((60, 3), dtype=np.int8)
    Y[:, 0] = rng.random(60) < 0.5
    Y[[1, 7], 1] = 1  # two positives: one for each side
    Y[2, 2] = 1  # one positive: on one side only, whatever the split
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        list(MultilabelStratifiedShuffleSplit(2, test_size=0.2, random_state=0, method="random").split(None, Y))
    said = [w for w in caught if "no positive in some part (train, test)" in str(w.message)]
    assert len(said) == 2 and all(w.filename == __file__ for w in said)  # one per split, at this line
    sure = MultilabelStratifiedShuffleSplit(5, test_size=0.2, random_state=0, method="random", rare="guarantee")
    for train, test in sure.split(None, Y):
        assert (len(train), len(test)) == (48, 12)
        assert Y[train, 1].sum() == 1 and Y[test, 1].sum() == 1
    with pytest.raises(StratbenchError, match="no train_size that leaves rows out"):
        next(MultilabelStratifiedShuffleSplit(2, test_size=0.2, train_size=0.5, rare="guarantee").split(None, Y))
