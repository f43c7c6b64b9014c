import numpy as np
import pytest

from stratbench.measures.fold_quality import (
    deviation_from_ideal_share,
    exact_size_floors,
    example_distribution,
    fold_label_pairs_with_zero,
    fold_quality,
    folds_with_zero_label,
    label_distribution,
    pair_measures,
    relative_label_distribution,
    rld_lower_bound,
)

# n=4, q=2, k=2; label 0 on rows 0,1,2, label 1 on row 3; folds {0,1} and {2,3}.
Y = np.array([[1, 0], [1, 0], [1, 0], [0, 1]])
FOLDS = np.array([0, 0, 1, 1])


def test_example_distribution():
    assert example_distribution(FOLDS, 2) == 0
    # sizes 3 and 1 against n/k = 2
    assert example_distribution(np.array([0, 0, 0, 1]), 2) == 1.0
    # scene, 10 folds of 2407: 7 folds of 241 and 3 of 240 -> 0.42 as in Sechidis Table 2
    assert example_distribution(np.repeat(np.arange(10), [241] * 7 + [240] * 3), 10) == pytest.approx(0.42)


def test_label_distribution_by_hand():
    # label 0: |D|/(n-|D|) = 3. Fold 0 holds it in 2 of 2 (guarded to 1 of 2 -> ratio 1): |1-3| = 2;
    # fold 1 in 1 of 2 -> ratio 1: |1-3| = 2. Mean 2.
    # label 1: 1/3. Fold 0: 0 -> 1/3; fold 1: 1 of 2 -> ratio 1: 2/3. Mean 1/2.  LD = (2 + 1/2)/2.
    assert label_distribution(Y, FOLDS, 2) == pytest.approx(1.25)


def test_perfect_split_has_zero_ld():
    Y2 = np.array([[1, 0], [0, 1], [1, 0], [0, 1]])
    assert label_distribution(Y2, np.array([0, 0, 1, 1]), 2) == 0


def test_fz_and_flz():
    assert folds_with_zero_label(Y, FOLDS, 2) == 1
    assert fold_label_pairs_with_zero(Y, FOLDS, 2) == 1
    # both labels missing from fold 1
    assert fold_label_pairs_with_zero(np.array([[1, 1], [1, 1], [0, 0], [0, 0]]), FOLDS, 2) == 2
    assert fold_quality(Y, FOLDS, 2, pairs=False) == {
        "ED": 0.0, "LD": pytest.approx(1.25), "FZ": 1, "FLZ": 1, "rLD": pytest.approx(2 / 3), "DCP": pytest.approx(1 / 3)}


def test_rld_and_dcp_by_hand():
    # label 0: d = 3/4, p = (1, 1/2) -> rLD (1/3 + 1/3)/2 = 1/3, DCP max(2/3, 1/3) - 1/2 = 1/6
    # label 1: d = 1/4, p = (0, 1/2) -> rLD (1 + 1)/2 = 1,    DCP 1 - 1/2 = 1/2
    assert relative_label_distribution(Y, FOLDS, 2) == pytest.approx((1 / 3 + 1) / 2)
    assert deviation_from_ideal_share(Y, FOLDS, 2) == pytest.approx((1 / 6 + 1 / 2) / 2)
    # a label without positives is left out instead of making the mean NaN
    Y3 = np.hstack([Y, np.zeros((4, 1), dtype=int)])
    assert relative_label_distribution(Y3, FOLDS, 2) == pytest.approx(2 / 3)


def test_pair_measures_by_hand():
    # pairs: (0,1) on rows 0,1 -> fold counts (2, 0); (0,2) on row 2 -> (0, 1)
    Yp = np.array([[1, 1, 0], [1, 1, 0], [1, 0, 1], [0, 1, 0]])
    m = pair_measures(Yp, FOLDS, 2)
    # FLPZ: (0,1) has 1 zero, none inevitable; (0,2) has 1 zero, 1 inevitable (k - |D^e| = 1)
    assert m["FLPZ"] == 1
    # each fold misses one of the two pairs
    assert m["pair_zero_share"] == 0.5 and m["pair_zero_share_std"] == 0
    # LPD: (0,1) d-ratio 1: fold 0 (2 of 2, guarded to 1 of 2) -> 0, fold 1 -> 1; (0,2) d-ratio 1/3:
    # fold 0 -> 1/3, fold 1 (1 of 2) -> 2/3. Mean over pairs and folds: 1/2
    assert m["LPD"] == pytest.approx(0.5)


