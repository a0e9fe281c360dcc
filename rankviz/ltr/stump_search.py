"""Exhaustive decision-stump search for pairwise boosting (Zhu et al. 2009, appendix).

A stump ``f(x) = a [x_k > t]`` changes the score difference of a pair only
when the threshold separates its two documents. For the weighted squared
loss of Algorithm 1 (step 5) of Zhu et al. [1]_ the best height is
``a = S1 / S2`` and the loss falls by ``S1^2 / S2``, where, over the pairs
``(i, j)`` (``r_i > r_j``, same query) with weights ``w`` and directed
distances ``d``,

* ``S1 = sum_{i above, j below} w d - sum_{i below, j above} w d``, and
* ``S2 = sum_{pairs split} w``.

Every threshold of a feature is scored in one sweep over its documents in
the order of their values (docs/design.md, "MPBoost stump search"), moving
one document at a time from above the threshold to below it:

* ``S1`` decomposes per document. With
  ``p_m = sum_{pairs (m, .)} w d - sum_{pairs (., m)} w d``,
  ``S1(t) = sum_{m above t} p_m``, a running sum.
* ``S2`` does not decompose: when document ``m`` moves below, its pairs
  with documents still above become split and those with documents already
  below stop being split, so ``S2`` changes by
  ``W_m - 2 sum_{j below} w_mj`` (``W_m`` the weight of all of ``m``'s
  pairs). The last sum, ``below_k(m)`` for feature ``k``, is the hard
  part: it depends on the order of ``m``'s query in that feature.

The compiled kernels (:mod:`rankviz.ltr.stump_sweep`) first compute ``V[k,
m] = W_m - 2 below_k(m)`` for a block of features, then scan each feature's
documents in order with ``S1`` and ``S2`` (the sum of ``V`` below) as running
sums. ``below_k(m)`` comes one of two ways, chosen per query:

* a small query visits each of its pairs once and compares the two
  documents in every feature of the block in one vectorised loop;
* a large query walks each feature's documents in order. The weight of a
  pair is ``exp(-d (F_i - F_j))``, where ``F`` is the sum of the stumps so
  far and ``d`` depends only on the two grades, so it factors into one
  number per document and grade of the partner
  (:meth:`PairLayout.round_weights`). The sum over the partners passed is
  then ``sum_h factors[m, h] T[h, g_m]``, where ``T[h, g]`` sums
  ``factors[j, g]`` over the documents ``j`` of grade ``h`` passed:
  ``O(grades)`` per step, however many pairs the query has.

A round costs ``O(features x (pairs of the small queries + documents of the
large queries x grades))``.

Feature values are binned once per fit: by default every distinct value is
its own bin (the appendix's exhaustive search over all thresholds);
``max_bins`` caps the bins at quantiles, as histogram gradient boosting does,
for large data. Thresholds lie midway between neighbouring values, as in
scikit-learn's trees, so that the stump separates the training documents as
the appendix's ``x <= x_m`` would but generalises symmetrically.

References
----------
.. [1] C. Zhu, W. Chen, Z. A. Zhu, G. Wang, D. Wang and Z. Chen, "A general
       magnitude-preserving boosting algorithm for search ranking",
       Proceedings of the 18th ACM Conference on Information and Knowledge
       Management (CIKM '09), pp. 817-826, 2009.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._validation import check_n_jobs
from ..binning import FeatureBins, FeatureEntries, SparseFeatureBins
from ..jit import LazyKernels, compile_mode
from . import stump_numpy

__all__ = ["ENGINES", "FeatureBins", "FeatureEntries", "KERNELS", "PairLayout", "RoundWeights", "StumpSearch",
           "entries_by_query", "factored_split_sums", "feature_entries", "query_pair_counts", "query_spreads",
           "stump_sums", "walked_queries", "warm_up"]

#: The compiled kernels (:mod:`rankviz.ltr.stump_sweep`), imported with Numba when a fit first needs them,
#: not with rankviz. A fit that finds them not built searches with NumPy (:mod:`rankviz.ltr.stump_numpy`)
#: while they build in the background (:mod:`rankviz.jit`); building them costs about 12 s of CPU.
def _import_sweep() -> ModuleType:
    from . import stump_sweep
    return stump_sweep


KERNELS = LazyKernels("MPBoost's stump search", "rankviz.ltr.stump_sweep", load=_import_sweep,
                      warm_up=lambda: warm_up())  # defined below

#: Who runs a fit's search (see :class:`PairLayout`).
ENGINES = ("auto", "compiled", "numpy")

# Relative difference of gains that counts as a tie.
_GAIN_TIE = 1e-5

# A query whose pairs number more than this times its documents times the
# grades walks each feature's order (O(documents x grades) per feature)
# instead of visiting its pairs (O(pairs) per feature, but vectorised across
# features); measured in benchmarks/bench_mpboost.py.
_PAIRS_PER_DOCUMENT_GRADE = 2.0

# The search scores a feature's thresholds from its documents outside its most
# frequent bin (stump_sweep's sparse kernels) when at least this share of all
# values is in those bins (LETOR features are mostly 0), and the search runs in
# one thread; measured in benchmarks/bench_mpboost.py.
_SPARSE_SHARE = 0.5

# On this many documents or more the sparse search reads each feature's entries
# grouped by query (stump_sweep's grouped kernels) rather than in code order:
# a round on 1.2 M documents x 136 features 1.30 -> 0.80 s, on 300,000 0.20 ->
# 0.15 s, about even at 120,000, and slower on LightGBM's example (3,005
# documents: 1.9 -> 3.0 ms); measured in benchmarks/bench_mpboost.py.
_GROUPED_DOCUMENTS = 100_000

# On this many documents or more the grouped search walks _WALK_BATCH features
# together, query by query, so that a query's data (8 numbers a document) are
# read from memory once per batch: they no longer stay in the cache. CPU time of
# a round's walks, one feature at a time against 4 together: 1.2 M documents 222
# -> 151 ms, 400,000 58 -> 47 ms, but 120,000 6.6 -> 8.1 ms (medians of real
# rounds; 8 together: 173, 47 and 8.3 ms). At most _WALK_BINS bins (24 bytes
# each) side by side.
_BATCH_DOCUMENTS = 250_000
_WALK_BATCH = 4
_WALK_BINS = 1 << 21

# Bytes of split weights V per block of features and thread. Each block
# visits every pair once, so larger blocks share that visit among more
# features: 8 MB (all 300 features of 3,000 documents) against 4 MB took
# 2.64-2.74 against 2.80 ms per round in benchmarks/bench_mpboost.py.
_BLOCK_BYTES = 1 << 23


class RoundWeights(NamedTuple):
    """One round's pair weights, held per document (:meth:`PairLayout.round_weights`).

    The weight of pair ``(i, j)`` (grades ``g > h``) is ``factors[i, h] *
    factors[j, g]``, that is ``exp(-dist_ij (F_i - F_j) - scale)``.
    """

    #: (n_documents, n_grades) factors, as :meth:`PairLayout.round_weights` describes
    factors: np.ndarray
    #: ``W_m``: the weight of each document's pairs
    weight: np.ndarray
    #: ``p_m``: weight x distance of each document's pairs as the more
    #: relevant document, less those as the less relevant one
    p: np.ndarray
    #: ``M``: the largest log weight, by which the weights are rescaled
    scale: float
    #: the sum of the rescaled weights
    total: float


def query_pair_counts(grades: np.ndarray, queries: np.ndarray, n_queries: int | None = None,
                      n_grades: int | None = None) -> np.ndarray:
    """Pairs of different grades per query: ``(n_q^2 - sum_g c_g^2) / 2`` for ``c_g`` documents of grade ``g``.

    ``grades`` and ``queries`` are codes ``0..G-1`` and ``0..Q-1``.
    """
    n_queries = int(queries.max()) + 1 if n_queries is None and queries.size else (n_queries or 1)
    n_grades = int(grades.max()) + 1 if n_grades is None and grades.size else (n_grades or 1)
    per_grade = np.bincount(queries * n_grades + grades,
                            minlength=n_queries * n_grades).reshape(n_queries, n_grades).astype(np.int64)
    return (per_grade.sum(axis=1) ** 2 - (per_grade ** 2).sum(axis=1)) // 2


def walked_queries(pair_counts: np.ndarray, sizes: np.ndarray, n_grades: int) -> np.ndarray:
    """Which queries the search walks in each feature's order rather than visiting their pairs (bool per query).

    Those with more than ``_PAIRS_PER_DOCUMENT_GRADE`` pairs per document and
    grade, from their pairs (:func:`query_pair_counts`) and documents; their
    pairs need not be built (:class:`PairLayout`).
    """
    return pair_counts > _PAIRS_PER_DOCUMENT_GRADE * sizes * n_grades


def factored_split_sums(above: np.ndarray, grades: np.ndarray, queries: np.ndarray, distance_table: np.ndarray,
                        factors: np.ndarray) -> tuple[float, float]:
    """``S1`` and ``S2`` of a stump from per-document factors, with no pair built: ``O(documents x grades)``.

    A pair ``(i, j)`` of grades ``g > h`` weighs ``factors[i, h] *
    factors[j, g]`` (:class:`RoundWeights`), so the weight of the pairs
    of a query with ``i`` on side ``s`` and ``j`` on side ``t`` of the
    threshold is ``F[q, s, g, h] * F[q, t, h, g]``, where ``F[q, s, g, h]``
    sums ``factors[m, h]`` over the documents ``m`` of grade ``g`` on side
    ``s``. ``S1`` takes the pairs split forwards (``i`` above) less those
    split backwards, times their distance; ``S2`` both.
    """
    n_grades = distance_table.shape[0]
    n_queries = int(queries.max()) + 1 if queries.size else 1
    key = (queries * 2 + above) * n_grades + grades
    sums = np.stack([np.bincount(key, factors[:, h], minlength=n_queries * 2 * n_grades)
                     for h in range(n_grades)], axis=-1).reshape(n_queries, 2, n_grades, n_grades)
    g, h = np.tril_indices(n_grades, k=-1)
    forward = sums[:, 1, g, h] * sums[:, 0, h, g]
    backward = sums[:, 0, g, h] * sums[:, 1, h, g]
    return float(np.sum(distance_table[g, h] * (forward - backward))), float(np.sum(forward + backward))


def feature_entries(order: np.ndarray, sorted_codes: np.ndarray) -> FeatureEntries:
    """:class:`~rankviz.binning.FeatureEntries` outside each feature's most frequent bin (the lowest of equally
    frequent ones), from each feature's documents in code order and their codes (features x documents)."""
    n_features, n_documents = sorted_codes.shape
    default = np.empty(n_features, dtype=np.int32)
    for k in range(n_features):
        default[k] = np.argmax(np.bincount(sorted_codes[k])) if n_documents else 0
    kept = sorted_codes != default[:, None]
    ptr = np.r_[0, np.cumsum(kept.sum(axis=1))].astype(np.intp)
    return FeatureEntries(ptr, np.ascontiguousarray(order[kept], dtype=np.uint32),
                          np.ascontiguousarray(sorted_codes[kept], dtype=np.int32), default, n_documents)


