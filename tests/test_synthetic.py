import warnings

import numpy as np
import pytest

from stratbench import StratbenchError
from stratbench.datasets import generate_synthetic
from stratbench.datasets.synthetic import combine_features, dependency_matrix, label_priors, rescaled


def test_same_definition_same_data_and_seed_matters():
    a = generate_synthetic("s", 300, 6, 10, 1.5, 0.1, seed=7, census=5000)
    b = generate_synthetic("s", 300, 6, 10, 1.5, 0.1, seed=7, census=5000)
    c = generate_synthetic("s", 300, 6, 10, 1.5, 0.1, seed=8, census=5000)
    np.testing.assert_array_equal(a.X, b.X)
    assert (a.Y != b.Y).nnz == 0
    assert (a.Y != c.Y).nnz > 0
    assert a.X.shape == (300, 10) and a.Y.shape == (300, 6)


def test_every_labelset_is_nonempty():
    ds = generate_synthetic("s", 500, 10, 5, 2.0, 0.1, seed=1, census=2000)
    assert (np.asarray(ds.Y.sum(axis=1)).ravel() >= 1).all()


def test_priors_are_rescaled_to_the_sum_both_ways_as_moa_does():
    """MOA's generatePriors: repeat {c = Σπ/z; π = min(1, π/c)} until Σπ ≥ z, at least once — a sum above z is
    scaled down too (the old loop tested first and left 10 uniforms' sum of about 5 at 5 for z = 3)."""
    raw = np.random.default_rng(0).random(10)
    assert raw.sum() > 3.0
    pi = label_priors(10, 3.0, np.random.default_rng(0))
    assert pi.sum() == pytest.approx(3.0) and (pi <= 1).all() and (pi > 0).all()
    np.testing.assert_allclose(pi, raw * 3.0 / raw.sum())  # nothing clipped: one division
    clipped = rescaled(np.array([0.1, 0.2, 0.9]), 2.4)  # 0.9 clips at 1, the rest rescaled again
    assert clipped.sum() == pytest.approx(2.4) and clipped[2] == 1.0
    with pytest.raises(StratbenchError, match="cardinality 11"):
        label_priors(10, 11, np.random.default_rng(0))


GRID = [(labels, z, u, n) for labels in (6, 20, 40) for z in (1.2, 1.5, 2.0, 3.0) for u in (0.0, 0.05, 0.25)
        for n in (500, 2000) if z <= labels]


@pytest.mark.parametrize("labels, cardinality, dependence, examples", GRID)
def test_the_data_realise_the_configured_cardinality(labels, cardinality, dependence, examples):
    """The realised labels a row within 10% of ``cardinality`` (the old generator gave 4.7 for 1.5 at 20 labels:
    its priors were only ever scaled up); where the pairs tending to co-occur keep the draw above the target
    whatever the priors, the dependence is weakened to what the cardinality allows, with a notice."""
    with warnings.catch_warnings(record=True) as notices:
        warnings.simplefilter("always")
        ds = generate_synthetic("s", examples, labels, 4, cardinality, dependence, seed=5, census=2000)
    weakened = [str(w.message) for w in notices if "the generator uses" in str(w.message)]
    assert not weakened or dependence > 0  # only a dependence can be weakened
    realised = ds.Y.sum() / examples
    assert abs(realised - cardinality) <= 0.1 * cardinality, realised


def test_a_cardinality_below_what_the_dependence_allows_weakens_the_dependence_with_a_notice(tmp_path):
    """40 labels at 1.5 a row: dependence 0.25 leaves at least 2.4 labels a row (a first label brings its
    co-occurring partners), so the generator weakens the dependence to what 1.5 allows, as MOA's does, and says so;
    the data then realise 1.5. A cardinality outside [1, labels] is refused as before."""
    with pytest.warns(UserWarning, match=r"synthetic dataset 'r': cardinality 1.5 over 40 labels cannot be realised at "
                                         r"dependence 0.25; the generator uses 0.0\d+"):
        ds = generate_synthetic("r", 500, 40, 4, 1.5, 0.25, seed=3, census=2000)
    assert abs(ds.Y.sum() / 500 - 1.5) <= 0.1 * 1.5
    # the dependence used is recorded: in the dataset's file, its statistics row and `stratbench check`'s line
    assert 0 < ds.dependence < 0.1
    from stratbench.__main__ import generated_statistics
    from stratbench.datasets import dataset_statistics, load_dataset, save_dataset

    save_dataset(ds, tmp_path / "r.npz")
    assert load_dataset(tmp_path / "r.npz").dependence == ds.dependence
    assert dataset_statistics("r", ds.Y, ds.dependence)["dependence"] == ds.dependence
    line = generated_statistics("r", "synthetic", {"cardinality": 1.5, "dependence": 0.25}, ds.Y, ds.dependence)
    assert line.endswith(f"dependence {ds.dependence:.4g} (configured 0.25: the strongest this cardinality allows)")
    assert generate_synthetic("s", 50, 4, 2, 1.5, 0.25, seed=3, census=200).dependence == 0.25  # as configured
    with pytest.raises(StratbenchError, match=r"cardinality 0.5 must lie in \[1, labels=6\]"):
        generate_synthetic("r", 500, 6, 4, 0.5, 0.0, seed=3)


MULAN_SHAPES = {  # (labels, labels a row) of the 14 MULAN datasets of the mirror
    "bibtex": (159, 2.402), "birds": (19, 1.014), "cal500": (174, 26.044), "corel5k": (374, 3.522),
    "delicious": (983, 19.02), "emotions": (6, 1.868), "enron": (53, 3.378), "flags": (7, 3.392),
    "foodtruck": (12, 2.29), "genbase": (27, 1.252), "medical": (45, 1.245), "scene": (6, 1.074),
    "tmc2007-500": (22, 2.158), "yeast": (14, 4.237)}


@pytest.mark.parametrize("name", list(MULAN_SHAPES))
def test_the_generator_reaches_every_mulan_datasets_shape_at_the_default_dependence(name):
    """At the default dependence (0.25) the generator used to refuse medical's (45, 1.25), genbase's (27, 1.25) and
    bibtex's (159, 2.4) shapes; now each of the 14 is realised within 10% (2,000 rows), the dependence weakened
    where the cardinality needs it (with a notice)."""
    from stratbench.datasets.synthetic import label_model, sample_labelsets

    labels, cardinality = MULAN_SHAPES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the notice, where the dependence is weakened
        pi, theta, rng, _ = label_model(name, labels, cardinality)
    realised = sample_labelsets(2000, pi, theta, rng).sum(axis=1).mean()
    assert abs(realised - cardinality) <= 0.1 * cardinality, realised


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
