"""Predicting partial rankings: ``tie_tolerance`` on the trees, IBLR, KNN and the default ranking."""

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau, spearmanr

from rankviz import IBLR, DefaultRanker, KNNRanker, RankingTree
from rankviz.label_ranking.aggregation import rank_by_mean, tie_close_labels
from rankviz.label_ranking.metrics import cs, kendall_tau, lra, wrc
from rankviz.tree.structure import ranking_order, ranking_text
from rankviz.viz.dot.ranking_tree import ranking_lines


def random_problem(seed, n=80, labels=5, features=3):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, features))
    Y = np.array([rng.permutation(labels) + 1 for _ in range(n)], dtype=float)
    return X, Y


# --------------------------------------------------------------------------- #
# the rule
# --------------------------------------------------------------------------- #

def test_neighbouring_labels_within_the_tolerance_share_their_average_position():
    # Scores 1.0, 2.0, 2.05, 3.5: only the middle two are within 0.1.
    assert tie_close_labels([1, 2, 3, 4], [1.0, 2.0, 2.05, 3.5], 0.1).tolist() == [1, 2.5, 2.5, 4]
    # The ranking need not list labels in column order.
    assert tie_close_labels([4, 3, 2, 1], [3.5, 2.05, 2.0, 1.0], 0.1).tolist() == [4, 2.5, 2.5, 1]


def test_ties_chain_through_close_neighbours():
    # 1.0 ~ 1.08 ~ 1.16: one tie of three, although 1.0 and 1.16 differ by more than 0.1.
    assert tie_close_labels([1, 2, 3, 4], [1.0, 1.08, 1.16, 3.0], 0.1).tolist() == [2, 2, 2, 4]


def test_tolerance_zero_ties_only_equal_scores_and_rows_are_independent():
    ranking = np.array([[1, 2, 3], [1, 2, 3]], float)
    scores = np.array([[1.0, 2.0, 2.0], [1.0, 1.0 + 1e-6, 3.0]])
    assert tie_close_labels(ranking, scores, 0).tolist() == [[1, 2.5, 2.5], [1, 2, 3]]


def test_a_label_without_a_score_ties_with_none():
    assert tie_close_labels([1, 2, 3], [1.0, np.nan, 1.0], 5).tolist() == [1, 2, 3]
    out = tie_close_labels([1, np.nan, 2], [1.0, np.nan, 1.0], 0.5)
    assert out[0] == out[2] == 1.5 and np.isnan(out[1])


def test_rank_by_mean_with_a_tolerance():
    assert rank_by_mean([2.0, 1.0, 2.0]).tolist() == [2, 1, 3]  # strict: label order breaks the tie
    assert rank_by_mean([2.0, 1.0, 2.0], 0).tolist() == [2.5, 1, 2.5]


@pytest.mark.parametrize("bad", [-0.1, np.nan, np.inf, "0.1", True])
def test_invalid_tolerances_are_refused(bad):
    X, Y = random_problem(0, n=10)
    for model in (RankingTree(tie_tolerance=bad), IBLR(tie_tolerance=bad), KNNRanker(tie_tolerance=bad),
                  DefaultRanker(tie_tolerance=bad)):
        with pytest.raises(ValueError, match="tie_tolerance"):
            model.fit(X, Y)


# --------------------------------------------------------------------------- #
# the estimators
# --------------------------------------------------------------------------- #

def test_default_ranking_ties_labels_with_equal_mean_positions():
    Y = np.array([[1, 2, 3], [2, 1, 3]], float)  # labels a and b: mean position 1.5 each
    model = DefaultRanker(tie_tolerance=0).fit(np.zeros((2, 1)), Y)
    assert model.predict(np.zeros((1, 1))).tolist() == [[1.5, 1.5, 3]]
    assert DefaultRanker().fit(np.zeros((2, 1)), Y).predict(np.zeros((1, 1))).tolist() == [[1, 2, 3]]


def test_knn_ties_labels_its_neighbours_split_evenly():
    X = np.array([[0.0], [0.0], [10.0]])
    Y = np.array([[1, 2, 3], [2, 1, 3], [3, 2, 1]], float)
    model = KNNRanker(n_neighbors=2, tie_tolerance=0).fit(X, Y)
    assert model.predict([[0.0]]).tolist() == [[1.5, 1.5, 3]]


@pytest.mark.parametrize("criterion", ["mean_spearman", "mallows", "ranking_impurity"])
def test_a_tolerance_changes_the_leaves_rankings_never_the_splits(criterion):
    X, Y = random_problem(1)
    strict = RankingTree(criterion=criterion, min_samples_leaf=8).fit(X, Y)
    tied = RankingTree(criterion=criterion, min_samples_leaf=8, tie_tolerance=0.25).fit(X, Y)
    for name in ("children_left", "feature", "threshold", "n_samples"):
        np.testing.assert_array_equal(getattr(strict.tree_, name), getattr(tied.tree_, name))
    if criterion != "mallows":
        np.testing.assert_array_equal(tied.tree_.ranking, rank_by_mean(tied.tree_.mean_rank, 0.25))
    _assert_refines(strict.tree_.ranking, tied.tree_.ranking)
    assert (tied.tree_.ranking % 1 != 0).any()  # some leaf does tie at this tolerance
    np.testing.assert_array_equal(tied.predict(X), tied.tree_.ranking[tied.apply(X)])


