"""The experimental protocol of Cheng, Hühn & Hüllermeier (2009): repeated CV with deleted training labels, Fig. 1, Table 2 sizes."""

import numpy as np
import pandas as pd
import pytest

from rankviz.experiments.statistics import t_interval
from sklearn.tree import DecisionTreeClassifier

from rankviz import DefaultRanker, KNNRanker, RankingTree, delete_labels
from rankviz.experiments.cross_validation import compare_methods
from rankviz.model_selection import fold_indices
from rankviz.experiments.label_ranking_study import (label_ranking_methods, missing_rate_curve,
                                                     relative_tree_size, top_label)
from rankviz.label_ranking.metrics import kendall_tau

from reference import random_problem


class RecordingRanker(DefaultRanker):
    """The default ranker, remembering the training rankings of every fit."""

    seen = []

    def fit(self, X, Y):
        RecordingRanker.seen.append(np.array(Y, dtype=float))
        return super().fit(X, Y)


def test_repetitions_use_new_folds_and_delete_only_training_labels():
    X, Y = random_problem(1, n=40)
    RecordingRanker.seen = []
    scores = compare_methods({"rec": RecordingRanker()}, X, Y, cv=5, seed=3, repetitions=2,
                            missing_rate=0.5)
    assert len(scores) == 2 * len(Y)  # every row held out once per repetition
    assert sorted(scores.groupby("repetition")["example"].apply(sorted).iloc[1]) == list(range(40))
    # The folds of repetition r are those of seed + r.
    first_test = scores[(scores.repetition == 1) & (scores.fold == 0)]["example"].to_numpy()
    np.testing.assert_array_equal(first_test, fold_indices(40, 5, 4)[0])
    # Training rankings lost about half their labels; test rankings were scored complete.
    deleted = np.mean([np.isnan(Y_train).mean() for Y_train in RecordingRanker.seen])
    assert 0.4 < deleted < 0.6
    train = np.setdiff1d(np.arange(40), fold_indices(40, 5, 3)[0])
    expected = delete_labels(Y[train], 0.5, seed=[3, 0, 0])
    np.testing.assert_array_equal(RecordingRanker.seen[0], expected)


def test_missing_rate_curve_equals_cross_validation_at_each_rate():
    X, Y = random_problem(2, n=60)
    methods = {"KNN": KNNRanker(3), "Default": DefaultRanker()}
    curve = missing_rate_curve(methods, X, Y, [0.0, 0.4], cv=4, repetitions=2, seed=1)
    assert list(curve.method) == ["KNN", "Default", "KNN", "Default"]
    for rate in (0.0, 0.4):
        scores = compare_methods(methods, X, Y, cv=4, seed=1, repetitions=2, missing_rate=rate)
        for method in methods:
            row = curve[(curve.missing_rate == rate) & (curve.method == method)].iloc[0]
            mine = scores[scores.method == method]
            assert row["Kendall tau"] == pytest.approx(mine["Kendall tau"].mean())
            per_repetition = mine.groupby("repetition")["Kendall tau"].mean()
            assert row["Kendall tau sd"] == pytest.approx(per_repetition.std())
            assert row["Kendall tau ci"] == pytest.approx(t_interval(per_repetition.to_numpy())[1])
            assert row["n"] == 120


def test_missing_rate_curve_stops_between_rates():
    X, Y = random_problem(2, n=30)
    calls = []

    def progress(done, total):
        calls.append((done, total))
        return done < 5  # stop inside the second rate

    curve = missing_rate_curve({"Default": DefaultRanker()}, X, Y, [0.0, 0.3, 0.6], cv=3,
                               progress=progress)
    assert calls[-1] == (5, 9)
    assert list(curve.missing_rate) == [0.0]  # the partly scored rate is dropped


