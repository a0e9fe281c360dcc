"""The γ path: trees cut from one maximal tree equal trees grown with that γ."""

import numpy as np
import pytest

from rankviz import RankingTree, load_sample
from rankviz.tree.criteria import get_criterion
from rankviz.datasets.samples import list_samples
from rankviz.experiments.cross_validation import MEASURES, best_gamma, compare_methods, loo_gamma_curves
from reference import random_problem

TREE_ARRAYS = ("children_left", "children_right", "feature", "threshold", "n_samples", "similarity",
               "split_score", "split_feature", "split_threshold", "mean_rank", "ranking", "depth")
FROM_RUNNING_SUMS = {"similarity", "split_score"}


def depth_first(tree):
    """The same tree with nodes numbered depth-first, left first (as keep_splits numbers them)."""
    return tree.keep_splits(~tree.is_leaf)[0]


def assert_same_nodes(cut, grown):
    grown = depth_first(grown)
    assert cut.node_count == grown.node_count
    for name in TREE_ARRAYS:
        a, b = getattr(cut, name), getattr(grown, name)
        if name in FROM_RUNNING_SUMS:
            # Sums over a node's rows run in a different order when other nodes
            # are searched alongside it: equal to the last bits only.
            np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14, err_msg=name)
        else:
            np.testing.assert_array_equal(a, b, err_msg=name)


def problems():
    for seed in range(3):
        X, Y = random_problem(seed, n=60, ties=seed == 1)
        yield f"random{seed}", X, Y, 2
    for name in list_samples("label_ranking"):
        data = load_sample(name)
        yield name, data.X, data.Y, 5


def gamma_grid(path):
    """Fixed values plus values just below and just above every breakpoint.

    Not the breakpoints themselves nor their neighbouring floats: growth sums
    a node's rows in another order than the maximal tree did (rounding of
    about 1e-16), so a γ within that of a breakpoint may go either way.
    """
    around = [path.breakpoints * (1 - 1e-9), path.breakpoints * (1 + 1e-9)]
    return np.unique(np.r_[0.9, 0.95, 0.99, 0.995, 1.0, 1.01, 1.05, np.concatenate(around)])


@pytest.mark.parametrize("name,X,Y,min_leaf", list(problems()), ids=lambda v: v if isinstance(v, str) else "")
def test_cut_tree_equals_tree_grown_with_that_gamma(name, X, Y, min_leaf):
    maximal = RankingTree(gamma=np.inf, min_samples_leaf=min_leaf).fit(X, Y)
    path = maximal.gamma_path()
    assert len(path.breakpoints) >= 2, "the test needs data whose tree changes with γ"
    for gamma in gamma_grid(path):
        grown = RankingTree(gamma=gamma, min_samples_leaf=min_leaf).fit(X, Y).tree_
        cut = path.tree_at(gamma)
        assert_same_nodes(cut, grown)
        assert path.n_leaves(gamma) == grown.n_leaves
        assert "postponed" not in cut.extras


def test_max_depth_limits_the_path_like_growth():
    X, Y = random_problem(4, n=80)
    path = RankingTree(gamma=np.inf, max_depth=2).fit(X, Y).gamma_path()
    for gamma in gamma_grid(path):
        assert_same_nodes(path.tree_at(gamma), RankingTree(gamma=gamma, max_depth=2).fit(X, Y).tree_)


def test_leaf_count_changes_exactly_at_the_breakpoints():
    data = load_sample("metalearning")
    path = RankingTree(gamma=np.inf, min_samples_leaf=5).fit(data.X, data.Y).gamma_path()
    b = path.breakpoints
    # Rule (6) stops at equality: at a breakpoint the tree is still the smaller one.
    assert (path.n_leaves(np.nextafter(b, np.inf)) > path.n_leaves(b)).all()
    # Between consecutive breakpoints nothing changes.
    middle = (b[:-1] + b[1:]) / 2
    np.testing.assert_array_equal(path.n_leaves(middle), path.n_leaves(np.nextafter(b[:-1], np.inf)))
    assert path.n_leaves(b[0]) == 1  # up to the first breakpoint: the root alone
    assert path.n_leaves(np.inf) == path.tree.n_leaves


