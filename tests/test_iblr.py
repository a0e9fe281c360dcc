"""IBLR (Cheng, Hühn & Hüllermeier 2009, §4): neighbours, weights, Mallows centre and spread, choice of k."""

import itertools

import numpy as np
import pandas as pd
import pytest
from sklearn.neighbors import NearestNeighbors
from sklearn.preprocessing import MinMaxScaler, StandardScaler

from rankviz import KNNRanker, load_benchmark
from rankviz.label_ranking import iblr as iblr_module
from rankviz.model_selection import fold_indices
from rankviz.label_ranking.iblr import DEFAULT_K_GRID, IBLR, dudani_weights
from rankviz.label_ranking.mallows import borda_center, fit_mallows, theta_from_mean_distance
from rankviz.label_ranking.metrics import kendall_tau

PERMS4 = np.array(list(itertools.permutations(range(1, 5))), dtype=float)


def problem(seed=0, n=60, n_labels=4, nominal=True):
    """Random attributes (numeric and, optionally, nominal) and random complete rankings."""
    rng = np.random.default_rng(seed)
    X = pd.DataFrame({"a": rng.normal(size=n), "b": rng.uniform(0, 100, size=n)})
    if nominal:
        X["c"] = rng.choice(["red", "green", "blue"], size=n)
    Y = np.vstack([rng.permutation(n_labels) + 1.0 for _ in range(n)])
    return X, Y


def drop_labels(Y, rate, seed):
    """Delete labels at random (keeping >= 2 per row) and re-rank the rest 1..m."""
    rng = np.random.default_rng(seed)
    out = np.full(Y.shape, np.nan)
    for i, row in enumerate(Y):
        keep = rng.random(len(row)) >= rate
        if keep.sum() < 2:
            keep[rng.choice(len(row), 2, replace=False)] = True
        idx = np.flatnonzero(keep)
        out[i, idx] = np.argsort(np.argsort(row[idx], kind="stable"), kind="stable") + 1.0
    return out


# --- neighbours ------------------------------------------------------------------------


def test_k1_on_complete_rankings_equals_the_nearest_neighbour_ranker():
    X, Y = problem(1)
    queries, _ = problem(2, n=40)
    expected = KNNRanker(n_neighbors=1).fit(X, Y).predict(queries)
    np.testing.assert_array_equal(IBLR(n_neighbors=1).fit(X, Y).predict(queries), expected)
    np.testing.assert_array_equal(IBLR(n_neighbors=1).fit(X, Y).predict(X), Y)


def test_neighbour_distances_are_euclidean_on_min_max_scaled_attributes():
    X, Y = problem(3, nominal=False)
    query = X.iloc[:15] * 1.1 + 0.3
    indices, distances = IBLR(n_neighbors=4).fit(X, Y).kneighbors(query, return_distance=True)
    scaler = MinMaxScaler().fit(X)
    their_d, their_i = NearestNeighbors(n_neighbors=4).fit(scaler.transform(X)).kneighbors(
        scaler.transform(query))
    np.testing.assert_array_equal(indices, their_i)
    np.testing.assert_allclose(distances, their_d, atol=1e-6)
    # The indices alone are unchanged by asking for distances.
    np.testing.assert_array_equal(IBLR(n_neighbors=4).fit(X, Y).kneighbors(query), their_i)


# --- weights ---------------------------------------------------------------------------


def test_dudani_weights_by_hand():
    np.testing.assert_allclose(dudani_weights([[0.0, 1.0, 3.0]]), [[1.0, 2 / 3, 0.0]])
    np.testing.assert_allclose(dudani_weights([[1.0, 2.0, 2.0, 5.0]]), [[1.0, 0.75, 0.75, 0.0]])
    # Equal distances (and k = 1): all 1, never a neighbourhood of total weight 0.
    np.testing.assert_array_equal(dudani_weights([[2.0, 2.0, 2.0], [0.5, 0.5, 0.5]]), np.ones((2, 3)))
    np.testing.assert_array_equal(dudani_weights([[0.7]]), [[1.0]])


