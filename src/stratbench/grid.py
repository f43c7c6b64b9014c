"""A fold-quality grid: every stratifier on every dataset over several k and seeds (``grid:`` in a
study config; ``config/stratbench2026.yaml``), and what it says a user should pick.

One job per (dataset, stratifier) runs all k × seeds splits (the label combinations of the dataset
are built once and shared by the pair measures of every split), so a grid of 17 datasets, 12
stratifiers, 3 values of k and 10 seeds is 204 jobs, not 12,240. A split's seed is the study's
(dataset, repeat) seed, the same for every stratifier and k.

Tables: mean and std over seeds per dataset × stratifier × k × measure; average ranks per k × measure
across datasets (rank 1 = lowest, ties averaged) with Friedman/Iman–Davenport and Nemenyi
(:func:`stratbench.stats.compare`); the recommendation (:func:`recommendation`) is drawn from them.
"""

from __future__ import annotations

import time
import warnings

import numpy as np
import pandas as pd

from stratbench import stratifiers
from stratbench.fold_quality import exact_size_floors, fold_quality
from stratbench.stats import compare
from stratbench.labels import label_combinations

GRID_COLUMNS = ["dataset", "stratifier", "k", "repeat", "measure", "value"]
RANKED = ["LD", "LPD", "FLZ", "FLPZ", "rLD", "DCP", "ED"]  # the fold measures ranked (lower is better)


def quality_grid(Y, name: str, spec: dict, ks: list[int], seeds: list[int]) -> pd.DataFrame:
    """Rows (k, repeat, measure, value) of every split of ``Y`` by stratifier ``name`` (config entry
    ``spec``) for each k and seed: every fold-quality measure, ``seconds``, the stratifier's wall
    time (after one warm-up call, so a compiled kernel's first-call compilation is not counted), and
    ``rLD floor`` and ``DCP floor``, the best any exact-size split can reach (the same for every split
    of a k: :func:`~stratbench.fold_quality.exact_size_floors`)."""
    comb = label_combinations(Y)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # labels rarer than k: expected in a grid
        for k in ks:
            floors = [(f"{m} floor", v) for m, v in exact_size_floors(Y, k).items()]
            for repeat, seed in enumerate(seeds):
                splitter = stratifiers.get(spec.get("class", name),
                                           **{**spec.get("params", {}), "n_splits": k, "random_state": seed})
                if repeat == 0 and Y.shape[0] >= 4 * k:
                    splitter.fold_ids(Y[: 4 * k])
                start = time.perf_counter()
                folds = splitter.fold_ids(Y)
                seconds = time.perf_counter() - start
                values = fold_quality(Y, folds, k, comb=comb)
                rows += [(k, repeat, m, float(v)) for m, v in [*values.items(), *floors, ("seconds", seconds)]]
    return pd.DataFrame(rows, columns=["k", "repeat", "measure", "value"])


def summarise(grid: pd.DataFrame) -> pd.DataFrame:
    """Mean and std (ddof 0) over seeds per dataset × stratifier × k × measure."""
    return (grid.groupby(["dataset", "stratifier", "k", "measure"], sort=True)["value"]
            .agg(mean="mean", std=lambda v: float(np.std(v, ddof=0)), repeats="size").reset_index())


def rank_table(ranks: pd.DataFrame, k: int, order: list[str] | None = None) -> pd.DataFrame:
    """Stratifiers × measures (average rank over the datasets at ``k``), with the mean over the
    ranked measures; sorted by that mean."""
    part = ranks[(ranks["k"] == k) & (ranks["group"] == "all") & ranks["measure"].isin(RANKED)]
    table = part.pivot(index="stratifier", columns="measure", values="average_rank")
    table = table[[m for m in RANKED if m in table.columns]]
    table["mean rank"] = table.mean(axis=1)
    table = table.sort_values("mean rank", kind="stable")
    return table if order is None else table.reindex([s for s in order if s in table.index])


def rank_markdown(ranks: pd.DataFrame, tests: pd.DataFrame) -> str:
    """The average-rank table of every k, the best of each column in bold, with N and the CD."""
    parts = []
    for k in sorted(ranks["k"].unique()):
        table = rank_table(ranks, k)
        shown = table.apply(lambda col: [f"**{v:.2f}**" if np.isclose(v, col.min()) else f"{v:.2f}" for v in col])
        t = tests[(tests["k"] == k) & (tests["group"] == "all") & tests["measure"].isin(RANKED)]
        n = int(t["datasets"].max()) if len(t) else 0
        cd = float(t["critical_difference"].max()) if len(t) else float("nan")
        parts.append(f"### k = {k}: average rank over {n} datasets (1 = best; Nemenyi CD at α = 0.05: {cd:.2f})\n\n"
                     + shown.reset_index().to_markdown(index=False))
    return "\n\n".join(parts) + "\n"


