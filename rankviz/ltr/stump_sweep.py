"""Compiled (Numba) kernels of MPBoost's stump search: every threshold of a block of features.

All of MPBoost's compiled code is in this one module: Numba's on-disk cache
checks only the file that defines a function, so a kernel calling into
another module could run stale code after that module changed.

The arithmetic is explained in :mod:`rankviz.ltr.stump_search`. A block of
features is searched in two passes:

1. **Split weights.** For every document ``m`` and feature ``k`` of the
   block, ``V[k, m] = W_m - 2 below_k(m)``, where ``below_k(m)`` is the
   weight of ``m``'s pairs with the documents of its query that come before
   it in feature ``k``'s order (a smaller bin code, or the same code and an
   earlier row). Moving ``m`` below a threshold changes ``S2`` by exactly
   ``V[k, m]``. Two ways, chosen per query by its size:

   * a *small* query visits each of its pairs once and compares the two
     documents' codes in every feature of the block at once, a loop the
     compiler vectorises (``O(pairs x features)``, but a handful of
     instructions per pair and eight features);
   * a *large* query walks each feature's documents in code order with the
     per-grade state ``T[h, g]`` (the sum of ``factors[j, g]`` over the
     documents ``j`` of grade ``h`` already passed), so that ``below_k(m) =
     sum_h factors[m, h] T[h, g_m]``: ``O(documents x grades)`` per
     feature, whatever the number of pairs.

2. **Scan.** Each feature's documents in the order of their codes, keeping
   ``S1`` (the sum of ``p`` above) and ``S2`` (the sum of ``V`` below) as
   running sums and scoring every threshold between two codes. Two features
   are scanned in one loop: each step is a handful of loads and adds whose
   running sums would otherwise wait on one another.

Indices into the per-document arrays are unsigned on purpose: Numba adds a
wrap-around check for negative values to every access with a signed index,
which in loops of a few loads and adds costs a third of the time.
"""

from __future__ import annotations

import numpy as np

from ..numba_cache import configure as configure_numba_cache

configure_numba_cache()  # before Numba's first import: it reads its cache folder then (rankviz.numba_cache)

import numba  # noqa: E402 -- after the cache folder is set

__all__ = ["document_factors", "entries_by_query", "feature_tops", "grouped_bounds", "grouped_feature", "grouped_tops",
           "pair_statistics", "scan_feature", "score_ranges", "sparse_bounds", "sparse_feature", "sparse_tops",
           "split_sums", "stump_tables"]


@numba.njit(cache=True, nogil=True)
def document_factors(scores: np.ndarray, top: float, grades: np.ndarray, queries: np.ndarray,
                     distance_table: np.ndarray, lowest: np.ndarray, factors: np.ndarray) -> None:
    """Fill ``factors`` (documents x grades) as :class:`rankviz.ltr.stump_search.RoundWeights` describes.

    ``lowest`` holds the lowest score of each grade in each query (queries
    x grades), infinite where the query lacks the grade.
    """
    n_grades = np.uint64(factors.shape[1])
    for m in range(np.uint64(scores.size)):
        q, g, score = np.uint64(queries[m]), np.uint64(grades[m]), scores[m]
        for h in range(n_grades):
            if not np.isfinite(lowest[q, h]) or h == g:
                factors[m, h] = 0.0   # no pair: m's own grade, or a grade absent from the query
            elif h < g:   # m is the more relevant document of the pair
                factors[m, h] = np.exp(-distance_table[g, h] * (score - lowest[q, g]))
            else:         # m is the less relevant one
                factors[m, h] = np.exp(min(distance_table[h, g] * (score - lowest[q, h]) - top, 0.0))


@numba.njit(cache=True, nogil=True)
def score_ranges(scores: np.ndarray, grades: np.ndarray, queries: np.ndarray, lowest: np.ndarray,
                 highest: np.ndarray) -> None:
    """The lowest and highest score of each grade in each query (``inf`` and ``-inf`` where it has none)."""
    lowest[:, :] = np.inf
    highest[:, :] = -np.inf
    for m in range(scores.size):
        q, g = queries[m], grades[m]
        lowest[q, g] = min(lowest[q, g], scores[m])
        highest[q, g] = max(highest[q, g], scores[m])


