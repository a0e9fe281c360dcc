"""The measures of a benchmark grid, by name, and which way each one is better.

Every measure takes true and predicted rank positions of shape ``(n, L)``
(lower = preferred, NaN = missing label) and returns one value per row; a
cell's value is the mean over its test rows, NaN rows skipped. Kendall tau,
CS, WRC, LRA and Emond & Mason's τx (the measure of partial rankings, computed
by default only for data with ties: :func:`default_measures`) are those of
:mod:`rankviz.label_ranking.metrics` (higher is better); the rank loss is an
error (lower is better). NDCG@k is not offered:
it needs graded relevances, which a label ranking does not have.

References
----------
.. [1] E. Hüllermeier, J. Fürnkranz, W. Cheng and K. Brinker, "Label ranking
       by learning pairwise preferences", Artificial Intelligence 172(16-17),
       pp. 1897-1916, 2008 (the rank loss of label rankings).
.. [2] C. Rebelo, C. Soares and J. Costa, "Empirical evaluation of ranking
       trees on some metalearning problems", 2008 (CS, WRC, LRA).
.. [3] E. J. Emond and D. W. Mason, "A new rank correlation coefficient with
       application to the consensus ranking problem", Journal of
       Multi-Criteria Decision Analysis 11(1), pp. 17-28, 2002 (τx).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
from numpy.typing import ArrayLike

from ...label_ranking.bucket_order import has_ties
from ...label_ranking.metrics import tau_x
from ..cross_validation import MEASURES as CROSS_VALIDATION_MEASURES

__all__ = ["HIGHER_IS_BETTER", "MEASURES", "TIES_MEASURE", "default_measures", "rank_loss"]


def rank_loss(y_true: ArrayLike, y_pred: ArrayLike) -> np.ndarray:
    """Fraction of the pairs the truth orders that the prediction orders the other way.

    Parameters
    ----------
    y_true : array-like of shape (n, L)
        True rank positions (lower = preferred, equal = tied, NaN = missing).
    y_pred : array-like of shape (n, L)
        Predicted rank positions.

    Returns
    -------
    ndarray of shape (n,)
        In ``[0, 1]``, 0 for a prediction that keeps every strict pair of the
        truth. A pair tied in the prediction counts 1/2; pairs tied in the
        truth, or with a label missing on either side, are not counted. NaN
        for a row whose truth orders no pair.

    References
    ----------
    .. [1] E. Hüllermeier, J. Fürnkranz, W. Cheng and K. Brinker, "Label
           ranking by learning pairwise preferences", Artificial Intelligence
           172(16-17), pp. 1897-1916, 2008.

    Examples
    --------
    >>> rank_loss([[1, 2, 3]], [[2, 1, 3]]).tolist()
    [0.3333333333333333]
    >>> rank_loss([[1, 2, 3]], [[1, 1, 3]]).tolist()
    [0.16666666666666666]
    """
    y_true = np.atleast_2d(np.asarray(y_true, dtype=float))
    y_pred = np.atleast_2d(np.asarray(y_pred, dtype=float))
    if y_true.shape != y_pred.shape:
        raise ValueError(f"y_true and y_pred must have the same shape, got {y_true.shape} and {y_pred.shape}")
    i, j = np.triu_indices(y_true.shape[1], k=1)
    # NaN differences give sign NaN, which is neither ordered nor reversed.
    true_sign = np.sign(y_true[:, i] - y_true[:, j])
    pred_sign = np.sign(y_pred[:, i] - y_pred[:, j])
    ordered = (true_sign != 0) & ~np.isnan(true_sign) & ~np.isnan(pred_sign)
    reversed_pairs = (ordered & (true_sign * pred_sign < 0)).sum(axis=1)
    tied_pairs = (ordered & (pred_sign == 0)).sum(axis=1)
    counted = ordered.sum(axis=1)
    loss = reversed_pairs + 0.5 * tied_pairs
    return np.divide(loss, counted, out=np.full(len(loss), np.nan), where=counted > 0)


#: Measures of a grid by the name its table uses; each maps (y_true, y_pred) to one value per row.
MEASURES: dict[str, Callable[[ArrayLike, ArrayLike], float | np.ndarray]] = {
    "Kendall tau": CROSS_VALIDATION_MEASURES["Kendall tau"],
    "CS": CROSS_VALIDATION_MEASURES["CS"],
    "WRC": CROSS_VALIDATION_MEASURES["WRC"],
    "LRA": CROSS_VALIDATION_MEASURES["LRA"],
    "rank loss": rank_loss,
    "τx": tau_x,
}
#: The measure of partial rankings, computed by default where the data has ties.
TIES_MEASURE = "τx"

#: Whether a larger value of each measure is better (all but the rank loss, an error rate).
HIGHER_IS_BETTER: dict[str, bool] = {"Kendall tau": True, "CS": True, "WRC": True, "LRA": True,
                                     "rank loss": False, "τx": True}


def default_measures(rank_matrices: Iterable[ArrayLike]) -> tuple[str, ...]:
    """Every measure of :data:`MEASURES`, τx only when some row of some rank matrix ties two labels.

    For strict rankings τx equals Kendall's tau, so it is left out where
    no data set has ties.

    Parameters
    ----------
    rank_matrices : iterable of array-like of shape (n, L)
        The data sets' rank positions (NaN = missing label).

    Returns
    -------
    tuple of str
        Names of :data:`MEASURES`, in its order.
    """
    ties = any(has_ties(Y) for Y in rank_matrices)
    return tuple(name for name in MEASURES if name != TIES_MEASURE or ties)
