"""Xia, Zhang & Wang (2006): ranking impurity and Gini, ordinal trees, the generator, prediction rules.

References are written from the paper's definitions with explicit loops over
pairs and levels; scikit-learn's Gini tree computes the same thing as ours.
"""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import norm, rankdata
from sklearn.tree import DecisionTreeClassifier

from rankviz import OrdinalDefault, OrdinalKNN, OrdinalTree, RankingTree
from rankviz.tree.criteria import Gini, RankingImpurity, get_criterion
from rankviz.ordinal.levels import OrdinalLevels, mean_rank_loss, median_level, mode_level
from rankviz.ordinal.synthetic import (DEFAULT_THRESHOLDS, PRINTED_THRESHOLDS, add_label_noise,
                               make_ordinal_square)
from rankviz.experiments.teaching import figure1_splits, impurities_of_counts
from reference import random_problem, widest_of_the_best


# -- references from the definitions -------------------------------------------

def rank_impurity(values):
    """Definition 2: sum over pairs of the distance of their ranks (NaN rows skipped)."""
    v = [x for x in values if not np.isnan(x)]
    return sum(abs(a - b) for a, b in itertools.combinations(v, 2))


def gini_impurity(values):
    """Definition 1: sum_i sum_{j != i} p_i p_j."""
    v = np.array([x for x in values if not np.isnan(x)])
    if not len(v):
        return 0.0
    p = np.array([np.mean(v == level) for level in np.unique(v)])
    return sum(p[i] * p[j] for i in range(len(p)) for j in range(len(p)) if i != j)


def random_targets(rng, n, n_labels, missing=False, fractional=False):
    Y = rng.integers(1, 6, size=(n, n_labels)).astype(float)
    if fractional:
        Y[rng.random(Y.shape) < 0.3] += 0.5
    if missing:
        Y[rng.random(Y.shape) < 0.2] = np.nan
    return Y


# -- criteria --------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(30))
def test_impurities_from_summed_statistics_match_the_definitions(seed):
    rng = np.random.default_rng(seed)
    n, n_labels = rng.integers(1, 14), rng.integers(1, 4)
    Y = random_targets(rng, n, n_labels, missing=seed % 3 == 0, fractional=seed % 4 == 1)
    rows = rng.random(n) < 0.6
    for criterion, reference in ((RankingImpurity(), rank_impurity), (Gini(), gini_impurity)):
        stats = criterion.row_statistics(Y)
        got = criterion.impurity(rows.sum(), stats[rows].sum(axis=0))
        want = sum(reference(Y[rows, label]) for label in range(n_labels))
        assert got == pytest.approx(want, abs=1e-9), criterion.name


@pytest.mark.parametrize("seed", range(10))
def test_similarities_are_one_minus_normalised_impurity(seed):
    rng = np.random.default_rng(100 + seed)
    Y = random_targets(rng, 12, 3)
    levels = np.unique(Y)
    span, k = levels[-1] - levels[0], len(levels)
    ri, gini = RankingImpurity(), Gini()
    s_ri, s_gini = ri.row_statistics(Y), gini.row_statistics(Y)
    for rows in (rng.random(12) < 0.5, np.ones(12, bool)):
        n = rows.sum()
        worst = span * 3 * n * (n - 1) / 2
        expected_ri = 1.0 if worst == 0 else 1 - sum(rank_impurity(Y[rows, j]) for j in range(3)) / worst
        assert ri.node_similarity(n, s_ri[rows].sum(0)) == pytest.approx(expected_ri)
        expected_gini = 1 - np.mean([gini_impurity(Y[rows, j]) for j in range(3)]) / (1 - 1 / k)
        assert gini.node_similarity(n, s_gini[rows].sum(0)) == pytest.approx(expected_gini)
    # A pure set is perfectly similar, for both.
    pure = np.full((5, 1), 3.0)
    for criterion in (ri, gini):
        criterion.row_statistics(np.vstack([pure, [[1.0]]]))
        assert criterion.node_similarity(5, criterion.row_statistics(np.vstack([pure, [[1.0]]]))[:5].sum(0)) == 1.0


