"""What every query-document ranker shares: its ``score`` and its scikit-learn tags.

A query ranker learns from documents ``X``, their relevance grades ``y`` and
the query of each document ``qid``, and predicts a score per document;
within a query, higher scores rank first. :class:`QueryRankerMixin` gives
:class:`rankviz.MPBoost` and the baselines of :mod:`rankviz.ltr.baselines`
the same ``score``: the mean NDCG@10 over queries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import Tags

from .metrics import mean_ndcg

__all__ = ["QueryRankerMixin", "SCORE_CUTOFF"]

#: The cut-off ``k`` of the NDCG@k that ``score`` reports.
SCORE_CUTOFF = 10


class QueryRankerMixin:
    """Mixin of the query-document rankers: ``score`` is the mean NDCG@10 over queries.

    Put it before :class:`sklearn.base.BaseEstimator` among the bases. The
    class must define ``predict(X)`` returning one score per document.

    Tags: the target (the grades) is required and ``X`` may hold NaN (a
    missing value). Fitting also needs the query ids, ``fit(X, y, qid=...)``;
    scikit-learn has no tag for such a parameter, so meta-estimators must be
    told to pass it, by metadata routing (see :class:`rankviz.MPBoost`,
    Notes): ``set_fit_request(qid=True)`` and ``set_score_request(qid=True)``.
    """

    if TYPE_CHECKING:  # what the estimator class provides (above), for the type checker only
        def predict(self, X: Any) -> np.ndarray: ...

    def score(self, X: Any, y: ArrayLike, *, qid: ArrayLike) -> float:
        """Mean NDCG@10 over the queries of documents ``X`` with grades ``y``.

        Each query's documents are ordered by decreasing predicted score
        (ties broken at random, reproducibly) and scored by NDCG@10 in the
        common form, gain ``2^r - 1`` and discount ``1 / log2(1 + j)``
        (:func:`rankviz.ltr.metrics.mean_ndcg` with ``ks=[10]``,
        ``form="common"``); queries without a relevant document (every
        grade 0) are left out of the mean.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Features, as in ``fit``.
        y : array-like of shape (n_documents,)
            True relevance grades (finite, >= 0).
        qid : array-like of shape (n_documents,)
            Query id of each document.

        Returns
        -------
        float
            In ``[0, 1]``: 1 when every query's documents are ordered by
            decreasing grade within its top 10. NaN when no query has a
            relevant document.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``, or ``y`` and
            ``qid`` do not hold one valid value per document.

        References
        ----------
        .. [1] K. Järvelin and J. Kekäläinen, "Cumulated gain-based evaluation
           of IR techniques", ACM Transactions on Information Systems 20(4),
           pp. 422-446, 2002.
        .. [2] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A
           general magnitude-preserving boosting algorithm for search
           ranking", Proceedings of the 18th ACM Conference on Information and
           Knowledge Management (CIKM), 2009.
        """
        return float(mean_ndcg(y, self.predict(X), qid, ks=[SCORE_CUTOFF], form="common")[0])

    def __sklearn_tags__(self) -> Tags:
        # The next class in the MRO (BaseEstimator) has the method: a cooperative mixin's super(),
        # which no annotation describes.
        tags = cast(Any, super()).__sklearn_tags__()
        tags.target_tags.required = True
        tags.input_tags.allow_nan = True
        return tags
