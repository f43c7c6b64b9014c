"""Hybrid stratification (ours): the better of IS and SOIS, refined by a local search over labels
and label pairs that never raises the number of empty (fold, label) cells.

Sechidis et al. (2011) end with the plan of "a hybrid algorithm that will combine the benefits of both
the iterative and the labelsets-based stratification"; this is stratbench's, not a published method.
For desired subset shares r_j (k folds: 1/k), target sizes T_j = n·r_j rounded by largest remainder,
and every label and co-occurring label pair e ("combination", support |D^e|, share d_e = |D^e|/n) with
fold counts c_j^e and targets t_j^e = |D^e|·T_j/n:

1. **Starts**: iterative stratification (Sechidis et al. 2011; it keeps a positive of every label in
   every fold where it can: FLZ at its floor Σ max(0, k − |D_λ|)) and SOIS (Szymański & Kajdanowicz
   2017; balances the pairs).
2. **Objective** ::

       F = Σ_e w_e Σ_j (c_j^e − t_j^e)² + Σ_λ h_λ Σ_j max(0, c_j^λ − ⌈|D_λ|·r_j⌉)
           − f_label · #(fold, label) cells with a positive − f_pair · #(fold, pair) cells with one

   a label weighs w_λ = 1/(|D_λ|·R) + 1/(n(1 − d_λ)²·L) (rLD's and LD's marginal costs), a pair
   w_e = ρ/(n(1 − d_e)²·P) (LPD's), where R, L and P are those terms' values at the better start, so
   each is counted relative to the best known; h_λ = η/(|D_λ|·R) charges every positive above
   ⌈|D_λ|·r_j⌉, the fewest the fullest fold can hold (the hinge is zero exactly when the label's DCP
   is at its floor ⌈|D_λ|/k⌉/|D_λ| − 1/k); f_label = 1 and f_pair = 1/(the better start's fillable
   empty pair cells) reward positive evidence. ρ = ``pair_weight`` (3), η = ``dcp_weight`` (16).
   One-example labels and pairs enter the search as each example's summed weight of them
   (:func:`single_combinations`): the same F, over the combinations with more than one example.
3. **Sizes first**: from each start, examples move from the fold furthest above its target size to the
   one furthest below until all are within one of their targets, the cheapest moves (in F) first,
   those that add an empty (fold, label) cell (with ``keep_pairs``, a (fold, pair) cell) only if no other can.
4. **Local search**: in a seeded random order, an example moves to the fold that lowers F most; where
   that would put a fold more than one example off its target size, it swaps with the best of
   ``samples`` random examples of the receiving fold. A move or swap is taken only if F drops and the
   number of empty (fold, label) cells does not rise: FLZ never rises (with ``keep_pairs``, nor that of
   empty (fold, pair) cells; by default pair evidence is only rewarded, through f_pair, as a hard
   rule it blocks the moves that bring DCP to its floor on small data). A share ``trial`` of a pass
   from each start decides which start goes on (the one with no more empty (fold, label) cells than
   IS, then the lower F), for ``passes`` full passes (a pass that lowers F by less than 10⁻⁶ of it
   ends the search).
5. **Exact sizes**: step 3 again until every fold holds exactly T_j examples; with equal shares
   (k-fold), any folds may be the ones that hold ⌈n/k⌉ (ED is the same), each example going to its
   cheapest fold with room. Should the result still have more empty (fold, label) cells than IS's
   start, the search is also run from IS's start and the better kept.
6. **LD polish** (:mod:`stratbench.stratifiers.hybrid.ld_polish`): swaps of rows between folds that lower LD
   exactly, blended with LPD (ω = ``polish``), never raising FLZ nor DCP's hinge: the squared errors
   of F round past LD's integer optimum (the optimality gap of docs/ALGORITHMS.md §11.3). Within a budget
   of combination reads (``polish_budget``), swaps until none improves, then 3-cycles.

Column weights (a :class:`~stratbench.labels.TargetTable`'s, w_λ; a pair weighs (w_a + w_b)/2): the starts are
weighted IS and SOIS, every combination's terms of F (w_e and h_λ) are multiplied by its weight, every
combination enters the search (none summed as one-example), and step 6 swaps by the weighted LD and LPD (each
combination's cells times its weight).

Compiled (numba) over CSR label matrices and the combination lists of :mod:`stratbench.labels.combinations`, one
float32 record per combination with more than one example (its fold counts and parameters together: one or two
cache lines): a pass costs O(k · Σ_x those of x), memory ≈ 4(k + 4) bytes per such combination.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench._kernels._compile import call
from stratbench._kernels.combinations import ids_by_sort
from stratbench._kernels.group_search import group_search
from stratbench._kernels.hybrid import carried_combinations, hybrid_kernel
from stratbench._kernels.iterative import iterative_kernel
from stratbench._kernels.ld_polish import polish_kernel
from stratbench._kernels.sois import sois_kernel
from stratbench._warn import renamed
from stratbench.labels import apportion, fold_counts, label_combinations
from stratbench.labels.combinations import KeptCombinations, kept_combinations, sorted_numbering
from stratbench.stratifiers import register
from stratbench.stratifiers.base import MultilabelStratifier, tiny_labels
from stratbench.stratifiers.hybrid.group_search import group_combinations
from stratbench.stratifiers.hybrid.ld_polish import polish_ld
from stratbench.stratifiers.iterative import iterative_fold_ids
from stratbench.stratifiers.sois import combination_weights, sois_fold_ids

# The kernels keep one float32 record per combination c with more than one example (a label, or a co-occurring
# pair), so that one or two cache lines serve it (56 bytes at k = 10; the search hints both ahead of a read):
# R[c, :k] its count in each fold (exact integers), R[c, k] its support |D^c|, R[c, k+1] its weight in F, R[c, k+2]
# its DCP hinge weight, R[c, k+3] 1 for a pair, 0 for a label.


def objective_weights(comb, start_counts: list[np.ndarray], targets: np.ndarray, n: int, pair_weight: float = 1.0,
                      dcp_weight: float = 1.0, single_errors: list[tuple[float, float]] | None = None
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Per-combination weights of F (module doc, step 2) and of its DCP hinge, from the starts'
    counts (combinations × folds). ``single_errors``: for each start, the summed squared errors of the
    one-example labels and pairs left out of ``comb`` (:func:`single_combinations`), which count in each
    term's value at the best start as they would in ``comb``."""
    support = comb.support.astype(float)
    pair = comb.is_pair
    scales = _term_scales(support, pair, start_counts, targets, n, single_errors)
    return _weights(support, pair, scales, n, pair_weight, dcp_weight)


