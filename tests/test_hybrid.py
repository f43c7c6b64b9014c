"""The hybrid stratifier (stratbench's own): its constraints on hand-worked cases, the guarantees every
stratifier gives (tests/test_stratifier_properties.py runs it too), determinism, and that it keeps
the best of IS and SOIS on real data."""
import numpy as np
import pytest
import scipy.sparse as sp

from stratbench import stratifiers
from stratbench.measures.fold_quality import exact_size_floors, fold_label_counts, fold_quality, pair_measures


def hybrid(k, seed=0, **params):
    return stratifiers.get("hybrid", n_splits=k, random_state=seed, **params)


def test_two_folds_of_a_hand_worked_case_balance_labels_and_their_pair():
    """8 rows, λ0 on rows 0–3, λ1 on rows 0, 1, 4, 5 (so the pair (λ0, λ1) on rows 0, 1). The only
    splits with F = 0: 4 rows a fold, 2 of λ0, 2 of λ1 and 1 of the pair in each."""
    Y = np.zeros((8, 2), dtype=int)
    Y[:4, 0] = 1
    Y[[0, 1, 4, 5], 1] = 1
    for seed in range(10):
        folds = hybrid(2, seed).fold_ids(Y)
        sizes, counts = fold_label_counts(Y, folds, 2)
        assert sizes.tolist() == [4, 4]
        assert counts.tolist() == [[2, 2], [2, 2]]
        assert folds[0] != folds[1]  # the pair's two rows apart: one in each fold


def test_positive_evidence_is_kept_at_the_floor():
    """A label with 3 positives and k = 3 has one in every fold (FLZ 0); one with 2 positives leaves
    exactly one fold empty (its floor: k − 2 = 1); a third label of 5 positives, and label-less rows."""
    Y = np.zeros((12, 3), dtype=int)
    Y[[0, 1, 2], 0] = 1
    Y[[3, 4], 1] = 1
    Y[[0, 3, 5, 6, 7], 2] = 1
    for seed in range(20):
        folds = hybrid(3, seed).fold_ids(Y)
        sizes, counts = fold_label_counts(Y, folds, 3)
        assert sizes.tolist() == [4, 4, 4]
        assert (counts[:, 0] == 1).all() and sorted(counts[:, 1]) == [0, 1, 1]
        assert sorted(counts[:, 2]) == [1, 2, 2]
        assert fold_quality(Y, folds, 3)["FLZ"] == 1  # the floor


def test_never_more_empty_fold_label_cells_than_iterative_stratification():
    rng = np.random.default_rng(3)
    for seed in range(15):
        Y = sp.csr_matrix((rng.random((60, 12)) < rng.uniform(0.02, 0.3, 12)).astype(np.int8))
        for k in (3, 5):
            ours = fold_quality(Y, hybrid(k, seed).fold_ids(Y), k, pairs=False)
            theirs = fold_quality(Y, stratifiers.get("iterative", n_splits=k, random_state=seed).fold_ids(Y), k,
                                  pairs=False)
            assert ours["FLZ"] <= theirs["FLZ"] and ours["ED"] <= theirs["ED"]


def test_exact_sizes_for_unequal_shares_and_holdout():
    Y = (np.random.default_rng(1).random((101, 5)) < 0.3).astype(int)
    sizes = np.bincount(stratifiers.get("hybrid", fold_shares=[3, 1, 1], random_state=0).fold_ids(Y))
    assert sizes.tolist() == [61, 20, 20]  # apportion(101, [0.6, 0.2, 0.2])
    ids = stratifiers.get("hybrid", n_splits=1, test_size=0.25, random_state=0).fold_ids(Y)
    assert np.bincount(ids).tolist() == [75, 26]  # ⌈25.25⌉ test rows, as scikit-learn rounds