@numba.njit(cache=True, nogil=True)
def pair_statistics(scores: np.ndarray, grades: np.ndarray, queries: np.ndarray, distance_table: np.ndarray,
                    lowest: np.ndarray, highest: np.ndarray, grade_sums: np.ndarray, factors: np.ndarray,
                    weight: np.ndarray, p: np.ndarray) -> tuple:
    """A round's pair weights, per document, with no loop over the pairs.

    The pairs are every two documents of one query with different grades,
    and a pair's weight is the product of two factors (:func:`document_factors`),
    so every sum over a document's partners goes through the per-query sums
    ``grade_sums[q, h, g]`` of ``factors[j, g]`` over the documents ``j`` of
    grade ``h``: ``O(documents x grades + queries x grades^2)`` however many
    pairs there are. Fills

    * ``factors``;
    * ``weight``: ``W_m``, the weight of document ``m``'s pairs;
    * ``p``: ``p_m``, their weights x distances as the more relevant
      document, less those as the less relevant one;

    and returns the scale ``M`` (the largest log weight ``-dist_ij (F_i -
    F_j)``, 0 without pairs) and the sum of the rescaled weights.
    ``lowest``, ``highest`` (queries x grades) and ``grade_sums`` (queries x
    grades x grades) are work arrays.
    """
    n_queries, n_grades = lowest.shape
    score_ranges(scores, grades, queries, lowest, highest)
    # the largest log weight of a query's pairs of grades g > h joins the
    # lowest score of g to the highest of h
    top = -np.inf
    for q in range(n_queries):
        for g in range(n_grades):
            for h in range(g):
                if np.isfinite(lowest[q, g]) and np.isfinite(highest[q, h]):
                    top = max(top, -distance_table[g, h] * (lowest[q, g] - highest[q, h]))
    if top == -np.inf:
        top = 0.0
    document_factors(scores, top, grades, queries, distance_table, lowest, factors)
    grade_sums[:, :, :] = 0.0
    n_documents, n_grades = np.uint64(scores.size), np.uint64(n_grades)
    for m in range(n_documents):
        q, g_m = np.uint64(queries[m]), np.uint64(grades[m])
        for g in range(n_grades):
            grade_sums[q, g_m, g] += factors[m, g]
    total = 0.0
    for m in range(n_documents):
        q, g = np.uint64(queries[m]), np.uint64(grades[m])
        w_sum = wd_sum = 0.0
        for h in range(n_grades):
            if h != g:
                # the weight of m's pairs with the documents of grade h
                w = factors[m, h] * grade_sums[q, h, g]
                w_sum += w
                wd_sum += w * distance_table[g, h] if h < g else -w * distance_table[h, g]
        weight[m] = w_sum
        p[m] = wd_sum
        total += w_sum
    return top, total / 2.0


@numba.njit(cache=True, nogil=True)
def split_sums(above: np.ndarray, first: np.ndarray, second: np.ndarray, distance: np.ndarray,
               grades: np.ndarray, factors: np.ndarray) -> tuple:
    """``S1`` and ``S2`` of the stump that puts the documents ``above`` above its threshold, pair by pair.

    The weights are the products of ``factors``.
    """
    s1 = s2 = 0.0
    for i in range(first.size):
        a, b = np.uint64(first[i]), np.uint64(second[i])
        # +1 forward (a above, b below), -1 backward, 0 unsplit: no branch,
        # which a random half of the pairs would mispredict
        side = np.float64(above[a]) - np.float64(above[b])
        w = factors[a, grades[b]] * factors[b, grades[a]]
        s2 += w * abs(side)
        s1 += w * distance[i] * side
    return s1, s2


@numba.njit(cache=True, nogil=True, inline="always")
def _better_gain(s1: float, s2: float, floor: float, top: float) -> float:
    """The larger of ``top`` and the gain ``s1^2 / max(s2, floor)``."""
    denominator = max(s2, floor)
    square = s1 * s1
    # compare before dividing: most thresholds beat nothing
    if square > top * denominator:
        return square / denominator
    return top


