"""Baselines: the default prediction and k-nearest neighbours.

For label rankings (seed 001) both aggregate training rankings with the
mean-rank rule (:func:`rankviz.label_ranking.aggregation.rank_by_mean`), the same rule as
the tree's leaves; for ordinal targets (seed 002) both take the median (or
mode) level, the same rule as :class:`rankviz.OrdinalTree`'s leaves. So
differences between methods come from *which* training rows are
aggregated, not how.
"""

import numpy as np
from sklearn.base import BaseEstimator

from .._validation import check_rankings
from ..neighbours import NeighbourIndex
from .aggregation import mean_from_sums, mean_ranks, rank_by_mean

__all__ = ["DefaultRanker", "KNNRanker"]


class DefaultRanker(BaseEstimator):
    """Predict the default ranking: the mean-rank rule over all training rankings.

    Attributes
    ----------
    ranking_ : ndarray of shape (n_labels,)
        The predicted ranking, the same for every example.
    """

    def fit(self, X, Y):
        """Compute the default ranking of ``Y`` (``X`` is only checked for length)."""
        Y = check_rankings(Y, n_rows=len(X))
        self.mean_rank_ = mean_ranks(Y)
        self.ranking_ = rank_by_mean(self.mean_rank_)
        return self

    def predict(self, X):
        """The default ranking, once per row of ``X``."""
        return np.tile(self.ranking_, (len(X), 1))


class KNNRanker(BaseEstimator):
    """k nearest neighbours for label ranking (Brazdil, Soares, Costa 2003).

    Distances are Euclidean on numeric attributes min-max scaled to [0, 1]
    with the training ranges, and on nominal attributes one-hot encoded (a
    mismatch adds 1 to each of the two indicator columns, i.e. 2 to the
    squared distance). A missing numeric value counts as its attribute's
    training mean, a missing nominal one as the category "(missing)". The
    neighbours' rankings are combined by the mean-rank
    rule; with ``n_neighbors=1`` (seed 001) the prediction is the nearest
    example's ranking. Among equally distant neighbours the earlier training
    row wins (stable sort).

    Parameters
    ----------
    n_neighbors : int, default=1
    """

    def __init__(self, n_neighbors=1):
        self.n_neighbors = n_neighbors

    def fit(self, X, Y):
        """Store the scaled training attributes and rankings."""
        self._index = NeighbourIndex(X, self.n_neighbors)
        self.Y_ = check_rankings(Y, n_rows=len(self._index.points))
        return self

    def kneighbors(self, X):
        """Indices of the nearest training rows, shape (n_rows, n_neighbors)."""
        return self._index.kneighbors(X)

    def predict(self, X):
        """Mean-rank ranking of each row's neighbours, shape (n_rows, n_labels)."""
        neighbours = self.kneighbors(X)
        present = ~np.isnan(self.Y_)
        position_sum = np.where(present, self.Y_, 0.0)[neighbours].sum(axis=1)
        return rank_by_mean(mean_from_sums(position_sum, present[neighbours].sum(axis=1)))