@pytest.mark.parametrize("seed", range(10))
def test_split_scores_order_splits_by_the_seeds_gains(seed):
    """Ranking impurity: unweighted gain of eq. (1); Gini: gain weighted by subset shares."""
    rng = np.random.default_rng(200 + seed)
    y = random_targets(rng, 15, 1)
    masks = [rng.random(15) < 0.5 for _ in range(40)]
    masks = [m for m in masks if 0 < m.sum() < 15]
    for criterion in (RankingImpurity(), Gini()):
        stats = criterion.row_statistics(y)
        total = stats.sum(axis=0)
        scores = [criterion.split_score(m.sum(), stats[m].sum(0), (~m).sum(), total - stats[m].sum(0))
                  for m in masks]
        if criterion.name == "ranking_impurity":
            gains = [rank_impurity(y[:, 0]) - rank_impurity(y[m, 0]) - rank_impurity(y[~m, 0])
                     for m in masks]
        else:
            gains = [gini_impurity(y[:, 0]) - m.mean() * gini_impurity(y[m, 0])
                     - (1 - m.mean()) * gini_impurity(y[~m, 0]) for m in masks]
        # Scores are an increasing affine function of the gains.
        slope, intercept = np.polyfit(gains, scores, 1)
        assert slope > 0
        np.testing.assert_allclose(scores, slope * np.array(gains) + intercept, atol=1e-12)
        if criterion.name == "gini":
            # The weighted gain is never negative, so rule (6)'s breakpoints never exceed 1.
            s_parent = criterion.node_similarity(15, total)
            assert (criterion.gamma_breakpoint(s_parent, np.array(scores)) <= 1 + 1e-9).all()


def test_figure_1_numbers():
    for a in (1, 3, 10):
        left, right = figure1_splits(a).to_dict("records")
        assert left["left"] == (1, 2) and right["left"] == (1, 3)
        # Equal weighted Gini: 1/2 for both splits (each child holds two ratings evenly).
        assert left["weighted_gini"] == pytest.approx(0.5) == right["weighted_gini"]
        assert left["rank_sum"] == pytest.approx(2 * a * a)
        assert right["rank_sum"] == pytest.approx(4 * a * a)
        # Parent: a^2 * (1 + 2 + 3 + 1 + 2 + 1) = 10 a^2, so the gains are 8a^2 and 6a^2.
        assert left["rank_gain"] == pytest.approx(8 * a * a)
        assert right["rank_gain"] == pytest.approx(6 * a * a)
    with pytest.raises(ValueError, match="a must be"):
        figure1_splits(0)


def test_impurities_of_counts_match_definitions():
    counts = np.array([[3, 0, 2, 1], [0, 4, 0, 0]])
    table = impurities_of_counts(counts)
    values = np.repeat([1.0, 2, 3, 4], counts[0])
    assert table["ranking_impurity"][0] == pytest.approx(rank_impurity(values))
    assert table["gini"][0] == pytest.approx(gini_impurity(values))
    assert table["ranking_impurity"][1] == 0 and table["gini"][1] == 0
    assert table["ranking_similarity"][1] == 1 and table["gini_similarity"][1] == 1


# -- trees against a brute-force TDIDT and scikit-learn ------------------------------

def similarity(values, criterion, levels):
    """1 - impurity / its maximum for a set of this size (a singleton or pure set: 1)."""
    n = len(values)
    if criterion == "ranking_impurity":
        worst = (levels[-1] - levels[0]) * n * (n - 1) / 2
        return 1.0 if worst == 0 else 1 - rank_impurity(values) / worst
    return 1 - gini_impurity(values) / (1 - 1 / len(levels))


