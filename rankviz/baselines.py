"""Baselines of seed 001: the default ranking and k-nearest neighbours.

Both aggregate training rankings with the mean-rank rule
(:func:`rankviz.aggregation.rank_by_mean`), the same rule as the tree's
leaves, so differences between methods come from *which* rankings are
aggregated, not how.
"""

import numpy as np
from sklearn.base import BaseEstimator

from .aggregation import mean_from_sums, mean_ranks, rank_by_mean
from .features import FeatureEncoder
from .ranking_tree import check_rankings

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
    squared distance). The neighbours' rankings are combined by the mean-rank
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
        if not (isinstance(self.n_neighbors, (int, np.integer)) and self.n_neighbors >= 1):
            raise ValueError(f"n_neighbors must be an integer >= 1, got {self.n_neighbors!r}")
        self._encoder = FeatureEncoder().fit(X)
        encoded = self._encoder.transform(X)
        self.Y_ = check_rankings(Y, n_rows=len(encoded))
        numeric = ~self._encoder.nominal
        self._low = encoded[:, numeric].min(axis=0)
        span = encoded[:, numeric].max(axis=0) - self._low
        self._span = np.where(span > 0, span, 1.0)  # a constant column adds no distance
        self.X_ = self._embed(encoded)
        return self

    def kneighbors(self, X):
        """Indices of the nearest training rows, shape (n_rows, n_neighbors)."""
        query = self._embed(self._encoder.transform(X))
        # ||a - b||^2 = ||a||^2 - 2 a.b + ||b||^2, for all pairs at once.
        sq = ((query ** 2).sum(axis=1)[:, None] - 2 * query @ self.X_.T
              + (self.X_ ** 2).sum(axis=1)[None, :])
        k = min(self.n_neighbors, len(self.X_))
        return np.argsort(np.maximum(sq, 0.0).round(12), axis=1, kind="stable")[:, :k]

    def predict(self, X):
        """Mean-rank ranking of each row's neighbours, shape (n_rows, n_labels)."""
        neighbours = self.kneighbors(X)
        present = ~np.isnan(self.Y_)
        position_sum = np.where(present, self.Y_, 0.0)[neighbours].sum(axis=1)
        return rank_by_mean(mean_from_sums(position_sum, present[neighbours].sum(axis=1)))

    def _embed(self, encoded):
        numeric = ~self._encoder.nominal
        parts = [(encoded[:, numeric] - self._low) / self._span]
        for j in np.flatnonzero(self._encoder.nominal):
            n_values = len(self._encoder.categories[j])
            parts.append(encoded[:, [j]] == np.arange(n_values)[None, :])
        return np.hstack(parts).astype(float)
