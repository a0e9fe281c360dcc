"""The k nearest of every point for many query rows at once, in compiled code (Numba).

:class:`rankviz.neighbours.NeighbourIndex` computes every distance where a
search would not pay (few training rows, or k near a fiftieth of them). In
NumPy the choice among those distances took several passes over the table
of rows x points (rounding, a partition, masks of the nearer and tied
points, their positions, a sort): on vehicle's 85 x 761 distances, 0.5 ms
against 0.2 ms for the distances themselves. Here one pass per row keeps the
k nearest in order as it reads them, and rounds only the distances that
could still be among them.
"""

from __future__ import annotations

import numpy as np

from .numba_cache import configure as configure_numba_cache

configure_numba_cache()  # before Numba's first import: it reads its cache folder then (rankviz.numba_cache)

import numba  # noqa: E402 -- after the cache folder is set

__all__ = ["nearest_of_rows"]

# Allocates nothing: compiled without Numba's reference counting (njit's private `_nrt` option, as the
# other kernels), which would count every view of a row.
_without_reference_counts = numba.njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]


@numba.njit(cache=True, inline="always")
def _rounded(squared):
    """``np.round(max(squared, 0), 12)``, bit for bit: NumPy multiplies by 10^12, rounds half to even, divides."""
    return np.rint(max(squared, 0.0) * 1e12) / 1e12


@numba.njit(cache=True, inline="always")
def _beyond(kth):
    """A squared distance above this rounds to more than ``kth``.

    The rounding moves a value by at most 0.5e-12 plus twice the float's
    relative error (one product, one quotient); the margin covers both, so
    a value above it can neither come before the k-th nor tie with it.
    """
    return kth + 1e-12 + 1e-15 * kth


@_without_reference_counts
def nearest_of_rows(products: np.ndarray, query_sq: np.ndarray, point_sq: np.ndarray, k: int,
                    nearest: np.ndarray, distance: np.ndarray, crowded: np.ndarray) -> int:
    """The k nearest points of each query row by rounded squared distance, ties to the lower point index.

    The squared distance of row ``r`` to point ``j`` is summed as
    :meth:`rankviz.neighbours.NeighbourIndex` sums it,
    ``(products[r, j] + query_sq[r]) + point_sq[j]`` with ``products = -2
    query @ points.T``, then rounded to 12 decimals after negative values are
    cut to 0. Each row's points are read in index order into a list of the
    k nearest so far, sorted by distance; a point goes after those at its
    distance, so equal distances keep the lower indices first, as a stable
    sort of all of them does.

    A row whose k-th distance is shared by a point left out of the list
    (duplicated rows, a grid of values) needs the tied points measured
    again, which the caller does: such rows are listed in ``crowded``. The
    k-th distance only falls as the row is read, so the points left out at
    it are counted on the way: those rejected at it, and those pushed out
    while it stays; when it falls, every point left out so far is farther.

    Parameters
    ----------
    products : ndarray of shape (n_rows, n_points)
    query_sq, point_sq : ndarray of shape (n_rows,) and (n_points,)
        The squared norms of the query rows and of the points.
    k : int
        At least 1, at most ``n_points``.
    nearest : ndarray of int, shape (n_rows, k)
        Filled with the point indices, nearest first.
    distance : ndarray of shape (n_rows, k)
        Filled with their Euclidean distances (square roots of the rounded
        squared distances).
    crowded : ndarray of int, shape (n_rows,)
        Its first entries are filled with the crowded rows.

    Returns
    -------
    int
        How many rows are crowded; their ``nearest`` and ``distance`` are not
        to be used.
    """
    n_rows, n_points = products.shape
    n_crowded = 0
    for r in range(n_rows):
        row_sq = query_sq[r]
        size = 0
        left_out = 0  # points at the k-th distance that are not in the list
        limit = np.inf
        for j in range(n_points):
            squared = products[r, j] + row_sq + point_sq[j]
            if squared > limit:  # most points: no rounding
                continue
            value = _rounded(squared)
            if size == k:
                kth = distance[r, k - 1]
                if value >= kth:
                    if value == kth:
                        left_out += 1
                    continue
            place = size if size < k else k - 1
            while place > 0 and distance[r, place - 1] > value:
                distance[r, place] = distance[r, place - 1]
                nearest[r, place] = nearest[r, place - 1]
                place -= 1
            distance[r, place] = value
            nearest[r, place] = j
            if size < k:
                size += 1
                if size < k:
                    continue
            elif distance[r, k - 1] == kth:
                left_out += 1  # the point pushed out ties with the k-th
            else:
                left_out = 0  # the k-th came nearer: every point left out is farther
            limit = _beyond(distance[r, k - 1])
        if left_out:
            crowded[n_crowded] = r
            n_crowded += 1
        for place in range(k):
            distance[r, place] = np.sqrt(distance[r, place])
    return n_crowded