def entries_by_query(entries: FeatureEntries, queries: np.ndarray, n_queries: int) -> FeatureEntries:
    """``entries`` with each feature's regrouped by query, then code, then document (the compiled search's order).

    A query's entries are then read together, its documents' data from one
    stretch of memory (files list a query's documents together).
    """
    docs, codes = np.empty_like(entries.docs), np.empty_like(entries.codes)
    KERNELS.load().entries_by_query(entries.ptr, entries.docs, entries.codes, queries, n_queries, docs, codes)
    return entries._replace(docs=docs, codes=codes)


def query_spreads(grades: np.ndarray, queries: np.ndarray, distance_table: np.ndarray, n_queries: int) -> np.ndarray:
    """``1 / d_q`` per query, ``d_q`` the largest distance of its pairs (0 for a query without pairs)."""
    n_grades = distance_table.shape[0]
    present = np.zeros((n_queries, n_grades), dtype=bool)
    present[queries, grades] = True
    largest = np.zeros(n_queries)
    for g in range(n_grades):
        for h in range(g):
            both = present[:, g] & present[:, h]
            largest[both] = np.maximum(largest[both], distance_table[g, h])
    inverse = np.zeros(n_queries)
    np.divide(1.0, largest, out=inverse, where=largest > 0)
    return inverse