def _runtime(summary: pd.DataFrame, k: int) -> pd.DataFrame:
    """Mean seconds per dataset × stratifier at k."""
    part = summary[(summary["measure"] == "seconds") & (summary["k"] == k)]
    return part.pivot(index="dataset", columns="stratifier", values="mean")


def recommendation(summary: pd.DataFrame, ranks: pd.DataFrame, tests: pd.DataFrame, pairs: pd.DataFrame,
                   statistics: pd.DataFrame, study: str, baselines: list[str] = (), alpha: float = 0.05,
                   synthetic: list[str] = ()) -> str:
    """"Which stratifier should I use", every sentence filled in from the grid's numbers (with
    ``baselines``, also the best stratifier against them alone: :func:`against_baselines`)."""
    ks = sorted(summary["k"].unique())
    n_datasets = summary["dataset"].nunique()
    methods = sorted(summary["stratifier"].unique())
    seeds = int(summary["repeats"].max())
    overall = pd.concat([rank_table(ranks, k)["mean rank"].rename(k) for k in ks], axis=1)
    overall["all k"] = overall.mean(axis=1)
    overall = overall.sort_values("all k", kind="stable")
    best = overall.index[0]
    lines = [f"# Which stratifier should I use? ({study})", "",
             f"Drawn from the fold-quality grid of this study: {n_datasets} datasets, {len(methods)} stratifiers, "
             f"k ∈ {{{', '.join(map(str, ks))}}}, {seeds} seeds each; measures {', '.join(RANKED)} (lower is better), "
             "ranked per dataset, averaged over the datasets (Demšar 2006).", "",
             "## Overall", "",
             f"**{best}** has the best mean rank over the {len(RANKED)} measures at every k "
             if all(rank_table(ranks, k).index[0] == best for k in ks) else
             f"**{best}** has the best mean rank over the {len(RANKED)} measures averaged over k ",
             ""]
    lines[-2] += f"({', '.join(f'k = {k}: {overall.loc[best, k]:.2f}' for k in ks)}); next: " + ", ".join(
        f"{m} ({overall.loc[m, 'all k']:.2f})" for m in overall.index[1:4]) + "."
    lines += ["", "| stratifier | " + " | ".join(f"mean rank, k = {k}" for k in ks) + " | all k |",
              "|---|" + "---|" * (len(ks) + 1)]
    lines += [f"| {m} | " + " | ".join(f"{overall.loc[m, k]:.2f}" for k in ks) + f" | {overall.loc[m, 'all k']:.2f} |"
              for m in overall.index]
    lines += ["", "## Per measure", "",
              "The best stratifier per measure and k, and those not significantly different from it (Nemenyi, α = 0.05):", ""]
    lines += ["| measure | " + " | ".join(f"k = {k}" for k in ks) + " |", "|---|" + "---|" * len(ks)]
    for m in RANKED:
        cells = []
        for k in ks:
            r = ranks[(ranks["k"] == k) & (ranks["group"] == "all") & (ranks["measure"] == m)]
            if r.empty:
                cells.append("–")
                continue
            tops = sorted(r.loc[np.isclose(r["average_rank"], r["average_rank"].min()), "stratifier"])
            p = pairs[(pairs["k"] == k) & (pairs["group"] == "all") & (pairs["measure"] == m)]
            close = sorted((set(p.loc[p["stratifier_a"].isin(tops) & ~p["significant"], "stratifier_b"])
                            | set(p.loc[p["stratifier_b"].isin(tops) & ~p["significant"], "stratifier_a"])) - set(tops))
            cells.append(" = ".join(f"**{t}**" for t in tops) + (f" (≈ {', '.join(close)})" if close else ""))
        lines.append(f"| {m} | " + " | ".join(cells) + " |")
    lines += ["", f"## {best} against the others", ""]
    for k in ks:
        p = pairs[(pairs["k"] == k) & (pairs["group"] == "all") & pairs["measure"].isin(RANKED)]
        mine = p[(p["stratifier_a"] == best) | (p["stratifier_b"] == best)]
        r = ranks[(ranks["k"] == k) & (ranks["group"] == "all")].set_index(["measure", "stratifier"])["average_rank"]
        better = {}
        for _, row in mine[mine["significant"]].iterrows():
            other = row["stratifier_b"] if row["stratifier_a"] == best else row["stratifier_a"]
            if r[(row["measure"], best)] < r[(row["measure"], other)]:
                better.setdefault(other, []).append(row["measure"])
        worse = [o for o in methods if o != best and o not in better]
        lines.append(f"- k = {k}: significantly better than " + (
            "; ".join(f"{o} on {', '.join(ms)}" for o, ms in sorted(better.items())) or "none")
            + (f"; not significantly better than {', '.join(worse)} on any measure." if worse else "."))
    baselines = [b for b in baselines if b in methods and b != best]
    if baselines:
        lines += against_baselines(summary, best, baselines, alpha, synthetic)
    k_top = max(ks)
    runtime = _runtime(summary, k_top)
    largest = statistics.sort_values("examples").iloc[-1]["dataset"] if len(statistics) else runtime.index[-1]
    if largest in runtime.index:
        row = runtime.loc[largest].sort_values()
        lines += ["", "## Runtime", "",
                  f"Mean seconds per split of the largest dataset, {largest} (k = {k_top}): "
                  + ", ".join(f"{m} {row[m]:.3g} s" for m in row.index) + "."]
        sizes = runtime.rank(axis=1).mean().sort_values()
        lines.append("Fastest on average over the datasets (mean rank of the wall time): "
                     + ", ".join(f"{m} ({v:.1f})" for m, v in sizes.items()) + ".")
    groups = ranks[(ranks["group"] != "all") & ranks["measure"].isin(RANKED)]
    if not groups.empty:
        lines += ["", "## By kind of dataset", ""]
        for group, part in groups.groupby("group", sort=False):
            mean = part.groupby("stratifier")["average_rank"].mean().sort_values()
            lines.append(f"- {group} ({int(part['datasets'].max())} datasets): best mean rank {mean.index[0]} "
                         f"({mean.iloc[0]:.2f}), then {mean.index[1]} ({mean.iloc[1]:.2f}).")
    fast = _fast_choice(overall, runtime, largest, tests, k_top)
    lines += ["", "## In short", "",
              f"- Use **{best}** by default: the best mean rank over the fold measures in this benchmark."]
    if fast and fast != best:
        lines.append(f"- Where splitting time matters on large data, **{fast}** is the fastest of the stratifiers "
                     f"within the critical difference of {best}'s mean rank at k = {k_top}.")
    lines.append(f"- Plain random k-fold ranks {list(overall.index).index('random') + 1} of {len(overall)}."
                 if "random" in overall.index else "")
    return "\n".join(line for line in lines if line is not None) + "\n"


