""""Which stratifier should I use": the grid's recommendation, every sentence filled in from its
numbers. One function per section, each returning its Markdown lines; :func:`recommendation` joins them."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from stratbench.grid.ranks import rank_table
from stratbench.measures.names import GRID_MEASURES
from stratbench.stats import POST_HOC_NAMES, compare, control_against_others


@dataclass
class Grid:
    """The grid's tables, as the recommendation reads them (``overall``: the mean rank over the ranked
    measures per k and over every k, sorted; ``best``: its first stratifier)."""

    summary: pd.DataFrame
    ranks: pd.DataFrame
    tests: pd.DataFrame
    pairs: pd.DataFrame
    statistics: pd.DataFrame

    def __post_init__(self):
        self.ks = sorted(self.summary["k"].unique())
        self.methods = sorted(self.summary["stratifier"].unique())
        overall = pd.concat([rank_table(self.ranks, k)["mean rank"].rename(k) for k in self.ks], axis=1)
        overall["all k"] = overall.mean(axis=1)
        self.overall = overall.sort_values("all k", kind="stable")
        self.best = self.overall.index[0]
        self.k_top = max(self.ks)

    def at(self, table: pd.DataFrame, k, everything: bool = False) -> pd.DataFrame:
        """Rows of ``table`` at ``k`` for the group of every dataset (and the ranked measures only)."""
        part = table[(table["k"] == k) & (table["group"] == "all")]
        return part if everything else part[part["measure"].isin(GRID_MEASURES)]

    def runtime(self) -> pd.DataFrame:
        """Mean seconds per dataset × stratifier at the largest k."""
        part = self.summary[(self.summary["measure"] == "seconds") & (self.summary["k"] == self.k_top)]
        return part.pivot(index="dataset", columns="stratifier", values="mean")

    def largest(self) -> str:
        """The dataset with the most examples."""
        if len(self.statistics):
            return self.statistics.sort_values("examples").iloc[-1]["dataset"]
        return self.runtime().index[-1]


def overall_section(g: Grid, study: str) -> list[str]:
    ks, best, overall = g.ks, g.best, g.overall
    seeds = int(g.summary["repeats"].max())
    everywhere = all(rank_table(g.ranks, k).index[0] == best for k in ks)
    lead = (f"**{best}** has the best mean rank over the {len(GRID_MEASURES)} measures "
            + ("at every k " if everywhere else "averaged over k ")
            + f"({', '.join(f'k = {k}: {overall.loc[best, k]:.2f}' for k in ks)}); next: "
            + ", ".join(f"{m} ({overall.loc[m, 'all k']:.2f})" for m in overall.index[1:4]) + ".")
    lines = [f"# Which stratifier should I use? ({study})", "",
             f"Drawn from the fold-quality grid of this study: {g.summary['dataset'].nunique()} datasets, "
             f"{len(g.methods)} stratifiers, k ∈ {{{', '.join(map(str, ks))}}}, {seeds} seeds each; measures "
             f"{', '.join(GRID_MEASURES)} (lower is better), ranked per dataset, averaged over the datasets "
             "(Demšar 2006).", "", "## Overall", "", lead, "", "",
             "| stratifier | " + " | ".join(f"mean rank, k = {k}" for k in ks) + " | all k |",
             "|---|" + "---|" * (len(ks) + 1)]
    return lines + [f"| {m} | " + " | ".join(f"{overall.loc[m, k]:.2f}" for k in ks) + f" | {overall.loc[m, 'all k']:.2f} |"
                    for m in overall.index]


def per_measure_section(g: Grid) -> list[str]:
    lines = ["", "## Per measure", "",
             "The best stratifier per measure and k, and those not significantly different from it (Nemenyi, α = 0.05):", "",
             "| measure | " + " | ".join(f"k = {k}" for k in g.ks) + " |", "|---|" + "---|" * len(g.ks)]
    for m in GRID_MEASURES:
        cells = []
        for k in g.ks:
            r = g.at(g.ranks, k, everything=True)
            r = r[r["measure"] == m]
            if r.empty:
                cells.append("–")
                continue
            tops = sorted(r.loc[np.isclose(r["average_rank"], r["average_rank"].min()), "stratifier"])
            p = g.at(g.pairs, k, everything=True)
            p = p[p["measure"] == m]
            close = sorted((set(p.loc[p["stratifier_a"].isin(tops) & ~p["significant"], "stratifier_b"])
                            | set(p.loc[p["stratifier_b"].isin(tops) & ~p["significant"], "stratifier_a"])) - set(tops))
            cells.append(" = ".join(f"**{t}**" for t in tops) + (f" (≈ {', '.join(close)})" if close else ""))
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    return lines


def best_against_others_section(g: Grid) -> list[str]:
    best, lines = g.best, ["", f"## {g.best} against the others", ""]
    for k in g.ks:
        p = g.at(g.pairs, k)
        mine = p[(p["stratifier_a"] == best) | (p["stratifier_b"] == best)]
        r = g.at(g.ranks, k, everything=True).set_index(["measure", "stratifier"])["average_rank"]
        better = {}
        for _, row in mine[mine["significant"]].iterrows():
            other = row["stratifier_b"] if row["stratifier_a"] == best else row["stratifier_a"]
            if r[(row["measure"], best)] < r[(row["measure"], other)]:
                better.setdefault(other, []).append(row["measure"])
        worse = [o for o in g.methods if o != best and o not in better]
        lines.append(f"- k = {k}: significantly better than " + (
            "; ".join(f"{o} on {', '.join(ms)}" for o, ms in sorted(better.items())) or "none")
            + (f"; not significantly better than {', '.join(worse)} on any measure." if worse else "."))
    return lines


def runtime_section(g: Grid) -> list[str]:
    runtime, largest = g.runtime(), g.largest()
    if largest not in runtime.index:
        return []
    row = runtime.loc[largest].sort_values()
    sizes = runtime.rank(axis=1).mean().sort_values()
    return ["", "## Runtime", "",
            f"Mean seconds per split of the largest dataset, {largest} (k = {g.k_top}): "
            + ", ".join(f"{m} {row[m]:.3g} s" for m in row.index) + ".",
            "Fastest on average over the datasets (mean rank of the wall time): "
            + ", ".join(f"{m} ({v:.1f})" for m, v in sizes.items()) + "."]


def dataset_kinds_section(g: Grid) -> list[str]:
    groups = g.ranks[(g.ranks["group"] != "all") & g.ranks["measure"].isin(GRID_MEASURES)]
    if groups.empty:
        return []
    lines = ["", "## By kind of dataset", ""]
    for group, part in groups.groupby("group", sort=False):
        mean = part.groupby("stratifier")["average_rank"].mean().sort_values()
        lines.append(f"- {group} ({int(part['datasets'].max())} datasets): best mean rank {mean.index[0]} "
                     f"({mean.iloc[0]:.2f}), then {mean.index[1]} ({mean.iloc[1]:.2f}).")
    return lines


def in_short_section(g: Grid) -> list[str]:
    best, overall = g.best, g.overall
    fast = fast_choice(g)
    lines = ["", "## In short", "",
             f"- Use **{best}** by default: the best mean rank over the fold measures in this benchmark."]
    if fast and fast != best:
        lines.append(f"- Where splitting time matters on large data, **{fast}** is the fastest of the stratifiers "
                     f"within the critical difference of {best}'s mean rank at k = {g.k_top}.")
    lines.append(f"- Plain random k-fold ranks {list(overall.index).index('random') + 1} of {len(overall)}."
                 if "random" in overall.index else "")
    return lines


def fast_choice(g: Grid) -> str | None:
    """The fastest stratifier (on the largest dataset) whose mean rank is within the Nemenyi CD of the best's."""
    t = g.tests[(g.tests["k"] == g.k_top) & (g.tests["group"] == "all")]
    runtime, largest = g.runtime(), g.largest()
    if t.empty or largest not in runtime.index:
        return None
    cd = float(t["critical_difference"].max())
    close = g.overall.index[g.overall[g.k_top] <= g.overall[g.k_top].min() + cd]
    return runtime.loc[largest, [m for m in close if m in runtime.columns]].idxmin()


