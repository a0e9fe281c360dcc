"""The Mallows model of Cheng, Hühn & Hüllermeier (2009) against brute force over all permutations of a few labels."""

import itertools

import numpy as np
import pytest
from scipy.optimize import minimize_scalar
from scipy.stats import kendalltau

from rankviz.label_ranking.mallows import (borda_center, expected_distance, expected_kendall_tau,
                             extend_rankings, fit_mallows, fit_mallows_groups, kendall_distance,
                             most_probable_extension, theta_from_mean_distance)


def permutations(n):
    return np.array(list(itertools.permutations(range(1, n + 1))), dtype=float)


def extensions(sigma):
    """Every complete ranking that keeps the order of sigma's present labels."""
    present = ~np.isnan(sigma)
    return np.array([p for p in permutations(len(sigma))
                     if kendall_distance(p[present], sigma[present])[0] == 0])


def random_ranking(rng, n):
    return rng.permutation(n).astype(float) + 1


def drop_labels(ranking, drop):
    """The ranking without the dropped labels, the rest re-ranked 1..m."""
    kept = np.where(drop, np.inf, ranking)
    return np.where(drop, np.nan, np.argsort(np.argsort(kept)) + 1.0)


@pytest.mark.parametrize("n", [2, 3, 4, 5])
@pytest.mark.parametrize("theta", [0.0, 0.05, 0.7, 2.0, 8.0])
def test_expected_distance_matches_the_distribution_over_all_permutations(n, theta):
    perms = permutations(n)
    d = kendall_distance(perms, np.arange(1.0, n + 1))
    p = np.exp(-theta * d)
    assert expected_distance(theta, n) == pytest.approx((p @ d) / p.sum(), rel=1e-9, abs=1e-12)


def test_theta_inverts_the_expected_distance_and_handles_the_ends():
    for n in (2, 4, 10, 30):
        theta = np.exp(np.linspace(np.log(1e-3), np.log(45), 200))
        np.testing.assert_allclose(theta_from_mean_distance(expected_distance(theta, n), n), theta, rtol=1e-5)
        assert theta_from_mean_distance(0.0, n) == np.inf  # a pure set
        assert theta_from_mean_distance(n * (n - 1) / 4, n) == 0.0  # as spread as uniform
        assert theta_from_mean_distance(n * (n - 1) / 2, n) == 0.0


@pytest.mark.parametrize("seed", range(6))
def test_complete_data_mle_over_all_centres_and_spreads(seed):
    """With center='exact' the fit is the joint MLE of (pi, theta): no permutation and no theta does better."""
    rng = np.random.default_rng(seed)
    n = 4
    base = random_ranking(rng, n)
    Y = np.array([base if rng.random() < 0.5 else random_ranking(rng, n) for _ in range(9)])
    fit = fit_mallows(Y, center="exact")
    perms = permutations(n)
    log_phi = lambda t: np.log(np.exp(-t * kendall_distance(perms, perms[0])).sum())

    def loglik(pi, t):
        return -t * kendall_distance(Y, pi).sum() - len(Y) * log_phi(t)

    best = max(-minimize_scalar(lambda t: -loglik(pi, t), bounds=(0, 30), method="bounded").fun
               for pi in perms)
    assert loglik(fit.center, fit.theta) == pytest.approx(best, abs=1e-6)


def test_theta_recovers_the_spread_of_mallows_samples():
    rng = np.random.default_rng(3)
    n, theta = 4, 0.8
    perms = permutations(n)
    centre = np.array([2.0, 4.0, 1.0, 3.0])
    p = np.exp(-theta * kendall_distance(perms, centre))
    Y = perms[rng.choice(len(perms), size=4000, p=p / p.sum())]
    fit = fit_mallows(Y)
    np.testing.assert_array_equal(fit.center, centre)
    assert fit.theta == pytest.approx(theta, rel=0.05)


