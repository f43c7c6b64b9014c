"""LD polish (stratbench's own): swaps of rows between folds that lower LD exactly, the last step of
the hybrid.

The hybrid's search balances squared count errors of labels and pairs; LD (Appendix A of Szymański &
Kajdanowicz 2017) is a sum of absolute odds errors over (fold, label) cells,

    LD·k·q = Σ_λ Σ_j |p_j^λ/(1 − p_j^λ) − d_λ/(1 − d_λ)|,   p_j^λ = c_j^λ/|S_j|,

whose optimum (:mod:`stratbench.grid.optimum`) sits on the integer corners the squared errors round
past. Rows with one labelset are interchangeable for every count, so the polish works on the
labelset × fold counts: one row of labelset s in fold a swaps with one of labelset t in fold b (fold
sizes never change). A swap is taken when it lowers LD and the blend

    G = LD/LD₀ + ω · LPD/LPD₀

(LD₀, LPD₀ the values where the polish starts; ω = ``pair_weight``; LPD the same sum over co-occurring
pairs). A swap never raises the number of empty (fold, label) cells (with ``keep_pairs``, nor of (fold,
pair) cells) and
never adds a positive to a fold at or above ⌈|D_λ|·r_j⌉ (DCP's floor, the hybrid's hinge), so DCP
never rises.

For each (s, a) in turn the best swap is taken: over every fold b and labelset t in it where a pass
reads at most ``EXHAUSTIVE_WORK`` combinations, else over ``samples``/4 labelsets t drawn by their
rows, each in a random other fold of its own. Where ``CYCLE_WORK`` allows, an (s, a) without an improving swap
tries every 3-cycle (s to b, t from b to a, then s on to c and u from c to b), then (``free_sizes``: in
k-fold with equal shares any folds may hold the ⌈n/k⌉) a move of its row from a fold of ⌈n/k⌉ to one of
⌊n/k⌋, the two trading sizes: every combination's cells in those folds are scored, O(labels + pairs). Passes end when one
takes nothing (at most ``passes``; ``SAMPLED_PASSES`` when sampled). A swap changes only the labels
and pairs in the symmetric difference of s and t: scored in O(|s| + |t|) (sorted ids, one merge).

The polish reads at most ``budget`` combinations (:func:`polish_budget`: four per positive and fold, at least
``MIN_BUDGET``): swap passes run until one takes nothing, then the passes that also try 3-cycles, and it stops
where the budget is spent. Unbounded (``budget=None``), swaps and 3-cycles interleave in every pass, at up to
14 s a split on yeast subsets of 200–2000 rows, k ∈ {3, 5, 10}, where the bounded one takes at most 0.33 s; the
mean LD over 3 seeds is the same at 17 of those 21 points, 1 % lower at one, at most 0.4 % higher at two and
higher at m = 1500, k = 3 (0.00146 against 0.00097; ``benchmarks/hybrid_cost.py``, 2026-11-27).
"""

from __future__ import annotations

import numpy as np

from stratbench._kernels._compile import call
from stratbench._kernels.ld_polish import polish_kernel, reassign, sort_segments
from stratbench.labels import fold_counts, labelset_ids

EXHAUSTIVE_WORK = 2 * 10**8  # combinations read per pass up to which every (fold, labelset) partner is tried
CYCLE_WORK = 10 * EXHAUSTIVE_WORK  # the same for 3-cycles (tried only where no swap improves: the last passes)
MIN_BUDGET = 10**7  # combination reads a polish may always spend (about 0.2 s on this project's machine)
SAMPLED_PASSES = 1  # passes of the sampled polish (large label spaces), ``samples``/4 partners per (s, a):
# O(n · samples/4 · |Y_x|²), a fraction of the hybrid's own search


def polish_budget(Y, k: int) -> int:
    """The polish's default budget of combination reads: four per positive and fold (IS's own work is one per
    positive and fold), at least ``MIN_BUDGET``."""
    return max(MIN_BUDGET, 4 * int(Y.nnz) * k)


def polish_ld(Y, comb, fold: np.ndarray, ratios, seed: int, pair_weight: float = 1.0, samples: int = 8,
              keep_pairs: bool = False, passes: int = 20, free_sizes: bool = False,
              budget: int | str | None = "auto", combo_weights: np.ndarray | None = None) -> np.ndarray:
    """The module doc's swaps on the split ``fold`` (subsets with desired shares ``ratios``) of the CSR
    label matrix ``Y`` (``comb``: its label combinations, :func:`stratbench.labels.label_combinations`).
    Fold sizes (with ``free_sizes``, k-fold with equal shares: their multiset, any folds holding ⌈n/k⌉),
    the number of empty (fold, label) cells, and the positives above ⌈|D_λ|·r_j⌉ (DCP's floor) are kept.
    ``budget``: the combinations the polish may read (:func:`polish_budget` for ``"auto"``; None: no bound).
    ``combo_weights``: each combination's weight in LD and LPD (None: all 1)."""
    n, k = Y.shape[0], len(ratios)
    row_sets = labelset_ids(Y)
    S = int(row_sets.max()) + 1 if n else 0
    first = np.full(S, n, dtype=np.int64)
    np.minimum.at(first, row_sets, np.arange(n))
    lengths = comb.row_ptr[first + 1] - comb.row_ptr[first]
    ptr = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    combos = comb.row_combos[np.repeat(comb.row_ptr[first] - ptr[:-1], lengths) + np.arange(ptr[-1])].astype(np.int64)
    sort_segments(ptr, combos)  # sorted within each labelset, for the merge
    M = np.zeros((S, k), dtype=np.int32)
    np.add.at(M, (row_sets, fold), 1)
    C = fold_counts(comb.row_ptr, comb.row_combos, fold.astype(np.int64), k, len(comb.first))
    sizes = np.bincount(fold, minlength=k).astype(np.float64)
    support = comb.support.astype(np.float64)
    d = np.minimum(support / n, (n - 1) / n)
    merge = 2.0 * ptr[-1] / max(S, 1)  # combinations a swap's merge reads, on average
    swaps = min(n, S * k) * (k - 1) * S  # an exhaustive pass's candidates
    exhaustive = swaps * merge <= EXHAUSTIVE_WORK
    cycles = swaps * max(k - 2, 0) * S * merge <= CYCLE_WORK
    size_moves = free_sizes and n % k != 0 and min(n, S * k) * (k - 1) * len(support) <= EXHAUSTIVE_WORK
    call(polish_kernel, ptr=ptr, combos=combos, is_pair=comb.is_pair.astype(np.bool_), odds=d / (1 - d),
         support=support, ratios=np.asarray(ratios, np.float64), M=M, C=C, sizes=sizes, row_sets=row_sets,
         pair_weight=float(pair_weight), keep_pairs=bool(keep_pairs), exhaustive=exhaustive, cycles=cycles,
         size_moves=size_moves, samples=int(samples) if exhaustive else max(int(samples) // 4, 1),
         passes=int(passes) if exhaustive else min(int(passes), SAMPLED_PASSES), seed=np.uint64(seed),
         budget=0 if budget is None else max(int(polish_budget(Y, k) if budget == "auto" else budget), 1),
         combo_weights=np.ones(len(support)) if combo_weights is None else np.asarray(combo_weights, np.float64))
    return reassign(row_sets, fold.astype(np.int64), M)
