"""Aggregating rankings into one: the mean-rank rule of Rebelo, Soares & Costa (2008), Table 3."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["mean_from_sums", "mean_ranks", "rank_by_mean"]


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


def rank_by_mean(mean_positions: ArrayLike) -> np.ndarray:
    """Turn mean positions into a ranking: the mean-rank rule.

    Labels are ordered by increasing mean position (Rebelo, Soares & Costa
    2008, Table 3: mean ranks 1.5, 2, 3, 3.5 give the ranking 1, 2, 3, 4).

    Parameters
    ----------
    mean_positions : array-like of shape (n_labels,) or (n, n_labels)
        Mean position of each label; NaN for a label never observed.

    Returns
    -------
    ndarray of the same shape, float
        A permutation of ``1..n_labels`` in each row.

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
    np.put_along_axis(
        positions, order, np.arange(1, means.shape[-1] + 1, dtype=float)
        * np.ones_like(means), axis=-1
    )
    return positions
