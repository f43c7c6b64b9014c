"""The conformance certificate (stratbench.model_selection.conformance, `stratbench certify`): the marks of a few splitters, ours,
the classes users import and the peers', every ✘ shown again by its reproducer, and what it cannot check said."""
import sys

import numpy as np
import pytest

from stratbench import model_selection
from stratbench.model_selection import conformance

PROPERTIES = [p for p in conformance.PROPERTIES if p != "real_sizes"]
pytestmark = pytest.mark.xdist_group("test_conformance")  # the marks (results) made once, on one worker


@pytest.fixture(scope="module")
def results():
    wanted = {"random", "iterative", "sois", "hybrid", "kfold", "MultilabelStratifiedKFold(compat='iterstrat')",
              "IterativeStratification(order=1, compat='skmultilearn')",
              "MultilabelStratifiedShuffleSplit(compat='iterstrat')", "iterative_train_test_split(compat='skmultilearn')"}
    splitters = [s for s in [*conformance.ours(), *conformance.classes()] if s.name in wanted] + conformance.peers()
    return {r.splitter: r for r in conformance.certificate(splitters, real_data=False)}


def test_the_marks_of_ours_the_classes_and_the_peers(results):
    assert {results["random"].marks[p] for p in PROPERTIES} == {"✔", "–"}  # every property that applies holds
    assert results["random"].marks["peer_folds"] == "–" and results["random"].marks["real_sizes"] == "n/c"
    assert results["hybrid"].marks["sizes"] == "✔" and results["iterative"].marks["sizes"] == "✘"  # IS trades sizes
    assert results["kfold"].marks["distinct_repeats"] == "–"  # ignores its seed, by design
    for compat in ("MultilabelStratifiedKFold(compat='iterstrat')", "IterativeStratification(order=1, compat='skmultilearn')",
                   "MultilabelStratifiedShuffleSplit(compat='iterstrat')",
                   "iterative_train_test_split(compat='skmultilearn')"):
        assert results[compat].marks["peer_folds"] == "✔" and results[compat].marks["bad_input"] == "✔", compat
    iterstrat = results[conformance.ITERSTRAT_KFOLD]
    assert iterstrat.marks["sparse_y"] == "✘" and iterstrat.marks["groups"] == "✘"  # rejects sparse y, ignores groups
    assert iterstrat.reproducers["bad_input"] == {"families": ["a value other than 0/1"]}  # splits a 2 as a 1
    skml = results[conformance.SKML_IS].marks
    assert skml["no_empty_fold"] == "✘" and skml["groups"] == "✘" and skml["bad_input"] == "✘"


def test_every_failure_comes_with_a_reproducer_that_fails_again(results):
    splitters = {s.name: s for s in [*conformance.ours(), *conformance.classes(), *conformance.peers()]}
    failures = [(name, prop, case) for name, r in results.items() for prop, case in r.reproducers.items()]
    assert failures and all(results[name].marks[prop] == "✘" for name, prop, _ in failures)
    for name, prop, case in failures:
        if prop == "bad_input":
            assert not any(conformance.refuses(splitters[name], f) for f in case["families"]), name
            continue
        assert case["Y"] == conformance.case_matrix(case["n"], case["labels"], case["seed"]).tolist()
        assert not conformance.holds(splitters[name], prop, case["n"], case["labels"], case["k"], case["seed"]), (name, prop)


def test_the_certificate_covers_every_class_users_import():
    names = " ".join(s.name for s in conformance.classes())
    for public in model_selection.__all__:
        if public != "distinct_test_sets":
            assert public in names, public
    for mode in ("compat='iterstrat'", "compat='skmultilearn'"):
        assert mode in names