def test_the_gamma_path_predicts_the_tied_rankings():
    X, Y = random_problem(2)
    model = RankingTree(gamma=np.inf, min_samples_leaf=6, tie_tolerance=0.3).fit(X, Y)
    at = model.predict_at(X, [1.0])[:, 0]
    again = RankingTree(gamma=1.0, min_samples_leaf=6, tie_tolerance=0.3).fit(X, Y).predict(X)
    np.testing.assert_array_equal(at, again)


@pytest.mark.parametrize("model", [IBLR(n_neighbors=7, tie_tolerance=0.2),
                                   RankingTree(criterion="mallows", min_samples_leaf=6, tie_tolerance=0.2)],
                         ids=["IBLR", "Mallows tree"])
def test_mallows_predictions_tie_only_neighbours_of_the_centre(model):
    X, Y = random_problem(3)
    strict = type(model)(**{**model.get_params(), "tie_tolerance": None}).fit(X, Y).predict(X)
    tied = model.fit(X, Y).predict(X)
    _assert_refines(strict, tied)
    assert (tied % 1 != 0).any()


def test_mallows_ties_follow_the_borda_positions_with_incomplete_rankings():
    X, Y = random_problem(4, n=60)
    Y[::3, 0] = np.nan  # a third of the rankings lack label 0: re-rank the rest 1..4
    from scipy.stats import rankdata
    Y = rankdata(Y, axis=1, nan_policy="omit")
    strict = IBLR(n_neighbors=9).fit(X, Y).predict(X)
    tied = IBLR(n_neighbors=9, tie_tolerance=0.3).fit(X, Y).predict(X)
    _assert_refines(strict, tied)


def test_iblr_chooses_k_for_the_tied_predictions():
    X, Y = random_problem(5, n=60)
    model = IBLR(n_neighbors="auto", k_grid=[1, 3, 9], inner_folds=3, tie_tolerance=0.5).fit(X, Y)
    assert set(model.cv_scores_) == {1, 3, 9}
    assert model.score(X, Y) == pytest.approx(np.nanmean(kendall_tau(Y, model.predict(X))))


def _assert_refines(strict, tied):
    """Every pair the tied ranking orders, the strict one orders the same way; ties are whole runs."""
    strict, tied = np.atleast_2d(strict), np.atleast_2d(tied)
    s = np.sign(strict[:, :, None] - strict[:, None, :])
    t = np.sign(tied[:, :, None] - tied[:, None, :])
    assert ((t == 0) | (t == s)).all()


# --------------------------------------------------------------------------- #
# the measures on tied predictions
# --------------------------------------------------------------------------- #

def test_measures_score_tied_predictions_as_the_references_do():
    rng = np.random.default_rng(6)
    truth = np.array([rng.permutation(6) + 1 for _ in range(40)], float)
    scores = rng.integers(0, 3, size=truth.shape) + rng.normal(scale=1e-3, size=truth.shape)
    predicted = tie_close_labels(rank_by_mean(scores), scores, 0.01)  # a few ties per row
    assert (predicted % 1 != 0).any()
    for y, p in zip(truth, predicted):
        # Spearman with ties is Pearson's correlation of the positions: eq. (2) of Rebelo et al.
        assert cs(y, p) == pytest.approx(spearmanr(y, p).statistic)
        assert kendall_tau(y, p) == pytest.approx(kendalltau(y, p).statistic)  # tau-b
    tied = np.array([1.5, 1.5, 3, 4])
    assert wrc(tied, tied) == pytest.approx(1.0) and lra(tied, tied) == pytest.approx(1.0)
    # A prediction that ties the two labels the truth orders scores between right and wrong.
    assert kendall_tau([1, 2, 3, 4], [2, 1, 3, 4]) < kendall_tau([1, 2, 3, 4], tied) < 1


# --------------------------------------------------------------------------- #
# how ties are shown
# --------------------------------------------------------------------------- #

def test_ties_are_shown_with_an_equals_sign():
    names = ["a", "b", "c", "d"]
    assert ranking_text([1, 2.5, 2.5, 4], names) == "a > b = c > d"
    assert ranking_text([2.5, 1, 2.5, np.nan], names) == "b > a = c"
    assert ranking_text([1, 2, 3, 4], names) == "a > b > c > d"
    order, tied = ranking_order([3, 1.5, 1.5])
    assert order.tolist() == [1, 2, 0] and tied.tolist() == [False, True, False]


def test_a_ranking_cut_short_inside_a_tie_says_so():
    """The drawings show a leaf's first labels, then "…": the sign before it is the relation of the first
    label left out, so a tie running past the cut is not drawn as an order."""
    tree = RankingTree(min_samples_leaf=5).fit(np.arange(10.0)[:, None], [[1, 2, 2, 2, 2, 3]] * 10).tree_
    assert " ".join(ranking_lines(tree, 0, max_labels=3)).replace("&gt;", ">") == "label_1 > label_2 = label_3 = …"
    assert " ".join(ranking_lines(tree, 0, max_labels=5)).replace("&gt;", ">") == (
        "label_1 > label_2 = label_3 = label_4 = label_5 > …")
    assert tree.ranking_text(0) == "label_1 > label_2 = label_3 = label_4 = label_5 > label_6"


def test_tree_drawings_show_tied_leaves():
    X, Y = random_problem(7)
    model = RankingTree(min_samples_leaf=20, tie_tolerance=0.3).fit(X, pd.DataFrame(Y, columns=list("abcde")))
    tree = model.tree_
    leaf = next(i for i in np.flatnonzero(tree.is_leaf) if (tree.ranking[i] % 1 != 0).any())
    text = tree.ranking_text(leaf)
    assert " = " in text
    assert " ".join(ranking_lines(tree, leaf)).replace("&gt;", ">") == text
