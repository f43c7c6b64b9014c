import numpy as np
import pytest
from sklearn.metrics import average_precision_score, coverage_error, label_ranking_loss, roc_auc_score

from stratbench.measures.classification import (
    coverage,
    evaluate,
    hamming_loss,
    label_ranks,
    mean_average_precision,
    micro_auc,
    ranking_loss,
    subset_accuracy,
)

Y = np.array([[1, 0, 1], [0, 1, 0], [1, 1, 0], [0, 0, 0]])
H = np.array([[1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 1, 0]])
S = np.array([[0.9, 0.2, 0.4], [0.1, 0.8, 0.3], [0.7, 0.6, 0.5], [0.2, 0.6, 0.1]])


def test_bipartition_measures_by_hand():
    assert hamming_loss(Y, H) == pytest.approx(2 / 12)  # row 0 misses label 2, row 3 adds label 1
    assert subset_accuracy(Y, H) == 0.5


def test_ranking_measures_by_hand_without_ties():
    # ranks: row0 (1,3,2): relevant {0,2} -> worst rank 2 -> coverage 1; row1 (3,1,2) -> 0; row2 (1,2,3) -> 1;
    # row3 label-less -> 0. Mean 2/4.
    assert coverage(Y, S) == pytest.approx(0.5)
    # no ties: sklearn's coverage is ours + 1 on rows with labels
    assert coverage(Y, S) == pytest.approx(coverage_error(Y, S) - 3 / 4)
    # every row is ranked perfectly -> 0
    assert ranking_loss(Y, S) == 0
    assert label_ranking_loss(Y, S) == 0


def test_ranking_loss_and_coverage_by_hand_with_errors():
    Yb = np.array([[1, 0, 0, 1]])
    Sb = np.array([[0.1, 0.9, 0.5, 0.7]])  # ranks 4,1,3,2: relevant {0 (4), 3 (2)}
    # pairs (0,1),(0,2) wrong, (3,1) wrong, (3,2) right -> 3/4
    assert ranking_loss(Yb, Sb) == pytest.approx(0.75)
    assert coverage(Yb, Sb) == 3
    assert label_ranking_loss(Yb, Sb) == pytest.approx(0.75)


def test_ties_follow_mulan_lower_index_ranks_worse():
    St = np.array([[0.5, 0.5, 0.5]])
    np.testing.assert_array_equal(label_ranks(St), [[3, 2, 1]])
    # label 0 relevant and tied with all: MULAN gives it the worst rank -> coverage 2, ranking loss 1
    assert coverage(np.array([[1, 0, 0]]), St) == 2
    assert ranking_loss(np.array([[1, 0, 0]]), St) == 1
    assert ranking_loss(np.array([[0, 0, 1]]), St) == 0


def test_mean_average_precision_by_hand_and_against_sklearn():
    # label 0 ranked by score: rows 0 (0.9, rel), 2 (0.7, rel) -> AP 1
    # label 1: rows 1 (0.8 rel), 3 (0.6 irr), 2 (0.6 rel, stable: row 2 before row 3) ...
    Yl = Y[:3]
    Sl = S[:3]
    expected = np.mean(average_precision_score(Yl, Sl, average=None))
    assert mean_average_precision(Yl, Sl) == pytest.approx(expected)
    # by hand on all rows: label 0 AP 1; label 1: rows 1 (0.8), 2 (0.6, rel) before 3 (0.6) -> AP 1;
    # label 2: row 2 (0.5, irr) ranks above row 0 (0.4, rel) -> AP 1/2
    assert mean_average_precision(Y, S) == pytest.approx(2.5 / 3)
    # a label without positives in the fold makes MAP NaN (2011 MULAN)
    assert np.isnan(mean_average_precision(np.array([[1, 0], [0, 0]]), np.array([[0.5, 0.1], [0.2, 0.3]])))


def test_average_precision_hand_value_with_a_miss():
    # one label, scores rank rows 0,1,2; relevant rows 0 and 2 -> (1/1 + 2/3)/2
    assert mean_average_precision(np.array([[1], [0], [1]]), np.array([[0.9], [0.5], [0.1]])) == pytest.approx(5 / 6)


def test_micro_auc():
    assert micro_auc(Y, S) == pytest.approx(roc_auc_score(Y.ravel(), S.ravel()))
    assert np.isnan(micro_auc(np.zeros((2, 2)), np.ones((2, 2))))


def test_evaluate_gives_nan_where_input_is_missing():
    out = evaluate(Y, H, None)
    assert out["hamming_loss"] == pytest.approx(2 / 12)
    assert np.isnan(out["coverage"]) and np.isnan(out["micro_auc"])
    assert list(out) == ["hamming_loss", "subset_accuracy", "coverage", "ranking_loss",
                         "mean_average_precision", "micro_auc"]
