"""MPBoost: magnitude-preserving boosting for ranking (Zhu et al. 2009, Algorithm 1).

Pairwise boosting with decision stumps, where each pair of documents of one
query with different grades carries a directed distance
``dist(r_i, r_j)`` (:mod:`rankviz.ltr.ddf`) instead of a ±1 label. Each round
fits the stump that minimises the weighted squared loss
``sum w_ij [dist_ij - (f(x_i) - f(x_j))]^2`` (a GentleBoost Newton step,
eq. 12) and reweights every pair by ``exp(-dist_ij (f(x_i) - f(x_j)))``
(step 6). The ranking function is the sum of the stumps.

Implementation notes

* Pairs are kept once, as ``(i, j)`` with ``r_i > r_j``. Algorithm 1 lists
  both orientations, but ``(j, i)`` carries ``-dist`` and the negated score
  difference, so it repeats the same loss term: every weight, ``Z_t`` and
  the bound of Theorem 1 are unchanged.
* Weights are computed in log space from the training scores each round,
  ``-dist_ij (F_i - F_j)`` rescaled by its largest value, so long runs with
  large distances neither overflow nor underflow; ``Z_t`` is the ratio of
  their sums after and before the round.
* A missing feature value (NaN) is below every threshold: the stump adds
  nothing to that document, in training and in prediction alike.
* ``shrinkage`` (``nu``) multiplies each stump's height. Zhu et al. use
  ``nu = 1``; the Newton step assumes ``|dist| ~ 1`` (condition 9) and
  overshoots when distances are larger, which ``nu < 1`` damps.
"""

from __future__ import annotations

import copy
import numbers
from collections.abc import Iterator, Sequence
from typing import Self

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import sparse
from sklearn.base import BaseEstimator
from sklearn.utils import Tags
from sklearn.utils.validation import check_is_fitted

from .._validation import check_feature_input, check_query_data
from ..jit import compile_mode
from ..memory import check_memory, max_memory
from .base import QueryRankerMixin
from .ddf import check_ddf, directed_distance
from ..binning import SparseFeatureBins
from .stump_search import FeatureBins, PairLayout, StumpSearch, query_pair_counts, walked_queries

__all__ = ["MPBoost", "count_preference_pairs", "preference_pairs", "misordered_share", "misordering_loss",
           "query_codes"]


def query_codes(qid: ArrayLike) -> np.ndarray:
    """Integer codes ``0..Q-1`` of query ids, in order of first appearance.

    Parameters
    ----------
    qid : array-like of shape (n_documents,)
        Query ids (any sortable values).

    Returns
    -------
    ndarray of int, shape (n_documents,)

    Raises
    ------
    ValueError
        If ``qid`` is not 1-D.
    """
    qid = np.asarray(qid)
    if qid.ndim != 1:
        raise ValueError(f"qid must be one query id per document (1-D); got shape {qid.shape}.")
    _, first, inverse = np.unique(qid, return_index=True, return_inverse=True)
    # np.unique sorts the ids; renumber by first appearance
    rank = np.empty(first.size, dtype=np.intp)
    rank[np.argsort(first, kind="stable")] = np.arange(first.size)
    return rank[inverse.ravel()]


#: Peak memory of a fit per preference pair (its ids, distance and the search's layout;
#: measured 92 to 102 bytes on queries of 100 to 6,000 documents) ...
PAIR_PEAK_BYTES = 110
#: ... and per number of the feature matrix, added (measured 4.2 to 4.3 times its 8 bytes).
FEATURES_PEAK_BYTES = 40
#: Candidate pairs (a document with each document of its query) built at once by
#: :func:`preference_pairs`: about 60 bytes each, so 2**21 of them take about 120 MiB.
#: More are made block by block, so the memory is that of the pairs kept.
PAIR_BLOCK = 2**21