@numba.njit(cache=True, nogil=True)
def _small_query_weights(docs: np.ndarray, start: int, stop: int, later: np.ndarray, earlier: np.ndarray,
                         pair_start: int, pair_stop: int, codes: np.ndarray, k0: int, width: int,
                         grades: np.ndarray, factors: np.ndarray, weight: np.ndarray, rows: np.ndarray,
                         split: np.ndarray) -> None:
    """``split[:width, m]`` for the documents ``docs[start:stop]`` of one query, pair by pair.

    ``docs`` lists each query's documents in row order; the query's pairs are
    ``later[i], earlier[i]`` for ``i`` in ``pair_start..pair_stop-1``, as
    positions in its part of ``docs`` (``later > earlier``), sorted by
    ``later``. Of two tied codes the earlier row comes first, as in the
    features' stable order.

    Pairs that share their later document go four at a time: its codes and
    its row of ``rows`` are then read once for four pairs, not four times
    (0.90 against 1.15 ms for the 13,577 pairs x 300 features of
    ``benchmarks/bench_mpboost.py``). A run's last two go together too
    (pass 1 about 0.04 ms faster there); the last one alone.
    """
    size = np.uint64(stop - start)
    first = np.uint64(k0)
    features = np.uint64(width)
    for a in range(size):
        for kk in range(features):
            rows[a, kk] = 0.0
    i = pair_start
    while i < pair_stop:
        a = np.uint64(later[i])
        m = np.uint64(docs[start + a])
        g_m = grades[m]
        if i + 3 < pair_stop and later[i + 3] == later[i]:
            b0, b1, b2, b3 = (np.uint64(earlier[i]), np.uint64(earlier[i + 1]), np.uint64(earlier[i + 2]),
                              np.uint64(earlier[i + 3]))
            j0, j1, j2, j3 = (np.uint64(docs[start + b0]), np.uint64(docs[start + b1]),
                              np.uint64(docs[start + b2]), np.uint64(docs[start + b3]))
            w0, w1 = factors[m, grades[j0]] * factors[j0, g_m], factors[m, grades[j1]] * factors[j1, g_m]
            w2, w3 = factors[m, grades[j2]] * factors[j2, g_m], factors[m, grades[j3]] * factors[j3, g_m]
            for kk in range(features):
                code = codes[m, first + kk]
                part0 = w0 if codes[j0, first + kk] <= code else 0.0
                part1 = w1 if codes[j1, first + kk] <= code else 0.0
                part2 = w2 if codes[j2, first + kk] <= code else 0.0
                part3 = w3 if codes[j3, first + kk] <= code else 0.0
                rows[a, kk] += (part0 + part1) + (part2 + part3)
                rows[b0, kk] += w0 - part0
                rows[b1, kk] += w1 - part1
                rows[b2, kk] += w2 - part2
                rows[b3, kk] += w3 - part3
            i += 4
        elif i + 1 < pair_stop and later[i + 1] == later[i]:
            b0, b1 = np.uint64(earlier[i]), np.uint64(earlier[i + 1])
            j0, j1 = np.uint64(docs[start + b0]), np.uint64(docs[start + b1])
            w0, w1 = factors[m, grades[j0]] * factors[j0, g_m], factors[m, grades[j1]] * factors[j1, g_m]
            for kk in range(features):
                code = codes[m, first + kk]
                part0 = w0 if codes[j0, first + kk] <= code else 0.0
                part1 = w1 if codes[j1, first + kk] <= code else 0.0
                rows[a, kk] += part0 + part1
                rows[b0, kk] += w0 - part0
                rows[b1, kk] += w1 - part1
            i += 2
        else:
            b = np.uint64(earlier[i])
            j = np.uint64(docs[start + b])
            w = factors[m, grades[j]] * factors[j, g_m]
            for kk in range(features):
                # j comes before m: the pair weighs on m's "below"; else on j's
                # (a tie may go either way: tied documents share every side)
                part = w if codes[j, first + kk] <= codes[m, first + kk] else 0.0
                rows[a, kk] += part
                rows[b, kk] += w - part
            i += 1
    if size > 0 and np.uint64(docs[start + size - 1]) - np.uint64(docs[start]) == size - 1:
        # the query's documents are consecutive rows (as files list them):
        # a loop the compiler vectorises (0.36 against 0.55 ms there)
        m0 = np.uint64(docs[start])
        for kk in range(features):
            for a in range(size):
                split[kk, m0 + a] = weight[m0 + a] - 2.0 * rows[a, kk]
    else:
        for kk in range(features):
            for a in range(size):
                m = np.uint64(docs[start + a])
                split[kk, m] = weight[m] - 2.0 * rows[a, kk]


@numba.njit(cache=True, nogil=True)
def _large_query_weights(local_order: np.ndarray, start: int, stop: int, k0: int, width: int,
                         grades: np.ndarray, factors: np.ndarray, weight: np.ndarray, state: np.ndarray,
                         split: np.ndarray) -> None:
    """``split[:width, m]`` for one query, walking each feature's documents in code order.

    ``local_order[k, start:stop]`` are the query's documents in feature ``k``'s
    order; ``state`` is a ``grades x grades`` work array.
    """
    n_grades = factors.shape[1]
    for kk in range(width):
        for h in range(n_grades):
            for g in range(n_grades):
                state[h, g] = 0.0
        for i in range(start, stop):
            m = np.uint64(local_order[k0 + kk, i])
            g_m = grades[m]
            below = 0.0
            for h in range(n_grades):
                factor = factors[m, h]
                below += factor * state[h, g_m]
                state[g_m, h] += factor
            split[kk, m] = weight[m] - 2.0 * below


@numba.njit(cache=True, nogil=True)
def _split_weights(k0: int, width: int, codes: np.ndarray, small: tuple, local_order: np.ndarray,
                   large_starts: np.ndarray, grades: np.ndarray, factors: np.ndarray, weight: np.ndarray,
                   rows: np.ndarray, state: np.ndarray, split: np.ndarray) -> None:
    """``split[kk, m] = V[k0 + kk, m]`` for the features ``k0..k0+width-1`` (pass 1).

    ``small`` holds the small queries: their documents, where each query's
    start, their pairs (later and earlier positions) and where each query's
    pairs start.
    """
    docs, starts, later, earlier, pair_starts = small
    for q in range(starts.size - 1):
        _small_query_weights(docs, starts[q], starts[q + 1], later, earlier, pair_starts[q], pair_starts[q + 1],
                             codes, k0, width, grades, factors, weight, rows, split)
    for q in range(large_starts.size - 1):
        _large_query_weights(local_order, large_starts[q], large_starts[q + 1], k0, width, grades, factors,
                             weight, state, split)


