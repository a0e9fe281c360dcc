"""Rank positions in any convention (issue 16 §1): rank_convention, and the estimators' fit.

Dense ranks (``1, 2, 2, 3``), competition ranks (``1, 2, 2, 4``) and
positions with gaps (``4, NaN, NaN, NaN, 1, 5``) are read as the average
positions of their order (:func:`rankviz._validation.rank_rows`);
:func:`rankviz.datasets.rank_conventions.rank_convention` says which
convention a matrix was in. Fitting any estimator on such a matrix equals
fitting the converted one.
"""

import numpy as np
import pytest
from scipy.stats import rankdata

from rankviz import IBLR, ConstraintClassifier, DefaultRanker, KNNRanker, RankingTree
from rankviz._validation import check_rankings, rank_rows
from rankviz.exceptions import DataError
from rankviz.datasets.rank_conventions import (AVERAGE, COMPETITION, DENSE, MIXED, OTHER, RankConvention,
                                               rank_convention)


# --------------------------------------------------------------------------- #
# rank_convention
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("Y, kind, also, n_converted", [
    ([[1, 2, 3], [3, 1, 2]], AVERAGE, (), 0),                  # permutations fit every convention: nothing to do
    ([[1.5, 1.5, 3], [2, 2, 2], [1, np.nan, 2]], AVERAGE, (), 0),
    ([[1, 2, 2, 3], [1, 2, 3, 4]], DENSE, (), 1),
    ([[1, 2, 2, 4], [1, 1, 1, 4]], COMPETITION, (), 2),
    ([[1, 2, 2, 2, 2], [2, 1, 2, 2, 2]], DENSE, (COMPETITION,), 2),  # 1,2,2: both, read the same
    ([[1, 2, 2, 3], [1, 1, 3, 4]], MIXED, (), 2),
    ([[1, 2, 2, 3], [10, 20, 30, 40]], OTHER, (), 2),
    ([[4, np.nan, np.nan, np.nan, 1, 5], [1, 2, 3, 4, 5, 6]], OTHER, (), 1),
    (np.empty((0, 3)), AVERAGE, (), 0),
])
def test_rank_convention_kinds(Y, kind, also, n_converted):
    found = rank_convention(Y)
    assert (found.kind, found.also, found.n_converted) == (kind, also, n_converted)
    assert found.converted == (n_converted > 0)


def test_rank_convention_texts_name_the_example_line():
    found = rank_convention([[1, 2, 3, 4], [1, 2, 2, 3]], line_numbers=[7, 9])
    assert found == RankConvention(DENSE, (), 2, 1, found.examples)
    assert found.text == (
        "Rank positions read as dense ranks (tied labels share one position, the next label takes the next "
        "number; line 9: 1, 2, 2, 3 read as 1, 2.5, 2.5, 4); 1 of 2 rows converted to average positions, "
        "which keep only the order of the labels.")
    mixed = rank_convention([[1, 2, 2, 3], [1, 1, 3, 4], [5, 6, 7, 8]])
    assert mixed.text == (
        "Rank positions read as positions with gaps or on another scale (dense ranks, row 1: 1, 2, 2, 3 read as "
        "1, 2.5, 2.5, 4; competition ranks, row 2: 1, 1, 3, 4 read as 1.5, 1.5, 3, 4; row 3: 5, 6, 7, 8 read "
        "as 1, 2, 3, 4); 3 of 3 rows converted to average positions, which keep only the order of the labels.")
    assert rank_convention([[1, 2], [2, 1]]).text == "Rank positions given as average positions; nothing converted."


def test_rank_convention_shortens_long_rows():
    row = np.arange(40, 0, -1) * 10.0
    text = rank_convention([row]).text
    assert "row 1: 400, 390, 380" in text and "... (40 labels)" in text and "the row converted" in text


@pytest.mark.parametrize("Y, message", [
    ([1, 2, 3], r"2-D matrix of rank positions"),
    ([[1, np.inf, 2]], r"infinite position"),
])
def test_rank_convention_refuses_what_validation_refuses(Y, message):
    with pytest.raises(ValueError, match=message):
        rank_convention(Y)


