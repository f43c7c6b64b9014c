import numpy as np
import pytest

from stratbench import StratbenchError
from stratbench.datasets import generate_synthetic
from stratbench.datasets.synthetic import combine_features, dependency_matrix, label_priors


def test_same_definition_same_data_and_seed_matters():
    a = generate_synthetic("s", 300, 6, 10, 1.5, 0.3, seed=7, census=5000)
    b = generate_synthetic("s", 300, 6, 10, 1.5, 0.3, seed=7, census=5000)
    c = generate_synthetic("s", 300, 6, 10, 1.5, 0.3, seed=8, census=5000)
    np.testing.assert_array_equal(a.X, b.X)
    assert (a.Y != b.Y).nnz == 0
    assert (a.Y != c.Y).nnz > 0
    assert a.X.shape == (300, 10) and a.Y.shape == (300, 6)


def test_every_labelset_is_nonempty():
    ds = generate_synthetic("s", 500, 10, 5, 2.0, 0.25, seed=1, census=2000)
    assert (np.asarray(ds.Y.sum(axis=1)).ravel() >= 1).all()


def test_priors_reach_the_cardinality():
    pi = label_priors(10, 3.0, np.random.default_rng(0))
    assert pi.sum() >= 3.0 - 1e-9 and (pi <= 1).all() and (pi > 0).all()
    with pytest.raises(StratbenchError, match="cardinality 11"):
        label_priors(10, 11, np.random.default_rng(0))


def test_dependency_matrix_formulas():
    pi = np.array([0.5, 0.2, 0.9])
    indep = dependency_matrix(pi, 0.0, np.random.default_rng(0))
    np.testing.assert_allclose(np.diag(indep), pi)
    # independent pairs: theta_jk = pi_j and theta_kj = pi_k
    assert indep[0, 1] == 0.5 and indep[1, 0] == pytest.approx(0.2)
    dep = dependency_matrix(pi, 1.0, np.random.default_rng(0))
    for j in range(3):
        for k in range(j + 1, 3):
            assert dep[j, k] in (pytest.approx(max(0, pi[j] + pi[k] - 1)), pytest.approx(min(1, pi[k] / pi[j])))
            assert dep[k, j] == pytest.approx(dep[j, k] * pi[j] / pi[k])


def test_attribute_copies_the_positive_instance_when_its_labelset_is_present():
    Y = np.array([[1, 0, 1], [0, 1, 0]])
    S = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0]], dtype=bool)  # S_0={0,2}, S_1={1}, S_2={0,1}
    x_pos, x_neg = np.full((2, 3), 1.0), np.full((2, 3), -1.0)
    np.testing.assert_array_equal(combine_features(Y, S, x_pos, x_neg), [[1, -1, -1], [-1, 1, -1]])


def test_features_carry_signal_about_the_labels():
    """With few RBF centroids a forest predicts a label far above chance (AUC)."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.model_selection import cross_val_score

    ds = generate_synthetic("s", 600, 8, 20, 2.0, 0.5, seed=1, centroids=4, census=20000)
    y = ds.Y[:, 0].toarray().ravel()
    auc = cross_val_score(RandomForestClassifier(50, random_state=0), ds.X, y, cv=3, scoring="roc_auc").mean()
    assert auc > 0.8
