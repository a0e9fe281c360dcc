"""Tests for rankviz.experiments.statistics: standard errors, t intervals, paired comparisons."""

import numpy as np
import pytest
from scipy import stats

from rankviz.experiments.statistics import PairedComparison, paired_comparison, standard_error, t_interval


def test_a_paired_comparison_worked_by_hand():
    # differences 0.4, 0, 0.1, 0.1: mean 0.15, sd sqrt(0.09 / 3), se sqrt(0.03) / 2, t = sqrt(3), 3 df
    result = paired_comparison([0.9, 0.8, 0.7, 1.0], [0.5, 0.8, 0.6, 0.9])
    assert result.mean_difference == pytest.approx(0.15)
    assert result.standard_error == pytest.approx(np.sqrt(0.03) / 2)
    half = 3.182446305284263 * np.sqrt(0.03) / 2  # t(0.975, 3)
    assert (result.ci_low, result.ci_high) == (pytest.approx(0.15 - half), pytest.approx(0.15 + half))
    assert result.t_pvalue == pytest.approx(0.18169011, abs=1e-7)  # P(|T_3| > sqrt(3))
    assert (result.wins, result.ties, result.losses) == (3, 1, 0)


def test_t_interval_worked_by_hand():
    mean, half = t_interval([0.2, 0.3, 0.4])  # sd 0.1, se 0.1 / sqrt(3), t(0.975, 2) = 4.302653
    assert mean == pytest.approx(0.3)
    assert half == pytest.approx(4.302652729911275 * 0.1 / np.sqrt(3))


def test_t_interval_leaves_out_missing_values():
    assert t_interval([0.2, np.nan, 0.3, 0.4]) == pytest.approx(t_interval([0.2, 0.3, 0.4]))
    mean, half = t_interval([])
    assert np.isnan(mean) and np.isnan(half)


@pytest.mark.parametrize("n", [2, 3, 10, 40])
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_t_interval_matches_scipy(n, confidence):
    values = np.random.default_rng(n).normal(0.3, 0.1, n)
    mean, half = t_interval(values, confidence)
    low, high = stats.t.interval(confidence, n - 1, loc=values.mean(), scale=stats.sem(values))
    assert mean == pytest.approx(values.mean())
    assert mean - half == pytest.approx(low)
    assert mean + half == pytest.approx(high)



def test_t_interval_of_one_value_has_no_half_width():
    mean, half = t_interval([0.25])
    assert mean == 0.25 and np.isnan(half)



def test_paired_comparison_matches_scipy():
    rng = np.random.default_rng(21)
    a = rng.uniform(0.3, 1.0, 40)
    b = np.clip(a - rng.normal(0.05, 0.1, 40), 0, 1)
    b[[3, 17]] = a[[3, 17]]  # two exact ties
    a[5], b[9] = np.nan, np.nan  # dropped pairwise
    result = paired_comparison(a, b)
    assert isinstance(result, PairedComparison)
    keep = ~np.isnan(a) & ~np.isnan(b)
    ka, kb = a[keep], b[keep]
    assert result.n_queries == 38 and result.n_dropped == 2
    assert result.mean_a == pytest.approx(ka.mean())
    assert result.mean_b == pytest.approx(kb.mean())
    assert result.mean_difference == pytest.approx((ka - kb).mean())
    assert result.standard_error == pytest.approx(stats.sem(ka - kb))
    ttest = stats.ttest_rel(ka, kb)
    assert result.t_pvalue == pytest.approx(ttest.pvalue)
    low, high = ttest.confidence_interval(0.95)
    assert (result.ci_low, result.ci_high) == (pytest.approx(low), pytest.approx(high))
    assert result.wilcoxon_pvalue == pytest.approx(stats.wilcoxon(ka, kb).pvalue)
    d = ka - kb
    assert (result.wins, result.ties, result.losses) == ((d > 0).sum(), 2, (d < 0).sum())
    assert result.wins + result.ties + result.losses == 38
    assert result.as_dict()["n_queries"] == 38
    # 90% interval is narrower
    narrower = paired_comparison(a, b, confidence=0.9)
    assert narrower.ci_high - narrower.ci_low < result.ci_high - result.ci_low



def test_paired_comparison_all_zero_differences():
    a = [0.5, 0.7, np.nan, 1.0]
    result = paired_comparison(a, a)
    assert result.wilcoxon_pvalue == 1.0 and result.t_pvalue == 1.0
    assert (result.wins, result.ties, result.losses) == (0, 3, 0)
    assert result.mean_difference == 0.0 and result.ci_low == result.ci_high == 0.0



def test_paired_comparison_bad_input():
    with pytest.raises(ValueError, match="same length"):
        paired_comparison([1, 2, 3], [1, 2])



def test_standard_error_is_nan_aware():
    values = np.array([0.2, 0.5, np.nan, 0.9, 0.4])
    assert standard_error(values) == pytest.approx(stats.sem(values, nan_policy="omit"))
    table = np.array([[0.1, np.nan], [0.4, 0.3], [0.9, np.nan]])
    se = standard_error(table)
    assert se.shape == (2,)
    assert se[0] == pytest.approx(stats.sem(table[:, 0]))
    assert np.isnan(se[1])  # one value: no standard error


def test_the_evaluation_bars_show_t_intervals():
    """The whiskers of the Evaluation tab are the Student-t intervals of this module."""
    import pandas as pd

    from rankviz.viz.figures.ranking_trees import metric_bars
    rng = np.random.default_rng(3)
    scores = pd.DataFrame({"method": ["tree"] * 12 + ["KNN"] * 5, "CS": rng.uniform(-1, 1, 17),
                           "WRC": rng.uniform(-1, 1, 17), "LRA": rng.uniform(-1, 1, 17)})
    figure = metric_bars(scores)
    for bar in figure.data:
        rows = scores[scores["method"] == bar.name]
        for measure, mean, half in zip(bar.x, bar.y, bar.error_y.array):
            low, high = stats.t.interval(0.95, len(rows) - 1, loc=rows[measure].mean(), scale=stats.sem(rows[measure]))
            assert mean == pytest.approx(rows[measure].mean())
            assert half == pytest.approx((high - low) / 2)


def test_t_interval_refuses_a_confidence_outside_zero_one():
    from rankviz.experiments.statistics import t_interval

    for bad in (0, 1, 95, -0.5, True):
        with pytest.raises(ValueError, match="confidence must be"):
            t_interval([0.1, 0.2, 0.3], confidence=bad)
