"""A library user's first fit: ``import rankviz`` and one fit on 300 rows, in a fresh process with an empty Numba cache.

For each criterion of :class:`rankviz.RankingTree` (mean_spearman,
ranking_impurity, gini, mallows), for :class:`rankviz.MPBoost` (20 queries
of 15 documents, 10 features, 20 rounds) and for :class:`rankviz.IBLR`, a
child process is started with ``NUMBA_CACHE_DIR`` pointing at a new, empty
temporary folder; it imports rankviz and fits once. Then a second child does
the same with that folder as it was left (the warm cache: what every later
process of the same user meets).

Measured inside the child, over ``import rankviz`` and the first fit (data
generation excluded):

* **CPU**: user + system time of the whole process (every thread:
  ``resource.getrusage(RUSAGE_SELF)``), read when ``fit`` returns;
* **main**: the CPU time of the calling thread only (``RUSAGE_THREAD``): the
  two differ when a background thread compiles during the fit;
* **wall**: ``time.perf_counter``.

A background compilation still running when ``fit`` returns is not in these
numbers; the child waits for it afterwards (untimed) and reports its CPU
time separately as **bg** (the process's CPU time at exit less at ``fit``'s
return), so that the warm run meets a filled cache and nothing is hidden.

Usage: ``python benchmarks/bench_cold_start.py [--cases mean_spearman mpboost ...] [--mode wait]``;
``--mode wait`` measures what a first fit cost before :mod:`rankviz.jit` (it compiled).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

CASES = ("mean_spearman", "ranking_impurity", "gini", "mallows", "mpboost", "iblr")


def _child(case: str) -> None:
    """Run in the child: import rankviz, fit once, print the measurements as JSON on the last line."""
    import resource
    import time

    import numpy as np

    def cpu(who: int) -> float:
        usage = resource.getrusage(who)
        return usage.ru_utime + usage.ru_stime

    rng = np.random.default_rng(0)
    X = rng.normal(size=(300, 6))
    # 5 labels ranked by noisy linear scores of the attributes: complete rankings without ties
    scores = X @ rng.normal(size=(6, 5)) + rng.normal(scale=0.5, size=(300, 5))
    Y = np.argsort(np.argsort(-scores, axis=1), axis=1) + 1.0

    wall, process, thread = time.perf_counter(), cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_THREAD)
    import rankviz

    if case == "mpboost":
        # data generation is not what is measured: its CPU time is taken out
        paused = time.perf_counter(), cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_THREAD)
        data = rankviz.make_ltr_dataset(n_queries=20, docs_per_query=15, n_features=10, seed=0)
        wall += time.perf_counter() - paused[0]
        process += cpu(resource.RUSAGE_SELF) - paused[1]
        thread += cpu(resource.RUSAGE_THREAD) - paused[2]
        rankviz.MPBoost(n_rounds=20).fit(data.X, data.relevance, qid=data.qid)
    elif case == "iblr":
        rankviz.IBLR().fit(X, Y)
    else:
        rankviz.RankingTree(criterion=case).fit(X, Y)
    result = dict(wall=time.perf_counter() - wall, cpu=cpu(resource.RUSAGE_SELF) - process,
                  main=cpu(resource.RUSAGE_THREAD) - thread, numba="numba" in sys.modules)
    at_return = cpu(resource.RUSAGE_SELF)
    wait = getattr(getattr(rankviz, "jit", None), "wait_for_compilation", None)
    if wait is not None:
        wait()
    result["bg"] = cpu(resource.RUSAGE_SELF) - at_return
    print(json.dumps(result))


def _run(case: str, cache: str, mode: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, RANKVIZ_COMPILE=mode)
    done = subprocess.run([sys.executable, __file__, "--child", case], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", nargs="+", choices=CASES, default=list(CASES))
    parser.add_argument("--mode", choices=("background", "wait", "never"), default="background",
                        help="the compilation mode of the children (rankviz.jit); 'wait' is the behaviour "
                             "before rankviz.jit: the first fit compiles")
    parser.add_argument("--child", choices=CASES, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        _child(args.child)
        return

    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from common import machine

    print(f"machine: {machine()}; compilation mode {args.mode!r}")
    print("CPU and wall seconds of `import rankviz` + the first fit on 300 rows; cold = empty Numba cache, "
          "warm = the cache the cold run left; main = the calling thread's CPU; bg = CPU of a background "
          "compilation after fit returned\n")
    header = (f"{'case':<17} {'cold CPU':>9} {'cold main':>10} {'cold wall':>10} {'bg':>7} {'warm CPU':>9} "
              f"{'warm wall':>10} {'cold/warm':>10}  numba imported (cold, warm)")
    print(header)
    print("-" * len(header))
    for case in args.cases:
        with tempfile.TemporaryDirectory(prefix="rankviz-numba-") as cache:
            cold = _run(case, cache, args.mode)
            warm = _run(case, cache, args.mode)
        print(f"{case:<17} {cold['cpu']:>9.2f} {cold['main']:>10.2f} {cold['wall']:>10.2f} {cold['bg']:>7.2f} "
              f"{warm['cpu']:>9.2f} {warm['wall']:>10.2f} {cold['cpu'] / warm['cpu']:>9.1f}x  "
              f"{cold['numba']}, {warm['numba']}", flush=True)


if __name__ == "__main__":
    main()
