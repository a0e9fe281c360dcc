"""Aggregating rankings into one: the mean-rank rule of Rebelo, Soares & Costa (2008), Table 3."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["check_tie_tolerance", "mean_from_sums", "mean_ranks", "rank_by_mean", "tie_close_labels"]

#: Slack added to a tie tolerance: aggregated positions summed in another
#: order can differ in their last bits, and those must still count as equal.
FLOAT_SLACK = 1e-9


def mean_ranks(Y: ArrayLike, weights: ArrayLike | None = None) -> np.ndarray:
    """Mean position of every label over a set of rankings.

    Parameters
    ----------
    Y : array-like of shape (n_rankings, n_labels)
        Rank positions, 1 = most preferred, NaN = label missing.
    weights : array-like of shape (n_rankings,), default=None
        Non-negative weight of each ranking; uniform when None.

    Returns
    -------
    ndarray of shape (n_labels,)
        The weighted mean position of each label over the rankings in which
        it is present; NaN for a label present in none of them.
    """
    Y = np.asarray(Y, dtype=float)
    w = np.ones(len(Y)) if weights is None else np.asarray(weights, dtype=float)
    present = ~np.isnan(Y)
    return mean_from_sums(np.where(present, Y, 0.0).T @ w, present.T.astype(float) @ w)


def mean_from_sums(position_sum: ArrayLike, count: ArrayLike) -> np.ndarray:
    """Mean positions from per-label sums and counts; NaN where a label was never seen.

    The tree's nodes and the KNN neighbourhoods accumulate these two sums
    their own way; this turns them into means the same way for everyone.
    """
    count = np.asarray(count, dtype=float)
    return np.where(count > 0, np.asarray(position_sum) / np.where(count > 0, count, 1.0), np.nan)


def rank_by_mean(mean_positions: ArrayLike, tie_tolerance: float | None = None) -> np.ndarray:
    """Turn mean positions into a ranking: the mean-rank rule.

    Labels are ordered by increasing mean position (Rebelo, Soares & Costa
    2008, Table 3: mean ranks 1.5, 2, 3, 3.5 give the ranking 1, 2, 3, 4).

    Parameters
    ----------
    mean_positions : array-like of shape (n_labels,) or (n, n_labels)
        Mean position of each label; NaN for a label never observed.
    tie_tolerance : float or None, default=None
        None: a strict ranking, as the papers predict. A number >= 0:
        labels whose mean positions differ by at most this much are tied
        (see :func:`tie_close_labels`).

    Returns
    -------
    ndarray of the same shape, float
        A permutation of ``1..n_labels`` in each row; with
        ``tie_tolerance``, tied labels share the average of their positions.

    Notes
    -----
    Tie-break: labels with equal mean position keep the order of their
    column index (a stable sort), so the prediction is always a strict
    ranking and the same input always gives the same output. Labels never
    observed (NaN) go last, again in column order.
    """
    means = np.asarray(mean_positions, dtype=float)
    # argsort puts NaN last; "stable" makes the tie-break the column order.
    order = np.argsort(means, axis=-1, kind="stable")
    positions = np.empty_like(means)
    ranks = np.arange(1.0, means.shape[-1] + 1) if means.ndim else np.ones(0)
    if means.ndim == 2:
        # positions[i, order[i, k]] = k + 1 by plain indexing: put_along_axis builds index arrays and a
        # full-size array of values, twice the time on a small tree's nodes
        positions[np.arange(means.shape[0])[:, None], order] = ranks
    else:
        np.put_along_axis(positions, order, np.broadcast_to(ranks, means.shape), axis=-1)
    if tie_tolerance is None:
        return positions
    return tie_close_labels(positions, means, tie_tolerance)


def check_tie_tolerance(tie_tolerance: object) -> None:
    """Raise ``ValueError`` unless ``tie_tolerance`` is None or a number >= 0."""
    if tie_tolerance is None:
        return
    if isinstance(tie_tolerance, bool) or not isinstance(tie_tolerance, (int, float, np.integer, np.floating)) \
            or not tie_tolerance >= 0 or not np.isfinite(tie_tolerance):
        raise ValueError(f"tie_tolerance must be None or a finite number >= 0, got {tie_tolerance!r}")


def tie_close_labels(ranking: ArrayLike, scores: ArrayLike, tolerance: float) -> np.ndarray:
    """Tie the labels that a ranking puts next to each other when their scores are close.

    A ranking predicted from aggregated positions (the mean ranks of a
    leaf or of neighbours, the mean Borda positions of a Mallows centre)
    orders two labels even when they are as good as each other. Here, going
    down the ranking, a label joins the tie of the one before it when their
    ``scores`` differ by at most ``tolerance``; tied labels share the average
    of the positions they fill (``1, 2.5, 2.5, 4``), the form the measures
    take (Spearman's coefficient is then Pearson's correlation of the
    positions, eq. (2) of Rebelo, Soares & Costa 2008; Kendall's tau is
    tau-b). Ties chain: with tolerance 0.1, scores 1.0, 1.08 and 1.16 make one
    tie of three labels although the outer two differ by more.

    Parameters
    ----------
    ranking : array-like of shape (n_labels,) or (n, n_labels)
        Strict rank positions, 1 = first; NaN (a label not ranked) stays NaN.
    scores : array-like of the same shape
        The aggregated position of each label that ``ranking`` sorts by
        (lower = first); NaN never ties.
    tolerance : float
        Largest difference of scores of two neighbouring labels that still
        ties them; 0 ties only equal scores.

    Returns
    -------
    ndarray of the same shape as ``ranking``, float

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    .. [2] M. G. Kendall, "The treatment of ties in ranking problems",
       Biometrika 33(3), pp. 239-251, 1945.

    Examples
    --------
    >>> from rankviz.label_ranking.aggregation import tie_close_labels
    >>> tie_close_labels([1, 2, 3, 4], [1.0, 2.0, 2.05, 3.5], 0.1).tolist()
    [1.0, 2.5, 2.5, 4.0]
    """
    check_tie_tolerance(tolerance)
    ranking = np.asarray(ranking, dtype=float)
    rows, scores_2d = np.atleast_2d(ranking), np.atleast_2d(np.asarray(scores, dtype=float))
    n_rows, n_labels = rows.shape
    order = np.argsort(rows, axis=1, kind="stable")  # NaN (unranked) last
    sorted_scores = np.take_along_axis(scores_2d, order, axis=1)
    sorted_ranked = ~np.isnan(np.take_along_axis(rows, order, axis=1))
    with np.errstate(invalid="ignore"):
        joins = np.abs(np.diff(sorted_scores, axis=1)) <= tolerance + FLOAT_SLACK  # NaN: False
    joins &= sorted_ranked[:, 1:]
    index = np.broadcast_to(np.arange(n_labels), rows.shape)
    starts_here = np.concatenate([np.ones((n_rows, 1), bool), ~joins], axis=1)
    ends_here = np.concatenate([~joins, np.ones((n_rows, 1), bool)], axis=1)
    first = np.maximum.accumulate(np.where(starts_here, index, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends_here, index, n_labels - 1)[:, ::-1], axis=1)[:, ::-1]
    # Within a tie the positions are consecutive; their average is that of the ends.
    sorted_positions = np.take_along_axis(rows, order, axis=1)
    start_position = np.take_along_axis(sorted_positions, first, axis=1)
    end_position = np.take_along_axis(sorted_positions, last, axis=1)
    tied = np.empty_like(rows)
    np.put_along_axis(tied, order, (start_position + end_position) / 2, axis=1)
    return tied.reshape(ranking.shape)