def preference_pairs(relevance: ArrayLike, qid: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """All pairs ``(i, j)`` of one query with ``relevance[i] > relevance[j]``.

    Built without a loop over queries or documents: the documents are sorted
    by query and every document is paired with each of its query's documents
    (``sum n_q^2`` candidates, never ``n^2``), in blocks of at most
    :data:`PAIR_BLOCK` candidates (a block may hold part of a query), so the
    memory beyond the pairs kept is bounded.

    Parameters
    ----------
    relevance : array-like of shape (n_documents,)
        Grades.
    qid : array-like of shape (n_documents,)
        Query id of each document.

    Returns
    -------
    first, second : ndarray of int
        Document indices; ``first`` is the more relevant one. Pairs appear
        grouped by query, in order of first appearance of the query.

    See Also
    --------
    count_preference_pairs : Their number, without building them.
    """
    relevance = np.asarray(relevance, dtype=float)
    codes = query_codes(qid)
    order = np.argsort(codes, kind="stable")
    sizes = np.bincount(codes)
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    size_of = sizes[codes[order]]            # per sorted document: its query's size
    start_of = starts[codes[order]]
    # Blocks of consecutive anchors (sorted documents) of at most PAIR_BLOCK candidates, or one anchor.
    candidates = np.cumsum(size_of)
    cuts = np.searchsorted(candidates, np.arange(PAIR_BLOCK, candidates[-1] if len(candidates) else 0, PAIR_BLOCK),
                           side="left")
    bounds = np.unique(np.concatenate([[0], cuts, [order.size]]))
    firsts, seconds = [np.empty(0, dtype=np.intp)], [np.empty(0, dtype=np.intp)]
    for low, high in zip(bounds[:-1], bounds[1:]):  # a loop over blocks, not documents
        per_anchor = size_of[low:high]
        anchor = np.repeat(np.arange(low, high), per_anchor)
        # partner offsets 0..size-1 for each anchor, from one arange
        block_starts = np.concatenate([[0], np.cumsum(per_anchor)[:-1]])
        offset = np.arange(anchor.size) - np.repeat(block_starts, per_anchor)
        partner = np.repeat(start_of[low:high], per_anchor) + offset
        first, second = order[anchor], order[partner]
        keep = relevance[first] > relevance[second]
        firsts.append(first[keep])
        seconds.append(second[keep])
    return np.concatenate(firsts), np.concatenate(seconds)


#: Peak memory per document and grade of a fit that does not build the pairs of its
#: largest queries (the per-grade factors and sums of each round).
DOCUMENT_GRADE_BYTES = 48


def _fit_plan(pair_counts: np.ndarray, walked: np.ndarray, sizes: np.ndarray, n_grades: int,
              n_values: int) -> bool:
    """Whether the fit leaves out the pairs of the walked queries; refuse what fits neither way.

    Every pair is built when they fit in ``max_memory``. Otherwise the
    largest queries, those the search walks per document
    (:func:`rankviz.ltr.stump_search.walked_queries`), keep no pairs: the
    memory is then linear in their documents (it needs the compiled search).
    """
    n_pairs, n_documents = int(pair_counts.sum()), int(sizes.sum())
    features = FEATURES_PEAK_BYTES * n_values
    if PAIR_PEAK_BYTES * n_pairs + features <= max_memory():
        return False
    kept_pairs = int(pair_counts[~walked].sum())
    need = PAIR_PEAK_BYTES * kept_pairs + features + DOCUMENT_GRADE_BYTES * n_documents * n_grades
    if walked.any() and compile_mode() != "never" and need <= max_memory():
        return True
    if features >= max_memory():  # no pairs could fit beside the features: say so, not "at most 0 pairs"
        check_memory(features, f"MPBoost's search of {n_documents:,} documents whose features hold "
                               f"{n_values:,} numbers",
                     largest=f"at most {max_memory() // FEATURES_PEAK_BYTES:,} numbers (a scipy sparse matrix, "
                             "e.g. from load_svmlight(..., sparse=True), holds only its non-zero ones)")
    room = max(max_memory() - features, 0) // PAIR_PEAK_BYTES
    check_memory(PAIR_PEAK_BYTES * n_pairs + features,
                 f"MPBoost keeps every pair of documents of one query with different grades: "
                 f"{n_pairs:,} pairs (the largest query has {int(sizes.max()):,} documents) and "
                 f"{n_documents:,} documents whose features hold {n_values:,} numbers",
                 largest=f"at most {room:,} pairs, e.g. one query of at most {int(np.sqrt(2 * room)):,} documents "
                         "of distinct grades")
    return False  # pragma: no cover - check_memory raised


def count_preference_pairs(relevance: ArrayLike, qid: ArrayLike) -> int:
    """How many pairs :func:`preference_pairs` gives, counted from the grades per query.

    A query of ``n_q`` documents, ``c_g`` of grade ``g``, has
    ``(n_q^2 - sum_g c_g^2) / 2`` pairs of different grades.

    Parameters
    ----------
    relevance : array-like of shape (n_documents,)
        Grades.
    qid : array-like of shape (n_documents,)
        Query id of each document.

    Returns
    -------
    int
    """
    codes = query_codes(qid)
    grades = np.unique(np.asarray(relevance, dtype=float), return_inverse=True)[1].ravel()
    return int(query_pair_counts(grades, codes).sum())


def misordering_loss(scores: ArrayLike, first: np.ndarray | Sequence[int],
                     second: np.ndarray | Sequence[int]) -> float:
    """Share of pairs the scores do not put in the right order (ties count as wrong).

    The normalised mis-ordering loss of Theorem 1 of Zhu et al. (2009) with
    uniform initial weights: the fraction of pairs ``(i, j)``,
    ``r_i > r_j``, with ``F(x_i) <= F(x_j)``.

    Parameters
    ----------
    scores : array-like of shape (n_documents,)
    first, second : array-like of int
        The pairs, as :func:`preference_pairs` returns them.

    Returns
    -------
    float
        In ``[0, 1]``; NaN when there is no pair.
    """
    scores = np.asarray(scores, dtype=float)
    if len(first) == 0:
        return np.nan
    return float(np.mean(scores[first] <= scores[second]))


def misordered_share(scores: ArrayLike, relevance: ArrayLike, qid: ArrayLike) -> float:
    """:func:`misordering_loss` of all the pairs of ``relevance`` and ``qid``, with no pair built.

    A pair ``(i, j)``, ``r_i > r_j``, is misordered when ``F(x_i) <=
    F(x_j)``. With the documents of each query sorted by decreasing score,
    ``i``'s misordered partners are the documents of lower grade up to the
    last one scoring as high as ``i``: one count per grade, read off
    running counts. ``O(n log n + n x grades)`` time, linear memory.

    Parameters
    ----------
    scores, relevance : array-like of shape (n_documents,)
    qid : array-like of shape (n_documents,)

    Returns
    -------
    float
        In ``[0, 1]``; NaN when there is no pair.
    """
    scores = np.asarray(scores, dtype=float)
    codes = query_codes(qid)
    grades = np.unique(np.asarray(relevance, dtype=float), return_inverse=True)[1].ravel()
    n_pairs = int(query_pair_counts(grades, codes).sum())
    if n_pairs == 0:
        return np.nan
    order = np.lexsort((-scores, codes))
    sorted_codes, sorted_scores, sorted_grades = codes[order], scores[order], grades[order]
    # the last position of each document's tie group (same query, same score), and its query's first
    new_group = np.r_[True, (np.diff(sorted_codes) != 0) | (np.diff(sorted_scores) != 0)]
    group_end = np.r_[np.flatnonzero(new_group)[1:], order.size] - 1
    ends = group_end[np.cumsum(new_group) - 1]
    new_query = np.r_[True, np.diff(sorted_codes) != 0]
    starts = np.flatnonzero(new_query)[np.cumsum(new_query) - 1]
    misordered = 0
    for h in range(int(grades.max())):
        running = np.r_[0, np.cumsum(sorted_grades == h)]  # running[k]: documents of grade h before position k
        higher = sorted_grades > h
        misordered += int(np.sum(running[ends[higher] + 1] - running[starts[higher]]))
    return misordered / n_pairs


class MPBoost(QueryRankerMixin, BaseEstimator):
    """Magnitude-preserving boosting of decision stumps for ranking (Zhu et al. 2009).

    A learner of query-document ranking: every pair of documents of one
    query with different relevance grades carries a directed distance, the
    larger the more the grades differ, and each boosting round adds the
    decision stump that best fits these distances by score differences.
    The model scores each document; within a query, higher scores rank
    first.

    Parameters
    ----------
    ddf : {"binary", "ldd", "logdd", "logitdd"}, default="logdd"
        The directed distance function (eqs. 2, 6-8 of Zhu et al.).
    parameter : float, optional
        The alpha of LDD, the lambda of LOGDD or the beta of LOGITDD; by
        default from :data:`rankviz.ltr.ddf.DEFAULT_PARAMETERS` (kept within
        condition 9). Ignored by BINARY.
    n_rounds : int, default=100
        Boosting rounds ``T``.
    shrinkage : float, default=1.0
        ``nu`` in ``(0, 1]``: each stump's height is multiplied by it. 1 is
        the algorithm of Zhu et al.
    max_bins : int or None, default=None
        None scores every threshold between distinct values (the appendix);
        an int caps thresholds per feature at quantiles (faster on large
        data).
    n_jobs : int or None, default=None
        Threads that search features at once in each round (the compiled
        search releases the GIL). None means 1, -1 one per CPU, as in
        scikit-learn. The stumps do not depend on it.

    Attributes
    ----------
    feature_, threshold_, value_ : ndarray of shape (``n_rounds_``,)
        Stump ``t`` adds ``value_[t]`` to documents with
        ``x[feature_[t]] > threshold_[t]``.
    gain_ : ndarray of shape (``n_rounds_``,)
        ``S1^2 / S2`` of each stump: how much it lowered the weighted
        squared loss of its round (for weights summing to 1).
    normalizer_ : ndarray of shape (``n_rounds_``,)
        ``Z_t`` of Algorithm 1; ``np.cumprod(normalizer_)`` bounds the
        training mis-ordering loss (Theorem 1).
    n_rounds_ : int
        Rounds fitted (fewer than ``n_rounds`` when no stump can lower the
        loss any more).
    n_pairs_ : int
        Document pairs with different grades in the training data.
    pairs_ : tuple of two ndarrays of int
        The training pairs ``(first, second)``, ``first`` the more relevant
        (see :func:`preference_pairs`). When every pair would not fit in
        ``max_memory`` (:func:`rankviz.set_config`), the fit builds none for
        its largest queries (its memory is then linear in their documents)
        and this is built on first access, if it fits.
    distance_ : ndarray of shape (``n_pairs_``,)
        The directed distance of each pair.
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (``n_features_in_``,)
        Names of the features seen in ``fit``; only when ``X`` was a
        DataFrame with string column names.

    See Also
    --------
    rankviz.ltr.directed_distance : The directed distance functions.
    rankviz.ltr.BestSingleFeature, rankviz.ltr.KNNRelevance : Baselines to compare with.
    rankviz.load_ltr_sample : A bundled learning-to-rank sample.

    Notes
    -----
    ``fit`` and ``score`` need the query of each document (``qid``). In
    scikit-learn's model selection, pass it by metadata routing (the
    folds' ``groups`` then go in ``params`` too)::

        with sklearn.config_context(enable_metadata_routing=True):
            model = MPBoost().set_fit_request(qid=True).set_score_request(qid=True)
            cross_val_score(model, X, y, cv=GroupKFold(3), params={"qid": qid, "groups": qid})

    References
    ----------
    .. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.
    .. [2] J. Friedman, T. Hastie and R. Tibshirani, "Additive logistic regression:
       a statistical view of boosting", The Annals of Statistics, vol. 28,
       no. 2, pp. 337-407, 2000.
    .. [3] Y. Freund, R. Iyer, R. E. Schapire and Y. Singer, "An efficient boosting
       algorithm for combining preferences", Journal of Machine Learning
       Research, vol. 4, pp. 933-969, 2003.

    Examples
    --------
    >>> from rankviz import MPBoost, make_ltr_dataset
    >>> from rankviz.datasets import split_by_query
    >>> data = make_ltr_dataset(n_queries=40, n_features=10, n_informative=4, seed=0)
    >>> train, test = split_by_query(data, (0.5, 0.5), seed=0)
    >>> model = MPBoost(n_rounds=20).fit(train.X, train.relevance, qid=train.qid)
    >>> model.n_rounds_, model.feature_[:5]  # f2 and f1, the strongest features, come first
    (20, array([1, 0, 0, 1, 2]))
    >>> round(model.score(test.X, test.relevance, qid=test.qid), 2)  # mean NDCG@10 of the test queries
    0.81
    """

    def __init__(self, ddf: str = "logdd", parameter: float | None = None, n_rounds: int = 100,
                 shrinkage: float = 1.0, max_bins: int | None = None, n_jobs: int | None = None) -> None:
        self.ddf = ddf
        self.parameter = parameter
        self.n_rounds = n_rounds
        self.shrinkage = shrinkage
        self.max_bins = max_bins
        self.n_jobs = n_jobs

    def __sklearn_tags__(self) -> Tags:
        tags = super().__sklearn_tags__()
        tags.input_tags.sparse = True  # searched from the values a sparse matrix holds
        return tags

    # ------------------------------------------------------------------ #
    # fitting
    # ------------------------------------------------------------------ #
    def fit(self, X: ArrayLike, y: ArrayLike, *, qid: ArrayLike) -> Self:
        """Fit ``n_rounds`` stumps to documents ``X`` with grades ``y`` of queries ``qid``.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features; NaN marks a missing value (below every threshold).
            A scipy sparse matrix (CSR from :func:`rankviz.load_svmlight` with
            ``sparse=True``, or any other) is searched from the values it
            holds, with no dense table: memory and time in proportion to them.
        y : array-like of shape (n_documents,)
            Relevance grades.
        qid : array-like of shape (n_documents,)
            Query id of each document; pairs are formed within queries.

        Returns
        -------
        self : MPBoost
            The fitted model.

        Raises
        ------
        ValueError
            If a parameter is invalid, ``X`` is not a 2-D table of numbers
            with at least one feature, ``y`` or ``qid`` does not hold one
            value per document, or no two documents of one query have
            different grades.

        Notes
        -----
        The stump search runs in compiled code (Numba), cached per user
        (:mod:`rankviz.numba_cache`). Building it costs about 12 s of CPU,
        once; the fits of a process that finds it neither built nor in the
        cache search with NumPy (:mod:`rankviz.ltr.stump_numpy`: the same
        stumps, heights equal to rounding, slower on many pairs) while a
        background thread builds it. ``rankviz warm-up`` builds it ahead;
        :func:`rankviz.jit.set_compile_mode` chooses otherwise.
        """
        for _ in self.iter_fit(X, y, qid=qid):
            pass
        return self

    def iter_fit(self, X: ArrayLike, y: ArrayLike, *, qid: ArrayLike) -> Iterator[int]:
        """Fit round by round; yield the number of rounds fitted after each.

        The model is usable (``predict``, attributes) at every yield, which is
        how the app draws the ensemble growing. Errors are those of
        :meth:`fit`, raised at the first ``next``.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features; NaN marks a missing value (below every threshold).
            A scipy sparse matrix (CSR from :func:`rankviz.load_svmlight` with
            ``sparse=True``, or any other) is searched from the values it
            holds, with no dense table: memory and time in proportion to them.
        y : array-like of shape (n_documents,)
            Relevance grades.
        qid : array-like of shape (n_documents,)
            Query id of each document; pairs are formed within queries.

        Yields
        ------
        int
            Rounds fitted so far, ``1..n_rounds_``.

        Raises
        ------
        ValueError
            As :meth:`fit`.
        """
        ddf, parameter = check_ddf(self.ddf, self.parameter)
        if not isinstance(self.n_rounds, numbers.Integral) or self.n_rounds < 1:
            raise ValueError(f"n_rounds must be a positive integer; got {self.n_rounds!r}.")
        shrinkage = float(self.shrinkage)
        if not 0.0 < shrinkage <= 1.0:
            raise ValueError(f"shrinkage must lie in (0, 1]; got {self.shrinkage!r}.")
        X = check_feature_input(self, X, y, reset=True, accept_sparse=True)
        X, y, qid = check_query_data(X, y, qid)
        if X.shape[0] == 1:
            raise ValueError("MPBoost needs at least two documents of one query with different grades; "
                             "got 1 sample.")
        codes = query_codes(qid)
        values, grades = np.unique(y, return_inverse=True)
        grades = grades.ravel()
        sizes = np.bincount(codes)
        pair_counts = query_pair_counts(grades, codes, sizes.size, values.size)
        n_pairs = int(pair_counts.sum())
        if n_pairs == 0:
            raise ValueError(
                "No two documents of one query have different grades, so there is no "
                "preference to learn; expected at least one query with two documents of different grades "
                "(a query with a single document adds no pair)."
            )
        walked = walked_queries(pair_counts, sizes, values.size)
        # the numbers of the feature matrix: those it holds, for a sparse one
        n_values = X.nnz if sparse.issparse(X) else X.size
        without_walked = _fit_plan(pair_counts, walked, sizes, values.size, n_values)
        if without_walked:  # the pairs of the other queries only; a table of distances per grade
            kept = np.flatnonzero(~walked[codes])
            first, second = (kept[side] for side in preference_pairs(y[kept], codes[kept]))
            g, h = np.tril_indices(values.size, k=-1)
            table = np.zeros((values.size, values.size))
            table[g, h] = directed_distance(values[g], values[h], ddf, parameter)
        else:
            first, second = preference_pairs(y, codes)
            table = None
        distance = directed_distance(y[first], y[second], ddf, parameter)
        bins = SparseFeatureBins(X, self.max_bins) if sparse.issparse(X) else FeatureBins(X, self.max_bins)
        layout = PairLayout(first, second, distance, bins, grades=grades, queries=codes, distance_table=table)
        search = StumpSearch(layout, n_jobs=self.n_jobs)

        self.n_pairs_: int = n_pairs
        # Kept for pairs_ and distance_, built on demand when the fit left pairs out.
        self._training: tuple[np.ndarray, np.ndarray, str, float | None] = (y, codes, ddf, parameter)
        self._pairs: tuple[np.ndarray, np.ndarray] | None = None if without_walked else (first, second)
        self._distance: np.ndarray | None = None if without_walked else distance
        self._reset_stumps()
        # The weight of a pair after any number of rounds is
        # exp(-dist (F_i - F_j)) / (product of the normalisers) with F the
        # training scores, so it is recomputed from F rather than updated:
        # no drift over long runs, and the search factors it per document.
        scores = np.zeros(X.shape[0])
        # rescaled weights (largest 1), per document, and their log scale:
        # the stump's height S1/S2 and its rank by gain do not depend on the scale
        weights = layout.round_weights(scores)
        for _ in range(self.n_rounds):
            feature, bin_, gain = search.best(scores, weights)
            if feature < 0:
                break  # no threshold separates a pair
            above = bins.above(feature, bin_)
            s1, s2 = layout.split_sums(weights, above)
            if s2 <= 0.0 or gain <= 1e-12 * weights.total:
                break  # no stump separates a pair usefully: later rounds would repeat this one
            value = shrinkage * s1 / s2
            scores += value * above
            new_weights = layout.round_weights(scores)
            # Z_t: the weights' sum after the round over their sum before
            log_normalizer = (new_weights.scale - weights.scale) + np.log(new_weights.total / weights.total)
            gain_share = gain / weights.total
            weights = new_weights
            self._append_stump(feature, bins.thresholds[feature][bin_], value, gain_share,
                               np.exp(log_normalizer))
            yield self.n_rounds_

    @property
    def pairs_(self) -> tuple[np.ndarray, np.ndarray]:
        """The training pairs ``(first, second)``, ``first`` the more relevant (:func:`preference_pairs`).

        A fit whose pairs would not fit in ``max_memory`` builds none for its
        largest queries; they are then built here, on first access, if they
        fit (else :class:`rankviz.exceptions.MemoryLimitError`).
        """
        check_is_fitted(self, "feature_")
        if self._pairs is None:
            relevance, codes, _, _ = self._training
            check_memory(PAIR_PEAK_BYTES * self.n_pairs_,
                         f"MPBoost's training pairs (pairs_): {self.n_pairs_:,} pairs")
            self._pairs = preference_pairs(relevance, codes)
        return self._pairs

    @property
    def distance_(self) -> np.ndarray:
        """The directed distance of each training pair, in the order of :attr:`pairs_`."""
        check_is_fitted(self, "feature_")
        if self._distance is None:
            first, second = self.pairs_
            relevance, _, ddf, parameter = self._training
            self._distance = directed_distance(relevance[first], relevance[second], ddf, parameter)
        return self._distance

    def _reset_stumps(self):
        self.feature_ = np.empty(0, dtype=np.intp)
        self.threshold_ = np.empty(0)
        self.value_ = np.empty(0)
        self.gain_ = np.empty(0)
        self.normalizer_ = np.empty(0)
        self.n_rounds_ = 0

    def _append_stump(self, feature, threshold, value, gain, normalizer):
        self.feature_ = np.append(self.feature_, feature)
        self.threshold_ = np.append(self.threshold_, threshold)
        self.value_ = np.append(self.value_, value)
        self.gain_ = np.append(self.gain_, gain)
        self.normalizer_ = np.append(self.normalizer_, normalizer)
        self.n_rounds_ += 1

    # ------------------------------------------------------------------ #
    # prediction
    # ------------------------------------------------------------------ #
    def _contributions(self, X, rounds=None):
        """(n_documents, rounds) array: what each stump adds to each document."""
        X = check_feature_input(self, X, reset=False, accept_sparse=True)
        stop = self.n_rounds_ if rounds is None else int(rounds)
        features = self.feature_[:stop]
        if sparse.issparse(X):
            # only the stumps' columns, each made dense once: memory in the documents, not the table
            used, where = np.unique(features, return_inverse=True)
            X = X[:, used].toarray()
            features = where
        else:
            X = np.asarray(X, dtype=float)
        return (X[:, features] > self.threshold_[:stop]) * self.value_[:stop]

    def predict(self, X: ArrayLike, rounds: int | None = None) -> np.ndarray:
        """Predict the scores ``F(x)``: higher means ranked higher within a query.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features with the columns of ``fit``; a missing value
            (NaN) is below every threshold.
        rounds : int, optional
            Use only the first ``rounds`` stumps (default: all).

        Returns
        -------
        ndarray of shape (n_documents,)
            The sum of the stumps' values for each document; only the order
            of the scores within a query matters.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the model is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        return self._contributions(X, rounds).sum(axis=1)

    def staged_predict(self, X: ArrayLike) -> Iterator[np.ndarray]:
        """Predict the scores after 1, 2, ..., ``n_rounds_`` stumps, one array at a time.

        ``X`` is checked at once (not at the first ``next``).

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features with the columns of ``fit``.

        Returns
        -------
        iterator of ndarray of shape (n_documents,)
            The ``t``-th array is :meth:`predict` with ``rounds=t``.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the model is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        scores = self.staged_scores(X)
        return (scores[:, t] for t in range(scores.shape[1]))

    def staged_scores(self, X: ArrayLike) -> np.ndarray:
        """Predict all staged scores at once: column ``t`` after ``t + 1`` stumps.

        Parameters
        ----------
        X : array-like of shape (n_documents, n_features)
            Numeric features with the columns of ``fit``.

        Returns
        -------
        ndarray of shape (n_documents, ``n_rounds_``)
            Cumulative sums of the stumps' values, round by round.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the model is not fitted.
        ValueError
            If ``X`` has other features than in ``fit``.
        """
        return np.cumsum(self._contributions(X), axis=1)

    def truncated(self, rounds: int) -> MPBoost:
        """Return a copy holding only the first ``rounds`` stumps (for showing the ensemble mid-growth).

        Parameters
        ----------
        rounds : int
            Stumps to keep (clipped to ``0..n_rounds_``).

        Returns
        -------
        MPBoost
            A shallow copy whose stump arrays are cut to ``rounds``; the
            training pairs and distances are shared with this model.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the model is not fitted.
        """
        check_is_fitted(self, "feature_")
        rounds = max(0, min(int(rounds), self.n_rounds_))
        model = copy.copy(self)
        for name in ("feature_", "threshold_", "value_", "gain_", "normalizer_"):
            setattr(model, name, getattr(self, name)[:rounds])
        model.n_rounds_ = rounds
        return model

    @property
    def loss_bound_(self) -> np.ndarray:
        """``prod_{s <= t} Z_s`` for each round ``t``: Theorem 1's bound on the training mis-ordering loss.

        Raises ``NotFittedError`` if the model is not fitted.
        """
        check_is_fitted(self, "normalizer_")
        # Far from condition (9) the product can pass the float range: it is
        # then infinite, a bound that says nothing, as a value above 1 already does.
        with np.errstate(over="ignore"):
            return np.cumprod(self.normalizer_)

    def stumps_frame(self, feature_names: Sequence[str] | None = None) -> pd.DataFrame:
        """Return the stumps as a table, one row per round (for export).

        Parameters
        ----------
        feature_names : sequence of str, optional
            Name of each feature; ``f1, f2, ...`` by default.

        Returns
        -------
        DataFrame
            Columns round, feature, feature_index, threshold, value_above,
            gain, Z and loss_bound.

        Raises
        ------
        sklearn.exceptions.NotFittedError
            If the model is not fitted.
        """
        check_is_fitted(self, "feature_")
        names = (np.asarray(feature_names, dtype=object)[self.feature_] if feature_names is not None
                 else [f"f{k + 1}" for k in self.feature_])
        return pd.DataFrame({
            "round": np.arange(1, self.n_rounds_ + 1),
            "feature": names,
            "feature_index": self.feature_,
            "threshold": self.threshold_,
            "value_above": self.value_,
            "gain": self.gain_,
            "Z": self.normalizer_,
            "loss_bound": self.loss_bound_,
        })