def test_a_pure_set_has_infinite_spread_and_weights_count():
    Y = np.tile([2.0, 1.0, 3.0], (5, 1))
    assert fit_mallows(Y).theta == np.inf
    Y = np.array([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]])
    np.testing.assert_array_equal(fit_mallows(Y, weights=[3, 1]).center, [1, 2, 3])
    np.testing.assert_array_equal(fit_mallows(Y, weights=[1, 3]).center, [3, 2, 1])


def test_kendall_distance_agrees_with_scipy_tau():
    rng = np.random.default_rng(4)
    for _ in range(50):
        a, b = random_ranking(rng, 7), random_ranking(rng, 7)
        tau = kendalltau(a, b).statistic
        assert kendall_distance(a, b)[0] == pytest.approx((1 - tau) / 2 * 21)


@pytest.mark.parametrize("seed", range(40))
def test_most_probable_extension_is_closest_to_the_centre(seed):
    """Proposition 1 against every consistent extension."""
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 7))
    center = random_ranking(rng, n)
    full = random_ranking(rng, n)
    keep = rng.random(n) < 0.5
    keep[rng.integers(n)] = True
    sigma = drop_labels(full, ~keep)
    extension = most_probable_extension(sigma, center)
    candidates = extensions(sigma)
    assert any((extension == c).all() for c in candidates)  # consistent with sigma
    assert kendall_distance(extension, center)[0] == kendall_distance(candidates, center).min()


@pytest.mark.parametrize("seed", range(15))
def test_generalised_borda_minimises_expected_squared_distance(seed):
    """Proposition 2: with completions uniform over E(sigma_i), the generalised Borda centre
    minimises the expected sum of squared rank distances."""
    rng = np.random.default_rng(100 + seed)
    n = 4
    Y = np.array([random_ranking(rng, n) for _ in range(5)])
    for i, row in enumerate(Y):
        drop = rng.random(n) < 0.4
        if drop.sum() < n - 1:
            Y[i] = drop_labels(row, drop)
    completions = [extensions(row) for row in Y]

    def expected_cost(pi):
        return sum(((c - pi) ** 2).sum(axis=1).mean() for c in completions)

    costs = [expected_cost(p) for p in permutations(n)]
    assert expected_cost(borda_center(Y)) == pytest.approx(min(costs))


def test_em_completes_incomplete_rankings_and_stops():
    Y = np.array([[1, 2, 3, 4], [1, 2, np.nan, 3], [np.nan, 1, 2, np.nan], [1, 3, 2, 4.0]])
    fit = fit_mallows(Y)
    assert not np.isnan(fit.extended).any()
    for row, extended in zip(Y, fit.extended):
        present = ~np.isnan(row)
        assert kendall_distance(extended[present], row[present])[0] == 0  # keeps the observed order
    assert fit.iterations <= 3
    np.testing.assert_array_equal(fit.center, [1, 2, 3, 4])


def _incomplete_rankings(rng, n_rows, n_labels, p):
    Y = np.array([random_ranking(rng, n_labels) for _ in range(n_rows)])
    for i, row in enumerate(Y):
        drop = rng.random(n_labels) < p
        Y[i] = drop_labels(row, drop)
    return Y


@pytest.mark.parametrize("seed", range(10))
def test_extend_rankings_equals_proposition_1_row_by_row(seed):
    rng = np.random.default_rng(500 + seed)
    n = int(rng.integers(3, 7))
    Y = _incomplete_rankings(rng, 30, n, 0.5)
    centers = np.array([random_ranking(rng, n) for _ in range(30)])
    expected = np.array([most_probable_extension(y, c) for y, c in zip(Y, centers)])
    np.testing.assert_array_equal(extend_rankings(Y, centers), expected)


