"""Estimating how well rankers predict: leave-one-out and k-fold cross-validation.

Every method is scored on every held-out example with the measures CS, WRC
and LRA of Rebelo, Soares & Costa (2008) and with Kendall's tau, so the app
can show both means and per-example distributions.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from sklearn.base import clone

from ..model_selection import fold_indices
from ..label_ranking import metrics
from ..label_ranking.incomplete import delete_labels
from ..tree.criteria import Criterion
from ..tree.ranking_tree import RankingTree

__all__ = ["MEASURES", "best_gamma", "cross_validate", "loo_gamma_curves", "summarize"]

#: Measures reported for every held-out example, by column name.
MEASURES = {
    "CS": metrics.cs,
    "WRC": metrics.wrc,
    "LRA": metrics.lra,
    "Kendall tau": metrics.kendall_tau,
}


def cross_validate(methods: Mapping[str, Any], X: pd.DataFrame | ArrayLike, Y: ArrayLike,
                   cv: str | int = "loo", seed: int = 0,
                   progress: Callable[[int, int], bool | None] | None = None, *,
                   repetitions: int = 1, missing_rate: float = 0.0) -> pd.DataFrame:
    """Score each method on held-out examples.

    Parameters
    ----------
    methods : dict of str -> estimator
        Unfitted rankers (``fit(X, Y)``, ``predict(X)``); cloned per fold.
    X : DataFrame of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_labels)
        Rank positions.
    cv : "loo" or int, default="loo"
    seed : int, default=0
        Seed of the fold shuffle (repetition ``r`` uses ``seed + r``) and of
        the label deletion.
    progress : callable, optional
        Called as ``progress(done, total)`` after each fold, e.g. to drive a
        progress bar; if it returns False the evaluation stops early and the
        folds done so far are returned.
    repetitions : int, default=1
        Repeat the whole cross-validation with new folds (Cheng, Hühn &
        Hüllermeier (2009) use 5 × 10-fold).
    missing_rate : float, default=0.0
        Delete each label of each *training* ranking with this probability
        (the protocol of Cheng et al.,
        :func:`rankviz.label_ranking.incomplete.delete_labels`); the
        held-out rankings stay as they are. Every method of a fold sees the
        same deletions.

    Returns
    -------
    DataFrame
        One row per (method, held-out example, repetition): columns
        ``method``, ``example`` (row index), ``fold``, ``repetition`` and one
        per measure in :data:`MEASURES`.
    """
    X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    Y = np.asarray(Y, dtype=float)
    if not (isinstance(repetitions, (int, np.integer)) and repetitions >= 1):
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    splits = [(r, f, test) for r in range(repetitions)
              for f, test in enumerate(fold_indices(len(Y), cv, seed + r))]
    records = []
    for done, (repetition, fold, test) in enumerate(splits, start=1):
        train = np.setdiff1d(np.arange(len(Y)), test, assume_unique=True)
        Y_train = Y[train]
        if missing_rate > 0:
            Y_train = delete_labels(Y_train, missing_rate, seed=[seed, repetition, fold])
        for name, method in methods.items():
            model = clone(method).fit(X.iloc[train], Y_train)
            predicted = model.predict(X.iloc[test])
            row = {"method": name, "example": test, "fold": fold, "repetition": repetition}
            for measure, score in MEASURES.items():
                row[measure] = score(Y[test], predicted)
            records.append(pd.DataFrame(row))
        if progress is not None and progress(done, len(splits)) is False:
            break
    return pd.concat(records, ignore_index=True)


def summarize(scores: pd.DataFrame) -> pd.DataFrame:
    """Mean, standard deviation and count of every measure per method.

    Parameters
    ----------
    scores : DataFrame
        The output of :func:`cross_validate`.

    Returns
    -------
    DataFrame
        Index: method (in first-seen order); columns: ``(measure, statistic)``.
    """
    order = list(dict.fromkeys(scores["method"]))
    table = scores.groupby("method", sort=False)[list(MEASURES)].agg(["mean", "std", "count"])
    return table.loc[order]


def loo_gamma_curves(X: pd.DataFrame | ArrayLike, Y: ArrayLike, gammas: ArrayLike, *,
                     criterion: str | Criterion = "mean_spearman", min_samples_leaf: int = 2,
                     max_depth: int | None = None, tie_tolerance: float | None = None,
                     progress: Callable[[int, int], bool | None] | None = None) -> pd.DataFrame:
    """Leave-one-out scores of the ranking tree at every γ of a grid, from n growths.

    For each held-out example one maximal tree (``gamma=np.inf``) is grown on
    the other examples; the prediction at every γ is read off its γ path
    (:class:`rankviz.tree.gamma_path.GammaPath`), so the cost does not grow with
    the number of γ values.

    Parameters
    ----------
    X : DataFrame of shape (n_samples, n_features)
    Y : ndarray of shape (n_samples, n_labels)
    gammas : array-like of float
    criterion, min_samples_leaf, max_depth, tie_tolerance :
        As for :class:`rankviz.RankingTree`.
    progress : callable, optional
        ``progress(done, total)`` after each held-out example; returning
        False stops early (the means then cover the examples done).

    Returns
    -------
    DataFrame
        Index ``gamma``; one column per measure in :data:`MEASURES` (mean over
        held-out examples) and ``leaves`` (mean leaf count of the trees).
        ``attrs["n_examples"]`` is the number of held-out examples scored.
    """
    X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    Y = np.asarray(Y, dtype=float)
    gammas = np.asarray(gammas, dtype=float)
    n = len(Y)
    model = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=min_samples_leaf,
                        max_depth=max_depth, tie_tolerance=tie_tolerance)
    predicted = np.empty((n, len(gammas), Y.shape[1]))
    leaves = np.empty((n, len(gammas)))
    done = 0
    for i in range(n):
        train = np.r_[0:i, i + 1:n]
        model.fit(X.iloc[train], Y[train])
        path = model.gamma_path()
        predicted[i] = path.predict(model.encoder_.transform(X.iloc[[i]]), gammas)[0]
        leaves[i] = path.n_leaves(gammas)
        done = i + 1
        if progress is not None and progress(done, n) is False:
            break
    truth = np.repeat(Y[:done], len(gammas), axis=0)
    flat = predicted[:done].reshape(-1, Y.shape[1])
    curves = pd.DataFrame(
        {name: np.nanmean(score(truth, flat).reshape(done, len(gammas)), axis=0)
         for name, score in MEASURES.items()},
        index=pd.Index(gammas, name="gamma"))
    curves["leaves"] = leaves[:done].mean(axis=0)
    curves.attrs["n_examples"] = done
    return curves


def best_gamma(curves: pd.DataFrame, measure: str) -> tuple[float, float]:
    """The γ with the best mean score; among equals the smallest (the simplest tree).

    Parameters
    ----------
    curves : DataFrame
        The output of :func:`loo_gamma_curves`.
    measure : str

    Returns
    -------
    gamma : float
    score : float
    """
    values = curves[measure].to_numpy()
    best = np.nanmax(values)
    first = int(np.flatnonzero(values >= best - 1e-12)[0])
    return float(curves.index[first]), float(values[first])
