"""Accuracy measures for label rankings.

Four measures compare a true ranking with a predicted one: Spearman's
coefficient (:func:`cs`), the weighted rank correlation (:func:`wrc`), the
log ranking accuracy (:func:`lra`) and Kendall's tau (:func:`kendall_tau`).
All four equal 1 for identical rankings and -1 for a ranking and its reverse
(-1 is the minimum for all but :func:`lra`). The first three, and the
numbers of their equations, are those of Rebelo, Soares & Costa (2008).

Conventions
-----------
* Rankings are rank **positions**: ``y[j]`` is the position of label ``j``,
  1 = most preferred. Tied labels share the average of their positions, e.g.
  ``[1.5, 1.5, 3]``. Positions of a ranking of ``L`` labels lie in ``[1, L]``.
* ``y_true`` plays the role of ``X`` and ``y_pred`` of ``Y`` in the
  formulas; ``R(X_i)`` is the position of label ``i`` in ``y_true``.
* A 1-D input is one ranking and gives a Python ``float``; a 2-D input of
  shape ``(n, L)`` holds one ranking per row and gives a 1-D array of ``n``
  values. Complete rows are scored together with numpy, without a loop.
* ``NaN`` marks a missing label. A row with a ``NaN`` in either ranking is
  scored on the labels present in both, after re-ranking the positions of
  each ranking to ``1..m`` (average positions for ties); a row with fewer
  than two common labels scores ``NaN``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import rankdata

__all__ = ["MEASURES_BY_NAME", "cs", "wrc", "lra", "kendall_tau", "tau_x"]


def _as_rank_pair(y_true, y_pred):
    """Check two rankings and return them as 2-D float arrays.

    Returns
    -------
    y_true, y_pred : ndarray of shape (n, L)
    is_1d : bool
        True when the inputs were single rankings.
    """
    y_true = np.asarray(y_true, dtype=float)
    y_pred = np.asarray(y_pred, dtype=float)
    if y_true.shape != y_pred.shape:
        raise ValueError(
            "y_true and y_pred must have the same shape, got "
            f"y_true {y_true.shape} and y_pred {y_pred.shape}."
        )
    if y_true.ndim not in (1, 2):
        raise ValueError(
            "Expected one ranking (1-D) or one ranking per row (2-D), got an "
            f"array of shape {y_true.shape}."
        )
    is_1d = y_true.ndim == 1
    y_true, y_pred = np.atleast_2d(y_true), np.atleast_2d(y_pred)
    n_labels = y_true.shape[1]
    if n_labels < 2:
        raise ValueError(
            f"A ranking needs at least 2 labels, got {n_labels} "
            f"(shape {y_true.shape})."
        )
    for name, y in (("y_true", y_true), ("y_pred", y_pred)):
        bad = (y < 1) | (y > n_labels) | np.isinf(y)  # NaN compares False
        if bad.any():
            row, col = np.argwhere(bad)[0]
            raise ValueError(
                f"{name} must hold rank positions between 1 and {n_labels}, "
                f"got {y[row, col]} at row {row}, label {col}."
            )
    return y_true, y_pred, is_1d


def _evaluate(score_complete, y_true, y_pred):
    """Apply a row-wise measure to complete rows at once, others one by one."""
    y_true, y_pred, is_1d = _as_rank_pair(y_true, y_pred)
    missing = np.isnan(y_true).any(axis=1) | np.isnan(y_pred).any(axis=1)
    scores = np.empty(y_true.shape[0])
    scores[~missing] = score_complete(y_true[~missing], y_pred[~missing])
    for row in np.flatnonzero(missing):
        present = ~np.isnan(y_true[row]) & ~np.isnan(y_pred[row])
        if present.sum() < 2:
            scores[row] = np.nan
            continue
        reduced_true = rankdata(y_true[row, present])[np.newaxis]
        reduced_pred = rankdata(y_pred[row, present])[np.newaxis]
        scores[row] = score_complete(reduced_true, reduced_pred)[0]
    return float(scores[0]) if is_1d else scores


def _has_ties(y):
    """Whether each row of ``y`` gives the same position to two labels."""
    return (np.diff(np.sort(y, axis=1), axis=1) == 0).any(axis=1)


def _pearson(x, y):
    """Row-wise Pearson correlation; 0.0 for a row with zero variance."""
    x_c = x - x.mean(axis=1, keepdims=True)
    y_c = y - y.mean(axis=1, keepdims=True)
    num = (x_c * y_c).sum(axis=1)
    den = np.sqrt((x_c**2).sum(axis=1) * (y_c**2).sum(axis=1))
    constant = (np.ptp(x, axis=1) == 0) | (np.ptp(y, axis=1) == 0)
    return np.divide(num, den, out=np.zeros_like(num), where=~constant)


def _cs(x, y):
    n_labels = x.shape[1]
    r = 1.0 - 6.0 * ((x - y) ** 2).sum(axis=1) / (n_labels**3 - n_labels)
    tied = _has_ties(x) | _has_ties(y)
    r[tied] = _pearson(x[tied], y[tied])
    return r


def _wrc(x, y):
    n_labels = x.shape[1]
    w2 = (x - y) ** 2 * ((n_labels - x + 1) + (n_labels - y + 1))
    return 1.0 - 6.0 * w2.sum(axis=1) / (
        n_labels**4 + n_labels**3 - n_labels**2 - n_labels
    )


def _lra(x, y):
    n_labels = x.shape[1]
    # log_b(a) = ln(a) / ln(b); log1p(v) = ln(1 + v).
    num = (np.log1p((x - y) ** 2) / np.log1p(x)).sum(axis=1)
    i = np.arange(1, n_labels + 1)
    den = (np.log1p((i - (n_labels - i + 1)) ** 2) / np.log1p(i)).sum()
    return 1.0 - 2.0 * num / den


def _kendall_tau(x, y):
    """Tau-b per row over the label pairs both rankings hold; NaN below two such labels.

    Pairs only need their order, which re-ranking the present labels keeps, so
    incomplete rows are scored here directly, with no loop over rows.
    """
    present = ~np.isnan(x) & ~np.isnan(y)
    both = present[:, :, None] & present[:, None, :]
    x, y = np.where(present, x, 0.0), np.where(present, y, 0.0)
    # sign[r, i, j] = sign(position of label i - position of label j), 0 off the held pairs
    sign_x = np.where(both, np.sign(x[:, :, None] - x[:, None, :]), 0.0).astype(np.int8)
    sign_y = np.where(both, np.sign(y[:, :, None] - y[:, None, :]), 0.0).astype(np.int8)
    # Each pair appears twice (i, j) and (j, i); the factors 2 cancel.
    concordant_minus_discordant = (sign_x * sign_y).sum(axis=(1, 2), dtype=np.int64)
    untied_x = np.abs(sign_x).sum(axis=(1, 2), dtype=np.int64)
    untied_y = np.abs(sign_y).sum(axis=(1, 2), dtype=np.int64)
    den = np.sqrt(untied_x.astype(float) * untied_y)
    tau = np.divide(concordant_minus_discordant, den, out=np.zeros(x.shape[0]), where=den > 0)
    return np.where(present.sum(axis=1) >= 2, tau, np.nan)


def cs(y_true: ArrayLike, y_pred: ArrayLike) -> float | np.ndarray:
    """Compute Spearman's rank correlation coefficient between two rankings.

    The coefficient :math:`r_S` of Rebelo, Soares & Costa (2008), eqs. (1)
    and (2): one minus the scaled sum of squared position differences, or
    the Pearson correlation of the positions when a ranking has ties.
    Every label counts the same, wherever it is ranked.

    Parameters
    ----------
    y_true : array-like of shape (L,) or (n, L)
        True rank positions (1 = most preferred, ties as average positions,
        ``NaN`` = missing label).
    y_pred : array-like of the same shape as `y_true`
        Predicted rank positions.

    Returns
    -------
    float or ndarray of shape (n,)
        The coefficient, in ``[-1, 1]``; a float for 1-D input, one value
        per row for 2-D input.

    See Also
    --------
    wrc : A weighted version, where errors at the top cost more.
    kendall_tau : The correlation counted on pairs of labels.

    Notes
    -----
    For a row without ties in either ranking, eq. (1) of Rebelo, Soares &
    Costa (2008) [1]_:

    .. math:: r_S = 1 - \\frac{6 \\sum_{i=1}^{L} (R(X_i) - R(Y_i))^2}{L^3 - L}

    For a row with ties, eq. (2), the Pearson correlation of the two vectors
    of positions:

    .. math:: r_S = \\frac{\\sum_i (R(X_i) - \\bar R_X)(R(Y_i) - \\bar R_Y)}
              {\\sqrt{\\sum_i (R(X_i) - \\bar R_X)^2 \\sum_i (R(Y_i) - \\bar R_Y)^2}}

    The two agree when there are no ties. If either ranking of a row ties all
    labels, eq. (2) divides by a zero variance; that row scores 0.0 (no
    evidence of agreement or disagreement), where
    :func:`scipy.stats.spearmanr` would return ``NaN``.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    Examples
    --------
    >>> from rankviz.label_ranking.metrics import cs
    >>> round(cs([1, 2, 3, 4], [2, 1, 3, 4]), 6)
    0.8
    >>> cs([[1, 2, 3], [1, 2, 3]], [[1, 2, 3], [3, 2, 1]])
    array([ 1., -1.])
    """
    return _evaluate(_cs, y_true, y_pred)


def wrc(y_true: ArrayLike, y_pred: ArrayLike) -> float | np.ndarray:
    """Compute the weighted rank correlation: errors at the top of the ranking cost more.

    The coefficient :math:`r_W` of Rebelo, Soares & Costa (2008), eqs. (3)
    and (4): Spearman's coefficient with each squared position difference
    weighted by how near the top of either ranking the label is.

    Parameters
    ----------
    y_true : array-like of shape (L,) or (n, L)
        True rank positions (1 = most preferred, ties as average positions,
        ``NaN`` = missing label).
    y_pred : array-like of the same shape as `y_true`
        Predicted rank positions.

    Returns
    -------
    float or ndarray of shape (n,)
        The coefficient; 1 for identical rankings, -1 for reversed ones.

    See Also
    --------
    cs : The unweighted coefficient.
    lra : A measure that weights the top ranks still more.

    Notes
    -----
    Eqs. (3) and (4) of Rebelo, Soares & Costa (2008) [1]_, with
    :math:`d_i = R(X_i) - R(Y_i)`:

    .. math:: W_i^2 = d_i^2 \\left((L - R(X_i) + 1) + (L - R(Y_i) + 1)\\right)

    .. math:: r_W = 1 - \\frac{6 \\sum_{i=1}^{L} W_i^2}{L^4 + L^3 - L^2 - L}

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    Examples
    --------
    >>> from rankviz.label_ranking.metrics import wrc
    >>> round(wrc([1, 2, 3, 4], [2, 1, 3, 4]), 6)
    0.72
    >>> round(wrc([1, 2, 3, 4], [1, 2, 4, 3]), 6)
    0.88
    """
    return _evaluate(_wrc, y_true, y_pred)


def lra(y_true: ArrayLike, y_pred: ArrayLike) -> float | np.ndarray:
    """Compute the log ranking accuracy (Soares 2004), which strongly weights the top ranks.

    Each label's error is the logarithm of one plus its squared position
    difference, to the base one plus its true position, so a mistake about
    the first labels of the true ranking costs most (Rebelo, Soares & Costa
    2008, eq. (5)).

    Parameters
    ----------
    y_true : array-like of shape (L,) or (n, L)
        True rank positions (1 = most preferred, ties as average positions,
        ``NaN`` = missing label). The weights depend on these positions, so
        the measure is not symmetric in its arguments.
    y_pred : array-like of the same shape as `y_true`
        Predicted rank positions.

    Returns
    -------
    float or ndarray of shape (n,)
        The accuracy; 1 for identical rankings, -1 for reversed ones. Unlike
        the other measures it is not bounded by -1: a few rankings score
        lower (down to about -1.14 for ``L <= 8``).

    See Also
    --------
    wrc : The weighted rank correlation, a milder weighting of the top.
    cs : Spearman's coefficient, without weights.

    Notes
    -----
    The measure of Soares (2004) [2]_, as eq. (5) of Rebelo, Soares & Costa
    (2008) [1]_ gives it:

    .. math:: r_{log} = 1 - 2 \\frac{\\sum_{i=1}^{L} \\log_{1 + R(X_i)}
              \\left(1 + (R(X_i) - R(Y_i))^2\\right)}
              {\\sum_{i=1}^{L} \\log_{1 + i}\\left(1 + (i - (L - i + 1))^2\\right)}

    Eq. (5) as printed by Rebelo et al. has an extra factor 6 in the numerator
    and an unbalanced parenthesis. The factor is dropped here: the
    denominator is the numerator's value for the reversed ranking, so
    without the 6 identical rankings score 1 and reversed rankings exactly
    -1, as for the other measures; with it, a single swap of two labels
    could score far below -1.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
           ranking trees on some metalearning problems", Proceedings of the 2nd
           Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    .. [2] C. Soares, "Learning Rankings of Learning Algorithms", PhD thesis,
           University of Porto, 2004.

    Examples
    --------
    >>> from rankviz.label_ranking.metrics import lra
    >>> round(lra([1, 2, 3, 4], [2, 1, 3, 4]), 6)
    0.445595
    >>> round(lra([1, 2, 3, 4], [4, 3, 2, 1]), 6)
    -1.0
    """
    return _evaluate(_lra, y_true, y_pred)


def kendall_tau(y_true: ArrayLike, y_pred: ArrayLike) -> float | np.ndarray:
    """Compute Kendall's rank correlation (tau-b) between two rankings.

    Tau-b counts the pairs of labels the two rankings order alike and
    unlike, correcting for ties. It is the measure Cheng, Hühn & Hüllermeier
    (2009) report and the ``score`` of every label ranker of the library.

    Parameters
    ----------
    y_true : array-like of shape (L,) or (n, L)
        True rank positions (1 = most preferred, ties as average positions,
        ``NaN`` = missing label).
    y_pred : array-like of the same shape as `y_true`
        Predicted rank positions.

    Returns
    -------
    float or ndarray of shape (n,)
        Tau-b, in ``[-1, 1]``; a float for 1-D input, one value per row for
        2-D input.

    See Also
    --------
    cs : Spearman's coefficient, on the positions themselves.
    scipy.stats.kendalltau : The same measure for one pair of rankings.

    Notes
    -----
    Over the :math:`L(L-1)/2` pairs of labels, with :math:`C` concordant
    pairs, :math:`D` discordant pairs, and :math:`T_X`, :math:`T_Y` the pairs
    tied in ``y_true`` and ``y_pred``:

    .. math:: \\tau_b = \\frac{C - D}{\\sqrt{(L(L-1)/2 - T_X)(L(L-1)/2 - T_Y)}}

    Without ties this is tau-a, :math:`(C - D) / (L(L-1)/2)`. The result
    matches :func:`scipy.stats.kendalltau` (default ``variant="b"``), except
    that a row in which either ranking ties all labels scores 0.0 instead of
    ``NaN``, as in :func:`cs`. Rows are compared through an ``(n, L, L)``
    tensor of pairwise signs, which suits the small ``L`` of label ranking.

    Examples
    --------
    >>> from rankviz.label_ranking.metrics import kendall_tau
    >>> round(kendall_tau([1, 2, 3, 4], [2, 1, 3, 4]), 6)
    0.666667
    >>> round(kendall_tau([1.5, 1.5, 3], [1, 2, 3]), 6)
    0.816497
    """
    y_true, y_pred, is_1d = _as_rank_pair(y_true, y_pred)
    scores = _kendall_tau(y_true, y_pred)  # incomplete rows too, without a loop
    return float(scores[0]) if is_1d else scores


#: Row blocks of _tau_x hold at most this many (row, label, label) cells: a tuned tree's inner CV scores many
#: predictions at once (letter, 26 labels: (rows, 26, 26) int64 temporaries took 5.7 GB before blocks and booleans).
_PAIR_CELLS = 4_000_000


def _tau_x(x, y):
    """Emond & Mason's tau_x per row over the labels both rankings hold; NaN below two such labels.

    With ``a_ij = 1 - 2 [x_i > x_j]`` (ahead or tied: 1, behind: -1) and
    ``b_ij`` likewise, ``a_ij b_ij = 1 - 2 [x_i > x_j] - 2 [y_i > y_j] + 4
    [x_i > x_j][y_i > y_j]``: three counts of boolean pairs, summed in blocks
    of rows.
    """
    present = ~np.isnan(x) & ~np.isnan(y)
    n_present = present.sum(axis=1)
    x, y = np.where(present, x, 0.0), np.where(present, y, 0.0)
    agreement = np.empty(x.shape[0], dtype=np.int64)
    n_labels = x.shape[1]
    block = max(1, _PAIR_CELLS // max(1, n_labels * n_labels))
    for start in range(0, x.shape[0], block):
        rows = slice(start, start + block)
        both = present[rows, :, None] & present[rows, None, :]  # i == j is never strictly before itself
        behind_x = (x[rows, :, None] > x[rows, None, :]) & both
        behind_y = (y[rows, :, None] > y[rows, None, :]) & both
        pairs = n_present[rows] * (n_present[rows] - 1)
        agreement[rows] = (pairs - 2 * behind_x.sum(axis=(1, 2)) - 2 * behind_y.sum(axis=(1, 2))
                           + 4 * (behind_x & behind_y).sum(axis=(1, 2)))
    pairs = n_present * (n_present - 1)
    tau = np.divide(agreement, pairs, out=np.zeros(x.shape[0]), where=pairs > 0)
    return np.where(n_present >= 2, tau, np.nan)


def tau_x(y_true: ArrayLike, y_pred: ArrayLike) -> float | np.ndarray:
    """Compute Emond & Mason's rank correlation tau_x, the measure of partial (tied) rankings.

    Like Kendall's tau it compares the two rankings pair of labels by pair
    of labels, but a tie counts as a relation of its own, so a predicted
    ranking is rewarded for tying the labels the truth ties.

    Parameters
    ----------
    y_true : array-like of shape (L,) or (n, L)
        True rank positions (1 = most preferred, equal = tied, ``NaN`` =
        missing label).
    y_pred : array-like of the same shape as `y_true`
        Predicted rank positions.

    Returns
    -------
    float or ndarray of shape (n,)
        Tau_x, in ``[-1, 1]``; a float for 1-D input, one value per row for
        2-D input; ``NaN`` for a row in which fewer than two labels are
        ranked by both.

    See Also
    --------
    kendall_tau : Tau-b, which corrects for ties instead.

    Notes
    -----
    Each ranking gives every ordered pair of distinct labels ``(i, j)`` the
    score :math:`a_{ij} = 1` if label ``i`` is ahead of or tied with ``j``
    and :math:`-1` if it is behind; over the :math:`m` labels both rankings
    hold,

    .. math:: \\tau_x = \\frac{\\sum_{i \\ne j} a_{ij} b_{ij}}{m (m - 1)} .

    Unlike tau-b, a tie is an agreement of its own kind: a ranking scores 1
    against itself with or without ties, and predicting a tie where the
    truth has none costs half of an inverted pair. Without ties tau_x equals
    Kendall's tau. It is the measure with which the partial label ranking
    literature (Alfaro, Aledo & Gámez) reports its results.

    References
    ----------
    .. [1] E. J. Emond and D. W. Mason, "A new rank correlation coefficient
           with application to the consensus ranking problem", Journal of
           Multi-Criteria Decision Analysis 11(1), pp. 17-28, 2002.

    Examples
    --------
    >>> from rankviz.label_ranking.metrics import tau_x
    >>> tau_x([1, 2, 3], [1, 2, 3]), tau_x([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)
    >>> round(tau_x([1, 2, 2], [1, 2, 2]), 6)  # ties agreed on count as agreement
    1.0
    >>> round(tau_x([1, 2, 3], [1, 2, 2]), 6)  # a predicted tie: half an inversion
    0.666667
    """
    y_true, y_pred, is_1d = _as_rank_pair(y_true, y_pred)
    scores = _tau_x(y_true, y_pred)
    return float(scores[0]) if is_1d else scores


#: The measures by the names scorers and searches take (``rankviz.metrics.get_scorer``,
#: :class:`rankviz.RankingTreeCV`); each gives one value per row, higher is better.
MEASURES_BY_NAME = {"kendall_tau": kendall_tau, "cs": cs, "wrc": wrc, "lra": lra, "tau_x": tau_x}