def brute_force_ordinal_tree(x, y, criterion, gamma, min_leaf, max_depth, levels=None, depth=0):
    """Recursive TDIDT on one numeric column: the search by the gains of Xia et al., the stop by
    rule (6) on the size-weighted similarity of the subsets."""
    levels = np.unique(y) if levels is None else levels
    node = {"n": len(y), "split": None}
    impurity = rank_impurity if criterion == "ranking_impurity" else gini_impurity
    if depth == max_depth or len(y) < 2 * min_leaf or len(np.unique(y)) == 1:
        return node
    values = np.unique(x)
    candidates = []
    for lo, hi in zip(values[:-1], values[1:]):
        left = x <= (lo + hi) / 2
        if min(left.sum(), (~left).sum()) < min_leaf:
            continue
        if criterion == "ranking_impurity":
            gain = impurity(y) - impurity(y[left]) - impurity(y[~left])
        else:
            gain = impurity(y) - left.mean() * impurity(y[left]) - (1 - left.mean()) * impurity(y[~left])
        candidates.append((gain, (hi - lo) / (values[-1] - values[0]), ((lo + hi) / 2, left)))
    best = widest_of_the_best(candidates, 1e-9)
    if best is None:
        return node
    best = (best[0], *best[2])
    left = best[2]
    s_split = (left.mean() * similarity(y[left], criterion, levels)
               + (1 - left.mean()) * similarity(y[~left], criterion, levels))
    if 1 + similarity(y, criterion, levels) >= gamma * (1 + s_split) - 1e-12:  # rule (6): stop
        return node
    node["split"] = best[1]
    node["children"] = [brute_force_ordinal_tree(x[m], y[m], criterion, gamma, min_leaf, max_depth,
                                                 levels, depth + 1) for m in (left, ~left)]
    return node


def assert_same_ordinal_tree(tree, node, reference):
    assert tree.n_samples[node] == reference["n"]
    if reference["split"] is None:
        assert tree.is_leaf[node]
        return
    assert tree.threshold[node] == pytest.approx(reference["split"])
    assert_same_ordinal_tree(tree, tree.children_left[node], reference["children"][0])
    assert_same_ordinal_tree(tree, tree.children_right[node], reference["children"][1])


@pytest.mark.parametrize("criterion", ["ranking_impurity", "gini"])
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gamma,min_leaf,max_depth", [(1.0, 1, None), (0.98, 1, None), (np.inf, 2, 3)])
def test_ordinal_tree_matches_brute_force(criterion, seed, gamma, min_leaf, max_depth):
    rng = np.random.default_rng(seed)
    x = rng.integers(0, 12, size=40).astype(float)  # repeated values: ties in x
    y = np.clip(np.round(x / 3 + rng.normal(0, 1, 40)), 1, 5).astype(float)
    model = OrdinalTree(criterion, max_depth=max_depth, min_samples_leaf=min_leaf,
                        gamma=gamma).fit(x[:, None], y)
    reference = brute_force_ordinal_tree(x, y, criterion, gamma, min_leaf,
                                         np.inf if max_depth is None else max_depth)
    assert_same_ordinal_tree(model.tree_, 0, reference)


@pytest.mark.parametrize("seed", range(3))
def test_gini_tree_equals_scikit_learn(seed):
    """Weighted Gini gain is scikit-learn's criterion: same splits, same mode predictions."""
    X, y = make_ordinal_square(400, seed=seed)
    ours = OrdinalTree("gini", max_depth=4, prediction="mode", gamma=np.inf).fit(X, y)
    theirs = DecisionTreeClassifier(criterion="gini", max_depth=4, random_state=0).fit(X.to_numpy(), y)
    X_test, _ = make_ordinal_square(500, seed=seed + 50)
    np.testing.assert_array_equal(ours.predict(X_test), theirs.predict(X_test.to_numpy()))
    assert ours.tree_.n_leaves == theirs.get_n_leaves()
    np.testing.assert_allclose(np.sort(ours.tree_.threshold[~ours.tree_.is_leaf]),
                               np.sort(theirs.tree_.threshold[theirs.tree_.children_left >= 0]))


