"""γ curves by leave-one-out, k-fold and repeated k-fold, read off one maximal tree per fold."""

import numpy as np
import pandas as pd
import pytest

from rankviz import DefaultRanker, KNNRanker, RankingTree, load_sample
from rankviz.experiments.cross_validation import (MEASURES, compare_methods, gamma_curves, loo_gamma_curves,
                                                  mean_intervals, paired_scores)
from rankviz.experiments.statistics import paired_comparison, t_interval
from rankviz.model_selection import fold_indices

GAMMAS = np.array([0.9, 0.95, 0.98, 0.99, 1.0, 1.02])


@pytest.fixture(scope="module")
def data():
    dataset = load_sample("metalearning")
    return dataset.X, dataset.Y


def refit_scores(X, Y, gamma, cv, seed, repetitions=1, min_samples_leaf=3):
    """Per-example scores of trees grown at ``gamma`` on every fold (the slow way)."""
    tree = RankingTree(gamma=gamma, min_samples_leaf=min_samples_leaf)
    return compare_methods({"tree": tree}, X, Y, cv=cv, seed=seed, repetitions=repetitions)


@pytest.mark.parametrize("cv, repetitions", [(5, 1), (4, 3)])
def test_k_fold_curves_equal_per_gamma_refits_on_the_same_folds(data, cv, repetitions):
    X, Y = data
    curves = gamma_curves(X, Y, GAMMAS, cv=cv, repetitions=repetitions, seed=7, min_samples_leaf=3)
    assert not curves.attrs["partial"]
    assert curves.attrs["folds_done"] == curves.attrs["folds_total"] == cv * repetitions
    assert curves.attrs["n_examples"] == len(Y) * repetitions
    for gamma in GAMMAS[[0, 2, 4, 5]]:
        scores = refit_scores(X, Y, gamma, cv, 7, repetitions)
        for measure in MEASURES:
            assert curves.loc[gamma, measure] == pytest.approx(scores[measure].mean(), abs=1e-12)
            assert curves.loc[gamma, f"{measure} ci"] == pytest.approx(
                t_interval(scores[measure].to_numpy())[1], rel=1e-9)
        leaves = [RankingTree(gamma=gamma, min_samples_leaf=3).fit(
                      X.iloc[np.setdiff1d(np.arange(len(Y)), test)],
                      Y[np.setdiff1d(np.arange(len(Y)), test)]).tree_.n_leaves
                  for r in range(repetitions) for test in fold_indices(len(Y), cv, 7 + r)]
        assert curves.loc[gamma, "leaves"] == pytest.approx(np.mean(leaves))


def test_loo_is_the_cv_loo_form_and_equals_refits(data):
    X, Y = data
    X, Y = X.iloc[:25], Y[:25]
    loo = loo_gamma_curves(X, Y, GAMMAS, min_samples_leaf=3)
    pd.testing.assert_frame_equal(loo, gamma_curves(X, Y, GAMMAS, cv="loo", min_samples_leaf=3))
    assert loo.attrs["n_examples"] == 25 and loo.attrs["folds_total"] == 25
    for gamma in GAMMAS[[1, 4]]:
        scores = refit_scores(X, Y, gamma, "loo", 0)
        assert loo.loc[gamma, "CS"] == pytest.approx(scores["CS"].mean(), abs=1e-12)


def test_stopping_keeps_the_finished_folds_marked_partial(data):
    X, Y = data
    seen = []

    def progress(done, total):
        seen.append((done, total))
        return done < 3

    baselines = {"KNN (k=1)": KNNRanker(), "Default ranking": DefaultRanker()}
    partial = gamma_curves(X, Y, GAMMAS, cv=10, seed=2, min_samples_leaf=3, baselines=baselines,
                           progress=progress)
    assert seen == [(1, 10), (2, 10), (3, 10)]
    assert partial.attrs["partial"] and partial.attrs["folds_done"] == 3
    per_fold = partial.attrs["seconds"]  # one record per finished fold (its value is not checked)
    assert len(per_fold) == partial.attrs["folds_done"]
    folds = fold_indices(len(Y), 10, 2)[:3]
    rows = np.concatenate(folds)
    assert partial.attrs["n_examples"] == len(rows)
    # The means are those of the three finished folds' held-out examples.
    scores = refit_scores(X, Y, 0.98, 10, 2)
    kept = scores[scores["fold"] < 3]
    assert partial.loc[0.98, "CS"] == pytest.approx(kept["CS"].mean(), abs=1e-12)
    # The baselines were scored on the same finished folds, as compare_methods scores them.
    expected = compare_methods(baselines, X, Y, cv=10, seed=2)
    expected = expected[expected["fold"] < 3].reset_index(drop=True)
    pd.testing.assert_frame_equal(partial.attrs["baselines"], expected)


def test_mean_intervals_are_t_intervals_over_examples_or_repetitions(data):
    X, Y = data
    methods = {"KNN (k=1)": KNNRanker(), "Default ranking": DefaultRanker()}
    scores = compare_methods(methods, X, Y, cv=5, repetitions=3, seed=1)
    by_example = mean_intervals(scores, ["CS", "LRA"])
    by_repetition = mean_intervals(scores, ["CS", "LRA"], over="repetition")
    for method, group in scores.groupby("method"):
        per_example = group.groupby("example")["CS"].mean()
        assert by_example.loc[method, "CS ci"] == pytest.approx(t_interval(per_example)[1])
        per_repetition = group.groupby("repetition")["LRA"].mean()
        assert by_repetition.loc[method, "LRA ci"] == pytest.approx(t_interval(per_repetition)[1])
        assert by_repetition.loc[method, "n"] == 3 and by_example.loc[method, "n"] == len(Y)
        assert by_example.loc[method, "CS"] == pytest.approx(group["CS"].mean())


def test_paired_scores_are_the_statistics_modules_comparison(data):
    X, Y = data
    methods = {"tree": RankingTree(gamma=0.98, min_samples_leaf=3), "KNN (k=1)": KNNRanker(),
               "Default ranking": DefaultRanker()}
    scores = compare_methods(methods, X, Y, cv=5, seed=0)
    table = paired_scores(scores, "tree", "WRC")
    assert list(table["method"]) == ["KNN (k=1)", "Default ranking"]
    tree = scores[scores["method"] == "tree"].set_index("example")["WRC"].sort_index()
    for row in table.itertuples(index=False):
        other = scores[scores["method"] == row.method].set_index("example")["WRC"].sort_index()
        result = paired_comparison(tree.to_numpy(), other.to_numpy())
        assert row.difference == pytest.approx(result.mean_difference)
        assert (row._5, row._6) == pytest.approx((result.ci_low, result.ci_high))
        assert row._7 == pytest.approx(result.wilcoxon_pvalue)
        assert (row.wins, row.ties, row.losses) == (result.wins, result.ties, result.losses)