def _ld_parts(support, n: int) -> tuple[np.ndarray, np.ndarray]:
    """rLD's and LD's marginal costs of a combination with this support: 1/|D^e| and 1/(n(1 − d_e)²)."""
    d = np.minimum(support / n, 1 - 0.5 / n)
    return 1.0 / support, 1.0 / (n * (1 - d) ** 2)


def _term_scales(support, pair, start_counts, targets, n, single_errors) -> tuple[float, float, float]:
    """1 / the value at the best start of the labels' rLD term, their LD term and the pairs' LD term."""
    share, block = (targets / n)[None, :], 1 << 18  # by blocks of combinations: no n_combinations × k temporaries
    errors = [np.concatenate([((c[i:i + block] - support[i:i + block, None] * share) ** 2).sum(axis=1)
                              for i in range(0, len(support), block)] or [np.zeros(0)]) for c in start_counts]
    rld, ld = _ld_parts(support, n)
    rld_one, ld_one = (float(part[0]) for part in _ld_parts(np.ones(1), n))  # a one-example combination's
    singles = single_errors or [(0.0, 0.0)] * len(errors)

    def scale(part, mask, part_one, kind):  # 1 / the term's value at the best start: each term counts relative to it
        value = min(float((error * part)[mask].sum()) + part_one * alone[kind] for error, alone in zip(errors, singles))
        return 1.0 / value if value > 0 else 0.0

    return scale(rld, ~pair, rld_one, 0), scale(ld, ~pair, ld_one, 0), scale(ld, pair, ld_one, 1)


