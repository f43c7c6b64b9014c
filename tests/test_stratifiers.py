import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.model_selection import cross_validate
from sklearn.neighbors import KNeighborsClassifier

from stratbench import StratbenchError, stratifiers
from stratbench.fold_quality import fold_quality

NAMES = ["random", "iterative"]


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


@pytest.mark.parametrize("name", NAMES)
def test_folds_partition_the_examples_and_depend_on_the_seed(name):
    rng = np.random.default_rng(0)
    Y = sp.csr_matrix((rng.random((200, 12)) < 0.15).astype(int))
    splitter = stratifiers.get(name, n_splits=5, random_state=3)
    tests = [test for _, test in splitter.split(None, Y)]
    assert sorted(np.concatenate(tests).tolist()) == list(range(200))
    for train, test in splitter.split(None, Y):
        assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == 200
    a = splitter.fold_ids(Y)
    np.testing.assert_array_equal(a, stratifiers.get(name, n_splits=5, random_state=3).fold_ids(Y.toarray()))
    assert (a != stratifiers.get(name, n_splits=5, random_state=4).fold_ids(Y)).any()
    sizes = np.bincount(a, minlength=5)
    assert sizes.max() - sizes.min() <= (1 if name == "random" else 10)


@pytest.mark.parametrize("name", NAMES)
def test_usable_in_sklearn_cross_validate(name):
    rng = np.random.default_rng(1)
    X = rng.random((60, 3))
    Y = (rng.random((60, 2)) < 0.4).astype(int)
    cv = stratifiers.get(name, n_splits=3, random_state=0)
    assert cv.get_n_splits() == 3
    out = cross_validate(KNeighborsClassifier(3), X, Y, cv=cv)
    assert len(out["test_score"]) == 3


def test_clear_errors():
    Y = np.eye(3, dtype=int)
    with pytest.raises(StratbenchError, match=r"n_splits=5 greater than the number of examples=3"):
        stratifiers.get("iterative", n_splits=5).fold_ids(Y)
    with pytest.raises(StratbenchError, match=r"label column 1 is not 0/1 \(value 2\)"):
        stratifiers.get("random", n_splits=2).fold_ids(np.array([[0, 2], [1, 0], [1, 1]]))
    with pytest.raises(StratbenchError, match=r"unknown stratifier 'nope'; registered: iterative, random"):
        stratifiers.get("nope")
    with pytest.raises(StratbenchError, match=r"cannot import stratifier 'no.such.Thing'"):
        stratifiers.get("no.such.Thing")


def test_dotted_path_resolves_a_user_class():
    cls = stratifiers.resolve("stratbench.stratifiers.iterative.IterativeStratification")
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
