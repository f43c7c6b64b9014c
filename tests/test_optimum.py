"""The optimality gap: the exact solver against brute force on splits small enough to enumerate, the
per-label LD floor by hand, and the gap table."""
import itertools

import numpy as np
import pandas as pd
import pytest

from stratbench import StratbenchError
from stratbench.grid.optimum import gap_markdown, gap_table, label_ld_floors, ld_cost_table, optimal_split
from stratbench.labels import apportion
from stratbench.measures.fold_quality import fold_quality

pytest.importorskip("ortools")

Y8 = np.array([[1, 0, 0], [1, 1, 0], [1, 1, 0], [0, 1, 1], [0, 0, 1], [1, 0, 1], [0, 0, 0], [1, 1, 1]])


def brute_force(Y, k, measure):
    """The least ``measure`` over every assignment with the exact sizes apportion gives, and all its minimisers' count."""
    n = len(Y)
    sizes = apportion(n, np.full(k, 1 / k))
    best = np.inf
    for folds in itertools.product(range(k), repeat=n):
        folds = np.array(folds)
        if np.array_equal(np.bincount(folds, minlength=k), sizes):
            best = min(best, fold_quality(Y, folds, k, pairs=False)[measure])
    return best


def test_ld_cost_table_by_hand():
    # d = 3/12 → odds 1/3; a fold of 4: c = 0 → |0 − 1/3|, 1 → |1/3 − 1/3| = 0, 2 → |1 − 1/3|, 3 → |3 − 1/3|
    assert np.allclose(ld_cost_table(3, 12, 4), [1 / 3, 0, 2 / 3, 8 / 3])
    # c = T counts as (T − 1)/T (OPTI's guard): T = 2, c = 2 → p = 1/2 → odds 1
    assert np.allclose(ld_cost_table(2, 4, 2), [1, 0, 0])


def test_label_floor_by_hand():
    # one label, 2 positives of 6, k = 3 (folds of 2): d/(1 − d) = ½. A fold's odds c/(2 − c) are 0 for
    # c = 0 and 1 for c = 1 and for c = 2 (guarded: p = ½). Counts (1, 1, 0) cost ½ + ½ + ½ = 3/2, and
    # so does (2, 0, 0): the floor is 3/2, LD = 3/2 over k·q = 3 cells
    Y = np.array([[1], [1], [0], [0], [0], [0]])
    assert label_ld_floors(Y, 3).tolist() == pytest.approx([1.5])
    assert brute_force(Y, 3, "LD") == pytest.approx(1.5 / 3)


@pytest.mark.parametrize("k", [2, 3])
def test_the_exact_solver_finds_the_brute_force_optimum(k):
    best = brute_force(Y8, k, "LD")
    o = optimal_split(Y8, k, "LD", max_time=10)
    assert o.optimal and o.status == "OPTIMAL"
    assert o.value == pytest.approx(best, abs=1e-5)
    assert o.bound <= o.value + 1e-12 and o.gap == 0.0
    assert np.array_equal(np.bincount(o.folds, minlength=k), apportion(8, np.full(k, 1 / k)))
    # the floor of each label alone bounds the coupled optimum from below
    assert label_ld_floors(Y8, k).sum() / (k * 3) <= best + 1e-12


def test_flz_optimum_and_its_floor():
    # a label with 2 positives must miss k − 2 folds; the others can be everywhere
    Y = np.zeros((12, 3), dtype=int)
    Y[:2, 0] = 1
    Y[:, 1] = 1
    Y[::2, 2] = 1
    o = optimal_split(Y, 4, "FLZ", max_time=10)
    assert o.optimal and o.value == 2 and o.bound == 2
    assert brute_force(Y[:8], 4, "FLZ") == 2


def test_a_hint_in_another_fold_order_is_used_and_results_repeat():
    Y = (np.random.default_rng(3).random((40, 4)) < 0.35).astype(int)
    first = optimal_split(Y, 4, "LD", max_time=5, workers=2)
    hint = (first.folds + 1) % 4  # the same split, its folds renumbered
    again = optimal_split(Y, 4, "LD", max_time=5, workers=2, hint=hint)
    assert again.value <= first.value + 1e-12
    assert np.array_equal(optimal_split(Y, 4, "LD", max_time=5, workers=2).folds, first.folds)


