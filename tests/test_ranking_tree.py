"""The ranking tree against a brute-force TDIDT written from the text of Rebelo, Soares & Costa (2008)."""

import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata, spearmanr

from rankviz import RankingTree
from rankviz.tree.replay import growth_step, iter_growth, level_stops, split_sequence
from rankviz.tree.criteria import CRITERIA, get_criterion
from reference import assert_same_tree, brute_force_tree, mean_pairwise_spearman, random_problem


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("gamma,min_samples_leaf,max_depth", [
    (0.995, 1, None), (1.0, 2, None), (1.01, 3, 3), (0.98, 1, 2),
])
def test_tree_matches_brute_force(seed, gamma, min_samples_leaf, max_depth):
    X, Y = random_problem(seed, ties=seed % 2 == 1)
    model = RankingTree(gamma=gamma, min_samples_leaf=min_samples_leaf, max_depth=max_depth).fit(X, Y)
    codes = np.column_stack([X["num"], pd.Categorical(X["nom"], categories=["a", "b", "c"]).codes, X["cont"]])
    reference = brute_force_tree(codes.astype(float), Y, [False, True, False], gamma,
                                 min_samples_leaf, np.inf if max_depth is None else max_depth)
    assert_same_tree(model.tree_, 0, reference)


def test_similarity_from_running_sums_matches_pairwise_definition():
    rng = np.random.default_rng(1)
    Y = rankdata(rng.integers(0, 3, size=(9, 5)), axis=1)  # many ties
    Y[0] = 3.0  # an all-tied ranking
    criterion = get_criterion("mean_spearman")
    stats = criterion.row_statistics(Y)
    by_scipy = [0.0 if np.ptp(a) == 0 or np.ptp(b) == 0 else spearmanr(a, b)[0]
                for a, b in itertools.combinations(Y, 2)]
    assert criterion.node_similarity(9, stats.sum(axis=0)) == pytest.approx(np.mean(by_scipy))
    assert mean_pairwise_spearman(Y) == pytest.approx(np.mean(by_scipy))


def test_seed_table_3_prediction_rule():
    # Two examples (Rebelo et al., Table 3): mean ranks 1.5, 2, 3, 3.5 -> ranking 1, 2, 3, 4.
    Y = np.array([[1, 3, 2, 4], [2, 1, 4, 3]])
    model = RankingTree().fit(np.zeros((2, 1)), Y)
    assert model.tree_.n_leaves == 1
    np.testing.assert_array_equal(model.tree_.mean_rank[0], [1.5, 2, 3, 3.5])
    np.testing.assert_array_equal(model.predict(np.zeros((1, 1))), [[1, 2, 3, 4]])


def test_predictions_are_permutations_and_pure_leaves_reproduce_training():
    X, Y = random_problem(7, n=60, n_labels=5)
    model = RankingTree(gamma=np.inf).fit(X, Y)  # grow as far as the data allows
    pred = model.predict(X)
    np.testing.assert_array_equal(np.sort(pred, axis=1), np.tile(np.arange(1, 6), (60, 1)))
    leaves = model.apply(X)
    pure = model.tree_.similarity[leaves] >= 1 - 1e-12
    np.testing.assert_array_equal(pred[pure], Y[pure])


def test_gamma_below_rule_threshold_gives_a_single_leaf():
    # (1 + S_parent) >= gamma (1 + S_split) always holds for gamma <= (1 + S_p) / 2.
    X, Y = random_problem(3)
    assert RankingTree(gamma=0.3).fit(X, Y).tree_.node_count == 1


def test_nominal_split_is_value_versus_rest():
    X = pd.DataFrame({"A1": ["a", "b", "c", "c", "a", "b"]})
    Y = np.array([[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 2, 1], [1, 2, 3], [1, 2, 3]])
    tree = RankingTree().fit(X, pd.DataFrame(Y, columns=["x", "y", "z"])).tree_
    assert tree.test_text(0) == "A1 = c"
    assert tree.ranking_text(tree.children_left[0]) == "z > y > x"
    # An unseen category matches no "= v" test and goes to the "rest" branch.
    model = RankingTree().fit(X, Y)
    np.testing.assert_array_equal(model.predict(pd.DataFrame({"A1": ["zzz"]})), [[1, 2, 3]])


def test_growth_order_replays_the_same_tree():
    X, Y = random_problem(5, n=80)
    tree = RankingTree(gamma=1.0).fit(X, Y).tree_
    internal = np.flatnonzero(~tree.is_leaf)
    for order in ("depth", "best"):
        sequence = split_sequence(tree, order)
        assert sorted(sequence) == sorted(internal)
        steps = list(iter_growth(tree, order))
        assert [s.tree.n_leaves for s in steps] == list(range(1, len(internal) + 2))
        assert steps[-1].tree.node_count == tree.node_count
    # A part-grown tree marks the leaves whose split is still to come.
    partial = steps[1].tree
    assert partial.extras["postponed"].sum() == sum(
        not tree.is_leaf[c] for c in (tree.children_left[0], tree.children_right[0]))
    # Depth-first is a pre-order: every node comes after its parent, left subtree first.
    depth_first = split_sequence(tree, "depth")
    assert depth_first[0] == 0 and depth_first[1] == tree.children_left[0] or tree.is_leaf[tree.children_left[0]]
    # Best-first: the gains of the splits never increase while the frontier allows.
    gain = tree.n_samples * (tree.split_score - tree.similarity)
    best_first = split_sequence(tree, "best")
    assert gain[best_first[1]] == max(gain[c] for c in (tree.children_left[0], tree.children_right[0])
                                      if not tree.is_leaf[c])


