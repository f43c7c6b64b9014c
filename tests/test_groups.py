"""Group-aware splitting (issue 20, item 1): a group's rows always share a fold, in k-fold and holdout
modes; sizes are counted in examples; singleton groups give the ungrouped folds; the label distribution
is stratified over the groups' label counts; methods that cannot split groups refuse them."""
import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.model_selection import GridSearchCV, cross_validate
from sklearn.neighbors import KNeighborsClassifier

from stratbench import stratifiers
from stratbench.fold_quality import fold_quality

GROUPED = [n for n in stratifiers.names() if stratifiers.resolve(n).supports_groups]
pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def grouped_data(seed, n_groups=60, labels=5):
    """Heavy-tailed group sizes (1 to ~30), labels shared within a group (each member keeps each of its
    group's labels with probability 0.8)."""
    rng = np.random.default_rng(seed)
    sizes = np.minimum(rng.zipf(1.8, n_groups), 30)
    group_labels = rng.random((n_groups, labels)) < rng.uniform(0.05, 0.5, labels)
    groups = np.repeat(np.arange(n_groups), sizes)
    Y = (group_labels[groups] & (rng.random((len(groups), labels)) < 0.8)).astype(int)
    return Y, rng.permutation(groups)  # groups interleaved over the rows


def test_the_grouped_methods():
    assert GROUPED == ["iterative", "random"]


@pytest.mark.parametrize("name", GROUPED)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), k=st.integers(2, 6), holdout=st.booleans())
def test_no_group_is_ever_in_two_folds(name, seed, k, holdout):
    Y, groups = grouped_data(seed)
    params = {"n_splits": 3, "test_size": 0.25} if holdout else {"n_splits": k}
    cv = stratifiers.get(name, random_state=seed, **params)
    splits = list(cv.split(None, Y, groups))
    assert len(splits) == cv.get_n_splits()
    for train, test in splits:
        assert not set(groups[train]) & set(groups[test])
        assert len(test) > 0 and len(train) > 0
    if not holdout:
        assert sorted(np.concatenate([t for _, t in splits]).tolist()) == list(range(len(Y)))  # a partition


@pytest.mark.parametrize("name", GROUPED)
def test_singleton_groups_give_the_ungrouped_folds(name):
    Y, _ = grouped_data(1)
    for params in ({"n_splits": 5}, {"n_splits": 3, "test_size": 0.2}):
        cv = stratifiers.get(name, random_state=3, **params)
        singletons = np.arange(len(Y))[::-1]  # any labels, one row each
        np.testing.assert_array_equal(cv.fold_ids(Y, groups=singletons), cv.fold_ids(Y))


def test_grouped_iterative_stratifies_better_than_grouped_random_and_sizes_count_examples():
    ld = {"iterative": [], "random": []}
    for seed in range(10):
        Y, groups = grouped_data(seed, n_groups=120)
        for name in ld:
            folds = stratifiers.get(name, n_splits=5, random_state=seed).fold_ids(Y, groups)
            ld[name].append(fold_quality(Y, folds, 5)["LD"])
            sizes = np.bincount(folds, minlength=5)
            assert sizes.max() - sizes.min() <= 2 * np.bincount(groups).max()  # as close as the groups allow
    assert np.mean(ld["iterative"]) < 0.7 * np.mean(ld["random"])


def test_scikit_learn_passes_groups_through():
    Y, groups = grouped_data(5)
    X = np.random.default_rng(0).random((len(Y), 3))
    cv = stratifiers.get("iterative", n_splits=3, random_state=0)
    out = cross_validate(KNeighborsClassifier(3), X, Y, cv=cv, groups=groups, return_indices=True)
    for train, test in zip(out["indices"]["train"], out["indices"]["test"]):
        assert not set(groups[train]) & set(groups[test])
    search = GridSearchCV(KNeighborsClassifier(), {"n_neighbors": [1, 3]}, cv=cv).fit(X, Y, groups=groups)
    assert search.best_params_["n_neighbors"] in (1, 3)


@pytest.mark.parametrize("name", sorted(set(stratifiers.names()) - set(GROUPED)))
def test_the_other_methods_refuse_groups_rather_than_ignore_them(name):
    Y, groups = grouped_data(2)
    cv = stratifiers.get(name, n_splits=3, random_state=0)
    with pytest.raises(ValueError, match="does not split by groups"):
        next(cv.split(None, Y, groups))
    with pytest.raises(ValueError, match="does not split by groups"):
        cross_validate(KNeighborsClassifier(1), np.zeros((len(Y), 1)), Y, cv=cv, groups=groups)
    assert len(list(cv.split(None, Y, None))) == 3


def test_groups_must_be_one_per_example():
    Y, groups = grouped_data(3)
    with pytest.raises(ValueError, match="one group label per example"):
        stratifiers.get("iterative", n_splits=3).fold_ids(Y, groups[:-1])


def test_a_hand_worked_grouped_split():
    """Groups a (3 rows, label 0), b (1 row, label 0), c (2 rows, label 1), d (2 rows, no label), k = 2,
    desired sizes 4 and 4. Label 1 has the fewest positives (2): c goes to a fold (a tie, at random),
    leaving it 2 to fill. Label 0 (4 positives, 2 per fold desired): a goes to the other, emptier fold
    (desires tie, sizes do not) and overshoots label 0 there (2 − 3 = −1), so b joins c. d, without
    labels, goes to either (both lack 1). Sizes 5 and 3: IS is greedy (a + b | c + d would be 4 | 4)."""
    Y = sp.csr_matrix([[1, 0], [1, 0], [1, 0], [1, 0], [0, 1], [0, 1], [0, 0], [0, 0]])
    groups = np.array(["a", "a", "a", "b", "c", "c", "d", "d"])
    for seed in range(5):
        folds = stratifiers.get("iterative", n_splits=2, random_state=seed).fold_ids(Y, groups)
        assert len(set(folds[:3])) == 1 and folds[4] == folds[5] and folds[6] == folds[7]
        assert folds[3] == folds[4] != folds[0]
        assert sorted(np.bincount(folds).tolist()) == [3, 5]