@pytest.mark.parametrize("seed", range(6))
def test_group_fits_equal_one_fit_per_group(seed):
    rng = np.random.default_rng(700 + seed)
    n = 5
    Y = _incomplete_rankings(rng, 60, n, 0.3 * (seed % 3))
    group = rng.integers(0, 4, size=60)
    weights = rng.random(60)
    fits = fit_mallows_groups(Y, group, 5, weights)
    for g in range(4):
        one = fit_mallows(Y[group == g], weights[group == g])
        np.testing.assert_array_equal(fits.center[g], one.center)
        assert fits.theta[g] == pytest.approx(one.theta, rel=1e-9)
    assert np.isnan(fits.theta[4]) and fits.n_present[0] == n  # group 4 is empty


@pytest.mark.parametrize("seed", range(4))
def test_group_sums_are_those_of_one_bincount_per_label_to_the_bit(seed):
    """The centres' ties depend on the last bits of the vote totals: the sums are the per-label bincounts'."""
    rng = np.random.default_rng(800 + seed)
    n, rows = 6, 400
    Y = _incomplete_rankings(rng, rows, n, 0.3 * (seed % 2))
    group = rng.integers(0, 37, size=rows)
    weights = rng.random(rows) / 3  # sums that round
    fits = fit_mallows_groups(Y, group, 40, weights)
    # the rankings completed by their most probable extensions given their group's centre
    votes = weights[:, None] * (n + 1 - extend_rankings(Y, fits.center[group]))
    per_label = np.column_stack([np.bincount(group, weights=votes[:, j], minlength=40) for j in range(n)])
    total = np.bincount(group, weights=weights, minlength=40)
    with np.errstate(invalid="ignore", divide="ignore"):
        expected = n + 1 - per_label / total[:, None]
    np.testing.assert_array_equal(fits.mean_position, expected)


def test_the_centres_alone_skip_the_spread():
    rng = np.random.default_rng(5)
    Y = _incomplete_rankings(rng, 80, 5, 0.3)
    group = rng.integers(0, 6, size=80)
    full, centres = fit_mallows_groups(Y, group), fit_mallows_groups(Y, group, spread=False)
    np.testing.assert_array_equal(centres.center, full.center)
    np.testing.assert_array_equal(centres.mean_position, full.mean_position)
    assert np.isnan(centres.theta).all() and np.isnan(centres.mean_distance).all()
    assert np.isfinite(full.theta).any()


def test_only_present_ranks_the_labels_a_group_holds():
    Y = np.array([[1, 2, np.nan, 3], [1, 2, np.nan, 3], [2, 1, np.nan, np.nan],
                  [3, 2, 1, 4.0]])
    fits = fit_mallows_groups(Y, [0, 0, 0, 1], only_present=True)
    np.testing.assert_array_equal(fits.center[0], [1, 2, np.nan, 3])
    assert fits.n_present.tolist() == [3, 4]
    # Row 3 extends to 2, 1, -, 3: one discordance with the centre in three rows.
    assert fits.mean_distance[0] == pytest.approx(1 / 3)
    assert fits.theta[0] == pytest.approx(theta_from_mean_distance(1 / 3, 3))
    assert fits.theta[1] == np.inf


def test_expected_kendall_tau_spans_zero_to_one():
    assert expected_kendall_tau(0.0, 5) == pytest.approx(0.0)
    assert expected_kendall_tau(np.inf, 5) == 1.0
    theta = 0.8
    perms = permutations(4)
    p = np.exp(-theta * kendall_distance(perms, perms[0]))
    taus = np.array([kendalltau(q, perms[0]).statistic for q in perms])
    assert expected_kendall_tau(theta, 4) == pytest.approx((p * taus).sum() / p.sum())


def test_max_iter_below_one_is_refused_with_a_message():
    from rankviz.label_ranking.mallows import fit_mallows, fit_mallows_groups

    with pytest.raises(ValueError, match="max_iter must be an integer of at least 1"):
        fit_mallows([[1, 2, 3], [2, 1, 3]], max_iter=0)
    with pytest.raises(ValueError, match="max_iter must be an integer of at least 1"):
        fit_mallows_groups([[1, 2, 3], [2, 1, 3]], [0, 0], max_iter=0)
