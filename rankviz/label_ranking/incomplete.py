"""Incomplete rankings: the label-deletion protocol of Cheng, Hühn & Hüllermeier (2009), §6.2.

To model incomplete observations, Cheng et al. modify the *training*
rankings: "A biased coin was flipped for every label in a ranking to decide
whether to keep or delete that label; the probability for a deletion is
specified by a parameter p in [0, 1]. Hence, p x 100% of the labels will be
missing on average."

The labels that remain keep their positions' *order*, and that is all any
model in rankviz uses: :func:`delete_labels` re-ranks them ``1..m``, but a
matrix with the deleted positions simply blanked, gaps and all (``4, NaN,
NaN, NaN, 1, 5``, what one gets from a file of complete rankings by removing
labels), is accepted as well and read the same way
(:func:`rankviz._validation.check_rankings` converts it to average
positions; see :mod:`rankviz.datasets.rank_conventions`).

References
----------
Cheng, W., Hühn, J., & Hüllermeier, E. (2009). Decision tree and
instance-based learning for label ranking. *Proceedings of the 26th
International Conference on Machine Learning (ICML)*, 161-168.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import rankdata

__all__ = ["delete_labels"]


def delete_labels(Y: ArrayLike, p: float,
                  seed: int | Sequence[int] | np.random.Generator | None = 0) -> np.ndarray:
    """Delete every label of every ranking independently with probability ``p``.

    This makes incomplete rankings from complete ones, as in the experiments
    of Cheng, Hühn & Hüllermeier (2009, §6.2) on missing label information:
    a deleted label is NaN, and the labels left keep their order.

    Parameters
    ----------
    Y : array-like of shape (n_rankings, n_labels)
        Rank positions, lower = more preferred, equal = tied (average
        positions, dense or competition ranks, or any finite numbers), NaN
        for a label already missing. Not modified.
    p : float in [0, 1]
        Probability that a label is deleted.
    seed : int, sequence of int, numpy Generator or None, default=0
        Seed of the coin flips (``numpy.random.default_rng(seed)``); the same
        seed gives the same deletions.

    Returns
    -------
    ndarray of shape (n_rankings, n_labels), float
        The rankings with deleted labels set to NaN and the remaining labels
        of each row re-ranked to positions ``1..m`` (``m`` labels left) in
        their original order; tied labels that both remain stay tied (average
        positions, as :func:`scipy.stats.rankdata`). Re-ranking changes no
        result: the estimators read ``Y`` with the deleted cells blanked but
        not re-ranked the same way (only the order counts).

    Raises
    ------
    ValueError
        If ``p`` is not a number in [0, 1] or ``Y`` is not 2-D.

    See Also
    --------
    rankviz.IBLR, rankviz.RankingTree : Label rankers that learn from incomplete rankings.

    Notes
    -----
    One coin is flipped per cell, also for labels already missing, so the
    deletions depend only on ``seed`` and the shape of ``Y``: with the same
    seed, a larger ``p`` deletes a superset of the labels a smaller one
    deletes (a cell is deleted when its uniform draw is below ``p``). ``p=0``
    returns a valid rank matrix unchanged (as a float copy) and ``p=1``
    deletes everything.

    The protocol of Cheng, Hühn & Hüllermeier (2009) is followed exactly:
    nothing prevents a row from keeping fewer than two labels. Such a row (a
    lone label at position 1, or all NaN) orders no pair, so it carries no
    information, but :func:`rankviz._validation.check_rankings` accepts it
    (and so do the estimators, which all validate with it). The expected share of such rows is
    ``p^L + L (1 - p) p^(L - 1)``, e.g. 65 % for 3 labels at ``p = 0.6``.

    References
    ----------
    Cheng, W., Hühn, J., & Hüllermeier, E. (2009). Decision tree and
    instance-based learning for label ranking. *ICML*, 161-168, §6.2.

    Examples
    --------
    >>> from rankviz.label_ranking.incomplete import delete_labels
    >>> delete_labels([[1, 2, 3, 4]], 0.0)
    array([[1., 2., 3., 4.]])
    >>> delete_labels([[1, 2, 3, 4]], 1.0)
    array([[nan, nan, nan, nan]])
    """
    if isinstance(p, bool) or not isinstance(p, numbers.Real) or not 0 <= p <= 1:
        raise ValueError(f"p must be a probability, a number in [0, 1], got {p!r}")
    Y = np.array(Y, dtype=float)  # a copy: the caller's matrix is not touched
    if Y.ndim != 2:
        raise ValueError(f"Y must be a 2-D matrix of rank positions, got shape {Y.shape}")
    # uniform in [0, 1): "< p" never holds for p = 0 and always for p = 1.
    deleted = np.random.default_rng(seed).random(Y.shape) < p
    Y[deleted] = np.nan
    if Y.size == 0:
        return Y
    # Re-rank what is left of each row, all rows at once; NaN stays NaN.
    return rankdata(Y, axis=1, method="average", nan_policy="omit")
