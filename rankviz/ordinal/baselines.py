"""Baselines for an ordinal target: the default level and k nearest neighbours.

Both take the median (or mode) level, the same rule as the leaves of
:class:`rankviz.OrdinalTree`, so differences between methods come from
*which* training rows are aggregated, not how.
"""

import numpy as np
from sklearn.base import BaseEstimator

from ..neighbours import NeighbourIndex
from .levels import PREDICTION_RULES, OrdinalLevels, level_array, predict_level

__all__ = ["OrdinalDefault", "OrdinalKNN"]


class _OrdinalBaseline(BaseEstimator):
    """Shared fitting of the ordinal baselines: levels, codes and the prediction rule."""

    def _fit_levels(self, y, levels, n_rows):
        if self.prediction not in PREDICTION_RULES:
            raise ValueError(f"prediction must be one of {PREDICTION_RULES}, got {self.prediction!r}")
        if np.ndim(y) != 1 or len(y) != n_rows:
            raise ValueError(f"y must be one column with one level per row of X ({n_rows}), "
                             f"got shape {np.shape(y)}")
        ordinal = OrdinalLevels.from_target(y, levels)
        self.classes_, self.positions_ = ordinal.names, ordinal.positions
        return ordinal.encode(y)

    def predict(self, X):
        """Predicted level of each row (one of ``classes_``)."""
        return level_array(self.classes_)[self.predict_index(X)]


class OrdinalDefault(_OrdinalBaseline):
    """Predict one level for every row: the median (or mode) of the training levels.

    Parameters
    ----------
    prediction : {"median", "mode"}, default="median"
    """

    def __init__(self, prediction="median"):
        self.prediction = prediction

    def fit(self, X, y, levels=None):
        """Find the training median (``X`` is only checked for length)."""
        codes = self._fit_levels(y, levels, len(X))
        self.level_ = int(predict_level(np.bincount(codes, minlength=len(self.classes_)),
                                        self.prediction))
        return self

    def predict_index(self, X):
        """Predicted level index (0 = lowest) of each row."""
        return np.full(len(X), self.level_)


class OrdinalKNN(_OrdinalBaseline):
    """k nearest neighbours for an ordinal target: the median (or mode) level of the neighbours.

    Same distance as :class:`KNNRanker`. With ``n_neighbors=1`` it predicts the
    nearest training row's level.

    Parameters
    ----------
    n_neighbors : int, default=1
    prediction : {"median", "mode"}, default="median"
    """

    def __init__(self, n_neighbors=1, prediction="median"):
        self.n_neighbors = n_neighbors
        self.prediction = prediction

    def fit(self, X, y, levels=None):
        """Store the scaled training attributes and levels."""
        self._index = NeighbourIndex(X, self.n_neighbors)
        self.codes_ = self._fit_levels(y, levels, len(self._index.points))
        return self

    def predict_index(self, X):
        """Predicted level index (0 = lowest) of each row."""
        neighbours = self._index.kneighbors(X)
        n_levels = len(self.classes_)
        # Level counts of each row's neighbours, from one bincount.
        key = np.arange(len(neighbours))[:, None] * n_levels + self.codes_[neighbours]
        counts = np.bincount(key.ravel(), minlength=len(neighbours) * n_levels)
        return predict_level(counts.reshape(len(neighbours), n_levels), self.prediction)