def test_rank_rows_is_rankdata_per_row_with_nan_kept():
    Y = np.array([[3.0, np.nan, 1, 1], [0.5, 0.25, np.nan, np.nan]])
    np.testing.assert_array_equal(rank_rows(Y), [[3, np.nan, 1.5, 1.5], [2, 1, np.nan, np.nan]])
    np.testing.assert_array_equal(rank_rows(Y, "dense"), [[2, np.nan, 1, 1], [2, 1, np.nan, np.nan]])
    complete = np.array([[2.0, 2, 7]])
    np.testing.assert_array_equal(rank_rows(complete), rankdata(complete, axis=1))


@pytest.mark.parametrize("method", ["average", "dense", "min", "max", "ordinal"])
def test_rank_rows_returns_permutations_as_they_are_and_ranks_the_rest(method):
    """Rows of the positions 1..L once each skip scipy: they must be what rankdata makes of them, and a
    matrix where one row is not such a permutation must still be ranked."""
    rng = np.random.default_rng(1)
    Y = np.argsort(rng.random((50, 7)), axis=1) + 1.0
    ranked = rank_rows(Y, method)
    np.testing.assert_array_equal(ranked, rankdata(Y, axis=1, method=method))
    assert ranked is not Y and ranked.dtype == float
    Y[3] = [1, 2, 3, 4, 5, 6, 8]  # a gap: not 1..7
    np.testing.assert_array_equal(rank_rows(Y, method), rankdata(Y, axis=1, method=method))


# --------------------------------------------------------------------------- #
# check_rankings and the estimators
# --------------------------------------------------------------------------- #
def test_check_rankings_converts_gaps_and_dense_ties():
    Y = [[4, np.nan, np.nan, np.nan, 1, 5], [1, 2, 2, 2, 2, 3], [6, 5, 4, 3, 2, 1]]
    np.testing.assert_array_equal(check_rankings(Y), [[2, np.nan, np.nan, np.nan, 1, 3],
                                                      [1, 3.5, 3.5, 3.5, 3.5, 6], [6, 5, 4, 3, 2, 1]])


def test_check_rankings_refuses_an_infinite_position_with_its_place():
    with pytest.raises(DataError, match=r"^Y, row 2, column 'label_3': label 'label_3' has the infinite "
                                        r"position -inf; expected finite numbers"):
        check_rankings([[1, 2, 3], [1, 2, -np.inf]])


def _problem(seed=0, n=60, n_labels=6, gaps=True):
    """Features, and rankings written with dense ties and (``gaps``) labels deleted (not average positions)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    # Scores that depend on the features, a few ties among them, in dense ranks ...
    scores = np.round(X @ rng.normal(size=(3, n_labels)) + rng.normal(scale=0.5, size=(n, n_labels)))
    Y = rankdata(scores, axis=1, method="dense").astype(float)
    # ... then labels deleted without re-ranking what is left: gaps, as in 4, -, -, -, 1, 5.
    if gaps:
        Y[rng.random(Y.shape) < 0.3] = np.nan
    else:  # complete, on another scale: 13, 23, 23, 33, ...
        Y = Y * 10 + 3
    return X, Y


def test_the_problem_is_not_in_average_positions():
    X, Y = _problem()
    assert rank_convention(Y).kind == OTHER and rank_convention(Y).n_converted > 30


@pytest.mark.parametrize("make, gaps", [
    (lambda: RankingTree(min_samples_leaf=3), False),  # mean_spearman needs complete rankings
    (lambda: RankingTree(criterion="mallows", min_samples_leaf=4, max_depth=3), True),
    (lambda: IBLR(n_neighbors=5), True),
    (lambda: KNNRanker(n_neighbors=3), True),
    (lambda: DefaultRanker(), True),
    (lambda: ConstraintClassifier(), True),
], ids=["tree", "mallows-tree", "iblr", "knn", "default", "constraint"])
def test_fitting_any_convention_equals_fitting_the_converted_rankings(make, gaps):
    X, Y = _problem(gaps=gaps)
    assert rank_convention(Y).converted
    converted = rank_rows(Y)
    given = make().fit(X, Y)
    internal = make().fit(X, converted)
    np.testing.assert_array_equal(given.predict(X), internal.predict(X))
    assert given.score(X, Y) == internal.score(X, converted)