def test_dudani_weighting_changes_the_prediction_and_spread_of_a_tiny_example():
    # Training points at 0, 1, 3 and the query at 0: distances (scaled by 3) 0, 1/3, 1,
    # so the weights are 1, 2/3, 0.
    X = np.array([[0.0], [1.0], [3.0]])
    Y = np.array([[1, 2, 3], [2, 1, 3], [3, 1, 2]], dtype=float)
    query = np.array([[0.0]])
    # Borda with weights 1, 2/3, 0: votes a 3 + 4/3, b 2 + 2, c 1 + 2/3 -> a, b, c.
    dudani, theta = IBLR(n_neighbors=3).fit(X, Y).predict_with_reliability(query)
    np.testing.assert_array_equal(dudani, [[1, 2, 3]])
    # Uniform: votes a 6, b 8, c 4 -> b, a, c.
    np.testing.assert_array_equal(IBLR(n_neighbors=3, weights="uniform").fit(X, Y).predict(query),
                                  [[2, 1, 3]])
    # The spread sees the weight 2/3 exactly: weighted mean distance (2/3 * 1) / (5/3) = 0.4.
    assert theta[0] == pytest.approx(fit_mallows(Y, weights=[1, 2 / 3, 0]).theta)
    assert theta[0] == pytest.approx(float(theta_from_mean_distance(0.4, 3)))
    assert theta[0] != pytest.approx(fit_mallows(Y, weights=[1, 1 / 2, 0]).theta)


def test_uniform_weights_with_k_equal_to_n_give_the_borda_centre_of_all_rankings():
    X, Y = problem(4, n=30, n_labels=5)
    queries, _ = problem(5, n=7)
    predicted = IBLR(n_neighbors=30, weights="uniform").fit(X, Y).predict(queries)
    centre = borda_center(Y)
    np.testing.assert_array_equal(predicted, np.tile(centre, (7, 1)))
    # ... and it is not what the Dudani weights give for every query.
    assert not (IBLR(n_neighbors=30).fit(X, Y).predict(queries) == centre).all()


def test_incomplete_rankings_are_weighted_by_the_fraction_of_labels_they_hold():
    # Two complete rankings a > b > c > d and three of only b > a, all equally far
    # from any query (one attribute value), so every distance weight is 1.
    Y = np.array([[1, 2, 3, 4]] * 2 + [[2, 1, np.nan, np.nan]] * 3, dtype=float)
    X = np.zeros((5, 1))
    predicted, _ = IBLR(n_neighbors=5).fit(X, Y).predict_with_reliability(np.zeros((1, 1)))
    # Weight 1/2 for the halves: after extension to b > a > c > d the Borda
    # votes are a 8 + 3 * 3/2 = 12.5 against b 6 + 3 * 2 = 12, so a first.
    np.testing.assert_array_equal(predicted, [[1, 2, 3, 4]])
    np.testing.assert_array_equal(fit_mallows(Y, weights=[1, 1, 0.5, 0.5, 0.5]).center, [1, 2, 3, 4])
    # Unweighted, b would win (a 17, b 18): the weighting decides.
    np.testing.assert_array_equal(fit_mallows(Y).center, [2, 1, 3, 4])


# --- predictions and reliability -------------------------------------------------------


@pytest.mark.parametrize("weights", ["dudani", "uniform"])
def test_predictions_are_permutations_even_from_incomplete_and_tied_rankings(weights):
    X, Y = problem(6, n=80, n_labels=5)
    Y = drop_labels(Y, 0.4, seed=6)
    Y[:10] = [1.5, 1.5, 3, 4, 5]  # ties (partial rankings: the Mallows centre asked for, not the bucket order)
    queries, _ = problem(7, n=50)
    model = IBLR(n_neighbors=7, weights=weights, consensus="aggregate").fit(X, Y)
    predicted, theta = model.predict_with_reliability(queries)
    np.testing.assert_array_equal(np.sort(predicted, axis=1), np.tile(np.arange(1.0, 6), (50, 1)))
    assert predicted.shape == (50, 5) and theta.shape == (50,)
    assert (theta >= 0).all()


