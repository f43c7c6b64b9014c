"""Second-order iterative stratification (SOIS; Szymański & Kajdanowicz, LIDTA/PMLR 74, 2017).

The paper's procedure (docs/ALGORITHMS.md §2): one pool Λ of every label (i, i) and every co-occurring
pair (i, j); desired counts c_j^e = |D^e|·r_j and c_j = n·r_j. Repeatedly take the combination with
the fewest remaining examples (ties at random), deal each remaining example that carries it to the
fold with the largest c_j^e, ties by the largest c_j, further ties at random, and decrement the
desires of every label and pair of that example. Label-less examples go last to the fold with the
largest c_j. When the pairs are used up, what remains is IS over single labels.

``select`` picks the variant of the combination choice:
- ``paper`` (default): fewest remaining examples among labels and pairs, ties at random;
- ``docstring``: fewest remaining, ties → a pair before a label, then at random (the released code's
  stated intent);
- ``pairs_first``: the pair with the fewest remaining while any pair has examples, then labels
  (scikit-multilearn PR #305);
- ``skmultilearn``: the selection scikit-multilearn 0.1/0.2 actually runs — the first combination in
  order of first appearance with remaining examples; if it is a label with s remaining, the first
  later pair with fewer than s remaining instead. An O(C) scan per choice, as in the original.
``rules="skmultilearn"`` follows the rest of what scikit-multilearn 0.2.0 runs as well (docs/ALGORITHMS.md
§1.3 items 2–4, with the ``skmultilearn`` selection): a combination's examples in descending row order,
fold ties at random among the folds with the largest c_j^e (no overall-desire criterion), examples
without labels in descending order to a random fold among those with c_j > 0.

Compiled (numba): bucket queues keyed by the remaining count give the fewest-remaining choice in
amortised O(1), so the run is O(Σ_x |Y_x|² + n·k) after the O(Σ_x |Y_x|² log) combination build.
"""

from __future__ import annotations

import numba
import numpy as np

from stratbench import StratbenchError
from stratbench.labels import label_combinations
from stratbench.stratifiers import register
from stratbench.stratifiers._base import MultilabelStratifier
from stratbench.stratifiers._kernels import RULES, choose_fold, place_unlabelled, randbelow

SELECT = {"paper": 0, "docstring": 1, "pairs_first": 2, "skmultilearn": 3}


@numba.njit(cache=True)
def _bucket_init(group, remaining, n_groups, max_count):  # pragma: no cover - compiled
    """Per group, combinations sorted by remaining count: vert, pos and bin starts (absolute)."""
    C = remaining.shape[0]
    bin_start = np.zeros((n_groups, max_count + 2), dtype=np.int64)
    sizes = np.zeros(n_groups, dtype=np.int64)
    for c in range(C):
        sizes[group[c]] += 1
        bin_start[group[c], remaining[c] + 1] += 1
    offset = 0
    for g in range(n_groups):
        bin_start[g, 0] = offset
        for d in range(1, max_count + 2):
            bin_start[g, d] += bin_start[g, d - 1]
        offset += sizes[g]
    fill = bin_start.copy()
    vert = np.empty(C, dtype=np.int64)
    pos = np.empty(C, dtype=np.int64)
    for c in range(C):
        p = fill[group[c], remaining[c]]
        vert[p] = c
        pos[c] = p
        fill[group[c], remaining[c]] += 1
    return vert, pos, bin_start


@numba.njit(cache=True)
def _bucket_decrement(c, g, remaining, vert, pos, bin_start):  # pragma: no cover - compiled
    d = remaining[c]
    first = bin_start[g, d]
    w = vert[first]
    pc = pos[c]
    vert[first] = c
    pos[c] = first
    vert[pc] = w
    pos[w] = pc
    bin_start[g, d] += 1
    remaining[c] = d - 1


@numba.njit(cache=True)
def _bucket_min(g, start, bin_start, max_count):  # pragma: no cover - compiled
    """Smallest count ≥ ``start`` (≥ 1) with a non-empty bin in group g, or −1."""
    d = start
    while d <= max_count:
        if bin_start[g, d] < bin_start[g, d + 1]:
            return d
        d += 1
    return -1


