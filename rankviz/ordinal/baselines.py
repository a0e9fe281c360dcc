"""Baselines for an ordinal target: the default level and k nearest neighbours.

Both take the median (or mode) level, the same rule as the leaves of
:class:`rankviz.OrdinalTree`, so differences between methods come from
*which* training rows are aggregated, not how.
"""

from __future__ import annotations

from typing import Any, Self

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator

from .._validation import check_feature_input, moved_fit_keyword
from ..neighbours import NeighbourIndex
from .base import OrdinalRegressorMixin
from .levels import PREDICTION_RULES, OrdinalLevels, predict_level

__all__ = ["OrdinalDefault", "OrdinalKNN"]


class _OrdinalBaseline(OrdinalRegressorMixin, BaseEstimator):
    """Shared fitting of the ordinal baselines: levels, codes and the prediction rule."""

    def _fit_levels(self, y, levels, n_rows):
        if np.ndim(y) != 1 or len(y) != n_rows:
            raise ValueError(f"y must be one column with one level per row of X ({n_rows}), "
                             f"got shape {np.shape(y)}")
        if levels is not None:
            moved_fit_keyword(self, "levels", f"set the levels parameter, {type(self).__name__}(levels=...)")
        ordinal = OrdinalLevels.from_target(y, self.levels if levels is None else levels)
        self.classes_, self.positions_ = ordinal.names, ordinal.positions
        return ordinal.encode(y)

    def _check_prediction(self):
        if self.prediction not in PREDICTION_RULES:
            raise ValueError(f"prediction must be one of {PREDICTION_RULES}, got {self.prediction!r}")