def test_a_share_that_rounds_to_no_rows_is_polished_and_then_repaired():
    """Shares 1:5:5 of 6 rows apportion (0, 3, 3): the LD polish ran over an empty fold and divided by its
    size (found by the property tests); the repair then gives the empty fold a row: sizes (1, 2, 3)."""
    folds = stratifiers.get("hybrid", fold_shares=[1, 5, 5], random_state=0).fold_ids(np.ones((6, 1), int))
    assert sorted(np.bincount(folds, minlength=3).tolist()) == [1, 2, 3]


def test_same_seed_same_folds_and_parameters_are_checked():
    Y = (np.random.default_rng(2).random((80, 6)) < 0.25).astype(int)
    np.testing.assert_array_equal(hybrid(4, 9).fold_ids(Y), hybrid(4, 9).fold_ids(Y))
    assert not np.array_equal(hybrid(4, 9).fold_ids(Y), hybrid(4, 10).fold_ids(Y))
    with pytest.raises(ValueError, match="passes must be"):
        hybrid(4, passes=-1).fold_ids(Y)


@pytest.mark.mirror
def test_dcp_at_its_floor_where_the_target_sizes_round_up(mulan_cache):
    """emotions, k = 3: 593 rows, folds of 198, 198, 197, and a label with 264 positives, 88 a fold
    at best (DCP's floor). The fold targets t_j = 264·198/593 = 88.1 would let a fold hold 89 without
    cost; the hinge counts from ⌈264/3⌉ = 88 instead, and any fold may be the one with 197 rows, so
    every seed reaches the floor of every label."""
    Y = mulan_cache("emotions").Y
    floor = exact_size_floors(Y, 3)["DCP"]
    for seed in range(5):
        folds = hybrid(3, seed).fold_ids(Y)
        assert sorted(np.bincount(folds)) == [197, 198, 198]
        assert fold_quality(Y, folds, 3, pairs=False)["DCP"] == pytest.approx(floor, abs=1e-12)


@pytest.mark.mirror
@pytest.mark.parametrize("name, k", [("emotions", 10), ("yeast", 10), ("enron", 10), ("enron", 3), ("foodtruck", 10)])
def test_on_real_data_the_best_of_iterative_and_sois(name, k, mulan_cache):
    """Mean of 3 seeds: LD below both IS and SOIS, DCP no worse than 5% above IS's, FLZ no higher than
    IS's, LPD no more than 15% above SOIS's, exact fold sizes (ED ≤ 0.5). (foodtruck at k = 10 had
    DCP 38% above IS's before the DCP hinge counted from ⌈|D_λ|/k⌉.)"""
    Y = mulan_cache(name).Y

    def mean(method):
        rows = [fold_quality(Y, stratifiers.get(method, n_splits=k, random_state=s).fold_ids(Y), k) for s in range(3)]
        return {m: np.mean([r[m] for r in rows]) for m in rows[0]}

    h, i, s = mean("hybrid"), mean("iterative"), mean("sois")
    assert h["LD"] < min(i["LD"], s["LD"])
    assert h["DCP"] <= 1.05 * i["DCP"] and h["FLZ"] <= i["FLZ"]
    assert h["LPD"] <= 1.15 * s["LPD"] and h["ED"] <= 0.5
    assert pair_measures(Y, stratifiers.get("hybrid", n_splits=k, random_state=0).fold_ids(Y), k)["FLPZ"] <= \
        pair_measures(Y, stratifiers.get("iterative", n_splits=k, random_state=0).fold_ids(Y), k)["FLPZ"]


def _kernel_inputs(Y, k, fill_pair, pair_weight=3.0):
    """The hybrid kernel's arguments for a round-robin start (sizes exact, so only the search moves);
    R holds the start's counts, as the kernel's own copy does."""
    from stratbench.labels import fold_counts, label_combinations
    from stratbench.stratifiers.hybrid.stratifier import objective_weights

    n = Y.shape[0]
    comb = label_combinations(sp.csr_matrix(Y))
    fold = (np.arange(n) % k).astype(np.int64)
    targets = np.bincount(fold, minlength=k).astype(np.float64)
    counts = fold_counts(comb.row_ptr, comb.row_combos, fold, k, len(comb.first))
    weight, hinge = objective_weights(comb, [counts], targets, n, pair_weight, 16.0)
    R = np.zeros((len(comb.first), k + 4), dtype=np.float32)
    R[:, :k] = counts
    R[:, k:] = np.column_stack([comb.support, weight, hinge, comb.is_pair])
    return comb, fold, counts, (comb.row_ptr, comb.row_combos, R, fold, targets, targets, targets,
                                np.full(k, 1.0 / k), 3, 8, np.uint64(7), np.array([1.0, fill_pair]), np.zeros(n), n,
                                True)


