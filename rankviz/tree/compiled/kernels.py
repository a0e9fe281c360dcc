"""The compiled code of the builder (Numba): the criteria's formulas for one split, and the grower.

Everything compiled is in this one module on purpose: Numba's on-disk cache
(``cache=True``) checks only the file that defines a function, and the
small formulas are inlined into the grower, so a grower cached from one
file could otherwise run with formulas edited in another.

**Formulas.** Each criterion of :mod:`rankviz.tree.criteria` scores arrays
of candidates with NumPy; the grower walks a node's rows one at a time and
scores each candidate as it passes, so it needs the same formulas for one
candidate. They are written here once per criterion *kind*, from the same
summed statistics; :func:`rankviz.tree.compiled.specs.criterion_spec` packs
what a fitted criterion knows (its labels, levels, pair indices, θ tables)
into the arrays these functions read:

``ints``, ``floats``
    The criterion's integers and numbers (layout per kind, below).
``table``, ``table_x``
    Mallows: the cubic pieces of log θ for each number of labels a set can
    hold (:func:`rankviz.label_ranking.mallows.theta_inverse_table`), and for
    each number m ``(x_first, 1 / step, row of its pieces)``.

**Grower.** :func:`grow` splits nodes in breadth-first order; see
:mod:`rankviz.tree.compiled.growth` for what it does and why.

The criteria remain the definition; tests grow every criterion both ways
and require the same trees (tests/test_compiled_growth.py).

References
----------
.. [1] C. Rebelo, C. Soares and J. Pinto da Costa, "Empirical evaluation of
       ranking trees on some metalearning problems", PlanLearn workshop at
       ICML/COLT/UAI 2008.
.. [2] F. Xia, W. Zhang and J. Wang, "An effective tree-based algorithm for
       ordinal regression", IEEE Intelligent Informatics Bulletin, vol. 7,
       no. 1, pp. 22-26, 2006.
.. [3] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", ICML 2009, pp. 161-168.
"""

from __future__ import annotations

import math

import numpy as np

from ...numba_cache import configure as configure_numba_cache

configure_numba_cache()  # before Numba's first import: it reads its cache folder then (rankviz.numba_cache)

from llvmlite import ir  # noqa: E402 -- after the cache folder is set
from numba import njit, types  # noqa: E402
from numba.core import cgutils  # noqa: E402
from numba.extending import intrinsic  # noqa: E402

from ..feature_draws import GOLDEN, splitmix64  # noqa: E402

__all__ = ["MEAN_SPEARMAN", "MALLOWS", "RANKING_IMPURITY", "GINI", "PAIRWISE_ENTROPY", "node_similarity",
           "split_score", "split_similarity", "can_split", "spearman_split", "gini_split", "rank_impurity_split",
           "mallows_split", "entropy_split", "theta_bounds", "spread_bounds", "theta_bound_key", "grow", "node_sums",
           "MALLOWS_IMPURITY"]

# The NumPy search's constants (rankviz.tree.builder): a node this similar is
# pure; scores this close are equal.
_PURE = 1.0 - 1e-12
_TIE = 1e-12

# Criterion kinds. ``ints`` / ``floats`` layouts:
#: Mean pairwise Spearman: ints = [all_unit, n_labels]; floats = [scale] (see MeanSpearman.scale_).
MEAN_SPEARMAN = 1
#: Mallows θ: ints = [complete, n_labels, n_pairs, a_0..a_{P-1}, b_0..b_{P-1}]; floats = [the form of the
#: split score: 0 for eq. (6)'s spread, the θ floor of the variance, or MALLOWS_IMPURITY] (the votes of
#: complete rankings are running sums, see CriterionSpec.augmented_statistics).
MALLOWS = 2
#: floats[0] of Mallows(split="impurity"): the size-weighted impurity 1/(1 + θ).
MALLOWS_IMPURITY = -1.0
#: Ranking impurity and Gini: ints = [complete, n_labels, width, n_levels]; floats = [span, gap_1..gap_{K-1},
#: then each statistic's gap (labels x levels), for the ranking impurity of complete rankings].
RANKING_IMPURITY = 3
GINI = 4
#: Pairwise entropy (Alfaro et al. 2021): ints = [n_pairs, n_labels, T, complete, ties]; floats = [log2(3),
#: c log2 c for the counts c = 0..T-1, then log2 c for them] (rankviz.tree.criteria.pairwise_entropy.entropy_tables);
#: complete: every row holds every label; ties: some row ties a pair.
PAIRWISE_ENTROPY = 5
#: Shares below this count as none (rankviz.tree.criteria.pairwise_entropy.SMALLEST_SHARE) ...
_SMALLEST_SHARE = 1e-5
#: ... which no share of a set of at most this many rows is (a count of 1 in 100,000 is 1e-5 exactly).
_NO_SHARE_CUT = 100_000.0

# The scans of a numeric attribute (rows without missing values; the others take _scan_sums)
_SCAN_SUMS, _SCAN_SPEARMAN, _SCAN_LEVELS, _SCAN_DISTANCES, _SCAN_PAIRS, _SCAN_ENTROPY = 0, 1, 2, 3, 4, 5


@njit(cache=True, inline="always")
def _size_weighted(count_left, left, count_right, right):
    """The size-weighted mean of the two sides' values: ``S_split`` from the sides' similarities."""
    return (count_left * left + count_right * right) / (count_left + count_right)


# -- mean pairwise Spearman (Rebelo et al. 2008) -------------------------------------------------
@njit(cache=True, inline="always")
def _spearman_from_squares(all_unit, scale, count, squares, own):
    """Mean pairwise Spearman of a set from its sums' squared norm (``squares``) and ``own``, the summed
    squared norms of its rows (read when ``all_unit`` is false)."""
    pair_sum = squares
    if scale != 1.0:  # whole-number statistics: divide by their common squared norm
        pair_sum = pair_sum / scale
    pair_sum -= count if all_unit else own
    if count == 1.0:
        return 1.0
    return pair_sum / (count * (count - 1.0))


@njit(cache=True, inline="always")
def _spearman_similarity(ints, floats, count, s):
    n_labels = ints[1]
    squares = 0.0
    for label in range(n_labels):
        squares += s[label] * s[label]
    return _spearman_from_squares(ints[0], floats[0], count, squares, s[n_labels] if not ints[0] else 0.0)


# -- Mallows θ (Cheng et al. 2009) ------------------------------------------------------------------
@njit(cache=True, inline="always")
def _mallows_distance(ints, count, s):
    """Summed Kendall distance to the Borda centre, and the number of labels held."""
    complete, n_labels, n_pairs = ints[0], ints[1], ints[2]
    first, second = 3, 3 + n_pairs  # where the pairs' labels a_k and b_k are in `ints`
    distance = 0.0
    if complete:
        # Statistics: the pair indicators A_k, then each label's wins (its Borda votes) and the
        # number of pairs in index order, summed (see specs.augmented_statistics). The centre orders
        # a_k first when a_k has at least as many votes; a ranking disagrees when it puts b_k first.
        # The pairs are in np.triu_indices order, (0, 1), (0, 2), ..., (1, 2), ...: walk them as a
        # double loop over the labels rather than reading each pair's labels from `ints`.
        wins = n_pairs
        flips = 0.0
        k = 0
        for i in range(n_labels - 1):
            votes_i = s[wins + i]
            for j in range(i + 1, n_labels):
                if votes_i >= s[wins + j]:
                    flips += count - 2.0 * s[k]
                k += 1
        return s[wins + n_labels] + flips, n_labels
    vote_at = 2 * n_pairs
    largest = 0.0
    for label in range(n_labels):
        largest = max(largest, abs(s[vote_at + label]))
    tolerance = 1e-9 * largest
    for k in range(n_pairs):
        if s[vote_at + ints[first + k]] >= s[vote_at + ints[second + k]] - tolerance:
            distance += s[n_pairs + k]  # b first, against the centre
        else:
            distance += s[k]
    held = 0
    for label in range(n_labels):
        if s[vote_at + n_labels + label] > 0.0:
            held += 1
    return distance, held


@njit(cache=True, inline="always")
def _theta_from_mean_distance(d, m, table, table_x):
    """θ with ``E[D | θ] = d`` for m labels: the scalar form of ``theta_from_mean_distance``."""
    most = m * (m - 1) / 4.0
    if d <= 0.0:
        return math.inf
    if d >= most:
        return 0.0
    u = (math.log(d / (most - d)) - table_x[m, 0]) * table_x[m, 1]  # one logarithm, as theta_from_mean_distance
    if math.isnan(u):
        return math.nan
    n_intervals = table.shape[1]
    k = min(int(u) if u > 0.0 else 0, n_intervals - 1)
    t = u - k
    c = table[int(table_x[m, 2]), k]
    if u < 0.0:  # above the table: the tail E ~ (m - 1) e^-θ
        return math.log(m - 1.0) - math.log(d)
    if u > n_intervals:  # under it: E_max - E = θ Var_0[D]
        return (most - d) / (m * (m - 1) * (2 * m + 5) / 72.0)
    return math.exp(c[0] + t * (c[1] + t * (c[2] + t * c[3])))


#: Bounds of θ are tabled per range of mean distances that share a float's exponent and first
#: _BOUND_MANTISSA_BITS bits (ranges 1/8,192 of an octave wide, θ within 0.013 %), from
#: 2**_BOUND_LOWEST_EXPONENT up (below, only pure nodes of over 16 million rows: the first range, whose
#: upper bound is infinite, holds them). On noisy rows every candidate scores within 0.5 % of the
#: best, so ranges of 1/64 octave (θ within 2 %) left 82 % of the long chain's candidates to be scored
#: (two logarithms and exponentials each), 1/1,024 left 11 % and 1/4,096 0.5 % (its Mallows tree
#: 0.192 -> 0.113 s at 1/1,024; with the later changes 0.069 s at 1/1,024, 0.056 s at 1/4,096). A set
#: noisy everywhere needs finer still: its tree 0.356 s at 1/4,096 with the margins of theta_bounds at
#: 1e-4, 0.251 s at 1/8,192 with margins of 1e-6 (1/16,384: the same, twice the table). The tables
#: (215,000 ranges for 5 labels) are built in about 12 ms once per number of labels and form, and
#: kept as float32 score terms (specs._score_bound_tables).
_BOUND_MANTISSA_BITS = 13
_BOUND_LOWEST_EXPONENT = -24
_BOUND_SHIFT = 52 - _BOUND_MANTISSA_BITS


