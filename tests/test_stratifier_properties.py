"""Properties every registered stratifier must have (hypothesis), and the scikit-learn contract.

The guarantees of ``MultilabelStratifier`` (its docstring): a partition; every test fold non-empty when
k ≤ n; n·r_j ± 1 examples per subset for the ``equal_sizes`` methods; holdout sides rounded as
scikit-learn rounds them — over random small label matrices and degenerate ones (all zeros, all ones,
one row per label, n = k).
"""

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.model_selection import ShuffleSplit, cross_validate
from sklearn.neighbors import KNeighborsClassifier

from stratbench import stratifiers

ALL = ["random", "kfold", "labelset", "labelset_sklearn2017", "iterative", "sois", "optisplit_rld", "optisplit_dcp", "ss",
       "pmbsrs", "hybrid"]
DETERMINISTIC = {n for n in ALL if not stratifiers.resolve(n).seeded}  # kfold, labelset_sklearn2017
EQUAL_SIZES = {"random", "kfold", "labelset", "pmbsrs", "hybrid"}
pytestmark = pytest.mark.filterwarnings("ignore:.*fewer positives than:UserWarning")


@st.composite
def label_matrices(draw, min_rows=2):
    """Random 0/1 matrices, and the degenerate ones: all zeros, all ones, one row per label."""
    n = draw(st.integers(min_rows, 60))
    q = draw(st.integers(1, 8))
    kind = draw(st.sampled_from(["random", "random", "random", "zeros", "ones", "one_per_label"]))
    if kind == "zeros":
        Y = np.zeros((n, q), dtype=np.int8)
    elif kind == "ones":
        Y = np.ones((n, q), dtype=np.int8)
    elif kind == "one_per_label":
        Y = np.eye(max(q, min_rows), q, dtype=np.int8)
    else:
        density = draw(st.floats(0.0, 0.7))
        seed = draw(st.integers(0, 2**16))
        Y = (np.random.default_rng(seed).random((n, q)) < density).astype(np.int8)
    return sp.csr_matrix(Y) if draw(st.booleans()) else Y


GROUP_BASELINES = ["group_kfold", "stratified_group_kfold", "maestros"]  # split grouped data only: tests/test_groups.py
READERS = ["from_file"]  # folds read from a file, not made: tests/test_provenance.py


def test_every_method_is_registered():
    assert stratifiers.names() == sorted(ALL + GROUP_BASELINES + READERS)
    assert all(stratifiers.resolve(n).needs_groups for n in GROUP_BASELINES)
    assert not any(stratifiers.resolve(n).needs_groups for n in ALL)


def check_partition(name, Y, k, seed, splitter=None):
    n = Y.shape[0]
    splitter = splitter or stratifiers.get(name, n_splits=k, random_state=seed)
    folds = splitter.fold_ids(Y)
    assert folds.shape == (n,) and folds.min() >= 0 and folds.max() < k
    tests = [test for _, test in splitter.split(None, Y)]
    assert len(tests) == k
    assert sorted(np.concatenate(tests).tolist()) == list(range(n))
    for train, test in splitter.split(None, Y):
        assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == n
    sizes = np.bincount(folds, minlength=k)
    assert sizes.min() >= 1, f"{name}: an empty test fold {sizes.tolist()}"
    if name in EQUAL_SIZES:
        assert np.all(np.abs(sizes - n / k) < 1), sizes.tolist()
    np.testing.assert_array_equal(folds, stratifiers.get(name, n_splits=k, random_state=seed).fold_ids(Y))
    return folds


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(Y=label_matrices(), k=st.integers(2, 6), seed=st.integers(0, 2**31))
def test_folds_partition_every_example_and_none_is_empty(name, Y, k, seed):
    if k <= Y.shape[0]:
        check_partition(name, Y, k, seed)


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(q=st.integers(1, 6), k=st.integers(2, 8), ones=st.booleans(), seed=st.integers(0, 2**31))
def test_n_equal_to_k_gives_one_example_per_fold(name, q, k, ones, seed):
    Y = np.full((k, q), int(ones), dtype=np.int8)
    assert (np.bincount(check_partition(name, Y, k, seed), minlength=k) == 1).all()


@pytest.mark.parametrize("name", ALL)
def test_no_empty_fold_where_methods_left_one_before(name):
    """Edge cases: SS on label-less rows, PMBSRS's remainders, optisplit on small data."""
    for n, k in ((40, 4), (105, 10), (6, 5), (12, 5), (30, 5)):
        for seed in range(4):
            Y = (np.random.default_rng(seed).random((n, 4)) < 0.15).astype(int)
            folds = check_partition(name, Y, k, seed)
            if name == "pmbsrs" and (n, k) == (105, 10):
                assert sorted(np.bincount(folds)) == [10] * 5 + [11] * 5  # not [15, 10, …, 10]


@pytest.mark.parametrize("name", ALL)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(Y=label_matrices(min_rows=6), shares=st.lists(st.integers(1, 5), min_size=2, max_size=4),
       seed=st.integers(0, 2**31))
