"""The consensus of rankings with ties: a bucket order by the pivot algorithm of Alfaro, Aledo & Gámez.

A *bucket order* ranks the labels with ties (``a > b = c > d``: the buckets
``{a}, {b, c}, {d}``). The partial label ranking trees and nearest neighbours
of Alfaro, Aledo & Gámez (2021) predict the bucket order that the bucket pivot
algorithm with the least indecision assumption, multiple pivots and two
stages ("BPA-LIA-MP2", Aledo, Gámez & Rosete 2017) builds from the rankings:

1. The *precedence* of every pair: the (weighted) share of the rankings that
   put ``i`` before ``j``, a tie counting one half (``P[i, j]``; a pair no
   ranking holds both labels of counts ½).
2. Each label's *indecision* (the DANI index): the mean distance of its row of
   ``P`` from the "utopian" row that rounds each entry to 0, ½ or 1 (below
   0.25, from 0.25 to 0.75, above 0.75).
3. The label of least indecision is the pivot of a central bucket. Every other
   label goes before it when the central labels' mean precedence over it is
   below ``0.5 - beta``, into it up to ``0.5 + beta`` (both ends included;
   the bucket grows as labels join it), after it otherwise; then the labels
   put before and after are placed once more against the grown bucket. The
   labels before and after are ordered the same way, recursively.

References
----------
.. [1] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Learning decision trees for
       the partial label ranking problem", International Journal of
       Intelligent Systems 36(2), pp. 890-918, 2021.
.. [2] J. A. Aledo, J. A. Gámez and A. Rosete, "Utopia in the solution of the
       Bucket Order Problem", Decision Support Systems 97, pp. 69-80, 2017.
"""

from __future__ import annotations

from types import ModuleType

import numpy as np
from numpy.typing import ArrayLike

from ..jit import LazyKernels

__all__ = ["CONSENSUS_CHOICES", "DEFAULT_BETA", "KERNELS", "PARTIAL_SHARE", "NeighbourhoodCounts", "bucket_order",
           "bucket_order_from_counts", "bucket_orders", "bucket_orders_from_counts", "bucket_orders_from_pair_counts",
           "check_consensus", "chosen_consensus", "has_ties", "is_partial", "labels_of_pairs", "precedence_counts",
           "warm_up"]

#: The tie threshold β of the partial label rankers of Alfaro et al. (2021), fixed there.
DEFAULT_BETA = 0.25
#: Rankings are partial rankings (ties are part of the target) when at least this share of them tie
#: labels: the partial-ranking benchmark files tie labels in 32-100 % of their rows, while complete
#: rankings of scores (the metalearning sample: equal accuracies) tie a few rows (6 %).
PARTIAL_SHARE = 0.1
#: What a ranker's ``consensus`` parameter takes (:class:`rankviz.RankingTree`, :class:`rankviz.RankingForest`).
CONSENSUS_CHOICES = ("auto", "aggregate", "bucket_order")


def _import_kernels() -> ModuleType:
    from . import bucket_kernels
    return bucket_kernels


#: The compiled bucket orders of many sets (:mod:`rankviz.label_ranking.bucket_kernels`), built on first use;
#: until then :func:`bucket_orders` orders one set at a time in Python (:mod:`rankviz.jit`).
KERNELS = LazyKernels("bucket orders", "rankviz.label_ranking.bucket_kernels", load=_import_kernels,
                      warm_up=lambda: warm_up())  # defined below


def warm_up() -> None:
    """Compile the bucket-order kernels (or load them from Numba's cache): ``rankviz warm-up`` and the background
    build."""
    kernels = KERNELS.load()
    precedence, indecision = np.empty((1, 2, 2)), np.empty((1, 2))
    kernels.precedence_and_indecision(np.zeros((1, 2, 2)), np.ones((1, 2, 2)), _EPSILON, precedence, indecision)
    kernels.bucket_positions(precedence, indecision, DEFAULT_BETA, np.empty((1, 2)))
    kernels.bucket_positions_of_pairs(np.zeros((1, 1)), np.ones((1, 1)), np.zeros((1, 1)), _EPSILON, DEFAULT_BETA,
                                      np.empty((1, 2)))