def test_exact_size_floors_by_hand_and_as_bounds():
    # n = 7, k = 3: sizes (3, 2, 2). Label A (2 positives, d = 2/7): counts (1, 1, 0), rLD =
    # (|1/3 − 2/7| + |1/2 − 2/7| + 2/7) / 3 / (2/7) = 23/36, DCP floor 1/2 − 1/3 = 1/6.
    # Label B (3 positives, d = 3/7): counts (1, 1, 1), rLD = (2/21 + 1/14 + 1/14) / 3 / (3/7) = 5/27, DCP 0.
    Y7 = np.zeros((7, 2), dtype=int)
    Y7[[0, 1], 0] = 1
    Y7[[2, 3, 4], 1] = 1
    floors = exact_size_floors(Y7, 3)
    assert floors["rLD"] == pytest.approx((23 / 36 + 5 / 27) / 2)
    assert floors["DCP"] == pytest.approx(1 / 12)
    # a bound: no exact-size split goes below it, and the hybrid reaches it on this small case
    from stratbench import stratifiers
    for name in ("random", "iterative", "hybrid"):
        for seed in range(5):
            q = fold_quality(Y7, stratifiers.get(name, n_splits=3, random_state=seed).fold_ids(Y7), 3, pairs=False)
            assert q["rLD"] >= floors["rLD"] - 1e-12 and q["DCP"] >= floors["DCP"] - 1e-12
            if name == "hybrid":
                assert q["rLD"] == pytest.approx(floors["rLD"]) and q["DCP"] == pytest.approx(floors["DCP"])


def test_rld_lower_bound_by_hand():
    """n = 6, k = 3, one positive (d = 1/6). Folds of exactly 2: (|1/2 − 1/6| + 2·1/6)/3/(1/6) = 4/3.
    With one example of slack (sizes 1 to 3) the positive goes into a fold of 3: (1/6 + 2·1/6)/3/(1/6)
    = 1, which the split of sizes (3, 2, 1) reaches."""
    Y6 = np.zeros((6, 1), dtype=int)
    Y6[0, 0] = 1
    assert rld_lower_bound(Y6, 3, slack=0) == pytest.approx(4 / 3)
    assert rld_lower_bound(Y6, 3, slack=1) == pytest.approx(1.0)
    assert relative_label_distribution(Y6, np.array([0, 0, 0, 1, 1, 2]), 3) == pytest.approx(1.0)
    # the n = 7 case above: a relaxation of the exact sizes, so at or below their floor
    Y7 = np.zeros((7, 2), dtype=int)
    Y7[[0, 1], 0] = 1
    Y7[[2, 3, 4], 1] = 1
    assert rld_lower_bound(Y7, 3, slack=0) <= exact_size_floors(Y7, 3)["rLD"] + 1e-12


@pytest.mark.mirror
def test_medical_rld_within_5_percent_of_optisplit_needs_fold_sizes_off_by_more_than_two(mulan_cache):
    """medical, k = 10 (978 rows): optisplit_rld lowers rLD by making folds of very different sizes.
    No split whose folds hold 95 to 100 examples (n/k = 97.8, two of slack) can come within 5% of it."""
    from stratbench import stratifiers

    Y = mulan_cache("medical").Y
    optisplit = np.mean([relative_label_distribution(
        Y, stratifiers.get("optisplit_rld", n_splits=10, random_state=s).fold_ids(Y), 10) for s in range(3)])
    two_off = rld_lower_bound(Y, 10, slack=2)
    assert two_off > 1.05 * optisplit
    assert exact_size_floors(Y, 10)["rLD"] >= rld_lower_bound(Y, 10, slack=0) > two_off
