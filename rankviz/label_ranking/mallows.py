"""The Mallows model for rankings, fitted to weighted, possibly incomplete sets.

The fit is that of Cheng, Hühn & Hüllermeier (2009) [2]_; sections,
propositions and Algorithm 1 below are theirs. The Mallows model [1]_ is
``P(sigma | theta, pi) = exp(-theta D(sigma, pi)) / phi(theta)`` with ``D`` the
Kendall distance (number of discordant label pairs), centre ranking ``pi`` and
spread ``theta >= 0`` (§3). Rankings are rank-position vectors as everywhere
in rankviz (1 = most preferred, NaN = label missing).

- The centre is found by the (weighted, generalised) Borda count (§4.1 (ii),
  Proposition 2); ``center="exact"`` instead searches all permutations for a
  Kendall median, for few labels.
- ``theta`` solves ``E[D | theta] = mean observed distance`` (§4.1). The
  expected distance is monotone decreasing in ``theta``; it is inverted once
  per number of labels on a fine grid of ``log theta`` and interpolated, with
  the closed-form tail ``E ~ (n - 1) e^-theta`` for large ``theta``, so many
  sets are solved in one vectorised call. A pure set gives ``theta = inf``.
- Incomplete rankings: the approximate EM of §4.2 (Algorithm 1). Start from the
  generalised Borda centre, replace each incomplete ranking by its most
  probable extension (Proposition 1), recount, and repeat until the centre
  is stable.

References
----------
.. [1] C. L. Mallows, "Non-null ranking models. I", Biometrika, vol. 44,
       no. 1, pp. 114-130, 1957.

.. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML 2009),
       pp. 161-168, 2009.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["MallowsFit", "GroupFits", "expected_distance", "label_pairs", "theta_from_mean_distance",
           "theta_inverse_table", "expected_kendall_tau", "kendall_distance", "borda_votes", "borda_center",
           "most_probable_extension", "extend_rankings", "fit_mallows", "fit_mallows_groups"]

# Grid of log(theta) for inverting E[D | theta]: theta from 1e-4 to 40. Below
# 1e-4 the expected distance loses digits to cancellation, and the linear
# form E_max - E = theta Var_0[D] is exact to theta^2 there.
_LOG_THETA = np.linspace(np.log(1e-4), np.log(40.0), 8001)

#: Most numbers :func:`kendall_distance` and :func:`extend_rankings` hold per
#: temporary array (2^21, 16 MiB as float64): larger inputs are worked through
#: in blocks of label pairs or of rows, so their memory is bounded whatever
#: the number of labels, rather than growing with rows x labels^2.
BLOCK_SIZE = 2 ** 21


def expected_distance(theta: ArrayLike, n_labels: int) -> np.ndarray:
    """``E[D(sigma, pi) | theta]`` of the Mallows model with Kendall distance (§3), vectorised.

    ``n/(e^theta - 1) - sum_j j/(e^{j theta} - 1)``; ``n(n-1)/4`` at
    ``theta = 0`` (the uniform distribution) and 0 at ``theta = inf``.
    """
    theta = np.asarray(theta, dtype=float)
    if theta.size * n_labels > BLOCK_SIZE:
        return _in_theta_blocks(expected_distance, theta, n_labels)
    j = np.arange(1, n_labels + 1)
    with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
        t = np.maximum(theta, 1e-9)[..., None]
        value = n_labels / np.expm1(t[..., 0]) - (j / np.expm1(j * t)).sum(axis=-1)
    value = np.where(theta <= 0, n_labels * (n_labels - 1) / 4.0, value)
    return np.where(np.isinf(theta), 0.0, value)


def _in_theta_blocks(function, theta, n_labels):
    """``function(theta, n_labels)`` on blocks of ``theta``: at most :data:`BLOCK_SIZE` numbers at a time."""
    flat = theta.ravel()
    step = max(1, BLOCK_SIZE // n_labels)
    return np.concatenate([np.atleast_1d(function(flat[k:k + step], n_labels))
                           for k in range(0, flat.size, step)]).reshape(theta.shape)


def _expected_distance_slope(theta, n_labels):
    """``dE[D]/dtheta`` (negative: minus the variance of the distance).

    ``e^x / (e^x - 1)^2`` is written ``1 / (4 sinh^2(x / 2))``, which goes to 0
    instead of inf/inf for large ``x``.
    """
    if np.size(theta) * n_labels > BLOCK_SIZE:
        return _in_theta_blocks(_expected_distance_slope, np.asarray(theta, dtype=float), n_labels)
    j = np.arange(1, n_labels + 1)
    t = np.asarray(theta, dtype=float)[..., None]
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        first = -n_labels / (4.0 * np.sinh(t[..., 0] / 2) ** 2)
        rest = (j * j / (4.0 * np.sinh(j * t / 2) ** 2)).sum(axis=-1)
    return first + rest


def _spread_coordinate(distance, n_labels):
    """``x = log E - log(E_max - E)``, the abscissa in which θ is tabulated."""
    return np.log(distance) - np.log(n_labels * (n_labels - 1) / 4.0 - distance)


def _coordinate_slope(theta, distance, n_labels):
    """``d log theta / dx`` at ``theta`` (``dx/dtheta = E' (1/E + 1/(E_max - E))``)."""
    gap = n_labels * (n_labels - 1) / 4.0 - distance
    return 1.0 / (theta * _expected_distance_slope(theta, n_labels) * (1 / distance + 1 / gap))


@lru_cache(maxsize=64)
def label_pairs(n_labels: int) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``a < b`` of ``n_labels`` labels, ``np.triu_indices(n_labels, k=1)``, read-only.

    Cached: each Mallows fit and each tree's node models need them, and on a
    150-row tree building them twice took 10 % of the fit.
    """
    first, second = np.triu_indices(n_labels, k=1)
    first.flags.writeable = second.flags.writeable = False
    return first, second


@lru_cache(maxsize=64)
def theta_inverse_table(n_labels: int) -> tuple[float, float, np.ndarray]:
    """Cubic pieces of ``log theta`` as a function of ``x``, on a uniform grid of ``x``.

    ``x = log E - log(E_max - E)`` is nearly linear in ``theta`` for large
    ``theta`` (``log E ~ -theta``) and in ``log theta`` for small
    (``E_max - E ~ c theta``), so ``log theta`` is a smooth function of it and
    the cubic Hermite interpolant through grid points and their exact slopes
    is accurate to about 1e-9 relative. A *uniform* grid finds a query's
    interval by one multiplication instead of a binary search: the split
    search calls this for every candidate threshold.

    Returns ``(x_first, 1 / step, coefficients)`` with ``coefficients`` of
    shape (n_intervals, 4), lowest power first in the interval's local ``t``.
    """
    # Grid points: uniform in x between theta = 40 and theta = 1e-6, placed by
    # interpolating a fine log-theta grid, then polished by Newton steps.
    log_theta_fine = _LOG_THETA[::-1]  # x increases as theta falls
    x_fine = _spread_coordinate(expected_distance(np.exp(log_theta_fine), n_labels), n_labels)
    x = np.linspace(x_fine[0], x_fine[-1], 8193)
    log_theta = np.interp(x, x_fine, log_theta_fine)
    for _ in range(3):
        theta = np.exp(log_theta)
        distance = expected_distance(theta, n_labels)
        log_theta -= (_spread_coordinate(distance, n_labels) - x) * _coordinate_slope(
            theta, distance, n_labels)
    theta = np.exp(log_theta)
    step = x[1] - x[0]
    slope = _coordinate_slope(theta, expected_distance(theta, n_labels), n_labels) * step
    y0, y1, m0, m1 = log_theta[:-1], log_theta[1:], slope[:-1], slope[1:]
    coefficients = np.column_stack([y0, m0, 3 * (y1 - y0) - 2 * m0 - m1, 2 * (y0 - y1) + m0 + m1])
    return x[0], 1.0 / step, coefficients


def theta_from_mean_distance(mean_distance: ArrayLike, n_labels: int) -> np.ndarray:
    """The MLE of ``theta``: the root of ``E[D | theta] = mean_distance``, vectorised.

    ``inf`` for a mean distance of 0 (a pure set), 0 at or above the uniform
    distribution's ``n(n-1)/4``. Inside the table (``theta`` in 1e-4..40) a
    cubic Hermite interpolant of the inverse, exact to about 1e-9 relative;
    beyond it the tail ``E ~ (n - 1) e^-theta``, exact to ``e^-2theta``, and
    below it the linear form ``E_max - E = theta Var_0[D]``.
    """
    d = np.asarray(mean_distance, dtype=float)
    if n_labels < 2:
        return np.full(d.shape, np.inf)
    x_first, inverse_step, coefficients = theta_inverse_table(n_labels)
    n_intervals = len(coefficients)
    most = n_labels * (n_labels - 1) / 4.0
    with np.errstate(divide="ignore", invalid="ignore"):
        # one logarithm of the odds rather than two (the split search evaluates this for every candidate)
        u = (np.log(d / (most - d)) - x_first) * inverse_step
    # The split search calls this for every candidate: one gather of the
    # interval's four coefficients, Horner, and the rare ends only if present.
    k = np.minimum(np.where(u > 0, u, 0.0), n_intervals - 1).astype(np.intp)  # NaN -> 0
    t = u - k
    c = coefficients.take(k, axis=0, mode="clip")
    with np.errstate(over="ignore"):  # far beyond the table's ends (replaced below)
        theta = np.exp(c[..., 0] + t * (c[..., 1] + t * (c[..., 2] + t * c[..., 3])))
    beyond = u < 0  # theta above the table: the tail E ~ (n - 1) e^-theta
    if beyond.any():
        with np.errstate(divide="ignore", invalid="ignore"):
            theta = np.where(beyond, np.log(n_labels - 1.0) - np.log(d), theta)
    below = u > n_intervals  # theta under 1e-4: E_max - E = theta Var_0[D]
    if below.any():
        variance = n_labels * (n_labels - 1) * (2 * n_labels + 5) / 72.0
        theta = np.where(below, (most - d) / variance, theta)
    # The ends, by masks (array copies, so scalar input works too).
    theta = np.where(np.isnan(u), np.nan, theta)
    theta = np.where(d >= most, 0.0, theta)
    return np.where(d <= 0, np.inf, theta)


def expected_kendall_tau(theta: ArrayLike, n_labels: int) -> np.ndarray:
    """Expected Kendall tau between a ranking drawn from the model and its centre.

    ``1 - 4 E[D | theta] / (n (n - 1))``: 0 at ``theta = 0`` (uniform), 1 at
    ``theta = inf``. With ``theta`` the MLE this is the mean tau of the fitted
    rankings to their centre; it maps the unbounded spread onto ``[0, 1]``,
    which is what stopping rule (6) of Rebelo, Soares & Costa (2008) needs
    as a similarity.
    """
    pairs = n_labels * (n_labels - 1) / 4.0
    return 1.0 - expected_distance(theta, n_labels) / pairs


def kendall_distance(a: ArrayLike, b: ArrayLike) -> np.ndarray:
    """Number of label pairs two complete rankings order differently, vectorised over rows.

    Pairs tied in either ranking do not count.
    """
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    n = a.shape[-1]
    rows = int(np.prod(np.broadcast_shapes(a.shape[:-1], b.shape[:-1])))
    if rows * n * (n - 1) // 2 <= BLOCK_SIZE:
        i, j = np.triu_indices(n, k=1)
        discordant = np.sign(a[..., i] - a[..., j]) * np.sign(b[..., i] - b[..., j]) < 0
        return discordant.sum(axis=-1)
    # In blocks of first labels: pairs (i, j > i) for i in [start, stop).
    total = np.zeros(np.broadcast_shapes(a.shape[:-1], b.shape[:-1]), dtype=np.intp)
    start = 0
    while start < n - 1:
        stop, pairs = start, 0
        while stop < n - 1 and (stop == start or rows * (pairs + n - 1 - stop) <= BLOCK_SIZE):
            pairs += n - 1 - stop
            stop += 1
        i = np.repeat(np.arange(start, stop), n - 1 - np.arange(start, stop))
        j = np.concatenate([np.arange(k + 1, n) for k in range(start, stop)])
        total += (np.sign(a[..., i] - a[..., j]) * np.sign(b[..., i] - b[..., j]) < 0).sum(axis=-1)
        start = stop
    return total


def borda_votes(Y: ArrayLike) -> np.ndarray:
    """Each ranking's votes for each label in the generalised Borda count (Proposition 2).

    A ranking of ``m`` of the ``n`` labels gives the label at position ``i``
    ``(m - i + 1)(n + 1)/(m + 1)`` votes and each missing label ``(n + 1)/2``;
    a complete ranking gives ``n - i + 1``, the plain Borda count.
    """
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    n = Y.shape[1]
    m = (~np.isnan(Y)).sum(axis=1, keepdims=True)
    return np.where(np.isnan(Y), (n + 1) / 2.0, (m - Y + 1) * (n + 1) / (m + 1))


def positions_from_votes(votes: np.ndarray) -> np.ndarray:
    """Rank positions 1..n ordering labels by decreasing votes, ties by label order (rows).

    Generalised Borda votes such as ``4/3`` are not exact in floating point,
    so equal totals summed in another order can differ in the last bits;
    totals within ``1e-9`` of the row's largest count as equal, so that the
    tie-break by label order (and not the order of the rows) decides.
    """
    finite = np.isfinite(votes)
    scale = np.max(np.where(finite, np.abs(votes), 0.0), axis=-1, keepdims=True)
    scale = np.where(scale > 0, scale, 1.0) * 1e-9
    # -inf marks labels to put last; they stay -inf
    keys = np.where(finite, np.round(np.where(finite, votes, 0.0) / scale), votes)
    order = np.argsort(-keys, axis=-1, kind="stable")
    positions = np.empty(votes.shape)
    np.put_along_axis(positions, order, np.broadcast_to(
        np.arange(1.0, votes.shape[-1] + 1), votes.shape), axis=-1)
    return positions


def borda_center(Y: ArrayLike, weights: ArrayLike | None = None) -> np.ndarray:
    """The centre ranking by the weighted, generalised Borda count (Proposition 2).

    A ranking of ``m`` of the ``n`` labels gives the label at position ``i``
    ``(m - i + 1)(n + 1)/(m + 1)`` votes and each missing label ``(n + 1)/2``;
    for a complete ranking that is the plain Borda count. Labels are ranked
    by their weighted vote totals, ties by label order.

    Returns
    -------
    ndarray of shape (n_labels,)
        Rank positions 1..n.
    """
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    w = np.ones(len(Y)) if weights is None else np.asarray(weights, dtype=float)
    return positions_from_votes(w @ borda_votes(Y))


def most_probable_extension(sigma: ArrayLike, center: ArrayLike) -> np.ndarray:
    """The complete ranking consistent with ``sigma`` closest to ``center`` (Proposition 1).

    Each missing label goes to the gap of ``sigma`` that minimises its
    disagreements with ``center`` (the first such gap); labels put in the
    same gap keep the centre's order.

    Parameters
    ----------
    sigma : ndarray of shape (n_labels,)
        Rank positions of the present labels, NaN for missing ones.
    center : ndarray of shape (n_labels,)
        A complete ranking.

    Returns
    -------
    ndarray of shape (n_labels,)
        Rank positions 1..n.
    """
    sigma = np.asarray(sigma, dtype=float)
    center = np.asarray(center, dtype=float)
    present = np.flatnonzero(~np.isnan(sigma))
    missing = np.flatnonzero(np.isnan(sigma))
    if not len(missing):
        return sigma.copy()
    ordered = present[np.argsort(sigma[present], kind="stable")]  # sigma's labels, best first
    m = len(ordered)
    # cost[i, j]: labels placed above gap j that the centre puts below i, plus
    # labels below gap j that the centre puts above i.
    below_i = center[ordered][None, :] > center[missing][:, None]  # (missing, m)
    above_i = ~below_i
    cost = (np.concatenate([np.zeros((len(missing), 1)), np.cumsum(below_i, axis=1)], axis=1)
            + np.concatenate([np.cumsum(above_i[:, ::-1], axis=1)[:, ::-1],
                              np.zeros((len(missing), 1))], axis=1))
    gap = np.argmin(cost, axis=1)  # first minimiser: the smallest index
    # Sort key: sigma's labels at gap boundaries k + 0.5, inserted ones at their gap,
    # then by the centre within a gap.
    key_gap = np.empty(len(sigma))
    key_gap[ordered] = np.arange(m) + 0.5
    key_gap[missing] = gap
    key_center = np.where(np.isnan(sigma), center, 0.0)
    order = np.lexsort((key_center, key_gap))
    extension = np.empty(len(sigma))
    extension[order] = np.arange(1, len(sigma) + 1)
    return extension


def extend_rankings(Y: ArrayLike, centers: ArrayLike) -> np.ndarray:
    """Most probable extensions of many rankings at once, each towards its own centre.

    The vectorised form of :func:`most_probable_extension` (Proposition 1):
    row ``r`` of ``Y`` is extended towards row ``r`` of ``centers``, with the
    same gaps and the same order inside a gap. Complete rows are returned as
    they are. O(rows x n_labels^2) numpy work and no Python loop over rows,
    so IBLR can extend the neighbours of every query together; rows are
    taken in blocks of at most :data:`BLOCK_SIZE` / n_labels^2 (at least
    one), so the memory is bounded by that, not by rows x n_labels^2.

    Parameters
    ----------
    Y : ndarray of shape (n_rows, n_labels)
        Rank positions, NaN for missing labels.
    centers : ndarray of shape (n_rows, n_labels) or (n_labels,)
        Complete rankings.

    Returns
    -------
    ndarray of shape (n_rows, n_labels)
    """
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    centers = np.broadcast_to(np.asarray(centers, dtype=float), Y.shape)
    extended = Y.copy()
    rows = np.flatnonzero(np.isnan(Y).any(axis=1))
    if not len(rows):
        return extended
    n_labels = Y.shape[1]
    block = max(1, BLOCK_SIZE // (n_labels * n_labels))
    for start in range(0, len(rows), block):
        part = rows[start:start + block]
        extended[part] = _extend_block(Y[part], centers[part])
    return extended


def _extend_block(sigma, center):
    """:func:`extend_rankings` of incomplete rows ``sigma`` towards ``center`` (same shape)."""
    n_labels = sigma.shape[1]
    missing = np.isnan(sigma)
    # sigma's labels best first (missing ones last), with their centre positions.
    order = np.argsort(np.where(missing, np.inf, sigma), axis=1, kind="stable")
    in_sigma = np.take_along_axis(~missing, order, axis=1)
    center_sorted = np.take_along_axis(center, order, axis=1)
    # For label i and sigma's k-th label: does the centre put it below / above i?
    below = (center_sorted[:, None, :] > center[:, :, None]) & in_sigma[:, None, :]
    above = (center_sorted[:, None, :] < center[:, :, None]) & in_sigma[:, None, :]
    # cost[r, i, j]: inserting i into gap j (before sigma's j-th label) disagrees
    # with the centre on the labels above the gap it ranks below i and the
    # labels below the gap it ranks above i. Gaps past the last label cost the
    # same as the last one, so the first minimiser is a real gap.
    zeros = np.zeros(below.shape[:2] + (1,), dtype=np.intp)
    below_prefix = np.concatenate([zeros, np.cumsum(below, axis=2)], axis=2)
    above_prefix = np.concatenate([zeros, np.cumsum(above, axis=2)], axis=2)
    cost = below_prefix + above_prefix[:, :, -1:] - above_prefix
    gap = np.argmin(cost, axis=2).astype(float)
    # Sort key: sigma's k-th label at half-step 2k + 1, a label in gap j at
    # 2j, then the centre within the gap (scaled so it never crosses a step).
    slot = np.empty(sigma.shape)
    np.put_along_axis(slot, order, 2.0 * np.arange(n_labels) + 1.0, axis=1)
    step = n_labels + 1.0
    key = np.where(missing, 2.0 * gap * step + center, slot * step)
    positions = np.empty(sigma.shape)
    np.put_along_axis(positions, np.argsort(key, axis=1, kind="stable"),
                      np.broadcast_to(np.arange(1.0, n_labels + 1), sigma.shape), axis=1)
    return positions


@dataclass(frozen=True)
class GroupFits:
    """Mallows models fitted to many weighted sets of rankings at once.

    Attributes
    ----------
    center : ndarray of shape (n_groups, n_labels)
        Centre rankings as rank positions; with ``only_present=True``, NaN for
        the labels no ranking of the group holds.
    theta : ndarray of shape (n_groups,)
        Spread MLE (``inf`` for a pure group).
    mean_distance : ndarray of shape (n_groups,)
        Weighted mean Kendall distance of the extended rankings to the centre.
    n_present : ndarray of shape (n_groups,)
        Labels the centre ranks (all of them unless ``only_present``).
    iterations : int
        EM rounds until every centre was stable.
    mean_position : ndarray of shape (n_groups, n_labels)
        The Borda count the centre sorts by, as a weighted mean position of
        each label over the group's extended rankings (``n + 1`` minus the
        mean votes; for complete rankings the plain mean position); NaN
        where the centre is. Labels whose mean positions are close can be
        predicted tied (:func:`rankviz.label_ranking.aggregation.tie_close_labels`).
    """

    center: np.ndarray
    theta: np.ndarray
    mean_distance: np.ndarray
    n_present: np.ndarray
    iterations: int
    mean_position: np.ndarray


def fit_mallows_groups(Y: ArrayLike, group: ArrayLike, n_groups: int | None = None,
                       weights: ArrayLike | None = None, *, only_present: bool = False,
                       max_iter: int = 100, spread: bool = True) -> GroupFits:
    """Fit one Mallows model per group of rows, all groups at once (§4, Algorithm 1).

    Rows of ``Y`` belong to group ``group[r]``; a row may appear in several
    groups by repeating it. Each group gets the estimate of Cheng, Hühn &
    Hüllermeier (2009): the weighted generalised Borda centre (Proposition
    2), then the approximate EM (most probable extensions by Proposition 1,
    Borda of the extensions, repeat until the centre is stable), and
    ``theta`` from the mean distance of the extensions. Every step is one
    numpy call over all rows of all groups.

    Parameters
    ----------
    Y : array-like of shape (n_rows, n_labels)
        Rank positions, NaN = missing.
    group : array-like of int, shape (n_rows,)
        Group id of each row, ``0..n_groups - 1``.
    n_groups : int, optional
        Number of groups (default ``group.max() + 1``); empty groups get NaN.
    weights : array-like of shape (n_rows,), optional
        Non-negative row weights (Dudani weights, ``|Y(sigma)|/n``, ...).
    only_present : bool, default=False
        Rank only the labels some row of the group holds (the tree's nodes,
        §5.1): the others get NaN in ``center`` and ``theta`` is solved for
        the number of labels present. False ranks every label (IBLR, §4).
    max_iter : int, default=100
        Bound on the EM rounds, shared by all groups (they stop when every
        centre is stable).
    spread : bool, default=True
        Whether to estimate ``theta`` (and ``mean_distance``); False leaves
        them NaN and skips the Kendall distances, for callers that read only
        the centres (IBLR choosing its ``k``).

    Returns
    -------
    GroupFits
        Per group: the centre (rank positions), ``theta``, the weighted mean
        Kendall distance, the labels ranked and the mean Borda positions;
        NaN for an empty group.

    See Also
    --------
    fit_mallows : The fit of one set of rankings.
    rankviz.RankingTree : Its ``criterion="mallows"`` fits a model per node.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz.label_ranking import fit_mallows_groups
    >>> Y = np.array([[1, 2, 3], [1, 2, 3], [3, 2, 1], [3, 1, 2]])
    >>> fits = fit_mallows_groups(Y, group=[0, 0, 1, 1])
    >>> fits.center
    array([[1., 2., 3.],
           [3., 1., 2.]])
    >>> fits.theta
    array([       inf, 1.35559...])
    """
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    group = np.asarray(group, dtype=np.intp)
    n_groups = int(group.max()) + 1 if n_groups is None else int(n_groups)
    w = np.ones(len(Y)) if weights is None else np.asarray(weights, dtype=float)
    present = ~np.isnan(Y)
    held = (_group_sum(present.astype(float), group, n_groups) > 0 if only_present  # (groups, labels)
            else np.ones((n_groups, Y.shape[1]), dtype=bool))

    def vote_totals(rankings):
        return _group_sum(w[:, None] * borda_votes(rankings), group, n_groups)

    def centers_from(totals):
        # Labels no row of the group holds go last: Proposition 1 then
        # inserts them after every held label, so they add no discordance.
        return positions_from_votes(np.where(held, totals, -np.inf))

    _check_max_iter(max_iter)
    totals = vote_totals(Y)
    center = centers_from(totals)  # Proposition 2's start
    incomplete = np.flatnonzero(~present.all(axis=1))
    extended = Y
    iterations = 0
    for iterations in range(1, max_iter + 1):
        if not len(incomplete):
            break
        extended = extend_rankings(Y, center[group])
        new_center = centers_from(vote_totals(extended))
        stable = np.array_equal(new_center, center)
        center = new_center
        if stable:
            break
    if len(incomplete):  # complete rankings are their own extensions: their totals are counted above
        extended = extend_rankings(Y, center[group])
        totals = vote_totals(extended)
    total = _group_sum(w[:, None], group, n_groups)[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_votes = totals / total[:, None]
    mean_position = np.where(held, Y.shape[1] + 1 - mean_votes, np.nan)
    n_present = held.sum(axis=1)
    if not spread:
        nothing = np.full(n_groups, np.nan)
        return GroupFits(center=np.where(held, center, np.nan), theta=nothing, mean_distance=nothing,
                         n_present=n_present, iterations=iterations, mean_position=mean_position)
    distance = _group_sum((w * kendall_distance(extended, center[group]))[:, None], group, n_groups)[:, 0]
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_distance = np.where(total > 0, distance / total, np.nan)
    theta = np.full(n_groups, np.nan)
    for m in np.unique(n_present):
        at = (n_present == m) & (total > 0)
        theta[at] = theta_from_mean_distance(mean_distance[at], int(m))
    return GroupFits(center=np.where(held, center, np.nan), theta=theta,
                     mean_distance=mean_distance, n_present=n_present, iterations=iterations,
                     mean_position=mean_position)


def _group_sum(values, group, n_groups):
    """Per-group column sums of a 2-D array.

    One ``bincount`` over (group, column) cells: it adds the rows in their
    order, as one ``bincount`` per column would, so the sums are the same to
    the bit (the Borda centres' ties depend on that), for one pass instead of
    one per column.
    """
    n_columns = values.shape[1]
    if not n_columns:
        return np.zeros((n_groups, 0))
    cells = (group[:, None] * n_columns + np.arange(n_columns)).ravel()
    return np.bincount(cells, weights=np.asarray(values, dtype=float).ravel(),
                       minlength=n_groups * n_columns).reshape(n_groups, n_columns)


@dataclass(frozen=True)
class MallowsFit:
    """A fitted Mallows model: ``center`` (rank positions), ``theta``, the
    ``extended`` (complete) rankings it was fitted to, and the EM ``iterations``."""

    center: np.ndarray
    theta: float
    extended: np.ndarray
    iterations: int

    @property
    def mean_distance(self) -> float:
        return float(np.mean(kendall_distance(self.extended, self.center)))


def _check_max_iter(max_iter: int) -> None:
    if isinstance(max_iter, bool) or not isinstance(max_iter, (int, np.integer)) or max_iter < 1:
        raise ValueError(f"max_iter must be an integer of at least 1, got {max_iter!r}")


def fit_mallows(Y: ArrayLike, weights: ArrayLike | None = None, *, center: str = "borda",
                max_iter: int = 100) -> MallowsFit:
    """Fit the Mallows model to a weighted set of (possibly incomplete) rankings (§4, Alg. 1).

    The centre starts as the weighted generalised Borda count (Proposition
    2); while rankings are incomplete, each is replaced by its most probable
    extension given the centre (Proposition 1) and the centre recounted,
    until it is stable. The spread ``theta`` then makes the expected Kendall
    distance equal the weighted mean distance of the extensions to the
    centre.

    Parameters
    ----------
    Y : array-like of shape (k, n_labels)
        Rank positions, lower = preferred, NaN = missing.
    weights : array-like of shape (k,), optional
        Non-negative instance weights (e.g. Dudani distance weights); by
        default every ranking weighs 1.
    center : {"borda", "exact"}, default="borda"
        How the centre is found from complete rankings: the weighted Borda
        count (the approximation of Cheng, Hühn & Hüllermeier 2009), or a
        weighted Kendall median by searching all permutations (only for up
        to 8 labels).
    max_iter : int, default=100
        Bound on the EM iterations (the centre normally settles in a few);
        at least 1.

    Returns
    -------
    MallowsFit
        ``center``, a complete ranking as rank positions ``1..n_labels``;
        ``theta``, the spread MLE (``inf`` when every ranking agrees with
        the centre); ``extended``, the rankings completed by their most
        probable extensions; ``iterations``, the EM rounds run.

    Raises
    ------
    ValueError
        For another ``center``, or ``center="exact"`` with more than 8
        labels.

    See Also
    --------
    fit_mallows_groups : One fit per group of rows, all groups at once.
    rankviz.IBLR : Predicts the centre fitted to an example's neighbours.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz.label_ranking import fit_mallows
    >>> Y = np.array([[1, 2, 3], [1, 2, 3], [2, 1, 3], [1, 3, 2]])
    >>> fit = fit_mallows(Y)
    >>> fit.center, round(fit.theta, 3)
    (array([1., 2., 3.]), 1.356)
    >>> fit_mallows([[1, 2, np.nan], [1, 2, 3]]).theta  # both agree with the centre
    inf
    """
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    w = np.ones(len(Y)) if weights is None else np.asarray(weights, dtype=float)
    n = Y.shape[1]
    if center not in ("borda", "exact"):
        raise ValueError(f"center must be 'borda' or 'exact', got {center!r}")
    _check_max_iter(max_iter)
    if center == "exact" and n > 8:
        raise ValueError(f"center='exact' searches all {n}! permutations; use it for at most 8 labels")
    complete = not np.isnan(Y).any()
    pi = borda_center(Y, w)  # generalised Borda: Proposition 2's start
    for iteration in range(1, max_iter + 1):
        extended = extend_rankings(Y, pi)
        new_pi = borda_center(extended, w) if center == "borda" else _kendall_median(extended, w)
        stable = complete or np.array_equal(new_pi, pi)
        pi = new_pi
        if stable:
            break
    extended = extend_rankings(Y, pi)
    total = w.sum()
    mean_distance = (w @ kendall_distance(extended, pi)) / total if total > 0 else 0.0
    return MallowsFit(center=pi, theta=float(theta_from_mean_distance(mean_distance, n)),
                      extended=extended, iterations=iteration)


def _kendall_median(Y, weights):
    """The permutation with the least weighted Kendall distance to the rankings (first found)."""
    n = Y.shape[1]
    perms = np.array(list(itertools.permutations(range(1, n + 1))), dtype=float)
    totals = np.array([weights @ kendall_distance(Y, p) for p in perms])
    return perms[int(np.argmin(totals))]