def test_unequal_fold_shares(name, Y, shares, seed):
    n, k = Y.shape[0], len(shares)
    splitter = stratifiers.get(name, fold_shares=shares, random_state=seed)
    assert splitter.get_n_splits() == k
    folds = splitter.fold_ids(Y)
    sizes = np.bincount(folds, minlength=k)
    assert sizes.min() >= 1 and sizes.sum() == n
    if name in EQUAL_SIZES:
        assert np.all(np.abs(sizes - n * np.array(shares) / sum(shares)) < 1), (sizes.tolist(), shares)


@pytest.mark.parametrize("name", sorted(set(ALL) - DETERMINISTIC))
@settings(max_examples=15, deadline=None)
@given(Y=label_matrices(min_rows=20), k=st.integers(2, 5))
def test_different_seeds_give_different_folds(name, Y, k):
    runs = {stratifiers.get(name, n_splits=k, random_state=s).fold_ids(Y).tobytes() for s in range(8)}
    assert len(runs) > 1


@pytest.mark.parametrize("name", ALL)
def test_repeated_holdout_rounds_as_scikit_learn(name):
    """n_splits distinct seeded splits; test ⌈0.3·301⌉ = 91 rows exactly for the equal-size methods,
    about that for the others, like ShuffleSplit's."""
    rng = np.random.default_rng(5)
    Y = sp.csr_matrix((rng.random((301, 6)) < 0.2).astype(int))
    splitter = stratifiers.get(name, n_splits=4, test_size=0.3, random_state=1)
    assert splitter.get_n_splits() == 4
    pairs = list(splitter.split(None, Y))
    n_train, n_test = next(ShuffleSplit(test_size=0.3).split(np.zeros(301)))
    assert len(pairs) == 4 and len(n_test) == 91
    for train, test in pairs:
        assert len(train) + len(test) == 301 and len(np.intersect1d(train, test)) == 0
        assert abs(len(test) - 91) <= (0 if name in EQUAL_SIZES else 27)  # optisplit: sizes ±30% (medical k=10: 84–129)
    assert len({test.tobytes() for _, test in pairs}) == (1 if name in DETERMINISTIC else 4)  # distinct repeats
    again = [test for _, test in stratifiers.get(name, n_splits=4, test_size=0.3, random_state=1).split(None, Y)]
    assert all(np.array_equal(a, b) for a, b in zip(again, [t for _, t in pairs]))
    first = stratifiers.get(name, n_splits=1, test_size=0.3, random_state=1).fold_ids(Y)
    np.testing.assert_array_equal(np.flatnonzero(first == 1), pairs[0][1])


@pytest.mark.parametrize("name", ALL)
def test_holdout_counts_train_size_and_empty_sides(name):
    Y = (np.random.default_rng(2).random((50, 3)) < 0.3).astype(int)
    ids = stratifiers.get(name, n_splits=1, test_size=10, train_size=30, random_state=0).fold_ids(Y)
    counts = {v: int((ids == v).sum()) for v in (-1, 0, 1)}
    if name in EQUAL_SIZES:
        assert counts == {-1: 10, 0: 30, 1: 10}
    assert all(c >= 1 for c in counts.values()) and sum(counts.values()) == 50
    # n=5, test_size=0.1: ⌈0.5⌉ = 1 test row (it was 0 before); n=2, 0.9: ⌈1.8⌉ = 2 leaves no training row
    small = stratifiers.get(name, n_splits=3, test_size=0.1, random_state=0)
    for train, test in small.split(None, np.zeros((5, 2))):
        assert len(test) >= 1 and len(train) >= 1 and (len(test) == 1 or name not in EQUAL_SIZES)
    with pytest.raises(ValueError, match="train set would be empty"):
        stratifiers.get(name, test_size=0.9, random_state=0).fold_ids(np.zeros((2, 2)))
    with pytest.raises(ValueError, match="train set would be empty"):
        stratifiers.get(name, train_size=0.2, random_state=0).fold_ids(np.zeros((3, 2)))  # ⌊0.6⌋ = 0


@pytest.mark.parametrize("name", ALL)
def test_usable_in_sklearn_cross_validate(name):
    rng = np.random.default_rng(1)
    X = rng.random((60, 3))
    Y = (rng.random((60, 3)) < 0.4).astype(int)
    out = cross_validate(KNeighborsClassifier(3), X, Y, cv=stratifiers.get(name, n_splits=3, random_state=0))
    assert len(out["test_score"]) == 3


# The families of inputs, generated: what scikit-learn accepts the library accepts, with scikit-learn's sizes and
# meaning; what it refuses the library refuses with a ValueError of its own, never an internal error.
SIZE = st.one_of(st.none(), st.integers(-2, 70), st.floats(-0.5, 1.5, allow_nan=False))


