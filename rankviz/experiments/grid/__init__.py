"""Benchmark grids: methods × data sets × repetitions × folds, one independent, resumable task per cell.

:mod:`~rankviz.experiments.grid.protocol` (:class:`Protocol`: k-fold,
repeated k-fold, leave-one-out, hold-out; missing-label rate; seed),
:mod:`~rankviz.experiments.grid.cells` (a cell's id, seed and scoring),
:mod:`~rankviz.experiments.grid.measures` (:data:`MEASURES`,
:data:`HIGHER_IS_BETTER`, :func:`rank_loss`, :func:`default_measures`),
:mod:`~rankviz.experiments.grid.store` (the results file: CSV or Parquet,
read back after a crash), :mod:`~rankviz.experiments.grid.execution`
(serial, local processes or a Dask cluster, through joblib),
:mod:`~rankviz.experiments.grid.catalog` (methods and data sets by name,
for the command line) and :mod:`~rankviz.experiments.grid.runner`
(:func:`run_grid`).
"""

from .catalog import METHOD_ALIASES, resolve_datasets, resolve_methods, standard_methods
from .cells import COLUMNS, Cell, cell_seed, run_cell
from .execution import BACKENDS, run_tasks
from .measures import HIGHER_IS_BETTER, MEASURES, default_measures, rank_loss
from .protocol import KINDS, Protocol
from .runner import grid_cells, run_grid
from .store import ResultStore, finished_cells, read_results, tidy

__all__ = ["BACKENDS", "COLUMNS", "Cell", "HIGHER_IS_BETTER", "KINDS", "MEASURES", "default_measures", "METHOD_ALIASES", "Protocol",
           "ResultStore", "cell_seed", "finished_cells", "grid_cells", "rank_loss", "read_results",
           "resolve_datasets", "resolve_methods", "run_cell", "run_grid", "run_tasks", "standard_methods", "tidy"]