def _weights(support, pair, scales, n, pair_weight, dcp_weight) -> tuple[np.ndarray, np.ndarray]:
    rld, ld = _ld_parts(support, n)
    weight, hinge = np.zeros(len(support)), np.zeros(len(support))
    per_rld = rld[~pair] * scales[0]
    weight[~pair] = per_rld + ld[~pair] * scales[1]
    weight[pair] = pair_weight * ld[pair] * scales[2]
    hinge[~pair] = dcp_weight * per_rld
    return weight, hinge


def single_combinations(comb, ideal: np.ndarray, Y=None) -> KeptCombinations:
    """The combinations of ``comb`` with more than one example (example → combination lists over their ids,
    in ``comb``'s order, each example's in its order), and for each example the number of its one-example
    labels and pairs, left out. Each of these has its one positive in the example's fold whatever the split:
    its squared errors change by 2(s_a − s_b) when the example moves from fold a to b, and its emptiness and
    DCP hinge never (where every ⌈r_j⌉ = 1), so F's changes are those of the example's summed weight of them
    (:func:`stratbench._kernels.hybrid._single_delta`). On extreme-scale data they are most combinations
    (Amazon-670K's shape: 6.9 M of its 7.3 M). ``comb`` None: those of ``Y``, built without the others where
    :func:`~stratbench.labels.combinations.label_combinations` numbers in key order (a large label space)."""
    if comb is None:
        if sorted_numbering(Y.shape[1]) and np.min(ideal) > 1e-6:
            return kept_combinations(Y)
        comb = label_combinations(Y)
    support, is_pair = comb.support, comb.is_pair
    n = len(comb.row_ptr) - 1
    alone = support == 1
    if np.min(ideal) <= 1e-6:  # a share of 0 would make a one-example label's cap 0: every combination kept
        zeros = np.zeros(n, dtype=np.int64)
        return KeptCombinations(comb.row_ptr, comb.row_combos, support, is_pair, zeros, zeros)
    renumber = np.cumsum(~alone) - 1
    renumber[alone] = -1
    row_ptr, row_combos, labels_alone, pairs_alone = carried_combinations(comb.row_ptr, comb.row_combos, renumber,
                                                                          is_pair)
    return KeptCombinations(row_ptr, row_combos, support[~alone], is_pair[~alone], labels_alone, pairs_alone)


def one_example_errors(label_alone, pair_alone, fold, share) -> tuple[float, float]:
    """The summed squared errors Σ_j (c_j − s_j)² of the one-example labels and of the one-example pairs
    (``label_alone``, ``pair_alone``: each example's count of them) in the split ``fold``: (1 − s_a)² + Σ_{j≠a} s_j²
    for each, a its example's fold."""
    error = ((1 - share) ** 2 - share ** 2 + (share ** 2).sum())[fold]
    return float(label_alone @ error), float(pair_alone @ error)


