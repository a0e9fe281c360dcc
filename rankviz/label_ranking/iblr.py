"""Instance-based label ranking (IBLR, §4 of Cheng, Hühn & Hüllermeier 2009).

A query's ``k`` nearest training examples are treated as a sample from a
Mallows model that is locally constant around the query (§4.1). The
prediction is the maximum-likelihood centre of that sample and the fitted
spread ``theta`` says how reliable the prediction is (§4.2, last
paragraphs): the larger ``theta``, the more the neighbours agree.

- Neighbours: Euclidean distance on the attributes of :class:`KNNRanker`
  (numeric ones scaled with the training rows, nominal ones one-hot
  encoded), as the paper's "Euclidean distance (after normalizing the
  attributes)" (§6). The paper does not say how it normalises, and it
  matters: min-max scaling lets a few outlying values squeeze an attribute's
  other rows together, standardising does not. On bodyfat, whose attributes
  have such outliers, min-max scaling cost IBLR 0.03 of Kendall tau (.221
  against .250 standardised; the paper .248), while on iris and housing
  standardising cost 0.02. So ``scaling="auto"`` chooses it by the inner
  cross-validation that chooses ``k``.
- Weights: Dudani's ``(d_(k) - d_(i)) / (d_(k) - d_(1))`` times
  ``|Y(sigma_i)| / n``, the fraction of labels the neighbour's ranking holds,
  because a completed ranking is less reliable than an observed one (§4.2).
- Estimation: the approximate EM of Algorithm 1 (generalised Borda start,
  most probable extensions, weighted Borda, repeat) through
  :func:`rankviz.label_ranking.mallows.fit_mallows_groups`, which fits the neighbourhoods
  of a whole block of queries in one vectorised call.
- ``n_neighbors="auto"``: ``k`` chosen by cross-validation on the training
  set (§6), over a wide grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Self

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator

from .._validation import check_feature_input, check_rankings
from ..neighbours import NeighbourIndex
from .aggregation import check_tie_tolerance, tie_close_labels
from .base import LabelRankerMixin
from .bucket_order import DEFAULT_BETA, NeighbourhoodCounts, bucket_orders, check_consensus, chosen_consensus
from .mallows import borda_votes, fit_mallows_groups, positions_from_votes
from .metrics import kendall_tau, tau_x
from .neighbourhood_size import (BETA_GRID, DEFAULT_K_GRID, check_neighbour_params, check_scaling, neighbour_sums,
                                 scalings_to_try, select_k_and_beta)

__all__ = ["IBLR", "DEFAULT_K_GRID", "dudani_weights"]

# Cells of the (rows, labels, labels) arrays that the EM's most probable
# extensions build, per block of queries (about 32 MB of float64).
_FIT_CELLS = 4_000_000

_WEIGHTS = ("dudani", "uniform")


def dudani_weights(distances: ArrayLike) -> np.ndarray:
    """Dudani's distance weights of sorted neighbourhoods (§4.2 of Cheng, Hühn & Hüllermeier 2009).

    The ``i``-th nearest of ``k`` neighbours gets
    ``(d_(k) - d_(i)) / (d_(k) - d_(1))``: 1 for the nearest, 0 for the
    farthest (kept as in the paper). When all ``k`` are equally far
    (``d_(k) = d_(1)``, in particular ``k = 1``) every weight is 1, so a
    neighbourhood's weights never sum to 0.

    Parameters
    ----------
    distances : array-like of shape (n_queries, k)
        Distances of each query's neighbours, nearest first.

    Returns
    -------
    ndarray of shape (n_queries, k)
        Weights in ``[0, 1]``.

    Examples
    --------
    >>> dudani_weights([[0.0, 1.0, 3.0]])
    array([[1.        , 0.66666667, 0.        ]])
    """
    d = np.atleast_2d(np.asarray(distances, dtype=float))
    first, last = d[:, :1], d[:, -1:]
    span = last - first
    with np.errstate(divide="ignore", invalid="ignore"):
        weights = np.where(span > 0, (last - d) / span, 1.0)
    # The clip only guards against rounding; sorted distances give [0, 1] exactly.
    return np.clip(weights, 0.0, 1.0)



def _borda_centres_for_sizes(Y, neighbours, distances, sizes, weights):
    """Centres and mean Borda positions of each query's first k neighbours, for every k of ``sizes``.

    For complete rankings the Mallows centre is the weighted Borda count
    (Cheng, Hühn & Hüllermeier 2009, Proposition 2), which
    :func:`_fit_neighbourhoods` computes for one ``k``. Dudani's weight of
    the i-th of k neighbours is ``(e_k - e_i) / e_k``, with ``e_i = d_i - d_1``,
    so the weighted vote totals are ``(e_k S_k - T_k) / e_k`` with ``S_k`` the
    running sum of the votes and ``T_k`` that of ``e_i`` times the votes: two
    running sums give every k (:func:`~rankviz.label_ranking.neighbourhood_size.neighbour_sums`).
    The centres sort totals rounded to 1e-9 of the largest
    (:func:`~rankviz.label_ranking.mallows.positions_from_votes`), far above
    the rounding in which the two ways of summing differ.

    Yields
    ------
    centers, mean_position : ndarray of shape (n_queries, n_labels)
        Per k, as :func:`_fit_neighbourhoods` returns them.
    """
    n_labels = Y.shape[1]
    votes = np.hstack([borda_votes(Y), np.ones((len(Y), 1))])  # the last column sums the weights
    offset = distances - distances[:, :1]  # e_i = d_i - d_1 >= 0: sorted distances
    plain, *by_offset = neighbour_sums(votes, neighbours, sizes, factors=[offset] if weights == "dudani" else [])
    for g, k in enumerate(sizes):
        if weights == "dudani":
            span = offset[:, k - 1:k]
            with np.errstate(invalid="ignore", divide="ignore"):
                # all k at one distance: every weight is 1 (dudani_weights), the plain sums
                weighted = np.where(span > 0, (span * plain[g] - by_offset[0][g]) / span, plain[g])
        else:
            weighted = plain[g]
        totals, total = weighted[:, :n_labels], weighted[:, n_labels:]
        yield positions_from_votes(totals), n_labels + 1 - totals / total


def _fit_neighbourhoods(Y, neighbours, distance_weights, spread=True):
    """Mallows fit (centre, theta) of each query's neighbour rankings.

    Parameters
    ----------
    Y : ndarray of shape (n_train, n_labels)
        Training rank positions, NaN = missing.
    neighbours : ndarray of int, shape (n_queries, k)
    distance_weights : ndarray of shape (n_queries, k)
    spread : bool, default=True
        Whether to estimate theta (NaN otherwise: the choice of k reads only the centres).

    Returns
    -------
    centers : ndarray of shape (n_queries, n_labels)
    theta : ndarray of shape (n_queries,)
    mean_position : ndarray of shape (n_queries, n_labels)
        The weighted mean Borda position of each label, which the centre sorts by.
    """
    n_queries, k = neighbours.shape
    n_labels = Y.shape[1]
    fraction = (~np.isnan(Y)).mean(axis=1)  # |Y(sigma)| / n of each training ranking
    weights = distance_weights * fraction[neighbours]
    # Every ranking holds >= 2 labels and the nearest neighbour has distance
    # weight 1, so totals are positive; the guard keeps any other weighting
    # from leaving a neighbourhood without a centre.
    empty = weights.sum(axis=1) <= 0
    weights[empty] = fraction[neighbours[empty]]
    centers = np.empty((n_queries, n_labels))
    mean_position = np.empty((n_queries, n_labels))
    theta = np.empty(n_queries)
    # Blocks of queries keep the EM's (rows, labels, labels) arrays bounded;
    # within a block every neighbourhood is fitted by the same numpy calls.
    block = max(1, _FIT_CELLS // (k * n_labels * n_labels))
    for start in range(0, n_queries, block):
        stop = min(start + block, n_queries)
        fit = fit_mallows_groups(Y[neighbours[start:stop]].reshape(-1, n_labels),
                                 np.repeat(np.arange(stop - start), k), stop - start,
                                 weights[start:stop].ravel(), spread=spread)
        centers[start:stop] = fit.center
        mean_position[start:stop] = fit.mean_position
        theta[start:stop] = fit.theta
    return centers, theta, mean_position


class IBLR(LabelRankerMixin, BaseEstimator):
    """Instance-based label ranking with the Mallows model (Cheng, Hühn & Hüllermeier 2009, §4, Algorithm 1).

    The prediction for an example is the centre of a Mallows model fitted
    to the rankings of its ``k`` nearest training examples, weighted by
    distance; neighbours with incomplete rankings are handled by the EM of
    Algorithm 1. Distances are those of :class:`rankviz.KNNRanker`.

    Parameters
    ----------
    n_neighbors : int or "auto", default=5
        Neighbourhood size ``k``, or ``"auto"`` to choose it by
        cross-validation on the training set (§6): ``inner_folds``-fold CV
        over ``k_grid``, maximising the mean Kendall tau of the predictions
        to the held-out rankings (over the labels they hold).
    weights : {"dudani", "uniform"}, default="dudani"
        Distance weighting of the neighbours (:func:`dudani_weights`) or
        none. Either way each neighbour is also weighted by the fraction of
        labels its ranking holds, ``|Y(sigma)| / n`` (§4.2).
    k_grid : sequence of int, optional
        Candidate ``k`` for ``"auto"``, default :data:`DEFAULT_K_GRID`.
        Values above the smallest inner training set are lowered to its
        size. When the default grid's largest value scores best, the grid
        extends itself (1.5 and 2 times it, repeatedly); a grid passed in is
        searched as it is. ``cv_scores_`` lists every ``k`` tried.
    inner_folds : int, default=5
        Folds of the inner cross-validation (``"auto"`` only).
    random_state : int, default=0
        Seed of the inner folds' shuffle (:func:`rankviz.model_selection.fold_indices`).
    tie_tolerance : float or None, default=None
        None predicts the Mallows centre, a strict ranking, as Cheng, Hühn &
        Hüllermeier (2009) do. A number >= 0 predicts partial rankings:
        neighbouring labels of the centre whose weighted mean Borda
        positions (what the centre is sorted by) differ by at most this much
        are tied and share the average of their positions
        (:func:`rankviz.label_ranking.aggregation.tie_close_labels`).
    consensus : {"auto", "aggregate", "bucket_order"}, default="auto"
        ``"aggregate"``: the Mallows centre (strict, or tied by
        ``tie_tolerance``); ``"bucket_order"``: the bucket order of the
        neighbours' rankings weighted as above (Alfaro, Aledo & Gámez 2021;
        :func:`rankviz.label_ranking.bucket_order.bucket_orders`, tie
        threshold ``beta``); ``"auto"``: the bucket order for partial
        rankings (:func:`rankviz.label_ranking.bucket_order.is_partial`) when
        no ``tie_tolerance`` is given. With the bucket order, ``"auto"``
        chooses ``k`` by τx.
    beta : float or "auto", default=0.25
        The tie threshold of the bucket order, in [0, 0.5]; ``"auto"``
        chooses it by the inner CV on τx together with ``k`` (over
        :data:`rankviz.label_ranking.neighbourhood_size.BETA_GRID`; ``k``
        stays fixed if given).
    scaling : {"auto", "minmax", "standard"}, default="auto"
        How numeric attributes are scaled for the distance
        (:class:`rankviz.neighbours.NeighbourIndex`): ``"minmax"`` to the
        training range, ``"standard"`` to mean 0 and standard deviation 1;
        ``"auto"`` chooses between the two by the inner CV of
        ``n_neighbors="auto"`` (with a fixed ``k``, min-max).

    Attributes
    ----------
    n_neighbors_ : int
        The ``k`` used for prediction (at most the number of training rows).
    cv_scores_ : dict of int -> float
        Mean held-out Kendall tau (τx for a bucket order) of each candidate
        ``k``; only after a fit with ``n_neighbors="auto"`` (a fit with a
        fixed ``k`` removes it).
    consensus_ : str
        ``"bucket_order"`` or ``"aggregate"`` (the choice of ``"auto"``).
    beta_ : float
        The tie threshold used (the chosen one with ``beta="auto"``).
    scaling_ : str
        The scaling of the attributes used (the chosen one with ``scaling="auto"``).
    Y_ : ndarray of shape (n_samples, n_labels)
        The training rankings.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    rankviz.KNNRanker : Neighbours combined by the mean-rank rule.
    rankviz.RankingTree : Label ranking trees, the other learner of Cheng et al.
    rankviz.label_ranking.fit_mallows : The Mallows fit of one group of rankings.

    Notes
    -----
    The prediction for a query is the centre of the Mallows model fitted to
    its neighbours' rankings (the weighted generalised Borda count, refined
    by the approximate EM of Algorithm 1 when rankings are incomplete), a
    complete ranking: a permutation of ``1..n_labels``. The fitted spread
    ``theta`` is returned by :meth:`predict_with_reliability`: ``inf`` when
    every neighbour with positive weight agrees with the centre, smaller the
    more they disagree. Dudani's weight of the ``k``-th neighbour is 0, so
    ``k = 2`` predicts as ``k = 1`` unless the two are equally far.

    References
    ----------
    .. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", Proceedings of the 26th
       International Conference on Machine Learning (ICML 2009),
       pp. 161-168, 2009.
    .. [2] S. A. Dudani, "The distance-weighted k-nearest-neighbor rule", IEEE
       Transactions on Systems, Man, and Cybernetics, vol. SMC-6,
       pp. 325-327, 1976.

    Examples
    --------
    >>> from rankviz import IBLR, load_sample
    >>> data = load_sample("toy")
    >>> model = IBLR(n_neighbors=3).fit(data.X, data.Y)
    >>> model.predict(data.X[:2])
    array([[1., 3., 2., 4.],
           [1., 2., 3., 4.]])
    >>> rankings, theta = model.predict_with_reliability(data.X[:3])
    >>> theta  # inf: the three neighbours agree with the prediction
    array([2.55875..., inf, inf])
    """

    def __init__(self, n_neighbors: int | str = 5, weights: str = "dudani",
                 k_grid: Sequence[int] | None = None, inner_folds: int = 5,
                 random_state: int = 0, tie_tolerance: float | None = None, consensus: str = "auto",
                 beta: float | str = DEFAULT_BETA, scaling: str = "auto") -> None:
        self.n_neighbors = n_neighbors
        self.weights = weights
        self.k_grid = k_grid
        self.inner_folds = inner_folds
        self.random_state = random_state
        self.tie_tolerance = tie_tolerance
        self.consensus = consensus
        self.beta = beta
        self.scaling = scaling

    def fit(self, X: Any, Y: ArrayLike) -> Self:
        """Store the scaled training attributes and rankings, choosing ``k`` if "auto".

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_samples, n_features)
            Numeric and nominal attributes, as :class:`rankviz.KNNRanker` takes.
        Y : array-like of shape (n_samples, n_labels)
            Rank positions, lower = preferred, equal = tied, NaN for labels a
            ranking lacks; any convention, only each row's order is used.

        Returns
        -------
        self : IBLR
            The fitted ranker.

        Raises
        ------
        ValueError
            If a parameter is invalid, ``X`` is not a 2-D table of at least
            one row and one feature, or ``Y`` is not a rank matrix with one
            row per row of ``X``.
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
        self.n_neighbors_ = min(int(k), len(Y))
        self._index = NeighbourIndex(X, self.n_neighbors_, self.scaling_)
        self.Y_ = Y
        return self

    def kneighbors(self, X: Any, return_distance: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Find the nearest training rows of each row of ``X``, nearest first.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)
            Features with the columns of ``fit``.
        return_distance : bool, default=False
            Also return the distances.

        Returns
        -------
        indices : ndarray of int, shape (n_rows, ``n_neighbors_``)
            Training rows (rows of ``Y_``), nearest first; among equally
            distant rows the earlier one first.
        distances : ndarray of shape (n_rows, ``n_neighbors_``)
            Their Euclidean distances on the scaled and one-hot encoded
            attributes (see :class:`rankviz.KNNRanker`); only with
            ``return_distance=True``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        X = check_feature_input(self, X, reset=False)
        return self._index.kneighbors(X, return_distance=return_distance)

    def predict_with_reliability(self, X: Any) -> tuple[np.ndarray, np.ndarray]:
        """Predict rankings with their reliabilities, the Mallows spreads ``theta``.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)
            Features with the columns of ``fit``.

        Returns
        -------
        rankings : ndarray of shape (n_rows, n_labels)
            Rank positions, each row a permutation of ``1..n_labels``; with
            ``tie_tolerance``, tied labels share the average of their positions.
        theta : ndarray of shape (n_rows,)
            The spread MLE of each neighbourhood (``inf`` when the weighted
            neighbours all agree with the prediction).

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the ranker is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        return self._predict(X, spread=True)

    def predict(self, X: Any) -> np.ndarray:
        """Predict rankings; see :meth:`predict_with_reliability`.

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)
            Features with the columns of ``fit``.

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
        return self._predict(X, spread=False)[0]

    def _predict(self, X, spread):
        """Rankings and, with ``spread``, the Mallows spreads (NaN without: the centres need no spread)."""
        neighbours, distances = self.kneighbors(X, return_distance=True)
        if not spread and self.consensus_ != "bucket_order" and not np.isnan(self.Y_).any():
            # Complete rankings: the centres are weighted Borda counts, summed as the choice of k sums
            # them (no EM, no group sums: calhousing's 2,064 queries 3.4 -> 2.6 ms over the search).
            centers, mean_position = next(_borda_centres_for_sizes(self.Y_, neighbours, distances,
                                                                   [neighbours.shape[1]], self.weights))
            theta = np.full(len(neighbours), np.nan)
        else:
            centers, theta, mean_position = _fit_neighbourhoods(self.Y_, neighbours,
                                                                self._distance_weights(distances), spread=spread)
        return self._ties(self.Y_, neighbours, distances, centers, mean_position, self.beta_), theta

    def _distance_weights(self, distances):
        return dudani_weights(distances) if self.weights == "dudani" else np.ones(distances.shape)

    def _select_k(self, X, Y):
        """Choose ``k`` (and β) by inner cross-validation (:mod:`~rankviz.label_ranking.neighbourhood_size`)."""
        bucket = self.consensus_ == "bucket_order"
        counts = NeighbourhoodCounts()  # shared by the thresholds β, which differ only in the vote

        def predict_at(beta):
            def predict(Y_train, neighbours, distances, sizes):  # k is chosen for the predictions made
                if bucket:  # the bucket order needs no Mallows fit; one k at a time, every β on its counts
                    return (counts.bucket_orders(Y_train, neighbours, k, self._distance_weights(distances[:, :k]),
                                                 beta) for k in sizes)
                if not np.isnan(Y_train).any():  # complete rankings: no EM, the centres are Borda counts
                    return [self._ties(Y_train, None, None, centers, mean_position, beta) for centers, mean_position
                            in _borda_centres_for_sizes(Y_train, neighbours, distances, sizes, self.weights)]
                predictions = []
                for k in sizes:
                    centers, _, mean_position = _fit_neighbourhoods(
                        Y_train, neighbours[:, :k], self._distance_weights(distances[:, :k]), spread=False)
                    predictions.append(self._ties(Y_train, neighbours[:, :k], distances[:, :k], centers, mean_position,
                                                  beta))
                return predictions
            return predict
        return select_k_and_beta(X, Y, predict_at, betas=BETA_GRID if bucket and self.beta == "auto" else [self.beta_],
                                 k_grid=self.k_grid if self.n_neighbors == "auto" else [self.n_neighbors],
                                 extend=None if self.n_neighbors == "auto" else False, inner_folds=self.inner_folds,
                                 random_state=self.random_state, measure=tau_x if bucket else kendall_tau,
                                 scalings=scalings_to_try(self.scaling, self.n_neighbors))

    def _ties(self, Y, neighbours, distances, centers, mean_position, beta):
        """The predictions with the ties asked for: the neighbours' bucket order, or the centres tied by tolerance."""
        if self.consensus_ == "bucket_order":
            return bucket_orders(Y[neighbours], self._distance_weights(distances), beta=beta)
        if self.tie_tolerance is not None:
            return tie_close_labels(centers, mean_position, self.tie_tolerance)
        return centers

    def _check_params(self):
        check_neighbour_params(self.n_neighbors, self.k_grid, self.inner_folds)
        check_tie_tolerance(self.tie_tolerance)
        check_consensus(self.consensus, DEFAULT_BETA if self.beta == "auto" else self.beta)
        if self.weights not in _WEIGHTS:
            raise ValueError(f"weights must be one of {_WEIGHTS}, got {self.weights!r}")
        check_scaling(self.scaling)
