"""What the benchmark scripts share: timing, and where the public benchmark files are.

The label-ranking benchmark files (the collection Cheng, Hühn & Hüllermeier
2009 used, one ``n,d,L`` file per data set) are not part of the repository.
Scripts read them from ``--data DIR``; the default is ``$RANKVIZ_BENCHMARK_DATA``,
else the folder ``shared/data/label_ranking`` beside the checkout. This file
prints nothing when run.
"""

import argparse
import os
import time
from pathlib import Path

import numpy as np

#: Default folder of the label-ranking benchmark files.
DEFAULT_DATA = Path(os.environ.get("RANKVIZ_BENCHMARK_DATA",
                                   Path(__file__).resolve().parents[2] / "shared" / "data" / "label_ranking"))


def add_data_option(parser: argparse.ArgumentParser) -> None:
    """The ``--data DIR`` option: the folder of the benchmark files."""
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA,
                        help="folder of the label-ranking benchmark files (n,d,L format, e.g. iris.csv); "
                             "default: $RANKVIZ_BENCHMARK_DATA, else %(default)s")


def median_time(run, repeats, warm_up=False):
    """Median wall time of ``run()`` over ``repeats`` calls, and the last result.

    ``warm_up`` first calls ``run()`` once untimed (first-call costs such as
    imports and allocations are not what the benchmark measures).
    """
    if warm_up:
        run()
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return float(np.median(times)), result
