"""Estimating how well rankers predict: leave-one-out and k-fold cross-validation.

Every method is scored on every held-out example with the measures CS, WRC
and LRA of Rebelo, Soares & Costa (2008) and with Kendall's tau, so the app
can show both means and per-example distributions.

* :func:`compare_methods` -- per-example scores of estimators;
* :func:`gamma_curves` -- the ranking tree's scores at every γ of a grid,
  one maximal tree per fold (leave-one-out, k-fold or repeated k-fold);
* :func:`summarize`, :func:`mean_intervals` -- means with standard
  deviations, or with 95 % Student-t intervals over examples or repetitions;
* :func:`paired_scores` -- one method against each other on the same
  held-out examples (:func:`rankviz.experiments.statistics.paired_comparison`).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import stats
from sklearn.base import clone

from ..model_selection import fold_indices
from .statistics import paired_comparison, t_interval
from ..label_ranking import metrics
from ..label_ranking.bucket_order import has_ties
from ..label_ranking.incomplete import delete_labels
from ..tree.criteria import Criterion
from ..tree.ranking_tree import RankingTree

__all__ = ["MEASURES", "TIES_MEASURES", "best_gamma", "compare_methods", "gamma_curves", "loo_gamma_curves",
           "mean_intervals", "paired_scores", "scored_measures", "summarize"]

#: Measures reported for every held-out example, by column name.
MEASURES = {
    "CS": metrics.cs,
    "WRC": metrics.wrc,
    "LRA": metrics.lra,
    "Kendall tau": metrics.kendall_tau,
}
#: Also reported where some ranking ties labels (partial rankings): Emond & Mason's τx, the measure
#: that literature reports (for strict rankings it equals Kendall's tau, so it is left out there).
TIES_MEASURES = {"τx": metrics.tau_x}


def scored_measures(Y: ArrayLike) -> dict[str, Callable[[ArrayLike, ArrayLike], Any]]:
    """The measures :func:`compare_methods` scores the examples of ``Y`` with, by column name.

    :data:`MEASURES`, and after them :data:`TIES_MEASURES` where some
    ranking ties two labels.

    Parameters
    ----------
    Y : array-like of shape (n_samples, n_labels)
        Rank positions (NaN = missing label).

    Returns
    -------
    dict of str -> callable

    Examples
    --------
    >>> list(scored_measures([[1, 2, 2], [1, 2, 3]]))
    ['CS', 'WRC', 'LRA', 'Kendall tau', 'τx']
    """
    return {**MEASURES, **TIES_MEASURES} if has_ties(Y) else dict(MEASURES)


def compare_methods(methods: Mapping[str, Any], X: pd.DataFrame | ArrayLike, Y: ArrayLike,
                    cv: Any = "loo", seed: int = 0,
                    progress: Callable[[int, int], bool | None] | None = None, *,
                    repetitions: int = 1, missing_rate: float = 0.0, groups: ArrayLike | None = None
                    ) -> pd.DataFrame:
    """Score several methods on the same held-out examples, example by example.

    Unlike :func:`sklearn.model_selection.compare_methods`, which gives one
    score per fold for one estimator, this gives every measure for every
    held-out example and method, on shared folds, ready for paired tests.

    Each method is fitted on the training part of every fold and each
    held-out example is scored with every measure of :data:`MEASURES`
    (CS, WRC and LRA of Rebelo, Soares & Costa 2008, and Kendall's tau), and
    with τx (:data:`TIES_MEASURES`) where the rankings tie labels
    (:func:`scored_measures`), so means, intervals, paired comparisons and
    distributions can all be read from the result.

    Parameters
    ----------
    methods : dict of str -> estimator
        Unfitted rankers (``fit(X, Y)``, ``predict(X)``); cloned per fold.
    X : DataFrame or array-like of shape (n_samples, n_features)
        The features; an array is made a DataFrame.
    Y : ndarray of shape (n_samples, n_labels)
        Rank positions, lower = preferred, NaN for a missing label.
    cv : "loo", int or scikit-learn splitter, default="loo"
        Leave-one-out, the number of folds of a shuffled k-fold split
        (:func:`rankviz.model_selection.fold_indices`), or any splitter with
        ``split(X, y, groups)`` (``KFold``, ``RepeatedKFold``, ``GroupKFold``,
        ``LeaveOneOut``, ...); with a repeated splitter the repetitions are
        its own (``n_repeats``).
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
    groups : array-like of shape (n_samples,), optional
        Group labels for a splitter that keeps groups together (``GroupKFold``).

    Returns
    -------
    DataFrame
        One row per (method, held-out example, repetition): columns
        ``method``, ``example`` (row index), ``fold``, ``repetition`` and one
        per measure of :func:`scored_measures` (``Y``'s).

    Raises
    ------
    ValueError
        If ``repetitions`` is not an integer >= 1, ``cv`` is not a valid
        split of the rows, or a splitter is given with ``repetitions`` > 1;
        a method's own errors pass through.

    See Also
    --------
    summarize, mean_intervals : Means of the scores per method.
    paired_scores : One method against the others, example by example.
    gamma_curves : The ranking tree's scores at every γ of a grid.

    Examples
    --------
    >>> from rankviz import DefaultRanker, RankingTree, compare_methods, load_sample
    >>> data = load_sample("toy")
    >>> scores = compare_methods({"tree": RankingTree(), "default": DefaultRanker()}, data.X, data.Y, cv=4)
    >>> scores.columns.tolist()
    ['method', 'example', 'fold', 'repetition', 'CS', 'WRC', 'LRA', 'Kendall tau']
    >>> scores.groupby("method", sort=False)["CS"].mean().round(3)
    method
    tree       0.888
    default    0.300
    Name: CS, dtype: float64
    """
    X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    Y = np.asarray(Y, dtype=float)
    if not (isinstance(repetitions, (int, np.integer)) and repetitions >= 1):
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    splits = _splits(cv, X, Y, groups, repetitions, seed)
    measures = scored_measures(Y)
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
            for measure, score in measures.items():
                row[measure] = score(Y[test], predicted)
            records.append(pd.DataFrame(row))
        if progress is not None and progress(done, len(splits)) is False:
            break
    return pd.concat(records, ignore_index=True)


def _measures_in(scores: pd.DataFrame) -> list[str]:
    """The measure columns of a :func:`compare_methods` table, in the order of :func:`scored_measures`."""
    return [measure for measure in (*MEASURES, *TIES_MEASURES) if measure in scores.columns]


def _splits(cv: Any, X: pd.DataFrame, Y: np.ndarray, groups: ArrayLike | None, repetitions: int,
            seed: int) -> list[tuple[int, int, np.ndarray]]:
    """(repetition, fold, test rows) of every fold, from the shorthands or a scikit-learn splitter."""
    if isinstance(cv, str) or not hasattr(cv, "split"):  # "loo" (a str has .split) or a fold count
        return [(r, f, test) for r in range(repetitions) for f, test in enumerate(fold_indices(len(Y), cv, seed + r))]
    if repetitions != 1:
        raise ValueError("repetitions applies to cv='loo' or an integer; a splitter repeats itself "
                         "(RepeatedKFold(n_repeats=...))")
    tests = [np.asarray(test) for _, test in cv.split(X, Y, groups)]
    repeats = int(getattr(cv, "n_repeats", 1))
    per_repeat = max(1, len(tests) // repeats)
    return [(k // per_repeat, k % per_repeat, test) for k, test in enumerate(tests)]


def cross_validate(*args: Any, **kwargs: Any) -> pd.DataFrame:
    """Deprecated alias of :func:`compare_methods` (since 0.2, removed in 0.3).

    Renamed because scikit-learn's :func:`~sklearn.model_selection.cross_validate`
    has another contract (one estimator, one score per fold).

    Parameters
    ----------
    *args, **kwargs
        As for :func:`compare_methods`.

    Returns
    -------
    DataFrame
        What :func:`compare_methods` returns.

    See Also
    --------
    compare_methods : The function under its new name.

    Examples
    --------
    >>> import warnings
    >>> from rankviz import DefaultRanker, load_sample
    >>> from rankviz.experiments import cross_validate
    >>> data = load_sample("toy")
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     scores = cross_validate({"default": DefaultRanker()}, data.X, data.Y, cv=4)
    >>> caught[0].category.__name__, len(scores)
    ('FutureWarning', 16)
    """
    warnings.warn("rankviz.cross_validate is deprecated since 0.2 and will be removed in 0.3: it is "
                  "compare_methods (scikit-learn's compare_methods has another contract).",
                  FutureWarning, stacklevel=2)
    return compare_methods(*args, **kwargs)


def summarize(scores: pd.DataFrame) -> pd.DataFrame:
    """Summarise cross-validated scores: mean, standard deviation and count of every measure per method.

    The standard deviation is that of the per-example scores (``ddof=1``),
    a spread of the examples, not an error bar of the mean; for that see
    :func:`mean_intervals`.

    Parameters
    ----------
    scores : DataFrame
        The output of :func:`compare_methods`.

    Returns
    -------
    DataFrame
        Index: method (in first-seen order); columns: ``(measure, statistic)``
        for every measure ``scores`` holds and the statistics ``mean``,
        ``std`` and ``count`` (scores that are not NaN).

    See Also
    --------
    mean_intervals : Means with Student-t intervals.
    compare_methods : The scores summarised.

    Examples
    --------
    >>> from rankviz import DefaultRanker, RankingTree, compare_methods, load_sample
    >>> data = load_sample("toy")
    >>> scores = compare_methods({"tree": RankingTree(), "default": DefaultRanker()}, data.X, data.Y, cv=4)
    >>> summarize(scores)["CS"].round(3)
              mean    std  count
    method
    tree     0.888  0.126     16
    default  0.300  0.462     16
    """
    order = list(dict.fromkeys(scores["method"]))
    table = scores.groupby("method", sort=False)[_measures_in(scores)].agg(["mean", "std", "count"])
    return table.loc[order]


def mean_intervals(scores: pd.DataFrame, measures: Sequence[str] | None = None, *,
                   over: str = "example", confidence: float = 0.95) -> pd.DataFrame:
    """Compute the mean of each measure per method with the half-width of its Student-t interval.

    The interval is taken over held-out examples or over repetitions of
    the whole cross-validation (:func:`rankviz.experiments.t_interval`).

    Parameters
    ----------
    scores : DataFrame
        The output of :func:`compare_methods`.
    measures : sequence of str, optional
        Columns of ``scores`` to summarise; default: every measure it
        holds (:func:`scored_measures`).
    over : {"example", "repetition"}, default="example"
        "example": the interval of the mean over the held-out rows (each
        example's scores first averaged over repetitions, so an example
        counts once). "repetition": the interval over the per-repetition
        means (how much a whole cross-validation varies); NaN with one
        repetition.
    confidence : float, default=0.95
        Level of the intervals.

    Returns
    -------
    DataFrame
        Index: method (first-seen order); columns: each measure (its mean
        over all scored rows), then ``<measure> ci`` (the half-width), then
        ``n`` (the examples or repetitions the interval is over).

    Raises
    ------
    ValueError
        If ``over`` is neither "example" nor "repetition".

    See Also
    --------
    summarize : Means with standard deviations.
    paired_scores : Intervals of differences between methods.

    Examples
    --------
    >>> from rankviz import DefaultRanker, RankingTree, compare_methods, load_sample
    >>> data = load_sample("toy")
    >>> scores = compare_methods({"tree": RankingTree(), "default": DefaultRanker()}, data.X, data.Y, cv=4)
    >>> mean_intervals(scores, ["CS", "Kendall tau"]).round(3)
                CS  Kendall tau  CS ci  Kendall tau ci   n
    tree     0.888        0.812  0.067           0.112  16
    default  0.300        0.271  0.246           0.217  16
    """
    if over not in ("example", "repetition"):
        raise ValueError(f"over must be 'example' or 'repetition', got {over!r}")
    measures = _measures_in(scores) if measures is None else list(measures)
    rows = {}
    for method, group in scores.groupby("method", sort=False):
        units = group.groupby(over, sort=True)[measures].mean()
        halves = {f"{m} ci": t_interval(units[m].to_numpy(), confidence)[1] for m in measures}
        rows[method] = {**group[measures].mean(), **halves, "n": len(units)}
    return pd.DataFrame.from_dict(rows, orient="index")


def paired_scores(scores: pd.DataFrame, reference: str, measure: str = "CS", *,
                  confidence: float = 0.95, lower_is_better: bool = False) -> pd.DataFrame:
    """Compare ``reference`` with every other method on the same held-out examples.

    Each example's score is first averaged over repetitions, so the pairs
    are the examples both methods were scored on
    (:func:`rankviz.experiments.statistics.paired_comparison`: mean
    difference with its t interval, Wilcoxon signed-rank test, wins, ties and
    losses of ``reference``).

    Parameters
    ----------
    scores : DataFrame
        The output of :func:`compare_methods` (or the baseline scores of
        :func:`gamma_curves`), holding ``reference``.
    reference : str
        The method compared with every other, e.g. the tree.
    measure : str, default="CS"
        The column of ``scores`` compared, e.g. a measure of :data:`MEASURES`.
    confidence : float, default=0.95
        Level of the t interval of the mean difference.
    lower_is_better : bool, default=False
        For a loss (e.g. the rank loss): the difference is still reference −
        other, but a win is an example where the reference scores lower.

    Returns
    -------
    DataFrame
        One row per other method (first-seen order): ``method``, ``examples``
        (pairs), ``mean <reference>``, ``mean <method>`` as ``mean other``,
        ``difference`` (reference − other), ``ci low``, ``ci high``,
        ``Wilcoxon p``, ``wins``, ``ties``, ``losses``.

    Raises
    ------
    ValueError
        If ``reference`` is not a method of ``scores``.

    See Also
    --------
    rankviz.experiments.paired_comparison : The comparison of two score vectors.

    Examples
    --------
    >>> from rankviz import DefaultRanker, RankingTree, compare_methods, load_sample
    >>> data = load_sample("toy")
    >>> scores = compare_methods({"tree": RankingTree(), "default": DefaultRanker()}, data.X, data.Y, cv=4)
    >>> table = paired_scores(scores, "tree", "CS")
    >>> table[["method", "examples", "difference", "wins", "ties", "losses"]].round(3)
        method  examples  difference  wins  ties  losses
    0  default        16       0.588    13     3       0
    """
    per_example = scores.groupby(["method", "example"], sort=False)[measure].mean()
    methods = list(dict.fromkeys(scores["method"]))
    if reference not in methods:
        raise ValueError(f"{reference!r} is not among the scored methods {methods}")
    base = per_example.loc[reference]
    rows = []
    for method in methods:
        if method == reference:
            continue
        other = per_example.loc[method]
        common = base.index.intersection(other.index)
        sign = -1.0 if lower_is_better else 1.0  # a loss: compare the negated losses, report in loss units
        result = paired_comparison(sign * base.loc[common].to_numpy(), sign * other.loc[common].to_numpy(),
                                   confidence=confidence)
        low, high = (result.ci_low, result.ci_high) if sign > 0 else (-result.ci_high, -result.ci_low)
        rows.append({"method": method, "examples": result.n_queries, "mean reference": sign * result.mean_a,
                     "mean other": sign * result.mean_b, "difference": sign * result.mean_difference,
                     "ci low": low, "ci high": high,
                     "Wilcoxon p": result.wilcoxon_pvalue, "wins": result.wins, "ties": result.ties,
                     "losses": result.losses})
    return pd.DataFrame(rows, columns=["method", "examples", "mean reference", "mean other", "difference",
                                       "ci low", "ci high", "Wilcoxon p", "wins", "ties", "losses"])


def gamma_curves(X: pd.DataFrame | ArrayLike, Y: ArrayLike, gammas: ArrayLike, *,
                 cv: str | int = "loo", repetitions: int = 1, seed: int = 0,
                 criterion: str | Criterion = "mean_spearman", min_samples_leaf: int = 2,
                 max_depth: int | None = None, tie_tolerance: float | None = None,
                 baselines: Mapping[str, Any] | None = None,
                 progress: Callable[[int, int], bool | None] | None = None) -> pd.DataFrame:
    """Held-out scores of the ranking tree at every γ of a grid, one growth per fold.

    For each fold one maximal tree (``gamma=np.inf``) is grown on the other
    examples; the prediction at every γ is read off its γ path
    (:class:`rankviz.tree.gamma_path.GammaPath`), so the cost does not grow
    with the number of γ values. Leave-one-out grows ``n`` trees, k-fold
    ``k`` (times ``repetitions``).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        The features; an array is made a DataFrame.
    Y : ndarray of shape (n_samples, n_labels)
        Rank positions, lower = preferred, NaN for a missing label.
    gammas : array-like of float
        The grid of γ (rule (6) of Rebelo, Soares & Costa 2008), in any
        order; each row of the result is one γ.
    cv : "loo" or int, default="loo"
        Leave-one-out or the number of folds (:func:`rankviz.model_selection.fold_indices`).
    repetitions : int, default=1
        Repeat the k-fold split with new shuffles (repetition ``r`` uses
        ``seed + r``, as :func:`compare_methods`); ignored with ``"loo"``.
    seed : int, default=0
        Seed of the fold shuffle.
    criterion : str or Criterion, default="mean_spearman"
        Splitting criterion of the trees, as for :class:`rankviz.RankingTree`.
    min_samples_leaf : int, default=2
        Minimum number of training examples in each leaf.
    max_depth : int or None, default=None
        Maximum depth of the trees; None for no limit.
    tie_tolerance : float or None, default=None
        Tie labels whose aggregated positions differ by at most this much,
        as for :class:`rankviz.RankingTree`.
    baselines : dict of str -> estimator, optional
        Other rankers scored on the same folds (cloned per fold); their
        per-example scores, as :func:`compare_methods` returns them, are in
        ``attrs["baselines"]``.
    progress : callable, optional
        ``progress(done, total)`` after each fold; returning False stops
        early: the result then covers the folds done and is marked partial.

    Returns
    -------
    DataFrame
        Index ``gamma``; one column per measure of :func:`scored_measures` (mean over
        the held-out examples scored, NaN scores left out), ``<measure> ci``
        (half-width of the 95 % Student-t interval of that mean, over the
        held-out examples) and ``leaves`` (mean leaf count of the fold trees).
        ``attrs``: ``n_examples`` (held-out rows scored, counted once per
        repetition), ``folds_done``, ``folds_total``, ``partial`` (stopped
        early), ``cv``, ``repetitions``, ``seconds`` (per finished fold, a
        list) and ``baselines`` (a DataFrame, empty without baselines).

    Raises
    ------
    ValueError
        If ``repetitions`` is not an integer >= 1, ``cv`` is not a valid
        split of the rows, or a tree parameter is invalid.

    See Also
    --------
    best_gamma : The γ with the best mean score.
    loo_gamma_curves : Leave-one-out only.
    rankviz.tree.GammaPath : The trees of every γ, cut from one tree.

    Examples
    --------
    >>> from rankviz import load_sample
    >>> from rankviz.experiments import gamma_curves
    >>> data = load_sample("toy")
    >>> curves = gamma_curves(data.X, data.Y, [0.9, 0.95, 0.99, 1.0], cv=4)
    >>> curves[["CS", "leaves"]].round(3)
              CS  leaves
    gamma
    0.90   0.888    3.25
    0.95   0.888    3.50
    0.99   0.888    4.25
    1.00   0.888    4.25
    >>> curves.attrs["n_examples"], curves.attrs["folds_done"]
    (16, 4)
    """
    X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    Y = np.asarray(Y, dtype=float)
    gammas = np.asarray(gammas, dtype=float)
    if not (isinstance(repetitions, (int, np.integer)) and repetitions >= 1):
        raise ValueError(f"repetitions must be an integer >= 1, got {repetitions!r}")
    if cv == "loo":
        repetitions = 1  # leave-one-out has no shuffle to repeat
    n, n_gammas = len(Y), len(gammas)
    splits = [(r, f, test) for r in range(repetitions)
              for f, test in enumerate(fold_indices(n, cv, seed + r))]
    model = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=min_samples_leaf,
                        max_depth=max_depth, tie_tolerance=tie_tolerance)
    measures = scored_measures(Y)  # τx too where the rankings tie labels, as compare_methods scores them
    # Running sums per γ: memory does not grow with n (20,000 rows × 151 γ × labels would).
    total = {m: np.zeros(n_gammas) for m in measures}
    square = {m: np.zeros(n_gammas) for m in measures}
    count = {m: np.zeros(n_gammas) for m in measures}
    leaves = np.zeros(n_gammas)
    records, seconds = [], []
    done = scored = 0
    for repetition, fold, test in splits:
        started = time.perf_counter()
        train = np.setdiff1d(np.arange(n), test, assume_unique=True)
        model.fit(X.iloc[train], Y[train])
        path = model.gamma_path()
        predicted = path.predict(model.encoder_.transform(X.iloc[test]), gammas)  # (m, G, L)
        truth = np.repeat(Y[test], n_gammas, axis=0)
        for measure, score in measures.items():
            values = np.asarray(score(truth, predicted.reshape(-1, Y.shape[1]))).reshape(len(test), n_gammas)
            present = ~np.isnan(values)
            total[measure] += np.where(present, values, 0.0).sum(axis=0)
            square[measure] += np.where(present, values * values, 0.0).sum(axis=0)
            count[measure] += present.sum(axis=0)
        leaves += path.n_leaves(gammas)
        for name, method in (baselines or {}).items():
            fitted = clone(method).fit(X.iloc[train], Y[train])
            row = {"method": name, "example": test, "fold": fold, "repetition": repetition}
            guess = fitted.predict(X.iloc[test])
            for measure, score in measures.items():
                row[measure] = score(Y[test], guess)
            records.append(pd.DataFrame(row))
        done += 1
        scored += len(test)
        seconds.append(time.perf_counter() - started)
        if progress is not None and progress(done, len(splits)) is False:
            break
    columns = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        for measure in measures:
            m = count[measure]
            mean = total[measure] / m
            variance = np.maximum(square[measure] - m * mean * mean, 0.0) / (m - 1)
            columns[measure] = mean
            columns[f"{measure} ci"] = np.where(
                m >= 2, stats.t.ppf(0.975, np.maximum(m - 1, 1)) * np.sqrt(variance / m), np.nan)
    curves = pd.DataFrame(columns, index=pd.Index(gammas, name="gamma"))
    curves = curves[list(measures) + [f"{m} ci" for m in measures]]
    curves["leaves"] = leaves / max(done, 1)
    curves.attrs.update(
        n_examples=scored, folds_done=done, folds_total=len(splits), partial=done < len(splits),
        cv=cv, repetitions=repetitions, seconds=seconds,
        baselines=(pd.concat(records, ignore_index=True) if records else
                   pd.DataFrame(columns=["method", "example", "fold", "repetition", *measures])))
    return curves


def loo_gamma_curves(X: pd.DataFrame | ArrayLike, Y: ArrayLike, gammas: ArrayLike, *,
                     criterion: str | Criterion = "mean_spearman", min_samples_leaf: int = 2,
                     max_depth: int | None = None, tie_tolerance: float | None = None,
                     progress: Callable[[int, int], bool | None] | None = None) -> pd.DataFrame:
    """Compute leave-one-out scores of the ranking tree at every γ: :func:`gamma_curves` with ``cv="loo"``.

    One maximal tree is grown per held-out example, on all the others, and
    cut at every γ of the grid; the protocol of Rebelo, Soares & Costa
    (2008).

    Parameters
    ----------
    X : DataFrame or array-like of shape (n_samples, n_features)
        The features; an array is made a DataFrame.
    Y : ndarray of shape (n_samples, n_labels)
        Rank positions, lower = preferred, NaN for a missing label.
    gammas : array-like of float
        The grid of γ; each row of the result is one γ.
    criterion : str or Criterion, default="mean_spearman"
        Splitting criterion of the trees, as for :class:`rankviz.RankingTree`.
    min_samples_leaf : int, default=2
        Minimum number of training examples in each leaf.
    max_depth : int or None, default=None
        Maximum depth of the trees; None for no limit.
    tie_tolerance : float or None, default=None
        Tie labels whose aggregated positions differ by at most this much,
        as for :class:`rankviz.RankingTree`.
    progress : callable, optional
        ``progress(done, total)`` after each held-out example; returning
        False stops early (the means then cover the examples done).

    Returns
    -------
    DataFrame
        As :func:`gamma_curves`; ``attrs["n_examples"]`` is the number of
        held-out examples scored.

    See Also
    --------
    gamma_curves : The same with k-fold cross-validation and baselines.

    Examples
    --------
    >>> from rankviz import load_sample
    >>> from rankviz.experiments import loo_gamma_curves
    >>> data = load_sample("toy")
    >>> curves = loo_gamma_curves(data.X, data.Y, [0.9, 1.0])
    >>> curves[["CS", "leaves"]].round(3)
              CS  leaves
    gamma
    0.9    0.900   3.000
    1.0    0.862   4.875
    """
    return gamma_curves(X, Y, gammas, cv="loo", criterion=criterion, min_samples_leaf=min_samples_leaf,
                        max_depth=max_depth, tie_tolerance=tie_tolerance, progress=progress)


def best_gamma(curves: pd.DataFrame, measure: str) -> tuple[float, float]:
    """Find the γ with the best mean score; among equals the smallest (the simplest tree).

    Scores within 1e-12 of the best count as equal, so rounding does not
    pick a larger tree; NaN scores are ignored.

    Parameters
    ----------
    curves : DataFrame
        The output of :func:`gamma_curves`.
    measure : str
        The column to maximise, a measure of :data:`MEASURES` (all are
        higher = better).

    Returns
    -------
    gamma : float
        The chosen γ.
    score : float
        Its mean score.

    See Also
    --------
    gamma_curves : The curves searched.

    Examples
    --------
    >>> from rankviz import load_sample
    >>> from rankviz.experiments import best_gamma, gamma_curves
    >>> data = load_sample("toy")
    >>> curves = gamma_curves(data.X, data.Y, [0.9, 0.95, 0.99, 1.0], cv=4)
    >>> gamma, score = best_gamma(curves, "CS")
    >>> gamma, round(score, 4)
    (0.9, 0.8875)
    """
    values = curves[measure].to_numpy()
    best = np.nanmax(values)
    first = int(np.flatnonzero(values >= best - 1e-12)[0])
    return float(curves.index[first]), float(values[first])
