import numpy as np
import pytest
import scipy.sparse as sp

from stratbench import classifiers
from stratbench.classifiers.calibrated_label_ranking import CalibratedLabelRanking
from stratbench.labels.network import cooccurrence_graph, label_partition, modularity, network_stability
from stratbench.measures.classification import evaluate

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


# --- the pooled path of a job: same predictions as the plain per-forest path ------------

def _plain_rows(X, Y, folds, k, make):
    from stratbench.measures.classification import evaluate as measures
    rows = []
    for j in range(k):
        model = make(j).fit(X[folds != j], Y[folds != j])
        rows += list(measures(Y[folds == j], model.predict(X[folds == j]), model.predict_scores(X[folds == j])).values())
    return np.array(rows)


@pytest.mark.parametrize("name", ALL)
def test_pooled_job_predicts_exactly_what_the_plain_per_forest_path_predicts(name, monkeypatch):
    """Every forest of every fold in one pool of 2 worker processes (sparse X densified when faster;
    label-powerset forests also grown one tree at a time) gives the very scores of fit() + predict()
    one forest after the other."""
    from stratbench.classifiers import forests as _forests
    from stratbench.classifiers.evaluation import evaluate_folds

    rng = np.random.default_rng(5)
    X = sp.random(150, 12, density=0.4, format="csr", random_state=5, dtype=np.float64)
    Y = (rng.random((150, 5)) < [0.5, 0.3, 0.1, 0.04, 0.0]).astype(np.int8)
    Y[:, 1] = (X[:, 0].toarray().ravel() > 0.2)  # one learnable label
    Y = sp.csr_matrix(Y)
    folds = np.arange(150) % 3

    def make(jobs):
        return lambda j: classifiers.get(name, n_estimators=6, random_state=40 + j, n_jobs=jobs)

    plain = _plain_rows(X, Y, folds, 3, make(1))
    pooled = evaluate_folds(X, Y, folds, 3, make(2), n_jobs=2)
    dense = evaluate_folds(X.toarray(), Y, folds, 3, make(2), n_jobs=2)
    assert len(pooled) == 3 * 6
    np.testing.assert_array_equal(pooled["value"].to_numpy(), plain)
    np.testing.assert_array_equal(dense["value"].to_numpy(), plain)
    monkeypatch.setattr(_forests, "STREAM_BYTES", 0)  # every LP forest streamed tree by tree
    streamed = evaluate_folds(X, Y, folds, 3, make(2), n_jobs=2)
    np.testing.assert_array_equal(streamed["value"].to_numpy(), plain)
    assert np.isfinite(plain[[0, 1, 6, 7]]).all()  # Hamming loss and subset accuracy of two folds


def test_the_layout_probe_times_a_stratified_sample_of_the_jobs_own_forests(monkeypatch):
    """faster_layout times the middle forest of each stratum of the job's tasks (sorted by rows and
    minority count), both ways, weighted by stratum size; dense only when that sum is 10% lower. Here
    dense is twice as fast on frequent labels and three times slower on rare ones (as on corel5k): a
    probe of the most frequent label alone would choose dense for a job of mostly rare labels."""
    from stratbench.classifiers import forests as _forests

    now = [0.0]

    def fake_train(task, X_train, n_jobs=1):
        frequent = task.minority() >= 20
        now[0] += (2.0 if frequent else 1.0) if sp.issparse(X_train) else (1.0 if frequent else 3.0)
        timed.append((sp.issparse(X_train), task.minority(), task.forest.get_params()["n_estimators"]))
        return 0.5

    monkeypatch.setattr(_forests, "train", fake_train)
    monkeypatch.setattr(_forests.time, "perf_counter", lambda: now[0])
    rng = np.random.default_rng(3)
    X = sp.random(80, 10, density=0.3, format="csr", random_state=3)
    train = np.arange(80) % 4 != 0
    Y = sp.csr_matrix((rng.random((80, 6)) < [0.5, 0.4, 0.2, 0.1, 0.05, 0.0]).astype(np.int8))
    tasks = classifiers.get("br", n_estimators=4, random_state=0).forest_tasks(Y[train])
    minorities = sorted(t.minority() for t in tasks if t.constant() is None)
    assert len(minorities) == 5 and minorities[3] >= 20 > minorities[2]  # the all-zero label trains no forest
    timed = []
    X_job, what = _forests.faster_layout(X, tasks, train, probe_trees=7, strata=4)
    # strata of 1, 1, 1 and 2 tasks (bounds 0, 1, 2, 3, 5): their middle tasks, twice each way, 7 trees
    assert [m for sparse, m, _ in timed if sparse] == [m for m in minorities[:4] for _ in (0, 1)]
    assert {trees for *_, trees in timed} == {7}
    # sparse 1 + 1 + 1 + 2 × 2 = 7 s against dense 3 + 3 + 3 + 2 × 1 = 11 s
    assert X_job is X and what == "sparse (probe of 5 forests in 4 strata: 7.000 s sparse, 11.000 s dense)"
    frequent = sp.csr_matrix((rng.random((80, 3)) < 0.5).astype(np.int8))
    timed = []
    X_job, what = _forests.faster_layout(X, classifiers.get("br", n_estimators=4).forest_tasks(frequent[train]), train)
    assert not sp.issparse(X_job) and X_job.dtype == np.float32 and what.startswith("dense float32")
    np.testing.assert_array_equal(X_job, X.toarray().astype(np.float32))
    assert _forests.faster_layout(X.toarray(), tasks, train)[1] == "dense"
    none, what = _forests.faster_layout(X, [t for t in tasks if t.constant() is not None], train)
    assert none is X and what == "sparse"


