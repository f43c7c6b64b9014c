"""Cases a user meets (reliability round 2): repeated holdout that repeats, statistics that never
overclaim on small N, the label matrices users have, config errors before any job, SS's sizes."""
import copy
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from stratbench import StratbenchError, stratifiers
from stratbench.datasets import generate_synthetic
from stratbench.datasets.core import MultilabelDataset, save_dataset
from stratbench.labels import as_label_matrix
from stratbench.stats import compare, exact_friedman_p, friedman, nemenyi_too_few, with_all_group
from stratbench.study import Study
from stratbench.study.config import read_config
from stratbench.tables import ranks as paper_tables

pytestmark = pytest.mark.filterwarnings("ignore:.*fewer positives than:UserWarning")
SEEDED = [n for n in stratifiers.names() if stratifiers.resolve(n).seeded and not stratifiers.resolve(n).needs_groups]
STRATIFIED = ["iterative", "sois", "hybrid"]  # methods that balance every label's share


@pytest.fixture(scope="module")
def emotions_shaped():
    """A label matrix of emotions' shape (593 × 6, about 1.9 labels an example) from the generator."""
    return sp.csr_matrix(generate_synthetic("shaped", examples=593, labels=6, features=4, cardinality=1.9,
                                            dependence=0.3, seed=11).Y)


# --- 1. repeated holdout: independent draws -------------------------------------------------------

@pytest.mark.parametrize("name", SEEDED)
def test_repeated_holdout_gives_a_distinct_test_set_every_repeat(name, emotions_shaped):
    Y = emotions_shaped
    tests = [t for _, t in stratifiers.get(name, n_splits=10, test_size=0.2, random_state=0).split(None, Y)]
    assert len({t.tobytes() for t in tests}) == 10
    again = [t for _, t in stratifiers.get(name, n_splits=10, test_size=0.2, random_state=0).split(None, Y)]
    assert all(np.array_equal(a, b) for a, b in zip(tests, again))  # still deterministic


def _share_error(name, Y, seed=0):
    """Mean over 10 repeats of the largest |positives of a label in the test set − 0.2 × its positives|."""
    cv = stratifiers.get(name, n_splits=10, test_size=0.2, random_state=seed)
    totals = np.asarray(Y.sum(axis=0)).ravel()
    return np.mean([np.abs(np.asarray(Y[t].sum(axis=0)).ravel() - 0.2 * totals).max() for _, t in cv.split(None, Y)])


@pytest.mark.parametrize("name", STRATIFIED)
def test_repeats_still_stratify_every_label(name, emotions_shaped):
    """Each repeat is still a stratified split: its worst label is on average within 2.5 positives of
    its 20% (IS 1.9, SOIS 1.6, hybrid 0.8 here), less than half of random's (4.7)."""
    error, baseline = _share_error(name, emotions_shaped), _share_error("random", emotions_shaped)
    assert error <= 2.5 and error < 0.5 * baseline and baseline > 4.0


def test_iterative_holdout_on_two_subsets_no_longer_repeats_one_split():
    """The case of the issue: a 40 × 3 y gave IS 4 distinct test sets of 10 and SOIS 3."""
    Y = (np.random.default_rng(0).random((40, 3)) < 0.4).astype(int)
    for name in ("iterative", "sois"):
        tests = [t for _, t in stratifiers.get(name, n_splits=10, test_size=0.25, random_state=0).split(None, Y)]
        assert len({t.tobytes() for t in tests}) == 10, name


def test_kfold_ignores_its_seed_and_repeats_its_one_holdout():
    Y = np.eye(4, dtype=int).repeat(5, axis=0)
    ids = stratifiers.get("kfold", n_splits=3, test_size=0.25, random_state=0).holdout_ids(Y)
    assert (ids == ids[0]).all() and ids[0].tolist() == [0] * 15 + [1] * 5


