"""Baselines and evaluation: checked against scikit-learn and hand computation."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import MinMaxScaler

from rankviz import DefaultRanker, KNNRanker, RankingTree
from rankviz.label_ranking.aggregation import rank_by_mean
from rankviz.experiments.cross_validation import compare_methods, summarize
from rankviz.model_selection import fold_indices
from rankviz.label_ranking.metrics import cs, lra, tau_x, wrc


def problem(seed=0, n=50, n_labels=5):
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.uniform(0, 100, size=n),
                      "c": rng.choice(["red", "green", "blue"], size=n)})
    Y = np.vstack([rng.permutation(n_labels) + 1.0 for _ in range(n)])
    return X, Y


def test_default_ranking_is_the_mean_rank_rule_over_all_rankings():
    # Rebelo et al., Table 3: mean ranks 1.5, 2, 3, 3.5 -> 1, 2, 3, 4.
    Y = np.array([[1, 3, 2, 4], [2, 1, 4, 3]])
    model = DefaultRanker().fit(np.zeros((2, 1)), Y)
    np.testing.assert_array_equal(model.predict(np.zeros((3, 1))), np.tile([1, 2, 3, 4], (3, 1)))


def test_knn_neighbours_match_sklearn_on_min_max_scaled_numeric_attributes():
    X, Y = problem()
    X = X[["a", "b"]]
    query = X.iloc[:10] + 0.01
    ours = KNNRanker(n_neighbors=3).fit(X, Y).kneighbors(query)
    scaler = MinMaxScaler().fit(X)
    theirs = NearestNeighbors(n_neighbors=3).fit(scaler.transform(X)).kneighbors(
        scaler.transform(query), return_distance=False)
    np.testing.assert_array_equal(ours, theirs)


def test_knn_one_hot_encodes_nominal_attributes():
    X = pd.DataFrame({"x": [0.0, 0.0, 1.0], "colour": ["red", "blue", "red"]})
    Y = np.array([[1, 2, 3], [3, 2, 1], [2, 1, 3]])
    model = KNNRanker().fit(X, Y)
    # Query (0, blue): row 1 at distance 0; row 0 at sqrt(2) (two indicator mismatches).
    np.testing.assert_array_equal(model.predict(pd.DataFrame({"x": [0.0], "colour": ["blue"]})), [[3, 2, 1]])
    # Query (0.9, red): row 2 at 0.1 is nearer than row 0 at 0.9.
    np.testing.assert_array_equal(model.predict(pd.DataFrame({"x": [0.9], "colour": ["red"]})), [[2, 1, 3]])


def test_knn_k1_reproduces_training_rankings_and_k_aggregates_by_mean_rank():
    X, Y = problem(1)
    np.testing.assert_array_equal(KNNRanker().fit(X, Y).predict(X), Y)
    model = KNNRanker(n_neighbors=4).fit(X, Y)
    neighbours = model.kneighbors(X.iloc[:5])
    expected = rank_by_mean(Y[neighbours].mean(axis=1))
    np.testing.assert_array_equal(model.predict(X.iloc[:5]), expected)


def test_fold_indices_partition_the_examples():
    for cv in ("loo", 3, 7):
        folds = fold_indices(20, cv, seed=1)
        np.testing.assert_array_equal(np.sort(np.concatenate(folds)), np.arange(20))
    assert len(fold_indices(20, "loo")) == 20
    with pytest.raises(ValueError, match="cv must be"):
        fold_indices(5, 9)


def test_leave_one_out_of_the_default_ranking_by_hand():
    X, Y = problem(2, n=12, n_labels=4)
    scores = compare_methods({"Default": DefaultRanker()}, X, Y, cv="loo")
    for i in range(12):
        rest = np.delete(Y, i, axis=0)
        predicted = rank_by_mean(rest.mean(axis=0))
        row = scores[scores["example"] == i].iloc[0]
        assert row["CS"] == pytest.approx(cs(Y[i], predicted))
        assert row["WRC"] == pytest.approx(wrc(Y[i], predicted))
        assert row["LRA"] == pytest.approx(lra(Y[i], predicted))


def test_compare_methods_reports_every_example_once_per_method_and_progress():
    X, Y = problem(3, n=30)
    calls = []
    methods = {"Ranking tree": RankingTree(), "KNN (k=1)": KNNRanker(), "Default ranking": DefaultRanker()}
    scores = compare_methods(methods, X, Y, cv=5, seed=0, progress=lambda d, t: calls.append((d, t)))
    assert calls == [(d, 5) for d in range(1, 6)]
    for name in methods:
        assert sorted(scores.loc[scores["method"] == name, "example"]) == list(range(30))
    table = summarize(scores)
    assert list(table.index) == list(methods)
    assert table.loc["Default ranking", ("CS", "count")] == 30
    # Stopping early keeps the folds done so far.
    partial = compare_methods(methods, X, Y, cv=5, progress=lambda d, t: d < 2)
    assert partial["fold"].max() == 1


def test_compare_methods_scores_rankings_with_ties_by_tau_x_too():
    rng = np.random.default_rng(8)
    X = pd.DataFrame({"x": rng.uniform(size=40)})
    Y = np.where(X[["x"]].to_numpy() > 0.5, [1.0, 2.0, 2.0], [2.0, 1.0, 1.0])  # every ranking ties two labels
    methods = {"tree": RankingTree(), "default": DefaultRanker()}
    scores = compare_methods(methods, X, Y, cv=4)
    measures = [c for c in scores.columns if c not in ("method", "example", "fold", "repetition")]
    assert measures == ["CS", "WRC", "LRA", "Kendall tau", "τx"]
    tree = scores[scores["method"] == "tree"]
    for fold, rows in tree.groupby("fold"):
        test = rows["example"].to_numpy()
        model = RankingTree().fit(X.drop(index=test), np.delete(Y, test, axis=0))
        np.testing.assert_allclose(rows["τx"], tau_x(Y[test], model.predict(X.iloc[test])))
    assert summarize(scores).loc["tree", ("τx", "mean")] == pytest.approx(tree["τx"].mean())
    strict = compare_methods(methods, X, np.argsort(np.argsort(rng.normal(size=(40, 3)))) + 1.0, cv=4)
    assert "τx" not in strict.columns  # it would equal Kendall tau


def test_tree_beats_default_when_rankings_follow_an_attribute():
    rng = np.random.default_rng(4)
    x = rng.uniform(size=80)
    utility = np.outer(x, [3, 2, 1, 0]) + np.outer(1 - x, [0, 1, 2, 3]) + rng.normal(scale=0.2, size=(80, 4))
    Y = rankdata(-utility, axis=1)
    scores = compare_methods({"tree": RankingTree(), "default": DefaultRanker()},
                            pd.DataFrame({"x": x}), Y, cv=5)
    means = scores.groupby("method")["CS"].mean()
    assert means["tree"] > means["default"] + 0.3


@pytest.mark.parametrize("k", [1, 2, 5, 40])
def test_neighbours_by_partition_equal_a_stable_full_sort(k, monkeypatch):
    """Many exact ties (a small grid), and blocks of queries smaller than the query set."""
    from rankviz import neighbours
    monkeypatch.setattr(neighbours, "_BLOCK_CELLS", 50)
    rng = np.random.default_rng(k)
    for _ in range(30):
        n = int(rng.integers(1, 30))
        X = pd.DataFrame({"a": rng.integers(0, 4, n).astype(float), "b": rng.integers(0, 3, n).astype(float)})
        Q = pd.DataFrame({"a": rng.integers(0, 4, 9).astype(float), "b": rng.integers(0, 3, 9).astype(float)})
        model = KNNRanker(n_neighbors=k).fit(X, np.tile([1.0, 2.0], (n, 1)))
        points = (X.to_numpy() - X.min().to_numpy()) / np.where(np.ptp(X.to_numpy(), axis=0) > 0,
                                                                 np.ptp(X.to_numpy(), axis=0), 1.0)
        queries = (Q.to_numpy() - X.min().to_numpy()) / np.where(np.ptp(X.to_numpy(), axis=0) > 0,
                                                                  np.ptp(X.to_numpy(), axis=0), 1.0)
        sq = ((queries[:, None, :] - points[None, :, :]) ** 2).sum(axis=2).round(12)
        expected = np.argsort(sq, axis=1, kind="stable")[:, :min(k, n)]
        np.testing.assert_array_equal(model.kneighbors(Q), expected)


# --- KNN with k chosen by inner cross-validation ----------------------------------


def test_knn_auto_cv_scores_equal_a_manual_inner_cross_validation():
    from rankviz.label_ranking.metrics import kendall_tau

    X, Y = problem(12, n=70)
    grid = (1, 2, 4, 9, 30)
    model = KNNRanker(n_neighbors="auto", k_grid=grid, inner_folds=4, random_state=3).fit(X, Y)
    assert list(model.cv_scores_) == list(grid)
    for k in grid:
        taus = []
        for test in fold_indices(len(Y), 4, 3):
            train = np.setdiff1d(np.arange(len(Y)), test)
            fitted = KNNRanker(n_neighbors=k).fit(X.iloc[train], Y[train])
            taus.append(kendall_tau(Y[test], fitted.predict(X.iloc[test])))
        assert model.cv_scores_[k] == pytest.approx(np.nanmean(np.concatenate(taus)), abs=1e-12)
    best = max(grid, key=lambda k: (model.cv_scores_[k], -k))
    assert model.n_neighbors_ == best
    np.testing.assert_array_equal(model.predict(X), KNNRanker(n_neighbors=best).fit(X, Y).predict(X))


def test_knn_auto_chooses_a_small_k_for_sharp_local_structure_and_a_large_one_for_noise():
    perms = np.array([np.argsort(p) + 1.0 for p in np.random.default_rng(1).permuted(
        np.tile(np.arange(4), (24, 1)), axis=1)])
    rng = np.random.default_rng(0)
    x = rng.uniform(size=240)
    Y = perms[(np.floor(x * 40).astype(int) * 7) % 24]
    assert KNNRanker(n_neighbors="auto").fit(x[:, None], Y).n_neighbors_ <= 5
    centre = np.array([2.0, 1.0, 4.0, 3.0])
    noisy = np.where(rng.random(240)[:, None] < 0.35, centre, perms[rng.integers(24, size=240)])
    assert KNNRanker(n_neighbors="auto").fit(rng.uniform(size=(240, 2)), noisy).n_neighbors_ >= 21


def test_knn_auto_grid_is_capped_and_a_fixed_k_fit_drops_the_scores():
    X, Y = problem(13, n=20)
    model = KNNRanker(n_neighbors="auto").fit(X, Y)  # 5 inner folds of 4: 16 training rows
    assert list(model.cv_scores_) == [1, 3, 5, 7, 9, 11, 15, 16]
    model.set_params(n_neighbors=3).fit(X, Y)
    assert not hasattr(model, "cv_scores_") and model.n_neighbors_ == 3


@pytest.mark.parametrize("params", [{"n_neighbors": 0}, {"n_neighbors": "best"},
                                    {"n_neighbors": "auto", "inner_folds": 1},
                                    {"n_neighbors": "auto", "k_grid": []}])
def test_knn_rejects_bad_parameters(params):
    X, Y = problem(1, n=20)
    with pytest.raises(ValueError):
        KNNRanker(**params).fit(X, Y)


def test_knn_never_takes_a_row_that_ranks_no_label_as_a_neighbour():
    """Issue 35: a row with every label missing once made KNN predict the label columns' order."""
    X = np.array([[0.0], [0.1], [5.0], [5.1]])
    Y = np.array([[np.nan] * 3, [3, 1, 2], [2, 3, 1], [np.nan] * 3])
    knn = KNNRanker().fit(X, Y)
    np.testing.assert_array_equal(knn.kneighbors([[0.0], [5.2]]), [[1], [2]])
    np.testing.assert_array_equal(knn.predict([[0.0], [5.2]]), [[3, 1, 2], [2, 3, 1]])
    with pytest.raises(ValueError, match="no row of Y ranks a label"):
        KNNRanker().fit(X[[0, 3]], Y[[0, 3]])