def test_a_peer_that_is_not_installed_is_not_checked_rather_than_failed(monkeypatch):
    """Without iterative-stratification, maestros (which delegates to it) and the iterstrat compat modes are n/c
    with the reason, never ✘ (the light install has no peer)."""
    monkeypatch.setitem(sys.modules, "iterstrat", None)
    monkeypatch.setitem(sys.modules, "iterstrat.ml_stratifiers", None)
    maestros = next(s for s in conformance.ours() if s.name == "maestros")
    result = conformance.certify(maestros, properties=("partition", "sizes"))
    assert result.marks == {"partition": "n/c", "sizes": "n/c"}
    assert result.reasons["partition"] == "iterative-stratification is not installed"
    compat = next(s for s in conformance.classes() if s.name == "MultilabelStratifiedKFold(compat='iterstrat')")
    result = conformance.certify(compat, properties=("peer_folds",))
    assert result.marks == {"peer_folds": "n/c"} and "iterative-stratification is not installed" in result.reasons["peer_folds"]
    assert "Not checked here:" in conformance.markdown([result])


@pytest.mark.mirror
def test_real_sizes_measure_what_a_user_meets(mirror):
    """On the mirror's small datasets and a 10⁴-row matrix: hybrid within one row of n/k, SOIS several rows off
    (the tiny cases' ✔ for SOIS does not hold there), the shipped measurements agree."""
    from stratbench.stratifiers.catalog import measured_sizes

    matrices = conformance.real_label_matrices(str(mirror))
    splitters = {s.name: s for s in conformance.ours()}
    hybrid = conformance.certify(splitters["hybrid"], properties=("real_sizes",), matrices=matrices)
    sois = conformance.certify(splitters["sois"], properties=("real_sizes",), matrices=matrices)
    assert hybrid.marks["real_sizes"] == "✔" and sois.marks["real_sizes"] == "✘"
    for name, result in (("hybrid", hybrid), ("sois", sois)):
        assert result.measured["real_sizes"][0] == pytest.approx(measured_sizes()[name][0], abs=1e-3)


def test_stratbench_certify_writes_the_table(tmp_path, capsys, monkeypatch):
    from stratbench.__main__ import main

    every = conformance.ours
    monkeypatch.setattr(conformance, "ours", lambda: [s for s in every() if s.name == "random"])
    monkeypatch.setattr(conformance, "classes", lambda: [])
    monkeypatch.setattr(conformance, "peers", lambda: [])
    assert main(["certify", "--no-real-data", "--out", str(tmp_path / "certificate.md")]) == 0
    text = (tmp_path / "certificate.md").read_text()
    assert text.splitlines()[2] == "| random | ✔ | ✔ | ✔ | ✔ | ✔ | ✔ | ✔ | ✔ | – | n/c |" and text == capsys.readouterr().out


def test_stratbench_list_says_what_each_method_keeps_as_measured():
    from stratbench import stratifiers
    from stratbench.stratifiers.catalog import catalog, measured_sizes

    rows = {row["name"]: row for row in catalog()}
    own = {name for name in rows if not getattr(stratifiers.resolve(name), "context", ())}  # not from files
    assert set(measured_sizes()) == own  # every registered method that splits on its own measured
    assert rows["from_file"]["fold_sizes"] == "those of its files"
    assert rows["hybrid"]["fold_sizes"] == "n/k ± 1" and rows["kfold"]["fold_sizes"] == "n/k ± 1"
    # one seed's measurement, worded as what it is: other seeds and k go further (yeast: 16.6 and 25.5 rows), so no bound
    assert rows["sois"]["fold_sizes"].startswith("7 rows off n/k in one seed's splits")
    assert all(row["fold_sizes"].endswith("; no bound") for row in rows.values() if "rows off" in row["fold_sizes"])
    assert not any("up to" in row["fold_sizes"] for row in rows.values())
    assert not any("``" in row["summary"] or ":func:" in row["summary"] for row in rows.values())
    for name in own:  # a method that keeps n/k ± 1 by construction measured so
        if stratifiers.get(name, n_splits=5).equal_sizes:
            assert rows[name]["fold_sizes"] == "n/k ± 1", name
    assert np.isinf(measured_sizes()["stratified_group_kfold"][0])