def recommendation(summary: pd.DataFrame, ranks: pd.DataFrame, tests: pd.DataFrame, pairs: pd.DataFrame,
                   statistics: pd.DataFrame, study: str, baselines: list[str] = (), alpha: float = 0.05,
                   synthetic: list[str] = (), gaps: pd.DataFrame | None = None, grouped: list[str] = ()) -> str:
    """The recommendation in Markdown: overall ranks, the best per measure, the best against the others,
    (with ``baselines``) the best against them alone (:func:`against_baselines`), (with ``gaps``, the
    optimality gap table) how far each is from the best split possible, runtime, dataset groups, and a
    summary; ``grouped``: the datasets split by groups (said at the top)."""
    g = Grid(summary, ranks, tests, pairs, statistics)
    lines = overall_section(g, study)
    if len(grouped):
        lines[2:2] = ["", f"Grouped data: {len(grouped)} of the {summary['dataset'].nunique()} datasets are split by "
                      f"whole groups ({', '.join(grouped)}); every split was checked to keep each group in one fold."]
    lines += per_measure_section(g) + best_against_others_section(g)
    baselines = [b for b in baselines if b in g.methods and b != g.best]
    if baselines:
        lines += against_baselines(summary, g.best, baselines, alpha, synthetic)
    if gaps is not None and len(gaps):
        lines += optimality_section(gaps, g.best)
    lines += runtime_section(g) + dataset_kinds_section(g) + in_short_section(g)
    return "\n".join(lines) + "\n"