@settings(max_examples=200, deadline=None)
@given(n=st.integers(2, 60), test_size=SIZE, train_size=SIZE, name=st.sampled_from(sorted(EQUAL_SIZES)))
def test_holdout_sizes_are_shuffle_splits_in_every_combination(n, test_size, train_size, name):
    from stratbench.model_selection import MultilabelStratifiedShuffleSplit

    Y = (np.random.default_rng(n).random((n, 3)) < 0.4).astype(int)
    try:
        want = next(ShuffleSplit(n_splits=1, test_size=test_size, train_size=train_size).split(np.zeros(n)))
    except ValueError:
        with pytest.raises(ValueError):
            next(MultilabelStratifiedShuffleSplit(n_splits=1, test_size=test_size, train_size=train_size,
                                                  random_state=0, method=name).split(None, Y))
        return
    train, test = next(MultilabelStratifiedShuffleSplit(n_splits=1, test_size=test_size, train_size=train_size,
                                                        random_state=0, method=name).split(None, Y))
    assert (len(train), len(test)) == (len(want[0]), len(want[1]))
    assert not np.intersect1d(train, test).size


GROUP_ID = st.one_of(st.integers(-2, 3), st.floats(-1, 3), st.just(np.inf), st.sampled_from(["a", "b", "c"]),
                     st.none(), st.booleans(), st.sampled_from([np.nan, -0.0, 1.0]))


@settings(max_examples=200, deadline=None)
@given(ids=st.lists(GROUP_ID, min_size=4, max_size=12))
def test_group_ids_are_taken_where_group_kfold_takes_them_and_kept_whole(ids):
    from sklearn.model_selection import GroupKFold

    from stratbench.model_selection import MultilabelStratifiedGroupKFold

    n, groups = len(ids), np.array(ids, dtype=object)
    Y = (np.random.default_rng(n).random((n, 3)) < 0.4).astype(int)
    try:
        list(GroupKFold(n_splits=2).split(np.zeros((n, 1)), groups=groups))
    except (ValueError, TypeError):  # TypeError: scikit-learn's own np.unique on ids that do not sort
        with pytest.raises(ValueError):
            list(MultilabelStratifiedGroupKFold(n_splits=2, random_state=0).split(None, Y, groups=groups))
        return
    for train, test in MultilabelStratifiedGroupKFold(n_splits=2, random_state=0).split(None, Y, groups=groups):
        assert not set(groups[train].tolist()) & set(groups[test].tolist())  # no id on both sides (1 == 1.0 == True)


METHOD = st.one_of(st.text(max_size=12), st.sampled_from(["ITERATIVE", " iterative", "iterativ", "os.path", "numpy.ndarray",
                                                          "sklearn.model_selection.KFold", "stratbench.nothing.Here",
                                                          "..", ".iterative", "os..path", "1x.y", "os.path."]),
                   st.integers(), st.none(), st.just(ShuffleSplit))


@settings(max_examples=100, deadline=None)
@given(method=METHOD)
def test_method_is_a_registered_name_or_a_stratifier_class_checked_at_construction(method):
    from stratbench.model_selection import MultilabelStratifiedKFold

    if isinstance(method, str) and method in stratifiers.names():
        MultilabelStratifiedKFold(n_splits=2, method=method)
        return
    with pytest.raises(ValueError) as refused:
        MultilabelStratifiedKFold(n_splits=2, method=method)
    written = method.__name__ if isinstance(method, type) else repr(method) if isinstance(method, str) else "registered"
    assert written in str(refused.value)  # the message names what was written


def _sklearn_defaults():
    """Each splitter beside the scikit-learn class whose spellings of a default it takes (the keyword defaults of
    scikit-learn's own signature)."""
    import inspect

    from sklearn.model_selection import GroupKFold, KFold, RepeatedKFold

    from stratbench import model_selection as ms

    def defaults(cls):
        return {k: p.default for k, p in inspect.signature(cls).parameters.items() if p.default is not p.empty}

    return [(ms.MultilabelStratifiedKFold, defaults(KFold)), (ms.MultilabelStratifiedGroupKFold, defaults(GroupKFold)),
            (ms.RepeatedMultilabelStratifiedKFold, defaults(RepeatedKFold)),
            (ms.MultilabelStratifiedShuffleSplit, defaults(ShuffleSplit))]


@settings(max_examples=60, deadline=None)
@given(pair=st.sampled_from(_sklearn_defaults()), data=st.data())
def test_scikit_learns_spellings_of_a_default_mean_the_default(pair, data):
    cls, defaults = pair
    given_ = data.draw(st.sets(st.sampled_from(sorted(defaults))), label="spelled")
    spelled = cls(**{k: defaults[k] for k in given_})
    counts = cls(**{k: defaults[k] for k in given_ if k in ("n_splits", "n_repeats")})
    Y = (np.random.default_rng(0).random((40, 3)) < 0.4).astype(int)
    groups = np.arange(40) % 10 if "Group" in cls.__name__ else None
    splits = list(spelled.split(None, Y, groups=groups))
    assert len(splits) == spelled.get_n_splits() == counts.get_n_splits()
    for train, test in splits:
        assert len(train) + len(test) <= 40 and not np.intersect1d(train, test).size
