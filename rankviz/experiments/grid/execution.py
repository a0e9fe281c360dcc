"""Running a grid's cells: serially, in local processes (joblib's loky) or on a Dask cluster.

One option chooses where cells run; results come back as each cell finishes
(joblib's ``return_as="generator_unordered"``, Dask's futures as they
complete), so the caller can write them down at once. Cells are independent
and carry their own seeds, so where and in what order they run does not
change the results. Neither kind of worker is left waiting or running for
nothing: a local worker ends itself when its driver is gone, and a Dask run
stops with a message once the cluster has had no worker for
``worker_timeout`` seconds.

On Dask each task is a *batch* of cells, interleaved (so that slow cells,
which come together in the grid's order, spread over the batches), at most
:data:`CELLS_PER_BATCH` cells each and fewer towards the end (guided
self-scheduling, :func:`deal_batches`): a task costs the scheduler
and the network a few tens of milliseconds, and a batch pickles the data its
cells share once (pickle keeps one copy of an object met twice), where one
task per cell sent the data set with every cell.

A cluster that a run starts itself (``scheduler=None``) gets
:data:`LOCAL_CLUSTER_CONFIG`: Dask's default worker environment made the
same cells 17 % slower than in joblib's processes (see there). Workers
started otherwise should be started the same way (the user guide's
"Benchmark grids and Dask").

References
----------
.. [1] joblib, "Parallel": https://joblib.readthedocs.io/en/stable/parallel.html
.. [2] Dask, "Futures": https://distributed.dask.org/en/stable/client.html
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
import time
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import Any

import joblib

__all__ = ["BACKENDS", "CELLS_PER_BATCH", "LOCAL_CLUSTER_CONFIG", "deal_batches", "run_tasks", "warm_workers"]

#: Where cells can run.
BACKENDS = ("serial", "processes", "dask")


#: With "dask": how long (seconds) the cells may wait with no worker alive before the run stops.
WORKER_TIMEOUT = 60.0
#: With "dask": the cells of one task, at most (see the module notes).
CELLS_PER_BATCH = 16

#: Dask settings for the local clusters rankviz starts (``dask.config.set(LOCAL_CLUSTER_CONFIG)`` around a
#: ``LocalCluster`` does the same for one's own). Dask's nannies give their workers ``MALLOC_TRIM_THRESHOLD_=65536``,
#: and setting it turns off glibc's adaptive mmap threshold: every NumPy temporary above 128 KB is then mapped and
#: unmapped again, page faults and all. The same 80 cells of the Table-2 grid took 8.1-8.8 s in a worker against
#: 6.9-7.1 s in a joblib process, 7.1-7.2 s once it is unset (``None`` unsets it). The workers' sampling profiler,
#: which feeds a dashboard, takes the GIL every 10 ms: another 4 %.
LOCAL_CLUSTER_CONFIG: dict[str, Any] = {
    "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
    "distributed.worker.profile.enabled": False,
}


def run_tasks(function: Callable[[Any], Any], tasks: Iterable[Any], *, backend: str = "processes",
              n_jobs: int = -1, scheduler: Any = None,
              worker_timeout: float = WORKER_TIMEOUT) -> Generator[Any, None, None]:
    """``function(task)`` for every task, yielded in the order they finish.

    Parameters
    ----------
    function : callable
        Module-level (picklable) function of one task.
    tasks : iterable
    backend : {"serial", "processes", "dask"}, default="processes"
        In this process one after the other; in local worker processes
        (joblib's loky); or on a Dask cluster.
    n_jobs : int, default=-1
        Local processes (-1 = one per core); ignored by "serial"; with
        "dask" the cluster's workers decide.
    scheduler : str or distributed.Client, optional
        With "dask": the scheduler's address (``"tcp://host:8786"``) or a
        connected client; None starts a local cluster for the run.
    worker_timeout : float, default=60
        With "dask": when no task finishes and the cluster has had no worker
        for this many seconds, the run stops with a ``RuntimeError`` saying
        so (the results yielded so far stand) instead of waiting for ever.

    Yields
    ------
    object
        Each task's result, as soon as it is done.
    """
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "serial":
        for task in tasks:
            yield function(task)
        return
    if backend == "processes":
        parallel = joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered", backend="loky")
        guarded = _EndWithDriver(function, os.getpid())
        yield from parallel(joblib.delayed(guarded)(task) for task in tasks)
        return
    with _dask_client(scheduler) as client:
        warm_workers(client)
        batches = deal_batches(list(tasks), len(client.scheduler_info().get("workers", {})))
        for results in _dask_results(client, functools.partial(_run_batch, function), batches, worker_timeout):
            yield from results


def deal_batches(tasks: list[Any], n_workers: int) -> list[list[Any]]:
    """The tasks in batches, one Dask task each, smaller towards the end (see the module notes).

    The tasks are first interleaved (every ``s``-th, from each start in turn,
    ``s`` the number of full batches) so that slow cells, which come together
    in the grid's order, spread over the batches. Then each batch takes
    ``ceil(r / (2 * n_workers))`` of the ``r`` tasks left, at most
    :data:`CELLS_PER_BATCH` (guided self-scheduling): Dask hands the batches
    out in this order as workers free up, and the last ones, of one cell,
    leave no worker waiting for another to finish a large batch.

    Parameters
    ----------
    tasks : list
    n_workers : int
        Workers of the cluster (at least 1 is assumed).

    Returns
    -------
    list of list

    References
    ----------
    .. [1] C. D. Polychronopoulos and D. J. Kuck, "Guided self-scheduling: a
           practical scheduling scheme for parallel supercomputers", IEEE
           Transactions on Computers C-36(12), pp. 1425-1439, 1987.
    """
    stride = max(1, len(tasks) // CELLS_PER_BATCH)
    interleaved = [task for first in range(stride) for task in tasks[first::stride]]
    share = 2 * max(n_workers, 1)
    batches, start = [], 0
    while start < len(interleaved):
        size = min(CELLS_PER_BATCH, -(-(len(interleaved) - start) // share))
        batches.append(interleaved[start:start + size])
        start += size
    return batches


def warm_workers(client: Any) -> None:
    """Have every worker of a Dask cluster import rankviz's estimators and load its compiled code.

    A fresh worker pays both with its first cells (seconds); local processes
    reused by joblib have paid them already. :func:`run_tasks` calls this
    at the start of a Dask run (a worker already warm returns at once);
    call it when the cluster starts to keep the cost out of the run. Code
    not yet in the cache is left to build on first use.

    Parameters
    ----------
    client : distributed.Client
    """
    client.run(_warm_worker)


def _warm_worker() -> None:
    from ... import jit  # rankviz itself, imported with it, defines every set of compiled code

    for kernels in jit.kernel_sets():
        kernels.load_cached()


def _run_batch(function: Callable[[Any], Any], batch: list[Any]) -> list[Any]:
    """``function`` of every task of a batch (one Dask task)."""
    return [function(task) for task in batch]


#: How often the Dask loop looks at the cluster while nothing finishes (seconds).
_DASK_POLL = 0.5


def _dask_results(client: Any, function: Callable[[Any], Any], tasks: list[Any],
                  worker_timeout: float) -> Generator[Any, None, None]:
    """Each task's result as it finishes on the cluster; a RuntimeError once no worker is left for long."""
    from distributed import wait

    pending = set(client.map(function, tasks, pure=False))
    alone_since = None  # when the cluster was first seen without a worker, while tasks waited
    try:
        while pending:
            try:
                done, pending = wait(pending, timeout=_DASK_POLL, return_when="FIRST_COMPLETED")
            except TimeoutError:
                done = set()
            finished = False
            for future in done:
                try:
                    value = future.result(timeout=_DASK_POLL)
                except TimeoutError:  # its result left with a worker: the cell is computed again
                    pending.add(future)
                    continue
                finished = True
                yield value
            if finished or client.scheduler_info().get("workers"):
                alone_since = None
            elif alone_since is None:
                alone_since = time.monotonic()
            elif time.monotonic() - alone_since > worker_timeout:
                raise RuntimeError(
                    f"the Dask cluster has had no worker for {worker_timeout:g} s while {len(pending)} "
                    f"cell(s) waited; the finished cells are kept (run again to resume once workers are back)")
    finally:
        client.cancel(list(pending))


@contextlib.contextmanager
def _dask_client(scheduler: Any) -> Iterator[Any]:
    """A client of the given scheduler; a client passed in is used as it is and left open."""
    import dask  # an optional dependency: imported only when asked for
    from distributed import Client

    if isinstance(scheduler, Client):
        with scheduler.as_current():
            yield scheduler
        return
    if scheduler is not None:
        with Client(scheduler) as client:
            yield client
        return
    # A nanny started earlier in this process leaves Dask's value in os.environ, which new workers would inherit.
    trim = os.environ.pop("MALLOC_TRIM_THRESHOLD_", None)
    try:
        with dask.config.set(LOCAL_CLUSTER_CONFIG):
            client = Client(processes=True)
    finally:
        if trim is not None:
            os.environ["MALLOC_TRIM_THRESHOLD_"] = trim
    with client:
        yield client


#: How often a worker process looks whether the process that started it is still there (seconds).
DRIVER_CHECK_SECONDS = 1.0


class _EndWithDriver:
    """``function`` for a local worker process that ends itself once the driver is gone.

    loky keeps its workers for reuse, and a driver killed with SIGKILL cannot
    stop them: they lived on for minutes, holding their memory (issue 35).
    The first task a worker runs starts a daemon thread that exits the
    worker when its parent is no longer the driver (the orphan is adopted by
    another process).
    """

    def __init__(self, function: Callable[[Any], Any], driver: int) -> None:
        self.function, self.driver = function, driver

    def __call__(self, task: Any) -> Any:
        _watch_driver(self.driver)
        return self.function(task)


_watched: set[int] = set()
_watch_lock = threading.Lock()


def _watch_driver(driver: int) -> None:
    if os.getpid() == driver:  # not a worker (e.g. joblib ran the task in the driver itself)
        return
    with _watch_lock:
        if driver in _watched:
            return
        _watched.add(driver)

    def watch() -> None:
        while os.getppid() == driver:
            time.sleep(DRIVER_CHECK_SECONDS)
        os._exit(1)  # the driver is gone: nothing will read this worker's results

    threading.Thread(target=watch, name="rankviz-driver-watch", daemon=True).start()
