"""The ``rankviz`` command line: ``rankviz app`` starts the app, ``rankviz benchmark`` runs a
benchmark grid, ``rankviz warm-up`` compiles.

``rankviz app`` runs ``streamlit run`` on the app inside the installed package
(:func:`rankviz.ui.app.main_script`); options after it go to Streamlit, e.g.
``rankviz app --server.port 8600``. It needs the ``app`` extra
(``pip install "rankviz[app]"``) and says so when Streamlit is missing.

Example::

    rankviz benchmark --datasets iris_nb fetch:wine --methods lrt iblr knn \\
        --cv 10 --repetitions 5 --jobs 2 --results results.csv

Cells already in the results file are skipped, so the same command resumes
a stopped run. ``--scheduler tcp://host:8786`` runs the cells on a Dask
cluster. Errors in the options or the data print one line and exit with
status 2.

``rankviz warm-up`` compiles all of rankviz's compiled code into Numba's
cache (:mod:`rankviz.numba_cache`), or loads it from there when it is
already built, and says which, where the cache is and the CPU time taken;
afterwards no fit of this user waits for the compiler or starts a
background build (:mod:`rankviz.jit`).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from typing import TextIO

from .exceptions import DataError

__all__ = ["ProgressBar", "main"]

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130  # as a shell reports a process stopped by Ctrl-C (128 + SIGINT)


def _duration(seconds: float) -> str:
    if seconds != seconds:  # NaN: nothing measured yet
        return "?"
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class ProgressBar:
    """Cells done, elapsed time and the estimated time left, on one line of a stream.

    On a terminal the line is redrawn in place (carriage return); otherwise
    (a log file, CI) a plain line is written about every tenth of the run.

    Parameters
    ----------
    stream : text stream, default=sys.stderr
    width : int, default=30
        Characters of the bar.
    """

    def __init__(self, stream: TextIO | None = None, width: int = 30) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self._last_tenth = -1

    def __call__(self, done: int, total: int, elapsed: float, remaining: float) -> None:
        """Show the state after ``done`` of ``total`` cells (the signature ``run_grid`` calls)."""
        share = done / total if total else 1.0
        filled = int(round(share * self.width))
        text = (f"[{'#' * filled}{'.' * (self.width - filled)}] {done}/{total} cells, "
                f"{_duration(elapsed)} elapsed, ~{_duration(remaining)} left")
        if self.stream.isatty():
            self.stream.write("\r" + text + ("\n" if done == total else ""))
        else:
            tenth = int(share * 10)
            if tenth == self._last_tenth and done != total:
                return
            self._last_tenth = tenth
            self.stream.write(text + "\n")
        self.stream.flush()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rankviz", description="rankviz command line tools")
    commands = parser.add_subparsers(dest="command", required=True)
    bench = commands.add_parser(
        "benchmark", help="run a benchmark grid (methods × data sets × folds)",
        description="Score label rankers on data sets by cross-validation, one resumable cell at a time.")
    bench.add_argument("--datasets", nargs="+", required=True, metavar="DATA",
                       help="sample:NAME (bundled), fetch:NAME (public set, downloaded once), a benchmark-format "
                            "file, or a bare sample or public set name")
    bench.add_argument("--methods", nargs="+", default=["lrt", "iblr", "cc", "knn", "default"], metavar="METHOD",
                       help="lrt (leaf size and γ by inner CV), iblr, cc, knn, default, rt (the untuned "
                            "mean-Spearman tree), forest (RankingForest, 100 trees); default: all but rt and forest")
    split = bench.add_mutually_exclusive_group()
    split.add_argument("--cv", default="10", metavar="K",
                       help="folds of the cross-validation, or 'loo' for leave-one-out (default 10)")
    split.add_argument("--holdout", type=float, default=None, metavar="SHARE",
                       help="one random hold-out split per repetition with this test share, e.g. 0.2")
    bench.add_argument("--repetitions", type=int, default=1, help="repetitions with new splits (default 1)")
    bench.add_argument("--missing-rate", type=float, default=0.0, metavar="P",
                       help="delete each training label with probability P (default 0)")
    bench.add_argument("--seed", type=int, default=0, help="seed of the splits and the cells (default 0)")
    bench.add_argument("--jobs", type=int, default=-1, help="local worker processes (default: all cores)")
    bench.add_argument("--backend", choices=["serial", "processes", "dask"], default=None,
                       help="where cells run (default processes; dask with --scheduler)")
    bench.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="a Dask scheduler's address, e.g. tcp://host:8786 (implies --backend dask)")
    bench.add_argument("--results", default="benchmark_results.csv", metavar="PATH",
                       help="results file, .csv or .parquet (a directory); finished cells in it are skipped "
                            "(default benchmark_results.csv)")
    bench.add_argument("--report", default=None, metavar="PATH", help="also write a report of the table here")
    bench.add_argument("--data-home", default=None, metavar="DIR", help="cache folder of the public sets")
    # Its options are Streamlit's: main() passes on what this parser does not know.
    commands.add_parser(
        "app", help="start the Streamlit app (options after it go to `streamlit run`)",
        usage="rankviz app [STREAMLIT OPTION ...]",
        description="Start rankviz's Streamlit app from the installed package. Any further options are "
                    "passed to `streamlit run`, e.g. --server.port 8600 or --server.headless true.")
    commands.add_parser(
        "warm-up", help="compile rankviz's compiled code into the cache (or load it), so no fit waits for it",
        description="Compile every compiled function the library and the app use (the tree builder, MPBoost's "
                    "stump search) into Numba's cache, or load them from it when they are there; print what "
                    "was done, where the cache is and the CPU time.")
    return parser


def _app(args: argparse.Namespace) -> int:
    import importlib.util
    import subprocess

    from .ui.app import main_script

    if importlib.util.find_spec("streamlit") is None:
        raise OSError('the app needs Streamlit: pip install "rankviz[app]"')
    # A child process, not streamlit's CLI in this one: Ctrl-C and the exit status are Streamlit's own.
    command = [sys.executable, "-m", "streamlit", "run", str(main_script()),
               "--server.showEmailPrompt", "false", "--browser.gatherUsageStats", "false", *args.streamlit_args]
    try:
        return subprocess.call(command)
    except KeyboardInterrupt:
        return EXIT_INTERRUPTED


def _warm_up(args: argparse.Namespace) -> int:
    from . import jit, neighbours, numba_cache
    from .datasets import svmlight
    from .label_ranking import bucket_order
    from .ltr import stump_search
    from .tree import compiled

    chosen = f"${numba_cache.ENV_VAR}" if os.environ.get(numba_cache.ENV_VAR) else "the per-user default"
    folder = numba_cache.configure()
    print(f"Numba cache: {folder} ({chosen})")
    start_cpu, start_wall = time.process_time(), time.perf_counter()
    for kernels in (compiled.KERNELS, stump_search.KERNELS, bucket_order.KERNELS, svmlight.KERNELS,
                    neighbours.KERNELS):
        cached = kernels.is_cached()
        seconds = kernels.build()
        print(f"{kernels.name} ({kernels.module}): {'loaded from the cache' if cached else 'compiled'} "
              f"in {seconds:.1f} s of CPU")
    print(f"done: {time.process_time() - start_cpu:.1f} s of CPU, {time.perf_counter() - start_wall:.1f} s wall "
          f"(compilation mode {jit.compile_mode()!r})")
    return 0


def _protocol(args: argparse.Namespace):
    from .experiments.grid.protocol import Protocol

    common = dict(missing_rate=args.missing_rate, seed=args.seed)
    if args.holdout is not None:
        return Protocol("holdout", n_repeats=args.repetitions, test_size=args.holdout, **common)
    if args.cv == "loo":
        if args.repetitions != 1:
            raise ValueError("leave-one-out has one repetition; drop --repetitions")
        return Protocol("loo", **common)
    try:
        k = int(args.cv)
    except ValueError:
        raise ValueError(f"--cv must be a number of folds or 'loo', got {args.cv!r}") from None
    kind = "kfold" if args.repetitions == 1 else "repeated_kfold"
    return Protocol(kind, n_splits=k, n_repeats=args.repetitions, **common)


def _report_writer(path: str | None):
    """The report package's ``write_report``, imported only when a report is asked for."""
    if path is None:
        return None
    try:
        from .experiments.report import write_report
    except ImportError:
        raise ValueError("--report needs rankviz.experiments.report, which this installation lacks") from None
    return write_report