def test_top_label_and_relative_tree_size():
    Y = np.array([[2, 1, 3], [np.nan, 2, 1], [np.nan, np.nan, np.nan], [1, 2.5, 2.5]])
    assert top_label(Y).tolist() == [1, 2, -1, 0]
    X, Y = random_problem(5, n=80)
    lrt = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=3)
    sizes = relative_tree_size(X, Y, lrt)
    assert sizes["lrt_leaves"] == lrt.fit(X, Y).tree_.n_leaves
    codes = X.assign(nom=X["nom"].map({"a": 0, "b": 1, "c": 2})).to_numpy(float)
    ct = DecisionTreeClassifier(criterion="entropy", min_samples_leaf=2, random_state=0).fit(
        codes, top_label(Y))
    assert sizes["classification_leaves"] == ct.get_n_leaves()
    assert sizes["ratio"] == pytest.approx(sizes["lrt_leaves"] / ct.get_n_leaves())
    # With labels deleted, the LRT learns the damaged rankings; the reference tree stays.
    damaged = relative_tree_size(X, Y, lrt, missing_rate=0.5, seed=2)
    assert damaged["classification_leaves"] == sizes["classification_leaves"]
    assert damaged["lrt_leaves"] == lrt.fit(X, delete_labels(Y, 0.5, seed=2)).tree_.n_leaves


def test_label_ranking_methods_rank_the_labels_of_structured_data():
    """Every method predicts permutations; the local methods beat the default ranking."""
    rng = np.random.default_rng(8)
    X = pd.DataFrame(rng.normal(size=(200, 3)), columns=["a", "b", "c"])
    utility = X.to_numpy() @ rng.normal(size=(3, 4)) + rng.normal(scale=0.3, size=(200, 4))
    Y = np.argsort(np.argsort(-utility, axis=1), axis=1) + 1.0
    scores = compare_methods(label_ranking_methods(), X, Y, cv=5, seed=0)
    means = scores.groupby("method")["Kendall tau"].mean()
    assert set(means.index) == {"LRT", "IBLR", "CC", "KNN (k=1)", "Default"}
    for method in ("LRT", "IBLR", "CC"):
        assert means[method] > means["Default"] + 0.2
    model = label_ranking_methods()["LRT"].fit(X, Y)
    assert kendall_tau(Y, model.predict(X)).mean() > means["LRT"]  # training fit is better
    assert isinstance(X, pd.DataFrame)


def test_method_summary_errors_are_the_standard_error_or_the_spread_over_repetitions():
    from scipy import stats

    from rankviz.experiments.label_ranking_study import MEASURE_ORDER, method_summary
    rng = np.random.default_rng(0)
    scores = pd.DataFrame({"method": ["A"] * 10 + ["B"] * 10, "repetition": [0, 1] * 10,
                           **{m: rng.uniform(-1, 1, 20) for m in MEASURE_ORDER}})
    single = method_summary(scores)
    assert list(single.index) == ["A", "B"]
    assert list(single.columns) == [*MEASURE_ORDER, *(f"{m} se" for m in MEASURE_ORDER), "n"]
    a = scores[scores["method"] == "A"]
    assert single.loc["A", "CS se"] == pytest.approx(stats.sem(a["CS"]))
    repeated = method_summary(scores, repetitions=2)
    per_repetition = a.groupby("repetition")["LRA"].mean()
    assert repeated.loc["A", "LRA sd"] == pytest.approx(np.std(per_repetition, ddof=1))
    assert repeated.loc["A", "Kendall tau"] == pytest.approx(a["Kendall tau"].mean()) and repeated.loc["B", "n"] == 10


def test_tree_sizes_take_finite_features_beyond_float32():
    """scikit-learn's trees cast to float32: ±1.7e308 became inf and was refused as "infinity".

    The classification tree is grown on each feature's ranks, so the same data
    written with order-equivalent small numbers gives the same leaf counts.
    """
    from rankviz.experiments.label_ranking_study import column_ranks

    X, Y = random_problem(3, n=60)
    small = X.assign(num=X["num"] - 3.5)  # -3.5 ... 3.5
    huge = X.assign(num=small["num"] * (1.7e308 / 3.5))  # up to ±1.7e308, same order
    assert np.isfinite(huge["num"]).all() and huge["num"].abs().max() > 1e308
    first = "num"
    lrt = RankingTree(criterion="mallows", min_samples_leaf=2)
    assert relative_tree_size(huge, Y, lrt, seed=1) == relative_tree_size(small, Y, lrt, seed=1)
    ranks = column_ranks(huge[[first]].to_numpy())
    np.testing.assert_array_equal(np.argsort(ranks[:, 0], kind="stable"),
                                  np.argsort(huge[first].to_numpy(), kind="stable"))
    assert np.isnan(column_ranks([[np.nan, 1.0]])[0, 0])
