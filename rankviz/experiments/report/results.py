"""The tidy results table of a benchmark grid, read for a report.

A grid writes one row per cell and measure: ``dataset``, ``method``,
``repetition``, ``fold``, ``measure`` and ``value`` (plus timings, the
chosen ``params`` and provenance, which the report does not need to
aggregate). This module checks such a table and aggregates it the one way
every part of the report uses:

1. the mean over the folds of each repetition (one cross-validation
   estimate per repetition);
2. the mean of those estimates over the repetitions, and their standard
   deviation (``ddof=1``) -- or, with a single repetition, the mean and
   standard deviation over its folds.

``NaN`` values (a failed fold) are left out of the means.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006.
.. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
   instance-based learning for label ranking", ICML 2009 (Table 2: mean and
   standard deviation per method and data set).
"""

from __future__ import annotations

import pandas as pd

__all__ = ["REQUIRED_COLUMNS", "check_results", "measure_rows", "aggregate", "dataset_means", "spread_source"]

#: Columns a results table must have for a report.
REQUIRED_COLUMNS = ("dataset", "method", "repetition", "fold", "measure", "value")


def check_results(results: pd.DataFrame) -> pd.DataFrame:
    """``results`` if it is a table with the columns a report needs, else a ``ValueError``.

    Parameters
    ----------
    results : DataFrame
        The tidy table of a grid (see the module docstring).

    Returns
    -------
    DataFrame
        The same table.
    """
    if not isinstance(results, pd.DataFrame):
        raise TypeError(f"results must be a pandas DataFrame, got {type(results).__name__}.")
    missing = [column for column in REQUIRED_COLUMNS if column not in results.columns]
    if missing:
        raise ValueError(f"results lacks the column(s) {missing}; a report needs {list(REQUIRED_COLUMNS)}.")
    if results.empty:
        raise ValueError("results is empty: a report needs at least 2 data sets and 2 methods.")
    return results


def measure_rows(results: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The rows of one measure, with ``dataset`` and ``method`` as strings."""
    check_results(results)
    rows = results.loc[results["measure"] == measure, list(REQUIRED_COLUMNS)]
    if rows.empty:
        known = sorted(map(str, results["measure"].unique()))
        raise ValueError(f"no results for the measure {measure!r}; the table has {known}.")
    rows = rows.astype({"dataset": str, "method": str})
    return rows.assign(value=pd.to_numeric(rows["value"], errors="coerce"))


def spread_source(results: pd.DataFrame, measure: str) -> str:
    """``"repetitions"`` when some cell was repeated, else ``"folds"``: what the sd is over."""
    rows = measure_rows(results, measure)
    repeated = rows.groupby(["dataset", "method"])["repetition"].nunique().max() > 1
    return "repetitions" if repeated else "folds"


def aggregate(results: pd.DataFrame, measure: str) -> pd.DataFrame:
    """Mean, standard deviation and count per data set and method.

    Parameters
    ----------
    results : DataFrame
        The tidy results table.
    measure : str
        The measure to aggregate, e.g. ``"Kendall tau"``.

    Returns
    -------
    DataFrame
        Indexed by (``dataset``, ``method``) with columns ``mean``, ``sd``
        and ``n`` (the number of values the sd is over). With several
        repetitions the mean and sd are over the per-repetition means of the
        folds; with one repetition they are over its folds (see
        :func:`spread_source`).
    """
    rows = measure_rows(results, measure)
    keys = ["dataset", "method"]
    if spread_source(results, measure) == "repetitions":
        rows = rows.groupby(keys + ["repetition"], sort=True)["value"].mean().reset_index()
    grouped = rows.groupby(keys, sort=True)["value"]
    return pd.DataFrame({"mean": grouped.mean(), "sd": grouped.std(ddof=1), "n": grouped.count()})


def dataset_means(results: pd.DataFrame, measure: str) -> pd.DataFrame:
    """The data sets × methods matrix of mean scores (see :func:`aggregate`).

    Cells a method was not run on (or failed on every fold) are ``NaN``.
    """
    means = aggregate(results, measure)["mean"].unstack("method")
    means.index.name, means.columns.name = "dataset", "method"
    return means