def _benchmark(args: argparse.Namespace) -> int:
    from .experiments.grid.catalog import resolve_datasets, resolve_methods
    from .experiments.grid.runner import run_grid

    backend = args.backend or ("dask" if args.scheduler else "processes")
    if args.scheduler and backend != "dask":
        raise ValueError("--scheduler runs on Dask; drop --backend or use --backend dask")
    if args.jobs == 0 or args.jobs < -1:
        raise ValueError(f"--jobs must be a positive number or -1 (all cores), got {args.jobs}")
    protocol = _protocol(args)
    write_report = _report_writer(args.report)
    methods = resolve_methods(args.methods)
    datasets = resolve_datasets(args.datasets, data_home=args.data_home)
    print(f"{len(methods)} methods × {len(datasets)} data sets, {protocol.tag}, on {backend}; "
          f"results in {args.results}", file=sys.stderr)
    start = time.perf_counter()
    try:
        table = run_grid(methods, datasets, protocol, results=args.results, backend=backend, n_jobs=args.jobs,
                         scheduler=args.scheduler, progress=ProgressBar())
    except KeyboardInterrupt:
        print(f"\nstopped; the finished cells are in {args.results}. Run the same command again to finish "
              "the rest.", file=sys.stderr)
        return EXIT_INTERRUPTED
    print(f"done in {_duration(time.perf_counter() - start)}: {table['cell'].nunique()} cells, "
          f"{len(table)} rows in {args.results}", file=sys.stderr)
    summary = table.groupby(["dataset", "method", "measure"], sort=True)["value"].mean().unstack("measure")
    print(summary.round(3).to_string())
    if write_report is not None:
        write_report(table, args.report)
        print(f"report written to {args.report}", file=sys.stderr)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    int
        The exit status: 0 on success, 2 for a bad option, name or file, 130
        when stopped by Ctrl-C.
    """
    parser = _parser()
    args, unknown = parser.parse_known_args(argv)
    if args.command == "app":
        args.streamlit_args = unknown
    elif unknown:
        parser.error(f"unrecognized arguments: {' '.join(unknown)}")
    try:
        run = {"app": _app, "warm-up": _warm_up, "benchmark": _benchmark}[args.command]
        return run(args)
    except (ValueError, DataError, OSError) as error:
        print(f"rankviz {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
