"""How far from the best split possible: an exact (CP-SAT) solver of the LD and FLZ objectives for
k-fold splits with exact fold sizes, and a per-label lower bound that holds for every such split.

Rows with one labelset are interchangeable for every label measure, so the model counts, for each
labelset s (m_s rows) and fold j, how many of its rows go to j: integers n_sj with Σ_j n_sj = m_s and
Σ_s n_sj = T_j (T_j = n/k by largest remainder, as the equal-size stratifiers give). A label's fold
count is c_j^λ = Σ_{s ∋ λ} n_sj, and

- **LD** (Appendix A; OPTI's guards): minimise Σ_λ Σ_j |p/(1 − p) − d/(1 − d)| with p = c_j^λ/T_j,
  each term read from a table over c (CP-SAT ``AddElement``; costs scaled to integers, the value of
  the solution recomputed exactly). LD is this sum over k·q.
- **FLZ**: minimise the number of (fold, label) cells with c_j^λ = 0.

Bounds added to the model (valid for every split with these sizes, so they cut nothing feasible):
per label, Σ_j cost ≥ the least that label alone can cost (:func:`label_ld_floors`, a min-plus
recursion over the folds); Σ_j [c_j^λ = 0] ≥ max(0, k − |D_λ|). Folds of equal size are
interchangeable: the most frequent labelset's counts are non-increasing over them (symmetry breaking).
The solver runs for ``max_time`` deterministic seconds (reproducible, whatever the machine's speed);
where it stops before proving optimality, the gap is measured against its proven lower bound.
Needs ``ortools`` (``pip install stratbench[optimum]``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp

from stratbench import StratbenchError
from stratbench.labels import apportion, as_label_matrix, labelset_ids
from stratbench.measures.fold_quality import fold_quality

SCALE = 10**6  # LD table costs are integers in millionths (the exact value is recomputed from the folds)


def ld_cost_table(support: int, n: int, size: int) -> np.ndarray:
    """|p/(1 − p) − d/(1 − d)| of one (label, fold) cell for every count c = 0 … min(|D_λ|, T_j), with
    p = c/T_j and d = |D_λ|/n, guarded as :func:`stratbench.measures.fold_quality.label_distribution`
    (p = 1 counts as (T_j − 1)/T_j, d = 1 as (n − 1)/n).

    >>> ld_cost_table(2, 10, 5).round(4).tolist()   # d/(1 − d) = 0.25; c = 0, 1, 2 of 5
    [0.25, 0.0, 0.4167]
    """
    d = (n - 1) / n if support == n else support / n
    c = np.arange(min(support, size) + 1, dtype=float)
    p = np.where(c == size, (size - 1) / size, c / size)
    return np.abs(p / (1 - p) - d / (1 - d))


def _min_plus(best: np.ndarray, cost: np.ndarray) -> np.ndarray:
    """out[t] = min over c of best[t − c] + cost[c] (t = 0 … len(best) − 1)."""
    out = np.full(len(best), np.inf)
    for c, value in enumerate(cost):
        out[c:] = np.minimum(out[c:], best[: len(best) - c] + value)
    return out


def label_ld_floors(Y, n_splits: int) -> np.ndarray:
    """Per label, the least Σ_j |p_j/(1 − p_j) − d/(1 − d)| any split with exact fold sizes T_j can
    reach, that label alone (counts c_j ≤ T_j with Σ_j c_j = |D_λ|; min-plus over the folds,
    O(k·|D_λ|²)). Their sum over k·q is a lower bound on LD (``LD floor``): the labels are coupled by
    the rows they share, which only the exact model sees.

    >>> label_ld_floors([[1, 0], [1, 0], [0, 1], [0, 0]], 2).tolist()  # label 1: |1 − ⅓| + |0 − ⅓|
    [0.0, 1.0]
    """
    Y = as_label_matrix(Y)
    n, k = Y.shape[0], n_splits
    sizes = apportion(n, np.full(k, 1.0 / k))
    support = np.asarray(Y.sum(axis=0)).ravel().astype(int)
    floors = np.zeros(len(support))
    for i, total in enumerate(support):
        if total == 0:
            continue
        best = np.full(total + 1, np.inf)
        best[0] = 0.0
        for size in sizes:
            best = _min_plus(best, ld_cost_table(total, n, int(size)))
        floors[i] = best[total]
    return floors


def _hint_counts(hint: np.ndarray, sets: np.ndarray, top: int, sizes: np.ndarray) -> np.ndarray | None:
    """The labelset × fold counts of the split ``hint``, its folds renumbered to fit the model (sizes
    in the model's order, the top labelset's counts non-increasing among equal sizes); None if its
    fold sizes are not the model's."""
    k = len(sizes)
    placed = np.zeros((sets.max() + 1, k), dtype=np.int64)
    np.add.at(placed, (sets, hint), 1)
    order = np.lexsort((-placed[top], -placed.sum(axis=0)))  # largest folds first, then the top labelset
    placed = placed[:, order]
    return placed if np.array_equal(placed.sum(axis=0), sizes) else None


