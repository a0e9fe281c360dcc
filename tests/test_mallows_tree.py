"""Label ranking trees with the Mallows criterion (Cheng, Hühn & Hüllermeier 2009, §5) against direct computation."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from rankviz import RankingTree
from rankviz.tree.criteria import Mallows
from rankviz.label_ranking.mallows import fit_mallows, kendall_distance, theta_from_mean_distance
from rankviz.tree.mallows_nodes import complete_from_ancestors

from reference import candidate_tests, random_problem


def drop(Y, rate, seed):
    """Delete labels at random and re-rank what is left (the protocol of Cheng et al.)."""
    rng = np.random.default_rng(seed)
    Y = Y.copy()
    Y[rng.random(Y.shape) < rate] = np.nan
    for row in Y:
        present = ~np.isnan(row)
        row[present] = np.argsort(np.argsort(row[present])) + 1.0
    return Y


def direct_theta(Y, floor=0.0):
    """θ of a complete set from its Borda centre, with the search's pure-set floor."""
    fit = fit_mallows(Y)
    total = kendall_distance(Y, fit.center).sum()
    return float(theta_from_mean_distance(max(total, floor) / len(Y), Y.shape[1]))


@pytest.mark.parametrize("split", ["variance", "spread", "impurity"])
@pytest.mark.parametrize("seed", range(6))
def test_split_scores_are_the_weighted_variances_or_eq_6(seed, split):
    """Every candidate's running-sum score equals -(|T+| / θ+ + |T-| / θ-) / |T| (variance),
    (|T+| θ+ + |T-| θ-) / |T| (eq. 6) or -(|T+| / (1 + θ+) + |T-| / (1 + θ-)) / |T| (impurity), θ fitted
    directly."""
    X, Y = random_problem(seed, n=30, n_labels=4)
    criterion = Mallows(split=split)
    stats = criterion.row_statistics(Y)
    X_num = X[["num", "cont"]].to_numpy()
    term = {"spread": lambda theta: theta, "variance": lambda theta: -1.0 / max(theta, 1e-6),
            "impurity": lambda theta: -1.0 / (1.0 + theta)}[split]
    for f, threshold, left in candidate_tests(X_num, np.array([False, False]), 1):
        score = criterion.split_score(np.array([left.sum()]), stats[left].sum(axis=0)[None],
                                      np.array([(~left).sum()]), stats[~left].sum(axis=0)[None])[0]
        floor = 0.0 if split == "impurity" else 0.5  # a pure side's impurity is 0; its θ is finite
        expected = (left.sum() * term(direct_theta(Y[left], floor))
                    + (~left).sum() * term(direct_theta(Y[~left], floor))) / len(Y)
        assert score == pytest.approx(expected, rel=1e-9)


def test_the_variance_form_and_eq_6_choose_different_cuts():
    """Six rankings of three labels on x = 0..5 (scores checked above against direct fits). Eq. (6)
    cuts the pure trio off (x <= 2.5: its θ, 2.48 with the half-discordance floor, leads the weighted
    mean, 1.76 against 1.59 at 3.5); the weighted variance cuts at 3.5 (-0.653 against -0.680), where
    the right side is a pure pair and the left is one ranking off its centre; the weighted impurity,
    bounded, cuts the trio off again (-0.245 against -0.283 at 3.5: a pure side's impurity is 0, as in
    scikit-lr's tree, so each score is the other side's share alone)."""
    X = pd.DataFrame({"x": np.arange(6.0)})
    Y = np.array([[1, 2, 3], [1, 2, 3], [1, 2, 3], [3, 1, 2], [2, 3, 1], [2, 3, 1]], dtype=float)
    spread = RankingTree(criterion=Mallows(split="spread"), gamma=np.inf, min_samples_leaf=1, max_depth=1)
    variance = RankingTree(criterion=Mallows(split="variance"), gamma=np.inf, min_samples_leaf=1, max_depth=1)
    assert spread.fit(X, Y).tree_.threshold[0] == 2.5
    assert variance.fit(X, Y).tree_.threshold[0] == 3.5
    impurity = RankingTree(criterion=Mallows(split="impurity"), gamma=np.inf, min_samples_leaf=1, max_depth=1)
    assert impurity.fit(X, Y).tree_.threshold[0] == 2.5
    assert RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=1, max_depth=1).fit(
        X, Y).tree_.threshold[0] == 2.5  # the default is the impurity
    criterion = Mallows(split="impurity")
    stats = criterion.row_statistics(Y)
    for cut, (pure, other) in {3: (slice(0, 3), slice(3, 6)), 4: (slice(4, 6), slice(0, 4))}.items():
        left = np.arange(6) < cut
        score = criterion.split_score(np.array([left.sum()]), stats[left].sum(axis=0)[None],
                                      np.array([(~left).sum()]), stats[~left].sum(axis=0)[None])[0]
        assert direct_theta(Y[pure]) == np.inf
        assert score == pytest.approx(-(len(Y[other]) / 6) / (1.0 + direct_theta(Y[other])), rel=1e-12)
    assert score == pytest.approx(-0.28301446, abs=1e-8)