def optimality_section(gaps: pd.DataFrame, best: str, tolerance: float = 0.05) -> list[str]:
    """How far each stratifier's LD is from the best split possible (the optimality gap table,
    :func:`stratbench.grid.optimum.gap_table`): per k, the median gap over the datasets, the datasets
    where ``best`` is within ``tolerance``, and the closest method."""
    ld = gaps[gaps["objective"] == "LD"]
    if ld.empty:
        return []
    closed = ld.groupby(["dataset", "k"])["closed"].first()
    lines = ["", "## How far from the best split possible", "",
             f"CP-SAT's best split with exact fold sizes (`stratbench.grid.optimum`) on {ld['dataset'].nunique()} small "
             f"datasets: proven optimal on {int(closed.sum())} of {len(closed)} (dataset, k); elsewhere the gap is to its "
             "proven lower bound, so at most that. Median LD gap over the datasets (mean over the seeds):", "",
             "| k | " + " | ".join(sorted(ld["stratifier"].unique())) + " |",
             "|---|" + "---|" * ld["stratifier"].nunique()]
    for k, part in ld.groupby("k", sort=True):
        median = part.groupby("stratifier")["gap"].median()
        lines.append(f"| {k} | " + " | ".join(f"{100 * median[m]:.1f}%" for m in sorted(median.index)) + " |")
    mine = ld[ld["stratifier"] == best]
    within = mine[mine["gap"] <= tolerance]
    closest = ld.groupby("stratifier")["gap"].median().idxmin()
    lines += ["", f"{best} is within {tolerance:.0%} of the optimum (or bound) on {len(within)} of {len(mine)} "
              f"(dataset, k); largest gap {100 * mine['gap'].max():.1f}% ({mine.loc[mine['gap'].idxmax(), 'dataset']}, "
              f"k = {int(mine.loc[mine['gap'].idxmax(), 'k'])}). Closest to the optimum on median: {closest}."]
    flz = gaps[(gaps["objective"] == "FLZ") & (gaps["stratifier"] == best)]
    if len(flz):
        lines.append(f"FLZ: {best} leaves {flz['gap'].mean():.2f} empty (fold, label) cells above the fewest possible "
                     f"on average (at the fewest on {int((flz['gap'] <= 1e-9).sum())} of {len(flz)}).")
    return lines


def against_baselines(summary: pd.DataFrame, best: str, baselines: list[str], alpha: float = 0.05,
                      synthetic: list[str] = (), measures=("LD", "rLD", "DCP"), tolerance: float = 0.05) -> list[str]:
    """Markdown lines: ``best`` against ``baselines`` alone, (1) Friedman/Nemenyi among these
    methods only, per k and measure (fewer methods, a smaller critical difference than the whole
    grid's), and (2) every (real dataset, k) where ``best``'s mean of one of ``measures`` is more than
    ``tolerance`` above the lowest of the baselines' means."""
    members = [best, *baselines]
    part = summary[summary["stratifier"].isin(members) & summary["measure"].isin(GRID_MEASURES)]
    datasets = sorted(part["dataset"].unique())
    ranks, tests, pairs = compare(part, "mean", ["k", "measure"], {"all": datasets}, ascending=True, alpha=alpha)
    lines = ["", f"## {best} against {', '.join(baselines)} alone", "",
             f"Friedman and the {POST_HOC_NAMES['nemenyi']} (α = {alpha}) among these {len(members)} stratifiers "
             f"only, over the "
             f"{len(datasets)} datasets; a measure is named where {best}'s average rank is significantly lower.", "",
             "| k | critical difference | " + " | ".join(f"better than {b} on" for b in baselines) + " |",
             "|---|---|" + "---|" * len(baselines)]
    for k in sorted(part["k"].unique()):
        r = ranks[ranks["k"] == k].set_index(["measure", "stratifier"])["average_rank"]
        p = pairs[(pairs["k"] == k) & pairs["significant"]]
        cells = []
        for b in baselines:
            mine = p[((p["stratifier_a"] == best) & (p["stratifier_b"] == b))
                     | ((p["stratifier_a"] == b) & (p["stratifier_b"] == best))]
            won = [m for m in GRID_MEASURES if m in set(mine["measure"]) and r[(m, best)] < r[(m, b)]]
            cells.append(", ".join(won) or "–")
        cd = float(tests.loc[tests["k"] == k, "critical_difference"].max())
        lines.append(f"| {k} | {cd:.2f} | " + " | ".join(cells) + " |")
    lines += wilcoxon_lines(part, best, baselines, alpha)
    return lines + [""] + [gaps_line(summary, best, baselines, members, synthetic, measures, tolerance)]