def against_baselines(summary: pd.DataFrame, best: str, baselines: list[str], alpha: float = 0.05,
                      synthetic: list[str] = (), measures=("LD", "rLD", "DCP"), tolerance: float = 0.05) -> list[str]:
    """Markdown lines: ``best`` against ``baselines`` alone, (1) Friedman/Nemenyi among these
    methods only, per k and measure (fewer methods, a smaller critical difference than the whole
    grid's), and (2) every (real dataset, k) where ``best``'s mean of one of ``measures`` is more than
    ``tolerance`` above the lowest of the baselines' means."""
    members = [best, *baselines]
    part = summary[summary["stratifier"].isin(members) & summary["measure"].isin(RANKED)]
    datasets = sorted(part["dataset"].unique())
    ranks, tests, pairs = compare(part, "mean", ["k", "measure"], {"all": datasets}, ascending=True, alpha=alpha)
    lines = ["", f"## {best} against {', '.join(baselines)} alone", "",
             f"Friedman and Nemenyi (α = {alpha}) among these {len(members)} stratifiers only, over the "
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
            won = [m for m in RANKED if m in set(mine["measure"]) and r[(m, best)] < r[(m, b)]]
            cells.append(", ".join(won) or "–")
        cd = float(tests.loc[tests["k"] == k, "critical_difference"].max())
        lines.append(f"| {k} | {cd:.2f} | " + " | ".join(cells) + " |")
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

    lines += ["", f"Where {best}'s mean {', '.join(measures)} is more than {tolerance:.0%} above the best of "
              f"{', '.join(baselines)} on a real dataset: "
              + ("; ".join(f"{d}, k = {k}, {m}: {table.loc[(d, k, m), best]:.4g} against "
                           f"{table.loc[(d, k, m), baselines].idxmin()}'s {lowest[(d, k, m)]:.4g} (+{g:.0%}"
                           f"{floor_of((d, k, m))})" for (d, k, m), g in above.items()) if len(above) else "nowhere")
              + ". The exact-size floor is the lowest value any split with exact fold sizes can reach; below it, "
              "a method has made some folds larger than others."]
    return lines


def _fast_choice(overall: pd.DataFrame, runtime: pd.DataFrame, largest: str, tests: pd.DataFrame, k: int) -> str | None:
    """The fastest stratifier (on the largest dataset) whose mean rank is within the Nemenyi CD of the best's."""
    t = tests[(tests["k"] == k) & (tests["group"] == "all")]
    if t.empty or largest not in runtime.index:
        return None
    cd = float(t["critical_difference"].max())
    close = overall.index[overall[k] <= overall[k].min() + cd]
    return runtime.loc[largest, [m for m in close if m in runtime.columns]].idxmin()