@register("hybrid")
class HybridStratifier(MultilabelStratifier):
    """The better of IS and SOIS, refined by a local search that balances labels and label pairs
    without adding an empty (fold, label) cell; exact fold sizes (see the module doc; stratbench's own method).

    Parameters
    ----------
    passes : int, default=1
        Full local-search passes over the examples after the trial.
    samples : int, default=8
        Candidate partners tried for a swap.
    pair_weight : float, default=3.0
        ρ of the objective: the pairs' LD term against the labels'.
    start : {"both", "iterative", "sois"}, default="both"
        The starts tried.
    fill : float, default=1.0
        f_label of the objective: the reward of a (fold, label) cell with a positive.
    dcp_weight : float, default=16.0
        η of the objective: the DCP hinge's weight.
    trial : float, default=0.3
        The share of a pass run from each start to choose between them.
    keep_pairs : bool, default=False
        Also never add an empty (fold, pair) cell, in the search and the size repair (False: pair evidence
        rewarded only).
    polish : float or None, default=1.0
        ω of the LD polish (step 6: 1, LD and LPD alike, each relative to its value where the polish starts; 0,
        LD alone), or None for no polish.
    polish_budget : "auto", int or None, default="auto"
        The combinations the polish may read: ``"auto"`` (4 per positive and fold, at least 10⁷, about 0.2 s;
        swaps first, then 3-cycles with what is left), a number, or None (no bound: swaps and 3-cycles
        interleaved, which can take seconds on a small dataset at k = 3).

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("hybrid", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [1, 0, 0, 1, 1, 0]
    """
    reference = "stratbench (docs/ALGORITHMS.md, hybrid)"
    kernels = (hybrid_kernel, carried_combinations, ids_by_sort, polish_kernel, group_search, iterative_kernel,
               sois_kernel)
    compile_seconds = 10

    equal_sizes = True

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 passes=1, samples=8, pair_weight=3.0, start="both", fill=1.0, dcp_weight=16.0, trial=0.3,
                 keep_pairs=False, polish=1.0, polish_budget="auto"):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.passes = passes
        self.samples = samples
        self.pair_weight = pair_weight
        self.start = start
        self.fill = fill
        self.dcp_weight = dcp_weight
        self.trial = trial
        self.keep_pairs = keep_pairs
        self.polish = polish
        self.polish_budget = polish_budget

    supports_groups = True
    weighs_labels = True
    group_passes = 10  # passes of the group search per ``passes`` (groups are few; it stops when a pass moves none)

    def _compile_plan(self, grouped):
        """The local search (``hybrid_kernel``, the longest to compile) compiles in a process of its own
        (:func:`compile_search`) while this one compiles the starts and the polish."""
        if grouped:
            return (group_search, iterative_kernel), lambda: self._warm_up(True), ()
        kernels = ((hybrid_kernel, carried_combinations, iterative_kernel) + ((sois_kernel,) if self.start != "iterative" else ())
                   + ((polish_kernel,) if self.polish is not None else ()) + (() if self._every() else (ids_by_sort,)))
        return kernels, self._compile_starts_and_polish, (f"{__name__}:compile_search",)

    def _compile_starts_and_polish(self):
        Y = self._tiny_labels()
        comb, ratios = label_combinations(Y), self._ratios(Y.shape[0])
        starts = self._starts(Y, comb, ratios, 0, 0)
        if not self._every():
            kept_combinations(Y)
        if self.polish is not None:
            polish_ld(Y, comb, starts["iterative"], ratios, 0, self.polish, self.samples, self.keep_pairs, free_sizes=True)

    def _check_options(self):
        if not isinstance(self.passes, int) or self.passes < 0:
            raise StratbenchError(f"passes must be an integer ≥ 0, got {self.passes!r}")
        if not isinstance(self.samples, int) or self.samples < 1:
            raise StratbenchError(f"samples must be an integer ≥ 1, got {self.samples!r}")
        if self.polish is not None and not (isinstance(self.polish, (int, float)) and self.polish >= 0):
            raise StratbenchError(f"polish must be a number ≥ 0 or None, got {self.polish!r}")
        if not (self.polish_budget is None or self.polish_budget == "auto"
                or (isinstance(self.polish_budget, int) and not isinstance(self.polish_budget, bool)
                    and self.polish_budget >= 1)):
            raise StratbenchError(f"polish_budget must be 'auto', an integer ≥ 1 or None, got {self.polish_budget!r}")
        if self.start not in ("both", "iterative", "sois"):
            raise StratbenchError(f"start must be 'both', 'iterative' or 'sois', got {self.start!r}")

    def _assign_groups(self, counts, sizes, ratios, rng, rows=None, label_weights=None):
        """Whole groups (:mod:`stratbench.stratifiers.hybrid.group_search`): grouped IS's subsets, then moves
        and swaps of groups that lower F without emptying a (subset, label) cell or moving sizes further
        from their targets. Singleton groups: the hybrid's own folds."""
        if np.all(sizes == 1):  # counts are Y itself, in row order
            return self._assign(sp.csr_matrix(counts), ratios, rng, label_weights)
        self._check_options()
        Y, member = rows
        n, k = Y.shape[0], len(ratios)
        comb = label_combinations(Y)
        targets = apportion(n, ratios).astype(np.float64)
        seed_is, seed_search = (int(v) for v in rng.integers(0, 2**63, size=2))
        fold = iterative_fold_ids(counts, ratios, seed_is, weights=sizes, label_weights=label_weights).astype(np.int64)
        amounts = group_combinations(comb, member, len(sizes))
        start = np.asarray((amounts.T @ sp.csr_matrix((np.ones(len(fold)), (np.arange(len(fold)), fold)),
                                                        shape=(len(fold), k))).todense(), dtype=np.float64)
        weight, hinge = objective_weights(comb, [start], targets, n, self.pair_weight, self.dcp_weight)
        if label_weights is not None:
            weighted = combination_weights(comb, label_weights)
            weight, hinge = weight * weighted, hinge * weighted
        pairs = comb.is_pair
        pair_zeros = max(int((start[pairs] == 0).sum()) - np.maximum(0, k - comb.support[pairs]).sum(), 1)
        R = np.column_stack([start, comb.support, weight, hinge, pairs]).astype(np.float64)
        return call(group_search, ptr=amounts.indptr.astype(np.int64), combos=amounts.indices.astype(np.int64),
                    amounts=amounts.data, R=R, fold=fold, gsize=np.asarray(sizes, np.float64), targets=targets,
                    ideal=np.asarray(ratios, np.float64), passes=self.group_passes * max(self.passes, 1),
                    samples=self.samples, seed=np.uint64(seed_search), fill=np.array([self.fill, self.fill / pair_zeros]))

    def _assign(self, Y, ratios, rng, label_weights=None):
        self._check_options()
        comb = label_combinations(Y) if self._every() or label_weights is not None else None
        seed_is, seed_sois, seed_search = (int(v) for v in rng.integers(0, 2**63, size=3))
        starts = self._starts(Y, comb, ratios, seed_is, seed_sois, label_weights)
        return self._refine(Y, comb, ratios, starts, seed_search, label_weights)

    def _every(self) -> bool:
        """Whether a split reads every label combination (SOIS's start and the polish do), not only those
        with more than one example (:func:`single_combinations`)."""
        return self.start != "iterative" or self.polish is not None

    def _starts(self, Y, comb, ratios, seed_is: int, seed_sois: int, label_weights=None) -> dict:
        """Step 1: IS's folds, and SOIS's unless ``start`` is ``"iterative"`` (``comb`` may then be None)."""
        starts = {"iterative": iterative_fold_ids(Y, ratios, seed_is, label_weights=label_weights)}
        if self.start in ("sois", "both"):
            starts["sois"] = sois_fold_ids(Y, ratios, seed_sois, label_weights=label_weights, comb=comb)
        return starts

    def _refine(self, Y, comb, ratios, starts: dict, seed_search: int, label_weights=None) -> np.ndarray:
        """Steps 2–6 from the ``starts`` (IS's among them); ``comb`` may be None without the polish and weights."""
        n, k = Y.shape[0], len(ratios)
        targets = apportion(n, ratios).astype(np.float64)
        ideal = np.asarray(ratios, np.float64)
        least, most = targets, targets  # exact sizes; with equal shares, any ⌈n/k⌉ folds may hold the extra ones
        if not self.holdout and np.ptp(ideal) == 0:
            least, most = np.full(k, float(n // k)), np.full(k, float(-(-n // k)))

        # one-example labels and pairs enter F only through each example's summed weight of them (with column
        # weights, every combination enters on its own)
        if label_weights is None:
            kept = single_combinations(comb, ideal, Y)
        else:
            zeros = np.zeros(n, dtype=np.int64)
            kept = KeptCombinations(comb.row_ptr, comb.row_combos, comb.support, comb.is_pair, zeros, zeros)
        row_ptr, row_combos, support, pairs = kept.row_ptr, kept.row_combos, kept.support, kept.is_pair
        label_alone, pair_alone = kept.labels_alone, kept.pairs_alone

        def counts_of(fold):
            return fold_counts(row_ptr, row_combos, fold.astype(np.int64), k, len(support))

        # one objective for every start, each term weighted by its value at the better start
        counts = {name: counts_of(fold) for name, fold in starts.items()}
        scales = _term_scales(support.astype(float), pairs, list(counts.values()), targets, n,
                              [one_example_errors(label_alone, pair_alone, fold, targets / n) for fold in starts.values()])
        weight, hinge = _weights(support.astype(float), pairs, scales, n, self.pair_weight, self.dcp_weight)
        weighted = None if label_weights is None else combination_weights(comb, label_weights)  # None: all 1
        if weighted is not None:
            weight, hinge = weight * weighted, hinge * weighted
        single_weight = _weights(np.ones(2), np.array([False, True]), scales, n, self.pair_weight,
                                 self.dcp_weight)[0].astype(np.float32).astype(np.float64)  # as R holds weights
        single = label_alone * single_weight[0] + pair_alone * single_weight[1]
        floor = int((counts["iterative"][~pairs] == 0).sum())  # IS's FLZ (less the one-example labels' k − 1 each)
        inevitable = np.maximum(0, k - support[pairs]).sum()
        pair_zeros = max(min(int((c[pairs] == 0).sum()) for c in counts.values()) - inevitable, 1)
        del counts
        fill = np.array([self.fill, self.fill / pair_zeros])  # the fillable pair zeros together ≈ one label's
        R = np.zeros((len(support), k + 4), dtype=np.float32)
        R[:, k:] = np.column_stack([support, weight, hinge, pairs])

        def search(fold, passes, seed, visit=n, exact=True):
            fold, value, zeros = call(hybrid_kernel, row_ptr=row_ptr, row_combos=row_combos, R=R,
                                      fold=fold.astype(np.int64), targets=targets, least=least, most=most, ideal=ideal,
                                      passes=passes, samples=self.samples, seed=np.uint64(seed), fill=fill,
                                      single=single, visit=visit, exact=exact, keep_pairs=self.keep_pairs)
            return max(zeros - floor, 0), value, fold

        # `trial` of a pass from each start; the better (no more empty (fold, label) cells than IS,
        # then lower F) goes on for the full passes
        trials = [search(fold, 1, seed_search, max(int(n * self.trial), 1), False) for fold in starts.values()]
        best = min(trials, key=lambda r: r[:2])
        result = search(best[2], self.passes, seed_search + 1)
        if result[0] > 0:  # evidence lost on the way: the better of this and IS's own folds' search
            result = min(result, search(starts["iterative"], self.passes, seed_search + 2), key=lambda r: r[:2])
        if self.polish is None:
            return result[2]
        return polish_ld(Y, comb, result[2], ratios, seed_search + 3, self.polish, self.samples, self.keep_pairs,
                         free_sizes=not self.holdout and np.ptp(ideal) == 0, budget=self.polish_budget,
                         combo_weights=weighted)


def compile_search() -> None:
    """Compile the hybrid's local search (``hybrid_kernel``) on a tiny problem from a fixed start: the part of
    its first compilation that runs in a process of its own (:meth:`HybridStratifier._compile_plan`)."""
    method = HybridStratifier(n_splits=3, polish=None, start="iterative")
    Y = tiny_labels(3)
    method._refine(Y, label_combinations(Y), method._ratios(Y.shape[0]), {"iterative": np.arange(Y.shape[0]) % 3}, 0)

__getattr__ = renamed(__name__, {"HybridStratification": "HybridStratifier"})  # the old name, for one release
