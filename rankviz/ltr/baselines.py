"""Baselines for query-document ranking, to put MPBoost's NDCG in context.

All follow MPBoost's interface -- ``fit(X, y, *, qid)`` and ``predict(X)``
giving scores, higher first -- so a comparison can treat them alike:

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

import numbers

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.neighbors import KNeighborsRegressor
from sklearn.preprocessing import StandardScaler

from .metrics import mean_ndcg
from .._validation import check_features, check_query_data

__all__ = ["RandomOrder", "BestSingleFeature", "KNNRelevance"]


def _missing_last(scores):
    """Scores with missing values (NaN) below every present one: such documents rank last."""
    missing = np.isnan(scores)
    if not missing.any():
        return scores
    floor = np.min(scores[~missing]) - 1.0 if (~missing).any() else 0.0
    return np.where(missing, floor, scores)


class RandomOrder(BaseEstimator):
    """Random scores, reproducible through ``random_state``."""

    def __init__(self, random_state=0):
        self.random_state = random_state

    def fit(self, X, y, *, qid=None):
        X = np.asarray(X, dtype=float)
        self.n_features_in_ = X.shape[1]
        return self

    def predict(self, X):
        X = check_features(self, X)
        return np.random.default_rng(self.random_state).random(X.shape[0])


class BestSingleFeature(BaseEstimator):
    """Order documents by the single feature that ranks the training queries best.

    Each feature and its negation is scored by mean NDCG@``k`` over the
    training queries; the best one is kept.

    Parameters
    ----------
    k : int, default=10
        Cut-off of the NDCG used to choose.
    form : {"common", "seed"}, default="common"

    Attributes
    ----------
    feature_ : int
    sign_ : {1, -1}
        -1 when low values of the feature mean relevant.
    train_ndcg_ : ndarray of shape (n_features, 2)
        Mean training NDCG@k of each feature, ascending (column 0) and
        descending (column 1) use.
    """

    def __init__(self, k=10, form="common"):
        self.k = k
        self.form = form

    def fit(self, X, y, *, qid):
        X, y, qid = check_query_data(X, y, qid)
        self.n_features_in_ = X.shape[1]
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

    def predict(self, X):
        X = check_features(self, X)
        return _missing_last(self.sign_ * X[:, self.feature_])


class KNNRelevance(BaseEstimator):
    """k-nearest-neighbour regression of the grade on standardised features.

    Parameters
    ----------
    n_neighbors : int, default=10
    """

    def __init__(self, n_neighbors=10):
        self.n_neighbors = n_neighbors

    def fit(self, X, y, *, qid=None):
        X, y, _ = check_query_data(X, y, np.zeros(len(y)) if qid is None else qid)
        if not isinstance(self.n_neighbors, numbers.Integral) or self.n_neighbors < 1:
            raise ValueError(f"n_neighbors must be a positive integer; got {self.n_neighbors!r}.")
        self.n_features_in_ = X.shape[1]
        self.scaler_ = StandardScaler().fit(X)  # ignores missing values
        k = min(int(self.n_neighbors), X.shape[0])
        self.regressor_ = KNeighborsRegressor(n_neighbors=k).fit(self._standardised(X), y)
        return self

    def _standardised(self, X):
        # a missing value is the feature's training mean: 0 once standardised
        return np.nan_to_num(self.scaler_.transform(X), nan=0.0)

    def predict(self, X):
        X = check_features(self, X)
        return self.regressor_.predict(self._standardised(X))