def test_split_must_be_a_known_form():
    with pytest.raises(ValueError, match="split must be one of"):
        Mallows(split="precision")


def test_similarity_is_the_mean_kendall_tau_to_the_centre():
    X, Y = random_problem(4, n=25, n_labels=5)
    criterion = Mallows()
    stats = criterion.row_statistics(Y)
    center = fit_mallows(Y).center
    taus = [kendalltau(row, center).statistic for row in Y]
    assert criterion.node_similarity(len(Y), stats.sum(axis=0)) == pytest.approx(np.mean(taus))


def test_incomplete_statistics_count_only_the_observed_pairs():
    Y = np.array([[1, 2, 3, np.nan], [2, 1, np.nan, 3], [np.nan, 1, 2, 3.0]])
    criterion = Mallows()
    stats = criterion.row_statistics(Y)
    distance, held = criterion.total_distance(3, stats.sum(axis=0))
    # Generalised Borda centre: labels 2 > 1 > 3 > 4 (votes 8.75, 10, 8.75, 5 ... see Prop. 2):
    from rankviz.label_ranking.mallows import borda_center
    center = borda_center(Y)
    observed = sum(kendall_distance(row[~np.isnan(row)], center[~np.isnan(row)])[0] for row in Y)
    assert distance == observed and held == 4


@pytest.mark.parametrize("seed", range(4))
def test_leaves_hold_the_mallows_fit_of_their_rows(seed):
    X, Y = random_problem(seed, n=80, n_labels=4)
    model = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=4).fit(X, Y)
    tree = model.tree_
    leaf_of_row = model.apply(X)
    for leaf in np.flatnonzero(tree.is_leaf):
        rows = Y[leaf_of_row == leaf]
        fit = fit_mallows(rows)
        np.testing.assert_array_equal(tree.ranking[leaf], fit.center)
        assert tree.theta[leaf] == pytest.approx(fit.theta, rel=1e-9)
        assert tree.reliability[leaf] == pytest.approx(fit.theta * len(rows) / len(Y), rel=1e-9)
    predicted = model.predict(X)
    np.testing.assert_array_equal(np.sort(predicted, axis=1), np.tile(np.arange(1, 5), (len(Y), 1)))


@pytest.mark.parametrize("n_labels", [4, 13])
def test_every_node_holds_the_mallows_fit_of_its_rows(n_labels):
    """Internal nodes too: the centre and θ counted as bits along each row's path (13 labels: 78 pairs,
    two words) are those of a direct fit of the node's rows."""
    X, Y = random_problem(3, n=150, n_labels=n_labels)
    model = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=2).fit(X, Y)
    tree = model.tree_
    paths = tree.decision_paths(model.encoder_.transform(X))
    assert tree.max_depth >= 4
    for node in range(tree.node_count):
        rows = Y[(paths == node).any(axis=1)]
        fit = fit_mallows(rows)
        np.testing.assert_array_equal(tree.ranking[node], fit.center)
        assert tree.theta[node] == pytest.approx(direct_theta(rows), rel=1e-9)


