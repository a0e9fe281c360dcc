"""Nearest neighbours in a table of numeric and nominal attributes.

Shared by :class:`rankviz.KNNRanker`, :class:`rankviz.IBLR` and
:class:`rankviz.OrdinalKNN`, so the three find the same neighbours.
"""

from __future__ import annotations

import time
import warnings
from types import ModuleType
from typing import Any, Literal, Protocol, overload

import numpy as np
from scipy.spatial import cKDTree
from sklearn.neighbors import NearestNeighbors

from .features import FeatureEncoder
from .jit import LazyKernels

__all__ = ["ALGORITHMS", "KERNELS", "NeighbourIndex", "SCALINGS"]

#: How numeric attributes are put on one scale: their training range to [0, 1], or their
#: training mean and standard deviation to 0 and 1.
SCALINGS = ("minmax", "standard")

#: How the nearest rows are found: every distance computed here ("exhaustive"), candidates from SciPy's
#: ``cKDTree`` ("kd_tree") or from scikit-learn's ``NearestNeighbors`` with that algorithm. All find the
#: same neighbours.
ALGORITHMS = ("auto", "exhaustive", "brute", "kd_tree", "ball_tree")

_BLOCK_CELLS = 4_000_000
# "auto" computes every distance when k + 1 exceeds the training rows / _POINTS_PER_CANDIDATE: a search's
# cost grows with k and the exhaustive one's hardly does (measured: they cross near n / 30 to n / 50
# on 1,600 to 25,600 points).
_POINTS_PER_CANDIDATE = 50
# ... and, unless a KD-tree is searched, below this many rows (one matrix product is cheaper than
# scikit-learn's brute force on vehicle's 761 rows, k = 10; SciPy's KD-tree is not, on stock's 855).
_SEARCH_MIN_POINTS = 1_000
# "auto" searches a KD-tree from this many points per cell of 2^d (d the embedded dimensions) ...
_TREE_POINTS_PER_CELL = 32
# ... and always in this many dimensions or fewer (SciPy's tree against every distance, k = 10: stock's 855
# rows in 5 dimensions 0.17 against 1.8 ms, housing's 456 in 6 dimensions 0.14 against 0.22 ms).
_TREE_MAX_ALWAYS = 6
# Where the rule chooses brute force, "auto" times SciPy's tree against it on this many query rows of the first call
# of at least _TRIAL_MIN_QUERIES rows, and keeps the tree if it took under _TRIAL_MARGIN of brute force's time:
# clustered points favour the tree long before the rule does (pendigits' 16 dimensions, segment's 18: 0.70x and
# 0.55x brute force's time), uniform ones do not (spo's 24, satimage's 36: 1.9x and 2.0x), and the dimensions do
# not tell them apart. Either search gives the same neighbours; only the time depends on the trial.
_TRIAL_ROWS = 64
_TRIAL_MIN_QUERIES = 1_000
_TRIAL_MARGIN = 0.8
# The compiled choice among every distance keeps each row's k nearest in a sorted list, O(k) per point that
# enters it; above this k NumPy's partition and sort, O(1) per point, cost less.
_COMPILED_MAX_K = 64


def _import_kernels() -> ModuleType:
    from . import neighbour_kernels
    return neighbour_kernels


#: The compiled choice of the k nearest among every distance (:mod:`rankviz.neighbour_kernels`), built on
#: first use; until then :class:`NeighbourIndex` chooses with NumPy, the same neighbours (:mod:`rankviz.jit`).
KERNELS = LazyKernels("nearest neighbours", "rankviz.neighbour_kernels", load=_import_kernels,
                      warm_up=lambda: warm_up())  # defined below


def _compiled_choice(k: int) -> bool:
    """Whether the k nearest among every distance are chosen in compiled code (else NumPy chooses, the same)."""
    return 1 <= k <= _COMPILED_MAX_K and KERNELS.request()