# --- 2. honest tests of significance --------------------------------------------------------------

def test_two_datasets_ranking_two_methods_alike_are_not_significant():
    """2 × 2, both datasets rank a before b: χ²_F = 2 (p 0.157); F_F's denominator is 0, so F is
    undefined (was inf, p 0 printed bold); the exact p is 2/4 = 0.5."""
    r = friedman(pd.DataFrame({"a": [0.1, 0.2], "b": [0.3, 0.4]}))
    assert r.chi2 == pytest.approx(2.0) and r.chi2_p == pytest.approx(0.1573, abs=1e-4)
    assert np.isnan(r.f) and np.isnan(r.f_p)
    assert r.exact_p == pytest.approx(0.5) and r.p == pytest.approx(0.5)
    assert "F undefined" in r.note and "exact" in r.note


def test_exact_p_by_hand_and_by_enumeration():
    # 3 blocks × 3 methods ranked alike: Σ R_j² = 3² + 6² + 9² is the largest of 6³ = 216 orderings,
    # reached by the 6 that rank alike in every block: p = 6/216
    assert exact_friedman_p(np.array([[1, 2, 3]] * 3)) == pytest.approx(6 / 216)
    # with a tie: block 2 ranks (1.5, 1.5) in either order, so only block 1 varies: p = 1
    assert exact_friedman_p(np.array([[1, 2], [1.5, 1.5]])) == pytest.approx(1.0)
    rng = np.random.default_rng(4)
    ranks = pd.DataFrame(rng.integers(0, 3, (4, 3)).astype(float)).rank(axis=1).to_numpy()
    import itertools
    rows = [sorted(set(itertools.permutations(r))) for r in ranks]
    observed = (ranks.sum(0) ** 2).sum()
    sums = [(np.sum(c, axis=0) ** 2).sum() for c in itertools.product(*rows)]
    assert exact_friedman_p(ranks) == pytest.approx(np.mean(np.array(sums) >= observed - 1e-9))


def test_nemenyi_too_few_datasets_rule():
    """CD > k − 1 means no pair can differ: k = 2 at α = 0.05 needs N ≥ 4 (CD = 1.96/√N)."""
    assert nemenyi_too_few(2, 3) and not nemenyi_too_few(2, 4)
    assert nemenyi_too_few(5, 2) and not nemenyi_too_few(5, 5)  # CD(5, 2) = 4.31, CD(5, 5) = 2.73


def test_the_tests_table_never_bolds_what_n_cannot_carry():
    summary = pd.DataFrame([(d, s, "br", "m", 0.0, v) for d, vals in {"d1": [0.1, 0.3], "d2": [0.2, 0.4]}.items()
                            for s, v in zip("ab", vals)],
                           columns=["dataset", "stratifier", "classifier", "measure", "mean", "std"])
    _, tests, _ = compare(summary, "std", ["classifier", "measure"], with_all_group(["d1", "d2"], None))
    row = tests.iloc[0]
    assert not row["significant"] and row["p"] == pytest.approx(0.5) and row["nemenyi_too_few"]
    assert "N too few" in row["note"]
    markdown = paper_tables.tests_table(tests, "t", "tests", ["classifier", "measure"]).markdown()
    assert "**" not in markdown and "< 0.001" not in markdown and "0.500" in markdown and "N too few" in markdown


def test_cd_diagram_panel_states_n_and_what_it_cannot_support():
    from stratbench.figures import panel_summary

    row = pd.Series({"datasets": 2, "exact_p": 0.5, "F_p": np.nan, "p": 0.5, "alpha": 0.05, "nemenyi_too_few": True})
    assert panel_summary(row).replace("\u00a0", " ") == ("N = 2 datasets, Friedman p (exact permutation) = 0.5, α = 0.05; "
                                                         "N too few for Nemenyi")


# --- 3. the label matrices users have --------------------------------------------------------------

