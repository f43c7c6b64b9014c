import numpy as np
import pytest
import scipy.sparse as sp

from stratbench import classifiers
from stratbench.classifiers.calibrated_label_ranking import CalibratedLabelRanking
from stratbench.measures import evaluate
from stratbench.network import cooccurrence_graph, label_partition, modularity, network_stability

ALL = ["br", "lp", "clr", "fg", "fgw"]


def test_every_classifier_is_registered():
    assert classifiers.names() == sorted(ALL)


def test_label_powerset_predicts_exact_labelsets_on_separable_data():
    rng = np.random.default_rng(0)
    labelsets = np.array([[1, 0, 0], [1, 1, 0], [0, 0, 1], [0, 0, 0]])
    cls = rng.integers(0, 4, 200)
    X = np.eye(4)[cls] * 5 + rng.normal(0, 0.1, (200, 4))
    Y = sp.csr_matrix(labelsets[cls])
    model = classifiers.get("lp", n_estimators=20, random_state=0).fit(X[:150], Y[:150])
    np.testing.assert_array_equal(model.predict(X[150:]), labelsets[cls[150:]])
    scores = model.predict_scores(X[150:])
    # a label's score is the summed probability of the labelsets that contain it
    assert ((scores > 0.5) == labelsets[cls[150:]]).all()
    assert np.all((scores >= 0) & (scores <= 1 + 1e-12))


def test_clr_votes_by_hand():
    """q = 3; pairwise: λ0 ≻ λ1, λ0 ≻ λ2, λ2 ≻ λ1; calibration: λ0 and λ2 relevant, λ1 not.
    v = (2+1, 0+0, 1+1) = (3, 0, 2); v0 = 1 → relevant {λ0, λ2}; scores v/3."""
    model = CalibratedLabelRanking()
    model.n_labels_ = 3
    model.pairs_ = {(0, 1): 1.0, (0, 2): 1.0, (1, 2): 0.0}
    model.calibration_ = [1.0, 0.0, 1.0]
    X = np.zeros((2, 1))
    votes, virtual = model.votes(X)
    np.testing.assert_array_equal(votes, [[3, 0, 2]] * 2)
    np.testing.assert_array_equal(virtual, [1, 1])
    np.testing.assert_array_equal(model.predict(X), [[1, 0, 1]] * 2)
    np.testing.assert_allclose(model.predict_scores(X), [[1, 0, 2 / 3]] * 2)
    # a pair without training rows casts no vote
    del model.pairs_[1, 2]
    np.testing.assert_array_equal(model.votes(X)[0], [[3, 0, 1]] * 2)


def test_clr_ranking_agrees_with_its_pairwise_votes_after_training():
    rng = np.random.default_rng(1)
    X = rng.random((120, 5))
    Y = sp.csr_matrix((X[:, :3] + rng.normal(0, 0.1, (120, 3)) > 0.5).astype(int))
    model = classifiers.get("clr", n_estimators=10, random_state=0).fit(X[:90], Y[:90])
    assert len(model.pairs_) == 3 and len(model.calibration_) == 3
    Xt = X[90:]
    wins = np.zeros((30, 3))
    for (i, j), m in model.pairs_.items():
        p = m.predict_proba(Xt)[:, list(m.classes_).index(1)] if not isinstance(m, float) else np.full(30, m)
        wins[:, i] += p >= 0.5
        wins[:, j] += p < 0.5
    calib = np.column_stack([m.predict_proba(Xt)[:, 1] for m in model.calibration_]) > 0.5
    np.testing.assert_allclose(model.predict_scores(Xt), (wins + calib) / 3)


def two_triangles_with_a_bridge(weight=1):
    rows = [[0, 1], [0, 2], [1, 2], [3, 4], [3, 5], [4, 5]] * weight + [[2, 3], [6]]
    Y = np.zeros((len(rows), 7), dtype=int)
    for r, labels in enumerate(rows):
        Y[r, labels] = 1
    return sp.csr_matrix(Y)


@pytest.mark.parametrize("weighted, weight, expected_q", [
    (False, 1, 2 * (3 / 7 - (7 / 14) ** 2)),      # m = 7 edges, each triangle: 3 inside, degree 7
    (True, 3, 2 * (9 / 19 - (19 / 38) ** 2)),     # triangle edges of weight 3, bridge 1: m = 19
])
def test_partitioner_finds_the_two_cliques(weighted, weight, expected_q):
    Y = two_triangles_with_a_bridge(weight)
    partition = label_partition(Y, weighted)
    assert partition == ((0, 1, 2), (3, 4, 5), (6,))  # the isolated label stays a singleton
    G = cooccurrence_graph(Y, weighted)
    assert G.number_of_nodes() == 7
    assert modularity(G, partition, weighted) == pytest.approx(expected_q)


def test_partitioning_classifier_uses_one_lp_per_community():
    rng = np.random.default_rng(2)
    Y = two_triangles_with_a_bridge(5)
    X = rng.random((Y.shape[0], 4))
    for name in ("fg", "fgw"):
        model = classifiers.get(name, n_estimators=5, random_state=0).fit(X, Y)
        assert model.communities_ == ((0, 1, 2), (3, 4, 5), (6,))
        assert model.predict(X).shape == (Y.shape[0], 7) and model.predict_scores(X).shape == (Y.shape[0], 7)


@pytest.mark.parametrize("name", ALL)
def test_every_classifier_survives_a_label_absent_from_training(name):
    rng = np.random.default_rng(3)
    X = sp.csr_matrix(rng.random((60, 8)) * (rng.random((60, 8)) < 0.5))
    Y = (rng.random((60, 4)) < 0.4).astype(int)
    Y[:40, 3] = 0     # label 3: no positive in the training rows
    Y[40:45, 3] = 1   # ... but some in the test rows
    Y[40, :3] = 1     # every label has a positive among the test rows
    Y = sp.csr_matrix(Y)
    model = classifiers.get(name, n_estimators=5, random_state=0).fit(X[:40], Y[:40])
    H, S = model.predict(X[40:]), model.predict_scores(X[40:])
    assert H.shape == S.shape == (20, 4)
    assert set(np.unique(H)) <= {0, 1} and (H[:, 3] == 0).all()
    values = evaluate(Y[40:], H, S)
    assert all(np.isfinite(v) for v in values.values()), values


def test_same_seed_same_predictions_whatever_n_jobs():
    rng = np.random.default_rng(4)
    X = rng.random((80, 5))
    Y = sp.csr_matrix((rng.random((80, 3)) < 0.4).astype(int))
    for name in ALL:
        a = classifiers.get(name, n_estimators=8, random_state=7, n_jobs=1).fit(X, Y).predict_scores(X)
        b = classifiers.get(name, n_estimators=8, random_state=7, n_jobs=2).fit(X, Y).predict_scores(X)
        np.testing.assert_array_equal(a, b)


def test_network_stability_rows():
    Y = two_triangles_with_a_bridge(4)
    folds = np.arange(Y.shape[0]) % 2
    rows = network_stability(Y, folds, 2)
    matched = rows[(rows.measure == "matched_partition")]
    assert len(matched) == 4  # 2 folds × weighted/unweighted
    q = rows[(rows.measure == "modularity") & (rows.part == "train")]["value"]
    assert (q > 0.2).all()  # two dense cliques in every training half
    communities = rows[(rows.measure == "communities")]["value"]
    assert (communities >= 3).all()  # all 7 labels are vertices: at least the two cliques and label 6
