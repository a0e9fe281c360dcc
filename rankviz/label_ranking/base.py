"""What every label ranker shares: its ``score`` and its scikit-learn tags.

A label ranker learns from features ``X`` and a rank matrix ``Y`` (one row
per example, one column per label, 1 = most preferred, NaN for a label the
ranking lacks) and predicts a ranking of all labels for each row of ``X``.
:class:`LabelRankerMixin` gives :class:`rankviz.RankingTree`,
:class:`rankviz.DefaultRanker`, :class:`rankviz.KNNRanker`,
:class:`rankviz.IBLR` and :class:`rankviz.ConstraintClassifier` the same
``score``, so that scikit-learn's model selection
(:func:`sklearn.model_selection.cross_val_score`,
:class:`sklearn.model_selection.GridSearchCV`) works on them without a
scorer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import Tags

from .._validation import check_rankings
from .metrics import kendall_tau, tau_x

__all__ = ["LabelRankerMixin"]


class LabelRankerMixin:
    """Mixin of the label rankers: ``score`` is the mean Kendall tau, and the tags say so.

    Put it before :class:`sklearn.base.BaseEstimator` among the bases, as
    scikit-learn's own mixins: ``class Ranker(LabelRankerMixin, BaseEstimator)``.
    The class must define ``predict(X)`` returning rank positions of shape
    (n_samples, n_labels).

    Tags: the target is required and is a 2-D rank matrix of at least two
    labels (``two_d_labels``, multi-output only); ``X`` may hold NaN (a
    missing value) and nominal (string, categorical) columns.
    """

    if TYPE_CHECKING:  # what the estimator class provides (above), for the type checker only
        def predict(self, X: Any) -> np.ndarray: ...

    def score(self, X: Any, Y: ArrayLike) -> float:
        """Mean Kendall tau between the predicted rankings of ``X`` and the true rankings ``Y``.

        Each row's tau-b (:func:`rankviz.label_ranking.metrics.kendall_tau`)
        is taken over the labels its true ranking holds (an incomplete
        ranking is compared on its present labels only); rows with a NaN
        tau (fewer than two present labels) are left out of the mean. This
        is the measure Cheng, Hühn & Hüllermeier (2009) report for label
        rankers, and the one IBLR's ``n_neighbors="auto"`` maximises. A
        ranker that predicts bucket orders (``consensus_ == "bucket_order"``,
        on partial rankings) is scored by Emond & Mason's τx
        (:func:`rankviz.label_ranking.metrics.tau_x`) instead, as the
        partial label rankers of Alfaro, Aledo & Gámez (2021) are.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features, as in ``fit``.
        Y : array-like of shape (n_samples, n_labels)
            True rank positions, lower = preferred, equal = tied, NaN for a
            missing label; any convention (read as in ``fit``).

        Returns
        -------
        float
            In ``[-1, 1]``: 1 when every prediction orders the present
            labels as the truth does, 0 for no association, -1 for reversed
            orders. NaN when no row holds two labels.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``, or ``Y`` is not a
            rank matrix with one row per row of ``X`` and the labels of
            ``fit``.

        References
        ----------
        .. [1] M. G. Kendall, "A new measure of rank correlation",
           Biometrika 30(1/2), pp. 81-93, 1938.
        .. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
           instance-based learning for label ranking", Proceedings of the
           26th International Conference on Machine Learning (ICML), 2009.
        """
        predicted = self.predict(X)
        Y = check_rankings(Y, n_rows=len(predicted))
        measure = tau_x if getattr(self, "consensus_", None) == "bucket_order" else kendall_tau
        tau = np.atleast_1d(measure(Y, predicted))
        valid = ~np.isnan(tau)
        return float(tau[valid].mean()) if valid.any() else float("nan")

    def __sklearn_tags__(self) -> Tags:
        # The next class in the MRO (BaseEstimator) has the method: a cooperative mixin's super(),
        # which no annotation describes.
        tags = cast(Any, super()).__sklearn_tags__()
        tags.target_tags.required = True
        tags.target_tags.two_d_labels = True
        tags.target_tags.multi_output = True
        tags.target_tags.single_output = False
        tags.input_tags.allow_nan = True
        tags.input_tags.categorical = True
        tags.input_tags.string = True
        return tags