Y = (np.random.default_rng(0).random((40, 3)) < 0.4).astype(int)


@pytest.mark.parametrize("y", [
    pd.DataFrame(Y).astype(pd.SparseDtype(int, 0)),
    pd.DataFrame(Y).astype(pd.SparseDtype(float, 0.0)),
    Y.astype(np.float16),
    np.matrix(Y),
    pd.DataFrame(Y).astype("category"),
], ids=["sparse-frame", "sparse-float-frame", "float16", "np.matrix", "categorical-0/1"])
def test_accepted_inputs_give_the_folds_of_the_plain_int_array(y):
    expected = stratifiers.get("iterative", n_splits=3, random_state=0).fold_ids(Y)
    np.testing.assert_array_equal(stratifiers.get("iterative", n_splits=3, random_state=0).fold_ids(y), expected)


def test_get_dummies_sparse_is_its_dense_matrix():
    dummies = pd.get_dummies(pd.Series(list("abcab") * 8), sparse=True)
    np.testing.assert_array_equal(as_label_matrix(dummies).toarray(), dummies.sparse.to_dense().to_numpy(dtype=int))


@pytest.mark.parametrize("y", [
    [{"sport", "news"}, {"news"}] * 5,
    [["sport", "news"], ["news"]] * 5,
    pd.DataFrame({"topic": pd.Categorical(["sport", "news"] * 5)}),
], ids=["label-sets", "label-lists", "categorical-names"])
def test_label_names_are_refused_naming_multilabelbinarizer(y):
    with pytest.raises(ValueError, match=r"^y.*MultiLabelBinarizer") as info:
        stratifiers.get("iterative", n_splits=2, random_state=0).fold_ids(y)
    assert "\n" not in str(info.value)


def test_values_are_printed_as_they_are_and_none_is_named():
    with pytest.raises(ValueError, match=r"label column 0 is not 0/1 \(value 0\.9999999 at row 0\)"):
        as_label_matrix(np.array([[0.9999999, 0.0], [1.0, 1.0]]))
    with pytest.raises(ValueError, match="y is None"):
        stratifiers.get("iterative", n_splits=2).fold_ids(None)
    with pytest.raises(ValueError, match="needs the label matrix y"):
        next(stratifiers.get("iterative", n_splits=2).split(None, None))


@pytest.mark.parametrize("params, message", [
    ({"random_state": -1}, r"random_state=-1: a seed must be a non-negative integer"),
    ({"random_state": 1.5}, r"random_state must be None, an int"),
    ({"n_splits": 1}, r"n_splits=1: cross-validation needs at least one train/test split: n_splits=2 or more"),
    ({"n_splits": 2.5}, r"n_splits must be an integer, got 2.5 of type float"),
    ({"n_splits": 0, "test_size": 0.2}, r"n_splits=0: cross-validation needs n_splits ≥ 1"),
    ({"test_size": 1.5}, r"test_size must be a share in \(0, 1\) or a count ≥ 1, got 1.5"),
    ({"test_size": 0}, r"test_size=0: a count of examples must be ≥ 1"),
    ({"train_size": -0.2}, r"train_size must be a share in \(0, 1\)"),
    ({"fold_shares": [1, -1]}, r"fold_shares must be 2 or more positive numbers"),
])
def test_parameters_are_checked_when_the_splitter_is_built(params, message):
    for name in ("iterative", "random"):
        with pytest.raises(ValueError, match=message):
            stratifiers.get(name, **params)


