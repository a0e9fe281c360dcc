"""What the benchmark scripts share: timing, and where the public benchmark files are.

The label-ranking benchmark files (the collection Cheng, Hühn & Hüllermeier
2009 used) are not part of the repository. Scripts read them through
:func:`rankviz.datasets.fetch_label_ranking`, from the data home ``--data
DIR`` (``DIR/label_ranking/<name>.csv``; a set not there is downloaded once
into it). The default is ``$RANKVIZ_DATA``, else ``$RANKVIZ_BENCHMARK_DATA``
(the older variable naming the ``label_ranking`` folder itself), else the
folder ``shared/data`` beside the checkout when it exists, else
``~/rankviz_data``. This file prints nothing when run.
"""

import argparse
import os
import platform
import time
from pathlib import Path

import numpy as np

from rankviz import jit
from rankviz.datasets import FetchError, RankingDataset, fetch_label_ranking, get_data_home

# The scripts time the compiled engines, never the NumPy search a fit uses while they build in the
# background (rankviz.jit): a fit compiles (or loads from the cache) what it needs first. Set in the
# environment too, for the fresh processes some scripts start; RANKVIZ_COMPILE, when set, is kept.
os.environ.setdefault(jit.ENV_VAR, "wait")
jit.set_compile_mode(os.environ[jit.ENV_VAR])

#: The folder beside the checkout that holds the shared benchmark files (label_ranking/*.csv).
SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def data_home_of(folder: Path) -> Path:
    """The data home for ``folder``: its parent when it is a data home's ``label_ranking`` folder."""
    folder = Path(folder).expanduser()
    if folder.name == "label_ranking" and not (folder / "label_ranking").is_dir():
        return folder.parent
    return folder


def default_data_home() -> Path:
    """``$RANKVIZ_DATA``, else ``$RANKVIZ_BENCHMARK_DATA``, else ``shared/data`` if present, else ``~/rankviz_data``."""
    if os.environ.get("RANKVIZ_DATA"):
        return get_data_home()
    if os.environ.get("RANKVIZ_BENCHMARK_DATA"):
        return data_home_of(Path(os.environ["RANKVIZ_BENCHMARK_DATA"]))
    if (SHARED_DATA / "label_ranking").is_dir():
        return SHARED_DATA
    return get_data_home()


#: Default data home of the benchmark files.
DEFAULT_DATA = default_data_home()


def add_data_option(parser: argparse.ArgumentParser) -> None:
    """The ``--data DIR`` option: the data home of the benchmark files."""
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="data home of the label-ranking benchmark files (DIR/label_ranking/iris.csv ...; "
                             "a missing set is downloaded into it); default: $RANKVIZ_DATA, else "
                             "$RANKVIZ_BENCHMARK_DATA, else %(default)s")


def load_label_ranking(data: Path, name: str, required: bool = True) -> RankingDataset | None:
    """The benchmark set ``name`` from the data home ``data``, through the fetcher.

    When it can be had neither from the data home nor by download, exits
    with the fetcher's message (naming the URL and where to save a copy),
    or returns None if ``required`` is False.
    """
    try:
        return fetch_label_ranking(name, data_home=data_home_of(data))
    except FetchError as exc:
        if not required:
            return None
        raise SystemExit(f"benchmark data not available: {exc}") from None


def median_time(run, repeats, warm_up=False, min_seconds=0.0):
    """Median wall time of ``run()`` over ``repeats`` calls, and the last result.

    ``warm_up`` first calls ``run()`` once untimed (first-call costs such as
    imports and allocations are not what the benchmark measures).
    ``min_seconds`` keeps calling (up to 2,000 calls) until the calls add up
    to that long: a fit of a fraction of a millisecond, timed 5 times, moves
    by 15 % between runs of the script (iris, 2026-11-24), more than the
    differences the ratios are read for.
    """
    if warm_up:
        run()
    times, result = [], None
    while len(times) < repeats or (sum(times) < min_seconds and len(times) < 2_000):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result


def machine() -> str:
    """The machine a run measured: CPU model, logical CPUs, Python and the date.

    Ratios against a reference in the same run carry across machines better
    than times, but not fully (MPBoost against LightGBM: 2.1x on one 2-core VM,
    1.7x on another, 2026-11-24), so every script's output names its machine.
    """
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            model = next((line.split(":", 1)[1].strip() for line in cpuinfo if line.startswith("model name")), model)
    except OSError:
        pass
    return (f"{model}, {os.cpu_count()} logical CPUs, Python {platform.python_version()}, "
            f"{time.strftime('%Y-%m-%d')}")
