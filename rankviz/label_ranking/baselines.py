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

from collections.abc import Sequence
from typing import Any, Self

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator

from .._validation import check_feature_input, check_rankings
from ..neighbours import NeighbourIndex
from .aggregation import check_tie_tolerance, mean_from_sums, mean_ranks, rank_by_mean
from .base import LabelRankerMixin
from .bucket_order import (DEFAULT_BETA, NeighbourhoodCounts, bucket_order, bucket_orders, check_consensus,
                           chosen_consensus)
from .metrics import kendall_tau, tau_x
from .neighbourhood_size import (BETA_GRID, check_neighbour_params, check_scaling, neighbour_sums, scalings_to_try,
                                 select_k_and_beta)

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
    consensus : {"auto", "aggregate", "bucket_order"}, default="auto"
        ``"aggregate"``: the mean-rank rule, strict or tied by
        ``tie_tolerance``; ``"bucket_order"``: the bucket order of Alfaro,
        Aledo & Gámez (2021) (:func:`rankviz.label_ranking.bucket_order.bucket_order`,
        tie threshold ``beta``); ``"auto"``: the bucket order for partial
        rankings (:func:`rankviz.label_ranking.bucket_order.is_partial`) when no
        ``tie_tolerance`` is given, as :class:`rankviz.RankingTree` does.
    beta : float, default=0.25
        The tie threshold of the bucket order, in [0, 0.5].

    Attributes
    ----------
    mean_rank_ : ndarray of shape (n_labels,)
        Mean position of each label over the training rankings that hold it.
    ranking_ : ndarray of shape (n_labels,)
        The predicted ranking, the same for every example.
    consensus_ : str
        ``"bucket_order"`` or ``"aggregate"`` (the choice of ``"auto"``).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    KNNRanker : The mean-rank rule over the nearest training examples only.
    rankviz.RankingTree : The mean-rank rule over the examples of a leaf.

    References
    ----------
    .. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.
    .. [2] P. B. Brazdil, C. Soares and J. Pinto da Costa, "Ranking learning
       algorithms: Using IBL and meta-learning on accuracy and time results",
       Machine Learning, vol. 50, no. 3, pp. 251-277, 2003.

    Examples
    --------
    >>> from rankviz import DefaultRanker, load_sample
    >>> data = load_sample("toy")
    >>> ranker = DefaultRanker().fit(data.X, data.Y)
    >>> ranker.mean_rank_
    array([2.5625, 2.0625, 2.25  , 3.125 ])
    >>> ranker.predict(data.X[:2])  # a2 first, a4 last, for every example
    array([[3., 1., 2., 4.],
           [3., 1., 2., 4.]])
    >>> DefaultRanker(tie_tolerance=0.2).fit(data.X, data.Y).ranking_  # a2 and a3 tied
    array([3. , 1.5, 1.5, 4. ])
    """

    def __init__(self, tie_tolerance: float | None = None, *, consensus: str = "auto",
                 beta: float = DEFAULT_BETA) -> None:
        self.tie_tolerance = tie_tolerance
        self.consensus = consensus
        self.beta = beta

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
            The fitted ranker.

        Raises
        ------
        ValueError
            If ``X`` is not a 2-D table of at least one row and one feature,
            or ``Y`` is not a rank matrix with one row per row of ``X``.
        TypeError
            If ``X`` is sparse.
        """
        check_tie_tolerance(self.tie_tolerance)
        check_consensus(self.consensus, self.beta)
        X = check_feature_input(self, X, Y, reset=True)
        Y = check_rankings(Y, n_rows=len(X))
        self.mean_rank_ = mean_ranks(Y)
        self.consensus_ = chosen_consensus(self.consensus, self.tie_tolerance, Y)
        self.ranking_ = (bucket_order(Y, beta=self.beta) if self.consensus_ == "bucket_order"
                         else rank_by_mean(self.mean_rank_, self.tie_tolerance))
        return self

    def predict(self, X: Any) -> np.ndarray:
        """Predict the default ranking, once per row of ``X``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Features with the columns of ``fit``; only their number of rows
            is used.

        Returns
        -------
        ndarray of shape (n_samples, n_labels)
            ``ranking_`` in every row: rank positions, 1 = most preferred.

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
    """Rank labels by the k nearest neighbours (Brazdil, Soares & Costa 2003).

    Distances are Euclidean on numeric attributes min-max scaled to [0, 1]
    with the training ranges (or standardised: ``scaling``), and on nominal
    attributes one-hot encoded (a
    mismatch adds 1 to each of the two indicator columns, i.e. 2 to the
    squared distance). A missing numeric value counts as its attribute's
    training mean, a missing nominal one as the category "(missing)". The
    neighbours' rankings are combined by the mean-rank rule; with
    ``n_neighbors=1`` (the baseline of Rebelo, Soares & Costa 2008) the
    prediction is the nearest example's ranking. Among equally distant
    neighbours the earlier training row wins (stable sort).

    Parameters
    ----------
    n_neighbors : int or "auto", default=1
        Neighbourhood size ``k``, or ``"auto"`` to choose it by
        cross-validation on the training set as :class:`rankviz.IBLR` does:
        ``inner_folds``-fold CV over ``k_grid``, maximising the mean Kendall
        tau of the predictions (the smallest ``k`` among equals).
    tie_tolerance : float or None, default=None
        None predicts strict rankings (labels with equal mean positions in
        label order), as Rebelo, Soares & Costa (2008) do. A number >= 0
        predicts partial rankings: neighbouring labels whose mean positions
        differ by at most this much are tied and share the average of their
        positions (:func:`rankviz.label_ranking.aggregation.tie_close_labels`).
    k_grid : sequence of int, optional
        Candidate ``k`` for ``"auto"``, default
        :data:`rankviz.label_ranking.iblr.DEFAULT_K_GRID`; values above the
        smallest inner training set are cut to its size. When the default
        grid's largest value scores best, the grid extends itself (1.5 and 2
        times it, repeatedly); a grid passed in is searched as it is.
        ``cv_scores_`` lists every ``k`` tried.
    consensus : {"auto", "aggregate", "bucket_order"}, default="auto"
        How the neighbours' rankings are combined: ``"aggregate"``, the
        mean-rank rule (strict, or tied by ``tie_tolerance``);
        ``"bucket_order"``, their bucket order (Alfaro, Aledo & Gámez 2021;
        :func:`rankviz.label_ranking.bucket_order.bucket_orders`, tie threshold
        ``beta``), as scikit-lr's ``KNeighborsPartialLabelRanker``; ``"auto"``,
        the bucket order for partial rankings when no ``tie_tolerance`` is
        given. With the bucket order, ``"auto"`` chooses ``k`` by τx.
    beta : float or "auto", default=0.25
        The tie threshold of the bucket order, in [0, 0.5]; ``"auto"``
        chooses it by the inner CV on τx together with ``k`` (over
        :data:`rankviz.label_ranking.neighbourhood_size.BETA_GRID`; ``k``
        stays fixed if given).
    inner_folds : int, default=5
        Folds of the inner cross-validation (``"auto"`` only).
    random_state : int, default=0
        Seed of the inner folds' shuffle (``"auto"`` only).
    scaling : {"minmax", "standard", "auto"}, default="minmax"
        How numeric attributes are scaled for the distance
        (:class:`rankviz.neighbours.NeighbourIndex`); ``"auto"`` chooses by
        the inner CV of ``n_neighbors="auto"``, as :class:`rankviz.IBLR`
        does by default. Min-max is the baseline's.

    Attributes
    ----------
    Y_ : ndarray of shape (n_samples, n_labels)
        The training rankings.
    scaling_ : str
        The scaling used (the chosen one with ``scaling="auto"``).
    n_neighbors_ : int
        The ``k`` used (the chosen one with ``"auto"``; at most the training rows).
    cv_scores_ : dict of int -> float
        Mean inner-CV Kendall tau (τx for a bucket order) of every candidate
        ``k``; only after a fit with ``n_neighbors="auto"`` (a fit with a
        fixed ``k`` removes it).
    consensus_ : str
        ``"bucket_order"`` or ``"aggregate"`` (the choice of ``"auto"``).
    beta_ : float
        The tie threshold used (the chosen one with ``beta="auto"``).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    rankviz.IBLR : Instance-based label ranking with the Mallows model.
    DefaultRanker : The mean-rank rule over all training examples.

    References
    ----------
    .. [1] P. B. Brazdil, C. Soares and J. Pinto da Costa, "Ranking learning
       algorithms: Using IBL and meta-learning on accuracy and time results",
       Machine Learning, vol. 50, no. 3, pp. 251-277, 2003.
    .. [2] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", Proceedings of the 2nd
       Planning to Learn Workshop (PlanLearn) at ICML/COLT/UAI 2008, 2008.

    Examples
    --------
    >>> from rankviz import KNNRanker, load_sample
    >>> data = load_sample("toy")
    >>> ranker = KNNRanker(n_neighbors=3).fit(data.X, data.Y)
    >>> ranker.kneighbors(data.X[:2])  # training rows, nearest first
    array([[0, 1, 2],
           [1, 2, 0]])
    >>> ranker.predict(data.X[:2])
    array([[1., 2., 3., 4.],
           [1., 2., 3., 4.]])
    >>> KNNRanker(n_neighbors="auto").fit(data.X, data.Y).n_neighbors_
    3
    """

    def __init__(self, n_neighbors: int | str = 1, tie_tolerance: float | None = None, *,
                 k_grid: Sequence[int] | None = None, consensus: str = "auto", beta: float | str = DEFAULT_BETA,
                 inner_folds: int = 5, random_state: int = 0, scaling: str = "minmax") -> None:
        self.n_neighbors = n_neighbors
        self.tie_tolerance = tie_tolerance
        self.k_grid = k_grid
        self.consensus = consensus
        self.beta = beta
        self.inner_folds = inner_folds
        self.random_state = random_state
        self.scaling = scaling

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
            The fitted ranker.

        Raises
        ------
        ValueError
            If ``n_neighbors`` is neither an integer >= 1 nor "auto" (or
            ``k_grid`` or ``inner_folds`` are invalid for "auto"), ``X`` is
            not a 2-D table of at least one row and one feature, or ``Y`` is
            not a rank matrix with one row per row of ``X``.
        TypeError
            If ``X`` is sparse.
        """
        self._check_params()
        X = check_feature_input(self, X, Y, reset=True)
        Y = check_rankings(Y, n_rows=len(X))
        # Every fit leaves only its own attributes: no scores of an earlier "auto" fit.
        self.__dict__.pop("cv_scores_", None)
        self.consensus_ = chosen_consensus(self.consensus, self.tie_tolerance, Y)
        k, self.beta_ = self.n_neighbors, DEFAULT_BETA if self.beta == "auto" else float(self.beta)
        self.scaling_ = scalings_to_try(self.scaling, self.n_neighbors)[0]
        if self.n_neighbors == "auto" or (self.beta == "auto" and self.consensus_ == "bucket_order"):
            k, self.cv_scores_, self.beta_, self.scaling_ = self._select_k(X, Y)
        # A row that ranks no label (all missing, as the label deletion of Cheng et al. leaves some)
        # tells nothing: it is never a neighbour, or a query near it would get the columns' order.
        informative = ~np.isnan(Y).all(axis=1)
        if not informative.any():
            raise ValueError("no row of Y ranks a label (every rank position is missing); expected at least "
                             "one row with a rank position")
        self._rows = np.flatnonzero(informative)
        self.n_neighbors_ = min(int(k), len(self._rows))
        self._index = NeighbourIndex(X if informative.all() else _take_rows(X, self._rows), self.n_neighbors_,
                                     self.scaling_)
        self.Y_ = Y
        return self

    def kneighbors(self, X: Any) -> np.ndarray:
        """Find the nearest training rows of each row, nearest first.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        ndarray of int, shape (n_rows, ``n_neighbors_``)
            Indices of training rows (rows of ``Y_``), nearest first; among
            equally distant rows the earlier one first. Rows that rank no
            label are never neighbours.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_feature_input(self, X, reset=False)
        return self._rows[self._index.kneighbors(X)]

    def predict(self, X: Any) -> np.ndarray:
        """Predict the mean-rank ranking of each row's neighbours.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)
            Features with the columns of ``fit``; NaN (or None) marks a
            missing value.

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
        neighbours = self.kneighbors(X)  # checks the fit first
        return self._combine(self.Y_, neighbours, self.beta_)

    def _combine(self, Y, neighbours, beta):
        """Mean-rank ranking (or bucket order of threshold ``beta``) of each row's neighbours (rows of ``Y``)."""
        if self.consensus_ == "bucket_order":
            return bucket_orders(Y[neighbours], beta=beta)
        present = ~np.isnan(Y)
        position_sum = np.where(present, Y, 0.0)[neighbours].sum(axis=1)
        return rank_by_mean(mean_from_sums(position_sum, present[neighbours].sum(axis=1)), self.tie_tolerance)

    def _select_k(self, X, Y):
        """Choose ``k`` (and β) by inner cross-validation (:mod:`~rankviz.label_ranking.neighbourhood_size`)."""
        bucket = self.consensus_ == "bucket_order"
        counts = NeighbourhoodCounts()  # shared by the thresholds β, which differ only in the vote

        def predict_at(beta):
            def predict(Y_train, neighbours, distances, sizes):
                if bucket:  # one k at a time, every β on its counts
                    return (counts.bucket_orders(Y_train, neighbours, k, None, beta) for k in sizes)
                # The mean-rank rule's sums grow neighbour by neighbour: one running sum serves every k
                # (of positions that are integers or halves: exact in any order, as _combine's).
                present = ~np.isnan(Y_train)
                n_labels = Y_train.shape[1]
                (sums,) = neighbour_sums(np.hstack([np.where(present, Y_train, 0.0), present]), neighbours, sizes)
                return [rank_by_mean(mean_from_sums(at_k[:, :n_labels], at_k[:, n_labels:]), self.tie_tolerance)
                        for at_k in sums]
            return predict
        return select_k_and_beta(X, Y, predict_at, betas=BETA_GRID if bucket and self.beta == "auto" else [self.beta_],
                                 k_grid=self.k_grid if self.n_neighbors == "auto" else [self.n_neighbors],
                                 extend=None if self.n_neighbors == "auto" else False, inner_folds=self.inner_folds,
                                 random_state=self.random_state, measure=tau_x if bucket else kendall_tau,
                                 scalings=scalings_to_try(self.scaling, self.n_neighbors))

    def _check_params(self):
        check_neighbour_params(self.n_neighbors, self.k_grid, self.inner_folds)
        check_tie_tolerance(self.tie_tolerance)
        check_consensus(self.consensus, DEFAULT_BETA if self.beta == "auto" else self.beta)
        check_scaling(self.scaling)


def _take_rows(X: Any, rows: np.ndarray) -> Any:
    """Rows ``rows`` of a table (DataFrame or array), of the same kind."""
    return X.iloc[rows] if isinstance(X, pd.DataFrame) else np.asarray(X)[rows]