@numba.njit(cache=True, nogil=True)
def _scan_two(k: int, kk: int, order: np.ndarray, sorted_codes: np.ndarray, p: np.ndarray, split: np.ndarray,
              floor: float) -> tuple:
    """The largest gains of features ``k`` and ``k + 1`` (rows ``kk``, ``kk + 1`` of ``split``), in one loop."""
    s1_a = s2_a = top_a = 0.0
    s1_b = s2_b = top_b = 0.0
    for i in range(order.shape[1] - 1):
        m_a = np.uint64(order[k, i])
        m_b = np.uint64(order[k + 1, i])
        s2_a += split[kk, m_a]
        s1_a -= p[m_a]   # p sums to 0 over all documents: S1 starts at 0 with everything above
        s2_b += split[kk + 1, m_b]
        s1_b -= p[m_b]
        if sorted_codes[k, i + 1] != sorted_codes[k, i]:
            top_a = _better_gain(s1_a, s2_a, floor, top_a)
        if sorted_codes[k + 1, i + 1] != sorted_codes[k + 1, i]:
            top_b = _better_gain(s1_b, s2_b, floor, top_b)
    return top_a, top_b


@numba.njit(cache=True, nogil=True)
def _scan_one(k: int, kk: int, order: np.ndarray, sorted_codes: np.ndarray, p: np.ndarray, split: np.ndarray,
              floor: float, threshold: float, s1_out: np.ndarray, s2_out: np.ndarray, record: bool) -> tuple:
    """Feature ``k``'s largest gain, and the first bin whose gain reaches ``threshold`` with that gain.

    With ``record``, ``S1`` and ``S2`` of every threshold go to row ``k`` of
    ``s1_out`` and ``s2_out`` (the thresholds in a gap between two codes
    split the documents alike and get equal sums).
    """
    s1 = s2 = top = 0.0
    first_bin = -1
    first_gain = 0.0
    for i in range(order.shape[1] - 1):
        m = np.uint64(order[k, i])
        s2 += split[kk, m]
        s1 -= p[m]
        code, next_code = sorted_codes[k, i], sorted_codes[k, i + 1]
        if next_code != code:
            if record:
                for b in range(code, next_code):
                    s1_out[k, b] = s1
                    s2_out[k, b] = s2
            top = _better_gain(s1, s2, floor, top)
            if first_bin < 0:
                gain = _better_gain(s1, s2, floor, 0.0)
                if gain >= threshold:
                    first_bin = code
                    first_gain = gain
    return top, first_bin, first_gain


@numba.njit(cache=True, nogil=True)
def feature_tops(start: int, stop: int, block: int, order: np.ndarray, sorted_codes: np.ndarray,
                 codes: np.ndarray, small: tuple, local_order: np.ndarray, large_starts: np.ndarray,
                 grades: np.ndarray, factors: np.ndarray, weight: np.ndarray,
                 p: np.ndarray, floor: float, rows: np.ndarray, state: np.ndarray, split: np.ndarray,
                 tops: np.ndarray) -> None:
    """Write the largest gain of each feature ``start..stop-1`` to ``tops``, ``block`` features at a time.

    ``rows``, ``state`` and ``split`` are work arrays of shapes (largest small
    query, block), (grades, grades) and (block, documents).
    """
    for k0 in range(start, stop, block):
        width = min(block, stop - k0)
        _split_weights(k0, width, codes, small, local_order, large_starts, grades,
                       factors, weight, rows, state, split)
        kk = 0
        while kk + 1 < width:
            tops[k0 + kk], tops[k0 + kk + 1] = _scan_two(k0 + kk, kk, order, sorted_codes, p, split, floor)
            kk += 2
        if kk < width:
            unused = np.empty((1, 1))
            tops[k0 + kk] = _scan_one(k0 + kk, kk, order, sorted_codes, p, split, floor, np.inf, unused,
                                      unused, False)[0]


@numba.njit(cache=True, nogil=True)
def scan_feature(k: int, threshold: float, row: int, order: np.ndarray, sorted_codes: np.ndarray, codes: np.ndarray,
                 small: tuple, local_order: np.ndarray, large_starts: np.ndarray, grades: np.ndarray,
                 factors: np.ndarray, weight: np.ndarray, p: np.ndarray, floor: float, rows: np.ndarray,
                 state: np.ndarray, split: np.ndarray) -> tuple:
    """Feature ``k``'s largest gain, and its first bin whose gain reaches ``threshold``, with that gain.

    ``row`` is the row of ``split`` that still holds feature ``k``'s split
    weights from :func:`feature_tops` (its last block), or -1 to compute
    them again.
    """
    if row < 0:
        _split_weights(k, 1, codes, small, local_order, large_starts, grades, factors, weight,
                       rows, state, split)
        row = 0
    unused = np.empty((1, 1))
    return _scan_one(k, row, order, sorted_codes, p, split, floor, threshold, unused, unused, False)


@numba.njit(cache=True, nogil=True)
def stump_tables(block: int, order: np.ndarray, sorted_codes: np.ndarray, codes: np.ndarray,
                 small: tuple, local_order: np.ndarray, large_starts: np.ndarray, grades: np.ndarray,
                 factors: np.ndarray, weight: np.ndarray,
                 p: np.ndarray, floor: float, rows: np.ndarray, state: np.ndarray, split: np.ndarray,
                 s1_out: np.ndarray, s2_out: np.ndarray) -> None:
    """Fill ``s1_out`` and ``s2_out`` (features x thresholds) with the sums of every stump."""
    n_features = order.shape[0]
    for k0 in range(0, n_features, block):
        width = min(block, n_features - k0)
        _split_weights(k0, width, codes, small, local_order, large_starts, grades,
                       factors, weight, rows, state, split)
        for kk in range(width):
            _scan_one(k0 + kk, kk, order, sorted_codes, p, split, floor, np.inf, s1_out, s2_out, True)


