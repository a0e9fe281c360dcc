"""Directed distance functions (Zhu et al. 2009, §3.2).

MPBoost replaces the ±1 label of a document pair (eq. 2) by a *directed
distance* ``dist(r_i, r_j)`` between the two relevance grades. Any function
may serve that keeps

* the sign of the grade difference: ``sgn(dist(r_i, r_j)) = sgn(r_i - r_j)``
  (requirement 3), and
* the order of its size: ``|r_i - r_j| > |r_i' - r_j'|`` implies
  ``|dist(r_i, r_j)| > |dist(r_i', r_j')|`` (requirement 4).

Zhu et al. [1]_ propose three (eqs. 6-8); BINARY is the ±1 label itself,
which keeps the sign but not the size (it breaks requirement 4 on purpose:
it is the baseline that ignores magnitudes).

The boosting step is a Newton step that assumes ``|dist| ~ 1`` (condition 9).
Distances far from 1 make the plain step overshoot (``|dist| >> 1``) or crawl
(``|dist| << 1``); :func:`condition_9_note` says which, for a given data set.

References
----------
.. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["DDF_NAMES", "DEFAULT_PARAMETERS", "FIGURE_2_PARAMETERS", "PARAMETER_SYMBOLS", "TITLES", "check_ddf", "directed_distance",
           "distance_range", "condition_9_note"]

#: The four labellings, in the order the figures of Zhu et al. list them.
DDF_NAMES = ("binary", "ldd", "logdd", "logitdd")

#: Defaults chosen so that grades 0-4 keep condition (9), ``|dist| ~ 1``:
#: LDD 0.2-0.8, LOGDD 0.69-1.61, LOGITDD 0.62-0.88. Fig. 2 of Zhu et al. uses
#: alpha = 0.2 and beta = 0.5 too, but lambda = 3, which gives LOGDD
#: distances up to 2.6 on these grades: with the plain step (nu = 1) the
#: loss then rises (Z_t > 1) and boosting stalls.
DEFAULT_PARAMETERS = {"binary": None, "ldd": 0.2, "logdd": 1.0, "logitdd": 0.5}

#: The parameters drawn in Fig. 2 of Zhu et al.
FIGURE_2_PARAMETERS = {"binary": None, "ldd": 0.2, "logdd": 3.0, "logitdd": 0.5}

#: The letter each DDF's parameter has in Zhu et al.
PARAMETER_SYMBOLS = {"binary": None, "ldd": "α", "logdd": "λ", "logitdd": "β"}

TITLES = {"binary": "BINARY", "ldd": "LDD", "logdd": "LOGDD", "logitdd": "LOGITDD"}


def check_ddf(ddf: str, parameter: float | None = None) -> tuple[str, float | None]:
    """Validate a DDF name and parameter; return ``(name, parameter)``.

    ``parameter=None`` takes the default of :data:`DEFAULT_PARAMETERS`.
    """
    name = str(ddf).lower()
    if name not in DDF_NAMES:
        raise ValueError(f"ddf must be one of {', '.join(DDF_NAMES)}; got {ddf!r}.")
    if name == "binary":
        return name, None
    if parameter is None:
        parameter = DEFAULT_PARAMETERS[name]
    assert parameter is not None  # only "binary" has no default, and it returned above
    parameter = float(parameter)
    if not np.isfinite(parameter) or parameter <= 0:
        raise ValueError(
            f"The {TITLES[name]} parameter {PARAMETER_SYMBOLS[name]} must be a positive number; "
            f"got {parameter!r}."
        )
    return name, parameter


def directed_distance(r_i: ArrayLike, r_j: ArrayLike, ddf: str = "logdd",
                      parameter: float | None = None) -> np.ndarray:
    """Compute the directed distance ``dist(r_i, r_j)`` for grades ``r_i`` and ``r_j`` (broadcast).

    The distance has the sign of ``r_i - r_j`` and, except for BINARY, grows
    with its size: the larger the grade difference, the more a ranking
    function is pushed to score ``r_i`` above ``r_j`` (Zhu et al. 2009,
    §3.2).

    Parameters
    ----------
    r_i, r_j : array-like
        Relevance grades, broadcast against each other; the distance is the
        impetus to put ``r_i`` first.
    ddf : {"binary", "ldd", "logdd", "logitdd"}, default="logdd"
        BINARY ``sgn(r_i - r_j)`` (eq. 2), LDD ``alpha (r_i - r_j)`` (eq. 6),
        LOGDD ``sgn * log(1 + lambda |r_i - r_j|)`` (eq. 7) or LOGITDD
        ``sgn / (1 + exp(-beta |r_i - r_j|))`` (eq. 8).
    parameter : float, optional
        The alpha of LDD, the lambda of LOGDD or the beta of LOGITDD, a
        positive number; by default from :data:`DEFAULT_PARAMETERS`.
        Ignored by BINARY.

    Returns
    -------
    ndarray
        The distances, of the broadcast shape; 0 where the grades are equal.

    Raises
    ------
    ValueError
        For an unknown ``ddf`` or a parameter that is not a positive number.

    See Also
    --------
    rankviz.MPBoost : The boosting that learns from these distances.

    Examples
    --------
    >>> from rankviz.ltr import directed_distance
    >>> directed_distance([4, 2, 1], [0, 1, 1], "ldd")  # alpha = 0.2
    array([0.8, 0.2, 0. ])
    >>> directed_distance([4, 2, 1], [0, 1, 1], "logdd")  # log(1 + |r_i - r_j|)
    array([1.60943791, 0.69314718, 0.        ])
    >>> directed_distance([0, 2], [1, 1], "binary")
    array([-1.,  1.])
    """
    name, parameter = check_ddf(ddf, parameter)
    diff = np.asarray(r_i, dtype=float) - np.asarray(r_j, dtype=float)
    sign, size = np.sign(diff), np.abs(diff)
    if name == "binary":
        return sign
    assert parameter is not None  # check_ddf gives one to every DDF but "binary"
    if name == "ldd":
        return parameter * diff
    if name == "logdd":
        return sign * np.log1p(parameter * size)
    # LOGITDD: sgn(0) = 0 removes the 1/2 the logistic has at 0.
    return sign / (1.0 + np.exp(-parameter * size))


def distance_range(relevance: ArrayLike, ddf: str = "logdd",
                   parameter: float | None = None) -> tuple[float, float]:
    """Smallest and largest ``|dist|`` over the grade differences of a data set.

    Uses the distinct grades only, so it is cheap on any data size; pairs of
    different queries are included, which can only widen the range.
    """
    grades = np.unique(np.asarray(relevance, dtype=float))
    gaps = np.abs(grades[:, None] - grades[None, :])
    gaps = gaps[gaps > 0]
    if gaps.size == 0:
        return (np.nan, np.nan)
    sizes = np.abs(directed_distance(gaps, 0.0, ddf, parameter))
    return float(sizes.min()), float(sizes.max())


def condition_9_note(relevance: ArrayLike, ddf: str = "logdd", parameter: float | None = None,
                     shrinkage: float = 1.0) -> str:
    """One sentence on condition (9), ``|dist| ~ 1``, for these grades.

    The Newton step of MPBoost is exact for the quadratic approximation of the
    exponential loss only when ``|dist| ~ 1``. With larger distances the
    weights of mis-ordered pairs grow by ``exp(|dist| * step)`` per round and
    the plain step overshoots; shrinkage ``nu < 1`` damps it. With distances
    far below 1 every step is small and more rounds are needed.
    """
    low, high = distance_range(relevance, ddf, parameter)
    if not np.isfinite(low):
        return "No two documents of different grades: no pairs to learn from."
    span = f"|dist| ranges over {low:.2g} – {high:.2g}"
    if high > 2.0:
        advice = (
            "well above 1: the step that assumes |dist| ≈ 1 (condition 9) overshoots and "
            "mis-ordered pairs gain weight fast"
        )
        advice += "; shrinkage below 1 damps it." if shrinkage >= 1.0 else f"; shrinkage ν = {shrinkage:g} damps it."
    elif high < 0.5:
        advice = "well below 1: each round moves the scores little, so more rounds are needed."
    else:
        advice = "close enough to 1 for condition (9) to hold roughly."
    return f"{span}, {advice}"