@numba.njit(cache=True)
def sois_kernel(row_ptr, row_combos, combo_ptr, combo_rows, is_pair, insertion, ratios, seed, mode,
                skmultilearn):  # pragma: no cover
    n = row_ptr.shape[0] - 1
    C = combo_ptr.shape[0] - 1
    k = ratios.shape[0]
    state = np.empty(1, dtype=np.uint64)
    state[0] = np.uint64(seed)
    remaining = np.empty(C, dtype=np.int64)
    group = np.empty(C, dtype=np.int64)
    max_count = np.int64(1)  # not the literal 1 (see _kernels)
    for c in range(C):
        remaining[c] = combo_ptr[c + 1] - combo_ptr[c]
        group[c] = 1 if is_pair[c] else 0
        if remaining[c] > max_count:
            max_count = remaining[c]
    desired = np.empty((C, k))
    for c in range(C):
        for j in range(k):
            desired[c, j] = remaining[c] * ratios[j]
    desired_fold = n * ratios
    vert, pos, bin_start = _bucket_init(group, remaining, 2, max_count)
    low = np.ones(2, dtype=np.int64)  # lower bound of each group's smallest positive count
    scan_from = 0  # skmultilearn mode: combinations before this insertion rank are empty
    fold = np.full(n, -1, dtype=np.int64)
    while True:
        e = -1
        if mode == 3:
            while scan_from < C and remaining[insertion[scan_from]] == 0:
                scan_from += 1
            if scan_from == C:
                break
            e = insertion[scan_from]
            if not is_pair[e]:
                s0 = remaining[e]
                for t in range(scan_from + 1, C):
                    c = insertion[t]
                    if is_pair[c] and 0 < remaining[c] < s0:
                        e = c
                        break
        else:
            m0 = _bucket_min(np.int64(0), low[0], bin_start, max_count)
            m1 = _bucket_min(np.int64(1), low[1], bin_start, max_count)
            if m0 > 0:
                low[0] = m0
            if m1 > 0:
                low[1] = m1
            if m0 < 0 and m1 < 0:
                break
            g = -1
            if mode == 0:
                if m1 < 0 or (m0 > 0 and m0 < m1):
                    g = 0
                elif m0 < 0 or m1 < m0:
                    g = 1
                else:  # a tie between labels and pairs: uniform over both bins
                    size0 = bin_start[0, m0 + 1] - bin_start[0, m0]
                    size1 = bin_start[1, m1 + 1] - bin_start[1, m1]
                    r = randbelow(state, size0 + size1)
                    if r < size0:
                        e = vert[bin_start[0, m0] + r]
                    else:
                        e = vert[bin_start[1, m1] + r - size0]
            elif mode == 1:
                g = 1 if (m1 > 0 and (m0 < 0 or m1 <= m0)) else 0
            else:
                g = 1 if m1 > 0 else 0
            if e < 0:
                m = m0 if g == 0 else m1
                size = bin_start[g, m + 1] - bin_start[g, m]
                e = vert[bin_start[g, m] + randbelow(state, size)]
        start, stop = combo_ptr[e], combo_ptr[e + 1]
        for t in range(stop - start):
            x = combo_rows[stop - 1 - t] if skmultilearn else combo_rows[start + t]
            if fold[x] >= 0:
                continue
            f = choose_fold(desired[e], desired_fold, state, not skmultilearn)
            fold[x] = f
            desired_fold[f] -= 1.0
            for pp in range(row_ptr[x], row_ptr[x + 1]):
                c = row_combos[pp]
                desired[c, f] -= 1.0
                g = group[c]
                _bucket_decrement(c, g, remaining, vert, pos, bin_start)
                if 0 < remaining[c] < low[g]:
                    low[g] = remaining[c]
    place_unlabelled(fold, desired_fold, state, skmultilearn, np.ones(n))
    return fold


def sois_fold_ids(Y, ratios, seed, select="paper", rules="paper"):
    comb = label_combinations(Y)
    return sois_kernel(comb.row_ptr, comb.row_combos, comb.combo_ptr, comb.combo_rows, comb.is_pair,
                       np.argsort(comb.first_seen).astype(np.int64), np.asarray(ratios, dtype=np.float64),
                       np.uint64(seed), SELECT[select], rules == "skmultilearn")


@register("sois")
class SecondOrderIterativeStratification(MultilabelStratifier):
    """SOIS (Szymański & Kajdanowicz 2017) as a k-fold cross-validator (or holdout split).

    Parameters: ``n_splits``, ``random_state``, ``test_size`` as every stratifier; ``select`` (see the
    module docstring; default ``"paper"``); ``rules`` — ``"paper"`` or ``"skmultilearn"`` (the
    released code's rules throughout, with our seeded draws; implies ``select="skmultilearn"``); ``shuffle`` — permute the rows
    before stratifying, so the order in which a combination's examples are dealt is random (default
    False: data order).

    Examples
    --------
    >>> from stratbench import stratifiers
    >>> Y = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1], [1, 1]]
    >>> stratifiers.get("sois", n_splits=2, random_state=0).fold_ids(Y).tolist()
    [0, 1, 0, 1, 1, 0]
    """
    reference = "Szymański & Kajdanowicz, PMLR 74 (LIDTA 2017)"
    kernels = (sois_kernel,)
    compile_seconds = 4

    def __init__(self, n_splits=10, random_state=None, test_size=None, train_size=None, fold_shares=None,
                 select="paper", shuffle=False, rules="paper"):
        super().__init__(n_splits=n_splits, random_state=random_state, test_size=test_size, train_size=train_size,
                         fold_shares=fold_shares)
        self.select = select
        self.shuffle = shuffle
        self.rules = rules

    def _assign(self, Y, ratios, rng):
        if self.select not in SELECT:
            raise StratbenchError(f"select must be one of {list(SELECT)}, got {self.select!r}")
        if self.rules not in RULES:
            raise StratbenchError(f"rules must be one of {RULES}, got {self.rules!r}")
        select = "skmultilearn" if self.rules == "skmultilearn" else self.select
        if self.rules == "skmultilearn" and self.select not in ("paper", "skmultilearn"):
            raise StratbenchError(f"rules='skmultilearn' selects as scikit-multilearn does; select={self.select!r} "
                                  "applies to the paper's variant only")
        seed = int(rng.integers(0, 2**63))
        if not self.shuffle:
            return sois_fold_ids(Y, ratios, seed, select, self.rules)
        order = rng.permutation(Y.shape[0])
        folds = np.empty(Y.shape[0], dtype=np.int64)
        folds[order] = sois_fold_ids(Y[order], ratios, seed, select, self.rules)
        return folds