@intrinsic
def _float_bits(typingctx, value):
    """The bits of a float64 as an int64 (for a positive float they grow with it)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return types.int64(types.float64), codegen


@intrinsic
def _bits_float(typingctx, bits):
    """The float64 whose bits are the int64 ``bits`` (the inverse of :func:`_float_bits`)."""
    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return types.float64(types.int64), codegen


@njit(cache=True, inline="always")
def theta_bound_key(d: float, first_key: int, n_keys: int) -> int:
    """The range of the θ bound tables holding mean distance ``d`` (> 0): clipped to the tables."""
    key = (_float_bits(d) >> _BOUND_SHIFT) - first_key
    return min(max(key, 0), n_keys - 1)


@njit(cache=True)
def theta_bounds(m: int, table: np.ndarray, table_x: np.ndarray) -> tuple:
    """Upper and lower bounds of θ for m labels, per range of mean distances (:func:`theta_bound_key`).

    θ falls as the mean distance grows, so its values at a range's ends
    bound it in the range; margins (1e-6 relative, 1e-9 absolute) cover the
    interpolant's error (1e-9) and the joins of its pieces
    (tests/test_compiled_growth.py checks the bounds on a dense grid). The
    first range runs down to 0 (upper bound infinite), the last up to the
    largest mean distance, ``m (m - 1) / 4`` (θ = 0 from there). Returns
    ``(upper, lower, first key)``; empty tables when ``m < 2``.
    """
    first_key = _float_bits(2.0 ** _BOUND_LOWEST_EXPONENT) >> _BOUND_SHIFT
    if m < 2:
        return np.zeros(0), np.zeros(0), first_key
    most = m * (m - 1) / 4.0
    n_keys = (_float_bits(most) >> _BOUND_SHIFT) - first_key + 1
    upper = np.empty(n_keys)
    lower = np.empty(n_keys)
    # θ at each range's start, which is the previous range's end: one θ per range
    at_start = _theta_from_mean_distance(_bits_float(first_key << _BOUND_SHIFT), m, table, table_x)
    for key in range(n_keys):
        end = min(_bits_float((first_key + key + 1) << _BOUND_SHIFT), most)
        at_end = _theta_from_mean_distance(end, m, table, table_x)
        upper[key] = math.inf if key == 0 else at_start * (1.0 + 1e-6) + 1e-9
        lower[key] = max(at_end * (1.0 - 1e-6) - 1e-9, 0.0)
        at_start = at_end
    return upper, lower, first_key


@njit(cache=True)
def spread_bounds(upper: np.ndarray, lower: np.ndarray, theta_floor: float) -> tuple:
    """The bounds of a side's score term (``_spread_term`` of the form ``theta_floor``) per range of mean
    distances, from those of θ (:func:`theta_bounds`): the term grows with θ. Tabled once per form, they
    spare the scans four divisions per candidate (the long chain's Mallows tree 0.113 -> 0.102 s)."""
    spread_upper = np.empty(len(upper))
    spread_lower = np.empty(len(lower))
    for key in range(len(upper)):
        spread_upper[key] = _spread_term(upper[key], theta_floor)
        spread_lower[key] = _spread_term(lower[key], theta_floor)
    return spread_upper, spread_lower


@njit(cache=True, inline="always")
def _pure_distance(theta_floor):
    """The summed distance a pure side counts as in the form ``theta_floor`` (see :func:`_spread_term`):
    none for the bounded impurity (θ = ∞, impurity 0), half a discordance for θ and 1/θ, unbounded there."""
    return 0.0 if theta_floor < 0.0 else 0.5


@njit(cache=True, inline="always")
def _mallows_theta(ints, table, table_x, count, s, theta_floor):
    """θ of a set for the search in the form ``theta_floor``, a pure set counted by :func:`_pure_distance`."""
    distance, held = _mallows_distance(ints, count, s)
    distance = max(distance, _pure_distance(theta_floor))
    if held < 2:
        return 0.0
    return _theta_from_mean_distance(distance / count, held, table, table_x)


@njit(cache=True, _nrt=False)
def _mallows_similarity(ints, count, s):
    distance, held = _mallows_distance(ints, count, s)
    pairs = held * (held - 1) / 4.0
    if not pairs > 0.0:
        return 1.0
    tau = 1.0 - distance / (count * pairs)
    return min(max(tau, 0.0), 1.0)


@intrinsic
def _popcount(typingctx, word):
    """The set bits of a uint64 (LLVM's ctpop: one instruction on CPUs that have it)."""
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@intrinsic
def _prefetch_row(typingctx, array, row):
    """Ask the CPU to start loading row ``row`` of a C-contiguous 2-D array (LLVM's prefetch, for reading)."""
    def codegen(context, builder, signature, args):
        array_type = signature.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        stride = builder.extract_value(view.strides, 0)
        offset = builder.mul(stride, args[1])
        address = builder.add(builder.ptrtoint(view.data, ir.IntType(64)), offset)
        pointer = builder.inttoptr(address, ir.IntType(8).as_pointer())
        i32 = ir.IntType(32)
        prefetch = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(ir.VoidType(), [pointer.type, i32, i32, i32]), "llvm.prefetch.p0")
        builder.call(prefetch, [pointer, i32(0), i32(3), i32(1)])
        return context.get_dummy_value()
    return types.none(array, types.intp), codegen


# -- ranking impurity and Gini (Xia et al. 2006) ------------------------------------------------------
@njit(cache=True, inline="always")
def _label_count(ints, count, s, label):
    """Rows holding ``label``: the set's count for complete rankings."""
    return count if ints[0] else s[label * ints[2]]


@njit(cache=True, inline="always")
def _rank_impurity(ints, floats, count, s):
    complete, n_labels, width, n_levels = ints[0], ints[1], ints[2], ints[3]
    offset = 0 if complete else 1
    total = 0.0
    for label in range(n_labels):  # per label, then over labels: the criterion's order of sums
        n_label = _label_count(ints, count, s, label)
        label_total = 0.0
        for m in range(n_levels - 1):
            below = s[label * width + offset + m]
            term = (n_label - below) * below
            if floats[1 + m] != 1.0:
                term *= floats[1 + m]
            label_total += term
        total += label_total
    return total


@njit(cache=True, inline="always")
def _max_rank_impurity(ints, floats, count_total, s_left, s_right):
    """``max I_rank`` of the union of two sets: every pair at the widest distance."""
    span = floats[0]
    if ints[0]:
        return span * (ints[1] * (count_total * (count_total - 1.0) / 2.0))
    pairs = 0.0
    for label in range(ints[1]):
        n_label = s_left[label * ints[2]] + s_right[label * ints[2]]
        pairs += n_label * (n_label - 1.0) / 2.0
    return span * pairs


@njit(cache=True, _nrt=False)
def _max_rank_impurity_one(ints, floats, count, s):
    span = floats[0]
    if ints[0]:
        return span * (ints[1] * (count * (count - 1.0) / 2.0))
    pairs = 0.0
    for label in range(ints[1]):
        n_label = s[label * ints[2]]
        pairs += n_label * (n_label - 1.0) / 2.0
    return span * pairs


@njit(cache=True, _nrt=False)
def _rank_similarity(ints, floats, count, s):
    worst = _max_rank_impurity_one(ints, floats, count, s)
    if not worst > 0.0:
        return 1.0
    return 1.0 - _rank_impurity(ints, floats, count, s) / worst


@njit(cache=True, inline="always")
def _level_squares(n_labels, n_levels, width, count, s, counts, keep):
    """Sum over labels and levels of the squared level counts of a set of complete rankings.

    ``s`` holds the cumulative counts (``width`` per label, the last level's
    is ``count``); with ``keep`` each level's count goes to ``counts``
    (``n_levels`` per label).
    """
    squares = 0.0
    for label in range(n_labels):
        previous = 0.0
        for m in range(n_levels):
            below = s[label * width + m] if m < n_levels - 1 else count
            step = below - previous
            if keep:
                counts[label * n_levels + m] = step
            squares += step * step
            previous = below
    return squares


@njit(cache=True, inline="always")
def _gini_complete(n_labels, n_levels, count, squares):
    """Gini similarity of complete rankings from the sum over labels of the squared level counts."""
    total = n_labels - squares / (count * count)
    return 1.0 - (total / n_labels) / (1.0 - 1.0 / n_levels)


@njit(cache=True, inline="always")
def _gini_similarity(ints, floats, count, s):
    complete, n_labels, width, n_levels = ints[0], ints[1], ints[2], ints[3]
    if n_levels < 2:
        return 1.0
    if complete:
        # Every label is held by all `count` rows: sum the squared level counts over the labels and
        # divide once (a division per label costs more than the rest of the score).
        squares = _level_squares(n_labels, n_levels, width, count, s, s, False)
        return _gini_complete(n_labels, n_levels, count, squares)
    else:
        total = 0.0
        for label in range(n_labels):
            n_label = s[label * width]
            squares = 0.0
            previous = 0.0
            for m in range(n_levels - 1):
                below = s[label * width + 1 + m]
                step = below - previous
                squares += step * step
                previous = below
            step = n_label - previous
            squares += step * step
            if n_label > 0.0:
                total += 1.0 - squares / (n_label * n_label)
    return 1.0 - (total / n_labels) / (1.0 - 1.0 / n_levels)


# -- pairwise entropy (Alfaro, Aledo & Gámez 2021) ------------------------------------------------------
@njit(cache=True, inline="always")
def _entropy_impurity(ints, floats, count, s):
    """The mean over pairs of the entropy of their three relations, by the NumPy criterion's arithmetic.

    ``H = (kept / n) log2 n - (sum of the kept c log2 c) / n`` per pair, the
    logarithms read from the criterion's tables (whole counts), the pairs
    summed in order: the same operations as
    ``PairwiseEntropy.impurity``, so the same bits. A set of at most 100,000
    rows cuts no share, so ``kept / n`` is 1 exactly, and a pair no row holds
    (``n = 0``, all terms 0) gives ``0 - 0 / 1``, the criterion's 0: that loop
    has no branch (indices in int32, which the vector units convert). When every row holds every label
    (``ints[3]``) each pair's ``n`` is the set's ``count``, and the mean is ``log2 n - (sum over the pairs
    of their c log2 c) / (n n_pairs)``: the arithmetic of ``PairwiseEntropy.impurity`` for such rankings.
    """
    n_pairs, size = ints[0], ints[2]
    if n_pairs == 0:
        return 0.0
    xlogx, log_count = 1, 1 + size  # where the tables start in `floats`
    total = 0.0
    if count <= _NO_SHARE_CUT and ints[3]:
        # Every row holds every label, so every pair's relations add up to the set's rows: one logarithm
        # and one division for the set, not one per pair. Without ties the tied counts are all 0, whose
        # table entry 0.0 adds nothing (the same bits skipped).
        if ints[4]:
            for k in range(n_pairs):
                total += ((floats[xlogx + np.int32(s[k])] + floats[xlogx + np.int32(s[n_pairs + k])])
                          + floats[xlogx + np.int32(s[2 * n_pairs + k])])
        else:
            for k in range(n_pairs):
                total += floats[xlogx + np.int32(s[k])] + floats[xlogx + np.int32(s[2 * n_pairs + k])]
        return floats[log_count + np.int32(count)] - total / (max(count, 1.0) * n_pairs)
    if count <= _NO_SHARE_CUT:
        for k in range(n_pairs):
            a, t, b = s[k], s[n_pairs + k], s[2 * n_pairs + k]
            n = (a + t) + b
            kept_xlogx = ((floats[xlogx + np.int32(a)] + floats[xlogx + np.int32(t)])
                          + floats[xlogx + np.int32(b)])
            total += floats[log_count + np.int32(n)] - kept_xlogx / max(n, 1.0)
        return total / n_pairs
    for k in range(n_pairs):
        a, t, b = s[k], s[n_pairs + k], s[2 * n_pairs + k]
        n = (a + t) + b
        entropy = 0.0
        if n > 0.0:
            kept = kept_xlogx = 0.0
            for c in (a, t, b):
                if c / n >= _SMALLEST_SHARE:
                    kept += c
                    kept_xlogx += floats[xlogx + int(c)]
            entropy = kept / n * floats[log_count + int(n)] - kept_xlogx / n
        total += entropy
    return total / n_pairs


@njit(cache=True, inline="always")
def _entropy_similarity(ints, floats, count, s):
    return 1.0 - _entropy_impurity(ints, floats, count, s) / floats[0]


@njit(cache=True, inline="always")
def entropy_split(ints: np.ndarray, floats: np.ndarray, count_left: float, s_left: np.ndarray,
                  count_right: float, s_right: np.ndarray) -> float:
    """Pairwise entropy: ``S_split``, the size-weighted similarity of the subsets (the weighted gain)."""
    left = _entropy_similarity(ints, floats, count_left, s_left)
    right = _entropy_similarity(ints, floats, count_right, s_right)
    return _size_weighted(count_left, left, count_right, right)


# -- the protocol of rankviz.tree.criteria.base.Criterion, for one set or one split ------------------
@njit(cache=True, _nrt=False)
def node_similarity(kind: int, ints: np.ndarray, floats: np.ndarray, count: float,
                    s: np.ndarray) -> float:
    """``Criterion.node_similarity`` of one set (count, summed statistics)."""
    if kind == MEAN_SPEARMAN:
        return _spearman_similarity(ints, floats, count, s)
    if kind == MALLOWS:
        return _mallows_similarity(ints, count, s)
    if kind == RANKING_IMPURITY:
        return _rank_similarity(ints, floats, count, s)
    if kind == PAIRWISE_ENTROPY:
        return _entropy_similarity(ints, floats, count, s)
    return _gini_similarity(ints, floats, count, s)


@njit(cache=True, _nrt=False)
def split_similarity(kind: int, ints: np.ndarray, floats: np.ndarray, count_left: float,
                     s_left: np.ndarray, count_right: float, s_right: np.ndarray) -> float:
    """``S_split`` of rule (6): the size-weighted mean similarity of the two subsets."""
    left = node_similarity(kind, ints, floats, count_left, s_left)
    right = node_similarity(kind, ints, floats, count_right, s_right)
    return _size_weighted(count_left, left, count_right, right)


@njit(cache=True, inline="always")
def spearman_split(ints: np.ndarray, floats: np.ndarray, count_left: float, s_left: np.ndarray,
                   count_right: float, s_right: np.ndarray) -> float:
    """Mean pairwise Spearman: ``S_split``, the size-weighted similarity of the subsets."""
    left = _spearman_similarity(ints, floats, count_left, s_left)
    right = _spearman_similarity(ints, floats, count_right, s_right)
    return _size_weighted(count_left, left, count_right, right)