# --------------------------------------------------------------------------- #
# Sparse features: the documents outside each feature's most frequent bin
# --------------------------------------------------------------------------- #
# A feature's documents in its most frequent bin (its zeros, in LETOR data) are
# all on one side of every threshold but those next to the bin, and S1 and S2
# of a split do not change when the two sides swap names (S1 only its sign, and
# each query's p sums to 0). So every threshold is scored from the other
# documents alone, the *entries* of the feature (sorted by code): those above
# the bin walked from the top, the set above each threshold; those below it from
# the bottom, the set below. Each step costs O(grades), as the walk of a large
# query (_large_query_weights), with the state of every query at once:
# state[q * grades + g, h] sums factors[j, h] over the documents j of grade g of
# query q passed so far.


@numba.njit(cache=True, nogil=True, inline="always")
def _split_point(entry_codes: np.ndarray, start: int, stop: int, default: int) -> int:
    """The first entry of ``start..stop-1`` whose code is above the feature's most frequent bin."""
    while start < stop and entry_codes[start] < default:
        start += 1
    return start


@numba.njit(cache=True, nogil=True)
def _walk_entries(first: int, last: int, step: int, docs: np.ndarray, entry_codes: np.ndarray, queries: np.ndarray,
                  grades: np.ndarray, factors: np.ndarray, weight: np.ndarray, p: np.ndarray, state: np.ndarray,
                  floor: float, above: bool, gains: np.ndarray, record: bool) -> float:
    """S1 and S2 of the set of entries passed, from ``first`` to ``last`` by ``step``; the largest gain.

    With ``record``, the gain of each threshold goes to ``gains[b]``: passing
    the entries with code ``c`` from above makes the set above threshold ``c
    - 1``; from below, the set below threshold ``c``. ``state`` is zero on
    entry and on return.
    """
    n_grades = np.uint64(factors.shape[1])
    s1 = s2 = top = 0.0
    i = first
    while i != last:
        m = np.uint64(docs[i])
        g = np.uint64(grades[m])
        base = np.uint64(queries[m]) * n_grades
        row = base + g
        inside = 0.0
        for h in range(n_grades):
            factor = factors[m, h]
            inside += factor * state[base + np.uint64(h), g]
            state[row, h] += factor
        s2 += weight[m] - 2.0 * inside
        s1 += p[m]
        following = i + step
        if following == last or entry_codes[following] != entry_codes[i]:
            top = _better_gain(s1, s2, floor, top)
            if record:
                gains[entry_codes[i] - 1 if above else entry_codes[i]] = _better_gain(s1, s2, floor, 0.0)
        i = following
    i = first
    while i != last:
        m = np.uint64(docs[i])
        row = np.uint64(queries[m]) * n_grades + np.uint64(grades[m])
        for h in range(n_grades):
            state[row, h] = 0.0
        i += step
    return top


@numba.njit(cache=True, nogil=True)
def sparse_feature(k: int, ptr: np.ndarray, docs: np.ndarray, entry_codes: np.ndarray, default_bin: np.ndarray,
                   queries: np.ndarray, grades: np.ndarray, factors: np.ndarray, weight: np.ndarray, p: np.ndarray,
                   state: np.ndarray, floor: float, gains: np.ndarray, record: bool) -> float:
    """Feature ``k``'s largest gain from its entries; with ``record`` every threshold's gain in ``gains``."""
    start, stop = ptr[k], ptr[k + 1]
    split = _split_point(entry_codes, start, stop, default_bin[k])
    top_above = _walk_entries(stop - 1, split - 1, -1, docs, entry_codes, queries, grades, factors, weight, p,
                              state, floor, True, gains, record)
    top_below = _walk_entries(start, split, 1, docs, entry_codes, queries, grades, factors, weight, p, state, floor,
                              False, gains, record)
    return max(top_above, top_below)


@numba.njit(cache=True, nogil=True)
def _bound_entries(first: int, last: int, step: int, docs: np.ndarray, entry_codes: np.ndarray,
                   queries: np.ndarray, p: np.ndarray, inverse_spread: np.ndarray, query_s1: np.ndarray,
                   floor: float) -> float:
    """The largest bound of the thresholds met passing the entries from ``first`` to ``last`` by ``step``.

    ``query_s1`` (zero on entry and on return) holds each query's ``S1``.
    """
    s1 = spread = top = 0.0
    i = first
    while i != last:
        m = np.uint64(docs[i])
        q = np.uint64(queries[m])
        before = query_s1[q]
        after = before + p[m]
        query_s1[q] = after
        spread += (abs(after) - abs(before)) * inverse_spread[q]
        s1 += p[m]
        following = i + step
        if following == last or entry_codes[following] != entry_codes[i]:
            top = _better_gain(s1, spread, floor, top)
        i = following
    i = first
    while i != last:
        query_s1[np.uint64(queries[np.uint64(docs[i])])] = 0.0
        i += step
    return top


