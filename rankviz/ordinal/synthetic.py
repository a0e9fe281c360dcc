"""The synthetic ordinal data of seed 002, §IV-A (after Herbrich et al. 2000).

Points are uniform on the unit square; each gets the rank

    y = max{r : 10 (x1 - 0.5)(x2 - 0.5) + eps > b_r},   eps ~ N(0, sd^2),

so ranks follow the hyperbolas of the product around the centre.

The seed prints ``b = {-inf, -1, -0.1, -0.25, 1}``. Those are not increasing:
every value above -0.25 is also above -0.1's neighbour -0.25, so rank 3 (which
needs ``-0.1 < v <= -0.25``) can never occur. The default here is the evidently
meant ``{-inf, -1, -0.1, 0.25, 1}``; the printed ones stay available
(``PRINTED_THRESHOLDS``) to show the difference.
"""

import numpy as np
import pandas as pd

__all__ = ["DEFAULT_THRESHOLDS", "PRINTED_THRESHOLDS", "make_ordinal_square", "rank_of",
           "add_label_noise"]

DEFAULT_THRESHOLDS = (-np.inf, -1.0, -0.1, 0.25, 1.0)
PRINTED_THRESHOLDS = (-np.inf, -1.0, -0.1, -0.25, 1.0)


def rank_of(values, thresholds=DEFAULT_THRESHOLDS):
    """``max{r : value > b_r}`` for every value (ranks 1..len(thresholds)), 0 if none.

    Taken literally, so thresholds that are not increasing behave as printed.
    """
    b = np.asarray(thresholds, dtype=float)
    above = np.asarray(values, dtype=float)[:, None] > b[None, :]
    return np.max(above * np.arange(1, len(b) + 1), axis=1)


def add_label_noise(y, sigma, n_levels, rng):
    """Move each rank to an adjacent one with probability ``sigma`` (seed 002, Fig. 3).

    Up or down with equal chance; the lowest and highest ranks have one
    neighbour only and move to it. ``y`` holds ranks ``1..n_levels``.
    """
    y = np.asarray(y).copy()
    if not 0.0 <= sigma <= 1.0:
        raise ValueError(f"label noise must be a probability in [0, 1], got {sigma}")
    moved = rng.random(len(y)) < sigma
    step = np.where(rng.random(len(y)) < 0.5, -1, 1)
    step = np.where(y <= 1, 1, np.where(y >= n_levels, -1, step))
    y[moved] += step[moved]
    return y


def make_ordinal_square(n_samples, *, noise_sd=0.125, thresholds=DEFAULT_THRESHOLDS,
                        label_noise=0.0, seed=None):
    """Draw the synthetic ordinal data set of seed 002, §IV-A.

    Parameters
    ----------
    n_samples : int
    noise_sd : float, default=0.125
        Standard deviation of ``eps``.
    thresholds : sequence of float, default=DEFAULT_THRESHOLDS
        ``b_1..b_K``; the first is normally ``-inf`` so every point has a rank.
    label_noise : float, default=0.0
        Probability ``sigma`` that a rank is moved to an adjacent one.
    seed : int or numpy Generator, optional

    Returns
    -------
    X : DataFrame with columns ``x1``, ``x2``
    y : ndarray of int, ranks ``1..K``
    """
    if int(n_samples) < 1:
        raise ValueError(f"n_samples must be at least 1, got {n_samples}")
    if noise_sd < 0:
        raise ValueError(f"noise_sd must be >= 0, got {noise_sd}")
    rng = np.random.default_rng(seed)
    points = rng.random((int(n_samples), 2))
    signal = 10.0 * (points[:, 0] - 0.5) * (points[:, 1] - 0.5)
    y = rank_of(signal + rng.normal(0.0, noise_sd, len(points)), thresholds)
    if label_noise > 0:
        y = add_label_noise(y, label_noise, len(thresholds), rng)
    return pd.DataFrame(points, columns=["x1", "x2"]), y