def test_theta_is_infinite_when_the_neighbours_agree_and_finite_otherwise():
    X = np.array([[0.0], [0.1], [0.2], [10.0], [10.1], [10.2]])
    Y = np.array([[2, 1, 3]] * 3 + [[1, 2, 3], [2, 1, 3], [1, 2, 3]], dtype=float)
    model = IBLR(n_neighbors=3).fit(X, Y)
    predicted, theta = model.predict_with_reliability(np.array([[0.05], [10.05]]))
    np.testing.assert_array_equal(predicted, [[2, 1, 3], [1, 2, 3]])
    assert theta[0] == np.inf
    # Near 10: weights 1, 1 (equally far), 0; the two disagree on one pair of three,
    # mean distance 1/2.
    assert np.isfinite(theta[1]) and theta[1] > 0
    assert theta[1] == pytest.approx(float(theta_from_mean_distance(0.5, 3)))


def test_blocked_fits_equal_one_big_fit(monkeypatch):
    X, Y = problem(8, n=90)
    Y = drop_labels(Y, 0.3, seed=8)
    queries, _ = problem(9, n=37)
    whole = IBLR(n_neighbors=9).fit(X, Y).predict_with_reliability(queries)
    monkeypatch.setattr(iblr_module, "_FIT_CELLS", 9 * 4 * 4 * 5)  # 5 queries per block
    blocked = IBLR(n_neighbors=9).fit(X, Y).predict_with_reliability(queries)
    np.testing.assert_array_equal(blocked[0], whole[0])
    np.testing.assert_array_equal(blocked[1], whole[1])


def test_k_larger_than_the_training_set_uses_every_row():
    X, Y = problem(10, n=6)
    model = IBLR(n_neighbors=50, weights="uniform").fit(X, Y)
    assert model.n_neighbors_ == 6
    np.testing.assert_array_equal(model.predict(X.iloc[:2]), np.tile(borda_center(Y), (2, 1)))


def test_kendall_tau_of_incomplete_rows_equals_scipy_over_present_labels():
    """The inner CV scores incomplete held-out rankings with metrics.kendall_tau, vectorised."""
    from scipy.stats import kendalltau

    rng = np.random.default_rng(11)
    Y = drop_labels(np.vstack([rng.permutation(6) + 1.0 for _ in range(300)]), 0.5, seed=11)
    Y[:20] = [1.5, 1.5, 3, 4, 5.5, 5.5]
    predicted = np.vstack([rng.permutation(6) + 1.0 for _ in range(300)])
    taus = kendall_tau(Y, predicted)
    for row, pred, tau in zip(Y, predicted, taus):
        present = ~np.isnan(row)
        if present.sum() < 2:
            assert np.isnan(tau)
        else:
            assert tau == pytest.approx(kendalltau(row[present], pred[present]).statistic, abs=1e-12)


# --- choosing k ------------------------------------------------------------------------


def test_auto_chooses_a_small_k_for_sharp_local_structure():
    rng = np.random.default_rng(0)
    x = rng.uniform(size=240)
    # 40 narrow bins of x, each with its own ranking: only the nearest rows know it.
    Y = PERMS4[(np.floor(x * 40).astype(int) * 7) % 24]
    model = IBLR(n_neighbors="auto").fit(x[:, None], Y)
    assert model.n_neighbors_ <= 5
    assert list(model.cv_scores_) == list(DEFAULT_K_GRID)


def test_auto_chooses_a_large_k_for_noise_around_one_centre():
    rng = np.random.default_rng(0)
    # A third of the rankings are the centre, the rest uniform noise, whatever x is.
    Y = np.where(rng.random(240)[:, None] < 0.35, PERMS4[5], PERMS4[rng.integers(24, size=240)])
    model = IBLR(n_neighbors="auto").fit(rng.uniform(size=(240, 2)), Y)
    assert model.n_neighbors_ >= 51


