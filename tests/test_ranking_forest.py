"""RankingForest: one tree without bagging is the tree; the Borda vote, out-of-bag scores and n_jobs; per-label importance."""

import itertools

import numpy as np
import pandas as pd
import pytest

from rankviz import RankingForest, RankingTree, load_sample
from rankviz.label_ranking import label_agreement, permutation_importance
from rankviz.label_ranking.aggregation import rank_by_mean
from rankviz.label_ranking.metrics import kendall_tau, tau_x


@pytest.fixture(scope="module")
def metalearning():
    return load_sample("metalearning")


@pytest.mark.parametrize("criterion", ["mean_spearman", "mallows"])
def test_one_tree_without_bagging_is_the_tree(metalearning, criterion):
    X, Y = metalearning.X, metalearning.Y
    forest = RankingForest(n_estimators=1, bootstrap=False, criterion=criterion, gamma=0.99, min_samples_leaf=3,
                           split_features=None, random_state=0).fit(X, Y)
    tree = RankingTree(criterion=criterion, gamma=0.99, min_samples_leaf=3).fit(X, Y)
    grown = forest.estimators_[0].tree_
    np.testing.assert_array_equal(grown.feature, tree.tree_.feature)
    np.testing.assert_array_equal(grown.threshold, tree.tree_.threshold)
    np.testing.assert_array_equal(forest.predict(X), tree.predict(X))


