"""Tests for rankviz.label_ranking.metrics: hand-worked values, bounds, scipy agreement, NaN."""

import math

import numpy as np
import pytest
from scipy.stats import kendalltau, rankdata, spearmanr

from rankviz.label_ranking.metrics import cs, kendall_tau, lra, wrc

MEASURES = [cs, wrc, lra, kendall_tau]


# ---------------------------------------------------------------------------
# Values worked by hand from eqs. (1)-(5)
# ---------------------------------------------------------------------------

# y_true = [1, 2, 3, 4], y_pred = [2, 1, 3, 4]: the top two labels swapped.
# d = [-1, 1, 0, 0], sum d^2 = 2, L = 4.
SWAP_TOP = ([1, 2, 3, 4], [2, 1, 3, 4])


def test_cs_by_hand():
    # eq. (1): 1 - 6 * 2 / (4^3 - 4) = 1 - 12 / 60 = 0.8
    assert cs(*SWAP_TOP) == pytest.approx(0.8)
    # swap of the two bottom labels has the same sum d^2 = 2 -> also 0.8
    assert cs([1, 2, 3, 4], [1, 2, 4, 3]) == pytest.approx(0.8)


def test_wrc_by_hand():
    # eq. (3): weight (L - R(X) + 1) + (L - R(Y) + 1)
    #   label 0: (4 - 1 + 1) + (4 - 2 + 1) = 4 + 3 = 7, d^2 = 1 -> W^2 = 7
    #   label 1: (4 - 2 + 1) + (4 - 1 + 1) = 3 + 4 = 7, d^2 = 1 -> W^2 = 7
    # sum W^2 = 14; denominator 4^4 + 4^3 - 4^2 - 4 = 256 + 64 - 16 - 4 = 300
    # eq. (4): 1 - 6 * 14 / 300 = 1 - 84 / 300 = 0.72
    assert wrc(*SWAP_TOP) == pytest.approx(0.72)
    # bottom swap, labels 2 and 3: weights (2 + 1) + (1 + 2) = 3 each,
    # sum W^2 = 6 -> 1 - 36 / 300 = 0.88 (an error at the top costs more)
    assert wrc([1, 2, 3, 4], [1, 2, 4, 3]) == pytest.approx(0.88)


def test_lra_by_hand():
    # numerator: label 0: log_2(1 + 1) = 1; label 1: log_3(1 + 1) = ln2/ln3;
    #            labels 2, 3: log(1 + 0) = 0.
    num = 1 + math.log(2) / math.log(3)
    # denominator, i = 1..4, i - (L - i + 1) = -3, -1, 1, 3:
    #   log_2(10) + log_3(2) + log_4(2) + log_5(10)
    den = (
        math.log(10) / math.log(2)
        + math.log(2) / math.log(3)
        + 0.5  # log_4(2)
        + math.log(10) / math.log(5)
    )
    # about 1 - 2 * 1.630930 / 5.883535 = 0.445595
    assert lra(*SWAP_TOP) == pytest.approx(1 - 2 * num / den)
    assert lra(*SWAP_TOP) == pytest.approx(0.445595, abs=1e-6)
    # bottom swap: log_4(2) + log_5(2) = 0.5 + ln2/ln5
    num_bottom = 0.5 + math.log(2) / math.log(5)
    assert lra([1, 2, 3, 4], [1, 2, 4, 3]) == pytest.approx(1 - 2 * num_bottom / den)
    assert lra([1, 2, 3, 4], [1, 2, 4, 3]) > lra(*SWAP_TOP)


def test_lra_weights_by_true_positions():
    # log base 1 + R(X_i) uses y_true: swapping arguments changes the value.
    y_true, y_pred = [1, 2, 3, 4], [3, 1, 2, 4]
    # numerator: label 0: log_2(1 + 4) ; label 1: log_3(2); label 2: log_4(2)
    num = math.log(5) / math.log(2) + math.log(2) / math.log(3) + 0.5
    den = (
        math.log(10) / math.log(2)
        + math.log(2) / math.log(3)
        + 0.5
        + math.log(10) / math.log(5)
    )
    assert lra(y_true, y_pred) == pytest.approx(1 - 2 * num / den)
    assert lra(y_true, y_pred) != pytest.approx(lra(y_pred, y_true))