def test_level_order_grows_one_depth_level_per_stop():
    X, Y = random_problem(5, n=120)
    tree = RankingTree(gamma=1.02, min_samples_leaf=2).fit(X, Y).tree_
    depth = np.asarray(tree.depth)
    sequence = split_sequence(tree, "level")
    assert sorted(sequence) == sorted(np.flatnonzero(~tree.is_leaf))
    assert np.all(np.diff(depth[sequence]) >= 0)
    # Within a level, left to right: the order of depth-first (a pre-order) restricted to it.
    depth_first = list(split_sequence(tree, "depth"))
    for d in range(tree.max_depth):
        level = [n for n in sequence if depth[n] == d]
        assert level == sorted(level, key=depth_first.index)
    stops = level_stops(tree, sequence)
    assert stops[0] == 0 and stops[-1] == len(sequence) and len(stops) == tree.max_depth + 1
    for d, stop in enumerate(stops):
        grown = growth_step(tree, sequence, int(stop)).tree
        # The tree to depth d: every node of depth <= d, no other.
        assert grown.max_depth == d and grown.node_count == int(np.sum(depth <= d))
    with pytest.raises(ValueError, match="level by level"):
        level_stops(tree, split_sequence(tree, "depth")[::-1])


def test_sklearn_conventions():
    from sklearn.base import clone
    model = RankingTree(gamma=0.9, min_samples_leaf=3)
    assert clone(model).get_params()["gamma"] == 0.9
    assert model.set_params(max_depth=2).max_depth == 2
    with pytest.raises(ValueError, match="gamma"):
        RankingTree(gamma=-1).fit(np.zeros((3, 1)), [[1, 2], [1, 2], [2, 1]])
    # Any positions keep only their order: 0.3 < 0.9 is the ranking 1, 2.
    assert RankingTree().fit(np.zeros((2, 1)), [[1, 2], [0.3, 0.9]]).tree_.mean_rank[0].tolist() == [1, 2]
    with pytest.raises(ValueError, match="row 2"):
        RankingTree().fit(np.zeros((2, 1)), [[1, 2], [np.inf, 1]])
    with pytest.raises(ValueError, match="complete rankings"):
        RankingTree().fit(np.zeros((2, 1)), [[1, 2, 3], [1, np.nan, 2]])


def test_every_criterion_has_a_readable_name_and_a_paper():
    for name in CRITERIA:
        criterion = get_criterion(name)
        assert criterion.name == name and criterion.title and criterion.authors and criterion.year
        assert criterion.label == f"{criterion.title} ({criterion.authors.split(',')[0]} et al. {criterion.year})"
        assert criterion.source == f"{criterion.authors} ({criterion.year})"
    assert len({get_criterion(name).title for name in CRITERIA}) == len(CRITERIA)
    assert get_criterion("ranking_impurity").label == "Ranking impurity (Xia et al. 2006)"
    assert get_criterion("mallows").source == "Cheng, Hühn & Hüllermeier (2009)"


def test_max_features_draws_per_node_and_a_seed_fixes_the_tree():
    """sklearn's forms of max_features; random_state fixes the draws; all features is the plain tree."""
    from rankviz import load_sample

    data = load_sample("metalearning")
    X, Y = data.X, data.Y
    plain = RankingTree(gamma=np.inf, min_samples_leaf=1).fit(X, Y)
    every = RankingTree(gamma=np.inf, min_samples_leaf=1, max_features=1.0, random_state=3).fit(X, Y)
    np.testing.assert_array_equal(every.tree_.feature, plain.tree_.feature)
    first = RankingTree(gamma=np.inf, min_samples_leaf=1, max_features="sqrt", random_state=3).fit(X, Y)
    again = RankingTree(gamma=np.inf, min_samples_leaf=1, max_features="sqrt", random_state=3).fit(X, Y)
    other = RankingTree(gamma=np.inf, min_samples_leaf=1, max_features="sqrt", random_state=4).fit(X, Y)
    np.testing.assert_array_equal(first.tree_.feature, again.tree_.feature)
    assert not np.array_equal(first.tree_.feature, other.tree_.feature)
    assert not np.array_equal(first.tree_.feature, plain.tree_.feature)
    for bad in (0, 1.5, "half", True):
        with pytest.raises(ValueError, match="max_features"):
            RankingTree(max_features=bad).fit(X, Y)
