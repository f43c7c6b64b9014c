import numpy as np
import pytest
import scipy.sparse as sp
from conftest import REPO

from stratbench import StratbenchError, stratifiers
from stratbench.measures.fold_quality import fold_quality


def partition(folds):
    return sorted(sorted(np.flatnonzero(folds == j).tolist()) for j in np.unique(folds))


def test_iterative_hand_worked_example_with_an_unlabelled_example():
    # n=6, q=2, k=2: c_j = 3, c_j^0 = 1, c_j^1 = 2. Label 0 (2 positives) goes first:
    # row 0 -> fold a (full tie, random); row 1 -> the other fold b (c^0 = 0 vs 1).
    # Label 1 (rows 2, 3, 4 left): row 2 -> b (c^1: a=1, b=2); row 3 -> tie on c^1 (1, 1),
    # broken by c (a=2, b=1) -> a; row 4 -> b (c^1: a=0, b=1). Row 5 (no label) -> a (c: a=1, b=0).
    Y = np.array([[1, 1], [1, 0], [0, 1], [0, 1], [0, 1], [0, 0]])
    for seed in range(20):
        for ties in ("random", "lowest_index"):
            folds = stratifiers.get("iterative", n_splits=2, random_state=seed, shuffle=False,
                                    label_ties=ties).fold_ids(Y)
            assert partition(folds) == [[0, 3, 5], [1, 2, 4]]


def test_iterative_rarest_label_first_and_single_positive_labels():
    # Label 2 has one positive (row 4) and is handled first; label 0 (2 positives, rows 0 and 1)
    # next: each goes to a different fold. Every fold gets 2 of the 6 rows (k=3).
    Y = sp.csr_matrix(np.array([[1, 1, 0], [1, 1, 0], [0, 1, 0], [0, 1, 0], [0, 0, 1], [0, 0, 0]]))
    seen = set()
    for seed in range(30):
        folds = stratifiers.get("iterative", n_splits=3, random_state=seed, shuffle=False).fold_ids(Y)
        assert np.bincount(folds, minlength=3).tolist() == [2, 2, 2]
        assert folds[0] != folds[1]
        # label 1 (4 positives) is spread 2/1/1 or better; never 3 in one fold
        assert np.bincount(folds[[0, 1, 2, 3]], minlength=3).max() <= 2
        seen.add(folds[4])
    assert seen == {0, 1, 2}  # the lone positive's fold is a fair random tie


def test_label_ties_random_versus_lowest_index():
    # Labels 0 and 1 both have 2 positives. lowest_index always starts with label 0.
    Y = np.array([[1, 0], [1, 0], [0, 1], [0, 1]])
    for seed in range(10):
        f = stratifiers.get("iterative", n_splits=2, random_state=seed, shuffle=False,
                            label_ties="lowest_index").fold_ids(Y)
        assert f[0] != f[1] and f[2] != f[3]


def test_clear_errors():
    Y = np.eye(3, dtype=int)
    with pytest.raises(StratbenchError, match=r"Cannot have number of splits n_splits=5 greater than the number of samples: n_samples=3"):
        stratifiers.get("iterative", n_splits=5).fold_ids(Y)
    with pytest.raises(StratbenchError, match=r"label column 1 is not 0/1 \(value 2 at row 0\)"):
        stratifiers.get("random", n_splits=2).fold_ids(np.array([[0, 2], [1, 0], [1, 1]]))
    with pytest.raises(StratbenchError,
                       match=r"unknown stratifier 'nope'; registered: from_file, group_kfold, hybrid, iterative, kfold, labelset"):
        stratifiers.get("nope")
    with pytest.raises(StratbenchError, match=r"cannot import stratifier 'no.such.Thing'"):
        stratifiers.get("no.such.Thing")


def test_dotted_path_resolves_a_user_class():
    cls = stratifiers.resolve("stratbench.stratifiers.iterative.IterativeStratifier")
    assert cls is stratifiers.resolve("iterative")


