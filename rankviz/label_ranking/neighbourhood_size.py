"""Choosing a neighbourhood size ``k`` by inner cross-validation, for KNN and IBLR.

Cheng, Hühn & Hüllermeier (2009, §6) choose IBLR's ``k`` by cross-validation
on the training data; :class:`rankviz.KNNRanker` does the same with its
mean-rank rule. Per inner fold the neighbours are found once for the largest
``k``: the first ``k`` of them are exactly the ``k`` nearest (same distances,
same tie-break by row), so each candidate only slices them.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
   instance-based learning for label ranking", Proceedings of the 26th
   International Conference on Machine Learning (ICML 2009), pp. 161-168, 2009.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..model_selection import fold_indices
from ..neighbours import SCALINGS, NeighbourIndex
from .metrics import kendall_tau

__all__ = ["BETA_GRID", "DEFAULT_K_GRID", "check_neighbour_params", "check_scaling", "neighbour_sums",
           "scalings_to_try", "select_k", "select_k_and_beta"]

#: Neighbourhood sizes tried by ``n_neighbors="auto"``; large values matter
#: for data where rankings are noisy around a slowly varying centre.
DEFAULT_K_GRID = (1, 3, 5, 7, 9, 11, 15, 21, 31, 51, 101)

# Cells of the (queries, neighbours, columns) arrays that neighbour_sums builds per block (32 MB).
_SUM_CELLS = 4_000_000

#: Tie thresholds of the bucket order tried by ``beta="auto"``, the reference's 0.25 first (it wins ties).
#: On six partial-ranking files IBLR's best lay at 0.15-0.2 on every one (10 folds, k = 9), 0.01-0.03 of
#: τx above 0.25; a tree grown to pure leaves hardly depends on it.
BETA_GRID = (0.25, 0.05, 0.1, 0.15, 0.2, 0.3, 0.35)

#: ``predict(Y_train, neighbours, distances, sizes)``: for each ``k`` of ``sizes`` (increasing), the
#: rankings of the held-out rows from the training rankings of their ``k`` nearest neighbours (the first
#: ``k`` columns of ``neighbours`` and ``distances``, which hold ``max(sizes)``). All sizes at once, so a
#: rule can grow its sums neighbour by neighbour instead of starting again for each ``k``.
PredictForSizes = Callable[[np.ndarray, np.ndarray, np.ndarray, Sequence[int]], Iterable[np.ndarray]]
#: ``measure(Y_true, Y_pred)``: one value per row, higher better.
Measure = Callable[[np.ndarray, np.ndarray], Any]


def check_neighbour_params(n_neighbors: Any, k_grid: Sequence[int] | None, inner_folds: Any) -> None:
    """Raise ``ValueError`` naming the first invalid neighbourhood parameter.

    ``n_neighbors`` must be an integer >= 1 or ``"auto"``; with ``"auto"``,
    ``inner_folds`` an integer >= 2 and ``k_grid`` (None for
    :data:`DEFAULT_K_GRID`) a non-empty sequence of integers >= 1.
    """
    k = n_neighbors
    if not (k == "auto" if isinstance(k, str) else
            isinstance(k, numbers.Integral) and not isinstance(k, bool) and int(k) >= 1):
        raise ValueError(f"n_neighbors must be an integer >= 1 or 'auto', got {k!r}")
    if k == "auto":
        if not (isinstance(inner_folds, numbers.Integral) and int(inner_folds) >= 2):
            raise ValueError(f"inner_folds must be an integer >= 2, got {inner_folds!r}")
        grid = DEFAULT_K_GRID if k_grid is None else k_grid
        if len(grid) == 0 or not all(isinstance(g, numbers.Integral) and not isinstance(g, bool)
                                     and g >= 1 for g in grid):
            raise ValueError(f"k_grid must be a non-empty sequence of integers >= 1, got {grid!r}")


def check_scaling(scaling: Any) -> None:
    """Raise ``ValueError`` unless ``scaling`` is ``"auto"`` or one of :data:`rankviz.neighbours.SCALINGS`."""
    if not (isinstance(scaling, str) and scaling in ("auto",) + SCALINGS):
        raise ValueError(f"scaling must be one of {('auto',) + SCALINGS}, got {scaling!r}")


def scalings_to_try(scaling: str, n_neighbors: int | str) -> tuple[str, ...]:
    """The scalings the inner CV compares: all for ``"auto"`` with ``n_neighbors="auto"``, else one.

    With a fixed ``k`` no inner CV runs for the scaling alone, and ``"auto"`` means min-max.
    """
    if scaling == "auto":
        return SCALINGS if n_neighbors == "auto" else ("minmax",)
    return (scaling,)


def select_k(X: pd.DataFrame | np.ndarray, Y: np.ndarray, predict: PredictForSizes, *,
             k_grid: Sequence[int] | None, inner_folds: int, random_state: int,
             extend: bool | None = None, measure: Measure = kendall_tau,
             scaling: str = "minmax") -> tuple[int, dict[int, float]]:
    """The ``k`` of ``k_grid`` whose inner-CV predictions have the best mean Kendall tau (or ``measure``).

    With the default grid, when the best ``k`` is its largest (and smaller
    than the inner training sets), the grid extends itself by 1.5 and 2 times
    that value, again until the best lies inside it: a search capped by its
    grid picks the cap (on four large benchmark files the default grid's 101
    won every fold). A grid passed in is searched as it is. The sizes tried,
    extensions included, are the returned scores' keys.

    Parameters
    ----------
    X : DataFrame or ndarray of shape (n_samples, n_features)
        Training features, as :class:`rankviz.neighbours.NeighbourIndex` takes them.
    Y : ndarray of shape (n_samples, n_labels)
        Training rank positions (internal form).
    predict : callable
        ``predict(Y_train, neighbours, distances, sizes)``: for each ``k`` of
        ``sizes``, the held-out rows' rankings from their ``k`` nearest
        training rows (:data:`PredictForSizes`).
    k_grid : sequence of int or None
        Candidates (None: :data:`DEFAULT_K_GRID`); values above the smallest
        inner training set are lowered to its size.
    inner_folds : int
    random_state : int
        Seed of the folds' shuffle (:func:`rankviz.model_selection.fold_indices`).
    extend : bool, optional
        Extend the grid while its largest value is the best; by default only
        the default grid (``k_grid`` None) is extended.
    measure : callable, default=kendall_tau
        ``measure(Y_true, Y_pred)``, one value per row (NaN left out), higher
        better: :func:`rankviz.label_ranking.tau_x` for rankings with ties.
    scaling : {"minmax", "standard"}, default="minmax"
        The attributes' scaling of :class:`rankviz.neighbours.NeighbourIndex`.

    Returns
    -------
    k : int
        The first best ``k``: among equally good sizes the smallest, the most local model.
    scores : dict of int -> float
        Mean held-out score of each candidate tried, in increasing ``k``
        (over the labels the held-out rankings hold).

    Raises
    ------
    ValueError
        If ``inner_folds`` exceeds the number of rows.
    """
    (scores,) = _search_sizes(X, Y, [predict], k_grid=k_grid, inner_folds=inner_folds, random_state=random_state,
                              extend=extend, measure=measure, scaling=scaling)
    return _best(scores), scores


def _search_sizes(X, Y, predicts, *, k_grid, inner_folds, random_state, extend, measure, scaling):
    """The inner-CV score of every k for each of ``predicts``, all from one neighbour search per fold.

    The grid extends itself (:func:`select_k`) while any predictor's best k is its largest.
    """
    n = len(Y)
    if inner_folds > n:
        raise ValueError(f"inner_folds={inner_folds} exceeds the number of training rows "
                         f"(n_samples={n}); use at most n_samples folds, or a fixed n_neighbors")
    folds = fold_indices(n, inner_folds, random_state)
    smallest_train = n - max(len(test) for test in folds)
    grid = sorted({min(int(k), smallest_train) for k in (DEFAULT_K_GRID if k_grid is None else k_grid)})
    all_scores = _score_sizes(X, Y, predicts, folds, grid, measure, scaling)
    extend = k_grid is None if extend is None else extend
    # A best k at the top of the grid says the grid was too small: extend it (1.5 and 2 times
    # its largest value) until the best lies inside it or k reaches the inner training size.
    while extend and grid[-1] < smallest_train and any(_best(scores) == grid[-1] for scores in all_scores):
        larger = sorted({min(int(np.ceil(grid[-1] * 1.5)), smallest_train), min(2 * grid[-1], smallest_train)})
        for scores, more in zip(all_scores, _score_sizes(X, Y, predicts, folds, larger, measure, scaling)):
            scores.update(more)
        grid = sorted(all_scores[0])
    return all_scores


def select_k_and_beta(X: pd.DataFrame | np.ndarray, Y: np.ndarray, predict_at: Callable[[float], PredictForSizes], *,
                      betas: Sequence[float], k_grid: Sequence[int] | None, inner_folds: int, random_state: int,
                      extend: bool | None = None, measure: Measure = kendall_tau,
                      scalings: Sequence[str] = ("minmax",)) -> tuple[int, dict[int, float], float, str]:
    """The neighbourhood size, the bucket order's tie threshold and the attributes' scaling of the best inner-CV score.

    :func:`select_k` for each ``beta`` of ``betas`` and each scaling of
    ``scalings`` on the same folds; the triple of the highest score wins,
    the earlier scaling and ``beta`` among equals. The thresholds share one
    neighbour search per fold and scaling, and one grid (extended while any
    threshold's best ``k`` is its largest).

    Parameters
    ----------
    X, Y, k_grid, inner_folds, random_state, extend, measure
        As :func:`select_k`.
    predict_at : callable
        ``predict_at(beta)`` gives the ``predict`` of :func:`select_k` for that threshold.
    betas : sequence of float
        The thresholds to try, in [0, 0.5].
    scalings : sequence of str, default=("minmax",)
        The scalings of :class:`rankviz.neighbours.NeighbourIndex` to try.

    Returns
    -------
    k : int
    scores : dict of int -> float
        The scores of every ``k`` at the chosen threshold and scaling.
    beta : float
        The chosen threshold.
    scaling : str
        The chosen scaling.
    """
    chosen: tuple[int, dict[int, float], float, str] | None = None
    for scaling in scalings:
        # One neighbour search per fold serves every threshold (they differ only in the vote).
        all_scores = _search_sizes(X, Y, [predict_at(beta) for beta in betas], k_grid=k_grid,
                                   inner_folds=inner_folds, random_state=random_state, extend=extend,
                                   measure=measure, scaling=scaling)
        for beta, scores in zip(betas, all_scores):
            k = _best(scores)
            if chosen is None or (np.isfinite(scores[k]) and not scores[k] <= chosen[1][chosen[0]] + 1e-12):
                chosen = (k, scores, float(beta), scaling)
    if chosen is None:
        raise ValueError("betas and scalings must hold at least one value each")
    return chosen


def neighbour_sums(values: np.ndarray, neighbours: np.ndarray, sizes: Sequence[int],
                   factors: Sequence[np.ndarray] = ()) -> list[np.ndarray]:
    """Sums over each query's first ``k`` neighbours of their rows of ``values``, for every ``k`` of ``sizes``.

    The neighbours between consecutive sizes are summed once, and the sizes'
    sums accumulated from those pieces, where summing afresh for each ``k``
    would repeat the work ``len(sizes)`` times. Queries are taken in
    blocks, so the (queries, neighbours, columns) array stays bounded.

    Parameters
    ----------
    values : ndarray of shape (n_train, n_columns)
    neighbours : ndarray of int, shape (n_queries, n_neighbours)
        Rows of ``values``, nearest first.
    sizes : sequence of int
        Increasing, each in ``1..n_neighbours``.
    factors : sequence of ndarray of shape (n_queries, n_neighbours), default=()
        Weights of each (query, neighbour): for each, the sums of
        ``factor[q, i] * values[neighbours[q, i]]`` too.

    Returns
    -------
    list of ndarray of shape (len(sizes), n_queries, n_columns)
        The plain sums, then those of each factor.
    """
    n_queries, n_neighbours = neighbours.shape
    starts = np.concatenate([[0], np.asarray(sizes, dtype=np.intp)[:-1]])  # piece g: neighbours sizes[g-1]..sizes[g]
    sums = [np.empty((len(starts), n_queries, values.shape[1])) for _ in range(1 + len(factors))]
    block = max(1, _SUM_CELLS // max(1, n_neighbours * values.shape[1]))
    for start in range(0, n_queries, block):
        rows = slice(start, start + block)
        terms = values[neighbours[rows, :sizes[-1]]]
        for out, factor in zip(sums, [None, *factors]):
            weighted = terms if factor is None else terms * factor[rows, :sizes[-1], None]
            pieces = np.add.reduceat(weighted, starts, axis=1)
            out[:, rows] = np.cumsum(pieces, axis=1).transpose(1, 0, 2)
    return sums


def _best(scores):
    """The first k (the smallest) with the best finite score; the smallest k if none is finite."""
    finite = {k: s for k, s in scores.items() if np.isfinite(s)}
    if not finite:
        return min(scores)
    top = max(finite.values())
    return min(k for k, s in finite.items() if s == top)


def _score_sizes(X, Y, predicts, folds, grid, measure, scaling):
    """Mean held-out ``measure`` of each k in ``grid`` over the inner folds, for each of ``predicts``."""
    n = len(Y)
    tau_sum = np.zeros((len(predicts), len(grid)))
    tau_count = np.zeros((len(predicts), len(grid)))
    for test in folds:  # a few folds; the queries inside are vectorised
        train = np.setdiff1d(np.arange(n), test, assume_unique=True)
        # Scaling ranges come from the inner training rows only, as in fit.
        index = NeighbourIndex(_rows(X, train), grid[-1], scaling)
        neighbours, distances = index.kneighbors(_rows(X, test), return_distance=True)
        Y_train = Y[train]
        # k by k, every predictor at each k: those that yield their predictions lazily (bucket orders of
        # each β from shared counts, NeighbourhoodCounts) then hold one k's work at a time.
        by_size = zip(*(predict(Y_train, neighbours, distances, grid) for predict in predicts))
        for g, predictions in enumerate(by_size):
            for p, predicted in enumerate(predictions):
                tau = np.asarray(measure(Y[test], predicted), dtype=float)
                tau_sum[p, g] += np.nansum(tau)
                tau_count[p, g] += np.count_nonzero(~np.isnan(tau))
    with np.errstate(invalid="ignore", divide="ignore"):
        scores = tau_sum / tau_count
    return [{k: float(s) for k, s in zip(grid, row)} for row in scores]


def _rows(X, index):
    """Rows of a DataFrame or array by position."""
    return X.iloc[index] if isinstance(X, pd.DataFrame) else X[index]
