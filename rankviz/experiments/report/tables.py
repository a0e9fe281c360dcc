"""The tables of a benchmark report: mean ± sd, wins/ties/losses, settings chosen.

* :func:`summary_table` -- data sets × methods, "mean ± sd" as in Table 2 of
  Cheng, Hühn & Hüllermeier (2009), with the best method of each data set
  marked; the numbers stay available (:func:`summary_numbers`).
* :func:`wins_ties_losses` -- for each pair of methods, on how many data
  sets the row method beats, ties with and loses to the column method.
* :func:`chosen_params` -- the settings each method used on each data set
  (the most frequent ``params`` over its folds and repetitions).

Means and standard deviations follow
:func:`rankviz.experiments.report.results.aggregate`: the folds of a
repetition are averaged first; the sd is over repetitions when there are
several, else over folds.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
   instance-based learning for label ranking", ICML 2009.
.. [2] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006 (section
   3.1.3: counts of wins, losses and ties).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from rankviz.experiments.report.results import aggregate, check_results, dataset_means, spread_source
from rankviz.experiments.report.significance import higher_is_better

__all__ = ["DEFAULT_TIE", "summary_numbers", "best_mask", "summary_table", "wins_ties_losses", "chosen_params"]

#: Default tolerance under which two mean scores count as a tie.
DEFAULT_TIE = 1e-9


def summary_numbers(results: pd.DataFrame, measure: str) -> dict[str, pd.DataFrame]:
    """The ``"mean"``, ``"sd"`` and ``"n"`` tables (data sets × methods) of ``measure``."""
    stats = aggregate(results, measure)
    numbers = {}
    for column in ("mean", "sd", "n"):
        table = stats[column].unstack("method")
        table.index.name, table.columns.name = "dataset", "method"
        numbers[column] = table
    return numbers


def best_mask(means: pd.DataFrame, *, higher_is_better: bool = True, tie: float = DEFAULT_TIE) -> pd.DataFrame:
    """``True`` where a method's mean is the best of its data set (within ``tie``)."""
    best = means.max(axis=1) if higher_is_better else means.min(axis=1)
    return means.sub(best, axis=0).abs().le(tie) & means.notna()


def summary_table(results: pd.DataFrame, measure: str, *, decimals: int = 3,
                  tie: float = DEFAULT_TIE) -> pd.DataFrame:
    """Data sets × methods table of ``"mean ± sd"`` strings for one measure.

    Parameters
    ----------
    results : DataFrame
        The tidy results table of a grid.
    measure : str
        E.g. ``"Kendall tau"``.
    decimals : int, default=3
        Decimals shown.
    tie : float, default=1e-9
        Means within this distance of the best count as best too.

    Returns
    -------
    DataFrame
        Strings ``"0.812 ± 0.010"`` (``"0.812"`` when there is no spread to
        estimate, ``"–"`` where the method has no score). The table's
        ``attrs`` hold the numbers: ``"mean"``, ``"sd"``, ``"n"``, ``"best"``
        (a boolean mask of the best cells) and ``"spread"`` (``"repetitions"``
        or ``"folds"``: what the sd is over).

    Examples
    --------
    >>> import pandas as pd
    >>> rows = [dict(dataset="d", method=m, repetition=0, fold=f, measure="CS", value=v)
    ...         for m, values in {"a": [0.5, 0.7], "b": [0.4, 0.4]}.items() for f, v in enumerate(values)]
    >>> summary_table(pd.DataFrame(rows), "CS", decimals=2).loc["d"].tolist()
    ['0.60 ± 0.14', '0.40 ± 0.00']
    """
    numbers = summary_numbers(results, measure)
    mean, sd = numbers["mean"], numbers["sd"]
    text = pd.DataFrame("–", index=mean.index, columns=mean.columns, dtype=object)
    for dataset in mean.index:
        for method in mean.columns:
            m, s = mean.at[dataset, method], sd.at[dataset, method]
            if not np.isnan(m):
                text.at[dataset, method] = f"{m:.{decimals}f}" + ("" if np.isnan(s) else f" ± {s:.{decimals}f}")
    text.attrs.update(
        numbers, best=best_mask(mean, higher_is_better=higher_is_better(measure), tie=tie),
        spread=spread_source(results, measure), measure=measure,
    )
    return text