@njit(cache=True, inline="always")
def gini_split(ints: np.ndarray, floats: np.ndarray, count_left: float, s_left: np.ndarray, count_right: float,
               s_right: np.ndarray) -> float:
    """Gini: ``S_split``, the size-weighted similarity of the subsets (the weighted gain)."""
    left = _gini_similarity(ints, floats, count_left, s_left)
    right = _gini_similarity(ints, floats, count_right, s_right)
    return _size_weighted(count_left, left, count_right, right)


@njit(cache=True, inline="always")
def rank_impurity_split(ints: np.ndarray, floats: np.ndarray, count_left: float, s_left: np.ndarray,
                        count_right: float, s_right: np.ndarray) -> float:
    """Ranking impurity: the unweighted gain of eq. (1) of Xia et al., as ``1 - (I(T_L) + I(T_R)) / max I(T)``.

    For complete rankings every label is held by all ``n`` rows of a set, so
    ``I = sum_l sum_m g_m A_lm (n - A_lm) = n sum g A - sum g A^2``: one pass
    over the statistics with the gaps ``g`` laid out per statistic (after the
    levels' gaps in ``floats``), no branch. With whole-number gaps (ranks
    1..K) every term is a whole number, so the sum is the criterion's exactly.
    """
    if ints[0]:
        weights = 1 + (ints[3] - 1)  # where the per-statistic gaps start in `floats`
        sum_left = square_left = sum_right = square_right = 0.0
        for j in range(len(s_left)):
            g = floats[weights + j]
            a, b = s_left[j], s_right[j]
            sum_left += g * a
            square_left += g * a * a
            sum_right += g * b
            square_right += g * b * b
        children = (count_left * sum_left - square_left) + (count_right * sum_right - square_right)
    else:
        children = _rank_impurity(ints, floats, count_left, s_left) + _rank_impurity(ints, floats, count_right,
                                                                                      s_right)
    worst = _max_rank_impurity(ints, floats, count_left + count_right, s_left, s_right)
    if not worst > 0.0:
        return 1.0
    return 1.0 - children / worst


@njit(cache=True, inline="always")
def _spread_term(theta, theta_floor):
    """A side's share of the Mallows score (``floats[0]``, see specs.criterion_spec): θ (eq. 6) when
    ``theta_floor`` is 0; less the variance ``1/max(θ, theta_floor)`` when it is positive; less the
    impurity ``1/(1 + θ)`` when it is :data:`MALLOWS_IMPURITY`."""
    if theta_floor > 0.0:
        return -1.0 / max(theta, theta_floor)
    if theta_floor < 0.0:
        return -1.0 / (1.0 + theta)
    return theta


@njit(cache=True, inline="always")
def mallows_split(ints: np.ndarray, floats: np.ndarray, table: np.ndarray, table_x: np.ndarray,
                  count_left: float, s_left: np.ndarray, count_right: float,
                  s_right: np.ndarray) -> float:
    """Mallows: the size-weighted impurity 1/(1 + θ) or variance 1/θ (minimised), or θ (eq. 6 of Cheng et al.);
    a pure side's impurity is 0, its θ that of half a discordance (:func:`_pure_distance`)."""
    term_left = _spread_term(_mallows_theta(ints, table, table_x, count_left, s_left, floats[0]), floats[0])
    term_right = _spread_term(_mallows_theta(ints, table, table_x, count_right, s_right, floats[0]), floats[0])
    return _size_weighted(count_left, term_left, count_right, term_right)


@njit(cache=True, _nrt=False)
def split_score(kind: int, ints: np.ndarray, floats: np.ndarray, table: np.ndarray, table_x: np.ndarray,
                count_left: float, s_left: np.ndarray, count_right: float,
                s_right: np.ndarray) -> float:
    """``Criterion.split_score``: what the search maximises."""
    if kind == MEAN_SPEARMAN:
        return spearman_split(ints, floats, count_left, s_left, count_right, s_right)
    if kind == MALLOWS:
        return mallows_split(ints, floats, table, table_x, count_left, s_left, count_right, s_right)
    if kind == RANKING_IMPURITY:
        return rank_impurity_split(ints, floats, count_left, s_left, count_right, s_right)
    if kind == PAIRWISE_ENTROPY:
        return entropy_split(ints, floats, count_left, s_left, count_right, s_right)
    return gini_split(ints, floats, count_left, s_left, count_right, s_right)


@njit(cache=True, _nrt=False)
def can_split(kind: int, ints: np.ndarray, count: float, s: np.ndarray) -> bool:
    """``Criterion.can_split``: Mallows needs ``2 |Y|`` label occurrences (Cheng et al., §5.1)."""
    if kind != MALLOWS:
        return True
    n_labels = ints[1]
    if ints[0]:
        return count * n_labels >= 2 * n_labels
    occurrences = 0.0
    n_pairs = ints[2]
    for label in range(n_labels):
        occurrences += s[2 * n_pairs + n_labels + label]
    return occurrences >= 2 * n_labels


# -- the attributes a node is searched on (random forests) -----------------------------------------
# SplitMix64's finaliser, compiled from the one function the NumPy builder runs too.
_mix = njit(cache=True, inline="always")(splitmix64)


@njit(cache=True, nogil=True, _nrt=False)
def draw_features(seed: int, node: int, max_features: int, keys: np.ndarray, drawn: np.ndarray,
                  heap: np.ndarray) -> None:
    """Mark in ``drawn`` the ``max_features`` attributes node ``node`` is searched on.

    Each attribute gets the key ``mix(mix(seed + node * g) + (f + 1) * g)``
    (``g`` the 64-bit golden ratio); the attributes of the smallest keys are
    drawn. The keys depend on nothing but ``seed`` (the tree's random
    state), ``node`` and the attribute, so the NumPy builder draws the same ones
    (:func:`rankviz.tree.feature_draws.drawn_features`) in whatever order it
    searches its nodes. They are selected with a max-heap of the smallest
    keys seen (``heap``, room for ``max_features`` attributes; equal keys go
    to the lower attribute, as a stable sort): no allocation, so the grower
    calls it without reference counting.
    """
    base = _mix(np.uint64(seed) + np.uint64(node) * GOLDEN)
    for f in range(len(keys)):
        keys[f] = _mix(base + np.uint64(f + 1) * GOLDEN)
    size = 0
    for f in range(len(keys)):
        if size < max_features:  # push f, sifting it up
            i = size
            size += 1
            while i > 0:
                parent = (i - 1) // 2
                if keys[heap[parent]] > keys[f] or (keys[heap[parent]] == keys[f] and heap[parent] > f):
                    break
                heap[i] = heap[parent]
                i = parent
            heap[i] = f
        elif keys[f] < keys[heap[0]]:  # (a later attribute with an equal key does not replace the root)
            i = 0
            while True:  # replace the largest, sifting f down
                child = 2 * i + 1
                if child >= size:
                    break
                if child + 1 < size and (keys[heap[child + 1]] > keys[heap[child]] or (
                        keys[heap[child + 1]] == keys[heap[child]] and heap[child + 1] > heap[child])):
                    child += 1
                if keys[heap[child]] > keys[f] or (keys[heap[child]] == keys[f] and heap[child] > f):
                    heap[i] = heap[child]
                    i = child
                else:
                    break
            heap[i] = f
    for f in range(len(drawn)):
        drawn[f] = False
    for i in range(size):
        drawn[heap[i]] = True


