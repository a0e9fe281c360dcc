"""Timing shared by the benchmark scripts (this file prints nothing when run)."""

import time

import numpy as np


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