def test_kendall_by_hand():
    # 6 pairs, only (label 0, label 1) discordant: (5 - 1) / 6 = 2/3
    assert kendall_tau(*SWAP_TOP) == pytest.approx(2 / 3)


# y_true = [1.5, 1.5, 3] (labels 0 and 1 tied), y_pred = [1, 2, 3].
TIED = ([1.5, 1.5, 3], [1, 2, 3])


def test_cs_with_ties_uses_pearson():
    # eq. (2): centred x = [-.5, -.5, 1], centred y = [-1, 0, 1]
    #   sum xy = .5 + 0 + 1 = 1.5; sum x^2 = 1.5; sum y^2 = 2
    #   r = 1.5 / sqrt(3) = sqrt(3) / 2 = 0.866025...
    # (eq. (1) would give 1 - 6 * 0.5 / 24 = 0.875, which is wrong here)
    assert cs(*TIED) == pytest.approx(math.sqrt(3) / 2)


def test_wrc_with_ties_by_hand():
    # d^2 = [.25, .25, 0]; weights (3 - 1.5 + 1) + (3 - 1 + 1) = 5.5 and
    # (3 - 1.5 + 1) + (3 - 2 + 1) = 4.5 -> sum W^2 = .25 * 10 = 2.5
    # denominator 81 + 27 - 9 - 3 = 96 -> 1 - 15 / 96 = 0.84375
    assert wrc(*TIED) == pytest.approx(0.84375)


def test_kendall_tau_b_by_hand():
    # pairs (0,1): tied in y_true; (0,2), (1,2): concordant. C - D = 2
    # tau-b = 2 / sqrt((3 - 1) * (3 - 0)) = 2 / sqrt(6)
    assert kendall_tau(*TIED) == pytest.approx(2 / math.sqrt(6))


# ---------------------------------------------------------------------------
# Identical and reversed rankings
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("measure", MEASURES)
@pytest.mark.parametrize("n_labels", [2, 3, 4, 7, 10, 25])
def test_identical_is_one_reversed_is_minus_one(measure, n_labels):
    rng = np.random.default_rng(n_labels)
    y = rng.permutation(n_labels) + 1.0
    reverse = n_labels + 1 - y
    assert measure(y, y) == pytest.approx(1.0)
    assert measure(y, reverse) == pytest.approx(-1.0)
    # 2-D: several random rankings at once
    Y = np.argsort(rng.random((5, n_labels)), axis=1).argsort(axis=1) + 1.0
    np.testing.assert_allclose(measure(Y, Y), np.ones(5))
    np.testing.assert_allclose(measure(Y, n_labels + 1 - Y), -np.ones(5))


@pytest.mark.parametrize("measure", [cs, wrc, kendall_tau])
def test_values_in_range(measure):
    rng = np.random.default_rng(0)
    Y_true = rankdata(rng.random((300, 6)), axis=1)
    Y_pred = rankdata(rng.integers(0, 4, (300, 6)), axis=1)
    values = measure(Y_true, Y_pred)
    assert np.all((values >= -1 - 1e-12) & (values <= 1 + 1e-12))


def test_lra_can_fall_below_minus_one():
    # Documented: -1 is the reversed ranking, not the minimum. L = 4,
    # y_pred = [4, 3, 1, 2]: numerator log_2(10) + log_3(2) + log_4(5) + log_5(5)
    # exceeds the denominator log_2(10) + log_3(2) + log_4(2) + log_5(10).
    num = (
        math.log(10) / math.log(2)
        + math.log(2) / math.log(3)
        + math.log(5) / math.log(4)
        + 1.0
    )
    den = (
        math.log(10) / math.log(2)
        + math.log(2) / math.log(3)
        + 0.5
        + math.log(10) / math.log(5)
    )
    value = lra([1, 2, 3, 4], [4, 3, 1, 2])
    assert value == pytest.approx(1 - 2 * num / den)
    assert value == pytest.approx(-1.078282, abs=1e-6)


def test_weighted_measures_penalise_top_more():
    top = ([1, 2, 3, 4, 5], [2, 1, 3, 4, 5])
    bottom = ([1, 2, 3, 4, 5], [1, 2, 3, 5, 4])
    assert cs(*top) == pytest.approx(cs(*bottom))
    assert kendall_tau(*top) == pytest.approx(kendall_tau(*bottom))
    assert wrc(*top) < wrc(*bottom)
    assert lra(*top) < lra(*bottom)