def test_as_label_matrix_never_modifies_the_callers_matrix():
    explicit_zero = sp.csr_matrix((np.array([1, 0, 1], dtype=np.int8), np.array([0, 1, 0]), np.array([0, 2, 3])),
                                  shape=(2, 2))
    unsorted = sp.csr_matrix((np.array([1, 1], dtype=np.int8), np.array([1, 0]), np.array([0, 2, 2])), shape=(2, 2))
    duplicated = sp.csr_matrix((np.array([1, 1], dtype=np.int8), np.array([0, 0]), np.array([0, 2, 2])), shape=(2, 2))
    for A, expected in ((explicit_zero, [[1, 0], [1, 0]]), (unsorted, [[1, 1], [0, 0]])):
        before = (A.data.copy(), A.indices.copy(), A.indptr.copy())
        assert as_label_matrix(A).toarray().tolist() == expected
        for a, b in zip(before, (A.data, A.indices, A.indptr)):
            np.testing.assert_array_equal(a, b)
    before = duplicated.data.copy()
    with pytest.raises(ValueError, match="not 0/1 .value 2"):  # duplicates sum, as scipy reads them
        as_label_matrix(duplicated)
    np.testing.assert_array_equal(duplicated.data, before)


# --- 4. the config, checked before any job --------------------------------------------------------

def test_a_yaml_syntax_error_names_the_file_line_and_column(tmp_path):
    path = tmp_path / "study.yaml"
    path.write_text("study: s\nseed: 1\n  n_splits: 3\n")
    with pytest.raises(ValueError, match=r"study\.yaml, line 3, column 11: not valid YAML: mapping values are not allowed"):
        read_config(path)
    path.write_text("- a list\n")
    with pytest.raises(ValueError, match="a study is a YAML mapping"):
        read_config(path)


def test_stratbench_check_reads_and_checks_a_study(tmp_path, capsys):
    from stratbench.__main__ import main

    good = tmp_path / "good.yaml"
    good.write_text("study: s\nseed: 1\nn_splits: 3\nrepeats: 2\nstratifiers: {iterative: {}}\n"
                    "datasets: {toy: {synthetic: {examples: 30, labels: 3, features: 2, cardinality: 1.2}}}\n")
    assert main(["check", "--configfile", str(good)]) == 0
    assert "study 's' is valid: 1 datasets, 1 stratifiers, 0 classifiers, 3-fold CV × 2 repeats" in capsys.readouterr().out
    bad = tmp_path / "bad.yaml"
    bad.write_text(good.read_text().replace("study: s", "study: '..'"))
    assert main(["check", "--configfile", str(bad)]) == 1
    assert "config: study: '..' does not match" in capsys.readouterr().err


@pytest.mark.parametrize("wrong, says", [
    ("n_split: 3", "line 3, column 1: config: 'n_splits' is a required property; 'n_split' is written, which the config "
                   "does not read: did you mean 'n_splits'?"),
    ("n_splits: 3\nsead: 1", "line 4, column 1: config: Additional properties are not allowed ('sead' was unexpected); "
                              "did you mean 'seed'?"),
    ("n_splits: 3\nstratifiers: {iterativ: {}}", "line 4, column 15: config: stratifier 'iterativ': unknown stratifier "
                                                  "'iterativ'; did you mean 'iterative'?"),
    ("n_splits: 3\nstratifiers: {mine: {class: hybird}}", "line 4, column 22: config: stratifier 'mine': unknown "
                                                          "stratifier 'hybird'; did you mean 'hybrid'?"),
])
def test_a_misspelled_config_key_or_method_is_named_where_it_was_written(tmp_path, capsys, wrong, says):
    """The key or name as written, its line and column, and the nearest valid one: a misspelled required key said
    only "'n_splits' is a required property", an unknown stratifier had no line, column or suggestion."""
    from stratbench.__main__ import main

    path = tmp_path / "study.yaml"
    text = ("study: s\nseed: 1\n" + wrong + "\nrepeats: 2\n"
            "datasets: {toy: {synthetic: {examples: 30, labels: 3, features: 2, cardinality: 1.2}}}\n")
    if "stratifiers" not in wrong:
        text += "stratifiers: {iterative: {}}\n"
    path.write_text(text)
    assert main(["check", "--configfile", str(path)]) == 1
    assert f"study.yaml, {says}" in capsys.readouterr().err