def test_the_prediction_is_the_borda_count_of_the_trees(metalearning):
    X, Y = metalearning.X, metalearning.Y
    forest = RankingForest(n_estimators=7, max_features=0.5, random_state=3).fit(X, Y)
    rows = X.iloc[:40]
    votes = sum(len(metalearning.label_names) - tree.predict(rows.iloc[:, features])
                for tree, features in zip(forest.estimators_, forest.estimators_features_))
    # the most votes first; equal totals in label order
    order = np.lexsort((np.broadcast_to(np.arange(votes.shape[1]), votes.shape), -votes), axis=1)
    expected = np.empty_like(votes)
    np.put_along_axis(expected, order, np.arange(1.0, votes.shape[1] + 1) * np.ones_like(votes), axis=1)
    np.testing.assert_array_equal(forest.predict(rows), expected)
    assert all(len(f) == len(X.columns) // 2 for f in forest.estimators_features_)
    assert all(list(t.feature_names_in_) == [X.columns[j] for j in f]
               for t, f in zip(forest.estimators_, forest.estimators_features_))


def test_each_tree_votes_the_borda_count_of_its_leaf_the_two_step_aggregation(metalearning):
    """Step 1 of Zhou & Qiu (2018): a tree's ranking is the Borda count of the in-bag rankings in the leaf
    the row reaches (bootstrap repeats counted); step 2, the vote of the trees, is the test above."""
    X, Y = metalearning.X, metalearning.Y
    forest = RankingForest(n_estimators=5, min_samples_leaf=4, random_state=2).fit(X, Y)
    rows = X.iloc[:60]
    for tree, drawn, features in zip(forest.estimators_, forest.estimators_samples_, forest.estimators_features_):
        leaf_of_drawn = tree.apply(X.iloc[drawn, features])
        leaf_of_row = tree.apply(rows.iloc[:, features])
        mean_in_leaf = np.array([Y[drawn][leaf_of_drawn == leaf].mean(axis=0) for leaf in leaf_of_row])
        assert all(np.isin(leaf_of_row, leaf_of_drawn))  # every leaf holds drawn rows
        np.testing.assert_array_equal(tree.predict(rows.iloc[:, features]), rank_by_mean(mean_in_leaf))


def test_tie_tolerance_ties_labels_of_equal_mean_position():
    X = np.array([[0.0], [0.0], [1.0], [1.0]])
    Y = np.array([[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 2, 1]])
    forest = RankingForest(n_estimators=1, bootstrap=False, min_samples_leaf=2, tie_tolerance=0.0).fit(X, Y)
    # one leaf per value of x; the leaves' strict rankings vote alone: no ties with one tree ...
    assert forest.predict([[0.0]]).tolist() == [[1.0, 2.0, 3.0]]
    # ... but two trees that disagree tie the labels they swap
    two = RankingForest(n_estimators=2, bootstrap=False, min_samples_leaf=2, tie_tolerance=0.0)
    two.fit(X, Y)
    two.estimators_[1] = RankingTree(min_samples_leaf=2).fit(pd.DataFrame(X, columns=["x1"]), Y[:, [1, 0, 2]])
    assert two.predict([[0.0]]).tolist() == [[1.5, 1.5, 3.0]]


@pytest.mark.filterwarnings("ignore:.*no out-of-bag prediction")
def test_out_of_bag_scores_equal_an_explicit_computation(metalearning):
    X, Y = metalearning.X, np.asarray(metalearning.Y, dtype=float)
    forest = RankingForest(n_estimators=15, oob_score=True, random_state=1, max_features="sqrt").fit(X, Y)
    n = len(Y)
    total, votes = np.zeros(Y.shape), np.zeros(n)
    for i in range(n):  # row by row, as the definition reads
        for tree, rows, features in zip(forest.estimators_, forest.estimators_samples_, forest.estimators_features_):
            if i not in set(rows.tolist()):
                total[i] += tree.predict(X.iloc[[i], features])[0]
                votes[i] += 1
    has = votes > 0
    expected = rank_by_mean(total[has] / votes[has, None])
    np.testing.assert_array_equal(forest.oob_prediction_[has], expected)
    assert np.isnan(forest.oob_prediction_[~has]).all()
    assert forest.oob_score_ == pytest.approx(np.mean(kendall_tau(Y[has], expected)))


@pytest.mark.filterwarnings("ignore:.*no out-of-bag prediction")
def test_results_do_not_depend_on_n_jobs(metalearning):
    X, Y = metalearning.X, metalearning.Y
    params = dict(n_estimators=12, max_features=3, oob_score=True, random_state=7)
    serial = RankingForest(n_jobs=1, **params).fit(X, Y)
    threaded = RankingForest(n_jobs=2, **params).fit(X, Y)
    np.testing.assert_array_equal(serial.predict(X), threaded.predict(X))
    np.testing.assert_array_equal(serial.oob_prediction_, threaded.oob_prediction_)
    for a, b in zip(serial.estimators_samples_, threaded.estimators_samples_):
        np.testing.assert_array_equal(a, b)
    # and a seed fixes the forest
    again = RankingForest(n_jobs=1, **params).fit(X, Y)
    np.testing.assert_array_equal(serial.predict(X), again.predict(X))


def test_incomplete_rankings_and_nominal_features_grow_a_forest():
    toy = load_sample("toy")
    Y = np.asarray(toy.Y, dtype=float).copy()
    Y[::3, 0] = np.nan  # a missing label in every third row
    forest = RankingForest(n_estimators=5, criterion="mallows", random_state=0).fit(toy.X, Y)
    predicted = forest.predict(toy.X)
    assert sorted(predicted[0]) == [1.0, 2.0, 3.0, 4.0]
    unseen = toy.X.copy()
    unseen.iloc[:, 0] = "a value never seen"
    assert forest.predict(unseen).shape == Y.shape


def test_split_features_grow_each_tree_as_a_randomised_tree(metalearning):
    """With split_features, tree t is RankingTree(max_features=..., random_state=its seed) on its rows;
    n_jobs changes nothing, and searching at most all features is plain bagging."""
    X, Y = metalearning.X, metalearning.Y
    params = dict(n_estimators=6, split_features="sqrt", random_state=4)
    forest = RankingForest(n_jobs=1, **params).fit(X, Y)
    seeds = np.random.RandomState(4).randint(np.iinfo(np.int32).max, size=6)
    ranked = pd.DataFrame(np.asarray(Y, dtype=float), columns=forest.label_names_)
    for tree, rows, seed in zip(forest.estimators_, forest.estimators_samples_, seeds):
        alone = RankingTree(gamma=np.inf, min_samples_leaf=1, max_features="sqrt", random_state=seed).fit(
            X.iloc[rows], ranked.iloc[rows])
        np.testing.assert_array_equal(tree.tree_.feature, alone.tree_.feature)
        np.testing.assert_array_equal(tree.tree_.threshold, alone.tree_.threshold)
    np.testing.assert_array_equal(RankingForest(n_jobs=2, **params).fit(X, Y).predict(X), forest.predict(X))
    every = RankingForest(n_estimators=3, split_features=1.0, random_state=4).fit(X, Y)
    bagged = RankingForest(n_estimators=3, split_features=None, random_state=4).fit(X, Y)
    np.testing.assert_array_equal(every.predict(X), bagged.predict(X))


@pytest.mark.parametrize("params, message", [
    (dict(n_estimators=0), "n_estimators"),
    (dict(split_features=0), "split_features"),
    (dict(max_features=0.0), "max_features"),
    (dict(max_features="half"), "max_features"),
    (dict(oob_score=True, bootstrap=False), "oob_score needs bootstrap"),
    (dict(tie_tolerance=-1), "tie_tolerance"),
    (dict(criterion="nonsense"), "criterion"),
])
def test_invalid_parameters_are_named(metalearning, params, message):
    with pytest.raises(ValueError, match=message):
        RankingForest(**params).fit(metalearning.X, metalearning.Y)


# --------------------------------------------------------------------------- #
# per-label agreement and permutation importance
# --------------------------------------------------------------------------- #
def test_label_agreement_equals_its_definition_and_averages_to_kendall_tau_a():
    rng = np.random.default_rng(0)
    rankings = np.array(list(itertools.permutations([1.0, 2.0, 3.0, 4.0])))
    truth = rankings[rng.integers(0, len(rankings), 30)]
    truth[:5, 1] = truth[:5, 2] = 2.5  # ties in the truth order no pair
    truth[5:8, 3] = np.nan  # missing labels neither
    predicted = rankings[rng.integers(0, len(rankings), 30)]
    expected = np.zeros(4)
    for label in range(4):
        scores = [np.sign(t[label] - t[m]) * np.sign(p[label] - p[m])
                  for t, p in zip(truth, predicted) for m in range(4)
                  if m != label and not np.isnan(t[m]) and not np.isnan(t[label]) and t[m] != t[label]]
        expected[label] = np.mean(scores)
    np.testing.assert_allclose(label_agreement(truth, predicted), expected)
    complete = rankings[rng.integers(0, len(rankings), 30)]
    mean = label_agreement(complete, predicted).mean()
    assert mean == pytest.approx(np.mean(kendall_tau(complete, predicted)))  # strict rankings: tau-a = tau-b


def test_permutation_importance_per_label():
    # x1 decides whether label a or b comes first; label c is always last; x2 is noise the tree never uses
    rng = np.random.default_rng(1)
    x1 = rng.random(200)
    X = pd.DataFrame({"x1": x1, "x2": rng.random(200)})
    Y = np.where((x1 < 0.5)[:, None], [1, 2, 3], [2, 1, 3])
    tree = RankingTree(max_depth=1).fit(X, Y)
    assert tree.tree_.feature[0] == 0
    result = permutation_importance(tree, X, Y, n_repeats=4, random_state=0)
    assert result.importances.shape == (2, 3, 4)
    np.testing.assert_array_equal(result.importances_mean[1], 0.0)  # never used: shuffling changes nothing
    assert result.importances_mean[0, 2] == 0.0  # c is last whatever x1 says
    # shuffling x1 reverses (a, b) in about half the rows: each of a and b loses about half its agreement
    assert result.importances_mean[0, 0] == result.importances_mean[0, 1] == pytest.approx(0.5, abs=0.1)
    # every label is in two ordered pairs per row, so the drop of tau is the mean of the labels' drops
    np.testing.assert_allclose(result.overall_mean, result.importances_mean.mean(axis=1))
    assert result.feature_names == ["x1", "x2"] and result.score == 1.0


def test_permutation_importance_refuses_a_bad_repeat_count():
    toy = load_sample("toy")
    tree = RankingTree().fit(toy.X, toy.Y)
    with pytest.raises(ValueError, match="n_repeats"):
        permutation_importance(tree, toy.X, toy.Y, n_repeats=0)


@pytest.mark.filterwarnings("ignore:.*no out-of-bag prediction")
def test_on_partial_rankings_the_trees_vote_by_their_bucket_order():
    from rankviz.label_ranking.bucket_order import bucket_order

    rng = np.random.default_rng(5)
    X = pd.DataFrame({"x": rng.random(80), "z": rng.random(80)})
    dense = np.array([[1, 2, 2, 3], [2, 1, 1, 2], [1, 1, 2, 3], [3, 2, 1, 1]], dtype=float)
    Y = dense[(X["x"] * 2).astype(int) * 2 + (X["z"] > 0.5)]
    forest = RankingForest(n_estimators=9, oob_score=True, random_state=0, min_samples_leaf=3).fit(X, Y)
    assert forest.consensus_ == "bucket_order"
    assert all(tree.consensus_ == "bucket_order" for tree in forest.estimators_)
    rows = X.iloc[:12]
    votes = [tree.predict(rows.iloc[:, features]) for tree, features in
             zip(forest.estimators_, forest.estimators_features_)]
    expected = np.stack([bucket_order(np.stack([v[i] for v in votes])) for i in range(len(rows))])
    np.testing.assert_array_equal(forest.predict(rows), expected)
    # out of bag: the vote of the trees that did not draw the row
    i = int(np.flatnonzero(~np.isnan(forest.oob_prediction_[:, 0]))[0])
    held_out = [tree.predict(X.iloc[[i], features])[0] for tree, rows_, features in
                zip(forest.estimators_, forest.estimators_samples_, forest.estimators_features_) if i not in rows_]
    np.testing.assert_array_equal(forest.oob_prediction_[i], bucket_order(np.stack(held_out)))
    assert np.mean(tau_x(Y, forest.predict(X))) > 0.9  # ties predicted as the data has them