def wins_ties_losses(results: pd.DataFrame, measure: str, *, tie: float = DEFAULT_TIE) -> pd.DataFrame:
    """Pairwise wins/ties/losses of the methods over the data sets.

    Parameters
    ----------
    results : DataFrame
        The tidy results table of a grid.
    measure : str
        The measure compared (its direction from
        :func:`~rankviz.experiments.report.significance.higher_is_better`).
    tie : float, default=1e-9
        Two mean scores (over folds and repetitions) of a data set within
        this absolute distance are a tie.

    Returns
    -------
    DataFrame of shape (n_methods, n_methods)
        Cell (a, b) is ``"w/t/l"``: the data sets on which method ``a`` is
        better than, tied with, worse than ``b``, over the data sets both
        were scored on. The counts are in ``attrs["wins"]``,
        ``attrs["ties"]`` and ``attrs["losses"]`` (integer matrices).

    Notes
    -----
    A tie is decided on the means with a tolerance, not by a paired test
    over the folds: the folds of a cross-validation share most of their
    training data, so fold scores are not independent and tests over them
    are too liberal (Dietterich 1998; Nadeau & Bengio 2003). These counts
    are a description (Demšar's sign-test counts); whether the differences
    are significant is the Friedman, Nemenyi and Wilcoxon tests' question
    (:mod:`rankviz.experiments.report.significance`).
    """
    if not tie >= 0:
        raise ValueError(f"tie must be a tolerance >= 0, got {tie}.")
    means = dataset_means(results, measure)
    sign = 1.0 if higher_is_better(measure) else -1.0
    methods = list(means.columns)
    counts = {key: pd.DataFrame(0, index=methods, columns=methods) for key in ("wins", "ties", "losses")}
    for a in methods:
        for b in methods:
            if a == b:
                continue
            both = means[[a, b]].dropna()
            difference = sign * (both[a] - both[b])
            counts["wins"].at[a, b] = int((difference > tie).sum())
            counts["losses"].at[a, b] = int((difference < -tie).sum())
            counts["ties"].at[a, b] = int(len(both)) - counts["wins"].at[a, b] - counts["losses"].at[a, b]
    text = pd.DataFrame(
        [[f"{counts['wins'].at[a, b]}/{counts['ties'].at[a, b]}/{counts['losses'].at[a, b]}" if a != b else "–"
          for b in methods] for a in methods],
        index=pd.Index(methods, name="method"), columns=pd.Index(methods, name="against"),
    )
    text.attrs.update(counts, tie=tie)
    return text


def chosen_params(results: pd.DataFrame, measure: str | None = None) -> pd.DataFrame:
    """The settings each method used on each data set: its most frequent ``params``.

    Parameters
    ----------
    results : DataFrame
        The tidy results table; needs a ``params`` column (JSON strings).
    measure : str, optional
        Only its rows; by default all rows (each cell appears once per
        measure, so the counts scale alike).

    Returns
    -------
    DataFrame
        Data sets × methods of ``params`` strings; where several settings
        were equally frequent, the first in sorted order.
    """
    check_results(results)
    if "params" not in results.columns:
        raise ValueError("results lacks the column 'params' (the settings of each cell, as JSON).")
    rows = results if measure is None else results.loc[results["measure"] == measure]
    rows = rows.astype({"dataset": str, "method": str}).assign(params=rows["params"].fillna("").astype(str))
    frequent = rows.groupby(["dataset", "method"])["params"].agg(
        lambda values: sorted(values.value_counts().loc[lambda c: c == c.max()].index)[0])
    table = frequent.unstack("method").fillna("–")
    table.index.name, table.columns.name = "dataset", "method"
    return table
