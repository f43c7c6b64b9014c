"""Comparing stratifiers over datasets: average ranks, Friedman and Nemenyi (Demšar, JMLR 7, 2006;
docs/ALGORITHMS.md §9).

A comparison is a table of blocks (datasets, rows) × methods (stratifiers, columns) holding one
value per cell, e.g. the std over folds of an evaluation measure. Within each block the methods are
ranked, rank 1 = the smallest value when ``ascending`` (a std, a fold-quality measure), ties
averaged. A block with a NaN in any method (e.g. MAP with a label absent from a test fold) is left out
of that comparison only — that measure for that dataset, never the dataset's other measures — and named
in the test's ``dropped`` column and note (listwise deletion per comparison: this reproduces the
published ranks of Sechidis et al. 2011 from their Table 4).

- Friedman: χ²_F = 12N/(k(k+1)) · [Σ_j R_j² − k(k+1)²/4] with k − 1 df (no tie correction, as Demšar
  writes it); Iman–Davenport F_F = (N−1)χ²_F / (N(k−1) − χ²_F) with (k−1, (k−1)(N−1)) df.
- Nemenyi: CD = q_α √(k(k+1)/(6N)), q_α = studentized range quantile(1−α; k, ∞)/√2; the pairwise
  p-value of methods i, j is P(studentized range > |R_i − R_j|·√2 / √(k(k+1)/(6N))).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported by the functions that build frames: the tests on arrays need none
    import pandas as pd


def _scipy_stats():
    """scipy.stats, imported where a test is computed (its import is most of a study's planning time)."""
    from scipy import stats

    return stats

RANK_COLUMNS = ["group", "stratifier", "average_rank", "datasets"]
TEST_COLUMNS = ["group", "datasets", "methods", "chi2", "chi2_p", "iman_davenport_F", "F_df1", "F_df2", "F_p",
                "exact_p", "p", "significant", "alpha", "q_alpha", "critical_difference", "nemenyi_too_few", "dropped",
                "note"]
PAIR_COLUMNS = ["group", "stratifier_a", "stratifier_b", "rank_difference", "p_value", "significant"]

# The one source of each statistic's printed name: every table (CSV, Markdown, LaTeX), figure and report that
# prints a p-value or a post-hoc test takes its name from here, so a caption names what its column holds.
P_VALUE_NAMES = {"exact_p": "exact permutation", "F_p": "Iman–Davenport F", "chi2_p": "χ², asymptotic"}
POST_HOC_NAMES = {"nemenyi": "Nemenyi critical difference",
                  "wilcoxon_holm": "one-sided Wilcoxon signed-rank test, Holm-adjusted"}


def judged_p(test) -> str:
    """The column (``exact_p``, ``F_p`` or ``chi2_p``) of the Friedman p-value a comparison is judged by, i.e.
    :class:`Friedman`'s ``p``: the exact permutation p where computed, else Iman–Davenport F's, else χ²'s."""
    for column in ("exact_p", "F_p"):
        if np.isfinite(float(test[column])):
            return column
    return "chi2_p"


def p_value_name(test) -> str:
    """The printed name of the test whose p a comparison's ``p`` holds, e.g. "exact permutation"."""
    return P_VALUE_NAMES[judged_p(test)]


# a cell's mark in a column that mixes p-values of different tests
P_MARKS = {name: mark for name, mark in zip(P_VALUE_NAMES.values(), (" (e)", " (F)", " (χ²)"))}


def friedman_p_caption(names) -> str:
    """What a column of judged Friedman p-values holds, from the :func:`p_value_name` of each of its rows: one name
    where every row was judged by the same test, else each name with the mark its cells carry (:data:`P_MARKS`)."""
    names = list(dict.fromkeys(names))
    if not names:
        return "Friedman p"
    if len(names) == 1:
        return f"Friedman p ({names[0]})"
    return "Friedman p (" + ", ".join(f"{P_MARKS[n].strip()}: {n}" for n in names) + ")"


def block_ranks(table: pd.DataFrame, ascending: bool = True) -> pd.DataFrame:
    """Rank the methods (columns) within each block (row); 1 = smallest if ``ascending``; ties averaged."""

    return table.rank(axis=1, method="average", ascending=ascending)


EXACT_WORK = 50_000_000  # the exact permutation p is computed where a block combines at most this many pairs


@dataclass(frozen=True)
class Friedman:
    """Friedman's test over N blocks and k methods, with the Iman–Davenport correction.

    ``exact_p`` is the permutation p-value of χ²_F (NaN where its distribution is too large to
    enumerate); ``p`` is the one to judge by: ``exact_p`` where computed, else F_F's, else χ²_F's;
    ``note`` says why a value is NaN or which p ``p`` is.
    """

    n_blocks: int
    n_methods: int
    average_ranks: pd.Series
    chi2: float
    chi2_p: float
    f: float
    f_df: tuple[int, int]
    f_p: float
    exact_p: float = np.nan
    p: float = np.nan
    note: str = ""


def friedman_from_ranks(average_ranks: pd.Series, n_blocks: int, ranks: np.ndarray | None = None) -> Friedman:
    """Friedman's χ²_F and Iman–Davenport's F_F from the average ranks of k methods over N blocks, and,
    given the N × k within-block ``ranks``, the exact permutation p of χ²_F (:func:`exact_friedman_p`).

    F_F is undefined (NaN, never "p = 0") when every block ranks the methods alike: its denominator
    N(k−1) − χ²_F is then 0 and the F distribution says nothing; the exact p does (1/k!^(N−1) at best).
    """
    N, k = int(n_blocks), len(average_ranks)
    df = (k - 1, (k - 1) * (N - 1))
    if N < 2 or k < 2:
        reason = f"no test: {N} dataset{'s' * (N != 1)}" if N < 2 else "no test: fewer than 2 methods"
        return Friedman(N, k, average_ranks, np.nan, np.nan, np.nan, df, np.nan, note=reason)
    chi2 = 12.0 * N / (k * (k + 1)) * (float(np.sum(average_ranks.to_numpy() ** 2)) - k * (k + 1) ** 2 / 4.0)
    chi2 = max(chi2, 0.0)  # rounding can leave −1e−15 when the methods tie in every block
    chi2_p = float(_scipy_stats().chi2.sf(chi2, k - 1))
    denominator = N * (k - 1) - chi2
    if denominator > 1e-9:
        f = (N - 1) * chi2 / denominator
        f_p, note = float(_scipy_stats().f.sf(f, *df)), ""
    else:
        f, f_p, note = np.nan, np.nan, "F undefined: every dataset ranks the methods alike"
    exact = exact_friedman_p(ranks) if ranks is not None else np.nan
    if np.isfinite(exact):
        p, which = exact, f"p: {P_VALUE_NAMES['exact_p']}"
    elif np.isfinite(f_p):
        p, which = f_p, f"p: {P_VALUE_NAMES['F_p']}"
    else:
        p, which = chi2_p, f"p: {P_VALUE_NAMES['chi2_p']}"
    return Friedman(N, k, average_ranks, chi2, chi2_p, f, df, f_p, exact, p, "; ".join(filter(None, [note, which])))


def exact_friedman_p(ranks: np.ndarray, max_work: int = EXACT_WORK) -> float:
    """P(Σ_j R_j² ≥ observed) when each block's ranks are permuted independently and uniformly (the
    null hypothesis of Friedman's test, conditional on each block's ties): the exact p of χ²_F, which is
    increasing in Σ_j R_j². Computed as the distribution of the rank-sum vector, block by block; NaN
    when the blocks could combine more than ``max_work`` (vector, permutation) pairs in all (small N·k:
    k = 2 up to N ≈ 3,500, k = 3 up to N = 80, k = 4 up to N = 9, k = 5 up to N = 2).

    >>> round(exact_friedman_p(np.array([[1, 2], [1, 2]])), 3)  # two blocks, two methods, alike: 2 of 4
    0.5
    """
    ranks = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)  # averaged ties are halves
    n, k = ranks.shape
    radix = 2 * k * n + 1  # a rank-sum vector (doubled) as one integer in base radix
    vectors = min(math.factorial(k) ** n, (2 * n * (k - 1) + 1) ** (k - 1))  # bounds the distinct rank-sum vectors
    if n * vectors * math.factorial(k) > max_work or radix ** k >= 2**62:
        return np.nan
    place = radix ** np.arange(k, dtype=np.int64)
    codes, probs = np.zeros(1, dtype=np.int64), np.ones(1)
    for row in ranks:
        orders = np.unique(np.array(list(itertools.permutations(row.tolist())), dtype=np.int64), axis=0) @ place
        if len(codes) * len(orders) > max_work:
            return np.nan
        combined = (codes[:, None] + orders[None, :]).ravel()
        codes, inverse = np.unique(combined, return_inverse=True)
        probs = np.bincount(inverse, weights=np.repeat(probs / len(orders), len(orders)))
    sums = (codes[:, None] // place[None, :]) % radix
    observed = int(np.sum(ranks.sum(axis=0) ** 2))
    return float(min(1.0, probs[(sums ** 2).sum(axis=1) >= observed].sum()))


def friedman(table: pd.DataFrame, ascending: bool = True) -> Friedman:
    """Friedman's test on the complete blocks (rows without NaN) of a blocks × methods ``table``."""
    import pandas as pd

    complete = table.dropna(how="any")
    if not len(complete):
        return friedman_from_ranks(pd.Series(np.nan, index=table.columns), 0)
    ranked = block_ranks(complete, ascending)
    return friedman_from_ranks(ranked.mean(axis=0), len(complete), ranked.to_numpy())


def nemenyi_too_few(k: int, n_blocks: int, alpha: float = 0.05) -> bool:
    """Whether N blocks are too few for Nemenyi's test to find any pair of k methods different: the
    largest possible rank difference, k − 1, is below the critical difference, i.e.
    N < q_α² k(k+1) / (6(k−1)²) (k = 2: N ≤ 3 at α = 0.05)."""
    return k >= 2 and n_blocks >= 1 and critical_difference(k, n_blocks, alpha) > k - 1


def nemenyi_q(k: int, alpha: float = 0.05) -> float:
    """q_α of the Nemenyi test: the studentized range quantile (1 − α; k, ∞) divided by √2."""
    return float(_scipy_stats().studentized_range.ppf(1.0 - alpha, k, np.inf) / np.sqrt(2.0))


def critical_difference(k: int, n_blocks: int, alpha: float = 0.05) -> float:
    """CD = q_α √(k(k+1)/(6N)): average ranks further apart than this differ at level α."""
    if k < 2 or n_blocks < 1:
        return np.nan
    return nemenyi_q(k, alpha) * float(np.sqrt(k * (k + 1) / (6.0 * n_blocks)))


def nemenyi_pvalues(average_ranks: pd.Series, n_blocks: int) -> pd.DataFrame:
    """Pairwise Nemenyi p-values (k × k, 1 on the diagonal) from average ranks over N blocks."""
    import pandas as pd

    k = len(average_ranks)
    r = average_ranks.to_numpy(dtype=float)
    scale = np.sqrt(k * (k + 1) / (6.0 * n_blocks))
    statistic = np.abs(r[:, None] - r[None, :]) * np.sqrt(2.0) / scale
    p = _scipy_stats().studentized_range.sf(statistic, k, np.inf)
    np.fill_diagonal(p, 1.0)
    return pd.DataFrame(np.clip(p, 0.0, 1.0), index=average_ranks.index, columns=average_ranks.index)


def with_all_group(datasets, groups: dict | None) -> dict[str, list[str]]:
    """The config's dataset groups, plus ``all`` (every dataset) unless the config defines it."""
    groups = dict(groups or {})
    groups.setdefault("all", sorted(datasets))
    return groups


def _blocks(part: pd.DataFrame, value: str, members) -> pd.DataFrame:
    """The datasets × stratifiers table of ``value`` for one comparison, restricted to ``members``."""
    table = part.pivot(index="dataset", columns="stratifier", values=value)
    return table.loc[table.index.isin(members)]


def compare(summary: pd.DataFrame, value: str, by: list[str], groups: dict, ascending: bool = True,
            alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Every comparison of the stratifiers in ``summary`` (one per ``by`` key × group):
    (average ranks, Friedman/Iman–Davenport/Nemenyi tests, pairwise Nemenyi p-values) as tidy tables.

    ``summary`` has columns ``dataset``, ``stratifier``, ``value`` and the ``by`` keys (e.g.
    classifier and measure). Datasets where any stratifier's value is NaN are left out.
    """
    import pandas as pd

    ranks, tests, pairs = [], [], []
    for key, part in summary.groupby(by, sort=True):
        key = dict(zip(by, key if isinstance(key, tuple) else (key,)))
        for group, members in groups.items():
            blocks = _blocks(part, value, members)
            dropped = ", ".join(map(str, blocks.index[blocks.isna().any(axis=1)]))  # left out of this comparison only
            blocks = blocks.dropna(how="any")
            if blocks.empty:
                continue
            result = friedman(blocks, ascending)
            N, k = result.n_blocks, result.n_methods
            for stratifier, rank in result.average_ranks.items():
                ranks.append({**key, "group": group, "stratifier": stratifier, "average_rank": float(rank),
                              "datasets": N})
            q = nemenyi_q(k, alpha) if k >= 2 else np.nan
            too_few = nemenyi_too_few(k, N, alpha)
            note = "; ".join(filter(None, [result.note, "Nemenyi: N too few for any pair to differ "
                                           "(CD > k − 1)" if too_few else "",
                                           f"left out (a method without a value): {dropped}" if dropped else ""]))
            tests.append({**key, "group": group, "datasets": N, "methods": k, "chi2": result.chi2,
                          "chi2_p": result.chi2_p, "iman_davenport_F": result.f, "F_df1": result.f_df[0],
                          "F_df2": result.f_df[1], "F_p": result.f_p, "exact_p": result.exact_p, "p": result.p,
                          "significant": bool(result.p < alpha), "alpha": alpha, "q_alpha": q,
                          "critical_difference": q * float(np.sqrt(k * (k + 1) / (6.0 * N))),
                          "nemenyi_too_few": too_few, "dropped": dropped, "note": note})
            if k >= 2:
                p = nemenyi_pvalues(result.average_ranks, N)
                names = list(result.average_ranks.index)
                for i, a in enumerate(names):
                    for b in names[i + 1:]:
                        pairs.append({**key, "group": group, "stratifier_a": a, "stratifier_b": b,
                                      "rank_difference": abs(float(result.average_ranks[a] - result.average_ranks[b])),
                                      "p_value": float(p.loc[a, b]), "significant": bool(p.loc[a, b] < alpha)})
    return (pd.DataFrame(ranks, columns=[*by, *RANK_COLUMNS]), pd.DataFrame(tests, columns=[*by, *TEST_COLUMNS]),
            pd.DataFrame(pairs, columns=[*by, *PAIR_COLUMNS]))


def average_ranks(summary: pd.DataFrame, value: str = "std", groups: dict | None = None, ascending: bool = True,
                  by: tuple[str, ...] = ("classifier", "measure")) -> pd.DataFrame:
    """Average rank of ``value`` per ``by`` key × group × stratifier (rank 1 = smallest if ``ascending``).

    Each dataset is a block; blocks where any stratifier's value is NaN are dropped for that
    comparison. ``groups`` maps a group name to its datasets (default one group ``all``).
    """

    groups = groups or {"all": sorted(summary["dataset"].unique())}
    return compare(summary, value, list(by), groups, ascending)[0]


def holm(p_values) -> np.ndarray:
    """Holm's step-down adjusted p-values (Demšar 2006 §3.2.2): the i-th smallest of m becomes
    max over j ≤ i of min(1, (m − j + 1)·p_(j)); reject where the adjusted p is below α.

    >>> holm([0.01, 0.04, 0.03]).round(2).tolist()
    [0.03, 0.06, 0.06]
    """
    p = np.asarray(p_values, dtype=float)
    order = np.argsort(p, kind="stable")
    m = len(p)
    adjusted = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    out = np.empty(m)
    out[order] = adjusted
    return out


def control_against_others(table: pd.DataFrame, control: str, others, alpha: float = 0.05) -> pd.DataFrame:
    """``control`` against each of ``others`` over the rows (datasets) of ``table`` (datasets × methods,
    lower is better): wins, losses and ties, the one-sided Wilcoxon signed-rank test that the control
    is lower (zero differences dropped; scipy's exact distribution for fewer than 50 non-zero
    differences without ties, else the normal approximation), and Holm's correction over ``others``.
    The paired test that Demšar (2006, §3.1.3) and Benavoli, Corani & Mangili (2016) recommend for one
    method against a few: it uses each dataset's difference, where Nemenyi's all-pairs critical
    difference only uses ranks."""
    import pandas as pd

    rows = []
    for other in others:
        pair = table[[control, other]].dropna()
        d = (pair[control] - pair[other]).to_numpy()
        wins, losses = int((d < 0).sum()), int((d > 0).sum())
        p = float(_scipy_stats().wilcoxon(d, alternative="less", zero_method="wilcox").pvalue) if wins + losses else 1.0
        rows.append(dict(other=other, datasets=len(d), wins=wins, losses=losses, ties=len(d) - wins - losses, p=p))
    out = pd.DataFrame(rows, columns=["other", "datasets", "wins", "losses", "ties", "p"])
    out["p_holm"] = holm(out["p"]) if len(out) else []
    out["significant"] = out["p_holm"] < alpha
    return out