class PairLayout:
    """Preference pairs and the fixed structures the search reuses each round.

    Parameters
    ----------
    first, second : ndarray of int
        Document indices of each pair; ``first`` is the more relevant one.
        Every two documents of one query with different grades, once
        (:func:`rankviz.ltr.mpboost.preference_pairs`): the search sums a
        document's pairs through its query's grades.
    distance : ndarray of float
        ``dist(r_first, r_second) > 0`` per pair; it must depend on the two
        grades only (every directed distance function does).
    bins : FeatureBins
    grades : ndarray of int, shape (n_documents,)
        Grade codes ``0..G-1`` in increasing order of relevance.
    queries : ndarray of int, shape (n_documents,)
        Query codes ``0..Q-1``; pairs join documents of one query.
    engine : {"auto", "compiled", "numpy"}, default="auto"
        Who computes the weights and sums of the fit: the compiled kernels,
        NumPy (:mod:`rankviz.ltr.stump_numpy`; the same sums up to rounding),
        or "auto": the kernels when they are built, else NumPy while they
        build in the background (:meth:`rankviz.jit.LazyKernels.request`).
        Chosen once, here, so that a fit does not change engines midway.
    distance_table : ndarray of shape (n_grades, n_grades), optional
        ``dist`` of grades ``g > h`` at ``[g, h]``. Given, the pairs need
        only be those of the queries visited pair by pair (not
        :func:`walked_queries`): memory linear in the documents however
        large a query is. Such a layout needs the compiled kernels (the
        NumPy engine visits every pair) and has no :meth:`pair_weights`.

    Raises
    ------
    ValueError
        If a pair joins two queries, the pairs are not every two documents
        of one query (of those visited pair by pair, with ``distance_table``)
        with different grades, or two pairs with the same grades have
        different distances.
    """

    def __init__(self, first: ArrayLike, second: ArrayLike, distance: ArrayLike, bins: FeatureBins,
                 *, grades: ArrayLike, queries: ArrayLike, engine: str = "auto",
                 distance_table: ArrayLike | None = None) -> None:
        if engine not in ENGINES:
            raise ValueError(f"engine must be one of {', '.join(ENGINES)}, got {engine!r}")
        self.first = np.asarray(first, dtype=np.intp)
        self.second = np.asarray(second, dtype=np.intp)
        self.distance = np.asarray(distance, dtype=float)
        self.bins = bins
        self.grades = np.asarray(grades, dtype=np.intp)
        self.queries = np.asarray(queries, dtype=np.intp)
        n_documents, n_features = bins.n_documents, len(bins.thresholds)
        self.n_documents, self.n_features = n_documents, n_features
        self.width = int(bins.n_bins.max()) if n_features else 1
        self.n_grades = int(self.grades.max()) + 1 if n_documents else 1
        self.n_queries = int(self.queries.max()) + 1 if n_documents else 1
        if np.any(self.queries[self.first] != self.queries[self.second]):
            raise ValueError("every pair must join two documents of one query.")
        self.pair_counts = query_pair_counts(self.grades, self.queries, self.n_queries, self.n_grades)
        self.sizes = np.bincount(self.queries, minlength=self.n_queries)
        self.walked = walked_queries(self.pair_counts, self.sizes, self.n_grades)
        #: whether every pair is held (else those of the walked queries are not)
        self.complete = distance_table is None or not self.walked.any()
        self._check_pairs_complete()
        # distance_table[g, h]: the distance of a pair of grades g > h
        pair_grades = (self.grades[self.first], self.grades[self.second])
        if distance_table is None:
            self.distance_table = np.zeros((self.n_grades, self.n_grades))
            self.distance_table[pair_grades] = self.distance
        else:
            self.distance_table = np.array(distance_table, dtype=float)
            if self.distance_table.shape != (self.n_grades, self.n_grades):
                raise ValueError(f"distance_table must be {self.n_grades} x {self.n_grades} (one row and column "
                                 f"per grade); got {self.distance_table.shape}.")
        if not np.allclose(self.distance_table[pair_grades], self.distance, rtol=1e-12, atol=0.0):
            raise ValueError("the distance of a pair must depend on its two grades only.")
        #: whether the features are held as entries only (SparseFeatureBins): no dense table of codes
        self.sparse = isinstance(bins, SparseFeatureBins)
        if self.sparse:
            # searched from the entries alone (StumpSearch): none of the dense structures below
            self.order = self.sorted_codes = self.local_order = np.empty((0, 0), dtype=np.uint32)
            self.small_queries: tuple[np.ndarray, ...] = ()
            self.large_starts = np.zeros(1, dtype=np.intp)
        else:
            # Each feature's documents in the order of their bin codes (stable:
            # ties in the order of the rows), and the codes in that order.
            codes = bins.codes
            order = np.argsort(codes, axis=0, kind="stable")
            self.order = np.ascontiguousarray(order.T, dtype=np.uint32)
            self.sorted_codes = np.ascontiguousarray(np.take_along_axis(codes, order, axis=0).T, dtype=np.uint32)
            self.small_queries, self.local_order, self.large_starts = self._query_layout()
        #: whether the compiled kernels serve this layout's fit
        self.compiled = engine == "compiled" or (engine == "auto" and KERNELS.request())
        if not self.compiled and (not self.complete or self.sparse):
            if engine == "numpy" or compile_mode() == "never":
                held = "of sparse features" if self.sparse else "without the pairs of its largest queries"
                raise ValueError(f"a search {held} needs the compiled kernels (the NumPy engine visits every pair "
                                 "of a dense table); compiling is off.")
            self.compiled = True  # the kernels are built now, in this thread (about 12 s of CPU once)

    def _check_pairs_complete(self):
        """Raise unless the pairs are every two documents of one query with different grades, more relevant first."""
        expected = self.pair_counts if self.complete else np.where(self.walked, 0, self.pair_counts)
        found = np.bincount(self.queries[self.first], minlength=self.n_queries)
        keys = self.first * max(self.n_documents, 1) + self.second
        if (np.any(self.grades[self.first] <= self.grades[self.second]) or not np.array_equal(found, expected)
                or np.unique(keys).size != keys.size):
            held = "" if self.complete else " (of the queries visited pair by pair: not walked_queries)"
            raise ValueError(f"the pairs must be every two documents of one query{held} with different grades, "
                             "once each and the more relevant first (as preference_pairs gives them).")

    def _query_layout(self):
        """How the kernels reach each query (see :mod:`rankviz.ltr.stump_sweep`).

        A small query's pairs are visited one by one; a large query's
        documents are walked in each feature's order. Returns

        * for the small queries: their documents in row order, query by
          query; where each query starts there; their pairs as the later and
          the earlier of the two documents' positions in their query's part,
          sorted by query and then by the later position;
          where each query's pairs start;
        * ``local_order[k]``: the large queries' documents, query by query,
          each query's in feature ``k``'s order, and where each query starts.
        """
        sizes, pairs, large = self.sizes, self.pair_counts, self.walked
        by_query = np.argsort(self.queries, kind="stable")
        small_docs = by_query[~large[self.queries[by_query]]]
        small_starts = np.r_[0, np.cumsum(sizes[~large])]
        position = np.zeros(self.n_documents, dtype=np.intp)
        position[small_docs] = np.arange(small_docs.size) - np.repeat(small_starts[:-1], sizes[~large])
        pair_query = self.queries[self.first]
        in_small = ~large[pair_query]
        small_pairs = np.flatnonzero(in_small)
        ends = position[self.first[small_pairs]], position[self.second[small_pairs]]
        later, earlier = np.maximum(*ends), np.minimum(*ends)
        # by query, then by the later document: the kernel takes the pairs
        # of one later document together
        by_later = np.lexsort((earlier, later, pair_query[small_pairs]))
        small = (small_docs.astype(np.uint32), small_starts.astype(np.intp), later[by_later].astype(np.uint32),
                 earlier[by_later].astype(np.uint32), np.r_[0, np.cumsum(pairs[~large])].astype(np.intp))
        is_large_document = large[self.queries]
        local = self.order[is_large_document[self.order]].reshape(self.n_features, int(is_large_document.sum()))
        local_order = np.take_along_axis(local, np.argsort(self.queries[local], axis=1, kind="stable"), axis=1)
        large_starts = np.r_[0, np.cumsum(sizes[large])].astype(np.intp)
        return small, np.ascontiguousarray(local_order, dtype=np.uint32), large_starts

    def pair_weights(self, scores: np.ndarray) -> tuple[np.ndarray, float]:
        """The pair weights of Algorithm 1 (step 6) for training scores ``F``, per pair, the largest rescaled to 1.

        Returns ``exp(-dist_ij (F_i - F_j) - M)`` and ``M``, the largest log
        weight (the scale, which the ratios of a round do not depend on).
        The definition, pair by pair; the fit holds the same weights per
        document (:meth:`round_weights`).
        """
        if not self.complete:
            raise ValueError("this layout does not hold the pairs of its walked queries: no weight per pair.")
        log_weights = -self.distance * (scores[self.first] - scores[self.second])
        top = float(log_weights.max()) if log_weights.size else 0.0
        return np.exp(log_weights - top), top

    def round_weights(self, scores: ArrayLike) -> RoundWeights:
        """The pair weights of Algorithm 1 for training scores ``F``, held per document.

        The same weights as :meth:`pair_weights` (up to rounding), with no
        loop over the pairs. A weight is a product of two factors: with ``a``
        the lowest score of grade ``g`` in the query and ``M`` the largest
        log weight, a pair ``(i, j)`` with grades ``g > h`` has::

            exp(-dist_ij (F_i - F_j) - M) == factors[i, h] * factors[j, g]
            factors[i, h] = exp(-d (F_i - a)),  factors[j, g] = exp(d (F_j - a) - M)

        ``d (F_j - a)`` is the log weight of a pair of the query, so both
        factors are at most 1 and nothing overflows, however far the scores
        move. ``factors[m, g_m]`` is 0, as is ``factors[m, h]`` for a grade
        ``h`` the query lacks. The sums over a document's pairs are then sums
        over its query's grades.
        """
        scores = np.asarray(scores, dtype=float)
        if not self.compiled:
            factors, weight, p, scale, total = stump_numpy.pair_statistics(scores, self.grades, self.queries,
                                                                           self.distance_table, self.n_queries)
            return RoundWeights(factors, weight, p, scale, total)
        factors = np.empty((self.n_documents, self.n_grades))
        weight, p = np.empty(self.n_documents), np.empty(self.n_documents)
        lowest, highest = np.empty((2, self.n_queries, self.n_grades))
        grade_sums = np.empty((self.n_queries, self.n_grades, self.n_grades))
        scale, total = KERNELS.load().pair_statistics(scores, self.grades, self.queries, self.distance_table,
                                                      lowest, highest, grade_sums, factors, weight, p)
        return RoundWeights(factors, weight, p, float(scale), float(total))

    def split_sums(self, weights: RoundWeights, above: np.ndarray) -> tuple[float, float]:
        """``S1`` and ``S2`` of a stump with the weights of ``weights``: pair by pair, or per grade (incomplete layout).

        ``above`` (bool, one per document) marks the documents above the
        stump's threshold, ``bins.codes[:, feature] > bin``. As
        :func:`stump_sums`.
        """
        above = np.asarray(above, dtype=bool)
        if not self.complete:
            return factored_split_sums(above, self.grades, self.queries, self.distance_table, weights.factors)
        kernels = KERNELS.load() if self.compiled else stump_numpy
        return kernels.split_sums(above, self.first, self.second, self.distance, self.grades, weights.factors)


