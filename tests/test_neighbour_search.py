"""The candidate search of NeighbourIndex (SciPy's KD-tree, scikit-learn's ball tree or brute force) against the exhaustive one.

Every algorithm must return the neighbours, their order and their ties that
computing every distance returns: the k-NN rankers' predictions must not
depend on which one ran.
"""

import pickle

import numpy as np
import pandas as pd
import pytest

from rankviz import IBLR, KNNRanker, jit
from rankviz import neighbours as neighbours_module
from rankviz.neighbours import ALGORITHMS, NeighbourIndex

SEARCHES = [a for a in ALGORITHMS if a not in ("auto", "exhaustive")]


def tied_table(rng, n):
    """Numeric attributes on a small grid (many equal distances), a nominal one, missing values, duplicated rows."""
    X = pd.DataFrame({"a": rng.integers(0, 4, n).astype(float), "b": rng.integers(0, 3, n).astype(float),
                      "colour": rng.choice(["red", "green", "blue"], n), "c": rng.normal(size=n).round(1)})
    X.loc[rng.random(n) < 0.15, "a"] = np.nan
    X.loc[rng.random(n) < 0.1, "colour"] = None
    duplicated = rng.integers(0, n, n // 5)
    X.iloc[rng.integers(0, n, n // 5)] = X.iloc[duplicated].to_numpy()
    return X


@pytest.mark.parametrize("algorithm", SEARCHES)
@pytest.mark.parametrize("scaling", ["minmax", "standard"])
def test_every_search_finds_the_exhaustive_neighbours_on_ties_nominal_and_missing_values(algorithm, scaling):
    rng = np.random.default_rng(len(algorithm) + len(scaling))
    for n in (3, 40, 300):
        X = tied_table(rng, n)
        queries = pd.concat([X.iloc[rng.integers(0, n, 30)], tied_table(rng, 30)], ignore_index=True)
        for k in (1, 2, 5, 17, 60):
            indices, distances = NeighbourIndex(X, k, scaling, "exhaustive").kneighbors(queries, True)
            their_indices, their_distances = NeighbourIndex(X, k, scaling, algorithm).kneighbors(queries, True)
            np.testing.assert_array_equal(their_indices, indices)
            # the same squared distances but for a rounding of the last bit (before rounding to 1e-12)
            np.testing.assert_allclose(their_distances, distances, rtol=0, atol=1e-6)


def test_the_search_equals_a_stable_sort_of_every_distance_on_a_large_grid(monkeypatch):
    """Above the size where "auto" takes candidates from scikit-learn, with more points at one distance than k + 1."""
    rng = np.random.default_rng(0)
    X = rng.integers(0, 6, size=(1_500, 3)).astype(float)  # 216 cells: about 7 rows per cell, ties everywhere
    X[:500] += rng.uniform(size=(500, 3)) * 1e-3  # and a part without exact ties
    queries = np.vstack([X[rng.integers(0, len(X), 40)], rng.uniform(0, 5, size=(40, 3))])
    index = NeighbourIndex(X, 9)
    assert index._search is not None
    points = (X - X.min(axis=0)) / np.ptp(X, axis=0)
    scaled = (queries - X.min(axis=0)) / np.ptp(X, axis=0)
    sq = ((scaled[:, None, :] - points[None, :, :]) ** 2).sum(axis=2).round(12)
    expected = np.argsort(sq, axis=1, kind="stable")[:, :9]
    found, distances = index.kneighbors(queries, return_distance=True)
    np.testing.assert_array_equal(found, expected)
    np.testing.assert_allclose(distances, np.sqrt(np.take_along_axis(sq, expected, axis=1)), atol=1e-6)


def test_rows_with_more_ties_than_candidates_fall_back_to_every_distance():
    """50 copies of one row: its k-th neighbour ties with points beyond 2k + 8 candidates; the lowest indices win."""
    rng = np.random.default_rng(1)
    X = np.vstack([rng.uniform(size=(1_200, 2)), np.tile([[0.5, 0.5]], (50, 1))])
    copies = np.arange(1_200, 1_250)
    for algorithm in SEARCHES:
        found = NeighbourIndex(X, 5, algorithm=algorithm).kneighbors([[0.5, 0.5]])
        np.testing.assert_array_equal(found[0], copies[:5])


def test_knn_and_iblr_predict_the_same_whichever_search_runs(monkeypatch):
    rng = np.random.default_rng(2)
    X = tied_table(rng, 400)
    Y = np.argsort(np.argsort(rng.normal(size=(400, 5)) + np.outer(X["b"].to_numpy(), np.arange(5)), axis=1),
                   axis=1) + 1.0
    Y[rng.random(Y.shape) < 0.1] = np.nan  # incomplete rankings (IBLR's EM)
    queries = tied_table(rng, 120)
    models = [IBLR(n_neighbors=7), KNNRanker(n_neighbors=7), IBLR(n_neighbors="auto", inner_folds=3)]
    exhaustive = [model.fit(X, Y).predict(queries) for model in models]
    monkeypatch.setattr(neighbours_module, "_POINTS_PER_CANDIDATE", 0)  # a search for every k and size
    searched = [model.fit(X, Y) for model in models]
    for model, expected in zip(searched, exhaustive):
        np.testing.assert_array_equal(model.predict(queries), expected)
    assert searched[2].n_neighbors_ == models[2].fit(X, Y).n_neighbors_


def test_an_index_with_a_search_survives_pickling():
    rng = np.random.default_rng(3)
    X = rng.uniform(size=(1_100, 4))
    Y = np.argsort(rng.normal(size=(1_100, 4)), axis=1) + 1.0
    model = IBLR(n_neighbors=5).fit(X, Y)
    assert model._index._search is not None
    np.testing.assert_array_equal(pickle.loads(pickle.dumps(model)).predict(X[:50]), model.predict(X[:50]))


def test_an_unknown_algorithm_is_refused_by_name():
    with pytest.raises(ValueError, match="algorithm must be one of"):
        NeighbourIndex(np.zeros((3, 1)), 1, algorithm="annoy")


def test_neighbour_sums_equal_the_sums_of_each_neighbourhood_size():
    from rankviz.label_ranking.neighbourhood_size import neighbour_sums

    rng = np.random.default_rng(4)
    values = rng.normal(size=(50, 3))
    neighbours = rng.integers(0, 50, size=(7, 20))
    factor = rng.uniform(size=(7, 20))
    sizes = [1, 2, 5, 6, 20]
    plain, weighted = neighbour_sums(values, neighbours, sizes, factors=[factor])
    for g, k in enumerate(sizes):
        np.testing.assert_allclose(plain[g], values[neighbours[:, :k]].sum(axis=1), atol=1e-12)
        np.testing.assert_allclose(weighted[g], (factor[:, :k, None] * values[neighbours[:, :k]]).sum(axis=1),
                                   atol=1e-12)


@pytest.mark.parametrize("margin", [0.0, 1e9])  # the trial keeps brute force / always takes the tree
def test_the_auto_trial_of_the_tree_against_brute_force_finds_the_same_neighbours(monkeypatch, margin):
    monkeypatch.setattr(neighbours_module, "_TRIAL_MARGIN", margin)
    rng = np.random.default_rng(5)
    X = tied_table(rng, 2_000)  # 8 embedded dimensions: the rule chooses brute force below 32 * 2^8 rows
    X["d"], X["e"] = rng.normal(size=2_000).round(2), rng.integers(0, 5, 2_000).astype(float)
    queries = pd.concat([X.iloc[rng.integers(0, 2_000, 600)], tied_table(rng, 600).assign(d=0.5, e=2.0)],
                        ignore_index=True)
    index = NeighbourIndex(X, 7)
    found = index.kneighbors(queries, True)
    chosen = type(index._search).__name__
    assert chosen == ("_TreeCandidates" if margin else "NearestNeighbors")
    expected = NeighbourIndex(X, 7, algorithm="exhaustive").kneighbors(queries, True)
    np.testing.assert_array_equal(found[0], expected[0])
    np.testing.assert_array_equal(found[1], expected[1])
    again = pickle.loads(pickle.dumps(index)).kneighbors(queries.iloc[:50], True)  # the choice is kept, and pickles
    np.testing.assert_array_equal(again[0], expected[0][:50])


def exhaustive_neighbours(X, k, queries, scaling, mode):
    """The exhaustive search's neighbours and distances, chosen in compiled code ("wait") or with NumPy ("never")."""
    previous = jit.set_compile_mode(mode)
    try:
        return NeighbourIndex(X, k, scaling, "exhaustive").kneighbors(queries, True)
    finally:
        jit.set_compile_mode(previous)


@pytest.mark.parametrize("scaling", ["minmax", "standard"])
def test_the_compiled_choice_among_every_distance_is_numpys_bit_for_bit(scaling):
    """Ties on a grid, duplicated rows (crowded k-th distances), nominal and missing values; k = 1 to every row."""
    rng = np.random.default_rng(6)
    for n in (1, 3, 40, 300):
        X = tied_table(rng, n)
        queries = pd.concat([X.iloc[rng.integers(0, n, 30)], tied_table(rng, 30)], ignore_index=True)
        for k in sorted({1, 2, 5, 17, 60, min(n, 64), 65}):
            indices, distances = exhaustive_neighbours(X, k, queries, scaling, "never")
            their_indices, their_distances = exhaustive_neighbours(X, k, queries, scaling, "wait")
            np.testing.assert_array_equal(their_indices, indices)
            np.testing.assert_array_equal(their_distances, distances)


def test_the_compiled_choice_is_a_stable_sort_of_every_rounded_distance_and_leaves_crowded_rows():
    """Against the sort of all distances; a row whose k-th distance more points share than places are left is
    handed back (its tied points are measured again), the others are not."""
    from rankviz import neighbour_kernels

    rng = np.random.default_rng(7)
    points = np.vstack([rng.integers(0, 4, size=(60, 2)) / 3, rng.uniform(size=(200, 2))])
    queries = np.vstack([points[:40], rng.uniform(size=(40, 2))])
    k = 3  # a grid point has 3.75 copies on average
    products = queries @ (-2.0 * points).T
    query_sq, point_sq = (queries ** 2).sum(axis=1), (points ** 2).sum(axis=1)
    sq = np.round(np.maximum((products + query_sq[:, None]) + point_sq[None, :], 0.0), 12)
    expected = np.argsort(sq, axis=1, kind="stable")[:, :k]
    kth = np.take_along_axis(sq, expected[:, -1:], axis=1)
    should_crowd = (sq == kth).sum(axis=1) > (np.take_along_axis(sq, expected, axis=1) == kth).sum(axis=1)
    nearest, distance = np.empty((len(queries), k), dtype=np.intp), np.empty((len(queries), k))
    crowded = np.empty(len(queries), dtype=np.intp)
    n_crowded = neighbour_kernels.nearest_of_rows(products, query_sq, point_sq, k, nearest, distance, crowded)
    np.testing.assert_array_equal(crowded[:n_crowded], np.flatnonzero(should_crowd))
    assert 10 < n_crowded < 40  # the grid's copies crowd, the uniform rows do not
    fine = ~should_crowd
    np.testing.assert_array_equal(nearest[fine], expected[fine])
    np.testing.assert_array_equal(distance[fine], np.sqrt(np.take_along_axis(sq, expected, axis=1))[fine])


def test_a_search_that_computes_no_distance_table_does_not_start_the_kernels_build(monkeypatch):
    """On a fresh machine the first ask starts a background build (about a second of CPU): only a choice among
    every distance asks, not a KD-tree search whose candidates settle every row."""
    kernels = neighbours_module.KERNELS
    monkeypatch.setattr(kernels, "_ready", False)
    monkeypatch.setattr(kernels, "_thread", None)
    monkeypatch.setattr(kernels, "is_cached", lambda: False)
    monkeypatch.setattr(kernels, "_build_in_background", lambda: None)  # the thread starts, builds nothing
    previous = jit.set_compile_mode("background")
    try:
        X = np.random.default_rng(8).uniform(size=(5_000, 3))
        NeighbourIndex(X, 10).kneighbors(X[:200])  # a KD-tree's candidates settle every row
        assert kernels._thread is None
        NeighbourIndex(X[:300], 10).kneighbors(X[:20])  # too few rows for a search: every distance
        assert kernels._thread is not None
    finally:
        jit.set_compile_mode(previous)