@pytest.mark.parametrize("missing, params", [
    (0.3, {}),  # incomplete rankings: the EM's centres, fitted for each k
    (0.0, {}),  # complete: Borda totals of every k from running sums
    (0.0, {"weights": "uniform"}),
    (0.0, {"tie_tolerance": 0.3}),
])
def test_cv_scores_equal_a_manual_inner_cross_validation(missing, params):
    """k and the attributes' scaling chosen together: the scores of each (scaling, k) are those of
    fixed-k models on the inner folds, and the model takes the best pair (min-max first among equals)."""
    X, Y = problem(12, n=70)
    Y = drop_labels(Y, missing, seed=12) if missing else Y
    grid = (1, 2, 4, 9, 30)
    model = IBLR(n_neighbors="auto", k_grid=grid, inner_folds=4, random_state=3, **params).fit(X, Y)
    assert list(model.cv_scores_) == list(grid)
    manual = {}
    for scaling in ("minmax", "standard"):
        for k in grid:
            taus = []
            for test in fold_indices(len(Y), 4, 3):
                train = np.setdiff1d(np.arange(len(Y)), test)
                fitted = IBLR(n_neighbors=k, scaling=scaling, **params).fit(X.iloc[train], Y[train])
                taus.append(kendall_tau(Y[test], fitted.predict(X.iloc[test])))
            manual[scaling, k] = np.nanmean(np.concatenate(taus))
    scaling, best = max(manual, key=lambda key: (manual[key], key[0] == "minmax", -key[1]))
    assert model.scaling_ == scaling and model.n_neighbors_ == best
    for k in grid:
        assert model.cv_scores_[k] == pytest.approx(manual[scaling, k], abs=1e-12)
    # The final model uses the chosen k and scaling.
    np.testing.assert_array_equal(model.predict(X), IBLR(n_neighbors=best, scaling=scaling, **params).fit(X, Y)
                                  .predict(X))


def test_standardised_distances_equal_scikit_learns_standard_scaler():
    X, Y = problem(3, nominal=False)
    query = X.iloc[:15] * 1.1 + 0.3
    indices, distances = IBLR(n_neighbors=4, scaling="standard").fit(X, Y).kneighbors(query, return_distance=True)
    scaler = StandardScaler().fit(X)
    their_d, their_i = NearestNeighbors(n_neighbors=4).fit(scaler.transform(X)).kneighbors(
        scaler.transform(query))
    np.testing.assert_array_equal(indices, their_i)
    np.testing.assert_allclose(distances, their_d, atol=1e-9)


def test_auto_scaling_standardises_an_attribute_with_an_outlier():
    """The ranking follows attribute "a" in [0, 1]; one row's "a" is 30. Min-max squeezes every
    other row's "a" into a thirtieth of [0, 1], so the noise attribute "b" picks the neighbours;
    standardised (the outlier makes the deviation about 2), "a" keeps half its say. The inner CV
    sees it and standardises."""
    rng = np.random.default_rng(7)
    a, b = rng.uniform(size=200), rng.uniform(size=200)
    Y = np.where(a[:, None] < 0.5, PERMS4[0], PERMS4[23])
    a[0] = 30.0
    X = pd.DataFrame({"a": a, "b": b})
    model = IBLR(n_neighbors="auto").fit(X, Y)
    minmax = IBLR(n_neighbors="auto", scaling="minmax").fit(X, Y)
    assert model.scaling_ == "standard" and minmax.scaling_ == "minmax"
    assert max(model.cv_scores_.values()) > max(minmax.cv_scores_.values()) + 0.1  # measured .90 and .70
    assert IBLR(n_neighbors=5).fit(X, Y).scaling_ == "minmax"  # a fixed k: no inner CV, min-max
    # KNNRanker chooses the same way when asked; by default it keeps the baseline's min-max.
    assert KNNRanker(n_neighbors="auto", scaling="auto").fit(X, Y).scaling_ == "standard"
    assert KNNRanker(n_neighbors="auto").fit(X, Y).scaling_ == "minmax"