def warm_up() -> None:
    """Compile the nearest-neighbour kernel (or load it from Numba's cache): ``rankviz warm-up`` and the
    background build."""
    KERNELS.load().nearest_of_rows(np.zeros((1, 2)), np.zeros(1), np.zeros(2), 1, np.empty((1, 1), dtype=np.intp),
                                   np.empty((1, 1)), np.empty(1, dtype=np.intp))


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
    algorithm : {"auto", "exhaustive", "brute", "kd_tree", "ball_tree"}, default="auto"
        ``"exhaustive"`` computes the distance of every query row to every
        training row. The others take a few more than ``n_neighbors``
        candidates from a search (``"kd_tree"``: SciPy's ``cKDTree``, which
        answers in O(log n) per query in few dimensions; ``"brute"`` and
        ``"ball_tree"``: scikit-learn's ``NearestNeighbors`` with that
        ``algorithm``), and choose among them by the same rule, so the
        neighbours, their order and their ties are the same; a query row
        with more rows near its k-th distance than the candidates hold is
        searched exhaustively. ``"auto"`` is exhaustive where k + 1 exceeds
        a fiftieth of the training rows; otherwise it takes a KD-tree's
        candidates in up to 6 dimensions, or where the training rows number
        at least 32 per cell of ``2 ** d`` (``d`` the numeric attributes
        plus one per nominal value), else it is exhaustive (scikit-learn's
        brute force from 1,000 rows while the compiled choice among every
        distance, :mod:`rankviz.neighbour_kernels`, is not built or k
        exceeds 64). Where it chose brute force, the first call of at least
        1,000 query rows times SciPy's tree against it on 64 of them and
        keeps the faster (clustered points favour the tree long before the
        rule does): the neighbours do not depend on it, only the time.

    Raises
    ------
    ValueError
        If ``n_neighbors`` is not an integer >= 1, ``scaling`` is not one of
        :data:`SCALINGS`, ``algorithm`` not one of :data:`ALGORITHMS`, or ``X`` is not a 2-D table the
        :class:`rankviz.features.FeatureEncoder` takes.
    """

    def __init__(self, X: Any, n_neighbors: int, scaling: str = "minmax", algorithm: str = "auto") -> None:
        if not (isinstance(n_neighbors, (int, np.integer)) and n_neighbors >= 1):
            raise ValueError(f"n_neighbors must be an integer >= 1, got {n_neighbors!r}")
        if scaling not in SCALINGS:
            raise ValueError(f"scaling must be one of {SCALINGS}, got {scaling!r}")
        if algorithm not in ALGORITHMS:
            raise ValueError(f"algorithm must be one of {ALGORITHMS}, got {algorithm!r}")
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
        self._point_sq = (self.points ** 2).sum(axis=1)
        self._minus_two_points = -2.0 * self.points  # exact: the products -2 a.b are those of 2 a.b, negated
        self._largest_norm = float(np.sqrt(self._point_sq.max(initial=0.0)))
        self.algorithm = algorithm
        n_points, n_dims = self.points.shape
        if algorithm == "auto":
            # A KD-tree prunes only where the points far outnumber the 2^d cells that one split per
            # dimension makes; else scikit-learn's brute force (chunked products, a heap per row) is faster.
            # Measured on fried's 9 dimensions with SciPy's tree: brute force 1.46x faster at 6,400 points, 1.10x at
            # 20,000. Clustered data favours the tree earlier (pendigits, 16 dimensions: 0.70x brute force at
            # 10,992 points), uniform data later; the rule errs towards brute force, whose cost is predictable.
            tree = n_dims <= _TREE_MAX_ALWAYS or n_points >= _TREE_POINTS_PER_CELL * 2.0 ** n_dims
            algorithm = "kd_tree" if tree else "brute"
        self._trial = algorithm == "brute" and self.algorithm == "auto"
        self._search: _Candidates | None = None
        if algorithm == "kd_tree" and n_points:
            self._search = _TreeCandidates(self.points)
        elif algorithm != "exhaustive" and n_points:
            self._search = NearestNeighbors(algorithm=algorithm).fit(self.points)

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
        nearest = np.empty((len(query), k), dtype=np.intp)
        distance = np.empty((len(query), k))
        n_points, n_dims = self.points.shape
        left = np.arange(len(query))  # rows still to search
        # Candidates: one more than k first, which separates the k-th neighbour from the points left
        # out on most rows (see _separated); then more, for the rows with ties there.
        least = (k + 1) * _POINTS_PER_CANDIDATE
        worth_it = n_points >= (least if isinstance(self._search, _TreeCandidates) else max(_SEARCH_MIN_POINTS, least))
        search = self._search if self.algorithm != "auto" or worth_it else None
        if self.algorithm == "auto" and search is not None and not isinstance(search, _TreeCandidates):
            # scikit-learn's brute force computes every distance too; choosing among them in compiled code costs
            # less (0.12-1.02x its time on 1,000-40,000 uniform rows in 8-36 dimensions, a tenth of them as queries)
            compiled = _compiled_choice(k)
            if self._trial and len(query) >= _TRIAL_MIN_QUERIES:
                search = self._search = self._faster_search(query[:_TRIAL_ROWS], k, compiled)
            if compiled and not isinstance(search, _TreeCandidates):
                search = None
        for n_candidates in dict.fromkeys((k + 1, 2 * k + 8)):
            if search is None or n_candidates >= n_points or not len(left):
                break
            found, candidates = search.kneighbors(query[left], n_candidates)
            separated = self._separated(query[left], found[:, -1] ** 2 - found[:, k - 1] ** 2)
            done, candidates, left = left[separated], candidates[separated], left[~separated]
            block = max(1, _BLOCK_CELLS // (n_candidates * max(n_dims, 1)))  # rows x candidates x attributes
            for start in range(0, len(done), block):
                rows = done[start:start + block]
                nearest[rows], distance[rows] = self._nearest_of_candidates(query[rows],
                                                                            candidates[start:start + block], k)
        # Rows chosen among all points: small training sets, and rows with more points near their k-th
        # distance than the candidates hold (many ties on nominal attributes or duplicated rows).
        block = max(1, _BLOCK_CELLS // max(n_points, 1))
        compiled = len(left) > 0 and _compiled_choice(k)  # asked only when needed: the first ask may start its build
        for start in range(0, len(left), block):
            rows = left[start:start + block]
            if compiled:
                rows = self._nearest_compiled(query[rows], rows, k, nearest, distance)
                if not len(rows):
                    continue
            sq = self._squared_distances(query[rows])
            nearest[rows], distance[rows] = self._select(query[rows], sq, None, k)
        return (nearest, distance) if return_distance else nearest

    def _nearest_compiled(self, query, rows, k, nearest, distance):
        """:meth:`_select` of every point for ``rows`` in compiled code; returns the rows it leaves to it.

        Those are the crowded rows, whose tied points must be measured again
        (:meth:`_closest_of_tied`).
        """
        found, found_distance = np.empty((len(rows), k), dtype=np.intp), np.empty((len(rows), k))
        crowded = np.empty(len(rows), dtype=np.intp)
        # The terms of _squared_distances, summed in its order inside the kernel
        n_crowded = KERNELS.load().nearest_of_rows(query @ self._minus_two_points.T, (query ** 2).sum(axis=1),
                                                   self._point_sq, k, found, found_distance, crowded)
        nearest[rows], distance[rows] = found, found_distance
        return rows[crowded[:n_crowded]]

    def _faster_search(self, sample, k, compiled):
        """SciPy's tree or the brute force of "auto", whichever answers ``sample`` sooner (see _TRIAL_ROWS).

        With ``compiled``, every distance chosen among in compiled code stands
        for the brute force, as :meth:`kneighbors` then runs it instead.
        """
        self._trial = False
        tree = _TreeCandidates(self.points)
        search = self._search
        assert search is not None
        if compiled:
            rows = np.arange(len(sample))
            nearest, distance = np.empty((len(sample), k), dtype=np.intp), np.empty((len(sample), k))

            def brute_force():
                self._nearest_compiled(sample, rows, k, nearest, distance)
        else:
            def brute_force():
                search.kneighbors(sample, k + 1)
        seconds = []
        for run in (brute_force, lambda: tree.kneighbors(sample, k + 1)):
            start = time.perf_counter()
            run()
            seconds.append(time.perf_counter() - start)
        return tree if seconds[1] < _TRIAL_MARGIN * seconds[0] else search

    def _separated(self, query, gap):
        """Which rows' left-out points are all farther than their k-th candidate, beyond rounding.

        ``gap`` is the squared distance of the last candidate less that of the
        k-th, as the candidate search measured them. It must exceed the error
        of the expanded squared distances plus their rounding to 12 decimals
        (see :meth:`_squared_distances`), for no left-out point to tie with or
        come before the k-th.
        """
        reach = np.sqrt((query ** 2).sum(axis=1)) + self._largest_norm
        margin = 4e-12 + 32 * (self.points.shape[1] + 2) * np.finfo(float).eps * reach ** 2
        return gap > margin

    def _nearest_of_candidates(self, query, candidates, k):
        """The k nearest of each row's candidates, by the rule :meth:`_select` applies to all points.

        Each row's candidates, nearest first as the search found them, must
        hold every point that could be nearer than, or tied with, its k-th
        nearest (:meth:`_separated`): then choosing among them gives the
        neighbours, order and ties that choosing among all points gives.
        """
        if candidates.shape[1] == k + 1:
            # The last candidate is beyond the k-th by more than rounding: the first k are the neighbours,
            # and only their order is left, by rounded distance and then index (a stable sort).
            members = np.sort(candidates[:, :k], axis=1)
            sq = self._squared_distances(query, members)
            order, ordered_sq = _stable_argsort(sq)
            return np.take_along_axis(members, order, axis=1), np.sqrt(ordered_sq)
        candidates = np.sort(candidates, axis=1)  # ascending index: the stable tie-break
        sq = self._squared_distances(query, candidates)
        return self._select(query, sq, candidates, k)

    def _squared_distances(self, query, columns=None):
        """Squared distances of query rows to all points (``columns`` None) or to each row's own points.

        ``columns`` is an array of point indices of shape (n_rows, m).
        Computed as ||a||^2 - 2 a.b + ||b||^2 and rounded to 12 decimals, so that
        equal distances computed along different paths compare equal.
        """
        # In place, without a temporary per term (vehicle's 84 x 762 distances: 155 -> 137 us); the sums are
        # those of the formula, to the bit.
        if columns is None:
            sq = query @ self._minus_two_points.T
            sq += (query ** 2).sum(axis=1)[:, None]
            sq += self._point_sq[None, :]
        else:
            sq = np.einsum("rd,rmd->rm", query, self.points[columns])
            sq *= -2.0
            sq += (query ** 2).sum(axis=1)[:, None]
            sq += self._point_sq[columns]
        np.maximum(sq, 0.0, out=sq)
        return np.round(sq, 12, out=sq)

    def _select(self, query, sq, columns, k):
        """The k nearest of each row's candidate points, nearest first, ties by point index.

        ``sq`` holds the rounded squared distances of each query row to the
        points ``columns`` (same shape, ascending index along each row; None:
        every point, in order). Returns their indices and distances, shape
        (n_rows, k).
        """
        n_rows, n_columns = sq.shape

        def points_at(position):  # the point indices of the chosen columns
            return position if columns is None else np.take_along_axis(columns, position, axis=1)

        if k == 1:  # argmin returns the first minimum: the stable tie-break, in one pass
            position = np.argmin(sq, axis=1)[:, None]
            tied = sq == np.take_along_axis(sq, position, axis=1)
            crowded = np.flatnonzero(tied.sum(axis=1) > 1)
            if len(crowded):
                chosen = self._closest_of_tied(query[crowded], tied[crowded], _rows_of(columns, crowded, n_columns),
                                               np.ones(len(crowded), int))
                position[crowded, 0] = np.argmax(chosen, axis=1)
            return points_at(position), np.sqrt(np.take_along_axis(sq, position, axis=1))
        if k < n_columns:
            # Partition (linear) instead of a full sort: keep everything nearer than
            # the k-th distance and, of the points at exactly that distance, the
            # lowest indices, as a stable sort would.
            kth = np.partition(sq, k - 1, axis=1)[:, k - 1:k]
            nearer = sq < kth
            tied = sq == kth
            need = k - nearer.sum(axis=1)
            keep = nearer | tied
            crowded = np.flatnonzero(tied.sum(axis=1) > need)  # more ties than places: rare
            keep[crowded] = nearer[crowded] | self._closest_of_tied(
                query[crowded], tied[crowded], _rows_of(columns, crowded, n_columns), need[crowded])
            # ascending index per row; np.nonzero's two index arrays cost 10x this one (84 x 762: 90 -> 10 us)
            position = (np.flatnonzero(keep) % n_columns).reshape(n_rows, k)
            kept_sq = np.take_along_axis(sq, position, axis=1)
        else:
            position = np.broadcast_to(np.arange(n_columns), sq.shape)
            kept_sq = sq
        order, ordered_sq = _stable_argsort(kept_sq)
        return points_at(np.take_along_axis(position, order, axis=1)), np.sqrt(ordered_sq)

    def _closest_of_tied(self, query, tied, columns, need):
        """Of the candidate points tied at the rounded k-th distance, the ``need`` nearest per query row.

        The rounding that makes equal distances compare equal also merges
        distances that differ by less than 1e-12, which matters when one
        attribute's outliers squeeze the others into a tiny range. The tied
        points are re-measured directly (no cancellation); distances within
        1e-9 of each other, relative to the row's largest, still tie, and the
        lower index wins, as a stable sort would.

        Returns
        -------
        ndarray of bool, shape of ``tied``: which of ``columns`` are chosen
        """
        chosen = np.zeros_like(tied)
        if not len(tied):
            return chosen
        per_row = tied.sum(axis=1)
        # blocks of query rows, so the (pairs x attributes) differences stay small
        rows_per_block = max(1, _BLOCK_CELLS // max(1, int(per_row.max()) * max(1, self.points.shape[1])))
        for start in range(0, len(tied), rows_per_block):
            block = slice(start, start + rows_per_block)
            row, position = np.nonzero(tied[block])
            point = columns[block][row, position]
            exact = ((query[block][row] - self.points[point]) ** 2).sum(axis=1)
            scale = np.zeros(tied[block].shape[0])
            np.maximum.at(scale, row, exact)
            key = np.round(exact / np.where(scale > 0, scale, 1.0)[row], 9)
            order = np.lexsort((point, key, row))  # by row, then distance, then index
            row, position = row[order], position[order]
            rank = np.arange(len(row)) - np.searchsorted(row, row)  # position within its row
            pick = rank < need[block][row]
            chosen[start + row[pick], position[pick]] = True
        return chosen

    def _embed(self, encoded):
        numeric = ~self.encoder.nominal
        scaled = (encoded[:, numeric] * self._factor - self._low) / self._span
        parts = [np.where(np.isnan(scaled), self._fill, scaled)]
        for j in np.flatnonzero(self.encoder.nominal):
            n_values = len(self.encoder.categories[j])
            parts.append(encoded[:, [j]] == np.arange(n_values)[None, :])
        return np.hstack(parts).astype(float)


class _Candidates(Protocol):
    def kneighbors(self, X: np.ndarray, n_neighbors: int) -> tuple[np.ndarray, np.ndarray]: ...


class _TreeCandidates:
    """SciPy's ``cKDTree`` behind ``NearestNeighbors.kneighbors``' signature.

    On one thread its queries take 0.65-0.7x the time of scikit-learn's
    KD-tree on calhousing, fried and pendigits, and a fifth on stock's 855
    rows, where scikit-learn's fixed cost per call dominates
    (``benchmarks/bench_neighbours.py``).
    """

    def __init__(self, points: np.ndarray) -> None:
        self._tree = cKDTree(points)

    def kneighbors(self, X: np.ndarray, n_neighbors: int) -> tuple[np.ndarray, np.ndarray]:
        distance, index = self._tree.query(X, k=n_neighbors)
        return distance, index


def _stable_argsort(values):
    """``np.argsort(values, axis=1, kind="stable")``, by the faster unstable sort where a row has no equal values.

    Distances rarely tie on numeric attributes, and a stable sort of floats
    costs about five times an introsort; only rows with ties are sorted again.
    Returns the order and the values in that order.
    """
    order = np.argsort(values, axis=1)
    ordered = np.take_along_axis(values, order, axis=1)
    tied = np.flatnonzero((ordered[:, 1:] == ordered[:, :-1]).any(axis=1))
    if len(tied):
        order[tied] = np.argsort(values[tied], axis=1, kind="stable")  # equal values: the same ``ordered``
    return order, ordered


def _rows_of(columns, rows, n_columns):
    """Rows ``rows`` of the candidates' point indices; None (every point, in order) spelt out."""
    if columns is None:
        return np.broadcast_to(np.arange(n_columns), (len(rows), n_columns))
    return columns[rows]
