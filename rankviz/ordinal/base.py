"""What every ordinal estimator shares: the rank loss, ``score`` and the scikit-learn tags.

An ordinal estimator learns one ordered level per row (ratings 1-5, or named
levels in a given order) and predicts a level for each row of ``X``; the
error of a prediction is the distance between the positions of the
predicted and the true level, the absolute rank loss of Xia, Zhang & Wang
(2006). :class:`OrdinalRegressorMixin` gives :class:`rankviz.OrdinalTree`,
:class:`rankviz.OrdinalDefault` and :class:`rankviz.OrdinalKNN` the same
``predict``, ``level_index``, ``rank_loss`` and ``score``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import Tags
from sklearn.utils.validation import check_is_fitted

from .levels import OrdinalLevels, level_array, mean_rank_loss

__all__ = ["OrdinalRegressorMixin"]


class OrdinalRegressorMixin:
    """Mixin of the ordinal estimators: rank loss, ``score`` (its negation) and tags.

    Put it before :class:`sklearn.base.BaseEstimator` among the bases. The
    class must set ``classes_`` (the levels, lowest first) and
    ``positions_`` (their positions) in ``fit`` and define
    ``predict_index(X)`` (level index of each row, 0 = lowest).

    Tags: the target is required and 1-D; ``X`` may hold NaN (a missing
    value) and nominal (string, categorical) columns.
    """

    if TYPE_CHECKING:  # what the estimator class provides (above), for the type checker only
        classes_: list[Any]
        positions_: np.ndarray

        def predict_index(self, X: Any) -> np.ndarray: ...

    def predict(self, X: Any) -> np.ndarray:
        """Predicted level of each row (one of ``classes_``).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)
            Object dtype when the levels are names.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        index = self.predict_index(X)
        return level_array(self.classes_)[index]

    def level_index(self, y: ArrayLike) -> np.ndarray:
        """Index (0 = lowest) of each of the levels ``y``.

        Parameters
        ----------
        y : array-like of shape (n_samples,)
            Levels, as in ``fit`` (``3``, ``3.0`` and ``"3"`` are the same level).

        Returns
        -------
        ndarray of int, shape (n_samples,)

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        ValueError
            If a value is not one of ``classes_``; the message names the first.
        """
        check_is_fitted(self)
        return OrdinalLevels(self.classes_, self.positions_).encode(y)

    def rank_loss(self, X: Any, y: ArrayLike) -> float:
        """Mean absolute rank loss of the predictions for ``X`` against the levels ``y``.

        ``1/T sum_t |p(y_hat_t) - p(y_t)|`` over the ``T`` rows, where ``p``
        is a level's position (``positions_``): the rank loss of Xia, Zhang &
        Wang (2006).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True levels.

        Returns
        -------
        float
            At least 0; 0 when every prediction is right.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        ValueError
            If a level of ``y`` is unknown, ``X`` has other features than in
            ``fit``, or ``X`` and ``y`` differ in length.
        """
        return float(mean_rank_loss(*self._true_and_predicted_positions(X, y)))  # 1-D positions: a float

    def rank_losses(self, X: Any, y: ArrayLike) -> np.ndarray:
        """The absolute rank loss of each row, ``|p(y_hat_t) - p(y_t)|``; :meth:`rank_loss` is their mean.

        For comparing two methods row by row (a paired test). Parameters and
        errors as for :meth:`rank_loss`.

        Returns
        -------
        ndarray of float, shape (n_samples,)
        """
        true, predicted = self._true_and_predicted_positions(X, y)
        if true.shape != predicted.shape:
            mean_rank_loss(true, predicted)  # raises its message for rows that do not pair up
        return np.abs(predicted - true).astype(float)

    def _true_and_predicted_positions(self, X, y):
        true_index = self.level_index(y)  # first: it checks that the estimator is fitted
        predicted_index = self.predict_index(X)
        return self.positions_[true_index], self.positions_[predicted_index]

    def score(self, X: Any, y: ArrayLike) -> float:
        """The negated mean absolute rank loss of the predictions for ``X``: higher is better.

        ``-rank_loss(X, y)``, negated so that, as scikit-learn's model
        selection expects of a score, larger values mean better models
        (scikit-learn's ``"neg_mean_absolute_error"`` is negated for the same
        reason; on numeric ratings the two agree).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)
            True levels.

        Returns
        -------
        float
            At most 0; 0 when every prediction is right, and at least minus
            the distance between the lowest and the highest position.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the estimator is not fitted.
        ValueError
            As :meth:`rank_loss`.

        References
        ----------
        .. [1] F. Xia, W. Zhang and J. Wang, "An effective tree-based
           algorithm for ordinal regression", IEEE Intelligent Informatics
           Bulletin 7(1), 2006.
        """
        return -self.rank_loss(X, y)

    def __sklearn_tags__(self) -> Tags:
        # The next class in the MRO (BaseEstimator) has the method: a cooperative mixin's super(),
        # which no annotation describes.
        tags = cast(Any, super()).__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.one_d_labels = True
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags
