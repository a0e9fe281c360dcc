"""The synthetic ordinal data of Xia, Zhang & Wang (2006), §IV-A (after Herbrich et al. 2000).

Points are uniform on the unit square; each gets the rank

    y = max{r : 10 (x1 - 0.5)(x2 - 0.5) + eps > b_r},   eps ~ N(0, sd^2),

so ranks follow the hyperbolas of the product around the centre. Xia et al.
[1]_ draw this data set after Herbrich, Graepel & Obermayer [2]_, thresholds
``b_r`` included.

Xia et al. print ``b = {-inf, -1, -0.1, -0.25, 1}``. Those are not increasing:
every value above -0.25 is also above -0.1's neighbour -0.25, so rank 3 (which
needs ``-0.1 < v <= -0.25``) can never occur. The default here is the evidently
meant ``{-inf, -1, -0.1, 0.25, 1}``; the printed ones stay available
(``PRINTED_THRESHOLDS``) to show the difference.

References
----------
.. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.

.. [2] R. Herbrich, T. Graepel and K. Obermayer, "Large margin rank
       boundaries for ordinal regression", in Advances in Large Margin
       Classifiers, MIT Press, pp. 115-132, 2000.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

__all__ = ["DEFAULT_THRESHOLDS", "PRINTED_THRESHOLDS", "make_ordinal_square", "rank_of",
           "add_label_noise"]

DEFAULT_THRESHOLDS = (-np.inf, -1.0, -0.1, 0.25, 1.0)
PRINTED_THRESHOLDS = (-np.inf, -1.0, -0.1, -0.25, 1.0)


def rank_of(values: ArrayLike, thresholds: Sequence[float] = DEFAULT_THRESHOLDS) -> np.ndarray:
    """``max{r : value > b_r}`` for every value (ranks 1..len(thresholds)), 0 if none.

    Taken literally, so thresholds that are not increasing behave as printed.
    """
    b = np.asarray(thresholds, dtype=float)
    above = np.asarray(values, dtype=float)[:, None] > b[None, :]
    return np.max(above * np.arange(1, len(b) + 1), axis=1)


def add_label_noise(y: ArrayLike, sigma: float, n_levels: int,
                    rng: np.random.Generator) -> np.ndarray:
    """Move each rank to an adjacent one with probability ``sigma``.

    The label noise of Xia, Zhang & Wang (2006), Fig. 3: up or down with
    equal chance; the lowest and highest ranks have one neighbour only and
    move to it. ``y`` holds ranks ``1..n_levels``.
    """
    y = np.asarray(y).copy()
    if not 0.0 <= sigma <= 1.0:
        raise ValueError(f"label noise must be a probability in [0, 1], got {sigma}")
    moved = rng.random(len(y)) < sigma
    step = np.where(rng.random(len(y)) < 0.5, -1, 1)
    step = np.where(y <= 1, 1, np.where(y >= n_levels, -1, step))
    y[moved] += step[moved]
    return y


def make_ordinal_square(n_samples: int, *, noise_sd: float = 0.125,
                        thresholds: Sequence[float] = DEFAULT_THRESHOLDS,
                        label_noise: float = 0.0,
                        seed: int | np.random.Generator | None = None,
                        ) -> tuple[pd.DataFrame, np.ndarray]:
    """Draw the synthetic ordinal data set of Xia, Zhang & Wang (2006), §IV-A.

    The thresholds follow Herbrich, Graepel & Obermayer (2000).

    Points are uniform on the unit square ``[0, 1)^2`` and the rank of a
    point is the number of thresholds below ``10 (x1 - 0.5)(x2 - 0.5) +
    eps``, so the ranks follow the hyperbolas of the product around the
    centre of the square.

    Parameters
    ----------
    n_samples : int
        Number of points (at least 1).
    noise_sd : float, default=0.125
        Standard deviation of ``eps``.
    thresholds : sequence of float, default=DEFAULT_THRESHOLDS
        ``b_1..b_K``; the first is normally ``-inf`` so every point has a rank.
    label_noise : float, default=0.0
        Probability ``sigma`` that a rank is moved to an adjacent one.
    seed : int or numpy Generator, optional
        Seed of ``numpy.random.default_rng``; None draws fresh data every
        call.

    Returns
    -------
    X : DataFrame with columns ``x1``, ``x2``
        The points, one row each.
    y : ndarray of int, ranks ``1..K``
        The rank of each point, ``K = len(thresholds)``; 0 for a point
        below every threshold when the first is not ``-inf``.

    Raises
    ------
    ValueError
        If ``n_samples`` is below 1, ``noise_sd`` is negative or
        ``label_noise`` is above 1 (a negative one adds no noise).

    See Also
    --------
    rankviz.OrdinalTree : The tree Xia et al. grow on this data.
    rankviz.experiments.monte_carlo : The trials of Xia et al. on it.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz.ordinal import make_ordinal_square
    >>> X, y = make_ordinal_square(200, seed=0)
    >>> X.shape, y[:6]
    ((200, 2), array([2, 5, 5, 4, 4, 1]))
    >>> np.bincount(y, minlength=6)[1:]  # points per rank 1..5
    array([33, 57, 48, 42, 20])
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
