"""One cell of a grid (method × data set × repetition × fold): its id, its seed, and scoring it.

A cell carries everything it needs, so it gives the same rows wherever and
in whatever order it runs: its seed comes from the protocol seed and the
cell's coordinates through :class:`numpy.random.SeedSequence`, never from a
global random state or a counter of cells run before it.

References
----------
.. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
       instance-based learning for label ranking", ICML 2009, pp. 161-168
       (labels deleted from the training rankings only).
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.model_selection import GridSearchCV, KFold

from ...label_ranking.incomplete import delete_labels
from .measures import MEASURES

__all__ = ["COLUMNS", "Cell", "CellTask", "cell_seed", "run_cell"]

#: The columns of a grid's tidy table, in order: one row per cell and measure.
COLUMNS = ("dataset", "method", "repetition", "fold", "measure", "value", "n_train", "n_test",
           "fit_seconds", "predict_seconds", "params", "missing_rate", "seed", "cell", "rankviz_version")


def _text_key(text: str) -> int:
    # Python's hash() of a str changes between processes; CRC32 does not.
    return zlib.crc32(text.encode("utf-8"))


def cell_seed(seed: int, dataset: str, repetition: int, fold: int, method: str) -> int:
    """The seed of one cell, a 32-bit integer fixed by the cell's coordinates.

    Parameters
    ----------
    seed : int
        The protocol's seed.
    dataset, method : str
    repetition, fold : int

    Returns
    -------
    int
        In ``[0, 2**31)``, usable as any estimator's ``random_state``.
    """
    sequence = np.random.SeedSequence([seed, _text_key(dataset), repetition, fold, _text_key(method)])
    return int(sequence.generate_state(1)[0] >> 1)


@dataclass(frozen=True)
class Cell:
    """The coordinates of one cell.

    Parameters
    ----------
    dataset, method : str
    repetition, fold : int
        0-based.
    protocol_tag : str
        :attr:`Protocol.tag`, so that one results file never mixes protocols.
    seed : int
        The protocol's seed (the cell's own seed is :attr:`seed_of_cell`).
    missing_rate : float
    """

    dataset: str
    method: str
    repetition: int
    fold: int
    protocol_tag: str
    seed: int = 0
    missing_rate: float = 0.0

    @property
    def id(self) -> str:
        """A stable text id: the same cell has the same id in every run."""
        return f"{self.dataset} | {self.method} | rep {self.repetition} | fold {self.fold} | {self.protocol_tag}"

    @property
    def seed_of_cell(self) -> int:
        """The cell's seed (:func:`cell_seed`)."""
        return cell_seed(self.seed, self.dataset, self.repetition, self.fold, self.method)


@dataclass(frozen=True, eq=False)
class CellTask:
    """A cell with its data and method: what a worker needs to run it.

    Parameters
    ----------
    cell : Cell
    X : DataFrame
        All rows of the data set (the folds index into it).
    Y : ndarray of shape (n_samples, n_labels)
    train, test : ndarray of int
    estimator : estimator
        Unfitted; cloned before fitting.
    param_grid : dict or None
        When given, the settings are chosen by an inner ``GridSearchCV``
        on the training rows.
    inner_folds : int
    measures : tuple of str
        Names in :data:`rankviz.experiments.grid.measures.MEASURES`.
    """

    cell: Cell
    X: pd.DataFrame
    Y: np.ndarray
    train: np.ndarray
    test: np.ndarray
    estimator: Any
    param_grid: Mapping[str, Sequence] | None = None
    inner_folds: int = 5
    measures: tuple[str, ...] = tuple(MEASURES)


def _with_seed(estimator: Any, seed: int) -> Any:
    """A clone of ``estimator`` with ``random_state=seed`` when it has that parameter."""
    model = clone(estimator)
    if "random_state" in model.get_params(deep=False):
        model.set_params(random_state=seed)
    return model


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    return repr(value)


def run_cell(task: CellTask) -> list[dict]:
    """Fit on the training rows, predict the test rows, score: one row per measure.

    Labels are deleted from the training rankings at the protocol's rate,
    seeded by (protocol seed, repetition, fold) only, so that every method
    of a fold learns from the same deletions (the protocol of
    :func:`rankviz.experiments.cross_validation.compare_methods`); the test
    rankings are scored as they are.

    Parameters
    ----------
    task : CellTask

    Returns
    -------
    list of dict
        Rows with the keys :data:`COLUMNS`. ``params`` is the JSON of the
        settings chosen in the cell: an inner search's ``best_params_``, or
        the fitted model's own ``best_params_`` when it tunes itself; "{}"
        otherwise.

    References
    ----------
    .. [1] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
           instance-based learning for label ranking", ICML 2009.
    """
    cell = task.cell
    seed = cell.seed_of_cell
    Y_train = task.Y[task.train]
    if cell.missing_rate > 0:
        Y_train = delete_labels(Y_train, cell.missing_rate, seed=[cell.seed, cell.repetition, cell.fold])
    model = _with_seed(task.estimator, seed)
    if task.param_grid is not None:
        inner = KFold(n_splits=task.inner_folds, shuffle=True, random_state=seed)
        model = GridSearchCV(model, dict(task.param_grid), cv=inner, refit=True, n_jobs=1)
    X_train, X_test = task.X.iloc[task.train], task.X.iloc[task.test]
    start = time.perf_counter()
    model.fit(X_train, Y_train)
    fit_seconds = time.perf_counter() - start
    start = time.perf_counter()
    predicted = np.asarray(model.predict(X_test), dtype=float)
    predict_seconds = time.perf_counter() - start
    params = json.dumps(dict(getattr(model, "best_params_", {})), sort_keys=True, default=_json_default)
    truth = task.Y[task.test]
    import rankviz  # here, not at the top: rankviz/__init__ is still loading when this module is
    rows = []
    for name in task.measures:
        values = np.asarray(MEASURES[name](truth, predicted), dtype=float)
        value = float(np.nanmean(values)) if np.isfinite(values).any() else float("nan")
        rows.append({"dataset": cell.dataset, "method": cell.method, "repetition": cell.repetition,
                     "fold": cell.fold, "measure": name, "value": value, "n_train": len(task.train),
                     "n_test": len(task.test), "fit_seconds": fit_seconds, "predict_seconds": predict_seconds,
                     "params": params, "missing_rate": cell.missing_rate, "seed": seed, "cell": cell.id,
                     "rankviz_version": rankviz.__version__})
    return rows