class Pid:
    """A "forest" whose P(y=1) is the id of the process that fitted it."""

    def get_params(self, deep=True):
        return {}

    def fit(self, X, y):
        import os

        self.classes_, self.pid = np.array([0, 1]), os.getpid()
        return self

    def predict_proba(self, X):
        return np.column_stack([np.zeros(len(X)), np.full(len(X), float(self.pid))])


def test_forest_pool_runs_every_task_in_worker_processes():
    """With many forests the pool forks n_jobs workers; the outputs come back in task order."""
    import os

    from stratbench.classifiers.forests import ForestPool, ForestTask

    X, folds = np.zeros((20, 2)), np.arange(20) % 2
    tasks = {f: [ForestTask(np.array([0, 1] * 5), Pid()) for _ in range(6)] for f in (0, 1)}
    tasks[1].append(ForestTask(np.zeros(10, dtype=int), Pid()))  # one class: answered without a forest
    out = ForestPool(X, folds, n_jobs=2).run(tasks)
    pids = {float(o[0]) for f in (0, 1) for o in out[f][:6]}
    assert os.getpid() not in pids and 1 <= len(pids) <= 2
    assert [len(o) for o in out[0]] == [10] * 6 and list(out[1][6]) == [0.0] * 10


def test_a_user_classifier_without_forest_tasks_runs_fit_predict_per_fold():
    from stratbench.classifiers import MultilabelClassifier
    from stratbench.classifiers.evaluation import evaluate_folds

    class Majority(MultilabelClassifier):
        def fit(self, X, Y):
            self.p_ = np.asarray(sp.csr_matrix(Y).mean(axis=0)).ravel()
            return self

        def predict(self, X):
            return np.tile(self.p_ > 0.5, (X.shape[0], 1)).astype(np.int8)

    Y = sp.csr_matrix(np.array([[1, 0], [1, 1], [1, 0], [0, 0]] * 5))
    rows = evaluate_folds(np.zeros((20, 1)), Y, np.repeat([0, 1], 10), 2, lambda j: Majority(), n_jobs=2)
    hamming = rows[rows["measure"] == "hamming_loss"]["value"].tolist()
    # both folds predict {λ0} (label shares 0.75/0.25 and 0.8/0.3 in training), wrong once on
    # [1, 1] and once on [0, 0]: 5 wrong of 20 label decisions per fold
    assert hamming == [0.25, 0.25]


def test_forests_a_fold_trains_size_the_evaluation_jobs():
    """What stratbench.study.plans.BenchmarkPlan.evaluate_per_repeat counts: BR one forest a label, CLR q + q(q − 1)/2,
    LP one forest whose trees cost 1 + C/400 binary ones (C ≤ examples, ≤ 2^q)."""
    assert classifiers.get("br").fold_forests(593, 6) == 6
    assert classifiers.get("clr").fold_forests(593, 6) == 6 + 15
    assert classifiers.get("lp").fold_forests(593, 6) == 1 + 64 / 400
    assert classifiers.get("lp").fold_forests(5000, 374) == 1 + 5000 / 400
