"""The conformance certificate (stratbench.conformance, `stratbench certify`): the marks of a few splitters,
ours and the peers', and every ✘ shown again by its reproducer."""
import pytest

from stratbench import conformance


@pytest.fixture(scope="module")
def results():
    wanted = {"random", "iterative", "sois", "hybrid", "kfold"}
    splitters = [s for s in conformance.ours() if s.name in wanted] + conformance.peers()
    return {r.splitter: r for r in conformance.certificate(splitters)}


def test_the_marks_of_ours_and_the_peers(results):
    assert set(results["random"].marks.values()) == {"✔"}  # every property holds
    assert results["hybrid"].marks["sizes"] == "✔" and results["iterative"].marks["sizes"] == "✘"  # IS trades sizes
    assert results["kfold"].marks["distinct_repeats"] == "–"  # ignores its seed, by design
    iterstrat = results["iterative-stratification 0.1.9 MultilabelStratifiedKFold"].marks
    assert iterstrat["sparse_y"] == "✘" and iterstrat["groups"] == "✘"  # rejects sparse y, ignores groups
    skml = results["scikit-multilearn 0.2.0 IterativeStratification"].marks
    assert skml["no_empty_fold"] == "✘" and skml["groups"] == "✘"


def test_every_failure_comes_with_a_reproducer_that_fails_again(results):
    splitters = {s.name: s for s in [*conformance.ours(), *conformance.peers()]}
    failures = [(name, prop, case) for name, r in results.items() for prop, case in r.reproducers.items()]
    assert failures and all(results[name].marks[prop] == "✘" for name, prop, _ in failures)
    for name, prop, case in failures:
        assert case["Y"] == conformance.case_matrix(case["n"], case["labels"], case["seed"]).tolist()
        assert not conformance.holds(splitters[name], prop, case["n"], case["labels"], case["k"], case["seed"]), (name, prop)


def test_stratbench_certify_writes_the_table(tmp_path, capsys, monkeypatch):
    from stratbench.__main__ import main

    every = conformance.ours
    monkeypatch.setattr(conformance, "ours", lambda: [s for s in every() if s.name == "random"])
    monkeypatch.setattr(conformance, "peers", lambda: [])
    assert main(["certify", "--out", str(tmp_path / "certificate.md")]) == 0
    text = (tmp_path / "certificate.md").read_text()
    assert text.splitlines()[2] == "| random | ✔ | ✔ | ✔ | ✔ | ✔ | ✔ | ✔ |" and text == capsys.readouterr().out
