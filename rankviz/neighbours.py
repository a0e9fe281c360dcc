"""Nearest neighbours in a table of numeric and nominal attributes.

Shared by :class:`rankviz.KNNRanker`, :class:`rankviz.IBLR` and
:class:`rankviz.OrdinalKNN`, so the three find the same neighbours.
"""

from __future__ import annotations

import warnings
from typing import Any, Literal, overload

import numpy as np

from .features import FeatureEncoder

__all__ = ["NeighbourIndex", "SCALINGS"]

#: How numeric attributes are put on one scale: their training range to [0, 1], or their
#: training mean and standard deviation to 0 and 1.
SCALINGS = ("minmax", "standard")

_BLOCK_CELLS = 4_000_000



class NeighbourIndex:
    """Nearest training rows under the distance of the k-nearest-neighbour rankers.

    Distances are Euclidean on numeric attributes scaled with the training
    rows (``scaling``: min-max to [0, 1], or standardised to mean 0 and
    standard deviation 1), and on nominal attributes one-hot encoded (a
    mismatch adds 1 to each of the two indicator columns, i.e. 2 to the
    squared distance). A missing numeric value counts as its attribute's
    training mean, a missing nominal one as the category "(missing)". Among
    equally distant rows the earlier training row wins (stable order).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        The training attributes.
    n_neighbors : int
        Neighbours returned per query row (at most the training rows).
    scaling : {"minmax", "standard"}, default="minmax"
        Min-max scaling lets an attribute with a few outlying values count
        little for all other rows (their spread is squeezed into a small part
        of [0, 1]); standardising measures each attribute in its standard
        deviations instead. Which gives the better neighbours depends on the
        data (see :class:`rankviz.IBLR`'s ``scaling="auto"``).

    Raises
    ------
    ValueError
        If ``n_neighbors`` is not an integer >= 1, ``scaling`` is not one of
        :data:`SCALINGS`, or ``X`` is not a 2-D table the
        :class:`rankviz.features.FeatureEncoder` takes.
    """

    def __init__(self, X: Any, n_neighbors: int, scaling: str = "minmax") -> None:
        if not (isinstance(n_neighbors, (int, np.integer)) and n_neighbors >= 1):
            raise ValueError(f"n_neighbors must be an integer >= 1, got {n_neighbors!r}")
        if scaling not in SCALINGS:
            raise ValueError(f"scaling must be one of {SCALINGS}, got {scaling!r}")
        self.n_neighbors = n_neighbors
        self.encoder = FeatureEncoder().fit(X)
        encoded = self.encoder.transform(X)
        numeric = encoded[:, ~self.encoder.nominal]
        with warnings.catch_warnings():  # an all-missing column: no range, filled below
            warnings.simplefilter("ignore", RuntimeWarning)
            low, high = np.nanmin(numeric, axis=0), np.nanmax(numeric, axis=0)
        low, high = np.nan_to_num(low), np.nan_to_num(high)
        # A column spanning more than the float range (high - low overflows)
        # is scaled in halves; halving every column would lose the tiniest spans.
        with np.errstate(over="ignore"):
            self._factor = np.where(np.isfinite(high - low), 1.0, 0.5)
        self._low = low * self._factor
        span = high * self._factor - self._low
        self._span = np.where(span > 0, span, 1.0)  # a constant column adds no distance
        if scaling == "standard":
            # Mean and deviation of the min-max scaled column, carried back: squares of values near
            # the float range would overflow, those of [0, 1] do not.
            with warnings.catch_warnings():  # an all-missing column: no mean
                warnings.simplefilter("ignore", RuntimeWarning)
                unit = (numeric * self._factor - self._low) / self._span
                mean, deviation = np.nan_to_num(np.nanmean(unit, axis=0)), np.nan_to_num(np.nanstd(unit, axis=0))
            self._low = self._low + mean * self._span
            self._span = np.where(deviation > 0, deviation * self._span, 1.0)
        # A missing numeric value is replaced by its attribute's training mean
        # (after scaling): it then pulls towards no neighbour in particular.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            self._fill = np.nan_to_num(np.nanmean((numeric * self._factor - self._low) / self._span, axis=0),
                                       nan=0.5)
        self.points = self._embed(encoded)

    @overload
    def kneighbors(self, X: Any, return_distance: Literal[False] = ...) -> np.ndarray: ...

    @overload
    def kneighbors(self, X: Any, return_distance: Literal[True]) -> tuple[np.ndarray, np.ndarray]: ...

    @overload
    def kneighbors(self, X: Any, return_distance: bool = ...) -> np.ndarray | tuple[np.ndarray, np.ndarray]: ...

    def kneighbors(self, X: Any, return_distance: bool = False) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Indices of the nearest training rows, nearest first.

        With ``return_distance=True`` also their Euclidean distances (same
        shape), taken from the squared distances the neighbours were chosen
        by, so they are sorted exactly as the indices (IBLR's Dudani weights
        need them).

        Parameters
        ----------
        X : DataFrame or array-like of shape (n_rows, n_features)
            Query rows, with the columns of the training table.
        return_distance : bool, default=False

        Returns
        -------
        indices : ndarray of int, shape (n_rows, k)
            ``k = min(n_neighbors, n_training_rows)``.
        distances : ndarray of shape (n_rows, k)
            Only with ``return_distance=True``.
        """
        query = self._embed(self.encoder.transform(X))
        k = min(self.n_neighbors, len(self.points))
        point_sq = (self.points ** 2).sum(axis=1)
        # Queries in blocks, so the distance matrix stays small for large training sets.
        block = max(1, _BLOCK_CELLS // len(self.points))
        found = [self._nearest(query[start:start + block], point_sq, k, return_distance)
                 for start in range(0, max(len(query), 1), block)]
        if not return_distance:
            return np.vstack(found)[:len(query)]
        return (np.vstack([f[0] for f in found])[:len(query)],
                np.vstack([f[1] for f in found])[:len(query)])

    def _nearest(self, query, point_sq, k, return_distance=False):
        """The k nearest points of each query row, nearest first, ties by point index."""
        # ||a - b||^2 = ||a||^2 - 2 a.b + ||b||^2, for all pairs at once; rounded so
        # that equal distances computed along different paths compare equal.
        sq = np.maximum((query ** 2).sum(axis=1)[:, None] - 2 * query @ self.points.T
                        + point_sq[None, :], 0.0).round(12)
        if k == 1:  # argmin returns the first minimum: the stable tie-break, in one pass
            nearest = np.argmin(sq, axis=1)[:, None]
            tied = sq == np.take_along_axis(sq, nearest, axis=1)
            crowded = np.flatnonzero(tied.sum(axis=1) > 1)
            if len(crowded):
                chosen = self._closest_of_tied(query[crowded], tied[crowded], np.ones(len(crowded), int))
                nearest[crowded, 0] = np.argmax(chosen, axis=1)
            return (nearest, np.sqrt(np.take_along_axis(sq, nearest, axis=1))) \
                if return_distance else nearest
        if k < sq.shape[1]:
            # Partition (linear) instead of a full sort: keep everything nearer than
            # the k-th distance and, of the points at exactly that distance, the
            # lowest indices, as a stable sort would.
            kth = np.partition(sq, k - 1, axis=1)[:, k - 1:k]
            nearer = sq < kth
            tied = sq == kth
            need = k - nearer.sum(axis=1)
            keep = nearer | tied
            crowded = np.flatnonzero(tied.sum(axis=1) > need)  # more ties than places: rare
            keep[crowded] = nearer[crowded] | self._closest_of_tied(query[crowded], tied[crowded],
                                                                     need[crowded])
            candidates = np.nonzero(keep)[1].reshape(len(sq), k)  # ascending index per row
        else:
            candidates = np.broadcast_to(np.arange(sq.shape[1]), sq.shape)
        candidate_sq = np.take_along_axis(sq, candidates, axis=1)
        order = np.argsort(candidate_sq, axis=1, kind="stable")
        nearest = np.take_along_axis(candidates, order, axis=1)
        if return_distance:
            return nearest, np.sqrt(np.take_along_axis(candidate_sq, order, axis=1))
        return nearest

    def _closest_of_tied(self, query, tied, need):
        """Of the points tied at the rounded k-th distance, the ``need`` nearest per query row.

        The rounding that makes equal distances compare equal also merges
        distances that differ by less than 1e-12, which matters when one
        attribute's outliers squeeze the others into a tiny range. The tied
        points are re-measured directly (no cancellation); distances within
        1e-9 of each other, relative to the row's largest, still tie, and the
        lower index wins, as a stable sort would.

        Returns
        -------
        ndarray of bool, shape of ``tied``
        """
        chosen = np.zeros_like(tied)
        if not len(tied):
            return chosen
        per_row = tied.sum(axis=1)
        # blocks of query rows, so the (pairs x attributes) differences stay small
        rows_per_block = max(1, _BLOCK_CELLS // max(1, int(per_row.max()) * max(1, self.points.shape[1])))
        for start in range(0, len(tied), rows_per_block):
            block = slice(start, start + rows_per_block)
            row, point = np.nonzero(tied[block])
            exact = ((query[block][row] - self.points[point]) ** 2).sum(axis=1)
            scale = np.zeros(tied[block].shape[0])
            np.maximum.at(scale, row, exact)
            key = np.round(exact / np.where(scale > 0, scale, 1.0)[row], 9)
            order = np.lexsort((point, key, row))  # by row, then distance, then index
            row, point = row[order], point[order]
            rank = np.arange(len(row)) - np.searchsorted(row, row)  # position within its row
            pick = rank < need[block][row]
            chosen[start + row[pick], point[pick]] = True
        return chosen

    def _embed(self, encoded):
        numeric = ~self.encoder.nominal
        scaled = (encoded[:, numeric] * self._factor - self._low) / self._span
        parts = [np.where(np.isnan(scaled), self._fill, scaled)]
        for j in np.flatnonzero(self.encoder.nominal):
            n_values = len(self.encoder.categories[j])
            parts.append(encoded[:, [j]] == np.arange(n_values)[None, :])
        return np.hstack(parts).astype(float)

