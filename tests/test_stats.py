"""Ranks, Friedman and Nemenyi (docs/ALGORITHMS.md §9) against Demšar 2006's worked example, his table of
q_α, scipy, scikit-posthocs, and the published average ranks of Sechidis et al. 2011."""
import numpy as np
import pandas as pd
import pytest
from scipy.stats import friedmanchisquare

from stratbench.figures import nemenyi_groups
from stratbench.papers.reproduction import published
from stratbench.stats import (
    average_ranks,
    compare,
    control_against_others,
    critical_difference,
    friedman,
    friedman_from_ranks,
    holm,
    nemenyi_pvalues,
    nemenyi_q,
    with_all_group,
)


def test_demsar_worked_example():
    """Demšar 2006 §3.2.4: four classifiers on 14 datasets with average ranks 3.143, 2.000, 2.893,
    1.964 give χ²_F = 9.28, F_F = 3.69 (F with 3 and 39 df) and, at α = 0.05, CD = 1.25."""
    r = friedman_from_ranks(pd.Series([3.143, 2.000, 2.893, 1.964], index=list("abcd")), 14)
    assert r.chi2 == pytest.approx(9.28, abs=0.005)
    assert r.f == pytest.approx(3.69, abs=0.005)
    assert r.f_df == (3, 39)
    assert r.f_p < 0.05  # the critical value of F(3, 39) at α = 0.05 is 2.85 < 3.69
    assert critical_difference(4, 14, 0.05) == pytest.approx(1.25, abs=0.005)
    assert critical_difference(4, 14, 0.10) == pytest.approx(2.291 * np.sqrt(20 / 84), abs=1e-3)


@pytest.mark.parametrize("alpha, row", [
    (0.05, [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164]),
    (0.10, [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920]),
])
def test_nemenyi_q_matches_demsar_table5(alpha, row):
    for k, expected in zip(range(2, 11), row):
        assert nemenyi_q(k, alpha) == pytest.approx(expected, abs=1e-3)  # Demšar prints 3 decimals


def test_friedman_equals_scipy_without_ties():
    rng = np.random.default_rng(3)
    table = pd.DataFrame(rng.random((9, 5)), columns=list("abcde"))
    ours = friedman(table)
    ref = friedmanchisquare(*[table[c] for c in table])
    assert ours.chi2 == pytest.approx(ref.statistic) and ours.chi2_p == pytest.approx(ref.pvalue)
    assert ours.n_blocks == 9 and ours.n_methods == 5


def test_friedman_of_identical_rankings_and_of_too_few_blocks():
    table = pd.DataFrame([[0.1, 0.2, 0.3]] * 4, columns=list("abc"))
    r = friedman(table)
    assert r.chi2 == pytest.approx(8.0)  # 12·4/12·(1+4+9−12) = 8
    # F_F's denominator N(k−1) − χ²_F is 0: undefined (it was inf with p = 0), judged by the exact p: 6/6⁴
    assert np.isnan(r.f) and np.isnan(r.f_p) and r.exact_p == pytest.approx(6 / 6**4) and r.p == r.exact_p
    assert np.isnan(friedman(table.iloc[:1]).chi2)


def test_nemenyi_pvalues_match_scikit_posthocs():
    import scikit_posthocs as sph

    rng = np.random.default_rng(7)
    values = rng.integers(0, 4, (12, 4)).astype(float)  # with ties
    table = pd.DataFrame(values, columns=list("abcd"))
    ours = nemenyi_pvalues(friedman(table).average_ranks, 12).to_numpy()
    ref = sph.posthoc_nemenyi_friedman(values).to_numpy()
    np.testing.assert_allclose(ours, ref, atol=1e-9)


def test_pairs_differ_exactly_when_the_rank_gap_reaches_the_cd():
    ranks = pd.Series([1.0, 2.0, 3.5], index=list("abc"))
    cd = critical_difference(3, 10)  # 2.343·√(12/60) = 1.048
    p = nemenyi_pvalues(ranks, 10)
    assert (p.loc["a", "b"] > 0.05) == (1.0 < cd) and (p.loc["a", "c"] < 0.05) == (2.5 >= cd)
    assert p.loc["b", "c"] < 0.05  # 1.5 ≥ 1.048


def test_nemenyi_groups_join_runs_closer_than_the_cd():
    ranks = pd.Series({"a": 1.2, "b": 2.0, "c": 2.9, "d": 3.5, "e": 5.1, "f": 6.0, "g": 6.3})
    assert nemenyi_groups(ranks, 2.6) == [("a", "b", "c", "d"), ("c", "d", "e"), ("d", "e", "f"), ("e", "f", "g")]
    assert nemenyi_groups(ranks, 0.5) == [("f", "g")]


