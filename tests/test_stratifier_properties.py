"""Properties every registered stratifier must have (hypothesis), and the scikit-learn contract."""
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.model_selection import cross_validate
from sklearn.neighbors import KNeighborsClassifier

from stratbench import stratifiers

ALL = ["random", "kfold", "labelset", "iterative", "sois", "optisplit_rld", "optisplit_dcp", "ss", "pmbsrs"]
DETERMINISTIC = {"kfold"}
# the largest difference between two fold sizes each method guarantees (None: no bound but a partition)
SIZE_SPREAD = {"random": lambda k: 1, "kfold": lambda k: 1, "labelset": lambda k: 1, "pmbsrs": lambda k: k}


@st.composite
def label_matrices(draw, min_rows=2):
    n = draw(st.integers(min_rows, 60))
    q = draw(st.integers(1, 8))
    density = draw(st.floats(0.0, 0.7))
    seed = draw(st.integers(0, 2**16))
    Y = (np.random.default_rng(seed).random((n, q)) < density).astype(np.int8)
    return sp.csr_matrix(Y) if draw(st.booleans()) else Y


def test_every_method_is_registered():
    assert stratifiers.names() == sorted(ALL)


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(Y=label_matrices(), k=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_folds_partition_every_example(name, Y, k, seed):
    n = Y.shape[0]
    if k > n:
        return
    splitter = stratifiers.get(name, n_splits=k, random_state=seed)
    folds = splitter.fold_ids(Y)
    assert folds.shape == (n,) and folds.min() >= 0 and folds.max() < k
    tests = [test for _, test in splitter.split(None, Y)]
    assert len(tests) == k
    assert sorted(np.concatenate(tests).tolist()) == list(range(n))
    for train, test in splitter.split(None, Y):
        assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == n
    if name in SIZE_SPREAD:
        sizes = np.bincount(folds, minlength=k)
        assert sizes.max() - sizes.min() <= SIZE_SPREAD[name](k)
    np.testing.assert_array_equal(folds, stratifiers.get(name, n_splits=k, random_state=seed).fold_ids(Y))


@pytest.mark.parametrize("name", sorted(set(ALL) - DETERMINISTIC))
@settings(max_examples=15, deadline=None)
@given(Y=label_matrices(min_rows=20), k=st.integers(2, 5))
def test_different_seeds_give_different_folds(name, Y, k):
    runs = {stratifiers.get(name, n_splits=k, random_state=s).fold_ids(Y).tobytes() for s in range(8)}
    assert len(runs) > 1


@pytest.mark.parametrize("name", ALL)
def test_holdout_mode(name):
    rng = np.random.default_rng(5)
    Y = sp.csr_matrix((rng.random((300, 6)) < 0.2).astype(int))
    splitter = stratifiers.get(name, test_size=0.3, random_state=1)
    assert splitter.get_n_splits() == 1
    (train, test), = list(splitter.split(None, Y))
    assert len(train) + len(test) == 300 and len(np.intersect1d(train, test)) == 0
    assert abs(len(test) / 300 - 0.3) < 0.06


@pytest.mark.parametrize("name", ALL)
def test_usable_in_sklearn_cross_validate(name):
    rng = np.random.default_rng(1)
    X = rng.random((60, 3))
    Y = (rng.random((60, 3)) < 0.4).astype(int)
    out = cross_validate(KNeighborsClassifier(3), X, Y, cv=stratifiers.get(name, n_splits=3, random_state=0))
    assert len(out["test_score"]) == 3