class StumpSearch:
    """Score every (feature, threshold) stump for the pair weights of given scores.

    The weight of pair ``(i, j)`` is ``exp(-dist_ij (F_i - F_j))`` (rescaled
    so the largest is 1), as in round ``t`` of Algorithm 1 with ``F`` the sum
    of the stumps so far.

    Parameters
    ----------
    layout : PairLayout
    n_jobs : int or None, default=1
        Threads sweeping features at once (the compiled sweep releases the
        GIL); -1 for one per CPU.
    grouped : bool or None, default=None
        Whether a search from entries (below) reads each feature's entries
        grouped by query rather than in code order; None: on 100,000
        documents or more, where it is faster.

    Notes
    -----
    With the compiled kernels and one thread, when at least half of all
    values lie in their feature's most frequent bin (the zeros of LETOR
    data), and always for sparse features (:class:`SparseFeatureBins`, one
    thread whatever ``n_jobs``), :meth:`best` scores each feature from its other documents alone
    (:func:`feature_entries`, ``O(grades)`` each) and first bounds every
    feature's best gain from ``S1`` alone (``O(1)`` each): a query's split
    pairs weigh at least ``|S1_q| / d_q``, ``d_q`` its largest distance, so
    ``S1^2 / S2 <= S1^2 / sum_q |S1_q| / d_q``. Features are then searched in
    the order of their bounds until a bound falls below the best gain found
    (less twice the tie margin): those left could not be chosen. The stump
    is the one the full search chooses.

    On many documents those entries are read grouped by query, the documents
    numbered query by query (:func:`entries_by_query`): a query's data are
    then read from one stretch of memory, not at random per entry.
    """

    def __init__(self, layout: PairLayout, n_jobs: int = 1, grouped: bool | None = None) -> None:
        self.layout = layout
        self.n_jobs = check_n_jobs(n_jobs)
        #: each feature's entries, when the search reads them: grouped by query (:func:`entries_by_query`) on
        #: ``_GROUPED_DOCUMENTS`` documents or more, else in code order
        self.entries: FeatureEntries | None = None
        entries = None
        if layout.sparse:
            bins = layout.bins
            assert isinstance(bins, SparseFeatureBins)
            entries = bins.entries
        elif layout.compiled and self.n_jobs == 1 and layout.n_features:
            entries = feature_entries(layout.order, layout.sorted_codes)
            entries = entries if entries.share >= _SPARSE_SHARE else None
        grouped = layout.n_documents >= _GROUPED_DOCUMENTS if grouped is None else grouped
        self._grouped = entries is not None and grouped
        if entries is not None:
            self._inverse_spread = query_spreads(layout.grades, layout.queries, layout.distance_table,
                                                 layout.n_queries)
        if entries is not None and self._grouped:
            self._group_entries(entries)
        elif entries is not None:
            self.entries = entries
            # the per-grade state and S1 of every query at once
            self._state = np.zeros((layout.n_queries * layout.n_grades, layout.n_grades))
            self._query_s1 = np.zeros(layout.n_queries)
        n = max(layout.n_documents, 1)
        self.block = int(np.clip(_BLOCK_BYTES // (8 * n), 16, 512)) // 8 * 8
        # work arrays of each thread: a small query's rows, a large one's
        # per-grade state, and the split weights V of a block of features
        largest_small_query = 0 if layout.sparse else int(np.diff(layout.small_queries[1]).max(initial=0))
        self._work = [] if layout.sparse else [(np.empty((largest_small_query, self.block)),
                                                np.empty((layout.n_grades, layout.n_grades)),
                                                np.empty((self.block, layout.n_documents)))
                                               for _ in range(self.n_jobs)]

    def _group_entries(self, entries: FeatureEntries) -> None:
        """Entries grouped by query, the documents numbered query by query (the grouped kernels' input)."""
        layout = self.layout
        queries = layout.queries
        # The kernels read a query's documents as one stretch: number them query by query (files list them so,
        # and then the numbers stay); the round's per-document arrays are then read in that order.
        self._doc_order = None if np.all(queries[1:] >= queries[:-1]) else np.argsort(queries, kind="stable")
        if self._doc_order is not None:
            number = np.empty(queries.size, dtype=np.uint32)
            number[self._doc_order] = np.arange(queries.size, dtype=np.uint32)
            entries = entries._replace(docs=number[entries.docs])
        self._query_of = queries if self._doc_order is None else queries[self._doc_order]
        self._grades = layout.grades if self._doc_order is None else layout.grades[self._doc_order]
        self._query_end = np.cumsum(np.bincount(self._query_of, minlength=layout.n_queries)).astype(np.intp)
        self.entries = entries_by_query(entries, self._query_of, layout.n_queries)
        # a query's per-grade state, and the sums per bin of the features walked together (p, S2 or bound, count)
        batch = _WALK_BATCH if layout.n_documents >= _BATCH_DOCUMENTS else 1
        self._walk_batch = max(min(batch, layout.n_features), 1)
        self._local = np.zeros((layout.n_grades, layout.n_grades))
        n_bins = np.sort(layout.bins.n_bins)[::-1]
        rows = max(min(int(n_bins[:self._walk_batch].sum()), _WALK_BINS), int(n_bins[0]) if n_bins.size else 1)
        self._bins = np.zeros((rows, 3))

    def _sweep_inputs(self, scores, weights):
        """The kernels' inputs for these scores: the layout, the factors, ``W``, ``p`` and the gain floor."""
        layout = self.layout
        if weights is None:
            weights = layout.round_weights(scores)
        factors, weight, p = weights.factors, weights.weight, weights.p
        # Where no pair is split S1 and S2 are 0 up to rounding; a floor well
        # above that keeps their ratio ~0.
        floor = 1e-6 * weights.total
        return (layout.order, layout.sorted_codes, layout.bins.codes, layout.small_queries, layout.local_order,
                layout.large_starts, layout.grades, factors, weight, p, floor)

    def sums(self, scores: np.ndarray, weights: RoundWeights | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``S1`` and ``S2`` of every stump, shape (n_features, width).

        Entry ``[k, b]`` is the stump ``x_k > thresholds[k][b]``; entries past
        a feature's last threshold are 0. ``weights`` is what
        :meth:`PairLayout.round_weights` returns for ``scores``, when the
        caller has it already.
        """
        layout = self.layout
        if layout.sparse:
            raise ValueError("the table of every stump's sums needs a dense feature table; the search of sparse "
                             "features (SparseFeatureBins) computes their gains only.")
        if not layout.compiled:
            weights = layout.round_weights(scores) if weights is None else weights
            w = stump_numpy.pair_weights(layout.first, layout.second, layout.grades, weights.factors)
            return stump_numpy.stump_sums_table(layout.bins.codes, layout.width, layout.first, layout.second, w,
                                                weights.p)
        s1 = np.zeros((layout.n_features, layout.width))
        s2 = np.zeros((layout.n_features, layout.width))
        KERNELS.load().stump_tables(self.block, *self._sweep_inputs(scores, weights), *self._work[0], s1, s2)
        return s1, s2

    def best(self, scores: np.ndarray, weights: RoundWeights | None = None) -> tuple[int, int, float]:
        """The stump with the largest loss reduction ``S1^2 / S2``.

        ``weights`` as for :meth:`sums`.

        Returns
        -------
        feature, bin : int
            The stump is ``x_feature > thresholds[feature][bin]``. Gains
            within rounding of the largest are ties, won by the lowest
            feature and then the lowest threshold, so the choice does not
            depend on the order of the rows. ``(-1, -1)`` when no
            threshold separates a pair.
        gain : float
            ``S1^2 / S2`` of that stump, relative to the largest pair weight.
        """
        if not self.layout.compiled:
            return self._best_with_numpy(scores, weights)
        if self.entries is not None:
            return self._best_from_entries(scores, weights)
        inputs = self._sweep_inputs(scores, weights)
        kernels = KERNELS.load()
        n_features = self.layout.n_features
        tops = np.zeros(n_features)
        bounds = np.linspace(0, n_features, min(self.n_jobs, max(n_features, 1)) + 1).astype(int)
        if len(bounds) > 2:
            with ThreadPoolExecutor(len(bounds) - 1) as pool:
                list(pool.map(lambda j: kernels.feature_tops(bounds[j], bounds[j + 1], self.block, *inputs,
                                                             *self._work[j], tops), range(len(bounds) - 1)))
        else:
            kernels.feature_tops(0, n_features, self.block, *inputs, *self._work[0], tops)
        top = tops.max(initial=0.0)
        if not top > 0.0:
            return -1, -1, 0.0
        threshold = top - _GAIN_TIE * top
        feature = int(np.argmax(tops >= threshold))
        # the split weights of the last block each thread searched are still
        # in its work array: the winner's first bin needs no new pass over the pairs
        j = int(np.searchsorted(bounds, feature, side="right")) - 1
        last_block = bounds[j] + (bounds[j + 1] - 1 - bounds[j]) // self.block * self.block
        row = feature - last_block if feature >= last_block else -1
        _, bin_, gain = kernels.scan_feature(feature, threshold, int(row), *inputs, *self._work[j if row >= 0 else 0])
        return feature, int(bin_), float(gain)

    def _best_from_entries(self, scores, weights):
        """:meth:`best` from each feature's documents outside its most frequent bin, features pruned by bounds."""
        layout = self.layout
        weights = layout.round_weights(scores) if weights is None else weights
        floor = 1e-6 * weights.total  # as _sweep_inputs
        bound_kernel, walk_kernel, feature_kernel, bound, walk = self._entry_kernels(weights, floor)
        bounds = np.empty(layout.n_features)
        bound_kernel(*bound, bounds)
        tops = np.zeros(layout.n_features)
        by_bound = np.argsort(-bounds, kind="stable")
        batch = (self._walk_batch,) if self._grouped else ()
        walk_kernel(by_bound, bounds, 2.0 * _GAIN_TIE, *batch, *walk, tops)
        top = tops.max(initial=0.0)
        if not top > 0.0:
            return -1, -1, 0.0
        threshold = top - _GAIN_TIE * top
        feature = int(np.argmax(tops >= threshold))
        gains = np.zeros(max(int(layout.bins.n_bins[feature]) - 1, 1))
        feature_kernel(feature, *walk, gains, True)
        bin_ = int(np.argmax(gains >= threshold))
        return feature, bin_, float(gains[bin_])

    def _entry_kernels(self, weights: RoundWeights, floor: float) -> tuple:
        """The kernels that bound, walk in bound order and search one feature, with their arguments (bound, walk)."""
        layout, entries = self.layout, self.entries
        assert entries is not None
        kernels = KERNELS.load()
        if self._grouped:
            grouped = (entries.ptr, entries.docs, entries.codes, entries.default_bin, layout.bins.n_bins,
                       self._query_of, self._query_end, self._grades, *self._numbered(weights),
                       self._inverse_spread, self._local, self._bins, floor)
            return kernels.grouped_bounds, kernels.grouped_tops, kernels.grouped_feature, grouped, grouped
        shared = (entries.ptr, entries.docs, entries.codes, entries.default_bin, layout.queries)
        bound = (*shared, weights.p, self._inverse_spread, self._query_s1, floor)
        walk = (*shared, layout.grades, weights.factors, weights.weight, weights.p, self._state, floor)
        return kernels.sparse_bounds, kernels.sparse_tops, kernels.sparse_feature, bound, walk

    def _numbered(self, weights: RoundWeights) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The round's factors, pair weights and ``p`` per document, in the search's numbering of the documents."""
        arrays = (weights.factors, weights.weight, weights.p)
        return arrays if self._doc_order is None else tuple(a[self._doc_order] for a in arrays)  # type: ignore

    def _best_with_numpy(self, scores, weights):
        """:meth:`best` with :mod:`rankviz.ltr.stump_numpy`: the same choice of the gains it computes."""
        layout = self.layout
        weights = layout.round_weights(scores) if weights is None else weights
        w = stump_numpy.pair_weights(layout.first, layout.second, layout.grades, weights.factors)
        floor = 1e-6 * weights.total  # as _sweep_inputs
        gains = [stump_numpy.feature_gains(layout.bins.codes[:, k], layout.width, layout.first, layout.second, w,
                                           weights.p, floor) for k in range(layout.n_features)]
        tops = np.array([gain.max(initial=0.0) for _, gain in gains])
        top = tops.max(initial=0.0)
        if not top > 0.0:
            return -1, -1, 0.0
        threshold = top - _GAIN_TIE * top
        feature = int(np.argmax(tops >= threshold))
        bins, gain = gains[feature]
        pick = int(np.argmax(gain >= threshold))
        return feature, int(bins[pick]), float(gain[pick])


def stump_sums(codes_column: np.ndarray, bin_: int, first: np.ndarray, second: np.ndarray,
               distance: np.ndarray, weights: np.ndarray) -> tuple[float, float]:
    """Exact ``S1`` and ``S2`` of one stump, straight from the pairs and their weights.

    The definition (the appendix's ``A1`` and ``B2``); a fit sums the chosen
    stump's pairs with the factored weights instead
    (:meth:`PairLayout.split_sums`).
    """
    above = codes_column > bin_
    first_above, second_above = above[first], above[second]
    forward = first_above & ~second_above     # A1 of the appendix
    backward = ~first_above & second_above    # B2
    wd = weights * distance
    s1 = wd[forward].sum() - wd[backward].sum()
    s2 = weights[forward].sum() + weights[backward].sum()
    return float(s1), float(s2)


def warm_up() -> float:
    """Compile the stump sweep (or load it from Numba's on-disk cache); returns the seconds taken.

    ``rankviz warm-up`` (which ``make run`` calls before starting the app)
    and the background build of :data:`KERNELS` call this (about 12 s of
    CPU with an empty cache).
    """
    import time

    start = time.perf_counter()
    X = np.array([[0.0], [1.0], [2.0], [3.0]])
    grades = np.array([0, 1, 0, 1])
    first, second = np.array([1, 3]), np.array([0, 2])
    layout = PairLayout(first, second, np.ones(2), FeatureBins(X), grades=grades, queries=np.array([0, 0, 1, 1]),
                        engine="compiled")
    search = StumpSearch(layout)
    weights = layout.round_weights(np.zeros(4))
    search.best(np.zeros(4), weights)
    search.sums(np.zeros(4), weights)
    sparse = PairLayout(first, second, np.ones(2), FeatureBins(np.array([[0.0], [0.0], [0.0], [1.0]])),
                        grades=grades, queries=np.array([0, 0, 1, 1]), engine="compiled")
    # not the grouped kernels: only fits of 100,000 documents or more read them, and compile them at their
    # first call (about 3 s of CPU, against seconds of set-up for such a fit)
    StumpSearch(sparse, grouped=False).best(np.zeros(4), sparse.round_weights(np.zeros(4)))
    layout.split_sums(weights, X[:, 0] > 1.5)
    return time.perf_counter() - start
