"""The statistics the experiments report, on :mod:`scipy.stats`.

One home for the error bars and tests of every page and script:

* :func:`standard_error` -- the standard error of a mean (NaN-aware);
* :func:`t_interval` -- a mean with the half-width of its Student-t
  confidence interval;
* :func:`paired_comparison` -- two methods scored on the same cases: mean
  difference, its t interval, the paired t-test, the Wilcoxon signed-rank
  test, and wins, ties and losses.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

__all__ = ["standard_error", "t_interval", "PairedComparison", "paired_comparison"]


def standard_error(values: ArrayLike, axis: int = 0) -> float | np.ndarray:
    """Compute the standard error of the mean, ignoring NaN.

    The error bar of a mean score over queries, held-out examples or
    trials: the sample standard deviation over the square root of the
    number of values.

    Parameters
    ----------
    values : array-like
        E.g. one score per query or per held-out example; NaN values are
        left out.
    axis : int, default=0
        The axis the mean is taken over.

    Returns
    -------
    float or ndarray
        ``std(ddof=1) / sqrt(m)`` over the ``m`` non-NaN values
        (:func:`scipy.stats.sem`); NaN where ``m < 2``. A float for 1-D input.

    See Also
    --------
    t_interval : The mean with its Student-t confidence interval.

    Examples
    --------
    >>> from rankviz.experiments.statistics import standard_error
    >>> round(standard_error([1.0, 2.0, 3.0, float("nan")]), 6)
    0.57735
    """
    array = np.asarray(values, dtype=float)
    with warnings.catch_warnings():  # fewer than two values: NaN, as documented
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.simplefilter("ignore", getattr(stats, "SmallSampleWarning", RuntimeWarning))
        se = np.asarray(stats.sem(array, axis=axis, nan_policy="omit"), dtype=float)
    counts = (~np.isnan(array)).sum(axis=axis)
    se = np.where(counts >= 2, se, np.nan)
    return float(se) if se.ndim == 0 else se


def t_interval(values: ArrayLike, confidence: float = 0.95) -> tuple[float, float]:
    """Compute the mean and the half-width of the Student-t confidence interval of the mean.

    The interval is ``mean ± half_width``: the standard error times the
    quantile of Student's t with ``m - 1`` degrees of freedom, for the
    ``m`` values that are not NaN.

    Parameters
    ----------
    values : array-like of shape (n,)
        Independent observations, e.g. one loss per Monte Carlo trial; NaN
        values are left out.
    confidence : float, default=0.95
        Level of the interval.

    Returns
    -------
    mean : float
        The mean of the values that are not NaN; NaN without values.
    half_width : float
        ``t_{(1 + confidence) / 2, m - 1} * standard_error``; NaN for fewer
        than two values (no spread to estimate).

    Raises
    ------
    ValueError
        If ``confidence`` is not a number between 0 and 1.

    See Also
    --------
    standard_error : The standard error alone.
    paired_comparison : The interval of a difference between two methods.

    Examples
    --------
    >>> from rankviz.experiments.statistics import t_interval
    >>> mean, half = t_interval([0.2, 0.3, 0.4])
    >>> round(mean, 3), round(half, 4)
    (0.3, 0.2484)
    """
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0 < confidence < 1:
        raise ValueError(f"confidence must be a number between 0 and 1 (exclusive), got {confidence!r}")
    array = np.asarray(values, dtype=float).ravel()
    array = array[~np.isnan(array)]
    mean = float(array.mean()) if len(array) else np.nan
    if len(array) < 2:
        return mean, np.nan
    return mean, float(stats.t.ppf(0.5 + confidence / 2.0, len(array) - 1) * standard_error(array))


@dataclass(frozen=True)
class PairedComparison:
    """Comparison of two methods' scores on the same cases, method ``a`` minus ``b``.

    Attributes
    ----------
    n_queries : int
        Cases (e.g. queries) scored by both methods (pairs with a ``NaN``
        are dropped).
    n_dropped : int
        Cases dropped because either score was ``NaN``.
    mean_a, mean_b : float
        Means over the kept cases.
    mean_difference : float
        Mean of ``a - b``.
    standard_error : float
        Standard error of the mean difference (``NaN`` below 2 cases).
    ci_low, ci_high : float
        Confidence interval of the mean difference from Student's t with
        ``n_queries - 1`` degrees of freedom.
    confidence : float
        Level of that interval.
    t_pvalue : float
        Two-sided paired t-test p-value (:func:`scipy.stats.ttest_rel`);
        1.0 when every difference is 0.
    wilcoxon_pvalue : float
        Two-sided Wilcoxon signed-rank p-value
        (:func:`scipy.stats.wilcoxon`); 1.0 when every difference is 0.
    wins, ties, losses : int
        Cases where ``a`` scored higher than, equal to, lower than ``b``.
    """

    n_queries: int
    n_dropped: int
    mean_a: float
    mean_b: float
    mean_difference: float
    standard_error: float
    ci_low: float
    ci_high: float
    confidence: float
    t_pvalue: float
    wilcoxon_pvalue: float
    wins: int
    ties: int
    losses: int

    def as_dict(self) -> dict:
        """The fields as a plain ``dict`` (e.g. for a table row)."""
        return asdict(self)


def paired_comparison(a: ArrayLike, b: ArrayLike, *, confidence: float = 0.95) -> PairedComparison:
    """Compare two methods scored on the same cases (queries, examples, folds).

    Pairing removes the variation between cases (some queries are hard for
    every method), so the comparison is made on the differences ``a - b``:
    their mean with a t interval, the paired t-test, the Wilcoxon
    signed-rank test Demšar (2006) recommends, and the wins, ties and
    losses of ``a``.

    Parameters
    ----------
    a, b : array-like of shape (n_cases,)
        Scores of two methods (e.g. per-query NDCG), aligned case by case.
        A case with ``NaN`` in either is dropped.
    confidence : float, default=0.95
        Level of the t confidence interval of the mean difference.

    Returns
    -------
    PairedComparison
        Mean difference ``a - b``, its standard error and confidence
        interval, the paired t-test and Wilcoxon signed-rank p-values, and
        the counts of wins, ties and losses of ``a``.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` are not 1-D of the same length, or
        ``confidence`` is not in (0, 1).

    See Also
    --------
    rankviz.experiments.paired_scores : The comparison for the output of a cross-validation.
    scipy.stats.ttest_rel, scipy.stats.wilcoxon : The tests used.

    Notes
    -----
    The t-test and its interval are those of :func:`scipy.stats.ttest_rel`.
    When every difference is equal the interval is that point and the
    t-test is undefined: its p-value is then 1.0 if the differences are 0,
    else 0.0. The Wilcoxon test is :func:`scipy.stats.wilcoxon` with its
    defaults (zero differences dropped, ``zero_method="wilcox"``; exact or
    normal approximation chosen by scipy); when every difference is 0 it is
    undefined and its p-value is set to 1.0: nothing separates the methods.
    Wins, ties and losses compare the values exactly.

    Examples
    --------
    >>> from rankviz.experiments.statistics import paired_comparison
    >>> result = paired_comparison([0.9, 0.8, 0.7, 1.0], [0.5, 0.8, 0.6, 0.9])
    >>> result.wins, result.ties, result.losses
    (3, 1, 0)
    >>> round(result.mean_difference, 6)
    0.15
    """
    scores_a = np.asarray(a, dtype=float)
    scores_b = np.asarray(b, dtype=float)
    if scores_a.ndim != 1 or scores_a.shape != scores_b.shape:
        raise ValueError(
            "a and b must be 1-D per-case scores of the same length, got "
            f"shapes {scores_a.shape} and {scores_b.shape}."
        )
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must lie in (0, 1), got {confidence}.")
    keep = ~np.isnan(scores_a) & ~np.isnan(scores_b)
    scores_a, scores_b = scores_a[keep], scores_b[keep]
    diff = scores_a - scores_b
    n = int(diff.shape[0])
    nan = float("nan")

    mean_diff = float(diff.mean()) if n else nan
    se = float(standard_error(diff)) if n else nan  # a float: diff is 1-D
    ci_low = ci_high = t_pvalue = nan
    if n >= 2:
        if se > 0:
            result = stats.ttest_rel(scores_a, scores_b)
            interval = result.confidence_interval(confidence)
            ci_low, ci_high = float(interval.low), float(interval.high)
            t_pvalue = float(result.pvalue)
        else:  # every difference equal: the interval is a point
            ci_low = ci_high = mean_diff
            t_pvalue = 1.0 if mean_diff == 0 else 0.0

    if n == 0:
        wilcoxon_pvalue = nan
    elif not diff.any():
        wilcoxon_pvalue = 1.0
    else:
        wilcoxon_pvalue = float(stats.wilcoxon(diff).pvalue)

    return PairedComparison(
        n_queries=n,
        n_dropped=int((~keep).sum()),
        mean_a=float(scores_a.mean()) if n else nan,
        mean_b=float(scores_b.mean()) if n else nan,
        mean_difference=mean_diff,
        standard_error=se,
        ci_low=float(ci_low),
        ci_high=float(ci_high),
        confidence=float(confidence),
        t_pvalue=t_pvalue,
        wilcoxon_pvalue=wilcoxon_pvalue,
        wins=int((diff > 0).sum()),
        ties=int((diff == 0).sum()),
        losses=int((diff < 0).sum()),
    )
