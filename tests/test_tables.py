import numpy as np
import pandas as pd
import pytest

from stratbench.stats import average_ranks
from stratbench.tables.summary import summarise_fold_quality, summarise_scores


def scores_frame(values_by_key):
    rows = []
    for (dataset, stratifier, repeat), values in values_by_key.items():
        for fold, v in enumerate(values):
            rows.append((dataset, stratifier, repeat, fold, "br", "hamming_loss", v))
    return pd.DataFrame(rows, columns=["dataset", "stratifier", "repeat", "fold", "classifier", "measure", "value"])


def test_mean_and_population_std_over_folds_averaged_over_repeats():
    s = summarise_scores(scores_frame({("d", "random", 0): [1.0, 3.0], ("d", "random", 1): [2.0, 2.0]}))
    row = s.iloc[0]
    # repeat 0: mean 2, std 1 (ddof=0, as MULAN); repeat 1: mean 2, std 0
    assert row["mean"] == 2.0 and row["std"] == 0.5 and row["folds"] == 2 and row["repeats"] == 2


def test_a_nan_fold_makes_mean_and_std_nan():
    s = summarise_scores(scores_frame({("d", "random", 0): [0.5, np.nan, 0.7]}))
    assert np.isnan(s.iloc[0]["mean"]) and np.isnan(s.iloc[0]["std"])


def test_average_ranks_of_std_with_ties_and_nan_blocks():
    summary = pd.DataFrame(
        [("d1", s, "br", "m", 0.0, std) for s, std in [("a", 0.1), ("b", 0.2), ("c", 0.2)]]
        + [("d2", s, "br", "m", 0.0, std) for s, std in [("a", 0.3), ("b", 0.1), ("c", 0.2)]]
        + [("d3", s, "br", "m", 0.0, std) for s, std in [("a", np.nan), ("b", 0.1), ("c", 0.2)]],
        columns=["dataset", "stratifier", "classifier", "measure", "mean", "std"],
    )
    r = average_ranks(summary, "std").set_index("stratifier")
    # d1 ranks a=1, b=c=2.5; d2 ranks a=3, b=1, c=2; d3 is dropped (a is NaN)
    assert r.loc["a", "average_rank"] == 2.0
    assert r.loc["b", "average_rank"] == 1.75
    assert r.loc["c", "average_rank"] == 2.25
    assert (r["datasets"] == 2).all()
    grouped = average_ranks(summary, "std", groups={"only_d2": ["d2"]}).set_index("stratifier")
    assert grouped.loc["a", "average_rank"] == 3.0 and (grouped["group"] == "only_d2").all()


def test_fold_quality_summary_over_repeats():
    q = pd.DataFrame([("d", "iterative", r, "LD", v) for r, v in enumerate([0.1, 0.3])],
                     columns=["dataset", "stratifier", "repeat", "measure", "value"])
    row = summarise_fold_quality(q).iloc[0]
    assert row["mean"] == pytest.approx(0.2) and row["std"] == pytest.approx(0.1) and row["repeats"] == 2


def test_the_fold_quality_summary_prints_its_measures_in_one_format_without_helper_columns():
    """A column per printed measure (the measure table's order and names), mean and std at the same fixed
    decimals (the column's smallest non-zero mean to 2 significant digits; counted measures 1 decimal): no
    '± 2.5e-18', no pair_zero_share_2dp."""
    from stratbench.tables.summary import decimals, fold_quality_markdown

    rows = [("d", s, m, mean, std) for s, values in (("iterative", (1.8, 0.0123, 2.5e-18, 1.0)), ("random", (0.0, 0.0456, 0.02, 1.5)))
            for m, mean, std in zip(("ED", "LD", "pair_zero_share_2dp_std", "FZ"), values, (0.2, 0.0012, 2.5e-18, 0.5))]
    summary = pd.DataFrame(rows, columns=["dataset", "stratifier", "measure", "mean", "std"])
    md = fold_quality_markdown(summary)
    header = md.splitlines()[2]
    assert [c.strip() for c in header.strip("|").split("|")] == ["dataset", "stratifier", "ED", "LD", "FZ"]
    import re

    assert "| d | iterative | 1.8 ± 0.2 | 0.012 ± 0.001 | 1.0 ± 0.5 |" in re.sub(" +", " ", md)
    assert "e-" not in md and "2dp" not in md
    assert (decimals([0.0, 0.0456, 0.0123]), decimals([1.8, 3.4]), decimals([0, 0]), decimals([2.0], counted=True)) == (3, 1, 0, 1)