# -- the grower ------------------------------------------------------------------------------------
# nogil: the trees of a forest grow in threads (rankviz.ensemble.RankingForest).
@njit(cache=True, nogil=True)
def grow(columns: np.ndarray, nominal: np.ndarray, numeric: np.ndarray, missing: np.ndarray, order: np.ndarray,
         stats: np.ndarray, row_levels: np.ndarray, row_codes: np.ndarray, kind: int,
         ints: np.ndarray, floats: np.ndarray, table: np.ndarray, table_x: np.ndarray, bounds: tuple,
         searches_other_score: bool, gamma: float, min_leaf: int, depth_limit: int, capacity: int,
         ring: int, max_features: int, feature_seed: int) -> tuple:
    """Grow the nodes; :func:`rankviz.tree.compiled.growth.grow_nodes` prepares the arguments.

    ``max_features`` below the number of attributes searches each node on
    that many of them, drawn by :func:`draw_features` from ``feature_seed``
    and the node's id (the random forest's split-level draws).

    ``columns`` are the attributes (one row each), ``order`` each numeric
    attribute's row order (sorted, NaN last; partitioned in place), ``stats``
    the row statistics. ``row_levels`` (rows x labels, or empty) holds each
    row's level index per label for Gini with complete rankings: its scans
    then keep the sum of squared level counts of each side, which a row
    changes at one level per label (O(labels) per row instead of
    O(labels x levels)). ``row_codes`` (rows x pairs, or empty) holds each
    row's vote margin of every pair for Mallows with complete rankings
    (:meth:`rankviz.tree.compiled.CriterionSpec.row_codes`): its scans keep
    each side's pair counts and summed margins, which give the side's Borda
    centre and Kendall distance in one pass over the pairs; ``bounds`` are then
    the score term bounds of :func:`spread_bounds` for its number of labels and
    form of the score (they depend on nothing else, so the caller keeps them:
    computing them takes milliseconds, more than a small file's fit). For the
    pairwise entropy of rankings holding every label it holds each row's relation of every pair
    (1, 0, -1), and the scans keep each side's pair counts as whole numbers
    (:func:`_scan_entropy`). ``ring`` (a power of
    two) is the first room for the summed statistics of the nodes waiting to
    be searched; it doubles as the frontier grows. Returns the node
    columns (with, for Mallows of complete rankings, each node's Kendall
    distance to its Borda centre; NaN otherwise), the leaf of every row and
    the number of nodes.
    """
    n_features, n = columns.shape
    n_stats = stats.shape[1]
    drawn = np.ones(n_features, dtype=np.bool_)
    feature_keys = np.empty(n_features, dtype=np.uint64)
    feature_heap = np.empty(n_features, dtype=np.intp)
    draws = 0 < max_features < n_features
    # Gini of complete rankings, scanned level by level
    by_levels = row_levels.shape[0] == n and n > 0 and (kind == GINI or kind == RANKING_IMPURITY)
    n_labels, n_levels = ints[1], ints[3] if kind == GINI or kind == RANKING_IMPURITY else 1
    left_levels = np.zeros(n_labels * n_levels if by_levels else 1)
    parent_levels = np.zeros(n_labels * n_levels if by_levels else 1)
    # the ranking impurity: the distance between levels (the gaps between them, summed), and each row's
    # summed distance to the node's rows
    by_distances = by_levels and kind == RANKING_IMPURITY
    level_distance = np.zeros((n_levels, n_levels) if by_distances else (1, 1))
    if by_distances:
        for a in range(n_levels):
            for b in range(a + 1, n_levels):
                level_distance[a, b] = level_distance[b, a] = level_distance[a, b - 1] + floats[b]
    to_parent = np.zeros(n if by_distances else 1)
    partial = np.zeros(n_levels)
    # Mallows of complete rankings, scanned pair by pair: each pair's labels, and the scans' running
    # sums (left side's counts and margins, the node's)
    by_pairs = row_codes.shape[0] == n and n > 0 and kind == MALLOWS
    # the pairwise entropy of rankings holding every label, scanned pair by pair too (_scan_entropy)
    by_entropy = row_codes.shape[0] == n and n > 0 and kind == PAIRWISE_ENTROPY
    n_pairs = ints[2] if by_pairs else (ints[0] if by_entropy else 0)
    pair_a = ints[3:3 + n_pairs] if by_pairs else ints[:0]
    pair_b = ints[3 + n_pairs:3 + 2 * n_pairs] if by_pairs else ints[:0]
    # (int32 whole numbers, exact; padded to whole blocks of _PAIR_BLOCK by pairs that add nothing to a
    # distance: no count, the left margin -1 and the node's -2, so both sides' margins are negative)
    n_padded = (n_pairs + _PAIR_BLOCK - 1) // _PAIR_BLOCK * _PAIR_BLOCK
    # rows: the left side's A_k and margins, the node's, then (rankings with ties) the left side's and the
    # node's B_k, the rankings putting b_k first (without ties the count less A_k)
    pair_sums = np.zeros((6, n_padded), dtype=np.int32)
    for k in range(n_pairs, n_padded):
        pair_sums[1, k] = -1
        pair_sums[3, k] = -2
    if kind == MEAN_SPEARMAN:
        path = _SCAN_SPEARMAN
    elif by_distances:
        path = _SCAN_DISTANCES
    elif by_levels:
        path = _SCAN_LEVELS
    elif by_pairs:
        path = _SCAN_PAIRS
    elif by_entropy:
        path = _SCAN_ENTROPY
    else:
        path = _SCAN_SUMS
    levels = (row_levels, parent_levels, level_distance, to_parent, left_levels)
    reciprocals = 1.0 / np.arange(n + 1 if by_pairs else 1)  # 1 / k at k, for the scans' θ bounds
    # the Mallows scans' Kendall distances, or the mean-Spearman scans' squared norms, per candidate
    distances = np.empty((2, n if by_pairs or kind == MEAN_SPEARMAN else 1))
    pair_entropy = _pair_entropy_table(floats, n, n_pairs, n_features) if by_entropy and not ints[4] else np.empty(0)
    pairs = (row_codes, pair_sums, bounds, reciprocals, distances, pair_entropy)
    # `capacity` bounds the number of nodes; the columns start small and double as the tree
    # grows (a tree of defaults on many rows has far fewer nodes than the 2n - 1 bound).
    limit = capacity
    capacity = min(limit, 1023)
    children_left = np.full(capacity, -1, dtype=np.intp)
    children_right = np.full(capacity, -1, dtype=np.intp)
    feature = np.full(capacity, -1, dtype=np.intp)
    threshold = np.full(capacity, np.nan)
    missing_left = np.zeros(capacity, dtype=np.bool_)
    split_feature = np.full(capacity, -1, dtype=np.intp)
    split_threshold = np.full(capacity, np.nan)
    split_scores = np.full(capacity, np.nan)
    similarity = np.full(capacity, np.nan)
    # Mallows of complete rankings: each node's Kendall distance to its Borda centre, for its model
    # (a whole number from its sums, which only the grower holds; summed row by row over each row's path
    # afterwards, O(rows x depth), it was a tenth of a deep chain's fit)
    distance = np.full(capacity, np.nan)
    depth = np.zeros(capacity, dtype=np.intp)
    count = np.zeros(capacity, dtype=np.intp)
    # The summed statistics of the nodes waiting to be searched (ids node..size-1), in a ring: a node's
    # sums are read once, when it is searched, so only the frontier is kept (a table for every node
    # held 2n - 1 rows of them: 150 MB for Gini's 240 statistics on 40,000 rows). `ring`, a power of
    # two, is its first size, cut to the tree's bound on nodes (a few rows of Mallows on hundreds of
    # labels have 80,000 statistics each).
    while ring > 2 and ring // 2 >= limit:
        ring //= 2
    stat_sum = np.zeros((ring, n_stats))
    start = np.zeros(capacity, dtype=np.intp)
    # Rows of every node in one array too (for nominal attributes), segmented like `order`. Any numeric
    # attribute's order holds each node's rows in its segment too, so without nominal attributes the
    # first one serves, and one partition per node is saved.
    own_rows = order.shape[0] == 0
    for f in range(n_features):
        own_rows = own_rows or nominal[f]
    rows = np.arange(n).astype(order.dtype) if own_rows else order[0]
    goes_left = np.zeros(n, dtype=np.bool_)
    buffer = np.empty(n, dtype=order.dtype)
    # Per node search: candidate scores and sides, running sums, the best split's sums.
    cand_pos = np.empty(n, dtype=np.intp)
    cand_score = np.empty(n)
    cand_left = np.zeros(n, dtype=np.bool_)
    sums = np.zeros((4, n_stats))  # the scans' work arrays: left, right, and both with the missing moved
    missing_sum = np.zeros(n_stats)
    best_left = np.zeros(n_stats)
    work = (sums, cand_pos, cand_score, cand_left, missing_sum, np.empty(n))
    # Statistics that are counts (indicators) or halves of them sum exactly in any order, so a child's
    # sums may be taken as its parent's less its sibling's (see _left_sums). Mean Spearman's are whole
    # numbers when every row holds every label (twice the centred positions, all_unit): a chain that
    # peels rows off the top summed its whole left side at every node (pure noise, 10,000 rows of 8
    # labels, 1,282 levels: 2.44x -> 2.22x CART)
    whole_sums = (kind == GINI or kind == RANKING_IMPURITY or kind == PAIRWISE_ENTROPY
                  or (kind == MALLOWS and ints[0] == 1) or (kind == MEAN_SPEARMAN and ints[0] == 1))

    count[0] = n
    for row in range(n):
        for j in range(n_stats):
            stat_sum[0, j] += stats[row, j]
    similarity[0] = node_similarity(kind, ints, floats, float(n), stat_sum[0])
    if kind == MALLOWS and ints[0]:
        distance[0] = _mallows_distance(ints, float(n), stat_sum[0])[0]
    data = (columns, nominal, numeric, missing, order, stats, row_levels)
    rule = (kind, ints, floats, table, table_x, searches_other_score, gamma, min_leaf, depth_limit)
    draw = (draws, max_features, feature_seed, feature_keys, drawn, feature_heap)
    scan = (path, by_levels, by_distances, by_pairs, partial, pair_sums, levels, pairs, work)
    # the nominal attributes' work arrays, with room for the most values of any of them
    n_values = 1
    for f in range(n_features):
        if nominal[f]:
            for row in range(n):
                n_values = max(n_values, int(columns[f, row]) + 1)
    nominal_work = (np.zeros(n_values, dtype=np.intp), np.zeros((n_values, n_stats)), np.empty(n_values),
                    np.empty(n_values, dtype=np.intp), np.zeros(n_stats))
    split = (rows, own_rows, goes_left, buffer, best_left, missing_sum, whole_sums, nominal_work, np.zeros(n_stats))
    size = 1
    node = 0
    while node < size:
        # The nodes are grown by a function without reference counting (see _grow_from); it comes back
        # here only for more room, which takes allocations.
        nodes = (children_left, children_right, feature, threshold, missing_left, split_feature, split_threshold,
                 split_scores, similarity, distance, depth, count, start)
        node, size, wanted = _grow_from(node, size, capacity, ring, nodes, stat_sum, data, rule, draw, scan, split)
        if wanted == _MORE_NODES:
            capacity = min(limit, 2 * capacity + 1)
            children_left = _enlarged(children_left, capacity, -1)
            children_right = _enlarged(children_right, capacity, -1)
            feature = _enlarged(feature, capacity, -1)
            threshold = _enlarged(threshold, capacity, np.nan)
            missing_left = _enlarged(missing_left, capacity, False)
            split_feature = _enlarged(split_feature, capacity, -1)
            split_threshold = _enlarged(split_threshold, capacity, np.nan)
            split_scores = _enlarged(split_scores, capacity, np.nan)
            similarity = _enlarged(similarity, capacity, np.nan)
            distance = _enlarged(distance, capacity, np.nan)
            depth = _enlarged(depth, capacity, 0)
            count = _enlarged(count, capacity, 0)
            start = _enlarged(start, capacity, 0)
        elif wanted == _WIDER_RING:  # the frontier outgrows the ring: double it, keeping the waiting nodes
            wider = np.zeros((2 * ring, n_stats))
            for waiting in range(node, size):
                wider[waiting & (2 * ring - 1)] = stat_sum[waiting & (ring - 1)]
            ring *= 2
            stat_sum = wider

    node_of_row = np.zeros(n, dtype=np.intp)
    for node in range(size):
        if children_left[node] < 0:
            for p in range(start[node], start[node] + count[node]):
                node_of_row[rows[p]] = node
    return (children_left, children_right, feature, threshold, missing_left, split_feature, split_threshold,
            split_scores, similarity, depth, count, distance, node_of_row, size)


#: What :func:`_grow_from` stops for: room for more nodes, or for more waiting nodes' sums.
_MORE_NODES, _WIDER_RING = 1, 2


@njit(cache=True, _nrt=False)
def _grow_from(node, size, capacity, ring, nodes, stat_sum, data, rule, draw, scan, split):
    """Search and split the nodes from ``node`` on (:func:`grow`'s loop); returns ``(node, size, wanted)``.

    Without reference counting: in :func:`grow`, which allocates, every
    view of a node's rows or sums and every call counted references
    atomically, a fifth of a maximal tree's time on a file of 500 rows.
    It stops when a split needs more room than ``capacity`` nodes or
    ``ring`` waiting nodes' sums (``wanted`` is then :data:`_MORE_NODES` or
    :data:`_WIDER_RING`, and ``node`` the node to search again once
    :func:`grow` has made it), and when every node is done (``wanted`` 0).
    """
    (children_left, children_right, feature, threshold, missing_left, split_feature, split_threshold, split_scores,
     similarity, distance, depth, count, start) = nodes
    columns, nominal, numeric, missing, order, stats, row_levels = data
    kind, ints, floats, table, table_x, searches_other_score, gamma, min_leaf, depth_limit = rule
    draws, max_features, feature_seed, feature_keys, drawn, feature_heap = draw
    path, by_levels, by_distances, by_pairs, partial, pair_sums, levels, pairs, work = scan
    rows, own_rows, goes_left, buffer, best_left, missing_sum, whole_sums, nominal_work, nominal_sum = split
    _, parent_levels, level_distance, to_parent, left_levels = levels
    sums = work[0]
    right = sums[1]
    n_features = columns.shape[0]
    n_stats = stats.shape[1]
    n_labels = ints[1]
    n_levels = ints[3] if kind == GINI or kind == RANKING_IMPURITY else 1
    by_entropy = path == _SCAN_ENTROPY
    n_pairs = ints[2] if by_pairs else (ints[0] if by_entropy else 0)
    pair_a = ints[3:3 + n_pairs] if by_pairs else ints[:0]
    pair_b = ints[3 + n_pairs:3 + 2 * n_pairs] if by_pairs else ints[:0]
    parent_impurity = worst = 0.0
    while node < size:
        c = count[node]
        if ((depth_limit < 0 or depth[node] < depth_limit) and c >= max(2, 2 * min_leaf)
                and similarity[node] < _PURE and can_split(kind, ints, float(c), stat_sum[node & (ring - 1)])):
            lo = start[node]
            hi = lo + c
            parent_sum = stat_sum[node & (ring - 1)]
            parent_square = 0.0
            if by_levels:
                # the parent's count per (label, level) and the sum of their squares (whole numbers,
                # exact, so the scan's sums equal the full formula's)
                parent_square = _level_squares(n_labels, n_levels, n_levels - 1, float(c), parent_sum,
                                               parent_levels, True)
            if by_distances:
                _distances_to_levels(rows[lo:hi], row_levels, parent_levels, level_distance, partial, to_parent)
                parent_impurity = _rank_impurity(ints, floats, float(c), parent_sum)
                worst = _max_rank_impurity_one(ints, floats, float(c), parent_sum)
            if by_pairs and ints[0]:
                # the node's pair counts A_k and vote margins wins[a_k] - wins[b_k] (whole numbers)
                for k in range(n_pairs):
                    pair_sums[2, k] = parent_sum[k]
                    pair_sums[3, k] = parent_sum[n_pairs + pair_a[k]] - parent_sum[n_pairs + pair_b[k]]
            elif by_pairs:
                # with ties: A_k, B_k, and twice the Borda votes' margin (votes of tied labels are halves)
                votes_at = 2 * n_pairs
                for k in range(n_pairs):
                    pair_sums[2, k] = np.int32(parent_sum[k])
                    pair_sums[5, k] = np.int32(parent_sum[n_pairs + k])
                    pair_sums[3, k] = np.int32(2.0 * (parent_sum[votes_at + pair_a[k]]
                                                      - parent_sum[votes_at + pair_b[k]]))
            elif by_entropy:
                # the node's rows putting a_k first and b_k first (whole numbers)
                for k in range(n_pairs):
                    pair_sums[2, k] = np.int32(parent_sum[k])
                    pair_sums[5, k] = np.int32(parent_sum[2 * n_pairs + k])
            if draws:
                draw_features(feature_seed, node, max_features, feature_keys, drawn, feature_heap)
            (best_score, best_feature, best_threshold, best_count, best_missing_left, best_column,
             best_margin) = _best_numeric(
                columns, numeric, missing, order, lo, hi, stats, parent_sum, min_leaf, kind, ints, floats, table,
                table_x, path, levels, (float(parent_square), parent_impurity, worst), pairs, work, drawn)
            for f in range(n_features):
                if not nominal[f] or not drawn[f]:
                    continue
                value, score, value_count = _best_nominal(columns[f], rows[lo:hi], stats, parent_sum, c,
                                                          min_leaf, kind, ints, floats, table, table_x,
                                                          nominal_work, nominal_sum)
                if value < 0:
                    continue
                current = -np.inf if math.isnan(best_score) else best_score
                if math.isfinite(current) and abs(score - current) <= _TIE * (1.0 + abs(current)):
                    better = best_margin == 0.0 and f < best_feature  # a nominal test has no margin
                else:
                    better = score > current
                if better:
                    best_score, best_feature, best_threshold, best_margin = score, f, float(value), 0.0
                    best_count, best_missing_left = value_count, False
                    best_column = -1
                    for j in range(n_stats):
                        best_left[j] = nominal_sum[j]
            if best_column >= 0:
                # The left side's sums of the best numeric split, summed once the search is over (not each
                # time an attribute improves on the best: with many statistics that cost more than the scans);
                # the scans' level counts, free now, hold its level counts
                _left_sums(stats, order[best_column, lo:hi], best_count, best_missing_left,
                           columns[numeric[best_column]], parent_sum, whole_sums, row_levels if by_levels else
                           row_levels[:0], left_levels, missing_sum, best_left)
            s_split = best_score
            if best_feature >= 0 and searches_other_score:  # rule (6) judges the split by S_split
                for j in range(n_stats):
                    right[j] = parent_sum[j] - best_left[j]
                s_split = split_similarity(kind, ints, floats, float(best_count), best_left,
                                           float(c - best_count), right)
            elif best_feature < 0:
                s_split = np.nan
            split_scores[node] = s_split
            split_feature[node] = best_feature
            split_threshold[node] = best_threshold
            if best_feature >= 0 and gamma > _breakpoint(similarity[node], s_split):
                if size + 2 > capacity:
                    return node, size, _MORE_NODES  # (grow enlarges the columns; this node is searched again)
                if size + 2 - node > ring:
                    return node, size, _WIDER_RING
                left = size
                size += 2
                left_sum = stat_sum[left & (ring - 1)]
                right_sum = stat_sum[(left + 1) & (ring - 1)]
                children_left[node] = left
                children_right[node] = left + 1
                feature[node] = best_feature
                threshold[node] = best_threshold
                missing_left[node] = best_missing_left
                depth[left] = depth[left + 1] = depth[node] + 1
                count[left] = best_count
                count[left + 1] = c - best_count
                for j in range(n_stats):
                    left_sum[j] = best_left[j]
                    right_sum[j] = parent_sum[j] - best_left[j]
                similarity[left] = node_similarity(kind, ints, floats, float(count[left]), left_sum)
                similarity[left + 1] = node_similarity(kind, ints, floats, float(count[left + 1]), right_sum)
                if kind == MALLOWS and ints[0]:
                    distance[left] = _mallows_distance(ints, float(count[left]), left_sum)[0]
                    distance[left + 1] = _mallows_distance(ints, float(count[left + 1]), right_sum)[0]
                start[left] = lo
                start[left + 1] = lo + best_count
                _split_rows(columns[best_feature], nominal[best_feature], best_threshold, best_missing_left, rows,
                            own_rows, order, best_column, lo, hi, best_count, goes_left, buffer)
        node += 1

    return node, size, 0