@dataclass
class Optimum:
    """One solve: the folds found, their ``value`` (LD or FLZ, exactly), the proven lower ``bound``,
    whether the solver proved the folds optimal, its status name and its wall time."""

    objective: str
    folds: np.ndarray
    value: float
    bound: float
    optimal: bool
    status: str
    seconds: float

    @property
    def gap(self) -> float:
        """(value − bound)/bound: 0 when proven optimal."""
        return 0.0 if self.optimal or self.value <= self.bound else (self.value - self.bound) / self.bound


def optimal_split(Y, n_splits: int, objective: str = "LD", max_time: float = 60.0, workers: int = 1,
                  hint: np.ndarray | None = None, seed: int = 0) -> Optimum:
    """The best k-fold split of ``Y`` with exact fold sizes for ``objective`` ("LD" or "FLZ") that
    CP-SAT finds in ``max_time`` deterministic seconds, with its proven lower bound (module docstring).
    ``hint``: folds of a good split (e.g. the hybrid's) to start from. Deterministic for given
    arguments: the rows of labelset s go to the folds in row order, n_s0 to fold 0 first, and so on."""
    try:
        from ortools.sat.python import cp_model
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise StratbenchError("the optimality gap needs ortools: pip install 'stratbench[optimum]'") from err
    if objective not in ("LD", "FLZ"):
        raise StratbenchError(f"objective={objective!r}: the exact solver knows 'LD' and 'FLZ'")
    Y = as_label_matrix(Y)
    n, q, k = Y.shape[0], Y.shape[1], n_splits
    if not 2 <= k <= n:
        raise StratbenchError(f"n_splits={k}: needs 2 ≤ k ≤ n = {n}")
    sizes = apportion(n, np.full(k, 1.0 / k))
    sets = labelset_ids(Y)
    counts = np.bincount(sets)
    first = np.unique(sets, return_index=True)[1]
    members = sp.csr_matrix(Y[first])  # labelset × label
    support = np.asarray(Y.sum(axis=0)).ravel().astype(int)

    model = cp_model.CpModel()
    x = [[model.NewIntVar(0, int(min(m, sizes[j])), f"n{s}_{j}") for j in range(k)] for s, m in enumerate(counts)]
    for s, m in enumerate(counts):
        model.Add(sum(x[s]) == int(m))
    for j in range(k):
        model.Add(sum(x[s][j] for s in range(len(counts))) == int(sizes[j]))
    top = int(np.argmax(counts))
    for j in range(k - 1):
        if sizes[j] == sizes[j + 1]:
            model.Add(x[top][j] >= x[top][j + 1])
    holders = sp.csc_matrix(members)
    floors = label_ld_floors(Y, k) if objective == "LD" else None
    terms = []
    for lam in range(q):
        if support[lam] == 0:
            continue
        rows = holders.indices[holders.indptr[lam]:holders.indptr[lam + 1]]
        cells = []
        for j in range(k):
            c = model.NewIntVar(0, int(min(support[lam], sizes[j])), f"c{lam}_{j}")
            model.Add(c == sum(x[s][j] for s in rows))
            if objective == "LD":
                table = np.rint(ld_cost_table(int(support[lam]), n, int(sizes[j])) * SCALE).astype(np.int64)
                cost = model.NewIntVar(int(table.min()), int(table.max()), f"ld{lam}_{j}")
                pick = [model.NewBoolVar(f"y{lam}_{j}_{v}") for v in range(len(table))]  # c = v
                model.AddExactlyOne(pick)
                model.Add(c == sum(v * b for v, b in enumerate(pick)))
                model.Add(cost == sum(int(t) * b for t, b in zip(table, pick)))
            else:
                cost = model.NewBoolVar(f"z{lam}_{j}")
                model.Add(c >= 1).OnlyEnforceIf(cost.Not())
                model.Add(c == 0).OnlyEnforceIf(cost)
            cells.append(cost)
        if objective == "LD":  # rounding each cell by ≤ ½ keeps the scaled floor valid after this margin
            model.Add(sum(cells) >= int(np.floor(floors[lam] * SCALE - k / 2)))
        else:
            model.Add(sum(cells) >= max(0, k - int(support[lam])))
        terms += cells
    model.Minimize(sum(terms))
    if hint is not None:
        placed = _hint_counts(np.asarray(hint), sets, top, sizes)
        if placed is not None:
            for s in range(len(counts)):
                for j in range(k):
                    model.AddHint(x[s][j], int(placed[s, j]))

    solver = cp_model.CpSolver()
    solver.parameters.max_deterministic_time = float(max_time)
    solver.parameters.num_workers = int(workers)
    solver.parameters.random_seed = int(seed)
    solver.parameters.interleave_search = True  # several workers, still one result for one input
    status = solver.Solve(model)
    found = status in (cp_model.OPTIMAL, cp_model.FEASIBLE)
    if not found and hint is None:
        raise StratbenchError(f"CP-SAT found no split in {max_time} deterministic s ({solver.StatusName(status)}); "
                              "give a hint (a good split) to measure against its bound")
    cells = k * q
    if objective == "LD":
        floor = floors.sum()
        solved = solver.BestObjectiveBound() / SCALE - cells / 2 / SCALE if found else 0.0
    else:
        floor = float(np.maximum(0, k - support[support > 0]).sum())
        solved = max(float(np.ceil(solver.BestObjectiveBound() - 1e-9)), 0.0) if found else 0.0
    bound = max(solved, floor) / (cells if objective == "LD" else 1)
    folds = np.asarray(hint, dtype=np.int64) if hint is not None else None
    value = fold_quality(Y, folds, k, pairs=False)[objective] if folds is not None else np.inf
    if found:
        mine = np.empty(n, dtype=np.int64)
        for s in range(len(counts)):
            mine[sets == s] = np.repeat(np.arange(k), [solver.Value(x[s][j]) for j in range(k)])
        mine_value = fold_quality(Y, mine, k, pairs=False)[objective]
        if mine_value <= value:
            folds, value = mine, mine_value
    optimal = status == cp_model.OPTIMAL or value <= bound * (1 + 1e-9)  # proven, or at the bound
    return Optimum(objective, folds, float(value), float(min(bound, value)), bool(optimal),
                   solver.StatusName(status), float(solver.WallTime()))


