"""Running a benchmark grid: every method on every data set under one protocol, resumable.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
       sets", Journal of Machine Learning Research 7, pp. 1-30, 2006 (the
       per-fold, per-data-set results a comparison of methods starts from).
.. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", ICML 2009, pp. 161-168.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...datasets.label_ranking import RankingDataset
from .cells import Cell, CellTask, run_cell
from .execution import WORKER_TIMEOUT, run_tasks
from .measures import MEASURES, default_measures
from .protocol import Protocol
from .store import ResultStore, finished_cells, read_results, tidy

__all__ = ["grid_cells", "run_grid"]

#: ``progress(done, total, elapsed_seconds, remaining_seconds)``; remaining is NaN until a cell has run.
Progress = Callable[[int, int, float, float], Any]


def _data(dataset: Any) -> tuple[pd.DataFrame, np.ndarray]:
    if isinstance(dataset, RankingDataset):
        return dataset.X, np.asarray(dataset.Y, dtype=float)
    X, Y = dataset
    X = X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))
    return X, np.asarray(Y, dtype=float)


def _method(method: Any) -> tuple[Any, Mapping | None]:
    """``(estimator, param_grid)`` from an estimator or an ``(estimator, grid)`` pair."""
    if isinstance(method, tuple):
        estimator, grid = method
        return estimator, grid
    return method, None


def grid_cells(methods: Mapping[str, Any], datasets: Mapping[str, Any], protocol: Protocol, *,
               measures: Sequence[str] = tuple(MEASURES), inner_folds: int = 5) -> Iterator[CellTask]:
    """The tasks of a grid: data set, then repetition and fold, then method.

    Parameters
    ----------
    methods, datasets, protocol, measures, inner_folds :
        As for :func:`run_grid`.

    Yields
    ------
    CellTask
    """
    for dataset_name, dataset in datasets.items():
        X, Y = _data(dataset)
        for repetition, fold, train, test in protocol.splits(len(Y)):
            for method_name, method in methods.items():
                estimator, grid = _method(method)
                cell = Cell(dataset_name, method_name, repetition, fold, protocol.tag, protocol.seed,
                            protocol.missing_rate)
                yield CellTask(cell, X, Y, train, test, estimator, grid, inner_folds, tuple(measures))


def run_grid(methods: Mapping[str, Any], datasets: Mapping[str, Any], protocol: Protocol | None = None, *,
             measures: Sequence[str] | None = None, results: str | os.PathLike | None = None,
             backend: str = "processes", n_jobs: int = -1, scheduler: Any = None,
             progress: Progress | None = None, inner_folds: int = 5,
             worker_timeout: float = WORKER_TIMEOUT) -> pd.DataFrame:
    """Score every method on every data set, one independent task per cell.

    A cell is one method on one fold of one data set: it is fitted on the
    fold's training rows and scored on its test rows with every measure
    asked for. Cells run serially, in local processes or on a Dask
    cluster, and are written to ``results`` as they finish, so a run that
    stops can be resumed.

    Parameters
    ----------
    methods : dict of str -> estimator or (estimator, param_grid)
        Unfitted label rankers (``fit(X, Y)``, ``predict(X)``). A pair
        means: choose the settings of ``param_grid`` by an inner
        ``GridSearchCV`` (``inner_folds`` shuffled folds of the training
        rows, the estimator's ``score``: mean Kendall tau), refit on all
        training rows; ``params`` records ``best_params_``.
    datasets : dict of str -> RankingDataset or (X, Y)
        The data sets by name: datasets, or pairs of features and rank
        positions (lower = preferred, NaN = missing label).
    protocol : Protocol, optional
        The outer splits, missing-label rate and seed; 10-fold by default.
    measures : sequence of str, optional
        Names of :data:`rankviz.experiments.grid.measures.MEASURES`; each
        cell gets one row per measure, the mean over its test rows. By
        default all of them, τx only when a data set has ties
        (:func:`rankviz.experiments.grid.measures.default_measures`).
    results : str or os.PathLike, optional
        A ``.csv`` file or ``.parquet`` directory. Each cell is written to
        it when it finishes; cells already there are skipped, so running
        again after a crash or Ctrl-C finishes the rest.
    backend : {"serial", "processes", "dask"}, default="processes"
        Where the cells run: in this process, in local processes, or on a
        Dask cluster.
    n_jobs : int, default=-1
        Local processes for "processes".
    scheduler : str or distributed.Client, optional
        The Dask cluster for "dask" (see
        :func:`rankviz.experiments.grid.execution.run_tasks`).
    progress : callable, optional
        ``progress(done, total, elapsed, remaining)`` once at the start and
        after every cell; ``done`` counts cells found in ``results`` too,
        ``remaining`` (seconds) extrapolates this run's rate.
    inner_folds : int, default=5
        Folds of the inner ``GridSearchCV`` of a method given with a
        parameter grid.
    worker_timeout : float, default=60
        With "dask": stop with a ``RuntimeError`` once the cluster has had no
        worker for this many seconds while cells wait (the finished cells
        stay in ``results``), rather than wait for ever.

    Returns
    -------
    DataFrame
        The tidy table of the grid's cells, one row per cell and measure
        (columns :data:`rankviz.experiments.grid.cells.COLUMNS`), sorted by
        dataset, method, repetition, fold and measure. Every measure but
        the rank loss is better when higher
        (:data:`rankviz.experiments.grid.measures.HIGHER_IS_BETTER`).

    Raises
    ------
    ValueError
        For an unknown measure, or two cells with the same id (data set and
        method names must be unique).

    See Also
    --------
    Protocol : The outer splits.
    read_results : Read a results file back.
    rankviz.experiments.compare_methods : Per-example scores of a few methods on one data set.

    References
    ----------
    .. [1] J. Demšar, "Statistical comparisons of classifiers over multiple
           data sets", JMLR 7, pp. 1-30, 2006.

    Examples
    --------
    >>> from rankviz import DefaultRanker, RankingTree, load_sample
    >>> from rankviz.experiments import Protocol, run_grid
    >>> table = run_grid({"tree": RankingTree(), "default": DefaultRanker()}, {"toy": load_sample("toy")},
    ...                  Protocol(n_splits=4), measures=["CS"], backend="serial")
    >>> table.shape
    (8, 15)
    >>> table.groupby("method")["value"].mean().round(4)
    method
    default    0.3000
    tree       0.8875
    Name: value, dtype: float64
    """
    protocol = protocol if protocol is not None else Protocol()
    if measures is None:
        measures = default_measures(_data(dataset)[1] for dataset in datasets.values())
    unknown = [m for m in measures if m not in MEASURES]
    if unknown:
        raise ValueError(f"unknown measure {unknown[0]!r}; known: {', '.join(MEASURES)}")
    tasks = list(grid_cells(methods, datasets, protocol, measures=measures, inner_folds=inner_folds))
    ids = {task.cell.id for task in tasks}
    if len(ids) != len(tasks):
        raise ValueError("two cells share an id: data set and method names must be unique")
    store = ResultStore(results) if results is not None else None
    done_before = finished_cells(results, measures) & ids if results is not None else set()
    pending = [task for task in tasks if task.cell.id not in done_before]
    total, done, rows = len(tasks), len(done_before), []
    start = time.perf_counter()
    if progress is not None:
        progress(done, total, 0.0, float("nan"))
    finished = run_tasks(run_cell, pending, backend=backend, n_jobs=n_jobs, scheduler=scheduler,
                         worker_timeout=worker_timeout)
    try:
        for cell_rows in finished:
            if store is not None:
                store.append(cell_rows)
            else:
                rows.extend(cell_rows)
            done += 1
            if progress is not None:
                elapsed = time.perf_counter() - start
                ran = done - len(done_before)
                progress(done, total, elapsed, elapsed / ran * (total - done))
    finally:
        finished.close()  # on Ctrl-C too: stops the workers; the cells written stay
    if results is None:
        return tidy(rows)
    table = read_results(results, measures)
    return table[table["cell"].isin(ids)].reset_index(drop=True)