@numba.njit(cache=True, nogil=True)
def sparse_bounds(ptr: np.ndarray, docs: np.ndarray, entry_codes: np.ndarray, default_bin: np.ndarray,
                  queries: np.ndarray, p: np.ndarray, inverse_spread: np.ndarray, query_s1: np.ndarray, floor: float,
                  bounds: np.ndarray) -> None:
    """An upper bound of each feature's largest gain, from ``S1`` alone (O(1) per entry).

    A query's pairs split by a threshold weigh ``S2_q >= |S1_q| / d_q``,
    ``d_q`` the largest distance of its pairs, so ``S1^2 / S2 <= S1^2 /
    sum_q |S1_q| / d_q``; ``inverse_spread[q] = 1 / d_q``.
    """
    for k in range(bounds.size):
        start, stop = ptr[k], ptr[k + 1]
        split = _split_point(entry_codes, start, stop, default_bin[k])
        above = _bound_entries(stop - 1, split - 1, -1, docs, entry_codes, queries, p, inverse_spread, query_s1, floor)
        below = _bound_entries(start, split, 1, docs, entry_codes, queries, p, inverse_spread, query_s1, floor)
        bounds[k] = max(above, below)


@numba.njit(cache=True, nogil=True)
def sparse_tops(by_bound: np.ndarray, bounds: np.ndarray, margin: float, ptr: np.ndarray, docs: np.ndarray,
                entry_codes: np.ndarray, default_bin: np.ndarray, queries: np.ndarray, grades: np.ndarray,
                factors: np.ndarray, weight: np.ndarray, p: np.ndarray, state: np.ndarray, floor: float,
                tops: np.ndarray) -> int:
    """The largest gain of each feature that can win, in the order ``by_bound`` (bounds decreasing).

    A feature whose bound is below the best gain found less ``margin`` of
    it cannot win, nor can any after it: its ``tops`` entry stays as given.
    Returns how many features were searched.
    """
    best = 0.0
    unused = np.empty(0)
    searched = 0
    for j in range(by_bound.size):
        k = by_bound[j]
        if bounds[k] < best - margin * best or not bounds[k] > 0.0:
            break
        tops[k] = sparse_feature(k, ptr, docs, entry_codes, default_bin, queries, grades, factors, weight, p,
                                 state, floor, unused, False)
        best = max(best, tops[k])
        searched += 1
    return searched

# --------------------------------------------------------------------------- #
# The same, with each feature's entries grouped by query
# --------------------------------------------------------------------------- #
# On many documents the walk above reads, for each entry, a document's data and
# its query's state at random: on 1.2 M documents (136 features) an entry of
# the exact walk cost 70 ns, most of it cache misses. Grouped by query
# (entries_by_query, once per fit), with the documents numbered query by query,
# a query's entries read its documents' data from one stretch of memory and
# keep its per-grade state in a small local array; they add into sums per bin,
# which one scan of the bins turns into every threshold's sums. On few
# documents, where everything is in the cache anyway, the walk above is faster
# (each query's short run of entries costs a few mispredicted branches):
# StumpSearch chooses by the number of documents.


@numba.njit(cache=True, nogil=True)
def entries_by_query(ptr: np.ndarray, docs: np.ndarray, entry_codes: np.ndarray, queries: np.ndarray,
                     n_queries: int, docs_out: np.ndarray, codes_out: np.ndarray) -> None:
    """Each feature's entries (in code order) regrouped by query, stably: by query, then code, then document.

    A counting sort per feature, ``O(entries + features x queries)``.
    """
    count = np.zeros(n_queries + 1, dtype=np.intp)
    for k in range(ptr.size - 1):
        start, stop = ptr[k], ptr[k + 1]
        count[:] = 0
        for i in range(start, stop):
            count[np.uint64(queries[np.uint64(docs[i])]) + np.uint64(1)] += 1
        for q in range(n_queries):
            count[q + 1] += count[q]
        for i in range(start, stop):
            q = np.uint64(queries[np.uint64(docs[i])])
            j = start + count[q]
            count[q] += 1
            docs_out[j] = docs[i]
            codes_out[j] = entry_codes[i]


@numba.njit(cache=True, nogil=True, inline="always")
def _add_run(bins: np.ndarray, code: np.uint64, p_sum: float, second: float, count: float) -> None:
    """Add the sums of a run of entries of one code to its bin."""
    bins[code, 0] += p_sum
    bins[code, 1] += second
    bins[code, 2] += count


@numba.njit(cache=True, nogil=True, inline="always")
def _bound_query(first: int, n: int, step: int, docs: np.ndarray, entry_codes: np.ndarray, p: np.ndarray,
                 inverse_spread: float, bins: np.ndarray, offset: int) -> None:
    """Add ``n`` entries of one query, from ``first`` by ``step``, to their bins: ``p`` and the bound's term.

    ``bins[offset + c]`` gets each entry's ``p`` (column 0), a count (column
    2) and in column 1 the change of the query's ``|S1_q|`` it makes, over
    ``d_q`` (the bound's ``sum_q |S1_q| / d_q``).
    """
    s1 = 0.0
    for j in range(n):
        i = np.uint64(first + j * step)
        m = np.uint64(docs[i])
        c = np.uint64(offset + entry_codes[i])
        before, passed = s1, p[m]
        s1 += passed
        bins[c, 1] += (abs(s1) - abs(before)) * inverse_spread
        bins[c, 0] += passed
        bins[c, 2] += 1.0