def test_ranking_impurity_groups_close_ranks_where_gini_is_indifferent():
    """Fig. 1 as data: ratings 1..4, a rows each; one attribute sorts {1,2} | {3,4}, another {1,3} | {2,4}."""
    a = 5
    y = np.repeat([1, 2, 3, 4], a)
    X = pd.DataFrame({"odd_even": np.isin(y, [1, 3]).astype(float),   # first column: wins Gini ties
                      "low_high": np.isin(y, [1, 2]).astype(float)})
    ri = OrdinalTree("ranking_impurity", max_depth=1).fit(X, y)
    gini = OrdinalTree("gini", max_depth=1).fit(X, y)
    assert ri.tree_.feature_names[ri.tree_.feature[0]] == "low_high"
    assert gini.tree_.feature_names[gini.tree_.feature[0]] == "odd_even"  # a tie, kept by order


# -- prediction rules ------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_median_minimises_absolute_loss_and_mode_is_most_frequent(seed):
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, size=5)
    counts[rng.integers(5)] += 1
    loss = [sum(c * abs(level - j) for j, c in enumerate(counts)) for level in range(5)]
    assert loss[median_level(counts)] == min(loss)
    assert median_level(counts) == min(np.flatnonzero(np.isclose(loss, min(loss))))  # the lower one
    assert mode_level(counts) == np.flatnonzero(counts == counts.max())[0]


def test_leaves_predict_median_or_mode_of_their_rows():
    X, y = make_ordinal_square(300, seed=4, label_noise=0.3)
    for rule in ("median", "mode"):
        model = OrdinalTree(max_depth=3, prediction=rule).fit(X, y)
        leaves = model.apply(X)
        for leaf in np.unique(leaves):
            counts = np.bincount(y[leaves == leaf] - 1, minlength=5)
            np.testing.assert_array_equal(model.tree_.class_counts[leaf], counts)
            expected = median_level(counts) if rule == "median" else mode_level(counts)
            assert model.predict(X[leaves == leaf].iloc[:1])[0] == expected + 1


def test_node_counts_add_up_and_survive_cuts():
    X, y = make_ordinal_square(500, seed=5)
    tree = OrdinalTree(max_depth=5).fit(X, y).tree_
    internal = np.flatnonzero(~tree.is_leaf)
    np.testing.assert_array_equal(tree.class_counts[internal],
                                  tree.class_counts[tree.children_left[internal]]
                                  + tree.class_counts[tree.children_right[internal]])
    np.testing.assert_array_equal(tree.class_counts.sum(axis=1), tree.n_samples)
    cut, kept = tree.keep_splits([0])
    np.testing.assert_array_equal(cut.class_counts, tree.class_counts[kept])


def test_predict_by_depth_equals_refits_with_smaller_depth():
    X, y = make_ordinal_square(800, seed=6, label_noise=0.1)
    X_test, _ = make_ordinal_square(300, seed=7)
    for criterion in ("ranking_impurity", "gini"):
        deep = OrdinalTree(criterion, max_depth=6).fit(X, y)
        by_depth = deep.predict_by_depth(X_test)
        for depth in range(7):
            shallow = OrdinalTree(criterion, max_depth=depth).fit(X, y)
            np.testing.assert_array_equal(by_depth[:, depth], shallow.predict(X_test))


@pytest.mark.parametrize("criterion", ["ranking_impurity", "gini"])
def test_gamma_path_cuts_equal_ordinal_trees_grown_with_that_gamma(criterion):
    X, y = make_ordinal_square(300, seed=8, label_noise=0.2)
    maximal = OrdinalTree(criterion, gamma=np.inf, min_samples_leaf=5).fit(X, y)
    path = maximal.gamma_path()
    assert len(path.breakpoints) > 3
    for gamma in (0.97, 0.99, 0.999, 1.0, 1.01):
        grown = OrdinalTree(criterion, gamma=gamma, min_samples_leaf=5).fit(X, y).tree_
        cut = path.tree_at(gamma)
        assert cut.n_leaves == grown.n_leaves
        np.testing.assert_array_equal(np.sort(cut.threshold[~cut.is_leaf]),
                                      np.sort(grown.threshold[~grown.is_leaf]))


# -- label rankings with the ordinal criteria ------------------------------------------