# ---------------------------------------------------------------------------
# Agreement with scipy and with straightforward per-label loops
# ---------------------------------------------------------------------------


def _random_rankings(rng, n, n_labels, tied):
    if tied:
        return rankdata(rng.integers(0, max(2, n_labels // 2), (n, n_labels)), axis=1)
    return rankdata(rng.random((n, n_labels)), axis=1)


def _loop_wrc(x, y):
    L = len(x)
    w2 = sum((a - b) ** 2 * ((L - a + 1) + (L - b + 1)) for a, b in zip(x, y))
    return 1 - 6 * w2 / (L**4 + L**3 - L**2 - L)


def _loop_lra(x, y):
    L = len(x)
    num = sum(math.log(1 + (a - b) ** 2, 1 + a) for a, b in zip(x, y))
    den = sum(math.log(1 + (i - (L - i + 1)) ** 2, 1 + i) for i in range(1, L + 1))
    return 1 - 2 * num / den


@pytest.mark.parametrize("tied", [False, True])
@pytest.mark.parametrize("n_labels", [2, 3, 5, 8, 20])
def test_agrees_with_scipy_and_loops(n_labels, tied):
    rng = np.random.default_rng(1000 * n_labels + tied)
    n = 150
    Y_true = _random_rankings(rng, n, n_labels, tied)
    Y_pred = _random_rankings(rng, n, n_labels, tied)
    if not tied:  # make sure identical rows are among the permutations
        Y_pred[:3] = Y_true[:3]

    batch = {m: m(Y_true, Y_pred) for m in MEASURES}
    for m in MEASURES:
        assert isinstance(batch[m], np.ndarray) and batch[m].shape == (n,)

    n_constant = 0
    for i in range(n):
        x, y = Y_true[i], Y_pred[i]
        for m in MEASURES:  # row-by-row 1-D call == vectorised 2-D call
            assert m(x, y) == pytest.approx(batch[m][i], abs=1e-12)
        assert batch[wrc][i] == pytest.approx(_loop_wrc(x, y))
        assert batch[lra][i] == pytest.approx(_loop_lra(x, y))
        if np.ptp(x) == 0 or np.ptp(y) == 0:  # scipy gives NaN here
            n_constant += 1
            assert batch[cs][i] == 0.0 and batch[kendall_tau][i] == 0.0
            continue
        assert batch[cs][i] == pytest.approx(spearmanr(x, y).statistic)
        assert batch[kendall_tau][i] == pytest.approx(kendalltau(x, y).statistic)
    assert n_constant < n


def test_cs_equation_one_without_ties():
    rng = np.random.default_rng(7)
    L = 9
    Y_true = _random_rankings(rng, 50, L, tied=False)
    Y_pred = _random_rankings(rng, 50, L, tied=False)
    expected = 1 - 6 * ((Y_true - Y_pred) ** 2).sum(axis=1) / (L**3 - L)
    np.testing.assert_allclose(cs(Y_true, Y_pred), expected)


def test_all_tied_row_scores_zero():
    assert cs([2, 2, 2], [1, 2, 3]) == 0.0
    assert kendall_tau([1, 2, 3], [2, 2, 2]) == 0.0
    assert cs([1.5, 1.5], [1.5, 1.5]) == 0.0


# ---------------------------------------------------------------------------
# Shapes, types and errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("measure", MEASURES)
def test_return_types(measure):
    value = measure([1, 2, 3], [3, 1, 2])
    assert type(value) is float
    values = measure([[1, 2, 3], [1, 3, 2], [2, 1, 3]], [[3, 1, 2]] * 3)
    assert isinstance(values, np.ndarray) and values.shape == (3,)
    assert values.dtype == np.float64
    assert measure(np.empty((0, 3)), np.empty((0, 3))).shape == (0,)


@pytest.mark.parametrize("measure", MEASURES)
def test_shape_mismatch_raises(measure):
    with pytest.raises(ValueError, match=r"\(3,\).*\(4,\)"):
        measure([1, 2, 3], [1, 2, 3, 4])
    with pytest.raises(ValueError, match=r"\(2, 3\).*\(3,\)"):
        measure([[1, 2, 3], [1, 2, 3]], [1, 2, 3])


@pytest.mark.parametrize("measure", MEASURES)
def test_invalid_inputs_raise(measure):
    with pytest.raises(ValueError, match="at least 2 labels"):
        measure([1], [1])
    with pytest.raises(ValueError, match="at least 2 labels"):
        measure([[1], [1]], [[1], [1]])
    with pytest.raises(ValueError, match="shape"):
        measure(np.ones((2, 2, 2)), np.ones((2, 2, 2)))
    with pytest.raises(ValueError, match="between 1 and 3"):
        measure([0, 1, 2], [1, 2, 3])  # 0-based positions
    with pytest.raises(ValueError, match="between 1 and 3"):
        measure([1, 2, 3], [1, 2, 4])


# ---------------------------------------------------------------------------
# Missing labels
# ---------------------------------------------------------------------------


def test_missing_label_by_hand():
    # label 2 missing in y_pred: keep labels 0, 1, 3, 4.
    # y_true [1, 2, 4, 5] -> [1, 2, 3, 4]; y_pred [2, 1, 5, 4] -> [2, 1, 4, 3]
    # sum d^2 = 4 -> cs = 1 - 24 / 60 = 0.6 ; kendall: 2 of 6 pairs discordant
    y_true = [1, 2, 3, 4, 5]
    y_pred = [2, 1, np.nan, 5, 4]
    assert cs(y_true, y_pred) == pytest.approx(0.6)
    assert kendall_tau(y_true, y_pred) == pytest.approx((4 - 2) / 6)


@pytest.mark.parametrize("measure", MEASURES)
def test_missing_labels_equal_reduced_rankings(measure):
    Y_true = np.array(
        [
            [1, 2, 3, 4, 5],
            [np.nan, 1, 2, 3, 4],  # missing in y_true only
            [1, 2, 3, 4, 5],
            [3, 1, 2, 5, 4],
            [1, 2, 3, 4, 5],
            [np.nan, np.nan, 1, 2, np.nan],
            [np.nan] * 5,
        ]
    )
    Y_pred = np.array(
        [
            [2, 1, np.nan, 5, 4],  # missing in y_pred only
            [5, 4, 3, 2, 1],
            [1, 2, 3, 4, 5],  # complete row among NaN rows
            [np.nan, 2.5, 2.5, 1, np.nan],  # missing in both, with ties
            [np.nan, 1, np.nan, np.nan, np.nan],  # only 1 common label
            [1, 2, 3, 4, 5],
            [1, 2, 3, 4, 5],
        ]
    )
    reduced = [
        ([1, 2, 3, 4], [2, 1, 4, 3]),
        ([1, 2, 3, 4], [4, 3, 2, 1]),  # y_true [1, 2, 3, 4] (label 0 dropped)
        ([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]),
        ([1, 2, 3], [2.5, 2.5, 1]),  # y_true [1, 2, 5] -> [1, 2, 3]
        None,
        ([1, 2], [1, 2]),  # y_pred [3, 4] -> [1, 2]
        None,
    ]
    values = measure(Y_true, Y_pred)
    assert values.shape == (7,)
    for i, pair in enumerate(reduced):
        if pair is None:
            assert np.isnan(values[i])
        else:
            assert values[i] == pytest.approx(measure(*pair))
            assert measure(Y_true[i], Y_pred[i]) == pytest.approx(values[i])


def test_missing_label_row_does_not_change_complete_rows():
    rng = np.random.default_rng(3)
    Y_true = _random_rankings(rng, 40, 6, tied=True)
    Y_pred = _random_rankings(rng, 40, 6, tied=False)
    with_nan = Y_pred.copy()
    with_nan[::5, 2] = np.nan
    for m in MEASURES:
        full, partial = m(Y_true, Y_pred), m(Y_true, with_nan)
        complete = ~np.isnan(with_nan).any(axis=1)
        np.testing.assert_array_equal(partial[complete], full[complete])
        for i in np.flatnonzero(~complete):
            keep = np.arange(6) != 2
            expected = m(rankdata(Y_true[i, keep]), rankdata(Y_pred[i, keep]))
            assert partial[i] == pytest.approx(expected)
