"""The bucket orders of many sets of rankings at once, in compiled code (Numba).

One call orders the labels of every set: a neighbourhood per query row, or the
trees' votes per row of a forest. The algorithm is that of
:mod:`rankviz.label_ranking.bucket_order` (BPA-LIA-MP2 of Alfaro, Aledo &
Gámez 2021), written without recursion: a set's labels sit in one array, and
ordering a segment of it writes the segment back as its labels before the
pivot's bucket, the bucket, and its labels after; the bucket's positions are
then final, and the two sides are segments still to order.
"""

from __future__ import annotations

import numpy as np

from ..numba_cache import configure as configure_numba_cache

configure_numba_cache()  # before Numba's first import: it reads its cache folder then (rankviz.numba_cache)

import numba  # noqa: E402 -- after the cache folder is set

__all__ = ["bucket_positions", "bucket_positions_of_pairs", "precedence_and_indecision"]

# Functions that allocate nothing, compiled without Numba's reference counting (njit's private `_nrt`
# option, as the tree builder's kernels): each view of a set's row or of a work row otherwise takes two
# atomic counts, which were half the time of a maximal tree's bucket orders (ecoli-partial 225 -> 102 us)
_without_reference_counts = numba.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]


@_without_reference_counts
def _place(precedence: np.ndarray, items: np.ndarray, n_items: int, central: np.ndarray, n_central: int,
           left: np.ndarray, right: np.ndarray, low: float, high: float) -> tuple:
    """Put each item before (left), into or after (right) the central bucket; returns the three counts."""
    n_left = n_right = 0
    for k in range(n_items):
        item = items[k]
        total = 0.0
        for c in range(n_central):  # in the bucket's order: the same sum as the reference's
            total += precedence[central[c], item]
        mean = total / n_central
        if mean < low:
            left[n_left] = item
            n_left += 1
        elif mean <= high:
            central[n_central] = item
            n_central += 1
        else:
            right[n_right] = item
            n_right += 1
    return n_left, n_central, n_right


@_without_reference_counts
def _order_set(p: np.ndarray, d: np.ndarray, low: float, high: float, out: np.ndarray, work: np.ndarray,
               segments: np.ndarray) -> None:
    """Write one set's bucket order (average positions) to ``out``, from its precedence ``p`` and indecision ``d``.

    ``work`` (6 x labels) and ``segments`` ((2 labels + 2) x 2) are work arrays.
    """
    n_labels = len(d)
    order, central, left, right, others, again = work[0], work[1], work[2], work[3], work[4], work[5]
    for label in range(n_labels):
        order[label] = label
    segments[0, 0], segments[0, 1] = 0, n_labels
    n_segments = 1
    while n_segments:
        n_segments -= 1
        start, stop = segments[n_segments, 0], segments[n_segments, 1]
        if stop <= start:
            continue
        pivot_at = start  # the first of least indecision, in the segment's order
        for k in range(start + 1, stop):
            if d[order[k]] < d[order[pivot_at]]:
                pivot_at = k
        central[0] = order[pivot_at]
        n_others = 0
        for k in range(start, stop):
            if k != pivot_at:
                others[n_others] = order[k]
                n_others += 1
        n_left, n_central, n_right = _place(p, others, n_others, central, 1, left, right, low, high)
        # the second stage: the labels put before, then those put after, against the grown bucket
        for k in range(n_left):
            again[k] = left[k]
        for k in range(n_right):
            again[n_left + k] = right[k]
        n_left, n_central, n_right = _place(p, again, n_left + n_right, central, n_central, left, right,
                                            low, high)
        for k in range(n_left):
            order[start + k] = left[k]
        bucket = start + n_left
        for k in range(n_central):
            order[bucket + k] = central[k]
            out[central[k]] = bucket + (n_central + 1) / 2.0
        for k in range(n_right):
            order[bucket + n_central + k] = right[k]
        # the side after first on the stack, so the side before is ordered first (either order is right)
        segments[n_segments, 0], segments[n_segments, 1] = bucket + n_central, stop
        segments[n_segments + 1, 0], segments[n_segments + 1, 1] = start, bucket
        n_segments += 2


