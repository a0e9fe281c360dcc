"""Baselines for query-document ranking, to put MPBoost's NDCG in context.

All follow MPBoost's interface -- ``fit(X, y, *, qid)``, ``predict(X)``
giving scores, higher first, and ``score(X, y, *, qid)``, the mean NDCG@10
over queries -- so a comparison can treat them alike:

* :class:`RandomOrder` -- random scores: the floor any learner must beat.
* :class:`BestSingleFeature` -- order by the one training feature (or its
  negation) with the best mean training NDCG: what a single hand-picked
  signal gives, the usual first baseline in learning to rank.
* :class:`KNNRelevance` -- k-nearest-neighbour regression of the grade on
  standardised features: a pointwise learner that ignores queries.

Missing feature values (NaN): the best single feature ranks them last; KNN
replaces them by the feature's training mean.

BINARY, the RankBoost-like labelling, is ``MPBoost(ddf="binary")``.
"""

from __future__ import annotations

import numbers
from typing import Self

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator
from sklearn.neighbors import KNeighborsRegressor
from sklearn.preprocessing import StandardScaler
from sklearn.utils import Tags

from .base import QueryRankerMixin
from .metrics import mean_ndcg
from .._validation import check_feature_input, check_features, check_query_data

__all__ = ["RandomOrder", "BestSingleFeature", "KNNRelevance"]


def _missing_last(scores):
    """Scores with missing values (NaN) below every present one: such documents rank last."""
    missing = np.isnan(scores)
    if not missing.any():
        return scores
    floor = np.min(scores[~missing]) - 1.0 if (~missing).any() else 0.0
    return np.where(missing, floor, scores)


class RandomOrder(QueryRankerMixin, BaseEstimator):
    """Random scores, reproducible through ``random_state``.

    Every call of ``predict`` draws the scores afresh from
    ``numpy.random.default_rng(random_state)``: the same ``X`` (shape) gets
    the same scores, but a document's score depends on its place in ``X``,
    not on its features. The grades and queries given to ``fit`` are not
    used.

    Parameters
    ----------
    random_state : int, default=0
        Seed of ``numpy.random.default_rng`` for the scores; the same seed
        and the same number of documents give the same scores.

    Attributes
    ----------
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    BestSingleFeature : The baseline a learner should beat next.
    rankviz.MPBoost : The learner these baselines put in context.

    References
    ----------
    .. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.

    Examples
    --------
    >>> from rankviz import make_ltr_dataset
    >>> from rankviz.datasets import split_by_query
    >>> from rankviz.ltr import RandomOrder
    >>> train, test = split_by_query(make_ltr_dataset(n_queries=40, n_features=10, seed=0), (0.5, 0.5))
    >>> model = RandomOrder(random_state=0).fit(train.X)
    >>> model.predict(test.X[:3])
    array([0.63696169, 0.26978671, 0.04097352])
    >>> round(model.score(test.X, test.relevance, qid=test.qid), 2)  # mean NDCG@10: the floor
    0.39
    """

    def __init__(self, random_state: int = 0) -> None:
        self.random_state = random_state

    def fit(self, X: ArrayLike, y: ArrayLike | None = None, *, qid: ArrayLike | None = None) -> Self:
        """Record the number of features of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features (NaN allowed).
        y, qid : array-like of shape (n_documents,), optional
            Ignored; accepted for the interface of the other rankers.

        Returns
        -------
        self : RandomOrder
            The fitted ranker.

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D table of numbers with at least one row and
            one feature.
        TypeError
            If ``X`` is sparse or holds values that are not numbers.
        """
        X = check_feature_input(self, X, reset=True)
        np.asarray(X, dtype=float)  # numbers only, as the other rankers take
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Draw random scores, one per document, in ``[0, 1)``.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Features with the columns of ``fit``; only their number of rows
            is used.

        Returns
        -------
        ndarray of shape (n_documents,)
            Uniform draws from ``numpy.random.default_rng(random_state)``,
            the same on every call for the same number of documents.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_features(self, X)
        return np.random.default_rng(self.random_state).random(len(X))

    def __sklearn_tags__(self) -> Tags:
        tags = super().__sklearn_tags__()
        tags.target_tags.required = False  # the grades are not used
        return tags