@pytest.mark.mirror
def test_iterative_matches_sechidis_table2_on_corel5k(mulan_cache):
    """Sechidis 2011 Table 2, corel5k 10-fold CV: iterative FLZ 788 of 3740, LD 0.0010; random 1140, 0.0026."""
    Y = mulan_cache("corel5k").Y
    q = [fold_quality(Y, stratifiers.get("iterative", n_splits=10, random_state=s).fold_ids(Y), 10)
         for s in range(5)]
    flz = np.mean([r["FLZ"] for r in q])
    ld = np.mean([r["LD"] for r in q])
    assert 780 <= flz <= 796
    assert 0.0009 <= ld <= 0.0011
    assert all(r["FZ"] == 10 for r in q)
    rnd = [fold_quality(Y, stratifiers.get("random", n_splits=10, random_state=s).fold_ids(Y), 10) for s in range(5)]
    assert np.mean([r["FLZ"] for r in rnd]) > 1100 and np.mean([r["LD"] for r in rnd]) > 0.0022


def test_sois_hand_worked_example_with_ties_and_an_unlabelled_example():
    # rows: 0 {0,1}, 1 {0,1}, 2 {2}, 3 {2}, 4 {0}, 5 {}; k = 2, c_j = 3.
    # Combinations: (0,0) rows 0,1,4; (0,1) rows 0,1; (1,1) rows 0,1; (2,2) rows 2,3.
    # Whatever the tie-breaks, rows 0 and 1 split (their pair's desire), rows 2 and 3 split, and the
    # label-less row 5 fills the fold that row 4 did not take.
    Y = np.array([[1, 1, 0], [1, 1, 0], [0, 0, 1], [0, 0, 1], [1, 0, 0], [0, 0, 0]])
    for select in ("paper", "docstring", "pairs_first", "skmultilearn"):
        for seed in range(25):
            f = stratifiers.get("sois", n_splits=2, random_state=seed, select=select).fold_ids(Y)
            assert np.bincount(f).tolist() == [3, 3]
            assert f[0] != f[1] and f[2] != f[3] and f[4] != f[5]
            if select in ("docstring", "pairs_first"):
                # the pair (0,1) goes first; then row 4 (ties everywhere) and row 3 share a fold:
                # row 2 goes where c_j is larger, i.e. away from row 4
                assert f[3] == f[4] and f[2] == f[5]


def test_sois_without_pairs_is_iterative_stratification():
    """With single-label rows only, the pool holds labels alone: SOIS is IS (same tie-breaking rules)."""
    rng = np.random.default_rng(3)
    Y = np.zeros((40, 4), dtype=int)
    Y[np.arange(40), rng.integers(0, 4, 40)] = 1
    Y[::7] = 0
    for seed in range(5):
        f = stratifiers.get("sois", n_splits=4, random_state=seed).fold_ids(Y)
        sizes = np.bincount(f, minlength=4)
        assert sizes.tolist() == [10, 10, 10, 10]
        per_label = np.array([np.bincount(f[Y[:, i] == 1], minlength=4) for i in range(4)])
        assert (per_label.max(axis=1) - per_label.min(axis=1)).max() <= 1


def test_labelset_spreads_each_labelset_round_robin():
    Y = np.array([[1, 0]] * 7 + [[0, 1]] * 5 + [[1, 1]] * 2 + [[0, 0]] * 6)
    for seed in range(10):
        f = stratifiers.get("labelset", n_splits=3, random_state=seed).fold_ids(Y)
        for block in (slice(0, 7), slice(7, 12), slice(12, 14), slice(14, 20)):
            counts = np.bincount(f[block], minlength=3)
            assert counts.max() - counts.min() <= 1
        assert np.bincount(f).tolist() == [7, 7, 6]


def test_pmbsrs_weights_and_strata():
    from stratbench.stratifiers.pmbsrs import example_weights

    Y = sp.csr_matrix(np.array([[1, 1], [1, 0], [0, 1], [0, 0]]))
    # f = (1/2, 1/2): weights 1/4, 1/2, 1/2 and 1 for the label-less row
    np.testing.assert_allclose(example_weights(Y), [0.25, 0.5, 0.5, 1.0])


@pytest.mark.parametrize("method", ["rld", "dcp"])
def test_optisplit_never_worsens_its_random_start(method):
    """optisplit starts from the split ``random`` makes with the same seed and only accepts improvements."""
    from stratbench.measures.fold_quality import deviation_from_ideal_share, relative_label_distribution

    score = {"rld": relative_label_distribution, "dcp": deviation_from_ideal_share}[method]
    rng = np.random.default_rng(11)
    Y = sp.csr_matrix((rng.random((400, 15)) < rng.random(15) * 0.3).astype(int))
    for seed in range(4):
        start = stratifiers.get("random", n_splits=5, random_state=seed).fold_ids(Y)
        opt = stratifiers.get(f"optisplit_{method}", n_splits=5, random_state=seed).fold_ids(Y)
        assert score(Y, opt, 5) < score(Y, start, 5)


