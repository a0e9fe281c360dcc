"""The split search's fast paths give the very trees of the plain ones, bit for bit.

The builder sums small whole-number statistics (the ordinal criteria's level
indicators) in integers, scores candidates in blocks, and hands the ordinal
criteria their sums as transposed views. None of that may change a tree:
each test grows once with the fast path and once with it switched off and
compares every array of the two trees exactly.
"""

import numpy as np
import pytest
from scipy.stats import rankdata

from rankviz import OrdinalTree, RankingTree
from rankviz.tree import builder
from rankviz.tree.criteria import Gini, RankingImpurity
from rankviz.ordinal.synthetic import make_ordinal_square
from reference import random_problem

CRITERIA = ["mean_spearman", "ranking_impurity", "gini"]
TREE_ARRAYS = ("children_left", "children_right", "feature", "threshold", "n_samples",
               "similarity", "split_score", "split_feature", "split_threshold", "mean_rank")


def assert_same_tree(a, b):
    for name in TREE_ARRAYS:
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name), err_msg=name)


def with_missing_labels(Y, seed):
    """Rankings with about a fifth of the labels missing (the first two kept), re-ranked."""
    rng = np.random.default_rng(seed)
    Y = np.array(Y, dtype=float)
    drop = rng.random(Y.shape) < 0.2
    drop[:, :2] = False
    Y[drop] = np.nan
    for row in Y:
        row[~np.isnan(row)] = rankdata(row[~np.isnan(row)])
    return Y


@pytest.mark.parametrize("criterion", CRITERIA)
def test_scoring_in_small_blocks_gives_the_same_tree(criterion, monkeypatch):
    # 3,000 rows: the root alone has thousands of candidates, so blocks of 256
    # cut every level's candidates (and some nodes) at many places.
    X, Y = random_problem(0, n=3000, n_labels=5, ties=True)
    whole = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=3).fit(X, Y)
    monkeypatch.setattr(builder, "_BLOCK_ELEMENTS", 1)
    blocked = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=3).fit(X, Y)
    assert blocked.tree_.node_count > 100
    assert_same_tree(whole.tree_, blocked.tree_)


@pytest.mark.parametrize("criterion", ["ranking_impurity", "gini"])
@pytest.mark.parametrize("missing", [False, True])
def test_integer_running_sums_give_the_same_tree_as_float_ones(criterion, missing, monkeypatch):
    X, Y = random_problem(1, n=800, n_labels=4, ties=True)
    if missing:
        Y = with_missing_labels(Y, seed=1)
    fast = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=2).fit(X, Y)
    monkeypatch.setattr(builder, "_integer_sum_dtype", lambda stats: None)
    plain = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=2).fit(X, Y)
    assert_same_tree(fast.tree_, plain.tree_)


@pytest.mark.parametrize("criterion", [RankingImpurity, Gini])
def test_ordinal_tree_is_the_same_with_either_layout_of_the_sums(criterion, monkeypatch):
    X, y = make_ordinal_square(4000, label_noise=0.1, seed=3)
    columnwise = OrdinalTree(criterion.name, max_depth=8).fit(X, y)
    monkeypatch.setattr(criterion, "columnwise_sums", False)
    rowwise = OrdinalTree(criterion.name, max_depth=8).fit(X, y)
    assert_same_tree(columnwise.tree_, rowwise.tree_)
    np.testing.assert_array_equal(columnwise.tree_.class_counts, rowwise.tree_.class_counts)


def test_integer_sum_dtype():
    assert builder._integer_sum_dtype(np.array([[0.0, 1.0], [1.0, 1.0]])) == np.int32
    assert builder._integer_sum_dtype(np.array([[0.5, 1.0]])) is None  # not whole
    assert builder._integer_sum_dtype(np.array([[200.0]])) is None  # beyond int8
    assert builder._integer_sum_dtype(np.array([[np.nan]])) is None
    assert builder._integer_sum_dtype(np.zeros((0, 3))) is None


@pytest.mark.parametrize("criterion", [RankingImpurity(), Gini()])
@pytest.mark.parametrize("missing", [False, True])
def test_ordinal_scores_do_not_depend_on_the_layout_of_the_sums(criterion, missing):
    rng = np.random.default_rng(4)
    Y = rng.integers(1, 6, size=(60, 3)).astype(float)
    if missing:
        Y[rng.random(Y.shape) < 0.2] = np.nan
    stats = criterion.row_statistics(Y)
    masks = rng.random((25, len(Y))) < 0.5
    count_left = masks.sum(axis=1)
    sum_left = masks.astype(float) @ stats
    sum_right = stats.sum(axis=0) - sum_left
    count_right = len(Y) - count_left
    # (candidates, statistics) C-contiguous, and the transposed view the builder passes.
    rowwise = criterion.split_score(count_left, sum_left, count_right, sum_right)
    columnwise = criterion.split_score(count_left, np.ascontiguousarray(sum_left.T).T,
                                       count_right, np.ascontiguousarray(sum_right.T).T)
    one_by_one = [criterion.split_score(count_left[i], sum_left[i], count_right[i], sum_right[i])
                  for i in range(len(masks))]
    np.testing.assert_array_equal(rowwise, columnwise)
    np.testing.assert_array_equal(rowwise, one_by_one)
    # Level counts keep their (..., labels, levels) shape.
    counts = criterion.level_counts(count_left, sum_left)
    assert counts.shape == (len(masks), 3, len(np.unique(Y[~np.isnan(Y)])))
    for j in range(3):
        expected = [[np.sum(Y[m, j] == v) for v in criterion.levels_] for m in masks]
        np.testing.assert_array_equal(counts[:, j], expected)


def test_a_depth_limit_bounds_the_preallocated_nodes():
    X, y = make_ordinal_square(2000, seed=5)
    for depth in (0, 1, 3):
        tree = OrdinalTree(max_depth=depth).fit(X, y).tree_
        assert tree.max_depth <= depth
        assert tree.node_count <= 2 ** (depth + 1) - 1
        assert tree.n_samples[0] == 2000
