"""The label-deletion protocol of Cheng, Hühn & Hüllermeier (2009), §6.2."""

import numpy as np
import pytest
from scipy.stats import rankdata

from rankviz._validation import validate_rank_matrix
from rankviz.label_ranking.incomplete import delete_labels
from rankviz._validation import check_rankings


def random_rankings(n, n_labels, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    if ties:  # few distinct scores: many tied labels, as average positions
        return rankdata(rng.integers(0, 3, size=(n, n_labels)), axis=1)
    return np.argsort(rng.random((n, n_labels)), axis=1).argsort(axis=1) + 1.0


@pytest.mark.parametrize("p", [0.1, 0.3, 0.6])
def test_deletion_rate_is_p_overall_and_per_label(p):
    Y = random_rankings(4000, 5)
    deleted = np.isnan(delete_labels(Y, p, seed=1))
    # Binomial counts: within 5 standard deviations of n p.
    n = deleted.size
    assert abs(deleted.sum() - n * p) < 5 * np.sqrt(n * p * (1 - p))
    per_label = deleted.sum(axis=0)
    assert (np.abs(per_label - 4000 * p) < 5 * np.sqrt(4000 * p * (1 - p))).all()


def test_remaining_labels_keep_their_order_and_are_re_ranked():
    Y = random_rankings(500, 6, ties=True)
    Y_del = delete_labels(Y, 0.4, seed=2)
    present = ~np.isnan(Y_del)
    for row, keep in zip(range(len(Y)), present):
        # Positions 1..m, ties as average positions ...
        np.testing.assert_array_equal(np.sort(Y_del[row, keep]),
                                      np.sort(rankdata(Y_del[row, keep])))
        # ... in the original order: every pair of kept labels compares the same way.
        before, after = Y[row, keep], Y_del[row, keep]
        np.testing.assert_array_equal(np.sign(before[:, None] - before[None, :]),
                                      np.sign(after[:, None] - after[None, :]))
    # Every row with two or more labels is a valid ranking for the rest of rankviz.
    informative = present.sum(axis=1) >= 2
    validate_rank_matrix(Y_del[informative], [f"l{j}" for j in range(6)])


@pytest.mark.parametrize("seed, expected", [
    # The label at position 1 goes: (2, 4, _, 3) -> (1, 3, _, 2); a lone label is first.
    (1, [[1, 3, np.nan, 2], [np.nan, np.nan, 1, np.nan]]),
    # Two tied labels remain tied, at the average of positions 1 and 2.
    (2, [[np.nan, np.nan, 1, np.nan], [1.5, 1.5, np.nan, np.nan]]),
    (6, [[1, np.nan, np.nan, np.nan], [1.5, 1.5, 3, np.nan]]),
])
def test_hand_worked_rows(seed, expected):
    Y = np.array([[2.0, 4.0, 1.0, 3.0], [1.5, 1.5, 3.0, 4.0]])
    np.testing.assert_array_equal(delete_labels(Y, 0.5, seed=seed), expected)


def test_one_coin_per_cell_from_the_seeded_generator():
    # The protocol pinned down: cell (i, j) is deleted when the (i, j)-th uniform draw
    # of default_rng(seed) is below p.
    Y = random_rankings(50, 4)
    deleted = np.random.default_rng(11).random(Y.shape) < 0.3
    np.testing.assert_array_equal(np.isnan(delete_labels(Y, 0.3, seed=11)), deleted)


def test_p_zero_returns_the_rankings_and_p_one_deletes_everything():
    Y = random_rankings(50, 4, ties=True)
    Y[3, 1] = np.nan  # an already incomplete row
    Y[3] = rankdata(Y[3], nan_policy="omit")
    np.testing.assert_array_equal(delete_labels(Y, 0.0), Y)
    assert np.isnan(delete_labels(Y, 1.0)).all()
    assert np.isnan(delete_labels(Y, 1)).all()


def test_already_missing_labels_stay_missing():
    Y = random_rankings(200, 4)
    Y[:, 0] = np.nan
    Y = rankdata(Y, axis=1, nan_policy="omit")
    assert np.isnan(delete_labels(Y, 0.2, seed=3)[:, 0]).all()


def test_seeded_reproducibility():
    Y = random_rankings(300, 5)
    first = delete_labels(Y, 0.3, seed=7)
    np.testing.assert_array_equal(first, delete_labels(Y, 0.3, seed=7))
    assert not np.array_equal(np.isnan(first), np.isnan(delete_labels(Y, 0.3, seed=8)))
    # A Generator works too, and consumes its stream.
    rng = np.random.default_rng(7)
    np.testing.assert_array_equal(delete_labels(Y, 0.3, seed=rng), first)
    assert not np.array_equal(np.isnan(delete_labels(Y, 0.3, seed=rng)), np.isnan(first))


def test_a_larger_p_deletes_a_superset_with_the_same_seed():
    Y = random_rankings(300, 5)
    low, high = np.isnan(delete_labels(Y, 0.2, seed=4)), np.isnan(delete_labels(Y, 0.5, seed=4))
    assert (high >= low).all() and high.sum() > low.sum()


def test_the_input_is_not_modified():
    Y = random_rankings(100, 4)
    original = Y.copy()
    delete_labels(Y, 0.5, seed=1)
    np.testing.assert_array_equal(Y, original)
    as_list = Y.astype(int).tolist()
    delete_labels(as_list, 0.5, seed=1)
    assert as_list == original.astype(int).tolist()


def test_rows_may_keep_fewer_than_two_labels_at_the_expected_rate():
    # The protocol of Cheng et al. has no floor: with 3 labels and p = 0.6 a row keeps
    # fewer than two labels with probability p^3 + 3 (1 - p) p^2 = 0.648.
    Y_del = delete_labels(random_rankings(20000, 3), 0.6, seed=5)
    counts = (~np.isnan(Y_del)).sum(axis=1)
    assert abs((counts < 2).mean() - 0.648) < 5 * np.sqrt(0.648 * 0.352 / 20000)
    np.testing.assert_array_equal(np.nansum(Y_del[counts == 1], axis=1), 1.0)  # a lone label is first
    # As documented: the estimators' shared validation accepts them.
    np.testing.assert_array_equal(check_rankings(Y_del), Y_del)


@pytest.mark.parametrize("ties", [False, True])
def test_blanking_without_re_ranking_is_read_as_delete_labels(ties):
    # Issue 16 §1: the gaps deleting leaves (4, -, -, -, 1, 5) need no re-ranking by the user;
    # the estimators' validation reads them as delete_labels' re-ranked positions.
    Y = random_rankings(300, 6, seed=4, ties=ties)
    blanked = Y.copy()
    blanked[np.random.default_rng(9).random(Y.shape) < 0.4] = np.nan
    np.testing.assert_array_equal(check_rankings(blanked), delete_labels(Y, 0.4, seed=9))


@pytest.mark.parametrize("p", [-0.1, 1.5, np.nan, "0.5", None, True])
def test_p_must_be_a_probability(p):
    with pytest.raises(ValueError, match="p must be a probability"):
        delete_labels([[1, 2, 3]], p)


def test_y_must_be_a_matrix():
    with pytest.raises(ValueError, match="2-D"):
        delete_labels([1, 2, 3], 0.5)