def test_optisplit_balances_a_single_label_exactly():
    # one label with 10 positives over 5 folds: BALANCE reaches 2 per fold
    Y = np.zeros((50, 1), dtype=int)
    Y[:10] = 1
    for seed in range(5):
        f = stratifiers.get("optisplit_dcp", n_splits=5, random_state=seed).fold_ids(Y)
        assert np.bincount(f[:10], minlength=5).tolist() == [2, 2, 2, 2, 2]


def test_stratified_sampling_split_shares():
    from stratbench.stratifiers.stratified_sampling import stratified_sample

    rng = np.random.default_rng(2)
    Y = sp.csr_matrix((rng.random((2000, 10)) < 0.1).astype(int))
    test = stratified_sample(Y, 0.25, np.random.default_rng(0))
    assert abs(test.mean() - 0.25) < 0.03
    shares = np.asarray(Y[test].sum(axis=0)).ravel() / np.asarray(Y.sum(axis=0)).ravel()
    assert np.abs(shares - 0.25).max() < 0.05  # every label near the target share


@pytest.mark.mirror
@pytest.mark.parametrize("dataset", ["emotions", "yeast", "scene"])
def test_is_and_sois_reach_scikit_multilearn_ld(dataset, mulan_cache):
    """Our IS and SOIS: LD within 10% of scikit-multilearn's (order 1 and 2) mean over 5 seeds, or better."""
    import warnings

    from skmultilearn.model_selection import IterativeStratification

    from stratbench.measures.fold_quality import label_distribution

    Y = mulan_cache(dataset).Y
    dense = Y.toarray()
    for order, ours in ((1, "iterative"), (2, "sois")):
        ref = []
        for seed in range(5):
            np.random.seed(seed)  # scikit-multilearn 0.2.0 draws from the global RNG
            folds = np.empty(Y.shape[0], dtype=int)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                splits = IterativeStratification(n_splits=10, order=order).split(np.zeros((Y.shape[0], 1)), dense)
                for j, (_, test) in enumerate(splits):
                    folds[test] = j
            ref.append(label_distribution(Y, folds, 10))
        mine = [label_distribution(Y, stratifiers.get(ours, n_splits=10, random_state=s).fold_ids(Y), 10)
                for s in range(5)]
        assert np.mean(mine) <= 1.10 * np.mean(ref), (ours, np.mean(mine), np.mean(ref))