@numba.njit(cache=True, nogil=True, inline="always")
def _exact_query(first: int, n: int, step: int, docs: np.ndarray, entry_codes: np.ndarray, grades: np.ndarray,
                 factors: np.ndarray, weight: np.ndarray, p: np.ndarray, local: np.ndarray, bins: np.ndarray,
                 offset: int) -> None:
    """As :func:`_bound_query`, with what passing each entry adds to ``S2`` in column 1.

    That is ``W_m - 2 sum_h factors[m, h] T[h, g_m]``, the query's per-grade
    state ``T`` (of the entries passed) in ``local``. The entries come in code
    order, often several of a code in a row (a count feature's few values):
    their sums are kept in registers and added to the bin when the code
    changes.
    """
    if n == 0:
        return
    n_grades = np.uint64(factors.shape[1])
    local[:, :] = 0.0
    run_p = run_second = run_count = 0.0
    run_code = np.uint64(offset + entry_codes[np.uint64(first)])
    for j in range(n):
        i = np.uint64(first + j * step)
        m = np.uint64(docs[i])
        c = np.uint64(offset + entry_codes[i])
        if c != run_code:
            _add_run(bins, run_code, run_p, run_second, run_count)
            run_code, run_p, run_second, run_count = c, 0.0, 0.0, 0.0
        g = np.uint64(grades[m])
        # two sums, so that each multiply-add need not wait for the one before
        inside = other = 0.0
        h = np.uint64(0)
        while h + np.uint64(1) < n_grades:
            factor, next_factor = factors[m, h], factors[m, h + np.uint64(1)]
            inside += factor * local[h, g]
            other += next_factor * local[h + np.uint64(1), g]
            local[g, h] += factor
            local[g, h + np.uint64(1)] += next_factor
            h += np.uint64(2)
        if h < n_grades:
            factor = factors[m, h]
            inside += factor * local[h, g]
            local[g, h] += factor
        run_second += weight[m] - 2.0 * (inside + other)
        run_p += p[m]
        run_count += 1.0
    _add_run(bins, run_code, run_p, run_second, run_count)


@numba.njit(cache=True, nogil=True, inline="always")
def _first_above(a: int, stop: int, end: int, docs: np.ndarray, entry_codes: np.ndarray, default: int) -> int:
    """The first of a feature's entries from ``a`` (one query's: documents before ``end``) above the default bin.

    (A single function returning both this and :func:`_query_stop` as a
    tuple made the bound pass 12 % slower.)
    """
    while a < stop and docs[np.uint64(a)] < end and entry_codes[np.uint64(a)] < default:
        a += 1
    return a


@numba.njit(cache=True, nogil=True, inline="always")
def _query_stop(a: int, stop: int, end: int, docs: np.ndarray) -> int:
    """The first of a feature's entries from ``a`` whose document is not before ``end`` (the next query's)."""
    while a < stop and docs[np.uint64(a)] < end:
        a += 1
    return a


@numba.njit(cache=True, nogil=True)
def _scan_bins(k: int, default_bin: np.ndarray, n_bins: np.ndarray, bins: np.ndarray, floor: float,
               gains: np.ndarray, record: bool) -> float:
    """Feature ``k``'s largest gain from the sums of its bins, which are then zeroed.

    Passing the bins above ``c - 1`` makes the set above threshold ``c - 1``,
    passing those up to ``c`` the set below threshold ``c``. With
    ``record``, each threshold's gain goes to ``gains``.
    """
    default = default_bin[k]
    top = s1 = second = 0.0
    for c in range(n_bins[k] - 1, default, -1):
        if bins[c, 2] > 0.0:
            s1 += bins[c, 0]
            second += bins[c, 1]
            top = _better_gain(s1, second, floor, top)
            if record:
                gains[c - 1] = _better_gain(s1, second, floor, 0.0)
            bins[c, 0] = bins[c, 1] = bins[c, 2] = 0.0
    s1 = second = 0.0
    for c in range(default):
        if bins[c, 2] > 0.0:
            s1 += bins[c, 0]
            second += bins[c, 1]
            top = _better_gain(s1, second, floor, top)
            if record:
                gains[c] = _better_gain(s1, second, floor, 0.0)
            bins[c, 0] = bins[c, 1] = bins[c, 2] = 0.0
    return top