OPTIMUM_COLUMNS = ["dataset", "k", "objective", "value", "bound", "optimal", "status", "seconds"]


def optimum_rows(Y, ks, objectives=("LD", "FLZ"), max_time: float = 60.0, workers: int = 1,
                 hints: dict | None = None) -> pd.DataFrame:
    """One row per k × objective: the best split's value, the proven bound, whether it is optimal, the
    solver's status and wall time (``hints``: k → folds to start from, e.g. the hybrid's)."""
    rows = []
    for k in ks:
        for objective in objectives:
            o = optimal_split(Y, k, objective, max_time, workers, (hints or {}).get(k))
            rows.append((k, objective, o.value, o.bound, o.optimal, o.status, round(o.seconds, 1)))
    return pd.DataFrame(rows, columns=OPTIMUM_COLUMNS[1:])


def gap_table(grid: pd.DataFrame, optimum: pd.DataFrame) -> pd.DataFrame:
    """Each stratifier's distance from the best split, per dataset × k × objective, from the grid's
    rows (:data:`~stratbench.grid.GRID_COLUMNS`) and the solver's (:func:`optimum_rows`): ``mean`` and
    ``best`` (the best seed) of the measure; ``gap``: for LD (mean − bound)/bound, for FLZ mean − bound
    in cells (its optimum is often 0). ``closed``: the optimum is proven (bound = optimum): by the solver,
    or by a split of the grid with exact fold sizes that reaches the bound (:func:`_bound_attained`);
    otherwise the gap is an upper bound on the distance from the optimum."""
    part = grid[grid["measure"].isin(optimum["objective"].unique())].rename(columns={"measure": "objective"})
    per = (part.groupby(["dataset", "stratifier", "k", "objective"], sort=True)["value"]
           .agg(mean="mean", best="min").reset_index())
    table = per.merge(optimum, on=["dataset", "k", "objective"])
    excess = table["mean"] - table["bound"]
    table["gap"] = np.where(table["objective"] == "LD", excess / table["bound"].where(table["bound"] > 0), excess)
    attained = _bound_attained(grid, optimum)
    table["closed"] = table["optimal"].astype(bool) | np.array(
        [key in attained for key in zip(table["dataset"], table["k"], table["objective"])], dtype=bool)
    return table[["dataset", "k", "objective", "stratifier", "mean", "best", "value", "bound", "closed",
                  "gap"]].sort_values(["objective", "k", "dataset", "stratifier"], kind="stable").reset_index(drop=True)