def test_the_two_move_deltas_agree_with_each_other_and_with_the_objective():
    """_deltas (every destination) and _delta_to (one) give the same ΔF and the same change in empty
    (fold, label) and (fold, pair) cells, and ΔF is F after the move minus F before (the squared and
    hinge terms of _objective, plus the fill reward of each cell emptied or filled). The helpers run as Python
    where the kernels are compiled ahead of time (the same code numba compiles)."""
    from stratbench._kernels import hybrid as H

    rng = np.random.default_rng(5)
    Y = (rng.random((60, 5)) < [0.5, 0.3, 0.2, 0.08, 0.05]).astype(np.int8)
    k, n = 4, 60
    comb, fold, _, (_, _, R, _, targets, *_) = _kernel_inputs(Y, k, fill_pair=0.25)
    share, ideal, fill = targets / n, np.full(k, 1.0 / k), np.array([1.0, 0.25])
    out, zl, zp = np.zeros(k), np.zeros(k, np.int64), np.zeros(k, np.int64)

    def F(R):
        empty = R[:, :k] == 0
        return H._objective(R, share, ideal, fold, np.zeros(n)) + fill[0] * empty[~comb.is_pair].sum() + fill[1] * empty[comb.is_pair].sum()

    checked = 0
    for x in range(n):
        if comb.row_ptr[x + 1] == comb.row_ptr[x]:
            continue
        a = fold[x]
        H._deltas(x, a, comb.row_ptr, comb.row_combos, R, share, ideal, fill, np.zeros(n), out, zl, zp)
        for b in range(k):
            if b == a:
                continue
            d, z_labels, z_pairs = H._delta_to(x, a, b, comb.row_ptr, comb.row_combos, R, share, ideal, fill, np.zeros(n))
            assert d == pytest.approx(out[b], rel=1e-5, abs=1e-6) and (z_labels, z_pairs) == (zl[b], zp[b])
            moved = R.copy()
            rows = comb.row_combos[comb.row_ptr[x]:comb.row_ptr[x + 1]]
            moved[rows, a] -= 1
            moved[rows, b] += 1
            assert F(moved) - F(R) == pytest.approx(d, rel=1e-4, abs=1e-5)
            checked += 1
    assert checked > 100


