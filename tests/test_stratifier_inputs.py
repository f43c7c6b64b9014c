"""What the splitters accept as y and random_state (scikit-learn's conventions), and the one clear
ValueError for anything else."""
import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from stratbench import stratifiers
from stratbench.stratifiers import as_label_matrix

Y = np.array([[1, 0], [0, 1], [1, 1], [0, 0], [1, 0], [0, 1], [1, 1], [0, 0]])


@pytest.mark.parametrize("y", [
    pd.DataFrame({"a": pd.array(Y[:, 0], dtype="Int64"), "b": pd.array(Y[:, 1], dtype="Int64")}),
    pd.DataFrame({"a": pd.array(Y[:, 0].astype(bool), dtype="boolean"), "b": pd.array(Y[:, 1].astype(bool), dtype="boolean")}),
    Y.astype(bool), Y.tolist(), sp.csc_matrix(Y), Y.astype(float), pd.DataFrame(Y),
], ids=["Int64", "boolean", "bool", "lists", "csc", "float", "frame"])
def test_label_matrices_scikit_learn_accepts(y):
    assert (as_label_matrix(y).toarray() == Y).all()
    folds = stratifiers.get("iterative", n_splits=2, random_state=0).fold_ids(y)
    np.testing.assert_array_equal(folds, stratifiers.get("iterative", n_splits=2, random_state=0).fold_ids(Y))


def test_one_label_as_a_vector_or_series():
    assert as_label_matrix(pd.Series([1, 0, 1])).shape == (3, 1)
    assert as_label_matrix([True, False]).toarray().tolist() == [[1], [0]]


@pytest.mark.parametrize("y, message", [
    (np.zeros((4, 2, 2)), "dim 3"),
    ([[1, 0], [1]], r"ragged: its rows have \[1, 2\] entries"),
    ([["a", "b"], ["c", "d"]], "strings"),
    (np.array([[1.0, np.nan], [0, 1]]), "NaN"),
    (pd.DataFrame({"a": pd.array([1, None], dtype="Int64")}), "NaN"),
    (np.zeros((0, 3)), "0 sample"),
    (sp.csr_matrix((0, 3)), "no rows"),
    (np.array([[0, 2], [1, 0]]), "label column 1 is not 0/1 .value 2."),
])
def test_anything_else_is_one_value_error_naming_the_problem(y, message):
    with pytest.raises(ValueError, match=message) as info:
        stratifiers.get("random", n_splits=2, random_state=0).fold_ids(y)
    assert "\n" not in str(info.value)


def test_random_state_none_draws_from_numpys_global_state():
    np.random.seed(3)
    a = stratifiers.get("random", n_splits=2).fold_ids(Y)
    b = stratifiers.get("random", n_splits=2).fold_ids(Y)
    np.random.seed(3)
    np.testing.assert_array_equal(stratifiers.get("random", n_splits=2).fold_ids(Y), a)
    folds = [stratifiers.get("random", n_splits=2).fold_ids(np.zeros((40, 1))) for _ in range(4)]
    assert len({f.tobytes() for f in folds}) > 1 and b.shape == (8,)


def test_random_state_accepts_randomstate_and_generator_like_scikit_learn():
    rs = np.random.RandomState(0)
    cv = stratifiers.get("iterative", n_splits=2, random_state=rs)
    first, second = cv.fold_ids(np.zeros((40, 1))), cv.fold_ids(np.zeros((40, 1)))
    assert not np.array_equal(first, second)  # the instance advances, as scikit-learn's splitters do
    again = stratifiers.get("iterative", n_splits=2, random_state=np.random.RandomState(0)).fold_ids(np.zeros((40, 1)))
    np.testing.assert_array_equal(first, again)
    gen = stratifiers.get("sois", n_splits=2, random_state=np.random.default_rng(1)).fold_ids(Y)
    assert sorted(np.bincount(gen)) == [4, 4]
    X = np.random.default_rng(0).random((8, 2))
    scores = cross_val_score(KNeighborsClassifier(1), X, Y, cv=stratifiers.get("random", n_splits=2,
                                                                              random_state=np.random.RandomState(1)))
    assert len(scores) == 2
    with pytest.raises(ValueError, match="random_state must be"):
        stratifiers.get("random", n_splits=2, random_state="seven").fold_ids(Y)


def test_a_label_rarer_than_the_folds_is_warned_of_once():
    y = np.zeros((30, 3), dtype=int)
    y[:2, 0] = 1      # 2 positives < 5 folds
    y[:, 1] = 1
    with pytest.warns(UserWarning, match=r"1 of 3 labels have fewer positives than the 5 folds .the least populated has 2."):
        stratifiers.get("iterative", n_splits=5, random_state=0).fold_ids(y)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        stratifiers.get("iterative", n_splits=2, random_state=0).fold_ids(y)  # 2 ≥ 2 folds: no warning