class OrdinalDefault(_OrdinalBaseline):
    """Predict one level for every row: the median (or mode) of the training levels.

    The features are checked (a 2-D table, at least one row and one
    feature; any kind of column) but do not change the prediction.

    Parameters
    ----------
    prediction : {"median", "mode"}, default="median"
        The training level predicted: the (lower) median, which minimises
        the absolute rank loss, or the most frequent (the lowest among
        ties).
    levels : list, optional
        The level names, lowest first; needed when ``y`` holds names that
        are not an ordered pandas categorical.

    Attributes
    ----------
    classes_ : list
        The levels, lowest first.
    positions_ : ndarray
        Their positions (the values of numeric ratings, ``1..K`` for names).
    level_ : int
        Index into ``classes_`` of the predicted level.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    OrdinalKNN : The median level of the nearest training rows only.
    rankviz.OrdinalTree : The median level of the rows of a leaf.

    References
    ----------
    .. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.

    Examples
    --------
    >>> from rankviz import OrdinalDefault
    >>> from rankviz.datasets import load_ordinal_sample
    >>> data = load_ordinal_sample("diabetes_ordinal")
    >>> model = OrdinalDefault(levels=data.levels).fit(data.X, data.y)
    >>> model.classes_[model.level_], model.predict(data.X[:2])
    ('medium', array(['medium', 'medium'], dtype=object))
    """

    def __init__(self, prediction: str = "median", levels: list | None = None) -> None:
        self.prediction = prediction
        self.levels = levels

    def fit(self, X: Any, y: ArrayLike, levels: list | None = None) -> Self:
        """Find the training median (or mode) level.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features; only their shape is used.
        y : array-like of shape (n_samples,)
            Numeric ratings, an ordered pandas categorical, or names listed
            in ``levels``.
        levels : list, optional
            Deprecated since 0.2, removed in 0.3: set the ``levels``
            parameter, which ``clone`` and grid searches keep.

        Returns
        -------
        self : OrdinalDefault
            The fitted estimator.

        Raises
        ------
        ValueError
            If ``prediction`` is invalid, ``X`` is not a 2-D table of at
            least one row and one feature, or ``y`` is not one level per row
            of ``X``.
        TypeError
            If ``X`` is sparse.
        """
        self._check_prediction()
        X = check_feature_input(self, X, y, reset=True)
        codes = self._fit_levels(y, levels, len(X))
        self.level_ = int(predict_level(np.bincount(codes, minlength=len(self.classes_)),
                                        self.prediction))
        return self

    def predict_index(self, X: Any) -> np.ndarray:
        """Predict the level index (0 = lowest) of each row: ``level_`` for all.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``; only their number of rows
            is used.

        Returns
        -------
        ndarray of int, shape (n_samples,)
            ``level_`` in every row, an index into ``classes_``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_feature_input(self, X, reset=False)
        return np.full(len(X), self.level_)


class OrdinalKNN(_OrdinalBaseline):
    """Predict an ordinal target by the median (or mode) level of the k nearest neighbours.

    Same distance as :class:`rankviz.KNNRanker`. With ``n_neighbors=1`` it
    predicts the nearest training row's level.

    Parameters
    ----------
    n_neighbors : int, default=1
        Number of nearest training rows whose levels are combined (at most
        the number of training rows is used); an integer >= 1.
    prediction : {"median", "mode"}, default="median"
        How the neighbours' levels are combined: the (lower) median or the
        most frequent (the lowest among ties).
    levels : list, optional
        The level names, lowest first; needed when ``y`` holds names that
        are not an ordered pandas categorical.

    Attributes
    ----------
    classes_ : list
        The levels, lowest first.
    positions_ : ndarray
        Their positions (the values of numeric ratings, ``1..K`` for names).
    codes_ : ndarray of int, shape (n_samples,)
        Level index of each training row.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    OrdinalDefault : The median level of all training rows.
    rankviz.KNNRanker : The same neighbours for label rankings.

    References
    ----------
    .. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.

    Examples
    --------
    >>> from rankviz import OrdinalKNN
    >>> X = [[1.0], [2.0], [3.0], [10.0], [11.0]]
    >>> model = OrdinalKNN(n_neighbors=3).fit(X, [1, 1, 2, 5, 5])
    >>> model.classes_, model.predict([[1.5], [10.5]])
    ([1, 2, 5], array([1, 5]))
    >>> round(model.rank_loss([[3.0]], [2]), 2)  # predicted 1 for a 2
    1.0
    """

    def __init__(self, n_neighbors: int = 1, prediction: str = "median", levels: list | None = None) -> None:
        self.n_neighbors = n_neighbors
        self.prediction = prediction
        self.levels = levels

    def fit(self, X: Any, y: ArrayLike, levels: list | None = None) -> Self:
        """Store the scaled training attributes and levels.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal (string, category, bool) attributes; NaN
            (or None) marks a missing value.
        y : array-like of shape (n_samples,)
            Numeric ratings, an ordered pandas categorical, or names listed
            in ``levels``.
        levels : list, optional
            Deprecated since 0.2, removed in 0.3: set the ``levels``
            parameter, which ``clone`` and grid searches keep.

        Returns
        -------
        self : OrdinalKNN
            The fitted estimator.

        Raises
        ------
        ValueError
            If a parameter is invalid, ``X`` is not a 2-D table of at least
            one row and one feature, or ``y`` is not one level per row of
            ``X``.
        TypeError
            If ``X`` is sparse.
        """
        X = check_feature_input(self, X, y, reset=True)
        self._index = NeighbourIndex(X, self.n_neighbors)
        self._check_prediction()
        self.codes_ = self._fit_levels(y, levels, len(self._index.points))
        return self

    def predict_index(self, X: Any) -> np.ndarray:
        """Predict the level index (0 = lowest) of each row.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``; NaN (or None) marks a
            missing value.

        Returns
        -------
        ndarray of int, shape (n_samples,)
            Index into ``classes_`` of the median (or mode) level of each
            row's neighbours.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_feature_input(self, X, reset=False)
        neighbours = self._index.kneighbors(X)
        n_levels = len(self.classes_)
        # Level counts of each row's neighbours, from one bincount.
        key = np.arange(len(neighbours))[:, None] * n_levels + self.codes_[neighbours]
        counts = np.bincount(key.ravel(), minlength=len(neighbours) * n_levels)
        return predict_level(counts.reshape(len(neighbours), n_levels), self.prediction)