def test_clear_errors():
    with pytest.raises(StratbenchError, match="objective='DCP'"):
        optimal_split(Y8, 2, "DCP")
    with pytest.raises(StratbenchError, match="n_splits=9"):
        optimal_split(Y8, 9)


def test_gap_table_by_hand():
    grid = pd.DataFrame({"dataset": "d", "stratifier": ["a", "a", "b", "b", "a", "b"], "k": 5, "repeat": [0, 1] * 3,
                         "measure": ["LD"] * 4 + ["FLZ"] * 2, "value": [0.012, 0.010, 0.020, 0.020, 3, 5]})
    optimum = pd.DataFrame({"dataset": "d", "k": 5, "objective": ["LD", "FLZ"], "value": [0.010, 3],
                            "bound": [0.010, 2], "optimal": [True, False], "status": ["OPTIMAL", "FEASIBLE"],
                            "seconds": 1.0})
    gaps = gap_table(grid, optimum).set_index(["objective", "stratifier"])
    assert gaps.loc[("LD", "a"), "gap"] == pytest.approx(0.1)  # mean 0.011 over 0.010
    assert gaps.loc[("LD", "a"), "best"] == pytest.approx(0.010)
    assert gaps.loc[("LD", "b"), "gap"] == pytest.approx(1.0)
    assert gaps.loc[("FLZ", "b"), "gap"] == 3 and not gaps.loc[("FLZ", "b"), "closed"]
    md = gap_markdown(gap_table(grid, optimum))
    assert "| d | 0.01 | 10.0% | 100.0% |" in md
    assert "| d | ≥ 2 | ≤ +1.0 | ≤ +3.0 |" in md


def test_a_split_at_the_lower_bound_proves_the_optimum():
    """The solver stopped at bound 0.010 (not proven). Stratifier a's repeat 1 has exact sizes (ED 0.4,
    the least of the grid) and LD 0.010 = the bound, so bound ≤ optimum ≤ 0.010: closed. Stratifier b
    goes below the bound (0.009) only with unequal folds (ED 3): it proves nothing, and without a's
    repeat the (dataset, k) stays open."""
    rows = [("a", 0, "LD", 0.012), ("a", 0, "ED", 0.4), ("a", 1, "LD", 0.010), ("a", 1, "ED", 0.4),
            ("b", 0, "LD", 0.009), ("b", 0, "ED", 3.0)]
    grid = pd.DataFrame(rows, columns=["stratifier", "repeat", "measure", "value"]).assign(dataset="d", k=5)
    optimum = pd.DataFrame({"dataset": "d", "k": 5, "objective": ["LD"], "value": [0.011], "bound": [0.010],
                            "optimal": [False], "status": ["FEASIBLE"], "seconds": 1.0})
    assert gap_table(grid, optimum)["closed"].all()
    assert not gap_table(grid[grid["repeat"] == 0], optimum)["closed"].any()


def test_the_recommendation_says_how_far_from_the_optimum():
    from stratbench.grid.recommendation import optimality_section

    gaps = pd.DataFrame({"dataset": ["a", "a", "b", "b", "a"], "k": 5, "objective": ["LD"] * 4 + ["FLZ"],
                         "stratifier": ["hybrid", "iterative"] * 2 + ["hybrid"], "mean": 0.0, "best": 0.0,
                         "value": 0.0, "bound": 0.0, "closed": [True, True, False, False, True],
                         "gap": [0.03, 0.50, 0.08, 0.20, 0.0]})
    text = "\n".join(optimality_section(gaps, "hybrid"))
    assert "proven optimal on 1 of 2 (dataset, k)" in text
    assert "| 5 | 5.5% | 35.0% |" in text  # medians of (3%, 8%) and (50%, 20%)
    assert "hybrid is within 5% of the optimum (or bound) on 1 of 2 (dataset, k); largest gap 8.0% (b, k = 5)" in text
    assert "Closest to the optimum on median: hybrid." in text and "at the fewest on 1 of 1" in text