@numba.njit(cache=True, nogil=True)
def _walk_batch(chosen: np.ndarray, n: int, offset: np.ndarray, ptr: np.ndarray, docs: np.ndarray,
                entry_codes: np.ndarray, default_bin: np.ndarray, query_end: np.ndarray, grades: np.ndarray,
                factors: np.ndarray, weight: np.ndarray, p: np.ndarray, local: np.ndarray, bins: np.ndarray) -> None:
    """Add the entries of features ``chosen[:n]`` to their bins (at ``offset``) for ``S1`` and ``S2``.

    The features are walked query by query together, so that a query's
    documents' data are read from memory once for all of them. Documents are
    numbered query by query (query ``q``'s end before ``query_end[q]``); of
    each query, the entries above the default bin are passed from the top
    (the set above each threshold), those below it from the bottom (the set
    below).
    """
    cursor = np.empty(n, dtype=np.intp)
    for i in range(n):
        cursor[i] = ptr[chosen[i]]
    for q in range(query_end.size):
        end = query_end[q]
        for i in range(n):
            k = chosen[i]
            a, stop, default = cursor[i], ptr[k + 1], default_bin[k]
            if a < stop and docs[np.uint64(a)] < end:
                split = _first_above(a, stop, end, docs, entry_codes, default)
                b = _query_stop(split, stop, end, docs)
                _exact_query(b - 1, b - split, -1, docs, entry_codes, grades, factors, weight, p, local, bins,
                             offset[i])
                _exact_query(a, split - a, 1, docs, entry_codes, grades, factors, weight, p, local, bins, offset[i])
                cursor[i] = b


@numba.njit(cache=True, nogil=True)
def grouped_feature(k: int, ptr: np.ndarray, docs: np.ndarray, entry_codes: np.ndarray, default_bin: np.ndarray,
                    n_bins: np.ndarray, query_of: np.ndarray, query_end: np.ndarray, grades: np.ndarray,
                    factors: np.ndarray, weight: np.ndarray, p: np.ndarray, inverse_spread: np.ndarray,
                    local: np.ndarray, bins: np.ndarray, floor: float, gains: np.ndarray, record: bool) -> float:
    """:func:`sparse_feature` from entries grouped by query. ``bins`` is zero on entry and on return."""
    chosen, offset = np.full(1, k, dtype=np.intp), np.zeros(1, dtype=np.intp)
    _walk_batch(chosen, 1, offset, ptr, docs, entry_codes, default_bin, query_end, grades, factors, weight, p, local,
                bins)
    return _scan_bins(k, default_bin, n_bins, bins, floor, gains, record)


@numba.njit(cache=True, nogil=True)
def grouped_bounds(ptr: np.ndarray, docs: np.ndarray, entry_codes: np.ndarray, default_bin: np.ndarray,
                   n_bins: np.ndarray, query_of: np.ndarray, query_end: np.ndarray, grades: np.ndarray,
                   factors: np.ndarray, weight: np.ndarray, p: np.ndarray, inverse_spread: np.ndarray,
                   local: np.ndarray, bins: np.ndarray, floor: float, bounds: np.ndarray) -> None:
    """:func:`sparse_bounds` from entries grouped by query, feature by feature."""
    unused = np.empty(0)
    for k in range(bounds.size):
        a, stop = ptr[k], ptr[k + 1]
        default = default_bin[k]
        while a < stop:
            q = np.uint64(query_of[np.uint64(docs[np.uint64(a)])])
            end = query_end[q]
            split = _first_above(a, stop, end, docs, entry_codes, default)
            b = _query_stop(split, stop, end, docs)
            _bound_query(b - 1, b - split, -1, docs, entry_codes, p, inverse_spread[q], bins, 0)
            _bound_query(a, split - a, 1, docs, entry_codes, p, inverse_spread[q], bins, 0)
            a = b
        bounds[k] = _scan_bins(k, default_bin, n_bins, bins, floor, unused, False)


@numba.njit(cache=True, nogil=True)
def grouped_tops(by_bound: np.ndarray, bounds: np.ndarray, margin: float, batch: int, ptr: np.ndarray,
                 docs: np.ndarray, entry_codes: np.ndarray, default_bin: np.ndarray, n_bins: np.ndarray,
                 query_of: np.ndarray, query_end: np.ndarray, grades: np.ndarray, factors: np.ndarray,
                 weight: np.ndarray, p: np.ndarray, inverse_spread: np.ndarray, local: np.ndarray,
                 bins: np.ndarray, floor: float, tops: np.ndarray) -> int:
    """:func:`sparse_tops` from entries grouped by query, ``batch`` features at a time (:func:`_walk_batch`).

    A batch is the next features whose bounds reach the best gain of the
    batches before it (so a few more features may be searched than one at a
    time would), as many as ``bins`` holds side by side (one at least).
    """
    best = 0.0
    searched = 0
    unused = np.empty(0)
    chosen = np.empty(batch, dtype=np.intp)
    offset = np.empty(batch, dtype=np.intp)
    j = 0
    while j < by_bound.size:
        n = total = 0
        while n < batch and j < by_bound.size:
            k = by_bound[j]
            if bounds[k] < best - margin * best or not bounds[k] > 0.0:
                j = by_bound.size  # none after it can win either
                break
            if n > 0 and total + n_bins[k] > bins.shape[0]:
                break  # its bins would not fit: it starts the next batch
            chosen[n], offset[n] = k, total
            total += n_bins[k]
            n += 1
            j += 1
        if n == 0:
            break
        _walk_batch(chosen, n, offset, ptr, docs, entry_codes, default_bin, query_end, grades, factors, weight, p,
                    local, bins)
        for i in range(n):
            k = chosen[i]
            tops[k] = _scan_bins(k, default_bin, n_bins, bins[offset[i]:], floor, unused, False)
            best = max(best, tops[k])
        searched += n
    return searched