# Rows per block of the (rows, labels, labels) comparison tables: at most this many cells at once.
_BLOCK_CELLS = 1 << 22
# Added to every count of a pair, as the reference implementation does: a pair no ranking holds
# both labels of has precedence 1/2, and exact thresholds are met the same way.
_EPSILON = float(np.finfo(float).eps)


def has_ties(Y: ArrayLike) -> bool:
    """Whether some ranking ties two of its labels (a missing label ties nothing).

    Parameters
    ----------
    Y : array-like of shape (n_rankings, n_labels)
        Rank positions, NaN = missing.

    Returns
    -------
    bool
        True if two labels share a position in some row.

    Examples
    --------
    >>> from rankviz.label_ranking.bucket_order import has_ties
    >>> has_ties([[1, 2, 3], [1, 2, 2]]), has_ties([[1, 2, float("nan")]])
    (True, False)
    """
    return bool(_tying_rows(Y).any())


def is_partial(Y: ArrayLike) -> bool:
    """Whether rankings are partial rankings: at least :data:`PARTIAL_SHARE` of them tie two labels.

    Parameters
    ----------
    Y : array-like of shape (n_rankings, n_labels)
        Rank positions, NaN = missing.

    Returns
    -------
    bool
        True when ties are part of the target, not a few equal scores.

    Examples
    --------
    >>> from rankviz.label_ranking.bucket_order import is_partial
    >>> is_partial([[1, 2, 2], [1, 2, 3]]), is_partial([[1, 2, 2]] + [[1, 2, 3]] * 19)
    (True, False)
    """
    tying = _tying_rows(Y)
    return bool(len(tying) and tying.mean() >= PARTIAL_SHARE)


def _tying_rows(Y: ArrayLike) -> np.ndarray:
    """Which rows tie two labels (sorted, two equal neighbours; NaN never equals NaN)."""
    ordered = np.sort(np.atleast_2d(np.asarray(Y, dtype=float)), axis=1)
    return (ordered[:, 1:] == ordered[:, :-1]).any(axis=1)