@pytest.mark.parametrize("criterion", ["ranking_impurity", "gini"])
def test_label_ranking_trees_with_ordinal_criteria(criterion):
    X, Y = random_problem(3, n=60, n_labels=4)
    model = RankingTree(criterion=criterion, gamma=1.0, min_samples_leaf=3).fit(X, Y)
    pred = model.predict(X)
    np.testing.assert_array_equal(np.sort(pred, axis=1), np.tile(np.arange(1, 5), (60, 1)))
    assert model.tree_.n_leaves > 1
    # The root's impurity is the sum of the per-label ordinal impurities.
    c = get_criterion(criterion)
    stats = c.row_statistics(Y)
    reference = rank_impurity if criterion == "ranking_impurity" else gini_impurity
    assert c.impurity(60, stats.sum(0)) == pytest.approx(sum(reference(Y[:, j]) for j in range(4)))


def test_ordinal_criteria_take_incomplete_rankings():
    X, Y = random_problem(5, n=50, n_labels=4)
    Y = Y.copy()
    Y[::7, [1, 3]] = np.nan  # labels 2 and 4 missing from some rankings: re-rank the rest
    Y[::7] = rankdata(Y[::7], axis=1, nan_policy="omit")
    for criterion in ("ranking_impurity", "gini"):
        tree = RankingTree(criterion=criterion, gamma=1.0, min_samples_leaf=3).fit(X, Y).tree_
        assert np.isfinite(tree.similarity).all()


# -- the generator -------------------------------------------------------------------

def expected_rank_shares(thresholds, sd=0.125, grid=1500):
    """P(rank = r) by midpoint quadrature over the unit square of Phi((b - signal) / sd)."""
    u = (np.arange(grid) + 0.5) / grid
    signal = 10 * np.outer(u - 0.5, u - 0.5)
    bounds = list(thresholds[1:]) + [np.inf]
    at_or_below = [norm.cdf((b - signal) / sd).mean() for b in bounds]  # P(v <= b_{r+1})
    return np.diff(np.r_[0.0, at_or_below])


def test_generator_rank_distribution_for_default_thresholds():
    n = 200_000
    _, y = make_ordinal_square(n, seed=11)
    observed = np.bincount(y, minlength=6)[1:] / n
    expected = expected_rank_shares(DEFAULT_THRESHOLDS)
    np.testing.assert_allclose(observed, expected, atol=4 * np.sqrt(0.25 / n))
    assert observed[0] == pytest.approx(observed[4], abs=0.005)  # the product is symmetric
    assert (observed > 0.1).all()


def test_printed_thresholds_make_rank_3_impossible():
    _, y = make_ordinal_square(50_000, thresholds=PRINTED_THRESHOLDS, seed=12)
    counts = np.bincount(y, minlength=6)
    assert counts[3] == 0 and (counts[[1, 2, 4, 5]] > 0).all()


def test_label_noise_moves_to_adjacent_ranks_with_probability_sigma():
    rng = np.random.default_rng(13)
    y = rng.integers(1, 6, size=100_000)
    moved = add_label_noise(y, 0.3, 5, rng)
    step = moved - y
    assert set(np.unique(step)) == {-1, 0, 1}
    assert np.mean(step != 0) == pytest.approx(0.3, abs=0.01)
    assert (moved >= 1).all() and (moved <= 5).all()
    assert (step[y == 1] >= 0).all() and (step[y == 5] <= 0).all()


# -- levels, baselines, loss ---------------------------------------------------------------

