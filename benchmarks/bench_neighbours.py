"""Nearest neighbours: the search of the k-NN rankers, and IBLR / KNN predict, against scikit-learn and scikit-lr.

For each data set, the rows are split as one fold of a 10-fold CV: the
rankers are fitted on nine tenths and predict the held-out tenth. Printed, as
medians of CPU time (``time.process_time``) over ``--repeats`` calls, on
one thread (BLAS and OpenMP, here and in scikit-lr's process: a pool's idle
threads spin after a call, and CPU time would count that against the next
measurement):

* **search**: :class:`rankviz.neighbours.NeighbourIndex` with
  ``algorithm="exhaustive"`` (every distance, the k nearest chosen among
  them in compiled code; before issue 37 the only search) and ``"auto"``
  (candidates from SciPy's KD-tree where it pays, else every distance),
  against
  scikit-learn's ``NearestNeighbors`` (``algorithm="auto"``) on the same
  min-max scaled features: the reference, measured in the same run. The two
  of ours must return the same neighbours; the script checks it on every set
  and says so.
* **predict**: ``IBLR(n_neighbors=k)`` and ``KNNRanker(n_neighbors=k)``
  (Dudani weights and mean ranks), against scikit-lr's
  ``KNeighborsLabelRanker(n_neighbors=k, weights="dudani")`` (Mallows, the
  same method as IBLR's), fitted on the same scaled features. scikit-lr
  0.3.0 needs Python 3.13, so it runs in a separate interpreter
  (``--sklr-python``, a Python with scikit-lr installed) that reads the same
  arrays from a temporary ``.npz``; its times are written to
  ``benchmarks/results/sklr_neighbours.csv`` (with the machine) and read
  from there by runs without ``--sklr-python``. Ratios against a time from
  another run carry the machine's noise between the runs: read them as
  approximate.

Data sets: the label-ranking benchmark files of Cheng, Hühn & Hüllermeier
(2009) that are in the data home (``--files``; vowel 528 rows, vehicle 846,
stock 950, pendigits 10,992, calhousing 20,640, fried 40,768), and generated
sets of every size in ``--sizes`` (500 to 40,000 rows, 8 numeric attributes
of which two carry the rankings, 5 labels), so the scaling shows apart from
any one file's structure.

Usage::

    python benchmarks/bench_neighbours.py [--sklr-python /path/to/python3.13] [--files vowel fried]
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from common import add_data_option, load_label_ranking, machine
from sklearn.neighbors import NearestNeighbors
from threadpoolctl import threadpool_limits

from rankviz import IBLR, KNNRanker
from rankviz.neighbours import NeighbourIndex

RESULTS = Path(__file__).resolve().parent / "results" / "sklr_neighbours.csv"
FILES = ("vowel", "vehicle", "stock", "pendigits", "calhousing", "fried")
SIZES = (500, 2_000, 8_000, 20_000, 40_000)
# One thread for BLAS and OpenMP, here and in scikit-lr's process: idle pool threads spin for a while
# after a call, and CPU time counts that spin against whatever is measured next.
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}

# Run by the scikit-lr interpreter: fit on the training rows, time predict on the held-out ones.
SKLR_SCRIPT = """
import json, sys, time
import numpy as np
from sklr.neighbors import KNeighborsLabelRanker
data = np.load(sys.argv[1])
repeats, k = int(sys.argv[2]), int(sys.argv[3])
model = KNeighborsLabelRanker(n_neighbors=k, weights="dudani").fit(data["X_train"], data["Y_train"])
model.predict(data["X_test"])
times = []
for _ in range(repeats):
    start = time.process_time()
    model.predict(data["X_test"])
    times.append(time.process_time() - start)
import sklr
print(json.dumps({"seconds": float(np.median(times)), "version": sklr.__version__}))
"""


def generated(n_rows: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``n_rows`` rows of 8 uniform attributes; rankings of 5 labels by utilities of the first two, plus noise."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(size=(n_rows, 8))
    centres = rng.uniform(size=(5, 2))
    utility = -((X[:, None, :2] - centres[None]) ** 2).sum(axis=2) + rng.normal(scale=0.05, size=(n_rows, 5))
    Y = np.argsort(np.argsort(-utility, axis=1), axis=1) + 1.0
    return X, Y


def cpu_median(run, repeats):
    """Median CPU seconds of ``run()`` over ``repeats`` calls, after one untimed call; and its result."""
    result = run()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        result = run()
        times.append(time.process_time() - start)
    return float(np.median(times)), result


def sklr_time(python, X_train, Y_train, X_test, repeats, k):
    """scikit-lr's predict time, in the interpreter ``python``: (seconds, version)."""
    with tempfile.TemporaryDirectory() as folder:
        arrays = Path(folder) / "data.npz"
        np.savez(arrays, X_train=X_train, Y_train=Y_train.astype(np.intp), X_test=X_test)
        done = subprocess.run([python, "-c", SKLR_SCRIPT, str(arrays), str(repeats), str(k)],
                              capture_output=True, text=True, check=True, env={**os.environ, **ONE_THREAD})
    answer = json.loads(done.stdout.strip().splitlines()[-1])
    return answer["seconds"], answer["version"]  # seconds