@njit(cache=True, _nrt=False)
def _best_numeric(columns, numeric, missing, order, lo, hi, stats, parent_sum, min_leaf, kind, ints, floats, table,
                  table_x, path, levels, level_sums, pairs, work, drawn):
    """The best threshold over the numeric attributes of the node whose rows are ``order[:, lo:hi]``.

    ``path`` says which scan serves rows without missing values
    (``_SCAN_*``); ``levels``, ``pairs`` and ``work`` are the scans' arrays
    and ``level_sums`` the node's numbers they start from.
    Returns (score, attribute, threshold, left count, missing go left, attribute's
    column in ``order``, margin), with score NaN and attribute -1 when no
    threshold is allowed. Ties go to the widest margin, then to the earlier
    attribute (:func:`_widest_best`). A function apart from :func:`grow`, without reference
    counting: there each attribute's views (its values, the node's segment)
    cost atomic reference counts, a sixth of a deep tree's time.
    """
    row_levels, parent_levels, level_distance, to_parent, left_levels = levels
    parent_square, parent_impurity, worst = level_sums
    row_codes, pair_sums, bounds, reciprocals, distances, pair_entropy = pairs
    sums, cand_pos, cand_score, cand_left, missing_sum, gathered = work
    n_stats = stats.shape[1]
    n_labels = ints[1]
    n_levels = ints[3] if kind == GINI or kind == RANKING_IMPURITY else 1
    c = hi - lo
    values = gathered[:c]
    best_score, best_feature, best_threshold, best_count, best_missing_left, best_column, best_margin = (
        np.nan, -1, np.nan, 0, False, -1, 0.0)
    for column in range(len(numeric)):
        f = numeric[column]
        if not drawn[f]:
            continue
        x = columns[f]
        seg = order[column, lo:hi]
        # The node's values in the attribute's order, gathered first, so the scans read them in order
        # rather than through the segment (measured on 40,000 rows of 16 labels: Gini 0.72 -> 0.69 s,
        # mean Spearman 0.58 -> 0.55 s; Mallows unchanged)
        for p in range(c):
            values[p] = x[seg[p]]
        n_missing = 0
        if missing[column]:
            for j in range(n_stats):
                missing_sum[j] = 0.0
            p = c - 1
            while p >= 0 and math.isnan(values[p]):
                n_missing += 1
                for j in range(n_stats):
                    missing_sum[j] += stats[seg[p], j]
                p -= 1
        if n_missing == 0 and path == _SCAN_SPEARMAN:
            n_cand = _scan_spearman(values, seg, min_leaf, stats, parent_sum, ints[0], floats[0], n_labels,
                                    sums[0], distances, cand_pos, cand_score)
        elif n_missing == 0 and path == _SCAN_DISTANCES:
            n_cand = _scan_distances(values, seg, min_leaf, row_levels, n_labels, n_levels, level_distance,
                                     to_parent, parent_impurity, worst, left_levels, cand_pos, cand_score)
        elif n_missing == 0 and path == _SCAN_LEVELS:
            n_cand = _scan_levels(values, seg, min_leaf, row_levels, n_labels, n_levels, parent_levels,
                                  parent_square, left_levels, cand_pos, cand_score)
        elif n_missing == 0 and path == _SCAN_PAIRS:
            n_cand = _scan_pairs(values, seg, min_leaf, row_codes, n_labels, floats[0], table, table_x, bounds,
                                 reciprocals, -np.inf if math.isnan(best_score) else best_score, ints[0] == 0,
                                 pair_sums,
                                 distances, cand_pos, cand_score)
        elif n_missing == 0 and path == _SCAN_ENTROPY:
            n_cand = _scan_entropy(values, seg, min_leaf, row_codes, ints, floats, pair_entropy, pair_sums, cand_pos,
                                   cand_score)
        else:
            n_cand = _scan_sums(values, seg, min_leaf, stats, parent_sum, n_missing, missing_sum, kind, ints,
                                floats, table, table_x, sums, cand_pos, cand_score, cand_left)
        if n_cand == 0:
            continue
        pick, margin = _widest_best(cand_score, cand_pos, n_cand, values, values[c - 1 - n_missing] - values[0])
        p = cand_pos[pick]
        score = cand_score[pick]
        current = -np.inf if math.isnan(best_score) else best_score
        if math.isfinite(current) and abs(score - current) <= _TIE * (1.0 + abs(current)):
            better = margin > best_margin or (margin == best_margin and f < best_feature)
        else:
            better = score > current
        if not better:
            continue
        low, high = values[p], values[p + 1]
        mid = low / 2.0 + high / 2.0  # (low + high) / 2 can overflow
        best_threshold = mid if mid < high else low
        best_score = score
        best_feature = f
        best_missing_left = n_missing > 0 and cand_left[pick]  # only the scan of full sums moves them
        best_count = p + 1 + (n_missing if best_missing_left else 0)
        best_column = column
        best_margin = margin
    return best_score, best_feature, best_threshold, best_count, best_missing_left, best_column, best_margin


@njit(cache=True)
def node_sums(node_of_row: np.ndarray, row_values: np.ndarray, children_left: np.ndarray,
              children_right: np.ndarray) -> np.ndarray:
    """Every node's sums of ``row_values`` over its rows, from the leaf of each row.

    The leaves sum their rows; then each split node, from the last to the
    first, adds its two children (grown breadth first, a child's id is above
    its parent's). The NumPy builder does this with one ``np.add.at`` per depth,
    a fixed cost per depth that a chain hundreds deep pays hundreds of times.
    """
    size, width = len(children_left), row_values.shape[1]
    sums = np.zeros((size, width))
    # element by element: a row-wise ``+=`` allocates a temporary array per row and per node
    for row in range(len(node_of_row)):
        leaf = node_of_row[row]
        for j in range(width):
            sums[leaf, j] += row_values[row, j]
    for node in range(size - 1, -1, -1):
        left, right = children_left[node], children_right[node]
        if left >= 0:
            for j in range(width):
                sums[node, j] = sums[left, j] + sums[right, j]
    return sums


@njit(cache=True)
def node_pair_counts(Y: np.ndarray, node_of_row: np.ndarray, children_left: np.ndarray,
                     children_right: np.ndarray) -> tuple:
    """Every node's counts of the rows that put the first label of each pair ahead, tie the pair, or put it behind.

    The sums :func:`node_sums` makes of the rows' pair relations
    (:func:`rankviz.tree.criteria.pair_relations.pair_relations`: the same
    differences of positions, compared the same way, NaN in no count),
    without the table of three indicators per row and pair: for a
    bucket-order tree on 1,484 rows of 10 labels that table cost more than
    growing the tree. Returns ``(ahead, tie, behind)``, each of shape
    (nodes, pairs), the pairs ``i < j`` in ``np.triu_indices`` order.
    """
    size, n_labels = len(children_left), Y.shape[1]
    n_pairs = n_labels * (n_labels - 1) // 2
    ahead = np.zeros((size, n_pairs))
    tie = np.zeros((size, n_pairs))
    behind = np.zeros((size, n_pairs))
    for row in range(len(node_of_row)):
        leaf = node_of_row[row]
        k = 0
        for i in range(n_labels):
            position = Y[row, i]
            for j in range(i + 1, n_labels):
                difference = position - Y[row, j]
                ahead[leaf, k] += difference < 0.0
                tie[leaf, k] += difference == 0.0
                behind[leaf, k] += difference > 0.0
                k += 1
    for node in range(size - 1, -1, -1):
        left, right = children_left[node], children_right[node]
        if left >= 0:
            for k in range(n_pairs):
                ahead[node, k] = ahead[left, k] + ahead[right, k]
                tie[node, k] = tie[left, k] + tie[right, k]
                behind[node, k] = behind[left, k] + behind[right, k]
    return ahead, tie, behind


@njit(cache=True)
def augmented_pair_statistics(indicators: np.ndarray, pair_a: np.ndarray, pair_b: np.ndarray,
                              n_labels: int) -> np.ndarray:
    """Each row's pair indicators ``A_k``, then each label's wins, then ``sum_k A_k`` (rows x (pairs + labels + 1)).

    A label wins the pairs it leads as ``a_k`` (``A_k``) and those it leads as ``b_k`` (``1 - A_k``):
    :meth:`rankviz.tree.compiled.CriterionSpec.augmented_statistics`. One pass over the rows; with NumPy a
    label at a time it cost a tenth of a Mallows tree's fit on a file of 150 rows.
    """
    n_rows, n_pairs = indicators.shape
    out = np.zeros((n_rows, n_pairs + n_labels + 1))
    for row in range(n_rows):
        total = 0.0
        for k in range(n_pairs):
            a_k = indicators[row, k]
            out[row, k] = a_k
            out[row, n_pairs + pair_a[k]] += a_k
            out[row, n_pairs + pair_b[k]] += 1.0 - a_k
            total += a_k
        out[row, n_pairs + n_labels] = total
    return out