def _skmultilearn_folds(Y, order, seed):
    import warnings

    from skmultilearn.model_selection import IterativeStratification

    np.random.seed(seed)  # scikit-multilearn 0.2.0 draws from the global RNG
    folds = np.empty(Y.shape[0], dtype=int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for j, (_, test) in enumerate(IterativeStratification(n_splits=10, order=order).split(
                np.zeros((Y.shape[0], 1)), Y.toarray())):
            folds[test] = j
    return folds


@pytest.mark.mirror
@pytest.mark.parametrize("dataset, order, ours", [("yeast", 1, "iterative"), ("bibtex", 1, "iterative"),
                                                  ("yeast", 2, "sois")])
def test_skmultilearn_rules_give_scikit_multilearn_fold_quality(dataset, order, ours, mulan_cache):
    """rules='skmultilearn' gives scikit-multilearn 0.2.0's fold quality (its RNG differs, so compared
    as means over 5 seeds), while the algorithm as published does clearly better on these datasets."""
    from stratbench.measures.fold_quality import label_distribution, relative_label_distribution

    Y = mulan_cache(dataset).Y
    measures = {"LD": label_distribution, "rLD": relative_label_distribution}

    def mean_quality(make_folds):
        runs = [make_folds(seed) for seed in range(5)]
        return {m: np.mean([f(Y, folds, 10) for folds in runs]) for m, f in measures.items()}

    reference = mean_quality(lambda seed: _skmultilearn_folds(Y, order, seed))
    compat = mean_quality(lambda seed: stratifiers.get(ours, n_splits=10, random_state=seed,
                                                       rules="skmultilearn").fold_ids(Y))
    paper = mean_quality(lambda seed: stratifiers.get(ours, n_splits=10, random_state=seed).fold_ids(Y))
    for m in measures:
        assert compat[m] == pytest.approx(reference[m], rel=0.15), (m, compat, reference)
        assert paper[m] < 0.8 * reference[m], (m, paper, reference)


def test_skmultilearn_rules_by_hand():
    """Rows 0 {0}, 1 {1}, 2 {0,1}, 3 {}, 4 {1}; k = 2: c_j = 2.5, c_j^0 = 1, c_j^1 = 1.5. Label 0 appears
    first and is taken first; its rows go in descending order: row 2 to a random fold a (full tie), row 0
    to the other fold b (c^0: a 0, b 1). Label 1, rows 4 then 1: row 4 → b (c^1: a 0.5, b 1.5); row 1 ties
    (0.5, 0.5) and goes to a random fold, with no overall-desire criterion. The label-less row 3 goes to a
    random fold with c_j > 0. Either way the folds hold 2 and 3 rows."""
    Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [0, 1]])
    outcomes = set()
    for seed in range(40):
        f = stratifiers.get("iterative", n_splits=2, random_state=seed, rules="skmultilearn").fold_ids(Y)
        assert f[2] != f[0] and f[4] == f[0]
        sizes = np.bincount(f, minlength=2)
        assert sorted(sizes.tolist()) == [2, 3]
        outcomes.add(tuple(f))
    assert len(outcomes) >= 3  # the tie-breaks are random
    with pytest.raises(StratbenchError, match="rules must be one of"):
        stratifiers.get("iterative", n_splits=2, rules="mulan").fold_ids(Y)
    with pytest.raises(StratbenchError, match="select='pairs_first' applies to the paper's variant only"):
        stratifiers.get("sois", n_splits=2, rules="skmultilearn", select="pairs_first").fold_ids(Y)
    with pytest.raises(TypeError, match="stratifier 'iterative' got an unexpected keyword argument 'compat'; it takes "
                                        "n_splits, random_state, test_size, train_size, fold_shares, shuffle, label_ties, rules"):
        stratifiers.get("iterative", n_splits=2, compat="skmultilearn")


def test_the_compiled_stable_argsort_orders_as_numpys_stable_sort():
    """Ties in index order, -0.0 equal to 0.0, infinities in place and NaN last, as NumPy's stable sort; ints too."""
    from stratbench._kernels.common import stable_argsort

    assert stable_argsort(np.array([2.0, 1.0, 2.0, np.nan, -np.inf, 1.0, -0.0, 0.0, np.inf])).tolist() == \
        [4, 6, 7, 1, 5, 0, 2, 8, 3]  # by hand
    rng = np.random.default_rng(0)
    for n in (0, 1, 2, 3, 7, 64, 1001):
        floats = rng.integers(0, 5, n).astype(float)
        floats[rng.random(n) < 0.1] = np.nan
        ints = rng.integers(-3, 3, n)
        for keys in (floats, ints):
            assert stable_argsort(keys).tolist() == np.argsort(keys, kind="stable").tolist()


def test_the_compiled_methods_folds_are_those_recorded():
    """hybrid (plain, grouped, polish 1.0), iterative, sois and optisplit on 9 random matrices × k ∈ {3, 10}:
    the folds' digests recorded before the kernels were last edited, so that an edit for speed cannot move
    a fold."""
    import hashlib
    import warnings

    def digest(folds):
        return hashlib.sha1(np.asarray(folds, np.int64).tobytes()).hexdigest()

    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(3):
            rng = np.random.default_rng(seed)
            for n, L, p in ((300, 6, 0.3), (900, 15, 0.12), (150, 30, 0.05)):
                Y = (rng.random((n, L)) < p).astype(np.int8)
                groups = rng.integers(0, n // 3, n)
                for name in ("hybrid", "iterative", "sois", "optisplit_rld", "optisplit_dcp"):
                    for k in (3, 10):
                        folds = stratifiers.get(name, n_splits=k, random_state=seed).fold_ids(Y)
                        rows.append(f"{name} {seed} {n} {k} {digest(folds)}")
                folds = stratifiers.get("hybrid", n_splits=5, random_state=seed).fold_ids(Y, groups)
                rows.append(f"hybrid-groups {seed} {n} {digest(folds)}")
                folds = stratifiers.get("hybrid", n_splits=5, random_state=seed, polish=1.0).fold_ids(Y)
                rows.append(f"hybrid-polish1 {seed} {n} {digest(folds)}")
    recorded = [line for line in (REPO / "tests" / "data" / "compiled_fold_digests.txt").read_text().splitlines()
                if not line.startswith("#")]
    assert rows == recorded


FIRST_SPLIT = """
import json, sys
import numpy as np
from numba.core import event
from stratbench import stratifiers
Y = (np.random.default_rng(0).random((200, 6)) < 0.3).astype(np.int8)
with event.install_recorder("numba:compile") as rec:
    folds = stratifiers.get(sys.argv[1], n_splits=4, random_state=1).fold_ids(Y)
compiled = sorted({e.data["dispatcher"].py_func.__name__ for _, e in rec.buffer if e.is_start})
print(json.dumps({"folds": folds.tolist(), "compiled": compiled}))
"""


def _first_split(method, cache, wait=True):
    import json
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "STRATBENCH_KERNELS": "jit"}
    child = subprocess.Popen([sys.executable, "-c", FIRST_SPLIT, method], env=env, text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if not wait:
        return child
    out, err = child.communicate()
    assert child.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1]), err