def test_classifier_parameters_are_checked_with_their_own_values():
    config = {"study": "s", "seed": 1, "n_splits": 3, "repeats": 1, "stratifiers": {"random": {}},
              "datasets": {"toy": {"synthetic": {"examples": 30, "labels": 3, "features": 2, "cardinality": 1.2}}},
              "classifiers": {"lp": {"params": {"n_estimators": 0}}}}
    with pytest.raises(ValueError, match=r"classifier 'lp' .*'n_estimators' parameter"):
        Study.checked(config)
    config["classifiers"]["lp"]["params"]["n_estimators"] = 300  # valid: accepted (a 2-tree toy fit)
    assert Study.checked(config).classifiers["lp"]["params"]["n_estimators"] == 300


def test_a_label_never_positive_is_warned_of_at_import(tmp_path):
    ds = MultilabelDataset("mine", np.zeros((3, 1)), sp.csr_matrix([[1, 0, 0], [1, 0, 1], [0, 0, 1]]),
                           ["a", "b", "c"], ["x"])
    with pytest.warns(UserWarning, match=r"dataset 'mine': 1 of 3 labels are never positive \(b\)"):
        save_dataset(ds, tmp_path / "mine.npz")


# --- 5. SS and small counts ------------------------------------------------------------------------

def test_ss_warns_of_a_side_far_from_its_size_and_exact_sizes_repairs_it():
    """test_size=1 at n = 1,000: SS's swaps gave 111–172 test rows; now a warning names it, and
    exact_sizes=True gives the one row asked for, with every label's share close to SS's."""
    Y = sp.csr_matrix((np.random.default_rng(0).random((1000, 20)) < 0.1).astype(int))
    with pytest.warns(UserWarning, match=r"StratifiedSampling: the test set holds \d+ examples where 1 were asked"):
        ids = stratifiers.get("ss", n_splits=1, test_size=1, random_state=0).fold_ids(Y)
    assert (ids == 1).sum() > 50
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ids = stratifiers.get("ss", n_splits=3, test_size=1, random_state=0, exact_sizes=True).holdout_ids(Y)
    assert (ids == 1).sum(axis=1).tolist() == [1, 1, 1]


def test_ss_exact_sizes_in_k_fold_keeps_every_fold_at_its_share(emotions_shaped):
    folds = stratifiers.get("ss", n_splits=10, random_state=0, exact_sizes=True).fold_ids(emotions_shaped)
    assert sorted(np.bincount(folds).tolist()) == [59] * 7 + [60] * 3


@pytest.mark.mirror
def test_ss_one_example_fold_on_medical_is_warned_of(mulan_cache):
    Y = mulan_cache("medical").Y
    with pytest.warns(UserWarning, match=r"StratifiedSampling: the test fold \d holds 1 examples where 97.8 were asked"):
        folds = stratifiers.get("ss", n_splits=10, random_state=0).fold_ids(Y)
    assert np.bincount(folds).min() == 1
    repaired = stratifiers.get("ss", n_splits=10, random_state=0, exact_sizes=True).fold_ids(Y)
    assert np.bincount(repaired).min() == 97 and np.bincount(repaired).max() == 98