def read_recorded():
    """scikit-lr times recorded by an earlier run: {(set, k): seconds}."""
    if not RESULTS.exists():
        return {}
    with RESULTS.open(newline="", encoding="utf-8") as handle:
        return {(row["set"], int(row["k"])): float(row["sklr_predict_s"]) for row in csv.DictReader(handle)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(parser)
    parser.add_argument("--files", nargs="*", default=list(FILES), help="benchmark files (default: %(default)s)")
    parser.add_argument("--sizes", nargs="*", type=int, default=list(SIZES), help="generated set sizes")
    parser.add_argument("--k", type=int, default=10, help="neighbours (default: %(default)s)")
    parser.add_argument("--repeats", type=int, default=3, help="timed calls per measurement (median)")
    parser.add_argument("--sklr-python", help="a Python with scikit-lr 0.3.0; its times are recorded in "
                                              "benchmarks/results/sklr_neighbours.csv")
    args = parser.parse_args()
    with threadpool_limits(1):
        run(args)


def run(args: argparse.Namespace) -> None:
    """Measure every set and print the table."""

    print(f"machine: {machine()}")
    print(f"k = {args.k}; one fold of a 10-fold CV per set; CPU milliseconds, median of {args.repeats} "
          "after a warm-up call; one thread\n")
    sets = []
    for name in args.files:
        data = load_label_ranking(args.data, name, required=False)
        if data is None:
            print(f"{name}: not in the data home, skipped")
            continue
        sets.append((name, np.asarray(data.X, dtype=float), np.asarray(data.Y, dtype=float)))
    sets += [(f"generated-{n}", *generated(n)) for n in args.sizes]

    recorded = read_recorded()
    measured = []
    header = (f"{'set':<18}{'rows':>7}{'dims':>5} | {'exh.':>8}{'auto':>8}{'sklearn':>8}{'auto/skl':>9}"
              f"{'exh./auto':>11}{'same':>5} | {'IBLR':>8}{'KNN':>8}{'sklr':>8}{'IBLR/sklr':>10}{'KNN/sklr':>9}")
    print(header)
    print("-" * len(header))
    for name, X, Y in sets:
        test = np.arange(len(X)) % 10 == 0  # every tenth row: one fold of a 10-fold CV
        low, span = X[~test].min(axis=0), np.ptp(X[~test], axis=0)
        scaled = (X - low) / np.where(span > 0, span, 1.0)  # ours scales so inside; the references get it done
        X_train, X_test, Y_train = X[~test], X[test], Y[~test]

        brute = NeighbourIndex(X_train, args.k, algorithm="exhaustive")
        auto = NeighbourIndex(X_train, args.k, algorithm="auto")
        brute_s, brute_found = cpu_median(lambda: brute.kneighbors(X_test), args.repeats)
        auto_s, auto_found = cpu_median(lambda: auto.kneighbors(X_test), args.repeats)
        reference = NearestNeighbors(n_neighbors=args.k).fit(scaled[~test])
        sklearn_s, _ = cpu_median(lambda: reference.kneighbors(scaled[test]), args.repeats)
        same = np.array_equal(brute_found, auto_found)

        iblr = IBLR(n_neighbors=args.k).fit(X_train, Y_train)
        knn = KNNRanker(n_neighbors=args.k).fit(X_train, Y_train)
        iblr_s, _ = cpu_median(lambda: iblr.predict(X_test), args.repeats)
        knn_s, _ = cpu_median(lambda: knn.predict(X_test), args.repeats)
        sklr_s = recorded.get((name, args.k))
        if args.sklr_python:
            sklr_s, version = sklr_time(args.sklr_python, scaled[~test], Y_train, scaled[test], args.repeats, args.k)
            measured.append({"set": name, "k": args.k, "sklr_predict_s": f"{sklr_s:.6f}", "sklr": version,
                             "machine": machine()})
        sklr_text = f"{sklr_s * 1e3:8.2f}" if sklr_s else f"{'—':>8}"
        ratios = (f"{iblr_s / sklr_s:10.2f}{knn_s / sklr_s:9.2f}" if sklr_s else f"{'—':>10}{'—':>9}")
        print(f"{name:<18}{len(X):>7}{auto.points.shape[1]:>5} | {brute_s * 1e3:8.2f}{auto_s * 1e3:8.2f}"
              f"{sklearn_s * 1e3:8.2f}"
              f"{auto_s / sklearn_s:9.2f}{brute_s / auto_s:11.2f}{'yes' if same else 'NO':>5} | "
              f"{iblr_s * 1e3:8.2f}{knn_s * 1e3:8.2f}{sklr_text}{ratios}", flush=True)

    if measured:
        known = {(row["set"], int(row["k"])): row for row in _recorded_rows()}
        known.update({(row["set"], row["k"]): row for row in measured})
        RESULTS.parent.mkdir(exist_ok=True)
        with RESULTS.open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=["set", "k", "sklr_predict_s", "sklr", "machine"])
            writer.writeheader()
            writer.writerows(known.values())
        print(f"\nscikit-lr's times recorded in {RESULTS}")
    print("\nexh. / auto: the speed-up of the candidate search over computing every distance (same neighbours: "
          "'same').\nauto / skl: our search against scikit-learn's NearestNeighbors on the same scaled rows.\n"
          "IBLR / sklr, KNN / sklr: predict against scikit-lr's KNeighborsLabelRanker (Dudani weights, Mallows).")
    sys.stdout.flush()


def _recorded_rows():
    if not RESULTS.exists():
        return []
    with RESULTS.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


if __name__ == "__main__":
    main()