def test_a_first_split_compiles_once_in_parallel_parts_and_says_so_once(tmp_path):
    """Under the JIT (a source checkout not built, or a kernel edited since), in a fresh numba cache, hybrid's
    first split announces its compilation in one line and compiles its local search in a second process
    (this one loads ``hybrid_kernel`` from disk); the folds are those of a split with every kernel
    compiled here. A second process loads everything and says nothing — also where the grouped kernel was
    never compiled."""
    first, err = _first_split("hybrid", tmp_path / "cache")
    assert err.count("stratbench: compiling hybrid's kernels, once for this environment") == 1
    assert "hybrid_kernel" not in first["compiled"] and "iterative_kernel" in first["compiled"]
    Y = (np.random.default_rng(0).random((200, 6)) < 0.3).astype(np.int8)
    assert first["folds"] == stratifiers.get("hybrid", n_splits=4, random_state=1).fold_ids(Y).tolist()
    second, err = _first_split("hybrid", tmp_path / "cache")
    assert (second["compiled"], err) == ([], "") and second["folds"] == first["folds"]


def test_first_splits_at_once_take_turns_one_compiles_the_other_loads(tmp_path):
    """Two processes that start the same method's first split at once (a study's first jobs): exactly one
    compiles and announces; the other waits on the lock and compiles nothing."""
    import json

    children = [_first_split("iterative", tmp_path / "cache", wait=False) for _ in range(2)]
    results = [child.communicate() for child in children]
    assert [child.returncode for child in children] == [0, 0], results
    compiled = [json.loads(out.strip().splitlines()[-1])["compiled"] for out, _ in results]
    assert sum("iterative_kernel" in c for c in compiled) == 1
    assert sum(err.count("compiling iterative's kernels") for _, err in results) == 1


def test_a_part_that_fails_to_compile_elsewhere_says_so_and_the_split_goes_on(tmp_path, capsys, monkeypatch):
    """``compile_once`` under the JIT with a kernel whose cache index is missing: one notice, the part run here,
    and for a part that fails in its own process one line naming it and its error (the split compiles it itself)."""
    from types import SimpleNamespace

    pytest.importorskip("numba")
    from stratbench._kernels import _compile as _kernels

    monkeypatch.setattr(_kernels, "MODE", "jit")
    monkeypatch.setattr(_kernels, "WHY_JIT", "STRATBENCH_KERNELS=jit")
    monkeypatch.setattr(_kernels, "numba", __import__("numba"))

    class Kernel:  # a dispatcher as compile_once reads it: hashable, its cache index not on disk
        _cache = SimpleNamespace(_cache_path=str(tmp_path), _cache_file=SimpleNamespace(_index_path=str(tmp_path / "no")))

    kernel = Kernel()
    ran = []
    _kernels.compile_once("toy", (kernel,), lambda: ran.append(1), ("stratbench.no_such_module:f",), 2)
    _kernels.compile_once("toy", (kernel,), lambda: ran.append(2), (), 2)  # once per process
    err = capsys.readouterr().err.splitlines()
    assert ran == [1]
    assert err[0] == "stratbench: compiling toy's kernels, once for this environment (STRATBENCH_KERNELS=jit): about 2 s"
    assert err[1] == ("stratbench: compiling stratbench.no_such_module:f in a second process failed "
                      "(ModuleNotFoundError: No module named 'stratbench.no_such_module'); it compiles here")
    assert (tmp_path / "stratbench-toy.lock").exists()
