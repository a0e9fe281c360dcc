"""``RankingTree(max_bins=...)``: histogram splits for large data, exact where an attribute has few values."""

import numpy as np
import pandas as pd
import pytest

from rankviz import RankingTree
from rankviz.binning import FeatureBins, bin_columns, thresholds_from_codes
from rankviz.tree.criteria import CRITERIA


def problem(seed=0, n=600, missing=True):
    """Rankings of 4 labels that follow two of three attributes; one attribute has a few values only."""
    rng = np.random.default_rng(seed)
    X = np.column_stack([rng.random(n), rng.integers(0, 5, n).astype(float), rng.normal(size=n)])
    scores = np.column_stack([X[:, 0], X[:, 1] / 5, 1 - X[:, 0], rng.random(n)]) + 0.3 * rng.random((n, 4))
    Y = np.argsort(np.argsort(-scores, axis=1), axis=1) + 1.0
    if missing:
        X[rng.random(n) < 0.1, 0] = np.nan
    return X, Y


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_as_many_bins_as_values_grows_the_exact_tree(criterion):
    X, Y = problem()
    exact = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=3).fit(X, Y).tree_
    binned = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=3, max_bins=len(X)).fit(X, Y).tree_
    assert np.array_equal(exact.feature, binned.feature)
    assert np.array_equal(exact.threshold, binned.threshold, equal_nan=True)
    assert np.array_equal(exact.ranking, binned.ranking)


@pytest.mark.parametrize("criterion", sorted(CRITERIA))
def test_binned_splits_route_the_training_rows_as_they_were_grown(criterion):
    """The splits are searched on bin codes and stated on values: routing the training rows by the values
    must put every row where growth put it (leaf sizes and mean ranks), with at most max_bins - 1
    thresholds per attribute, and the attribute with 5 values searched exactly."""
    X, Y = problem(1)
    model = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=2, max_bins=6).fit(X, Y)
    tree = model.tree_
    leaves = model.apply(X)
    counts = np.bincount(leaves, minlength=tree.node_count)
    is_leaf = tree.children_left < 0
    assert np.array_equal(counts[is_leaf], tree.n_samples[is_leaf])
    for leaf in np.flatnonzero(is_leaf):
        assert np.allclose(Y[leaves == leaf].mean(axis=0), tree.mean_rank[leaf])
    for feature in (0, 2):
        assert len(np.unique(tree.threshold[tree.feature == feature])) <= 5
    values = np.unique(X[:, 1])
    assert set(tree.threshold[tree.feature == 1]) <= set(values[:-1] / 2 + values[1:] / 2)


def test_a_binned_split_lies_between_training_values():
    X, Y = problem(2)
    tree = RankingTree(gamma=np.inf, min_samples_leaf=1, max_bins=4).fit(X, Y).tree_
    for feature in (0, 2):
        column = X[:, feature]
        for threshold in tree.threshold[tree.feature == feature]:
            below, above = column[column <= threshold], column[column > threshold]
            assert below.size and above.size and below.max() < threshold < above.min()


def test_bin_columns_and_back():
    rng = np.random.default_rng(3)
    X = np.column_stack([rng.random(200), rng.integers(0, 3, 200)]).astype(float)
    X[:5, 0] = np.nan
    binned, thresholds = bin_columns(X, [0, 1], 8)
    assert set(thresholds) == {0}  # 3 values in column 1: left as they are
    assert FeatureBins(X, 8).exact.tolist() == [False, True] and FeatureBins(X).exact.all()
    assert np.array_equal(binned[:, 1], X[:, 1]) and np.isnan(binned[:5, 0]).all()
    codes = binned[5:, 0]
    assert codes.min() == 0 and codes.max() == len(thresholds[0]) <= 7
    # code <= b exactly when value <= thresholds[b]
    for b in range(len(thresholds[0])):
        assert np.array_equal(codes <= b, X[5:, 0] <= thresholds[0][b])
    stated = thresholds_from_codes(np.array([2.5, np.nan, 0.5]), np.array([0, 0, 1]), thresholds)
    assert stated[0] == thresholds[0][2] and np.isnan(stated[1]) and stated[2] == 0.5


def test_nominal_attributes_are_never_binned():
    X, Y = problem(4, missing=False)
    frame = pd.DataFrame({"x": X[:, 0], "colour": np.array(list("abcdefgh"))[np.arange(len(X)) % 8]})
    exact = RankingTree(gamma=np.inf).fit(frame, Y).tree_
    binned = RankingTree(gamma=np.inf, max_bins=2).fit(frame, Y).tree_
    nominal = binned.feature == 1
    assert nominal.any()
    assert set(binned.threshold[nominal]) <= set(range(8)) and set(exact.threshold[exact.feature == 1]) <= set(range(8))


@pytest.mark.parametrize("max_bins", [1, 0, -3, 2.5, True, "8"])
def test_bad_max_bins_is_refused_by_name(max_bins):
    X, Y = problem(5, n=20)
    with pytest.raises(ValueError, match="max_bins must be None or an integer >= 2"):
        RankingTree(max_bins=max_bins).fit(X, Y)