def test_nodes_of_tied_rankings_hold_the_criterions_model():
    """Ties leave pairs unordered: the nodes' models come from the criterion's summed statistics."""
    X, Y = random_problem(5, n=120, n_labels=5, ties=True)
    assert (Y != np.round(Y)).any()
    model = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=2, consensus="aggregate").fit(X, Y)
    tree = model.tree_
    paths = tree.decision_paths(model.encoder_.transform(X))
    criterion = Mallows()
    stats = criterion.row_statistics(Y)
    for node in range(tree.node_count):
        member = (paths == node).any(axis=1)
        count, sums = float(member.sum()), stats[member].sum(axis=0)
        np.testing.assert_array_equal(tree.ranking[node], criterion.centers(count, sums))
        assert tree.theta[node] == pytest.approx(float(criterion.theta(count, sums)), rel=1e-12)


def test_pure_nodes_stop_with_infinite_spread():
    X = pd.DataFrame({"x": np.arange(12.0)})
    Y = np.array([[1, 2, 3]] * 6 + [[3, 2, 1]] * 6, dtype=float)
    tree = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=1).fit(X, Y).tree_
    assert tree.n_leaves == 2 and tree.threshold[0] == 5.5
    assert np.isinf(tree.theta[tree.is_leaf]).all()
    assert tree.similarity[tree.is_leaf].tolist() == [1.0, 1.0]


def test_a_pure_side_scores_finite_and_grows_with_its_size():
    """The half-discordance floor: peeling off one ranking is not infinitely good, and a
    larger pure subset scores above a smaller one with the same other side's spread."""
    Y = np.array([[1, 2, 3]] * 5 + [[2, 1, 3], [3, 2, 1], [1, 3, 2], [2, 3, 1], [3, 1, 2]], dtype=float)
    criterion = Mallows(split="spread")
    stats = criterion.row_statistics(Y)

    def score(k):
        return criterion.split_score(np.array([k]), stats[:k].sum(axis=0)[None],
                                     np.array([10 - k]), stats[k:].sum(axis=0)[None])[0]

    scores = [score(k) for k in range(1, 6)]
    assert np.isfinite(scores).all()
    assert np.all(np.diff(scores) > 0)  # 1..5 pure rows on the left: more is better
    assert criterion.theta(np.array([1.0]), stats[:1].sum(axis=0)[None])[0] == np.inf  # reported θ̂


def test_nodes_with_fewer_than_2L_label_occurrences_are_not_split():
    X = pd.DataFrame({"x": np.arange(6.0)})
    Y = drop(np.array([[1, 2, 3, 4], [4, 3, 2, 1]] * 3, dtype=float), 0.0, 0)
    Y[:, :3] = np.nan  # one label per row: 6 occurrences < 2 * 4
    Y[:, 3] = 1.0
    tree = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=1).fit(X, Y).tree_
    assert tree.n_leaves == 1
    Y2 = np.tile([[1.0, 2, 3, 4], [4, 3, 2, 1]], (4, 1))
    Y2[:, :2] = np.nan  # 2 labels per row, 8 rows: 16 occurrences = 2 * 8 ... and 16 >= 8
    Y2[:, 2:] = np.where(Y2[:, 2:] == 3, 1.0, np.where(Y2[:, 2:] == 4, 2.0, Y2[:, 2:]))
    Y2[:, 2:] = np.argsort(np.argsort(Y2[:, 2:], axis=1), axis=1) + 1.0
    grown = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=1).fit(
        pd.DataFrame({"x": np.arange(8.0)}), Y2).tree_
    assert grown.n_leaves > 1