def test_auto_grid_is_capped_at_the_inner_training_size():
    X, Y = problem(13, n=20)
    model = IBLR(n_neighbors="auto").fit(X, Y)  # 5 inner folds of 4: 16 training rows
    assert list(model.cv_scores_) == [1, 3, 5, 7, 9, 11, 15, 16]
    assert model.n_neighbors_ in model.cv_scores_


def test_auto_is_reproducible_with_random_state():
    X, Y = problem(14, n=60)
    first = IBLR(n_neighbors="auto", random_state=5).fit(X, Y)
    again = IBLR(n_neighbors="auto", random_state=5).fit(X, Y)
    other = IBLR(n_neighbors="auto", random_state=6).fit(X, Y)
    assert first.cv_scores_ == again.cv_scores_ and first.n_neighbors_ == again.n_neighbors_
    np.testing.assert_array_equal(first.predict(X), again.predict(X))
    assert first.cv_scores_ != other.cv_scores_


@pytest.mark.parametrize("params, message", [
    ({"n_neighbors": 0}, "n_neighbors"),
    ({"n_neighbors": "many"}, "n_neighbors"),
    ({"n_neighbors": 2.5}, "n_neighbors"),
    ({"weights": "distance"}, "weights"),
    ({"scaling": "robust"}, "scaling"),
    ({"n_neighbors": "auto", "inner_folds": 1}, "inner_folds"),
    ({"n_neighbors": "auto", "k_grid": ()}, "k_grid"),
    ({"n_neighbors": "auto", "k_grid": (3, 0)}, "k_grid"),
])
def test_invalid_parameters_are_rejected(params, message):
    X, Y = problem(15, n=10)
    with pytest.raises(ValueError, match=message):
        IBLR(**params).fit(X, Y)


def test_rankings_are_validated():
    X, _ = problem(16, n=3)
    with pytest.raises(ValueError, match="infinite"):
        IBLR().fit(X, np.array([[1, np.inf, 3], [1, 2, 3], [1, 2, 3]]))
    with pytest.raises(ValueError):
        IBLR().fit(X, np.array([[1, 2], [1, 2]]))


# --- benchmark -------------------------------------------------------------------------


def test_iris_ten_fold_kendall_tau_is_near_the_published_value(benchmark_data):
    data = load_benchmark(benchmark_data / "iris.csv")
    taus = []
    for test in fold_indices(len(data.Y), 10, 0):
        train = np.setdiff1d(np.arange(len(data.Y)), test)
        model = IBLR(n_neighbors="auto").fit(data.X.iloc[train], data.Y[train])
        taus.append(kendall_tau(data.Y[test], model.predict(data.X.iloc[test])))
    assert np.mean(np.concatenate(taus)) >= 0.93  # published: .966


def test_the_k_grid_extends_itself_when_its_largest_k_wins():
    """Rankings that are noise around one centre: the more neighbours the better, past the default grid's 101."""
    from rankviz.label_ranking.neighbourhood_size import DEFAULT_K_GRID

    rng = np.random.default_rng(0)
    X = rng.random((600, 2))
    Y = np.tile([1.0, 2.0, 3.0], (600, 1))
    Y[rng.random(600) < 0.45] = [2.0, 1.0, 3.0]
    model = IBLR(n_neighbors="auto").fit(X, Y)
    tried = sorted(model.cv_scores_)
    assert tried[:len(DEFAULT_K_GRID)] == list(DEFAULT_K_GRID)
    assert tried[len(DEFAULT_K_GRID):] == [152, 202]  # 1.5 and 2 times 101, once
    assert model.n_neighbors_ == 152 and model.n_neighbors_ < tried[-1]  # the best is inside the grid now
    assert model.cv_scores_[152] > model.cv_scores_[101] == max(model.cv_scores_[k] for k in DEFAULT_K_GRID)