def test_levels_from_names_numbers_and_categoricals():
    names = ["good", "poor", "fair", "good"]
    with pytest.raises(ValueError, match="pass the levels in their order"):
        OrdinalTree().fit(np.arange(4.0)[:, None], names)
    model = OrdinalTree(max_depth=0).set_params(levels=["poor", "fair", "good"]).fit(np.arange(4.0)[:, None], names)
    assert model.classes_ == ["poor", "fair", "good"]
    # Positions 3, 1, 2, 3: the median lies between 2 and 3; the lower one is taken.
    assert model.predict([[0.0]])[0] == "fair"
    assert OrdinalTree(max_depth=0, prediction="mode").set_params(levels=["poor", "fair", "good"]).fit(
        np.arange(4.0)[:, None], names).predict([[0.0]])[0] == "good"
    with pytest.raises(ValueError, match="row 2 holds 'bad'"):
        OrdinalLevels(["poor", "good"], [1, 2]).encode(["poor", "bad"])
    ordered = pd.Series(pd.Categorical(["lo", "hi", "mid"], categories=["lo", "mid", "hi"], ordered=True))
    assert OrdinalLevels.from_target(ordered).names == ["lo", "mid", "hi"]
    numeric = OrdinalLevels.from_target([3, 1, 4])
    assert numeric.names == [1, 3, 4] and list(numeric.positions) == [1, 3, 4]


def test_baselines_knn_and_default():
    X = pd.DataFrame({"x": [0.0, 1.0, 2.0, 10.0, 11.0]})
    y = np.array([1, 2, 2, 5, 4])
    knn = OrdinalKNN(n_neighbors=1).fit(X, y)
    np.testing.assert_array_equal(knn.predict(pd.DataFrame({"x": [0.2, 10.4, 10.6]})), [1, 5, 4])
    knn3 = OrdinalKNN(n_neighbors=3).fit(X, y)
    assert knn3.predict(pd.DataFrame({"x": [10.5]}))[0] == 4  # median of 5, 4, 2
    default = OrdinalDefault().fit(X, y)
    np.testing.assert_array_equal(default.predict(X), [2] * 5)  # median of 1, 2, 2, 4, 5
    assert mean_rank_loss([1, 2, 3], [1, 4, 2]) == pytest.approx(1.0)


@pytest.mark.parametrize("criterion", ["ranking_impurity", "gini"])
def test_inspector_ranks_candidates_as_the_search_and_shows_the_rule_6_score(criterion):
    from rankviz.tree.node_inspection import inspect_node
    X, Y = random_problem(6, n=70, n_labels=4)
    model = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=3).fit(X, Y)
    tree, X_enc = model.tree_, model.encoder_.transform(X)
    for node in np.flatnonzero(~tree.is_leaf):
        inspection = inspect_node(tree, X_enc, Y, node, min_samples_leaf=3)
        best = inspection.candidates.iloc[0]
        assert (best["feature"], best["threshold"]) == (tree.feature[node], tree.threshold[node])
        assert best["score"] == pytest.approx(tree.split_score[node], abs=1e-12)
        assert inspection.similarity == pytest.approx(tree.similarity[node], abs=1e-12)
        # S_split is the size-weighted mean of the two subsets' similarities.
        n = best["n_meet"] + best["n_rest"]
        assert best["score"] == pytest.approx(
            (best["n_meet"] * best["similarity_meet"] + best["n_rest"] * best["similarity_rest"]) / n)
        assert ("search_score" in inspection.candidates) == (criterion == "ranking_impurity")


def test_three_ratings_splits_follow_section_III():
    """Xia et al., §III: ranking impurity separates rating 2 out only when N2 > 2 N1 and N2 > 2 N3."""
    from rankviz.experiments.teaching import three_ratings_splits
    table = three_ratings_splits([10, 30, 10])
    assert list(table["split"]) == ["{1} | {2, 3}", "{2} | {1, 3}", "{1, 2} | {3}"]
    # {2} | {1, 3}: the children keep 2 * 10 * 10 = 200 of the parent's 10*30 + 30*10 + 2*10*10 = 800
    assert table["I_rank(T_L) + I_rank(T_R)"].tolist() == [300.0, 200.0, 300.0]
    assert table["ranking impurity picks"].tolist() == [False, True, False]
    assert three_ratings_splits([10, 20, 10])["ranking impurity picks"].tolist() == [True, True, True]
    assert three_ratings_splits([10, 15, 10])["ranking impurity picks"].tolist() == [True, False, True]
    assert three_ratings_splits([10, 10, 10])["Gini picks"].tolist() == [True, True, True]
    assert not three_ratings_splits([0, 10, 10])["ranking impurity picks"].iloc[0]  # nothing sent left