@numba.njit(cache=True, nogil=True)
def bucket_positions(precedence: np.ndarray, indecision: np.ndarray, beta: float, out: np.ndarray) -> None:
    """Fill ``out`` (sets x labels) with each set's bucket order as average positions.

    ``precedence`` (sets x labels x labels) and ``indecision`` (sets x labels)
    are those of :func:`rankviz.label_ranking.bucket_order.bucket_order_from_counts`.
    """
    n_labels = indecision.shape[1]
    # each order pushes two sides: at most 2 segments per level
    _order_sets(precedence, indecision, beta, out, np.empty((6, n_labels), dtype=np.int64),
                np.empty((2 * n_labels + 2, 2), dtype=np.int64))


@_without_reference_counts
def _order_sets(precedence: np.ndarray, indecision: np.ndarray, beta: float, out: np.ndarray, work: np.ndarray,
                segments: np.ndarray) -> None:
    """The loop of :func:`bucket_positions` over its sets, in the work arrays it allocates."""
    for s in range(len(indecision)):
        _order_set(precedence[s], indecision[s], 0.5 - beta, 0.5 + beta, out[s], work, segments)


@numba.njit(cache=True, nogil=True, inline="always")
def _precedence(a: float, t: float, b: float, epsilon: float) -> float:
    """The precedence of ``i`` over ``j`` from the weights putting ``i`` first, tying them and putting ``j`` first."""
    a, t, b = a + epsilon, t + epsilon, b + epsilon
    return (a + 0.5 * t) / ((a + t) + b)


@_without_reference_counts
def _indecision(p: np.ndarray, d: np.ndarray) -> None:
    """Each label's indecision (DANI): its mean distance to the utopian matrix (``p``'s upper entries rounded)."""
    n_labels = len(d)
    scale = max(1, n_labels - 1)
    for i in range(n_labels):
        total = 0.0
        for j in range(n_labels):  # left to right, as the reference's cumsum
            if j == i:
                distance = 0.0
            else:
                upper = p[i, j] if i < j else p[j, i]
                rounded = 1.0 if upper > 0.75 else (0.0 if upper < 0.25 else 0.5)
                utopia = rounded if i < j else 1.0 - rounded
                distance = abs(p[i, j] - utopia)
            total += distance
        d[i] = total / scale


@_without_reference_counts
def precedence_and_indecision(before: np.ndarray, tied: np.ndarray, epsilon: float, precedence: np.ndarray,
                              indecision: np.ndarray) -> None:
    """Fill ``precedence`` (sets x labels x labels) and ``indecision`` (sets x labels) from the counts.

    The arithmetic of :func:`rankviz.label_ranking.bucket_order._precedence_and_indecision`, operation for
    operation, so the same numbers to the bit (the pivot and the ties at β = 0 hang on them), without its
    temporary tables.
    """
    n_sets, n_labels = indecision.shape
    for s in range(n_sets):
        b_s, t_s, p = before[s], tied[s], precedence[s]
        for i in range(n_labels):
            for j in range(i, n_labels):  # the upper triangle and the diagonal, as np.triu keeps them
                p[i, j] = _precedence(b_s[i, j], t_s[i, j], b_s[j, i], epsilon)
            for j in range(i):
                p[i, j] = 1.0 - p[j, i]
        _indecision(p, indecision[s])


# Room left between a precedence and a threshold for the shortcut of a set of alike rankings: the algorithm
# compares means of up to `labels` equal precedences, which rounding moves by a few units in the last place.
_MARGIN = 1e-9