def wilcoxon_lines(part: pd.DataFrame, best: str, baselines: list[str], alpha: float = 0.05) -> list[str]:
    """Markdown lines: ``best`` against each baseline per k and measure by the one-sided Wilcoxon
    signed-rank test over the datasets' means, Holm-corrected over the baselines
    (:func:`stratbench.stats.control_against_others`); a cell gives the datasets where ``best`` is lower,
    higher and equal, and the adjusted p (bold where below α)."""
    lines = ["", f"Paired over the datasets ({POST_HOC_NAMES['wilcoxon_holm']} over the {len(baselines)} baselines "
             f"per k and measure, that {best}'s mean is lower; Demšar 2006 §3.1.3): lower/higher/equal on the "
             f"datasets, adjusted p (bold: below α = {alpha}).", "",
             "| k | measure | " + " | ".join(baselines) + " |", "|---|---|" + "---|" * len(baselines)]
    for k, measure in [(k, m) for k in sorted(part["k"].unique()) for m in GRID_MEASURES]:
        table = part[(part["k"] == k) & (part["measure"] == measure)].pivot(index="dataset", columns="stratifier",
                                                                             values="mean")
        if best not in table:
            continue
        result = control_against_others(table, best, [b for b in baselines if b in table], alpha).set_index("other")
        cells = [f"{r.wins}/{r.losses}/{r.ties}, " + (f"**{r.p_holm:.2g}**" if r.significant else f"{r.p_holm:.2g}")
                 for r in result.itertuples()]
        lines.append(f"| {k} | {measure} | " + " | ".join(cells) + " |")
    return lines


def gaps_line(summary, best, baselines, members, synthetic, measures, tolerance) -> str:
    """Every (real dataset, k, measure) where ``best``'s mean is more than ``tolerance`` above the lowest
    of the baselines', beside the exact-size floor."""
    real = summary[summary["stratifier"].isin(members) & ~summary["dataset"].isin(synthetic)]
    table = real[real["measure"].isin(measures)].pivot_table(index=["dataset", "k", "measure"], columns="stratifier",
                                                              values="mean")
    bound = real[real["measure"].str.endswith(" floor")].assign(measure=lambda t: t["measure"].str[:-6])
    bound = bound.groupby(["dataset", "k", "measure"])["mean"].first()
    lowest = table[baselines].min(axis=1)
    gap = table[best] / lowest - 1
    above = gap[(gap > tolerance) & (lowest > 0)].sort_index()

    def floor_of(key):
        return f"; exact-size floor {bound[key]:.4g}" if key in bound.index else ""

    return (f"Where {best}'s mean {', '.join(measures)} is more than {tolerance:.0%} above the best of "
            f"{', '.join(baselines)} on a real dataset: "
            + ("; ".join(f"{d}, k = {k}, {m}: {table.loc[(d, k, m), best]:.4g} against "
                         f"{table.loc[(d, k, m), baselines].idxmin()}'s {lowest[(d, k, m)]:.4g} (+{g:.0%}"
                         f"{floor_of((d, k, m))})" for (d, k, m), g in above.items()) if len(above) else "nowhere")
            + ". The exact-size floor is the lowest value any split with exact fold sizes can reach; below it, "
            "a method has made some folds larger than others.")