def precedence_counts(Y: ArrayLike, weights: ArrayLike | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Count, for every pair of labels, the (weighted) rankings that order it and that tie it.

    Parameters
    ----------
    Y : array-like of shape (n_rankings, n_labels)
        Rank positions (lower = preferred, equal = tied, NaN = missing).
    weights : array-like of shape (n_rankings,), optional
        Non-negative weight of each ranking; 1 each by default.

    Returns
    -------
    before : ndarray of shape (n_labels, n_labels)
        ``before[i, j]``: the weight of the rankings that put ``i`` strictly before ``j``.
    tied : ndarray of shape (n_labels, n_labels)
        ``tied[i, j]``: the weight of the rankings that tie ``i`` and ``j`` (symmetric).
        A ranking that lacks ``i`` or ``j`` adds to neither.

    Examples
    --------
    >>> from rankviz.label_ranking.bucket_order import precedence_counts
    >>> before, tied = precedence_counts([[1, 2, 2], [2, 1, 3]])
    >>> before.tolist()
    [[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    >>> tied[1, 2], tied[2, 1]
    (np.float64(1.0), np.float64(1.0))
    """
    Y = np.atleast_2d(np.asarray(Y, dtype=float))
    n, n_labels = Y.shape
    w = np.ones(n) if weights is None else np.asarray(weights, dtype=float)
    before = np.zeros((n_labels, n_labels))
    tied = np.zeros((n_labels, n_labels))
    block = max(1, _BLOCK_CELLS // max(1, n_labels * n_labels))
    for start in range(0, n, block):  # rows in blocks: a (rows, labels, labels) table each
        counted = _pair_counts(Y[start:start + block], w[start:start + block])
        before += counted[0]
        tied += counted[1]
    return before, tied


def _pair_counts(rows: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Weighted counts of the rankings ``rows`` (..., rankings, labels) that order and that tie each pair."""
    difference = rows[..., :, :, None] - rows[..., :, None, :]  # NaN where a label is missing: in no count
    before = np.einsum("...r,...rij->...ij", weight, (difference < 0).astype(float))
    tied = np.einsum("...r,...rij->...ij", weight, (difference == 0).astype(float))
    diagonal = np.arange(rows.shape[-1])
    tied[..., diagonal, diagonal] = 0.0  # a label is not tied with itself
    return before, tied


def bucket_order_from_counts(before: ArrayLike, tied: ArrayLike, beta: float = DEFAULT_BETA) -> np.ndarray:
    """The bucket order of the pivot algorithm (BPA-LIA-MP2) from precedence counts.

    Parameters
    ----------
    before, tied : array-like of shape (n_labels, n_labels)
        As :func:`precedence_counts` returns them.
    beta : float, default=0.25
        The tie threshold in [0, 0.5]: a label joins a bucket while the
        bucket's mean precedence over it lies in ``[0.5 - beta, 0.5 + beta]``.

    Returns
    -------
    ndarray of shape (n_labels,)
        Rank positions, tied labels sharing the average of the positions they
        fill (``a > b = c`` is ``1, 2.5, 2.5``).

    Raises
    ------
    ValueError
        If ``beta`` is not a number in [0, 0.5].
    """
    _check_beta(beta)
    precedence, indecision = _precedence_and_indecision(np.asarray(before, dtype=float),
                                                        np.asarray(tied, dtype=float))
    return _bucket_positions(precedence, indecision, float(beta))


def _bucket_positions(precedence: np.ndarray, indecision: np.ndarray, beta: float) -> np.ndarray:
    """The bucket order of one set as average positions (the compiled kernel does many at once)."""
    n_labels = precedence.shape[0]
    low, high = 0.5 - beta, 0.5 + beta

    def place(items: list[int], central: list[int], left: list[int], right: list[int]) -> None:
        for item in items:
            # how much the central labels are preferred to it: summed in the bucket's order, one by one,
            # as the reference and the compiled kernel (rankviz.label_ranking.bucket_kernels) do
            mean = sum(float(precedence[c, item]) for c in central) / len(central)
            (left if mean < low else central if mean <= high else right).append(item)

    def build(items: list[int]) -> list[list[int]]:
        # Labels, not rows: a loop over at most n_labels buckets.
        if not items:
            return []
        pivot = min(items, key=lambda label: indecision[label])  # the first of least indecision
        central: list[int] = [pivot]
        left: list[int] = []
        right: list[int] = []
        place([item for item in items if item != pivot], central, left, right)
        again = left + right  # the second stage: placed anew against the grown central bucket
        left, right = [], []
        place(again, central, left, right)
        return build(left) + [central] + build(right)

    positions = np.empty(n_labels)
    filled = 0
    for bucket in build(list(range(n_labels))):
        positions[bucket] = filled + (len(bucket) + 1) / 2
        filled += len(bucket)
    return positions


def _precedence_and_indecision(before: np.ndarray, tied: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The precedence matrices and the labels' indecision (DANI) of one or many sets (leading axes)."""
    n_labels = before.shape[-1]
    # the precedence of i over j, a tie counting one half: computed for i <= j, the rest its complement, so
    # that P[j, i] = 1 - P[i, j] holds to the bit (ties at β = 0 hang on it)
    a, t = before + _EPSILON, tied + _EPSILON
    b = np.swapaxes(before, -1, -2) + _EPSILON
    upper = np.triu((a + 0.5 * t) / (a + t + b))
    precedence = upper + np.tril(1.0 - np.swapaxes(upper, -1, -2), k=-1)
    # the utopian matrix rounds each upper entry and mirrors it (0.25 and 0.75 round to 1/2)
    rounded = np.where(upper > 0.75, 1.0, np.where(upper < 0.25, 0.0, 0.5))
    utopia = np.triu(rounded) + np.tril(1.0 - np.swapaxes(rounded, -1, -2), k=-1)
    off_diagonal = ~np.eye(n_labels, dtype=bool)
    # summed left to right (cumsum), as the reference does: labels of equal indecision in exact arithmetic
    # must stay equal, or the first of them is not the pivot (a pairwise sum differs in the last bit)
    distance = np.where(off_diagonal, np.abs(precedence - utopia), 0.0)
    indecision = np.cumsum(distance, axis=-1)[..., -1] / max(1, n_labels - 1)
    return precedence, indecision


def _check_beta(beta: object) -> None:
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)) \
            or not 0.0 <= beta <= 0.5:
        raise ValueError(f"beta must be a number in [0, 0.5]; got {beta!r}.")


def check_consensus(consensus: object, beta: object) -> None:
    """Raise ``ValueError`` unless ``consensus`` is one of :data:`CONSENSUS_CHOICES` and ``beta`` is in [0, 0.5].

    Parameters
    ----------
    consensus : object
        A ranker's ``consensus`` parameter.
    beta : object
        Its ``beta`` parameter.

    Raises
    ------
    ValueError
        Naming the parameter and what it takes.
    """
    if consensus not in CONSENSUS_CHOICES:
        raise ValueError(f"consensus must be 'auto', 'aggregate' or 'bucket_order'; got {consensus!r}.")
    _check_beta(beta)


def chosen_consensus(consensus: str, tie_tolerance: float | None, Y: ArrayLike) -> str:
    """What a ranker with ``consensus`` predicts on training rankings ``Y``: "bucket_order" or "aggregate".

    ``"auto"`` is the bucket order on partial rankings (:func:`is_partial`) when no
    ``tie_tolerance`` asks for ties of the aggregate.

    Parameters
    ----------
    consensus : {"auto", "aggregate", "bucket_order"}
        The ranker's parameter.
    tie_tolerance : float or None
        The ranker's tie tolerance.
    Y : array-like of shape (n_rankings, n_labels)
        The training rank positions.

    Returns
    -------
    str
        ``"bucket_order"`` or ``"aggregate"``.
    """
    if consensus == "auto":
        return "bucket_order" if tie_tolerance is None and is_partial(Y) else "aggregate"
    return consensus


def bucket_orders(Y: ArrayLike, weights: ArrayLike | None = None, *, beta: float = DEFAULT_BETA) -> np.ndarray:
    """The bucket order of each of many sets of rankings, in one call (compiled when it is built).

    Parameters
    ----------
    Y : array-like of shape (n_sets, n_rankings, n_labels)
        Each set's rankings: a query's neighbours, a row's votes of the trees.
    weights : array-like of shape (n_sets, n_rankings), optional
        Non-negative weight of each ranking of each set.
    beta : float, default=0.25
        The tie threshold (see :func:`bucket_order_from_counts`).

    Returns
    -------
    ndarray of shape (n_sets, n_labels)
        Each set's bucket order as rank positions (ties share their average position), equal to
        :func:`bucket_order` of the set.

    Raises
    ------
    ValueError
        If ``beta`` is not a number in [0, 0.5], or ``Y`` is not 3-D.

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz.label_ranking.bucket_order import bucket_orders
    >>> bucket_orders(np.array([[[1, 2, 2], [1, 2, 3]], [[3, 2, 1], [3, 2, 1]]]))
    array([[1. , 2.5, 2.5],
           [3. , 2. , 1. ]])
    """
    _check_beta(beta)
    Y = np.asarray(Y, dtype=float)
    if Y.ndim != 3:
        raise ValueError(f"Y must hold sets of rankings, shape (n_sets, n_rankings, n_labels); got {Y.shape}")
    n_sets, n_rankings, n_labels = Y.shape
    w = np.ones((n_sets, n_rankings)) if weights is None else np.asarray(weights, dtype=float)
    out = np.empty((n_sets, n_labels))
    # sets in blocks: the comparison tables hold n_rankings x labels x labels numbers per set
    block = max(1, _BLOCK_CELLS // max(1, n_rankings * n_labels * n_labels))
    for start in range(0, n_sets, block):
        before, tied = _pair_counts(Y[start:start + block], w[start:start + block])
        out[start:start + block] = bucket_orders_from_counts(before, tied, beta)
    return out


class NeighbourhoodCounts:
    """The precedence counts of each query's first ``k`` neighbours, kept while thresholds β are tried on them.

    Choosing ``k`` and β together scores every β on the same neighbours,
    one ``k`` after the other (:func:`~rankviz.label_ranking.neighbourhood_size.select_k_and_beta`).
    The counts, most of a bucket order's cost, do not depend on β: each set
    of neighbours and ``k`` is counted once, then each β is one call of
    :func:`bucket_orders_from_counts`. Only the latest counts are kept.

    Examples
    --------
    >>> import numpy as np
    >>> Y = np.array([[1, 2, 2], [1, 2, 3], [3, 2, 1]], dtype=float)
    >>> neighbours = np.array([[0, 1, 2], [2, 1, 0]])
    >>> counts = NeighbourhoodCounts()
    >>> counts.bucket_orders(Y, neighbours, 2, None, beta=0.25)  # [3, 2, 1] against [1, 2, 3]: all tied
    array([[1. , 2.5, 2.5],
           [2. , 2. , 2. ]])
    >>> np.array_equal(counts.bucket_orders(Y, neighbours, 2, None, beta=0.1),
    ...                bucket_orders(Y[neighbours[:, :2]], beta=0.1))
    True
    """

    def __init__(self) -> None:
        self._key: tuple[np.ndarray, int] | None = None
        self._counts: tuple[np.ndarray, np.ndarray] | None = None

    def bucket_orders(self, Y: np.ndarray, neighbours: np.ndarray, k: int, weights: ArrayLike | None,
                      beta: float = DEFAULT_BETA) -> np.ndarray:
        """:func:`bucket_orders` of ``Y[neighbours[:, :k]]`` with ``weights`` (of shape (queries, k)).

        The counts are taken again when ``neighbours`` is another array
        (identity, not equality: the caller passes the same array for every
        β) or ``k`` changes; ``weights`` must be those of these neighbours
        (their distances'), which are not compared.
        """
        _check_beta(beta)
        key = self._key
        if key is None or key[0] is not neighbours or key[1] != k:
            sets = Y[neighbours[:, :k]]
            w = np.ones(sets.shape[:2]) if weights is None else np.asarray(weights, dtype=float)
            before, tied = np.empty((len(sets), Y.shape[1], Y.shape[1])), np.empty((len(sets), Y.shape[1], Y.shape[1]))
            block = max(1, _BLOCK_CELLS // max(1, k * Y.shape[1] * Y.shape[1]))
            for start in range(0, len(sets), block):
                rows = slice(start, start + block)
                before[rows], tied[rows] = _pair_counts(sets[rows], w[rows])
            self._key, self._counts = (neighbours, k), (before, tied)
        assert self._counts is not None
        return bucket_orders_from_counts(*self._counts, beta)


def bucket_orders_from_counts(before: ArrayLike, tied: ArrayLike, beta: float = DEFAULT_BETA) -> np.ndarray:
    """The bucket orders of many sets from their precedence counts, in one call (compiled when it is built).

    Parameters
    ----------
    before, tied : array-like of shape (n_sets, n_labels, n_labels)
        Each set's counts, as :func:`precedence_counts` returns them for one set.
    beta : float, default=0.25
        The tie threshold (see :func:`bucket_order_from_counts`).

    Returns
    -------
    ndarray of shape (n_sets, n_labels)
        Each set's bucket order as rank positions, equal to :func:`bucket_order_from_counts` of the set.

    Raises
    ------
    ValueError
        If ``beta`` is not a number in [0, 0.5].
    """
    _check_beta(beta)
    before = np.asarray(before, dtype=float)
    tied = np.asarray(tied, dtype=float)
    n_sets, n_labels = before.shape[:2]
    out = np.empty((n_sets, n_labels))
    block = max(1, _BLOCK_CELLS // max(1, n_labels * n_labels))  # the precedence tables, a block of sets at a time
    for start in range(0, n_sets, block):
        if KERNELS.request():
            kernels = KERNELS.load()
            size = min(block, n_sets - start)
            precedence, indecision = np.empty((size, n_labels, n_labels)), np.empty((size, n_labels))
            kernels.precedence_and_indecision(before[start:start + block], tied[start:start + block], _EPSILON,
                                              precedence, indecision)
            kernels.bucket_positions(precedence, indecision, float(beta), out[start:start + block])
        else:  # while the compiled code builds: the same algorithm, a set at a time
            precedence, indecision = _precedence_and_indecision(before[start:start + block],
                                                                tied[start:start + block])
            for k in range(len(precedence)):
                out[start + k] = _bucket_positions(precedence[k], indecision[k], float(beta))
    return out


def labels_of_pairs(n_pairs: int) -> int:
    """The number ``L`` of labels with ``L(L - 1)/2`` pairs (the nearest, when ``n_pairs`` is no such number).

    Examples
    --------
    >>> labels_of_pairs(0), labels_of_pairs(1), labels_of_pairs(45)
    (1, 2, 10)
    """
    return int(round((1 + np.sqrt(1 + 8 * n_pairs)) / 2))


def bucket_orders_from_pair_counts(ahead: ArrayLike, tie: ArrayLike, behind: ArrayLike,
                                   beta: float = DEFAULT_BETA) -> np.ndarray:
    """The bucket orders of many sets from their counts per pair of labels (compiled when it is built).

    Parameters
    ----------
    ahead, tie, behind : array-like of shape (n_sets, n_labels * (n_labels - 1) / 2)
        For each pair ``i < j`` (in the order of ``np.triu_indices(n_labels, k=1)``), the weight of the
        set's rankings that put ``i`` first, that tie ``i`` and ``j``, and that put ``j`` first.
    beta : float, default=0.25
        The tie threshold (see :func:`bucket_order_from_counts`).

    Returns
    -------
    ndarray of shape (n_sets, n_labels)
        Each set's bucket order as rank positions: :func:`bucket_orders_from_counts` of the count
        tables these make, without making them (a tree's nodes' tables cost more than their orders).

    Raises
    ------
    ValueError
        If ``beta`` is not a number in [0, 0.5], or the counts are not of one number of pairs.
    """
    _check_beta(beta)
    ahead, tie, behind = (np.ascontiguousarray(np.atleast_2d(counts), dtype=float) for counts in (ahead, tie, behind))
    n_sets, n_pairs = ahead.shape
    n_labels = labels_of_pairs(n_pairs)
    if n_labels * (n_labels - 1) // 2 != n_pairs or tie.shape != ahead.shape or behind.shape != ahead.shape:
        raise ValueError(f"ahead, tie and behind must have one column per pair of labels (L(L - 1)/2 for L labels), "
                         f"all of one shape; got shapes {ahead.shape}, {tie.shape} and {behind.shape}.")
    if KERNELS.request():
        out = np.empty((n_sets, n_labels))
        KERNELS.load().bucket_positions_of_pairs(ahead, tie, behind, _EPSILON, float(beta), out)
        return out
    first, second = np.triu_indices(n_labels, k=1)
    before = np.zeros((n_sets, n_labels, n_labels))
    tied = np.zeros((n_sets, n_labels, n_labels))
    before[:, first, second], before[:, second, first] = ahead, behind
    tied[:, first, second] = tied[:, second, first] = tie
    return bucket_orders_from_counts(before, tied, beta)


def bucket_order(Y: ArrayLike, weights: ArrayLike | None = None, *, beta: float = DEFAULT_BETA) -> np.ndarray:
    """The consensus bucket order of rankings with ties (BPA-LIA-MP2 of Alfaro, Aledo & Gámez 2021).

    Parameters
    ----------
    Y : array-like of shape (n_rankings, n_labels)
        Rank positions (lower = preferred, equal = tied, NaN = missing).
    weights : array-like of shape (n_rankings,), optional
        Non-negative weight of each ranking.
    beta : float, default=0.25
        The tie threshold (see :func:`bucket_order_from_counts`).

    Returns
    -------
    ndarray of shape (n_labels,)
        Rank positions, tied labels sharing the average of their positions.

    Raises
    ------
    ValueError
        If ``beta`` is not a number in [0, 0.5].

    See Also
    --------
    rankviz.label_ranking.aggregation.rank_by_mean : The mean-rank rule (strict, or ties by a tolerance).
    rankviz.label_ranking.mallows.borda_center : The Borda count.

    References
    ----------
    .. [1] J. C. Alfaro, J. A. Aledo and J. A. Gámez, "Learning decision trees
           for the partial label ranking problem", International Journal of
           Intelligent Systems 36(2), pp. 890-918, 2021.

    Examples
    --------
    Four rankings of the labels a, b, c, d: b is first in all, a and d are
    tied or close, c is last or tied with d.

    >>> from rankviz.label_ranking.bucket_order import bucket_order
    >>> bucket_order([[2, 1, 3, 3], [2, 1, 3, 3], [2, 1, 3, 2], [2, 1, 2, 1]])
    array([2.5, 1. , 4. , 2.5])
    """
    before, tied = precedence_counts(Y, weights)
    return bucket_order_from_counts(before, tied, beta)