class BestSingleFeature(QueryRankerMixin, BaseEstimator):
    """Order documents by the single feature that ranks the training queries best.

    Each feature and its negation is scored by mean NDCG@``k`` over the
    training queries; the best one is kept.

    Parameters
    ----------
    k : int, default=10
        Cut-off of the NDCG used to choose.
    form : {"common", "mpboost"}, default="common"
        The NDCG form used to choose (see :mod:`rankviz.ltr.metrics`).

    Attributes
    ----------
    feature_ : int
        Index of the chosen feature (column of ``X``).
    sign_ : {1, -1}
        -1 when low values of the feature mean relevant.
    train_ndcg_ : ndarray of shape (n_features, 2)
        Mean training NDCG@k of each feature, ascending (column 0) and
        descending (column 1) use.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    rankviz.ltr.ndcg : The measure the feature is chosen by.
    rankviz.MPBoost : A learner that combines many features.

    References
    ----------
    .. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.

    Examples
    --------
    >>> from rankviz import make_ltr_dataset
    >>> from rankviz.datasets import split_by_query
    >>> from rankviz.ltr import BestSingleFeature
    >>> train, test = split_by_query(make_ltr_dataset(n_queries=40, n_features=10, seed=0), (0.5, 0.5))
    >>> model = BestSingleFeature().fit(train.X, train.relevance, qid=train.qid)
    >>> model.feature_, model.sign_  # f2, high values relevant
    (1, 1)
    >>> round(model.score(test.X, test.relevance, qid=test.qid), 2)
    0.65
    """

    def __init__(self, k: int = 10, form: str = "common") -> None:
        self.k = k
        self.form = form

    def fit(self, X: ArrayLike, y: ArrayLike, *, qid: ArrayLike) -> Self:
        """Choose the feature (and sign) with the best mean training NDCG@``k``.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features; NaN marks a missing value (ranked last).
        y : array-like of shape (n_documents,)
            Relevance grades.
        qid : array-like of shape (n_documents,)
            Query id of each document.

        Returns
        -------
        self : BestSingleFeature
            The fitted ranker.

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D table of numbers with at least one row and
            one feature, ``y`` or ``qid`` does not hold one value per
            document, or no training query has a relevant document.
        TypeError
            If ``X`` is sparse.
        """
        X = check_feature_input(self, X, y, reset=True)
        X, y, qid = check_query_data(X, y, qid)
        # One NDCG evaluation per feature and sign; fit-time only and each is
        # vectorised over documents.
        scores = np.empty((X.shape[1], 2))
        for k in range(X.shape[1]):
            for column, sign in enumerate((1.0, -1.0)):
                scores[k, column] = mean_ndcg(y, _missing_last(sign * X[:, k]), qid, ks=[self.k],
                                              form=self.form)[0]
        self.train_ndcg_ = scores
        if np.isnan(scores).all():
            raise ValueError("no training query has a relevant document (grade above 0), so no feature "
                             "can be scored by NDCG")
        best = int(np.nanargmax(scores))
        self.feature_, column = divmod(best, 2)
        self.sign_ = 1 if column == 0 else -1
        return self

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Score documents by the chosen feature (times its sign); missing values rank last.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features with the columns of ``fit``.

        Returns
        -------
        ndarray of shape (n_documents,)
            ``sign_ * X[:, feature_]``, a missing value replaced by one less
            than the lowest present score.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_features(self, X)
        return _missing_last(self.sign_ * X[:, self.feature_])


class KNNRelevance(QueryRankerMixin, BaseEstimator):
    """Predict the grade by k-nearest-neighbour regression on standardised features.

    Queries play no part in fitting: the grade of a document is predicted
    from the training documents nearest to it, whatever their query.

    Parameters
    ----------
    n_neighbors : int, default=10
        Number of training documents whose grades are averaged; at most the
        number of training documents is used.

    Attributes
    ----------
    scaler_ : StandardScaler
        The standardisation of the training features (missing values ignored).
    regressor_ : KNeighborsRegressor
        The regression on the standardised features, with uniform weights.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    sklearn.neighbors.KNeighborsRegressor : The regression used.
    rankviz.MPBoost : A pairwise learner that uses the queries.

    References
    ----------
    .. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.

    Examples
    --------
    >>> from rankviz import make_ltr_dataset
    >>> from rankviz.datasets import split_by_query
    >>> from rankviz.ltr import KNNRelevance
    >>> train, test = split_by_query(make_ltr_dataset(n_queries=40, n_features=10, seed=0), (0.5, 0.5))
    >>> model = KNNRelevance(n_neighbors=10).fit(train.X, train.relevance)
    >>> model.predict(test.X[:3])  # mean grades of the 10 nearest documents
    array([0.9, 0.6, 1.2])
    """

    def __init__(self, n_neighbors: int = 10) -> None:
        self.n_neighbors = n_neighbors

    def fit(self, X: ArrayLike, y: ArrayLike, *, qid: ArrayLike | None = None) -> Self:
        """Standardise ``X`` and store the training documents and grades.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features; NaN marks a missing value (the feature's mean).
        y : array-like of shape (n_documents,)
            Relevance grades.
        qid : array-like of shape (n_documents,), optional
            Query ids; checked for length but not used.

        Returns
        -------
        self : KNNRelevance
            The fitted ranker.

        Raises
        ------
        ValueError
            If ``n_neighbors`` is not a positive integer, ``X`` is not a 2-D
            table of numbers with at least one row and one feature, or ``y``
            or ``qid`` does not hold one value per document.
        TypeError
            If ``X`` is sparse.
        """
        X = check_feature_input(self, X, y, reset=True)
        X, y, _ = check_query_data(X, y, np.zeros(np.shape(y)[0]) if qid is None else qid)
        if not isinstance(self.n_neighbors, numbers.Integral) or self.n_neighbors < 1:
            raise ValueError(f"n_neighbors must be a positive integer; got {self.n_neighbors!r}.")
        self.scaler_: StandardScaler = StandardScaler().fit(X)  # ignores missing values
        k = min(int(self.n_neighbors), X.shape[0])
        self.regressor_: KNeighborsRegressor = KNeighborsRegressor(n_neighbors=k).fit(self._standardised(X), y)
        return self

    def _standardised(self, X: np.ndarray) -> np.ndarray:
        # a missing value is the feature's training mean: 0 once standardised
        return np.nan_to_num(self.scaler_.transform(X), nan=0.0)

    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predict the mean grade of the ``n_neighbors`` nearest training documents.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features with the columns of ``fit``; a missing value
            counts as the feature's training mean.

        Returns
        -------
        ndarray of shape (n_documents,)
            The predicted grade of each document, used as its score.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_features(self, X)
        return self.regressor_.predict(self._standardised(X))
