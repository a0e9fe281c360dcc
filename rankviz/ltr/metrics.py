"""Accuracy measures for query–document ranking (learning to rank).

Every function takes one row per document:

* ``relevance`` -- shape ``(n_docs,)``, graded relevance (e.g. 0..4; higher
  is more relevant; finite and non-negative);
* ``scores`` -- shape ``(n_docs,)``, model scores; a higher score ranks a
  document earlier;
* ``qid`` -- shape ``(n_docs,)``, the query of each document: any hashable
  values (ints, strings, ...). The rows of one query need not be
  contiguous.

Per-query results are arrays with one entry per query, **in the order in
which the queries first appear in** ``qid``; :func:`query_ids` returns the
ids in that order. All computations are vectorised: one sort of all
documents by ``(query, -score, tie-break)`` with :func:`numpy.lexsort`,
positions within each query from the query's first row in that order, and
running sums. No Python loop visits documents.

NDCG forms
----------
With :math:`r(j)` the relevance of the document at position :math:`j` of
the list ordered by decreasing score, both forms use the gain
:math:`2^{r(j)} - 1` and differ in the discount:

``form="common"`` (Järvelin & Kekäläinen 2000 [1]_; scikit-learn, LightGBM, ...)
    .. math:: \\mathrm{DCG@}k = \\sum_{j=1}^{k} \\frac{2^{r(j)} - 1}{\\log_2(1 + j)}

``form="mpboost"`` (Zhu et al. 2009 [2]_, §5.2)
    .. math:: N(n) = Z_n \\sum_{j=1}^{n} \\begin{cases} 2^{r(j)} - 1, & j = 1 \\\\
              \\frac{2^{r(j)} - 1}{\\log_2 j}, & j > 1 \\end{cases}

    Positions 1 and 2 are both undiscounted (:math:`\\log_2 2 = 1`) and
    position :math:`j` is discounted as position :math:`j - 1` of the common
    form: the discount of Järvelin & Kekäläinen's original DCG with base
    :math:`b = 2`. The two forms agree at ``k = 1`` (both give the top document's
    gain over the largest gain of the query) and in general differ from
    ``k = 2`` on.

NDCG@k is DCG@k divided by the DCG@k of the ideal list (the same documents
sorted by decreasing relevance), computed with the same form; that is the
:math:`Z_n` of Zhu et al. When a query has fewer than ``k`` documents, both
sums run over all its documents.

The gains of a query are computed divided by :math:`2^{m}`, with :math:`m`
the query's largest grade, as :math:`2^{r - m} - 2^{-m}`: the ratio is the
same, the numbers are exact for integer grades up to 52 as before, and a
grade such as 100000, whose :math:`2^r` overflows a float, gives a finite
NDCG instead of ``inf / inf = nan``.

Ties in the scores
------------------
A model that gives two documents the same score has not said which comes
first. Breaking such ties by input order would give a model credit for the
order in which the data happens to be stored, which may well be related to
relevance (e.g. documents listed as they were judged or retrieved). Here score ties are broken by a
random permutation drawn from ``np.random.default_rng(random_state)``: the
result is reproducible for a given seed, and a constant scorer ranks the
documents of every query in a random order, so its NDCG is that of a random
ranking, not that of the input order.

Queries without a relevant document
-----------------------------------
If every document of a query has relevance 0, the ideal DCG is 0 and NDCG
is 0/0. Tools disagree: LETOR's evaluation script, scikit-learn's
:func:`sklearn.metrics.ndcg_score` and ``trec_eval`` score such a query 0;
LightGBM's ``ndcg`` metric and XGBoost's default ``ndcg`` score it 1
(XGBoost's ``ndcg-`` scores it 0). Published means therefore depend on how
many such queries a data set holds. The default here, ``no_relevant="skip"``,
gives ``NaN`` for them and :func:`mean_ndcg` leaves them out: no ranking of
such a query is better or worse than another, so it carries no evidence
about a model; scoring it 0 or 1 only moves every model's mean towards that
value (and with 0, a perfect ranking would average below 1). Use
``no_relevant="zero"`` or ``"one"`` to reproduce the other tools.

Queries with a single document
------------------------------
A query with one document (kept by the loaders of
:mod:`rankviz.datasets`) has only one ranking, which is also the ideal one:
its NDCG@k is 1 at every cut-off and in both forms when the document is
relevant (relevance > 0), and when it is not, the query has no relevant
document and gets the ``no_relevant`` value above (``NaN``, left out, by
default). This is LightGBM's convention too: with ``no_relevant="one"``
:func:`mean_ndcg` equals LightGBM's ``ndcg@k`` on data with such queries.
Such a query adds nothing to compare models by, but it is counted, so a
mean over queries moves towards 1 as their share grows. Its rank
correlations (:func:`query_rank_scores`) are ``NaN``: there is no pair to
order.

Rank correlations per query
---------------------------
:func:`query_rank_scores` scores each query's predicted order against its
true order with the label-ranking measures of :mod:`rankviz.label_ranking.metrics` (CS,
WRC, LRA, Kendall's tau-b). Both orders are turned into rank positions
(1 = first) with ties as average positions: true positions from decreasing
relevance, predicted positions from decreasing score. Unlike NDCG, score ties
are *not* broken at random here: tied scores share a position, which the
tie-aware measures (Spearman via Pearson on positions, tau-b) handle.

References
----------
.. [1] K. Järvelin and J. Kekäläinen, "IR evaluation methods for retrieving
       highly relevant documents", Proceedings of the 23rd Annual
       International ACM SIGIR Conference on Research and Development in
       Information Retrieval (SIGIR 2000), pp. 41-48, 2000.

.. [2] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats

from ..label_ranking import metrics

__all__ = [
    "FORMS",
    "FORM_TITLES",
    "mean_ndcg",
    "ndcg",
    "ndcg_at_ks",
    "query_ids",
    "query_rank_scores",
    "rank_within_queries",
]

FORMS = ("common", "mpboost")

#: How figures and tables name each form.
FORM_TITLES = {"common": "common", "mpboost": "Zhu et al. (2009)"}
NO_RELEVANT = {"skip": np.nan, "one": 1.0, "zero": 0.0}
RANK_MEASURES = {
    "cs": metrics.cs,
    "wrc": metrics.wrc,
    "lra": metrics.lra,
    "kendall_tau": metrics.kendall_tau,
}

# Largest (queries x positions) table of discounted gains built at once.
_MAX_TABLE_CELLS = 1 << 22
# metrics.kendall_tau builds an (n, L, L) tensor; above this many documents
# in a query, tau-b comes from scipy (O(L log L)) instead.
_KENDALL_DENSE_MAX_DOCS = 1500


# ---------------------------------------------------------------------------
# Input checks and grouping
# ---------------------------------------------------------------------------


def _factorize(qid):
    """Integer codes ``0..n_queries-1`` in order of first appearance, and the ids."""
    qid = np.asarray(qid)
    if qid.ndim != 1:
        raise ValueError(
            f"qid must be 1-D with one query id per document, got shape {qid.shape}."
        )
    codes, uniques = pd.factorize(qid)
    if (codes < 0).any():
        row = int(np.flatnonzero(codes < 0)[0])
        raise ValueError(f"qid is missing (NaN or None) at row {row}.")
    return codes.astype(np.intp, copy=False), np.asarray(uniques)


def _as_column(values, name, n_docs):
    """A 1-D float array of ``n_docs`` finite values."""
    values = np.asarray(values, dtype=float)
    if values.ndim != 1 or values.shape[0] != n_docs:
        raise ValueError(
            f"{name} must be 1-D with one value per document ({n_docs}, the "
            f"length of qid), got shape {values.shape}."
        )
    bad = ~np.isfinite(values)
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        raise ValueError(f"{name} must be finite, got {values[row]} at row {row}.")
    return values


def _as_relevance(relevance, n_docs):
    relevance = _as_column(relevance, "relevance", n_docs)
    negative = relevance < 0
    if negative.any():
        row = int(np.flatnonzero(negative)[0])
        raise ValueError(
            "relevance must be non-negative (0 = not relevant), got "
            f"{relevance[row]} at row {row}."
        )
    return relevance


class _Groups:
    """Query codes with the size and first sorted row of each query."""

    def __init__(self, qid):
        self.codes, self.ids = _factorize(qid)
        self.n_docs = self.codes.shape[0]
        self.n_queries = self.ids.shape[0]
        self.sizes = np.bincount(self.codes, minlength=self.n_queries)
        # Row of the first document of each query once rows are sorted by query.
        self.starts = np.cumsum(self.sizes) - self.sizes

    def sort(self, descending, tiebreak=None):
        """Sort rows by (query, -descending[, tiebreak]).

        Returns
        -------
        order : ndarray of shape (n_docs,)
            Row indices in sorted order.
        positions : ndarray of shape (n_docs,)
            1-based position within its query of each row of ``order``.
        """
        keys = (-descending, self.codes)
        if tiebreak is not None:
            keys = (tiebreak,) + keys
        order = np.lexsort(keys)
        positions = np.arange(1, self.n_docs + 1) - self.starts[self.codes[order]]
        return order, positions


def _tiebreak(n_docs, random_state):
    """A reproducible random key per document that breaks score ties."""
    return np.random.default_rng(random_state).permutation(n_docs)


def query_ids(qid: ArrayLike) -> np.ndarray:
    """The distinct query ids in order of first appearance.

    Per-query results of this module (:func:`ndcg`, :func:`ndcg_at_ks`,
    :func:`query_rank_scores`) have one entry per query in this order.

    Parameters
    ----------
    qid : array-like of shape (n_docs,)
        Query id of each document (any hashable values).

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    >>> from rankviz.ltr.metrics import query_ids
    >>> query_ids(["b", "a", "b", "c"]).tolist()
    ['b', 'a', 'c']
    """
    return _factorize(qid)[1]


# ---------------------------------------------------------------------------
# Positions within queries
# ---------------------------------------------------------------------------


def rank_within_queries(scores: ArrayLike, qid: ArrayLike,
                        random_state: int | np.random.Generator | None = 0) -> np.ndarray:
    """Position of each document within its query, by decreasing score.

    Parameters
    ----------
    scores : array-like of shape (n_docs,)
        Model scores; the highest score of a query gets position 1.
    qid : array-like of shape (n_docs,)
        Query id of each document (any hashable values; rows of a query need
        not be contiguous).
    random_state : int, numpy.random.Generator or None, default=0
        Seed for :func:`numpy.random.default_rng`, which draws the
        permutation that breaks score ties.

    Returns
    -------
    ndarray of int of shape (n_docs,)
        Positions ``1..n_q`` within each query of ``n_q`` documents; each
        position occurs exactly once per query.

    Notes
    -----
    Ties are broken at random, not by input order, so that a model which
    cannot distinguish documents gets no credit for the order in which they
    happen to be stored: a constant scorer gives a random ranking of each
    query. The same seed and input give the same positions.

    Examples
    --------
    >>> from rankviz.ltr.metrics import rank_within_queries
    >>> rank_within_queries([0.2, 0.9, 0.5, 0.1], [7, 7, 3, 3]).tolist()
    [2, 1, 1, 2]
    """
    groups = _Groups(qid)
    scores = _as_column(scores, "scores", groups.n_docs)
    order, positions = groups.sort(scores, _tiebreak(groups.n_docs, random_state))
    result = np.empty(groups.n_docs, dtype=np.intp)
    result[order] = positions
    return result


def _average_positions(values, groups):
    """Positions by decreasing ``values`` within each query, ties averaged.

    Equals ``scipy.stats.rankdata(-values_of_query, method="average")`` for
    every query, without a loop.
    """
    if groups.n_docs == 0:
        return np.empty(0)
    order, positions = groups.sort(values)
    codes, sorted_values = groups.codes[order], values[order]
    new_run = np.ones(groups.n_docs, dtype=bool)
    new_run[1:] = (codes[1:] != codes[:-1]) | (sorted_values[1:] != sorted_values[:-1])
    run_first = np.flatnonzero(new_run)
    run_last = np.append(run_first[1:], groups.n_docs) - 1
    run = np.cumsum(new_run) - 1
    # Mean of consecutive integers: exact in floating point.
    average = (positions[run_first] + positions[run_last]) / 2.0
    result = np.empty(groups.n_docs)
    result[order] = average[run]
    return result


# ---------------------------------------------------------------------------
# NDCG
# ---------------------------------------------------------------------------


def _discounts(form, n_positions):
    """Discount of positions ``1..n_positions`` for an NDCG form."""
    if form not in FORMS:
        raise ValueError(f"form must be one of {FORMS}, got {form!r}.")
    position = np.arange(1, n_positions + 1, dtype=float)
    if form == "common":
        return 1.0 / np.log2(1.0 + position)
    discount = 1.0 / np.log2(np.maximum(position, 2.0))
    discount[:1] = 1.0  # "mpboost": position 1 is not discounted
    return discount


def _check_ks(ks: Any) -> np.ndarray:  # any value: this checks it
    array = np.asarray(list(ks) if not np.isscalar(ks) else [ks])
    if array.ndim != 1 or array.size == 0:
        raise ValueError(f"ks must be a non-empty list of cut-offs, got {array!r}.")
    if not np.issubdtype(array.dtype, np.number) or np.any(array != np.round(array)) or np.any(array < 1):
        raise ValueError(f"Every cut-off k must be an integer >= 1, got {array.tolist()}.")
    return array.astype(np.intp)


def _cumulative_dcg(gains, order, positions, groups, discount, columns):
    """DCG at the given cut-offs for every query, from one sorted order.

    The discounted gains of the first ``len(discount)`` positions of each
    query go into a (queries x positions) table whose running sums along a
    row are DCG@1, DCG@2, ...; a query shorter than the table leaves zeros,
    so its sums stop growing after its last document. Sums start at 0 in
    every row, so no rounding leaks between queries.

    Returns
    -------
    ndarray of shape (n_queries, len(columns))
        ``result[q, i]`` = DCG of query ``q`` at cut-off ``columns[i] + 1``.
    """
    n_positions = discount.shape[0]
    result = np.zeros((groups.n_queries, columns.shape[0]))
    if n_positions == 0:
        return result
    keep = positions <= n_positions
    rows, cols = groups.codes[order][keep], positions[keep] - 1
    values = gains[order][keep] * discount[cols]
    # Sorted by query, so each chunk of queries is a contiguous slice.
    bounds = np.searchsorted(rows, np.arange(groups.n_queries + 1))
    step = max(1, _MAX_TABLE_CELLS // n_positions)
    for first in range(0, groups.n_queries, step):
        last = min(first + step, groups.n_queries)
        part = slice(bounds[first], bounds[last])
        table = np.zeros((last - first, n_positions))
        table[rows[part] - first, cols[part]] = values[part]
        np.cumsum(table, axis=1, out=table)
        result[first:last] = table[:, columns]
    return result


def _scaled_gains(relevance, groups):
    """Gains ``2^r - 1`` of each document over ``2^m``, ``m`` its query's largest grade.

    Dividing every gain of a query by the same power of two leaves its NDCG
    unchanged and keeps every gain in ``[0, 1)``, so no grade overflows.
    """
    top = np.zeros(groups.n_queries)
    np.maximum.at(top, groups.codes, relevance)
    top = top[groups.codes]
    with np.errstate(under="ignore"):  # a gain below 2^-1074 of the top one is 0
        return np.exp2(relevance - top) - np.exp2(-top)


def ndcg_at_ks(relevance: ArrayLike, scores: ArrayLike, qid: ArrayLike,
               ks: Iterable[int] | int = range(1, 11), *, form: str = "common",
               random_state: int | np.random.Generator | None = 0,
               no_relevant: str = "skip") -> np.ndarray:
    """Compute the NDCG of every query at several cut-offs, from one sort.

    Each query's documents are ordered by decreasing score (ties broken at
    random, reproducibly) and the DCG of the top ``k`` is divided by that of
    the ideal order, the documents sorted by decreasing relevance. All
    cut-offs are read from the same running sums.

    Parameters
    ----------
    relevance : array-like of shape (n_docs,)
        Graded relevance of each document (finite, >= 0).
    scores : array-like of shape (n_docs,)
        Model scores; higher ranks first.
    qid : array-like of shape (n_docs,)
        Query id of each document (any hashable values).
    ks : int or iterable of int, default=range(1, 11)
        Cut-offs, each >= 1. A cut-off larger than a query's number of
        documents sums over all of them.
    form : {"common", "mpboost"}, default="common"
        Discount: ``1 / log2(1 + j)`` ("common", after Järvelin &
        Kekäläinen 2000 [1]_), or 1 at ``j = 1`` and ``1 / log2(j)`` after
        ("mpboost", the form of Zhu et al. 2009 [2]_). See the module
        docstring.
    random_state : int, numpy.random.Generator or None, default=0
        Seed of the permutation that breaks score ties (see
        :func:`rank_within_queries`).
    no_relevant : {"skip", "one", "zero"}, default="skip"
        Value for queries whose documents all have relevance 0: ``NaN``
        (left out of :func:`mean_ndcg`), 1.0 or 0.0.

    Returns
    -------
    ndarray of shape (n_queries, len(ks))
        ``result[q, i]`` is NDCG@``ks[i]`` of the ``q``-th query in order
        of first appearance (see :func:`query_ids`), in ``[0, 1]``.

    Raises
    ------
    ValueError
        If the three arrays do not hold one value per document, a relevance
        is negative or not finite, a score is not finite, a query id is
        missing, a cut-off is not an integer >= 1, or ``form`` or
        ``no_relevant`` is unknown.

    See Also
    --------
    ndcg : NDCG at one cut-off.
    mean_ndcg : The mean over queries at each cut-off.

    References
    ----------
    .. [1] K. Järvelin and J. Kekäläinen, "IR evaluation methods for
           retrieving highly relevant documents", Proceedings of the 23rd
           Annual International ACM SIGIR Conference on Research and
           Development in Information Retrieval (SIGIR 2000), pp. 41-48,
           2000.

    .. [2] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A
           general magnitude-preserving boosting algorithm for search
           ranking", Proceedings of the 18th ACM Conference on Information
           and Knowledge Management (CIKM '09), pp. 817-826, 2009.

    Examples
    --------
    >>> from rankviz.ltr.metrics import ndcg_at_ks
    >>> ndcg_at_ks([0, 1], [0.9, 0.1], [1, 1], ks=[1, 2]).round(4)
    array([[0.    , 0.6309]])
    >>> ndcg_at_ks([0, 1], [0.9, 0.1], [1, 1], ks=[1, 2], form="mpboost")
    array([[0., 1.]])
    """
    if no_relevant not in NO_RELEVANT:
        raise ValueError(
            f"no_relevant must be one of {tuple(NO_RELEVANT)}, got {no_relevant!r}."
        )
    cutoffs = _check_ks(ks)
    groups = _Groups(qid)
    relevance = _as_relevance(relevance, groups.n_docs)
    scores = _as_column(scores, "scores", groups.n_docs)

    longest = int(groups.sizes.max()) if groups.n_queries else 0
    n_positions = min(int(cutoffs.max()), longest)
    discount = _discounts(form, n_positions)
    columns = np.minimum(cutoffs, max(n_positions, 1)) - 1
    gains = _scaled_gains(relevance, groups)

    order, positions = groups.sort(scores, _tiebreak(groups.n_docs, random_state))
    dcg = _cumulative_dcg(gains, order, positions, groups, discount, columns)
    order, positions = groups.sort(relevance)
    ideal = _cumulative_dcg(gains, order, positions, groups, discount, columns)

    # The ideal DCG is 0 at every cut-off exactly when no document is relevant.
    has_relevant = ideal[:, 0] > 0
    result = np.full(dcg.shape, NO_RELEVANT[no_relevant])
    result[has_relevant] = dcg[has_relevant] / ideal[has_relevant]
    return result


def ndcg(relevance: ArrayLike, scores: ArrayLike, qid: ArrayLike, k: int | None = 10, *,
         form: str = "common", random_state: int | np.random.Generator | None = 0,
         no_relevant: str = "skip") -> np.ndarray:
    """Compute NDCG@k of every query.

    The documents of each query are ordered by decreasing score and their
    DCG@k is divided by the DCG@k of the ideal order; see
    :func:`ndcg_at_ks`, which this calls with one cut-off.

    Parameters
    ----------
    relevance, scores, qid : array-like of shape (n_docs,)
        As in :func:`ndcg_at_ks`.
    k : int or None, default=10
        Cut-off (>= 1); ``None`` sums over all documents of each query. A
        cut-off larger than a query's number of documents does the same.
    form : {"common", "mpboost"}, default="common"
        NDCG form, see :func:`ndcg_at_ks`.
    random_state : int, numpy.random.Generator or None, default=0
        Seed of the permutation that breaks score ties.
    no_relevant : {"skip", "one", "zero"}, default="skip"
        Value for queries without a relevant document (``NaN``, 1.0, 0.0).

    Returns
    -------
    ndarray of shape (n_queries,)
        One value per query, in order of first appearance in ``qid`` (see
        :func:`query_ids`), in ``[0, 1]``; ``NaN`` for a query without a
        relevant document unless ``no_relevant`` says otherwise.

    Raises
    ------
    ValueError
        If the three arrays do not hold one value per document, a relevance
        is negative or not finite, a score is not finite, a query id is
        missing, a cut-off is not an integer >= 1, or ``form`` or
        ``no_relevant`` is unknown.

    See Also
    --------
    ndcg_at_ks : Several cut-offs from one sort.
    mean_ndcg : The mean over queries.
    sklearn.metrics.ndcg_score : The NDCG of scikit-learn, which scores a query without a relevant document 0.

    Examples
    --------
    >>> from rankviz.ltr.metrics import ndcg
    >>> ndcg([2, 0, 1, 0, 0], [0.1, 0.2, 0.3, 0.4, 0.5], ["a", "a", "a", "b", "b"])
    array([0.68852888,        nan])
    """
    if k is None:
        k = max(1, int(np.bincount(_factorize(qid)[0]).max(initial=1)))
    return ndcg_at_ks(relevance, scores, qid, ks=[k], form=form,
                      random_state=random_state, no_relevant=no_relevant)[:, 0]


def _nanmean(values, axis=0):
    """Mean over non-NaN entries; NaN, without a warning, where there are none."""
    values = np.asarray(values, dtype=float)
    present = ~np.isnan(values)
    count = present.sum(axis=axis)
    total = np.where(present, values, 0.0).sum(axis=axis)
    return np.divide(total, count, out=np.full(np.shape(total), np.nan), where=count > 0)


def mean_ndcg(relevance: ArrayLike, scores: ArrayLike, qid: ArrayLike,
              ks: Iterable[int] | int = range(1, 11), *, form: str = "common",
              random_state: int | np.random.Generator | None = 0,
              no_relevant: str = "skip") -> np.ndarray:
    """Compute the mean NDCG over queries at each cut-off.

    The measure learning-to-rank results are reported in (and the ``score``
    of :class:`rankviz.MPBoost` and its baselines, at ``ks=[10]``): the NDCG
    of each query (:func:`ndcg_at_ks`), averaged over the queries that have
    a relevant document.

    Parameters
    ----------
    relevance : array-like of shape (n_docs,)
        Graded relevance of each document (finite, >= 0).
    scores : array-like of shape (n_docs,)
        Model scores; higher ranks first.
    qid : array-like of shape (n_docs,)
        Query id of each document (any hashable values).
    ks : int or iterable of int, default=range(1, 11)
        Cut-offs, each >= 1.
    form : {"common", "mpboost"}, default="common"
        NDCG form, see :func:`ndcg_at_ks`.
    random_state : int, numpy.random.Generator or None, default=0
        Seed of the permutation that breaks score ties.
    no_relevant : {"skip", "one", "zero"}, default="skip"
        Value for queries without a relevant document: ``NaN`` (left out of
        the mean), 1.0 or 0.0.

    Returns
    -------
    ndarray of shape (len(ks),)
        Mean over queries of NDCG@k for each ``k`` in ``ks``; queries scored
        ``NaN`` (``no_relevant="skip"``) are left out. ``NaN`` if no query
        is left.

    Raises
    ------
    ValueError
        If the three arrays do not hold one value per document, a relevance
        is negative or not finite, a score is not finite, a query id is
        missing, a cut-off is not an integer >= 1, or ``form`` or
        ``no_relevant`` is unknown.

    See Also
    --------
    ndcg_at_ks : The NDCG of every query.

    Examples
    --------
    >>> from rankviz.ltr.metrics import mean_ndcg
    >>> mean_ndcg([1, 0, 0, 1], [0.9, 0.1, 0.9, 0.1], [1, 1, 2, 2], ks=[1, 2]).round(4)
    array([0.5   , 0.8155])
    """
    per_query = ndcg_at_ks(relevance, scores, qid, ks=ks, form=form,
                           random_state=random_state, no_relevant=no_relevant)
    return _nanmean(per_query, axis=0)


# ---------------------------------------------------------------------------
# Rank correlations per query
# ---------------------------------------------------------------------------


def _kendall_tau_large(y_true, y_pred):
    """Tau-b row by row with scipy, 0.0 where a row is all tied (as metrics)."""
    tau = np.empty(y_true.shape[0])
    for row in range(y_true.shape[0]):
        value = stats.kendalltau(y_true[row], y_pred[row]).statistic
        tau[row] = 0.0 if np.isnan(value) else value
    return tau


def query_rank_scores(relevance: ArrayLike, scores: ArrayLike, qid: ArrayLike,
                      measure: str = "cs") -> np.ndarray:
    """Rank correlation between the predicted and the true order of each query.

    Parameters
    ----------
    relevance : array-like of shape (n_docs,)
        Graded relevance of each document (finite, >= 0).
    scores : array-like of shape (n_docs,)
        Model scores; higher ranks first.
    qid : array-like of shape (n_docs,)
        Query id of each document (any hashable values).
    measure : {"cs", "wrc", "lra", "kendall_tau"}, default="cs"
        Measure from :mod:`rankviz.label_ranking.metrics`: Spearman's coefficient, the
        weighted rank correlation, the log ranking accuracy or Kendall's
        tau-b. WRC and LRA weight the top of the *true* order.

    Returns
    -------
    ndarray of shape (n_queries,)
        One value per query in order of first appearance (see
        :func:`query_ids`); ``NaN`` for a query with fewer than 2 documents.

    Notes
    -----
    True positions are ``rankdata(-relevance, method="average")`` within
    each query and predicted positions ``rankdata(-scores,
    method="average")``: tied relevance and tied scores share the average
    of their positions (no random tie-breaking, unlike NDCG). Hence "cs"
    equals :func:`scipy.stats.spearmanr` and "kendall_tau" equals
    :func:`scipy.stats.kendalltau` (tau-b) of ``relevance`` and ``scores``
    within each query, except that a query whose relevance (or scores) are
    all equal scores 0.0 where scipy gives ``NaN`` -- the convention of
    :mod:`rankviz.label_ranking.metrics`.

    Queries with the same number of documents are scored together as the
    rows of one rank-position matrix, so the loop runs over distinct query
    sizes, not over queries or documents.

    Examples
    --------
    >>> from rankviz.ltr.metrics import query_rank_scores
    >>> query_rank_scores([2, 1, 0, 0, 1], [3, 2, 1, 5, 4], [1, 1, 1, 2, 2])
    array([ 1., -1.])
    """
    if measure not in RANK_MEASURES:
        raise ValueError(
            f"measure must be one of {tuple(RANK_MEASURES)}, got {measure!r}."
        )
    score_rows = RANK_MEASURES[measure]
    groups = _Groups(qid)
    relevance = _as_relevance(relevance, groups.n_docs)
    scores = _as_column(scores, "scores", groups.n_docs)
    true_positions = _average_positions(relevance, groups)
    predicted_positions = _average_positions(scores, groups)

    # Rows of each query, contiguous and in the order of groups.starts.
    by_query = np.argsort(groups.codes, kind="stable")
    result = np.full(groups.n_queries, np.nan)
    for size in np.unique(groups.sizes[groups.sizes >= 2]):
        queries = np.flatnonzero(groups.sizes == size)
        rows = by_query[groups.starts[queries][:, None] + np.arange(size)]
        y_true, y_pred = true_positions[rows], predicted_positions[rows]
        if measure != "kendall_tau":
            result[queries] = score_rows(y_true, y_pred)
        elif size > _KENDALL_DENSE_MAX_DOCS:
            result[queries] = _kendall_tau_large(y_true, y_pred)
        else:  # bound the (rows, size, size) tensor of metrics.kendall_tau
            step = max(1, _MAX_TABLE_CELLS // (size * size))
            for first in range(0, queries.shape[0], step):
                part = slice(first, first + step)
                result[queries[part]] = score_rows(y_true[part], y_pred[part])
    return result