@njit(cache=True)
def node_rankings(rank_part: np.ndarray) -> tuple:
    """Every node's mean positions and the ranking they give, from its rank sums and counts.

    ``rank_part`` holds, per node, each label's summed position and then the
    number of rankings holding it. The mean is the sum over the count (NaN
    for a count of 0, as :func:`rankviz.label_ranking.aggregation.mean_from_sums`);
    the ranking orders labels by increasing mean, NaN last, equal means in
    label order (:func:`rankviz.label_ranking.aggregation.rank_by_mean`), by
    a stable insertion sort per node: NumPy's argsort of short rows cost more
    than a small tree's growth (16 labels, 400 nodes: 0.09 ms).
    """
    n_nodes = rank_part.shape[0]
    n_labels = rank_part.shape[1] // 2
    mean = np.empty((n_nodes, n_labels))
    ranking = np.empty((n_nodes, n_labels))
    order = np.empty(n_labels, dtype=np.intp)
    for node in range(n_nodes):
        for label in range(n_labels):
            count = rank_part[node, n_labels + label]
            mean[node, label] = rank_part[node, label] / count if count > 0 else np.nan
        for label in range(n_labels):
            value = mean[node, label]
            k = label
            # the labels before it that come after it move up: a NaN never passes another label, and a
            # number passes the NaN and the larger numbers before it
            while k > 0 and not math.isnan(value) and (math.isnan(mean[node, order[k - 1]])
                                                        or mean[node, order[k - 1]] > value):
                order[k] = order[k - 1]
                k -= 1
            order[k] = label
        for k in range(n_labels):
            ranking[node, order[k]] = k + 1.0
    return mean, ranking