def test_a_leaf_missing_a_label_borrows_it_from_its_parent():
    """§5.2: the leaf's centre is extended by Proposition 1 towards its parent's."""
    center = np.array([[1, 2, 3, 4.0],           # root
                       [2, 1, np.nan, np.nan],   # leaf holding labels 0, 1 only
                       [1, np.nan, 2, 3]])
    parent = np.array([-1, 0, 0])
    completed = complete_from_ancestors(center, parent)
    np.testing.assert_array_equal(completed[1], [2, 1, 3, 4])  # 1 > 0, then 2, 3 as the root
    np.testing.assert_array_equal(completed[2], [1, 2, 3, 4])
    # A chain: the parent lacks a label too, so the grandparent completes it.
    center = np.array([[4, 3, 2, 1.0], [1, 2, 3, np.nan], [2, 1, np.nan, np.nan]])
    completed = complete_from_ancestors(center, np.array([-1, 0, 1]))
    # Parent (0 > 1 > 2) inserts label 2 after 1 > 0; the root (3 > 2 > 1 > 0) puts 3 first.
    np.testing.assert_array_equal(completed[2], [3, 2, 4, 1])


def test_trees_on_incomplete_rankings_predict_complete_rankings():
    X, Y = random_problem(7, n=120, n_labels=5)
    Y_missing = drop(Y, 0.6, seed=1)
    model = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=1).fit(X, Y_missing)
    predicted = model.predict(X)
    np.testing.assert_array_equal(np.sort(predicted, axis=1), np.tile(np.arange(1, 6), (len(Y), 1)))
    assert model.tree_.n_leaves > 2
    # Some leaf lacked a label and was completed.
    assert np.isfinite(model.tree_.theta).any()


def test_gamma_path_cuts_equal_mallows_trees_grown_with_that_gamma():
    X, Y = random_problem(11, n=150, n_labels=4)
    maximal = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=3).fit(X, Y)
    path = maximal.gamma_path()
    assert len(path.breakpoints) > 3
    for gamma in (0.99, 1.0, 1.02, 1.05, 1.2):
        grown = RankingTree(criterion="mallows", gamma=gamma, min_samples_leaf=3).fit(X, Y)
        cut = path.tree_at(gamma)
        assert cut.n_leaves == grown.tree_.n_leaves
        np.testing.assert_array_equal(np.sort(cut.theta), np.sort(grown.tree_.theta))
        np.testing.assert_array_equal(maximal.predict_at(X, [gamma])[:, 0], grown.predict(X))


def test_drawing_shows_theta_and_colours_leaves_by_reliability():
    import re

    from rankviz.viz.dot import tree_to_dot
    from rankviz.viz.dot.common import INTERNAL_FILL, RELIABILITY_PALETTE

    X, Y = random_problem(3, n=90, n_labels=4)
    tree = RankingTree(criterion="mallows", gamma=1.0, min_samples_leaf=5).fit(X, Y).tree_
    dot = tree_to_dot(tree)
    fills = dict(re.findall(r'(node\d+) \[.*?fillcolor="(#[0-9a-f]{6})"', dot))
    reliability = tree.reliability
    finite_max = reliability[tree.is_leaf & np.isfinite(reliability)].max()
    for node in range(tree.node_count):
        if not tree.is_leaf[node]:
            assert fills[f"node{node}"] == INTERNAL_FILL
            continue
        if np.isinf(reliability[node]):  # pure leaves: the darkest orange, kept for them
            assert fills[f"node{node}"] == RELIABILITY_PALETTE[-1]
            continue
        share = reliability[node] / finite_max
        assert fills[f"node{node}"] == RELIABILITY_PALETTE[round(share * (len(RELIABILITY_PALETTE) - 2))]
        assert f"rel = {reliability[node]:.2f}" in dot or np.isinf(reliability[node])
    assert dot.count(", θ̂ = ") == tree.node_count
    assert "reliability" in dot  # the legend
    with pytest.raises(ValueError, match="mallows"):
        tree_to_dot(RankingTree().fit(X, Y).tree_, color_by="reliability")
