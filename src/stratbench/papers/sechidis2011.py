"""Sechidis, Tsoumakas & Vlahavas (ECML PKDD 2011), "On the Stratification of Multi-label Data": Table 1
(the datasets), Table 2 (fold quality), Tables 4–5 (CV estimates of BR and CLR, mean ± std over folds) and
the average ranks of the std. Criteria:

- Table 1: counts equal; ratios equal to the printed two decimals; averages within ±1 (the paper rounds them).
- Table 2 (one split in the paper): |ours − published| ≤ 2 × the std of ours over the repeats (ddof 1)
  plus half a unit of the published number's last printed digit; undetermined with one repeat.
- Tables 4–5: our mean lies within the published std of the published mean; NaN agrees with NaN only.
- Average ranks of the std: equal to the printed decimal (|difference| ≤ 0.05), judged only where the
  group holds the same datasets as the paper's (else undetermined).

Names as the paper prints them: ``labelset`` → ``labelsets``, ``tmc2007-500`` → ``tmc2007``, ``br`` → ``BR``.
Only stratifiers whose config key is a name below are compared (``iterative``, not
``iterative_mulan: {class: iterative, …}``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stratbench.measures.names import LOWER_IS_BETTER, MEASURE_LABELS
from stratbench.papers._paper import (
    Cause,
    Paper,
    StudyTables,
    draw_note,
    draws_file,
    in_paper_names,
    rows,
    within_our_draws,
    within_repeats,
)
from stratbench.tables.format import Cell, PaperTable, best, dataset_block_table, number, ordered, pivot

STRATIFIERS = {"random": "random", "labelset": "labelsets", "iterative": "iterative"}
DATASETS = {"tmc2007-500": "tmc2007"}
OURS = {**{v: k for k, v in STRATIFIERS.items()}, **{v: k for k, v in DATASETS.items()}}  # the paper's names → ours
DRAWS = draws_file("sechidis2011")  # benchmarks/one_draw_tails.py: our 1,000 seeded 10-fold splits of Table 2's cells
GROUPS = {"labelsets_per_example<=0.1": ["scene", "emotions", "tmc2007", "genbase", "yeast", "medical"],
          "labelsets_per_example>=0.39": ["bibtex", "enron", "corel5k", "imageclef2010", "delicious"]}


def compare_datasets(stats: pd.DataFrame, table1: pd.DataFrame, dataset_names: dict) -> pd.DataFrame:
    """Table 1: every column of every dataset both have."""
    ours = stats.assign(dataset=stats["dataset"].map(lambda d: dataset_names.get(d, d))).set_index("dataset")
    pub = table1.set_index("dataset")
    out = []
    for dataset in [d for d in ours.index if d in pub.index]:
        for column in [c for c in pub.columns if c in ours.columns]:
            a, b = float(ours.loc[dataset, column]), float(pub.loc[dataset, column])
            if column.endswith("_avg"):
                agrees, note = abs(a - b) <= 1.0 + 1e-9, "printed rounded: ±1"
            elif column == "labelsets_per_example":
                agrees, note = abs(a - b) <= 0.005 + 1e-9, "printed to 2 decimals"
            else:
                agrees, note = a == b, "equal"
            out.append(dict(dataset=dataset, measure=column, ours=a, published=b, agrees=agrees, note=note))
    return rows(table="Table 1", **pd.DataFrame(out, columns=["dataset", "measure", "ours", "published", "agrees", "note"]))


def compare_fold_quality(fold_quality: pd.DataFrame, table2: pd.DataFrame, n_splits: int, stratifier_names: dict,
                         dataset_names: dict, file_order: frozenset = frozenset()) -> pd.DataFrame:
    """Table 2: ED, LD, FZ, FLZ of the k-fold rows when the study uses the paper's k. ``file_order``: the
    paper's names of the stratifiers the study ran on the files' row order (IS without ``shuffle``); a cell of
    theirs that differs gets the cause ``rows-randomised`` (the paper's experiments shuffled the rows)."""
    pub = table2[(table2["protocol"] == f"{n_splits}-fold CV")]
    ours = in_paper_names(fold_quality, stratifier_names, dataset_names).set_index(["dataset", "stratifier", "measure"])
    out = []
    for _, row in pub.iterrows():
        for measure in ("ED", "LD", "FZ", "FLZ"):
            key = (row["dataset"], row["stratification"], measure)
            if key not in ours.index or pd.isna(row[measure]):
                continue
            a, b = float(ours.loc[key, "mean"]), float(row[measure])
            repeats = int(ours.loc[key, "repeats"]) if "repeats" in ours else 1
            s = float(ours.loc[key, "std"]) * np.sqrt(repeats / (repeats - 1)) if repeats > 1 else np.nan
            agrees, band = within_repeats(a, float(ours.loc[key, "std"]), repeats, row[measure])
            note = band if repeats < 2 else f"within 2 std of our {repeats} repeats"
            differs = agrees is not pd.NA and not agrees
            cause = "rows-randomised" if differs and key[1] in file_order else ""
            if differs and not cause:  # where our draws of the cell put the published one
                note += draw_note(DRAWS, OURS.get(key[0], key[0]), OURS.get(key[1], key[1]), measure)
            out.append(dict(dataset=key[0], stratifier=key[1], measure=measure, ours=a, ours_std=s, published=b,
                            agrees=agrees, note=note, cause=cause))
    return rows(table="Table 2", **pd.DataFrame(out, columns=["dataset", "stratifier", "measure", "ours", "ours_std",
                                                                "published", "agrees", "note", "cause"]))


CLASSIFIER_OFFSET = "the stratifiers agree once the offset common to them is taken out"


def _common_offsets(frame: pd.DataFrame) -> pd.DataFrame:
    """A cell outside the published std whose (classifier, dataset, measure) has every stratifier off
    in the same direction, and which lies within the published std once their mean offset is taken
    out: the classifiers differ (the paper's Weka forests through MULAN, ours scikit-learn's), not the
    splits. Such cells get the offset and ``CLASSIFIER_OFFSET`` in their note, and the cause
    ``classifier-offset`` in their ``cause`` column."""
    frame = frame.assign(cause="")
    difference = frame["ours"] - frame["published"]
    for _, part in frame.groupby(["classifier", "dataset", "measure"]):
        d = difference[part.index].dropna()
        if len(d) < 2 or not ((d > 0).all() or (d < 0).all()):
            continue
        offset = float(d.mean())
        for i in part.index:
            row = frame.loc[i]
            if not bool(row["agrees"]) and abs(row["ours"] - offset - row["published"]) <= row["published_std"] + 1e-12:
                frame.loc[i, "note"] = f"{row['note']}; offset common to the {len(d)} stratifiers {offset:+.4g}: {CLASSIFIER_OFFSET}"
                frame.loc[i, "cause"] = "classifier-offset"
    return frame


def compare_cv_estimates(summary: pd.DataFrame, tables4_5: pd.DataFrame, stratifier_names: dict,
                         dataset_names: dict) -> pd.DataFrame:
    """Tables 4 (BR) and 5 (CLR): our mean within the published mean ± published std (where outside,
    :func:`_common_offsets` says whether the offset is the classifier's)."""
    ours = in_paper_names(summary, stratifier_names, dataset_names).set_index(
        ["classifier", "dataset", "stratifier", "measure"])
    out = []
    for _, row in tables4_5.iterrows():
        key = (row["classifier"], row["dataset"], row["stratification"], row["measure"])
        if key not in ours.index:
            continue
        a, s = float(ours.loc[key, "mean"]), float(ours.loc[key, "std"])
        b, t = float(row["mean"]), float(row["std"])
        if np.isnan(b) or np.isnan(a):
            agrees, note = bool(np.isnan(a) and np.isnan(b)), "NaN in both" if np.isnan(a) and np.isnan(b) else "NaN in one"
        else:
            agrees, note = abs(a - b) <= t + 1e-12, "within the published std"
        out.append(dict(table=f"Table {row['table']} ({row['classifier']})", classifier=row["classifier"], dataset=key[1],
                        stratifier=key[2], measure=key[3], ours=a, ours_std=s, published=b, published_std=t,
                        agrees=agrees, note=note))
    frame = pd.DataFrame(out, columns=["table", "classifier", "dataset", "stratifier", "measure", "ours", "ours_std",
                                       "published", "published_std", "agrees", "note"])
    return rows(**_common_offsets(frame))


def _group_datasets(groups: dict, datasets_by_classifier: dict) -> dict:
    """(classifier, group) → the datasets a classifier's average ranks of that group are taken over."""
    return {(c, g): frozenset(members) & frozenset(datasets) for c, datasets in datasets_by_classifier.items()
            for g, members in groups.items()}


RANK_NOISE = "inside the bootstrap interval of ours"


def rank_intervals(scores: pd.DataFrame, groups: dict | None, draws: int = 1000, level: float = 0.95,
                   seed: int = 2011) -> pd.DataFrame:
    """Per classifier × group × measure × stratifier: the bootstrap interval (``low``, ``high``; the
    central ``level`` of ``draws`` resamples of the repeats, with replacement, seeded) of the average
    rank of the std. Each draw averages the per-repeat stds (over the k folds, ddof 0, as the study's)
    of its repeats, ranks them within each dataset (ties averaged, 1 = lowest) and averages the ranks
    over the group's datasets; a dataset where a stratifier has a NaN std is left out, as the study's
    ranks leave it out. This is how far an experiment of the study's size moves the rank."""
    keys = ["classifier", "measure", "dataset", "stratifier"]
    stds = (scores.groupby([*keys, "repeat"], sort=True)["value"]
            .agg(lambda x: float(np.std(x.to_numpy(dtype=float), ddof=0))).unstack("repeat"))
    repeats = stds.shape[1]
    rng = np.random.default_rng(seed)
    weights = np.stack([np.bincount(rng.integers(0, repeats, repeats), minlength=repeats) for _ in range(draws)])
    means = pd.DataFrame(stds.to_numpy() @ weights.T / repeats, index=stds.index)  # NaN where a repeat has one
    groups = groups or {"all": sorted(scores["dataset"].unique())}
    out = []
    for (classifier, measure), part in means.groupby(level=["classifier", "measure"], sort=True):
        ranked = {}
        for dataset, block in part.groupby(level="dataset", sort=True):
            if not block.isna().to_numpy().any():
                ranked[dataset] = (block.droplevel(["classifier", "measure", "dataset"]).rank(axis=0, method="average"))
        for group, members in groups.items():
            inside = [ranked[d] for d in members if d in ranked]
            if not inside:
                continue
            average = sum(inside) / len(inside)  # stratifiers × draws
            tail = (1 - level) / 2
            for stratifier, row in average.iterrows():
                out.append(dict(classifier=classifier, group=group, measure=measure, stratifier=stratifier,
                                low=float(np.quantile(row, tail)), high=float(np.quantile(row, 1 - tail)),
                                repeats=repeats))
    return pd.DataFrame(out, columns=["classifier", "group", "measure", "stratifier", "low", "high", "repeats"])


def compare_ranks(ranks: pd.DataFrame, published_ranks: pd.DataFrame, stratifier_names: dict,
                  ours_over: dict | None = None, paper_over: dict | None = None,
                  spread: pd.DataFrame | None = None) -> pd.DataFrame:
    """Average ranks of the std per classifier × group × measure: equal to the printed decimal, where
    our group holds the datasets the paper's did (``ours_over``, ``paper_over``: (classifier, group) →
    datasets, in the paper's names); else undetermined. ``spread`` (:func:`rank_intervals`): where a
    judged cell differs, its note gives our rank's bootstrap interval over the repeats and whether the
    published rank lies within it (±0.05; ``RANK_NOISE`` in the note and ``rank-noise`` in ``cause``)."""
    def paper_names(frame):
        frame = frame[frame["stratifier"].isin(stratifier_names)]
        frame = frame.assign(stratifier=frame["stratifier"].map(stratifier_names), classifier=frame["classifier"].str.upper())
        return frame.set_index(["classifier", "group", "measure", "stratifier"])  # ranks carry no dataset

    ours = paper_names(ranks)
    spread = paper_names(spread) if spread is not None and not spread.empty else None
    out = []
    for _, row in published_ranks.iterrows():
        key = (row["classifier"], row["group"], row["measure"], row["stratification"])
        if key not in ours.index:
            continue
        a, b = float(ours.loc[key, "average_rank"]), float(row["average_rank"])
        n = int(ours.loc[key, "datasets"])
        same = ours_over is None or paper_over is None or ours_over.get(key[:2]) == paper_over.get(key[:2])
        if same:
            agrees, note, cause = abs(a - b) <= 0.05 + 1e-9, f"printed to 1 decimal; N={n} here", ""
            if not agrees and spread is not None and key in spread.index:
                low, high, runs = (spread.loc[key, c] for c in ("low", "high", "repeats"))
                inside = low - 0.05 - 1e-9 <= b <= high + 0.05 + 1e-9
                note += (f"; 95% bootstrap interval of our {int(runs)} repeats {low:.2f}–{high:.2f}"
                         + (f": {RANK_NOISE}" if inside else ""))
                cause = "rank-noise" if inside else ""
        else:
            agrees, note, cause = pd.NA, f"undetermined: other datasets ({', '.join(sorted(ours_over.get(key[:2], [])))})", ""
        out.append(dict(classifier=key[0], group=key[1], measure=key[2], stratifier=key[3], ours=a, published=b,
                        agrees=agrees, cause=cause, note=note))
    frame = pd.DataFrame(out, columns=["classifier", "group", "measure", "stratifier", "ours", "published", "agrees", "cause",
                                       "note"])
    return rows(table="Average ranks of the std", **frame)


def _shuffles(study: StudyTables, stratifier: str) -> bool:
    """Whether the study's ``stratifier`` shuffled the rows before splitting (its config's ``shuffle``)."""
    return bool(((study.stratifier_specs.get(stratifier) or {}).get("params") or {}).get("shuffle"))


# --- the paper's tables as printed (the study's paper_tables) ------------------------------

TABLE1_COLUMNS = {"labels": "labels", "examples": "examples", "labelsets": "labelsets",
                  "labelsets_per_example": "labelsets/examples", "examples_per_labelset_min": "per labelset: min",
                  "examples_per_labelset_avg": "avg", "examples_per_labelset_max": "max",
                  "examples_per_label_min": "per label: min", "examples_per_label_avg": "avg",
                  "examples_per_label_max": "max"}


def sechidis_table1(statistics: pd.DataFrame) -> PaperTable:
    """Sechidis et al. 2011, Table 1: the datasets, ordered by labelsets per example as the paper orders
    them (averages rounded, the ratio to two decimals, as printed)."""
    stats = statistics.sort_values(["labelsets_per_example", "dataset"], kind="stable")
    columns = list(TABLE1_COLUMNS)
    table = PaperTable("sechidis2011_table1", "Datasets, with the columns of Sechidis et al. 2011, Table 1 "
                       "(examples per labelset and per label: min, average, max)", ["dataset"],
                       [TABLE1_COLUMNS[c] for c in columns], data=stats.reset_index(drop=True))

    def text(column, value):
        return f"{value:.2f}" if column == "labelsets_per_example" else f"{value:.0f}"

    table.blocks.append([((row["dataset"],), [Cell(text(c, row[c])) for c in columns]) for _, row in stats.iterrows()])
    return table


def sechidis_table2(fold_quality: pd.DataFrame, order=None) -> PaperTable | None:
    """Sechidis et al. 2011, Table 2: ED, LD, FZ, FLZ (mean over repeats), lowest per dataset bold."""
    return dataset_block_table(fold_quality, ["ED", "LD", "FZ", "FLZ"], "sechidis2011_table2",
                                "Fold quality as in Sechidis et al. 2011, Table 2 (mean over repeats; lower is better)",
                                order)


def cv_estimates_table(summary: pd.DataFrame, ranks: pd.DataFrame, classifier: str, order=None) -> PaperTable:
    """Sechidis et al. 2011, Tables 4–5 for one classifier: mean ± std over folds per dataset × measure,
    best mean bold, lowest std underlined; then the average rank of the std per group."""
    part = summary[summary["classifier"] == classifier]
    stratifiers = ordered(part["stratifier"], order)
    measures = [m for m in MEASURE_LABELS if m in set(part["measure"])]
    mean = pivot(part, ["dataset", "measure"], "stratifier", "mean").reindex(columns=stratifiers)
    std = pivot(part, ["dataset", "measure"], "stratifier", "std").reindex(columns=stratifiers)
    table = PaperTable(f"cv_estimates_{classifier}",
                       f"{classifier.upper()}: mean ± std over the folds (averaged over repeats), as in "
                       "Sechidis et al. 2011, Tables 4–5; best mean bold, lowest std underlined; below, the "
                       "average rank of the std (1 = lowest)",
                       ["dataset", "measure"], stratifiers,
                       data=part[["dataset", "stratifier", "measure", "mean", "std"]].reset_index(drop=True))
    for dataset in sorted(part["dataset"].unique()):
        block = []
        for measure in measures:
            if (dataset, measure) not in mean.index:
                continue
            m, s = mean.loc[(dataset, measure)].to_numpy(), std.loc[(dataset, measure)].to_numpy()
            bold, under = best(m, LOWER_IS_BETTER.get(measure, True)), best(s)
            block.append(((dataset, MEASURE_LABELS.get(measure, measure)),
                          [Cell("NaN" if np.isnan(a) else f"{a:.4f} ± {b:.4f}", bool(x), bool(u))
                           for a, b, x, u in zip(m, s, bold, under)]))
        table.blocks.append(block)
    r = ranks[ranks["classifier"] == classifier] if not ranks.empty else ranks
    for group, part in r.groupby("group", sort=False):
        wide = part.pivot(index="measure", columns="stratifier", values="average_rank").reindex(columns=stratifiers)
        n = part.groupby("measure")["datasets"].first()
        block = []
        for measure in [m for m in measures if m in wide.index]:
            values = wide.loc[measure].to_numpy()
            marks = best(values)
            block.append(((f"avg. rank of std, {group}", f"{MEASURE_LABELS.get(measure, measure)} (N={n[measure]})"),
                          [Cell(number(v, 2) if np.isfinite(v) else "–", bool(k)) for v, k in zip(values, marks)]))
        table.blocks.append(block)
    return table


class Sechidis2011(Paper):
    name = "sechidis2011"
    citation = ("K. Sechidis, G. Tsoumakas, I. Vlahavas. On the Stratification of Multi-label Data. "
                "ECML PKDD 2011, LNCS 6913, pp. 145–158.")
    tables = {"table1": ("sechidis2011_table1_datasets.csv", None),
              "table2": ("sechidis2011_table2_fold_statistics.csv", {m: str for m in ("ED", "LD", "FZ", "FLZ")}),
              "tables4_5": ("sechidis2011_tables4_5_cv_estimates.csv", None),
              "ranks": ("sechidis2011_average_ranks_of_std.csv", None)}
    criteria = {
          "Table 1": "counts equal, labelsets/examples to the printed 2 decimals, averages within ±1",
          "Table 2": "within 2 × our std over repeats plus half the published last digit",
          "Table 4": "our mean within the published mean ± std; NaN only with NaN",
          "Table 5": "our mean within the published mean ± std; NaN only with NaN",
          "Average ranks of the std": "equal to the printed decimal (±0.05) where the group has the paper's datasets",
    }
    needs = ("summary", "ranks", "scores")
    prints = ("sechidis2011_table1", "sechidis2011_table2")
    fold_quality_table = "sechidis2011_table2"
    prints_per_classifier = ("cv_estimates_{classifier}",)
    ruled_out = {
        ("Average ranks of the std", "", "labelsets"):
            "BR, the first dataset group, Hamming loss: published 1.2, ours 1.6, the 95% bootstrap interval of our "
            "5 repeats 1.4–2.4. The definition is the paper's (the published ranks are the ranks of the stds printed "
            "in Tables 4–5, 30 of 30 recomputable cells), so a different measure is ruled out; an average over five "
            "datasets moves by 0.2 when one dataset's order of the three stds changes, and the published 1.2 is "
            "one such step below our interval's lower end. Where the 0.4 comes from, in Table 4's stds: scene "
            "(+0.4), where our labelset std is the largest of the three (0.0064 against IS 0.0061, random "
            "0.0058) and the paper's the smallest (0.0059 against 0.0060, 0.0078), and medical (+0.2; ours 0.00132 "
            "against IS 0.00126; the paper's 0.0012 against 0.0014); genbase goes the other way (−0.2; ours "
            "smallest, the paper's second). In scene and medical our three stds lie within 13% of each other, while "
            "a std over 10 folds has a relative standard error near 1/√18 ≈ 24%, about 11% averaged over 5 "
            "repeats, so neither order is firm; random's published scene std (0.0078, ours 0.0058) is the one far "
            "apart. Not ruled out: Weka's forests (MULAN) giving steadier "
            "Hamming loss on the labelset folds than scikit-learn's.",
    }
    causes = (
        Cause("classifier-offset", None,
              "on a (dataset, measure) every stratifier's mean is off the published one in the same direction, and "
              "each lies within the published std once that common offset is taken out (the cell's note): the three "
              "splits compare as published, the classifier does not — the paper trained Weka's forests through "
              "MULAN (Java), we train scikit-learn's (docs/ALGORITHMS.md §6); e.g. BR on genbase, Hamming loss "
              "0.00094–0.0010 against 0.0024 for all three "
              "(tests/test_reproduction.py::test_an_offset_common_to_the_stratifiers_is_the_classifiers)"),
        Cause("rows-randomised", None,
              "the paper's IS ran on rows in random order: MULAN's cross-validation randomises the rows "
              "(Instances.randomize) before it splits (read in the code index), while MULAN's "
              "IterativeStratification deals a label's rows in data order, as our `iterative` does by default; "
              "config/sechidis2011.yaml sets `shuffle: true` (and this cause is named only for an IS run in the files' order); "
              "with the rows shuffled before each split our IS is closer to the published ED on 7 of the 8 "
              "datasets (sign test p = 0.035; mean distance 0.20 against 0.38, 20 seeds) and scene's cells agree (20 "
              "seeds: ED 2.52 ± 0.60, LD 0.00396 ± 0.00058 against 2.77 and 0.0043 printed; 1.98 ± 0.50 and "
              "0.00337 in file order). Ruled out before: label ties (MULAN takes the lowest index), fractional "
              "desired counts, the order of scene's two files "
              "(tests/test_published_protocols.py::test_rows_in_random_order_bring_is_closer_to_sechidis_table2)"),
        within_our_draws(DRAWS, ours=OURS),
        Cause("rank-noise", None,
              "the published ranks are the ranks of the stds printed in Tables 4–5 (30 of 30 recomputable cells; "
              "tests/test_reproduction.py::test_the_published_ranks_are_the_ranks_of_the_printed_stds), so the "
              "definition is the same; an average rank of 3 stds over 5 or 6 datasets moves with the draw of the folds: "
              "where the published rank lies within the 95% bootstrap interval of ours (the repeats resampled; the "
              "cell's note), an experiment of the paper's size gives it as readily as ours "
              "(tests/test_reproduction.py::test_rank_noise_is_judged_by_a_bootstrap_over_the_repeats)"),
    )

    def compare(self, study: StudyTables) -> pd.DataFrame:
        """Every comparable cell of Tables 1, 2, 4–5 and the ranks (4–5 and the ranks where the study has them)."""
        pub = self.published()
        names = {s: STRATIFIERS[s] for s in study.stratifiers if s in STRATIFIERS}
        parts = [compare_datasets(study.statistics, pub["table1"], DATASETS),
                 compare_fold_quality(study.fold_quality, pub["table2"], study.n_splits, names, DATASETS,
                                      frozenset(names[s] for s in names if s == "iterative" and not _shuffles(study, s)))]
        summary, ranks = study.summary, study.ranks
        if summary is not None and not summary.empty:
            parts.append(compare_cv_estimates(summary, pub["tables4_5"], names, DATASETS))
        if ranks is not None and not ranks.empty:
            ours_over = paper_over = None
            if study.groups is not None and summary is not None:
                def rename(datasets):
                    return [DATASETS.get(d, d) for d in datasets]

                by_classifier = {c.upper(): rename(part["dataset"].unique()) for c, part in summary.groupby("classifier")}
                ours_over = _group_datasets({g: rename(m) for g, m in study.groups.items()}, by_classifier)
                paper_datasets = {c: list(part["dataset"].unique()) for c, part in pub["tables4_5"].groupby("classifier")}
                paper_groups = {**GROUPS, "all": [d for m in GROUPS.values() for d in m]}
                paper_over = _group_datasets(paper_groups, paper_datasets)
            spread = rank_intervals(study.scores, study.groups) if study.scores is not None else None
            parts.append(compare_ranks(ranks, pub["ranks"], names, ours_over, paper_over, spread))
        parts = [p for p in parts if not p.empty]
        return pd.concat(parts, ignore_index=True) if parts else rows(table=[])

    def one_draw_cells(self) -> pd.DataFrame:
        """Table 2's printed cells: each is one 10-fold split of the paper (one draw), as dataset, our stratifier,
        measure and the printed digits."""
        table2 = self.published()["table2"]
        table2 = table2[table2["protocol"] == "10-fold CV"]
        return pd.DataFrame([dict(dataset=OURS.get(row["dataset"], row["dataset"]),
                                  stratifier=OURS.get(row["stratification"], row["stratification"]), measure=measure,
                                  printed=row[measure], runs=1)
                             for _, row in table2.iterrows() for measure in ("ED", "LD", "FZ", "FLZ")
                             if isinstance(row[measure], str)])

    def layouts(self, inputs: dict, order=None) -> list:
        """Tables 1 and 2 of the paper from a study's tables (``inputs``: statistics, fold_quality)."""
        return [sechidis_table1(inputs["statistics"]), sechidis_table2(inputs["fold_quality"], order)]

    def score_layouts(self, inputs: dict, order=None) -> list:
        """Tables 4–5 (one per classifier) from a study's score summary and ranks of the std."""
        summary, ranks = inputs.get("summary"), inputs.get("ranks")
        if summary is None or summary.empty:
            return []
        return [cv_estimates_table(summary, ranks if ranks is not None else pd.DataFrame(), c, order)
                for c in sorted(summary["classifier"].unique())]


PAPER = Sechidis2011()