def test_breakpoint_is_rule_6_solved_for_gamma():
    data = load_sample("toy")
    model = RankingTree(gamma=np.inf, min_samples_leaf=3).fit(data.X, data.Y)
    tree = model.tree_
    root_b = (1 + tree.similarity[0]) / (1 + tree.split_score[0])
    # The root's split is the first to appear; its breakpoint is (1 + S_parent) / (1 + S_split).
    assert model.gamma_path().node_gamma[0] == pytest.approx(root_b, rel=1e-11)
    criterion = get_criterion("mean_spearman")
    assert not criterion.accepts_split(tree.similarity[0], tree.split_score[0], root_b)
    assert criterion.accepts_split(tree.similarity[0], tree.split_score[0], root_b * (1 + 1e-9))


def test_a_child_never_splits_before_its_parent():
    X, Y = random_problem(5, n=100)
    path = RankingTree(gamma=np.inf).fit(X, Y).gamma_path()
    tree = path.tree
    internal = np.flatnonzero(~tree.is_leaf)
    for child in np.r_[tree.children_left[internal], tree.children_right[internal]]:
        parent = internal[(tree.children_left[internal] == child) | (tree.children_right[internal] == child)][0]
        assert path.node_gamma[child] >= path.node_gamma[parent]


def test_predict_at_equals_predictions_of_trees_grown_per_gamma():
    X, Y = random_problem(6, n=70)
    X_new, _ = random_problem(7, n=30)
    maximal = RankingTree(gamma=np.inf, min_samples_leaf=3).fit(X, Y)
    gammas = gamma_grid(maximal.gamma_path())
    at_once = maximal.predict_at(X_new, gammas)
    assert at_once.shape == (30, len(gammas), Y.shape[1])
    for k, gamma in enumerate(gammas):
        expected = RankingTree(gamma=gamma, min_samples_leaf=3).fit(X, Y).predict(X_new)
        np.testing.assert_array_equal(at_once[:, k], expected)


def test_path_of_a_tree_grown_with_finite_gamma_stops_there():
    X, Y = random_problem(8, n=60)
    model = RankingTree(gamma=0.99).fit(X, Y)
    path = model.gamma_path()
    assert path.tree_at(0.99).node_count == model.tree_.node_count
    with pytest.raises(ValueError, match="grown with gamma = 0.99"):
        path.tree_at(1.0)
    # Below its γ it agrees with the maximal tree's path.
    full = RankingTree(gamma=np.inf).fit(X, Y).gamma_path()
    assert_same_nodes(path.tree_at(0.985), full.tree_at(0.985))


def test_loo_gamma_curves_equal_leave_one_out_at_each_gamma():
    X, Y = random_problem(9, n=30)
    gammas = [0.9, 0.98, 0.995, 1.0, 1.02]
    curves = loo_gamma_curves(X, Y, gammas, min_samples_leaf=3)
    assert curves.attrs["n_examples"] == 30
    for gamma in gammas:
        scores = compare_methods({"tree": RankingTree(gamma=gamma, min_samples_leaf=3)}, X, Y, cv="loo")
        for measure in MEASURES:
            assert curves.loc[gamma, measure] == pytest.approx(scores[measure].mean(), abs=1e-12)


def test_loo_gamma_curves_stop_when_progress_says_so():
    X, Y = random_problem(10, n=20)
    seen = []
    curves = loo_gamma_curves(X, Y, [1.0], progress=lambda done, total: seen.append((done, total)) or done < 5)
    assert seen[-1] == (5, 20)
    assert curves.attrs["n_examples"] == 5


def test_best_gamma_prefers_the_smallest_of_equal_scores():
    import pandas as pd
    curves = pd.DataFrame({"CS": [0.1, 0.5, 0.5, 0.3]}, index=pd.Index([0.9, 0.95, 0.99, 1.0], name="gamma"))
    assert best_gamma(curves, "CS") == (0.95, 0.5)