@pytest.mark.parametrize("shares", [(0.25, 0.25, 0.25, 0.25), (0.4, 0.3, 0.2, 0.1)])
def test_one_example_combinations_carried_as_row_weights_search_as_if_kept(shares):
    """The search over the combinations with more than one example, each example carrying the summed weight of
    its one-example labels and pairs (``single_combinations``), takes the steps the search over every combination
    takes: the same folds, the same F, and the same empty (fold, label) cells less k − 1 per one-example label,
    with equal and with unequal shares (three rows have no other combination: they move too); the objective's term
    scales, counted with those combinations' squared errors in closed form, are those of every combination."""
    from stratbench._kernels import hybrid as H
    from stratbench.labels import apportion, fold_counts, label_combinations
    from stratbench.stratifiers.hybrid.stratifier import _term_scales, objective_weights, one_example_errors, single_combinations

    n, k, ideal = 150, 4, np.array(shares)
    Y = (np.random.default_rng(5).random((n, 30)) < [0.007] * 15 + [0.06] * 15).astype(np.int8)
    comb = label_combinations(sp.csr_matrix(Y))
    support, pairs = comb.support, comb.is_pair
    alone = support == 1
    assert (alone & ~pairs).sum() == 7 and (alone & pairs).sum() == 40
    targets = apportion(n, ideal).astype(np.float64)
    start = np.random.default_rng(4).permutation(np.repeat(np.arange(k), targets.astype(int)))
    counts = fold_counts(comb.row_ptr, comb.row_combos, start, k, len(support))
    weight, hinge = objective_weights(comb, [counts], targets, n, 3.0, 16.0)
    R = np.zeros((len(support), k + 4), dtype=np.float32)
    R[:, k:] = np.column_stack([support, weight, hinge, pairs])
    carried = single_combinations(comb, ideal)
    kept = np.flatnonzero(~alone)
    assert carried.support.tolist() == support[kept].tolist() and carried.is_pair.tolist() == pairs[kept].tolist()
    row_ptr, row_combos, label_alone, pair_alone = carried.row_ptr, carried.row_combos, carried.labels_alone, carried.pairs_alone
    assert ((np.diff(row_ptr) == 0) & (label_alone + pair_alone > 0)).sum() == 3  # rows with no other combination
    one = [np.unique(R[alone & (pairs == p), k + 1]) for p in (False, True)]
    assert [len(w) for w in one] == [1, 1]  # a one-example label's weight is the same for all; so is a pair's
    single = label_alone * float(one[0][0]) + pair_alone * float(one[1][0])
    common = (targets, targets, targets, ideal, 3, 8, np.uint64(7), np.array([1.0, 0.01]))
    every = H.hybrid_kernel(comb.row_ptr, comb.row_combos, R, start, *common, np.zeros(n), n, True, False)
    search = H.hybrid_kernel(row_ptr, row_combos, R[kept], start, *common, single, n, True, False)
    assert (every[0] != start).sum() > 20
    assert every[0].tolist() == search[0].tolist()
    assert search[1] == pytest.approx(every[1], rel=1e-9)
    assert every[2] - search[2] == (k - 1) * (alone & ~pairs).sum()

    singles = [one_example_errors(label_alone, pair_alone, start, targets / n)]
    assert _term_scales(support[kept].astype(float), pairs[kept], [counts[kept]], targets, n, singles) == \
        pytest.approx(_term_scales(support.astype(float), pairs, [counts], targets, n, None), rel=1e-12)


def test_keep_pairs_never_adds_an_empty_fold_pair_cell_and_without_it_the_search_may():
    """The search from a round-robin start of 90 rows (8 labels, k = 5), pairs left out of F (ρ = 0,
    no fill reward) so that only ``keep_pairs`` guards them. A step (move or swap) is taken only if it
    does not raise the number of empty (fold, label) cells (it may empty one while it fills another);
    with ``keep_pairs`` the same holds for (fold, pair) cells. Without it, over six such cases, the
    search ends with more empty pair cells (264 against 256)."""
    from stratbench._kernels import hybrid as H
    from stratbench.labels import fold_counts

    empty_pairs = {True: 0, False: 0}
    for seed in range(6):
        Y = (np.random.default_rng(seed).random((90, 8)) < [0.5, 0.4, 0.3, 0.2, 0.15, 0.1, 0.08, 0.06]).astype(np.int8)
        comb, start, before, args = _kernel_inputs(Y, 5, fill_pair=0.0, pair_weight=0.0)
        pairs = comb.is_pair
        for keep_pairs in (True, False):
            fold, _, _ = H.hybrid_kernel(*args, keep_pairs)
            assert np.bincount(fold, minlength=5).tolist() == [18] * 5 and not np.array_equal(fold, start)
            after = fold_counts(comb.row_ptr, comb.row_combos, fold, 5, len(comb.first))
            assert (after[~pairs] == 0).sum() <= (before[~pairs] == 0).sum()
            if keep_pairs:
                assert (after[pairs] == 0).sum() <= (before[pairs] == 0).sum()
            empty_pairs[keep_pairs] += int((after[pairs] == 0).sum())
    assert (empty_pairs[True], empty_pairs[False]) == (256, 264)