def _summary(rows):
    return pd.DataFrame(rows, columns=["dataset", "stratifier", "classifier", "measure", "mean", "std"])


def test_compare_drops_nan_blocks_and_reports_every_comparison():
    summary = _summary([(d, s, "br", "m", 0.0, v) for d, vals in
                        {"d1": [0.1, 0.2, 0.3], "d2": [0.2, 0.1, 0.3], "d3": [np.nan, 0.1, 0.2], "d4": [0.1, 0.3, 0.2]}.items()
                        for s, v in zip("abc", vals)])
    groups = with_all_group(["d1", "d2", "d3", "d4"], {"two": ["d1", "d2"]})
    assert set(groups) == {"two", "all"}
    ranks, tests, pairs = compare(summary, "std", ["classifier", "measure"], groups)
    all_ranks = ranks[ranks.group == "all"].set_index("stratifier")["average_rank"]
    # d1: a1 b2 c3; d2: a2 b1 c3; d4: a1 b3 c2 (d3 dropped) -> a 4/3, b 2, c 8/3
    assert all_ranks.to_dict() == pytest.approx({"a": 4 / 3, "b": 2.0, "c": 8 / 3})
    t = tests.set_index("group")
    assert t.loc["all", "datasets"] == 3 and t.loc["two", "datasets"] == 2
    assert t.loc["all", "critical_difference"] == pytest.approx(critical_difference(3, 3))
    assert len(pairs[pairs.group == "all"]) == 3
    assert t.loc["all", "chi2"] == pytest.approx(friedman_from_ranks(all_ranks, 3).chi2)


def test_published_average_ranks_are_reproduced_from_the_published_table4_and_5():
    """The rank rows of Sechidis et al. 2011 Tables 4–5 follow from the table's std columns: rank 1 =
    lowest std, ties averaged, datasets with a NaN std dropped. Checked on every comparison whose
    cells are all in the shipped table (18 cells were not legible in the source)."""
    pub = published("sechidis2011")
    table = pub["tables4_5"].rename(columns={"stratification": "stratifier"})
    low = ["scene", "emotions", "genbase", "yeast", "medical"]
    high = ["bibtex", "enron", "corel5k", "imageclef2010"]
    groups = {"labelsets_per_example<=0.1": low, "labelsets_per_example>=0.39": high, "all": low + high}
    ours = average_ranks(table, "std", groups=groups).set_index(["classifier", "group", "measure", "stratifier"])
    cells = table.groupby(["classifier", "dataset", "measure"]).size()
    expected = pub["ranks"].rename(columns={"stratification": "stratifier"})
    compared = 0
    for (classifier, group, measure), rows in expected.groupby(["classifier", "group", "measure"]):
        datasets = [d for d in groups[group] if (table.classifier.eq(classifier) & table.dataset.eq(d)).any()]
        if any(cells.get((classifier, d, measure), 0) < 3 for d in datasets):
            continue  # a cell of this comparison is missing from the shipped table
        for _, row in rows.iterrows():
            ours_rank = ours.loc[(classifier, group, measure, row["stratifier"]), "average_rank"]
            assert ours_rank == pytest.approx(row["average_rank"], abs=0.05 + 1e-9), (classifier, group, measure)
            compared += 1
    assert compared == 39  # 13 complete comparisons × 3 stratifiers, every one equal to the printed decimal


def test_control_against_others_by_wilcoxon_and_holm():
    """6 datasets. Against b: the control is lower on all six, so the exact one-sided Wilcoxon p is
    the chance that all six signs fall its way, 2⁻⁶ = 0.015625. Against c: lower on five, equal on one
    (dropped): 2⁻⁵ = 0.03125. Holm over the two: the smaller doubled, 0.03125, then max(0.03125, 0.03125).
    Against d: higher on every dataset, p = 1 (the largest W of 2⁶ outcomes: 1 − 0 … exactly 1)."""
    table = pd.DataFrame({"a": [1.0, 2, 3, 4, 5, 6], "b": [1.5, 2.5, 3.5, 4.5, 5.5, 6.5],
                          "c": [1.0, 2.1, 3.2, 4.3, 5.4, 6.5], "d": [0.0, 1, 2, 3, 4, 5]})
    result = control_against_others(table, "a", ["b", "c"]).set_index("other")
    assert result.loc["b", ["wins", "losses", "ties"]].tolist() == [6, 0, 0]
    assert result.loc["c", ["wins", "losses", "ties"]].tolist() == [5, 0, 1]
    assert result["p"].tolist() == pytest.approx([1 / 64, 1 / 32])
    assert result["p_holm"].tolist() == pytest.approx([1 / 32, 1 / 32])
    assert result["significant"].all()
    assert control_against_others(table, "a", ["d"])["p"].item() == pytest.approx(1.0)
    assert holm([0.04]).tolist() == [0.04]