@_without_reference_counts
def _one_order_positions(ahead: np.ndarray, tie: np.ndarray, behind: np.ndarray, epsilon: float, low: float,
                         high: float, out: np.ndarray) -> bool:
    """Write the positions of a set whose rankings all order every pair alike, and say whether it did.

    When each pair's weight is all in one of its three counts, the same for
    every pair (every ranking holds every label and they are one weak order),
    the precedences take three values; if those lie clear of the thresholds,
    each label the pivot algorithm places goes before, into or after the
    central bucket as the order has it, whatever the pivot, so the bucket
    order is that weak order itself: a label's position is 1 plus the
    labels ahead of it plus half those tied with it. A maximal tree's leaves
    are such sets; their order is read off here without the algorithm.
    Counts of no weak order (from no rankings) are found by their positions
    disagreeing with a pair, and left to the algorithm.
    """
    total = ahead[0] + tie[0] + behind[0]
    if not total > 0.0:
        return False
    for k in range(len(ahead)):
        in_one = (ahead[k] == total and tie[k] == 0.0 and behind[k] == 0.0) or \
                 (tie[k] == total and ahead[k] == 0.0 and behind[k] == 0.0) or \
                 (behind[k] == total and ahead[k] == 0.0 and tie[k] == 0.0)
        if not in_one:
            return False
    first = _precedence(total, 0.0, 0.0, epsilon)  # p[i, j], i < j, of a pair ordered i first
    second = _precedence(0.0, 0.0, total, epsilon)  # ... ordered j first
    even = _precedence(0.0, total, 0.0, epsilon)  # ... tied; the lower triangle holds 1 minus each
    if not (min(first, 1.0 - second) > high + _MARGIN and max(second, 1.0 - first) < low - _MARGIN
            and min(even, 1.0 - even) >= low + _MARGIN and max(even, 1.0 - even) <= high - _MARGIN):
        return False
    n_labels = len(out)
    out[:] = 1.0
    k = 0
    for i in range(n_labels):
        for j in range(i + 1, n_labels):
            if ahead[k] > 0.0:
                out[j] += 1.0
            elif behind[k] > 0.0:
                out[i] += 1.0
            else:
                out[i] += 0.5
                out[j] += 0.5
            k += 1
    # counts alike for every pair can still be no order (a ~ b, a ~ c, c before b): then the positions
    # contradict some pair, and the algorithm decides
    k = 0
    for i in range(n_labels):
        for j in range(i + 1, n_labels):
            if (out[i] < out[j]) != (ahead[k] > 0.0) or (out[i] > out[j]) != (behind[k] > 0.0):
                return False
            k += 1
    return True


@numba.njit(cache=True, nogil=True)
def bucket_positions_of_pairs(ahead: np.ndarray, tie: np.ndarray, behind: np.ndarray, epsilon: float, beta: float,
                              out: np.ndarray) -> None:
    """Fill ``out`` (sets x labels) with each set's bucket order, from its counts per pair of labels.

    ``ahead``, ``tie`` and ``behind`` (sets x pairs, the pairs ``i < j`` in
    the order of ``np.triu_indices``) weigh the rankings that put ``i``
    first, tie the two and put ``j`` first. The same numbers as
    :func:`precedence_and_indecision` and :func:`bucket_positions` on the
    tables they make, one set at a time in a labels x labels work table: the
    tables of every set (a tree's nodes) cost more in fresh memory than the
    orders.
    """
    n_labels = out.shape[1]
    _fill_positions_of_pairs(ahead, tie, behind, epsilon, beta, out, np.empty((n_labels, n_labels)),
                             np.empty(n_labels), np.empty((6, n_labels), dtype=np.int64),
                             np.empty((2 * n_labels + 2, 2), dtype=np.int64))


@_without_reference_counts
def _fill_positions_of_pairs(ahead: np.ndarray, tie: np.ndarray, behind: np.ndarray, epsilon: float, beta: float,
                             out: np.ndarray, p: np.ndarray, d: np.ndarray, work: np.ndarray,
                             segments: np.ndarray) -> None:
    """The loop of :func:`bucket_positions_of_pairs` over its sets, in the work arrays it allocates."""
    n_sets, n_labels = out.shape
    diagonal = _precedence(0.0, 0.0, 0.0, epsilon)
    for s in range(n_sets):
        if _one_order_positions(ahead[s], tie[s], behind[s], epsilon, 0.5 - beta, 0.5 + beta, out[s]):
            continue
        k = 0
        for i in range(n_labels):
            p[i, i] = diagonal
            for j in range(i + 1, n_labels):
                p[i, j] = _precedence(ahead[s, k], tie[s, k], behind[s, k], epsilon)
                k += 1
            for j in range(i):
                p[i, j] = 1.0 - p[j, i]
        _indecision(p, d)
        _order_set(p, d, 0.5 - beta, 0.5 + beta, out[s], work, segments)