@njit(cache=True)
def pair_codes(wins: np.ndarray, pair_a: np.ndarray, pair_b: np.ndarray) -> np.ndarray:
    """Each row's vote margin of every pair, ``wins[row, a_k] - wins[row, b_k]``, as int16 (rows x pairs,
    padded with zeros to whole blocks of :data:`_PAIR_BLOCK` pairs).

    Margins are below the label count in size, and the Mallows criterion refuses labels whose
    pairs would not fit in memory long before 2**15. Compiled: NumPy's fancy indexing of the
    float wins (twice rows x pairs float64 copies) cost more than a tree of defaults on 26 labels.
    The padding, a code that adds nothing, lets the scans add a row's codes in whole vectors (the
    long chain's Mallows tree 0.102 -> 0.078 s).
    """
    n_rows, n_pairs = wins.shape[0], len(pair_a)
    codes = np.zeros((n_rows, (n_pairs + _PAIR_BLOCK - 1) // _PAIR_BLOCK * _PAIR_BLOCK), dtype=np.int16)
    for row in range(n_rows):
        for k in range(n_pairs):
            codes[row, k] = np.int16(wins[row, pair_a[k]] - wins[row, pair_b[k]])
    return codes


@njit(cache=True)
def distances_to_centres(node_of_row: np.ndarray, row_pairs: np.ndarray, centre_pairs: np.ndarray,
                         parent: np.ndarray) -> np.ndarray:
    """Every node's summed Kendall distance of its rows' rankings to its centre.

    Rankings are pair indicators as bits (``row_pairs``, rows x words;
    ``centre_pairs``, nodes x words; bit k of word k // 64 for pair k), so a row's distance
    to a centre is the number of set bits of their XOR. Each row adds it to
    the nodes from its leaf (``node_of_row``) up to the root (``parent``, -1
    there): O(rows x depth x words), with no table of pair counts per node
    (nodes x pairs numbers: 77 MB for the 80,000 nodes of a maximal tree on
    16 labels).
    """
    distance = np.zeros(len(parent))
    n_words = row_pairs.shape[1]
    for row in range(len(node_of_row)):
        node = node_of_row[row]
        while node >= 0:
            disagree = 0
            for w in range(n_words):
                disagree += _popcount(row_pairs[row, w] ^ centre_pairs[node, w])
            distance[node] += disagree
            node = parent[node]
    return distance


# -- one attribute's scan of a node: each writes its candidates (position, score) and returns their number.
# Separate functions, not part of `grow`: in one large function Numba keeps reference counts of the arrays
# the inlined formulas take, twice per candidate (measured: a third of the time of a mean-Spearman tree).
@njit(cache=True, _nrt=False)
def _scan_sums(values, seg, min_leaf, stats, parent_sum, n_missing, missing_sum, kind, ints, floats, table, table_x,
               sums, cand_pos, cand_score, cand_left):
    """Running sums of the row statistics, for every criterion; the ``n_missing`` rows ending ``seg`` go to
    the better side (``cand_left``), "no" on ties."""
    c = len(seg)
    n_stats = stats.shape[1]
    running, right, moved_left, moved_right = sums[0], sums[1], sums[2], sums[3]
    for j in range(n_stats):
        running[j] = 0.0
    n_cand = 0
    for p in range(c - 1):
        row = seg[p]
        for j in range(n_stats):
            running[j] += stats[row, j]
        if not values[p + 1] > values[p]:
            continue
        left_count = p + 1
        right_count = c - left_count
        leaves_ok = left_count >= min_leaf and right_count >= min_leaf
        shifted_ok = False
        if n_missing:
            shifted_ok = (left_count + n_missing >= min_leaf) and (right_count - n_missing >= min_leaf)
        if not (leaves_ok or shifted_ok):
            continue
        for j in range(n_stats):
            right[j] = parent_sum[j] - running[j]
        score = -np.inf
        if leaves_ok or not n_missing:
            # The branch on the kind, here rather than in a shared function, lets the
            # small formulas be inlined into this loop (measured 3x faster).
            if kind == MEAN_SPEARMAN:
                score = spearman_split(ints, floats, float(left_count), running, float(right_count), right)
            elif kind == GINI:
                score = gini_split(ints, floats, float(left_count), running, float(right_count), right)
            elif kind == RANKING_IMPURITY:
                score = rank_impurity_split(ints, floats, float(left_count), running, float(right_count), right)
            elif kind == PAIRWISE_ENTROPY:
                score = entropy_split(ints, floats, float(left_count), running, float(right_count), right)
            else:
                score = mallows_split(ints, floats, table, table_x, float(left_count), running,
                                      float(right_count), right)
        to_left = False
        if n_missing:
            moved = -np.inf
            if shifted_ok:
                for j in range(n_stats):
                    moved_left[j] = running[j] + missing_sum[j]
                    moved_right[j] = right[j] - missing_sum[j]
                moved = split_score(kind, ints, floats, table, table_x, float(left_count + n_missing), moved_left,
                                    float(right_count - n_missing), moved_right)
            # ties (within rounding) keep the missing values on "no"
            margin = _TIE * (1.0 + abs(score)) if math.isfinite(score) else 0.0
            to_left = moved > score + margin
            if math.isnan(score) or math.isnan(moved):
                score = np.nan
            else:
                score = max(score, moved)
        cand_pos[n_cand] = p
        cand_score[n_cand] = score
        cand_left[n_cand] = to_left
        n_cand += 1
    return n_cand


@njit(cache=True, _nrt=False, error_model="numpy")
def _scan_spearman(values, seg, min_leaf, stats, parent_sum, all_unit, scale, n_labels, running, squares, cand_pos,
                   cand_score):
    """Mean pairwise Spearman: running sums, and both sides' squared norms in one pass per candidate.

    The scan first collects every candidate's two squared norms (``squares``)
    and the left side's summed own norms (in ``cand_score``), then scores them
    all in a loop of its own: in the scan, each candidate's divisions held up
    the next rows' sums. It is compiled with NumPy's error model: a division
    is the processor's, without Python's check for a zero divisor before each
    (none is zero here: a side holds rows), a branch per division that kept
    the scoring loop from being vectorised (10,000 rows of 8 labels: 17.7 ->
    12.2 ns per row, the same scores). The other scans gained nothing from it,
    and the Mallows and ranking-impurity ones lost (pendigits-like 1.27x ->
    1.47-1.67x and 0.76x -> 1.01-1.12x CART).
    """
    c = len(seg)
    n_stats = stats.shape[1]
    for j in range(n_stats):
        running[j] = 0.0
    n_cand = 0
    for p in range(c - 1):
        row = seg[p]
        for j in range(n_stats):
            running[j] += stats[row, j]
        if not _is_candidate(values, p, c, min_leaf):
            continue
        square_left = square_right = 0.0
        for label in range(n_labels):
            a = running[label]
            b = parent_sum[label] - a
            square_left += a * a
            square_right += b * b
        squares[0, n_cand] = square_left
        squares[1, n_cand] = square_right
        cand_score[n_cand] = 0.0 if all_unit else running[n_labels]
        cand_pos[n_cand] = p
        n_cand += 1
    for i in range(n_cand):
        left_count = cand_pos[i] + 1
        own_left = own_right = 0.0
        if not all_unit:
            own_left = cand_score[i]
            own_right = parent_sum[n_labels] - own_left
        count_left, count_right = float(left_count), float(c - left_count)
        left = _spearman_from_squares(all_unit, scale, count_left, squares[0, i], own_left)
        right = _spearman_from_squares(all_unit, scale, count_right, squares[1, i], own_right)
        cand_score[i] = _size_weighted(count_left, left, count_right, right)
    return n_cand


@njit(cache=True, _nrt=False)
def _scan_levels(values, seg, min_leaf, row_levels, n_labels, n_levels, parent_levels, parent_square, left_levels,
                 cand_pos, cand_score):
    """Gini of complete rankings, level by level: the sums of squared level counts of each side."""
    c = len(seg)
    for j in range(n_labels * n_levels):
        left_levels[j] = 0.0
    square_left, square_right = 0.0, parent_square
    n_cand = 0
    for p in range(c - 1):
        row = seg[p]
        # The row moves from right to left: one level count per label changes on
        # each side, and its square by 2a + 1 (left) and 1 - 2b (right).
        for label in range(n_labels):
            at = label * n_levels + row_levels[row, label]
            a = left_levels[at]
            b = parent_levels[at] - a
            square_left += 2.0 * a + 1.0
            square_right += 1.0 - 2.0 * b
            left_levels[at] = a + 1.0
        if not _is_candidate(values, p, c, min_leaf):
            continue
        left_count = p + 1
        right_count = c - left_count
        count_left, count_right = float(left_count), float(right_count)
        left = _gini_complete(n_labels, n_levels, count_left, square_left)
        right = _gini_complete(n_labels, n_levels, count_right, square_right)
        cand_pos[n_cand] = p
        cand_score[n_cand] = _size_weighted(count_left, left, count_right, right)
        n_cand += 1
    return n_cand


@njit(cache=True, inline="always")
def _distance_to_levels(row, row_levels, level_counts, level_distance, partial):
    """A row's distance to a set of rows, summed over them and the labels.

    The set is given by its count per label and level (``level_counts``,
    levels per label); a row at level a is ``level_distance[a, b]`` from
    each row at level b. The sum runs per level over the labels first
    (``partial``, one per level), so its terms are independent and
    vectorise; one running sum would chain them, an addition's latency each.
    """
    n_labels = row_levels.shape[1]
    n_levels = level_distance.shape[0]
    for k in range(n_levels):
        partial[k] = 0.0
    for label in range(n_labels):
        distance = level_distance[row_levels[row, label]]
        counts = level_counts[label * n_levels:(label + 1) * n_levels]
        for k in range(n_levels):
            partial[k] += counts[k] * distance[k]
    total = 0.0
    for k in range(n_levels):
        total += partial[k]
    return total


@njit(cache=True, _nrt=False)
def _distances_to_levels(rows, row_levels, level_counts, level_distance, partial, out):
    """``out[row]`` for each of ``rows``: its distance to a set of rows (:func:`_distance_to_levels`)."""
    for p in range(len(rows)):
        out[rows[p]] = _distance_to_levels(rows[p], row_levels, level_counts, level_distance, partial)


@njit(cache=True, _nrt=False)
def _scan_distances(values, seg, min_leaf, row_levels, n_labels, n_levels, level_distance, to_parent,
                    parent_impurity, worst, left_levels, cand_pos, cand_score):
    """The ranking impurity of complete rankings, kept as each side's summed distance between its rows.

    ``I`` of a set is the distance between its rows summed over pairs and
    labels (eq. (1) of Xia et al.: ``sum_m g_m A_m (n - A_m)``), so a row
    joining the left side adds its distance to the rows there, and leaving
    the right side takes away its distance to the parent's rows less that.
    ``to_parent`` holds each row's distance to the parent's rows
    (:func:`_distances_to_levels`). ``left_levels`` holds, per label and
    level, the summed distance of that level to the left rows: a row reads
    one entry per label, and joining adds its level's distances to every
    level of its labels (O(labels x levels), in whole vectors). Counting the
    left rows per level instead made each row's scalar count update stall
    the next row's vector reads (16 labels: 1.47 s against 1.22 s).
    With whole-number gaps every sum is exact, so the scores are the formula's.
    """
    c = len(seg)
    for j in range(n_labels * n_levels):
        left_levels[j] = 0.0
    impurity_left, impurity_right = 0.0, parent_impurity
    n_cand = 0
    for p in range(c - 1):
        row = seg[p]
        to_left = 0.0
        for label in range(n_labels):
            to_left += left_levels[label * n_levels + row_levels[row, label]]
        impurity_left += to_left
        impurity_right -= to_parent[row] - to_left
        for label in range(n_labels):
            distance = level_distance[row_levels[row, label]]
            at = label * n_levels
            for k in range(n_levels):
                left_levels[at + k] += distance[k]
        if not _is_candidate(values, p, c, min_leaf):
            continue
        cand_pos[n_cand] = p
        cand_score[n_cand] = 1.0 - (impurity_left + impurity_right) / worst if worst > 0.0 else 1.0
        n_cand += 1
    return n_cand


#: Rows ahead of the scan whose codes are prefetched: a scan reads rows in an attribute's order, at random
#: in memory (maximal Mallows tree on 40,000 rows of 16 labels: 4.2 -> 3.8 s; 4 to 10 rows measure alike).
_AHEAD = 6

#: The scans' pair sums are padded to a multiple of this many pairs, so that the vectorised distance
#: loop ends without a scalar tail (the noisy chain's 55 pairs: 0.104 -> 0.098 s).
_PAIR_BLOCK = 8


@njit(cache=True, inline="always")
def _add_row_distances(row_codes, seg, p, n_pairs, margin_left, a_left, a_parent, margin_parent, count_left,
                       count_right):
    """:func:`_add_row_codes` of rankings without ties, then the Kendall distances of the two sides to their
    Borda centres from their pair counts and margins, in one pass over the pairs: each pair's new sums
    are at hand for its distance terms (a noisy node's scan, 8,397 rows: 7.0 -> 6.2 ns per row against
    a pass for each; whole fits the same within the noise).

    In int32 (Numba's typing would widen each sum to int64, halving the pairs per vector): whole numbers,
    exact in any order, and an integer sum's latency is a cycle where a float's is four, so the
    candidate's reduction does not hold up the scan (float32 before: the noisy chain 0.105 -> 0.098 s,
    pendigits-like 0.31 -> 0.29 s).
    """
    row = seg[p]
    if p + _AHEAD < len(seg):
        _prefetch_row(row_codes, seg[p + _AHEAD])
    distance_left = np.int32(0)
    distance_right = np.int32(0)
    for k in range(n_pairs):
        code = row_codes[row, k]
        margin = np.int32(margin_left[k] + code)
        al = np.int32(a_left[k] + (code > 0))
        margin_left[k] = margin
        a_left[k] = al
        ar = np.int32(a_parent[k] - al)
        distance_left = np.int32(distance_left + (np.int32(count_left - al) if margin >= 0 else al))
        distance_right = np.int32(distance_right + (np.int32(count_right - ar) if margin_parent[k] - margin >= 0
                                                    else ar))
    return distance_left, distance_right


@njit(cache=True, _nrt=False)
def _tied_pair_distances(a_left, b_left, margin_left, a_parent, b_parent, margin_parent):
    """The two sides' distances of rankings with ties (see :func:`_add_row_distances`): a side's distance
    counts, per pair, its rows that put ``b_k`` first where its centre puts ``a_k`` first (margin >= 0),
    else those that put ``a_k`` first."""
    distance_left = np.int32(0)
    distance_right = np.int32(0)
    for k in range(len(a_left)):
        distance_left = np.int32(distance_left + (b_left[k] if margin_left[k] >= 0 else a_left[k]))
        distance_right = np.int32(distance_right + (np.int32(b_parent[k] - b_left[k])
                                                    if margin_parent[k] - margin_left[k] >= 0
                                                    else np.int32(a_parent[k] - a_left[k])))
    return distance_left, distance_right


@njit(cache=True, inline="always")
def _is_candidate(values, p, c, min_leaf):
    """Whether a scan of ``c`` sorted rows may split after its row ``p``: the next value is larger (NaN
    never is, so missing values end the candidates) and both sides keep ``min_leaf`` rows."""
    if not values[p + 1] > values[p]:
        return False
    left_count = p + 1
    return left_count >= min_leaf and c - left_count >= min_leaf


@njit(cache=True, inline="always")
def _add_row_codes(row_codes, seg, p, n_pairs, tied, margins, margin_left, a_left, b_left):
    """Add the codes of the scan's row ``seg[p]`` (``row_codes[seg[p]]``) to the left side's running sums of a
    pair scan, and prefetch the codes of the row ``_AHEAD`` further on.

    Counts the row in ``a_left`` where its code is positive (it puts
    ``a_k`` first) and, with ``tied`` rankings, in ``b_left`` where it is
    negative; with ``margins`` adds the code itself to ``margin_left`` (the
    Borda votes' margins of :func:`_scan_pairs`). Two loops, one per kind of
    rankings, and the flags constant where it is inlined: counting ``B_k``
    whatever the rankings (``count - A_k`` without ties) made the complete
    rankings' Mallows trees a third slower (16 labels 0.69 -> 0.98 s,
    wisconsin 2.5 -> 3.6 ms).
    """
    row = seg[p]
    if p + _AHEAD < len(seg):
        _prefetch_row(row_codes, seg[p + _AHEAD])
    if tied:
        for k in range(n_pairs):
            code = row_codes[row, k]
            if margins:
                margin_left[k] = np.int32(margin_left[k] + code)
            a_left[k] = np.int32(a_left[k] + (code > 0))
            b_left[k] = np.int32(b_left[k] + (code < 0))
    else:
        for k in range(n_pairs):
            code = row_codes[row, k]
            if margins:
                margin_left[k] = np.int32(margin_left[k] + code)
            a_left[k] = np.int32(a_left[k] + (code > 0))


#: Rows up to which :func:`_pair_entropy_table` is built (2,098,176 cells, 16 MB, at 2,047 rows).
_PAIR_TABLE_ROWS = 2047


@njit(cache=True)
def _pair_entropy_table(floats, n, n_pairs, n_features):
    """``c log2 c + (m - c) log2 (m - c)`` for every set size ``m = 0..n`` and count ``c = 0..m``, at
    ``m (m + 1) / 2 + c``; empty where it would not pay.

    A pair's two terms in a set of ``m`` rows that all hold it untied: :func:`_scan_entropy` then reads
    one number per pair and side, where it read two from the ``c log2 c`` table and added them. The sum
    is the same one, so the same bits. Built in about a nanosecond per cell, it pays where a scan's
    candidates (``n`` per attribute at the root alone, and again on every level) times its pairs
    outnumber the cells: ``n <= n_features n_pairs log2 n``, up to :data:`_PAIR_TABLE_ROWS` rows.
    Measured on candidates of 21 and 120 pairs: 1.05 -> 0.55 ns per pair.
    """
    if n > _PAIR_TABLE_ROWS or n < 2 or n > n_features * n_pairs * math.log2(n):
        return np.empty(0)
    xlogx = 1  # where the c log2 c table starts in `floats` (counts 0..n)
    table = np.empty((n + 1) * (n + 2) // 2)
    cell = 0
    for m in range(n + 1):
        for c in range(m + 1):
            table[cell] = floats[xlogx + c] + floats[xlogx + (m - c)]
            cell += 1
    return table


@njit(cache=True, _nrt=False)
def _scan_entropy(values, seg, min_leaf, row_codes, ints, floats, pair_entropy, pair_sums, cand_pos, cand_score):
    """Pairwise entropy of rankings that hold every label: each side's pair counts as int32 running sums.

    ``row_codes[row, k]`` is 1 where the row puts ``a_k`` first, -1 where
    it puts ``b_k`` first and 0 where it ties them
    (:meth:`rankviz.tree.compiled.CriterionSpec.row_codes`). A row adds to
    one or two counts per pair, where the sums of the generic scan add its
    three indicators as floats and a candidate subtracts all three from the
    node's; the right side's counts are the node's (``pair_sums[2]``,
    ``pair_sums[5]``) less the left's, its ties the rest. The arithmetic of
    :func:`_entropy_impurity` for such rankings, term for term and pair
    after pair, so the same scores to the bit. Without ties, a non-empty
    ``pair_entropy`` (:func:`_pair_entropy_table`) holds each pair's two
    terms already added, for every set size.
    """
    c = len(seg)
    a_left, a_node, b_left, b_node = pair_sums[0], pair_sums[2], pair_sums[4], pair_sums[5]
    n_pairs = row_codes.shape[1]
    tied = ints[4] != 0
    size = ints[2]
    xlogx, log_count = 1, 1 + size  # where the tables start in `floats`
    for k in range(n_pairs):
        a_left[k] = 0
        b_left[k] = 0
    n_cand = 0
    for p in range(c - 1):
        _add_row_codes(row_codes, seg, p, n_pairs, tied, False, a_left, a_left, b_left)
        if not _is_candidate(values, p, c, min_leaf):
            continue
        left_count = p + 1
        right_count = c - left_count
        total_left = total_right = 0.0
        if tied:
            for k in range(n_pairs):
                a, b = a_left[k], b_left[k]
                a_right, b_right = a_node[k] - a, b_node[k] - b
                total_left += ((floats[xlogx + a] + floats[xlogx + (left_count - a - b)])
                               + floats[xlogx + b])
                total_right += ((floats[xlogx + a_right] + floats[xlogx + (right_count - a_right - b_right)])
                                + floats[xlogx + b_right])
        elif len(pair_entropy):
            # each side's row of the pair table (_pair_entropy_table): the same sums, read at once
            row_left = left_count * (left_count + 1) // 2
            row_right = right_count * (right_count + 1) // 2
            for k in range(n_pairs):
                a = a_left[k]
                total_left += pair_entropy[row_left + a]
                total_right += pair_entropy[row_right + (a_node[k] - a)]
        else:
            for k in range(n_pairs):
                a = a_left[k]
                a_right = a_node[k] - a
                total_left += floats[xlogx + a] + floats[xlogx + (left_count - a)]
                total_right += floats[xlogx + a_right] + floats[xlogx + (right_count - a_right)]
        impurity_left = floats[log_count + left_count] - total_left / (max(float(left_count), 1.0) * n_pairs)
        impurity_right = floats[log_count + right_count] - total_right / (max(float(right_count), 1.0) * n_pairs)
        cand_pos[n_cand] = p
        cand_score[n_cand] = _size_weighted(float(left_count), 1.0 - impurity_left / floats[0],
                                            float(right_count), 1.0 - impurity_right / floats[0])
        n_cand += 1
    return n_cand


@njit(cache=True, _nrt=False)
def _scan_pairs(values, seg, min_leaf, row_codes, n_labels, theta_floor, table, table_x, bounds, reciprocals,
                best_before, tied, pair_sums, distances, cand_pos, cand_score):
    """Mallows of complete rankings, pair by pair: the left side's pair counts and vote margins as running sums.

    ``row_codes[row, k]`` is the row's vote margin of pair k,
    ``wins[a_k] - wins[b_k]`` (positive when it puts ``a_k`` first).
    Summed over a side, the margins say where its Borda centre puts each
    pair (``a_k`` first when the sum is >= 0: ties go to the lower label,
    as in :func:`_mallows_distance`) and the counts ``A_k`` how many of its
    rows disagree there, so a candidate's two Kendall distances take one
    pass over the pairs (:func:`_add_row_distances`); the right side's sums
    are the node's (``pair_sums[2:4]``) less the left's (``pair_sums[:2]``).
    With ``tied`` rankings a row's code is 0 for a pair it ties, and the
    rows putting ``b_k`` first are counted too (``pair_sums[4]``, the node's
    ``pair_sums[5]``): the distance counts them where the centre puts
    ``a_k`` first, as :func:`_mallows_distance` does.

    Keeping each side's Borda order and distance up to date instead, by
    swaps of labels next in the order, cost O(labels) per row plus the swaps;
    but the order of noisy rankings changes at most rows, several swaps
    each, and the branches cost more than the pairs (maximal trees: 40,000
    rows of 16 labels 6.1 -> 4.0 s, the noisy chain of 2,465 rows 0.35 ->
    0.13 s; 60 labels, 1,770 pairs, 4.6 -> 1.7 s).

    A candidate whose score cannot reach the best lower bound of this
    attribute's candidates, or the best score of an earlier attribute
    (``best_before``), is not scored: its two θ (a logarithm and an
    exponential each) are bounded first by a table lookup (``bounds``: the
    score terms of :func:`theta_bounds`, :func:`spread_bounds`). Such a
    candidate could not be chosen, since its score is below the best less
    the tie margin. The scan first collects every candidate's distances,
    then bounds them all, then scores the ones left: in one loop, each
    candidate's chain of divisions and lookups held up the next rows' sums
    (the noisy chain 0.120 -> 0.107 s).
    """
    c = len(seg)
    a_left, margin_left, a_node, margin_node = pair_sums[0], pair_sums[1], pair_sums[2], pair_sums[3]
    b_left, b_node = pair_sums[4], pair_sums[5]
    n_pairs = row_codes.shape[1]  # (padded: see pair_codes)
    for k in range(n_labels * (n_labels - 1) // 2):
        a_left[k] = 0
        margin_left[k] = 0
        b_left[k] = 0
    spread_upper, spread_lower, first_key = bounds
    n_keys = len(spread_upper)
    # 1. Each candidate's two Kendall distances (a pure side as _pure_distance counts it)
    distance_left, distance_right = distances[0], distances[1]
    pure = _pure_distance(theta_floor)
    n_found = 0
    for p in range(c - 1):
        candidate = _is_candidate(values, p, c, min_leaf)
        if candidate and not tied:
            # the row's codes and the two distances in one pass over the pairs
            distance_l, distance_r = _add_row_distances(row_codes, seg, p, n_pairs, margin_left, a_left, a_node,
                                                        margin_node, np.int32(p + 1), np.int32(c - p - 1))
        else:
            _add_row_codes(row_codes, seg, p, n_pairs, tied, True, margin_left, a_left, b_left)
            if not candidate:
                continue
            distance_l, distance_r = _tied_pair_distances(a_left, b_left, margin_left, a_node, b_node, margin_node)
        distance_left[n_found] = max(float(distance_l), pure)
        distance_right[n_found] = max(float(distance_r), pure)
        cand_pos[n_found] = p
        n_found += 1
    # 2. Bounds of each candidate's score, and the best lower bound. Reciprocals stand for the divisions
    # (the bounds' margins, 1e-4, cover their rounding).
    best = best_before
    share = reciprocals[c]
    for i in range(n_found):
        left_count = cand_pos[i] + 1
        right_count = c - left_count
        key_left = theta_bound_key(distance_left[i] * reciprocals[left_count], first_key, n_keys)
        key_right = theta_bound_key(distance_right[i] * reciprocals[right_count], first_key, n_keys)
        # Every form of the score grows with each side's θ: its bounds bound the score.
        low = (left_count * spread_lower[key_left] + right_count * spread_lower[key_right]) * share
        best = max(best, low)  # the best score is at least any candidate's lower bound
        cand_score[i] = (left_count * spread_upper[key_left] + right_count * spread_upper[key_right]) * share
    # 3. The scores of the candidates whose upper bound reaches the best less the tie margin; the others
    # could not be chosen. They are packed to the front of cand_pos and cand_score (never ahead of i).
    n_cand = 0
    for i in range(n_found):
        if cand_score[i] < best - _TIE * (1.0 + abs(best)):
            continue
        p = cand_pos[i]
        count_left = float(p + 1)
        count_right = float(c - p - 1)
        theta_left = _theta_from_mean_distance(float(distance_left[i]) / count_left, n_labels, table, table_x)
        theta_right = _theta_from_mean_distance(float(distance_right[i]) / count_right, n_labels, table, table_x)
        score = (count_left * _spread_term(theta_left, theta_floor)
                 + count_right * _spread_term(theta_right, theta_floor)) / (count_left + count_right)
        cand_pos[n_cand] = p
        cand_score[n_cand] = score
        n_cand += 1
        if score > best:
            best = score
    return n_cand


@njit(cache=True, _nrt=False)
def _left_sums(stats, seg, count, missing_left, x, parent_sum, whole, row_levels, level_counts, missing_sum, out):
    """The summed statistics of the best split's left side: its first ``count`` rows of ``seg``.

    With ``missing_left`` the rows missing ``x`` (which end ``seg``) are among
    them. The search adds a side's rows in order, and the missing ones
    (summed from the last) after them; these sums repeat those additions.

    With ``whole`` statistics (counts, or halves: exact in any order) the
    smaller side is summed instead, the left one following as the parent's
    sums less it. With ``row_levels`` (complete rankings, Gini and ranking
    impurity) its level counts are counted per label, O(labels) per row, and
    cumulated into the statistics (``[level <= m]`` per label).
    """
    n_stats = stats.shape[1]
    c = len(seg)
    n_missing = 0
    if missing_left:
        while n_missing < c and math.isnan(x[seg[c - 1 - n_missing]]):
            n_missing += 1
    ordered = count - n_missing  # the left side: seg[:ordered] and the missing rows seg[c - n_missing:]
    if whole:
        right_side = c - count < count
        first, last = (ordered, c - n_missing) if right_side else (0, ordered)
        if row_levels.shape[0] > 0:
            n_labels = row_levels.shape[1]
            n_levels = level_counts.shape[0] // n_labels
            for j in range(n_labels * n_levels):
                level_counts[j] = 0.0
            for q in range(first, last):
                for label in range(n_labels):
                    level_counts[label * n_levels + row_levels[seg[q], label]] += 1.0
            if not right_side:  # (complete rankings: no missing values to add)
                for q in range(c - n_missing, c):
                    for label in range(n_labels):
                        level_counts[label * n_levels + row_levels[seg[q], label]] += 1.0
            width = n_levels - 1
            for label in range(n_labels):
                below = 0.0
                for m in range(width):
                    below += level_counts[label * n_levels + m]
                    out[label * width + m] = below
        else:
            for j in range(n_stats):
                out[j] = 0.0
            for q in range(first, last):
                for j in range(n_stats):
                    out[j] += stats[seg[q], j]
            if not right_side:
                for q in range(c - n_missing, c):
                    for j in range(n_stats):
                        out[j] += stats[seg[q], j]
        if right_side:
            for j in range(n_stats):
                out[j] = parent_sum[j] - out[j]
        return
    if missing_left:
        for j in range(n_stats):
            missing_sum[j] = 0.0
        for q in range(c - 1, c - 1 - n_missing, -1):
            for j in range(n_stats):
                missing_sum[j] += stats[seg[q], j]
    for j in range(n_stats):
        out[j] = 0.0
    for q in range(ordered):
        for j in range(n_stats):
            out[j] += stats[seg[q], j]
    if missing_left:
        for j in range(n_stats):
            out[j] += missing_sum[j]


@njit(cache=True)
def _enlarged(column, capacity, fill):
    """``column`` copied into a longer one, the new places set to ``fill``."""
    longer = np.empty(capacity, dtype=column.dtype)
    longer[:len(column)] = column
    longer[len(column):] = fill
    return longer


@njit(cache=True, inline="always")
def _tie_floor(score, n_cand):
    """The lowest score that ties the best of the first ``n_cand`` (within 1e-12, relative)."""
    best = -np.inf
    for i in range(n_cand):
        value = score[i]
        if not math.isnan(value) and value > best:
            best = value
    return best - _TIE * (1.0 + abs(best))


@njit(cache=True, _nrt=False)
def _first_best(score, n_cand):
    """The first candidate within 1e-12 (relative) of the best score: the lowest such threshold."""
    floor = _tie_floor(score, n_cand)
    for i in range(n_cand):
        value = -np.inf if math.isnan(score[i]) else score[i]
        if value >= floor:
            return i
    return 0


@njit(cache=True, _nrt=False)
def _widest_best(score, position, n_cand, values, span):
    """Among the candidates within 1e-12 (relative) of the best score, the one with the widest margin.

    A threshold's margin is the gap it lies in, ``values[p + 1] - values[p]``,
    over the node's range of the attribute, ``span`` (scale-free, in (0, 1]).
    Splits whose scores tie part the training rows equally well; the widest
    gap leaves the most room to rows the tree has not seen. Equal margins go
    to the first candidate, the lowest threshold. Returns (index, margin).
    """
    floor = _tie_floor(score, n_cand)
    pick, widest = 0, -1.0
    for i in range(n_cand):
        value = -np.inf if math.isnan(score[i]) else score[i]
        if value >= floor:
            p = position[i]
            margin = (values[p + 1] - values[p]) / span
            if not margin > 0.0:  # a range beyond the floats (inf / inf): no margin
                margin = 0.0
            if margin > widest:
                pick, widest = i, margin
    return pick, widest


@njit(cache=True, _nrt=False)
def _best_nominal(codes, rows, stats, parent_sum, c, min_leaf, kind, ints, floats, table, table_x, nominal_work,
                  out):
    """Best "x = value" split of one nominal attribute: (value or -1, score, count); its summed statistics go
    to ``out``. ``nominal_work`` holds the work arrays (counts, sums, scores and values per value, and the
    right side's sums), with room for every value of every nominal attribute: no allocation per node."""
    value_count, value_sum, scores, values, right = nominal_work
    n_stats = stats.shape[1]
    n_values = 0
    for p in range(len(rows)):
        n_values = max(n_values, int(codes[rows[p]]) + 1)
    for v in range(n_values):
        value_count[v] = 0
        for j in range(n_stats):
            value_sum[v, j] = 0.0
    for p in range(len(rows)):
        row = rows[p]
        v = int(codes[row])
        value_count[v] += 1
        for j in range(n_stats):
            value_sum[v, j] += stats[row, j]
    n_cand = 0
    for v in range(n_values):
        if value_count[v] >= min_leaf and c - value_count[v] >= min_leaf:
            for j in range(n_stats):
                right[j] = parent_sum[j] - value_sum[v, j]
            scores[n_cand] = split_score(kind, ints, floats, table, table_x, float(value_count[v]),
                                         value_sum[v], float(c - value_count[v]), right)
            values[n_cand] = v
            n_cand += 1
    if n_cand == 0:
        return -1, np.nan, 0
    pick = _first_best(scores, n_cand)
    v = values[pick]
    for j in range(n_stats):
        out[j] = value_sum[v, j]
    return v, scores[pick], value_count[v]


@njit(cache=True, _nrt=False)
def _breakpoint(similarity_parent, s_split):
    """``Criterion.gamma_breakpoint``: the γ above which rule (6) makes the split."""
    parent_side = (1.0 + similarity_parent) * (1.0 + 1e-12)
    split_side = 1.0 + s_split
    if split_side > 0.0:
        return parent_side / split_side
    return np.inf


@njit(cache=True, _nrt=False)
def _split_rows(x, nominal, threshold, missing_left, rows, own_rows, order, split_column, lo, hi, n_left, goes_left,
                buffer):
    """Send the node's rows ``rows[lo:hi]`` to its children by ``x`` and partition every attribute's order
    (and ``rows`` where they are ``own_rows``, not the first attribute's order); ``n_left`` of them go left
    (the search counted them).

    A numeric split's attribute (``split_column`` in ``order``, else -1)
    says where each row goes by its place alone: its first ``n_left`` rows
    go left, or with ``missing_left`` those less its missing values (which
    end it) and those. It is already in its children's order then, unless
    missing values go left. Routing by place reads no value, and the
    partition skipped is one of the ``1 + attributes`` passes (the long
    chain's Mallows tree, one attribute, 0.078 -> 0.069 s). Apart from
    :func:`grow`, without reference counting (each attribute's order would
    be a view, counted twice per node).
    """
    moved_missing = False
    if split_column >= 0:
        seg = order[split_column]
        n_missing = 0
        if missing_left:
            while n_missing < hi - lo and math.isnan(x[seg[hi - 1 - n_missing]]):
                n_missing += 1
        moved_missing = n_missing > 0
        ordered = lo + n_left - n_missing
        for p in range(lo, hi):
            goes_left[seg[p]] = p < ordered or p >= hi - n_missing
    else:
        for p in range(lo, hi):
            row = rows[p]
            value = x[row]
            if nominal:
                goes_left[row] = value == threshold
            elif math.isnan(value):
                goes_left[row] = missing_left
            else:
                goes_left[row] = value <= threshold
    if own_rows:
        _partition(rows, lo, hi, n_left, goes_left, buffer)
    for column in range(order.shape[0]):
        if column != split_column or moved_missing:
            _partition(order[column], lo, hi, n_left, goes_left, buffer)


@njit(cache=True, _nrt=False)
def _partition(order, lo, hi, n_left, goes_left, buffer):
    """Stable partition of ``order[lo:hi]``, whose first ``n_left`` rows go left: each side in its old order.

    Every row is written to the next place of its side, chosen without a branch (rows of a balanced
    split go either way at random: a branch on the side was mispredicted at every other row).
    """
    left, right = lo, lo + n_left
    for p in range(lo, hi):
        row = order[p]
        is_left = goes_left[row]
        place = left if is_left else right
        buffer[place] = row
        left += is_left
        right += 1 - is_left
    for p in range(lo, hi):
        order[p] = buffer[p]