def _bound_attained(grid: pd.DataFrame, optimum: pd.DataFrame) -> set[tuple]:
    """(dataset, k, objective) where one of the grid's splits with exact fold sizes (the least ED of that
    (dataset, k): exact sizes give the least there is) reaches the proven lower bound: bound ≤ optimum ≤
    that split's value, so the bound is the optimum (relative tolerance 10⁻⁹)."""
    wide = grid.pivot_table(index=["dataset", "stratifier", "k", "repeat"], columns="measure", values="value")
    if "ED" not in wide:
        return set()
    wide = wide.reset_index()
    exact = wide[wide["ED"] <= wide.groupby(["dataset", "k"])["ED"].transform("min") + 1e-9]
    out = set()
    for row in optimum.itertuples():
        if row.objective in exact:
            values = exact.loc[(exact["dataset"] == row.dataset) & (exact["k"] == row.k), row.objective]
            if (values <= row.bound + 1e-9 * max(abs(row.bound), 1e-12)).any():
                out.add((row.dataset, row.k, row.objective))
    return out


def gap_markdown(gaps: pd.DataFrame) -> str:
    """The gap table in Markdown: per objective and k, datasets as rows and stratifiers as columns (LD
    in % above the optimum, or above the bound where the solver did not close, marked ≥)."""
    lines = ["# Distance from the best split possible", "",
             "LD: the mean over the seeds, in % above the optimum with exact fold sizes (CP-SAT, "
             "`stratbench.grid.optimum`). Where the solver stopped before proving the optimum, the optimum "
             "column gives its proven lower bound (≥) and a gap is measured to that bound: at most (≤) that far "
             "from the optimum. FLZ: empty (fold, label) cells above the fewest possible.", ""]
    for (objective, k), part in gaps.groupby(["objective", "k"], sort=True):
        methods = sorted(part["stratifier"].unique())
        lines += [f"## {objective}, k = {k}", "", "| dataset | optimum | " + " | ".join(methods) + " |",
                  "|---|---|" + "---|" * len(methods)]
        for dataset, rows in part.groupby("dataset", sort=True):
            rows = rows.set_index("stratifier")
            first = rows.iloc[0]
            bound = first["bound"] + 0.0  # a solver's −0.0 prints as 0
            head = f"{bound:.4g}" if first["closed"] else f"≥ {bound:.4g}"
            cells = [_gap_cell(rows.loc[m], objective) if m in rows.index else "–" for m in methods]
            lines.append(f"| {dataset} | {head} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)


def _gap_cell(row, objective: str) -> str:
    if objective == "LD":
        text = f"{100 * row['gap']:.1f}%"
    else:
        text = f"{row['gap']:+.1f}"
    return text if row["closed"] else f"≤ {text}"
