"""Baselines: the default prediction and k-nearest neighbours.

For label rankings (Rebelo, Soares & Costa 2008) both aggregate training
rankings with the mean-rank rule
(:func:`rankviz.label_ranking.aggregation.rank_by_mean`), the same rule as
the tree's leaves; for ordinal targets (Xia, Zhang & Wang 2006) both take
the median (or mode) level, the same rule as :class:`rankviz.OrdinalTree`'s
leaves. So differences between methods come from *which* training rows are
aggregated, not how.
"""

from __future__ import annotations

from typing import Any, Self

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator

from .._validation import check_feature_input, check_rankings
from ..neighbours import NeighbourIndex
from .aggregation import check_tie_tolerance, mean_from_sums, mean_ranks, rank_by_mean
from .base import LabelRankerMixin

__all__ = ["DefaultRanker", "KNNRanker"]


class DefaultRanker(LabelRankerMixin, BaseEstimator):
    """Predict the default ranking: the mean-rank rule over all training rankings.

    The features are checked (a 2-D table, at least one row and one
    feature; any kind of column) but do not change the prediction.

    Parameters
    ----------
    tie_tolerance : float or None, default=None
        None predicts strict rankings (labels with equal mean positions in
        label order), as Rebelo, Soares & Costa (2008) do. A number >= 0
        predicts partial rankings: neighbouring labels whose mean positions
        differ by at most this much are tied and share the average of their
        positions (:func:`rankviz.label_ranking.aggregation.tie_close_labels`).

    Attributes
    ----------
    mean_rank_ : ndarray of shape (n_labels,)
        Mean position of each label over the training rankings that hold it.
    ranking_ : ndarray of shape (n_labels,)
        The predicted ranking, the same for every example.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    .. [2] P. B. Brazdil, C. Soares and J. Pinto da Costa, "Ranking learning
       algorithms: Using IBL and meta-learning on accuracy and time results",
       Machine Learning, vol. 50, no. 3, pp. 251-277, 2003.
    """

    def __init__(self, tie_tolerance: float | None = None) -> None:
        self.tie_tolerance = tie_tolerance

    def fit(self, X: Any, Y: ArrayLike) -> Self:
        """Compute the default ranking of ``Y``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features; only their shape is used.
        Y : array-like of shape (n_samples, n_labels)
            Rank positions, lower = preferred, equal = tied, NaN for a
            missing label; any convention, only each row's order is used.

        Returns
        -------
        self : DefaultRanker

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D table of at least one row and one feature,
            or ``Y`` is not a rank matrix with one row per row of ``X``.
        TypeError
            If ``X`` is sparse.
        """
        check_tie_tolerance(self.tie_tolerance)
        X = check_feature_input(self, X, Y, reset=True)
        Y = check_rankings(Y, n_rows=len(X))
        self.mean_rank_ = mean_ranks(Y)
        self.ranking_ = rank_by_mean(self.mean_rank_, self.tie_tolerance)
        return self

    def predict(self, X: Any) -> np.ndarray:
        """The default ranking, once per row of ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_labels)

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_feature_input(self, X, reset=False)
        return np.tile(self.ranking_, (len(X), 1))


class KNNRanker(LabelRankerMixin, BaseEstimator):
    """k nearest neighbours for label ranking (Brazdil, Soares & Costa 2003).

    Distances are Euclidean on numeric attributes min-max scaled to [0, 1]
    with the training ranges, and on nominal attributes one-hot encoded (a
    mismatch adds 1 to each of the two indicator columns, i.e. 2 to the
    squared distance). A missing numeric value counts as its attribute's
    training mean, a missing nominal one as the category "(missing)". The
    neighbours' rankings are combined by the mean-rank rule; with
    ``n_neighbors=1`` (the baseline of Rebelo, Soares & Costa 2008) the
    prediction is the nearest example's ranking. Among equally distant
    neighbours the earlier training row wins (stable sort).

    Parameters
    ----------
    n_neighbors : int, default=1
    tie_tolerance : float or None, default=None
        None predicts strict rankings (labels with equal mean positions in
        label order), as Rebelo, Soares & Costa (2008) do. A number >= 0
        predicts partial rankings: neighbouring labels whose mean positions
        differ by at most this much are tied and share the average of their
        positions (:func:`rankviz.label_ranking.aggregation.tie_close_labels`).

    Attributes
    ----------
    Y_ : ndarray of shape (n_samples, n_labels)
        The training rankings.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    References
    ----------
    .. [1] P. B. Brazdil, C. Soares and J. Pinto da Costa, "Ranking learning
       algorithms: Using IBL and meta-learning on accuracy and time results",
       Machine Learning, vol. 50, no. 3, pp. 251-277, 2003.
    .. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    """

    def __init__(self, n_neighbors: int = 1, tie_tolerance: float | None = None) -> None:
        self.n_neighbors = n_neighbors
        self.tie_tolerance = tie_tolerance

    def fit(self, X: Any, Y: ArrayLike) -> Self:
        """Store the scaled training attributes and rankings.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal (string, category, bool) attributes; NaN
            (or None) marks a missing value.
        Y : array-like of shape (n_samples, n_labels)
            Rank positions, lower = preferred, equal = tied, NaN for a
            missing label; any convention, only each row's order is used.

        Returns
        -------
        self : KNNRanker

        Raises
        ------
        ValueError
            If ``n_neighbors`` is not an integer >= 1, ``X`` is not a 2-D
            table of at least one row and one feature, or ``Y`` is not a
            rank matrix with one row per row of ``X``.
        TypeError
            If ``X`` is sparse.
        """
        check_tie_tolerance(self.tie_tolerance)
        X = check_feature_input(self, X, Y, reset=True)
        self._index = NeighbourIndex(X, self.n_neighbors)
        self.Y_ = check_rankings(Y, n_rows=len(self._index.points))
        return self

    def kneighbors(self, X: Any) -> np.ndarray:
        """Indices of the nearest training rows, nearest first.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)

        Returns
        -------
        ndarray of int, shape (n_rows, min(n_neighbors, n_training_rows))

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_feature_input(self, X, reset=False)
        return self._index.kneighbors(X)

    def predict(self, X: Any) -> np.ndarray:
        """Mean-rank ranking of each row's neighbours.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)

        Returns
        -------
        ndarray of shape (n_rows, n_labels)
            Each row a permutation of ``1..n_labels``; with
            ``tie_tolerance``, tied labels share the average of their positions.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        neighbours = self.kneighbors(X)
        present = ~np.isnan(self.Y_)
        position_sum = np.where(present, self.Y_, 0.0)[neighbours].sum(axis=1)
        return rank_by_mean(mean_from_sums(position_sum, present[neighbours].sum(axis=1)), self.tie_tolerance)