def test_read_config_passes_a_valid_file(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text("study: s\n")
    assert read_config(path) == {"study": "s"}
    with pytest.raises(StratbenchError, match="cannot read the study"):
        read_config(tmp_path / "missing.yaml")


def test_grouped_datasets_are_checked_before_any_job(tmp_path):
    """A grouped dataset outside a grid study, a stratifier that would leak its groups, and a group
    baseline given ungrouped data: each stops with one line naming it."""
    base = {"study": "g", "seed": 1, "n_splits": 3, "repeats": 1, "classifiers": {},
            "datasets": {"grouped": {"grouped_labels": {"groups": 30}}}, "stratifiers": {"iterative": {}}}
    with pytest.raises(StratbenchError, match="dataset 'grouped' is grouped: grouped datasets are split by a grid"):
        Study.checked(dict(base))
    grid = {**{k: v for k, v in base.items() if k not in ("n_splits", "classifiers")}, "kind": "grid",
            "grid": {"n_splits": [3]}}
    Study.checked(dict(grid))
    with pytest.raises(StratbenchError, match="stratifier 'sois' does not split by groups"):
        Study.checked({**grid, "stratifiers": {"sois": {}}})
    ungrouped = {**grid, "datasets": {"toy": {"random_labels": {"examples": 50, "labels": 3, "density": 0.3}}},
                 "stratifiers": {"group_kfold": {}}}
    with pytest.raises(StratbenchError, match="'group_kfold' splits grouped data only, and dataset 'toy' has no groups"):
        Study.checked(ungrouped)
    with pytest.raises(StratbenchError, match="has 2 kinds"):
        Study.checked({**grid, "datasets": {"x": {"mulan": "emotions", "synthetic": {
            "examples": 10, "labels": 2, "features": 2, "cardinality": 1}}}})


def test_a_methods_parameter_check_is_remembered_until_its_parameters_change(tmp_path, monkeypatch):
    """The toy fit that checks a method's parameters runs once per working folder (planning a study again
    costs none), and again when the parameters change."""
    from stratbench.study import config as config_module

    monkeypatch.chdir(tmp_path)
    study = {"study": "s", "seed": 1, "n_splits": 3, "repeats": 1,
             "stratifiers": {"iterative": {"params": {"label_ties": "lowest_index"}}},
             "datasets": {"toy": {"synthetic": {"examples": 30, "labels": 3, "features": 2, "cardinality": 1.2}}}}
    tried = []
    real = config_module._try_method
    monkeypatch.setattr(config_module, "_try_method", lambda *a: (tried.append(a[2]), real(*a)))
    Study.checked(copy.deepcopy(study))
    Study.checked(copy.deepcopy(study))
    assert tried == ["iterative"] and len(list((tmp_path / ".snakemake" / "stratbench" / "checked").iterdir())) == 1
    study["stratifiers"]["iterative"]["params"]["label_ties"] = "random"
    Study.checked(copy.deepcopy(study))
    assert tried == ["iterative", "iterative"]


def test_a_study_kind_refuses_the_keys_it_does_not_read():
    """A grid study given a benchmark's n_splits or classifiers, a cv_error study given a grid, a benchmark given
    cv_error: each stops with the key and whose it is; a grid's k are its own (n_splits is their largest)."""
    base = {"study": "k", "seed": 1, "repeats": 1, "stratifiers": {"iterative": {}},
            "datasets": {"toy": {"random_labels": {"examples": 60, "labels": 3, "density": 0.3}}}}
    grid = {**base, "kind": "grid", "grid": {"n_splits": [3, 5]}}
    assert Study.checked(dict(grid)).n_splits == 5
    with pytest.raises(StratbenchError, match=r"config: n_splits: a grid study does not read it \(a grid study's k are "
                                              r"grid.n_splits\); remove it"):
        Study.checked({**grid, "n_splits": 5})
    with pytest.raises(StratbenchError, match=r"config: classifiers: a grid study does not read it"):
        Study.checked({**grid, "classifiers": {"br": {}}})
    with pytest.raises(StratbenchError, match=r"config: cv_error: a benchmark study does not read it .*; remove it or "
                                              r"set kind: cv_error"):
        Study.checked({**base, "n_splits": 3, "cv_error": {"sizes": [20], "samples": 2}})
    with pytest.raises(StratbenchError, match=r"config: 'grid' is a required property"):
        Study.checked({**base, "kind": "grid"})
    with pytest.raises(StratbenchError, match=r"config: 'n_splits' is a required property"):
        Study.checked(dict(base))
