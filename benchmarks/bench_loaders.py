"""Loading files: wide CSVs (thousands of label or feature columns), and svmlight / LETOR files against scikit-learn.

Printed, as medians of CPU time (``time.process_time``) over ``--repeats``
loads after a warm-up load:

* **Wide CSVs**, generated: 10 rows with 10,000 rank columns
  (:func:`rankviz.load_csv` with ``target="ranks"``), and 10 rows with
  20,000 feature columns read by each loader that takes features (label
  ranking, ordinal, query CSV with the features named and chosen by
  default), comma-separated and semicolon-separated with decimal commas.
  The aim (issue 37): each loads in at most 3 s. Before the cells were
  converted all columns at once, they took 7.8 s (10,000 labels) and 12-24 s
  (20,000 features, semicolons) on a 2-core VM.
* **svmlight**: :func:`rankviz.load_svmlight` (its compiled reader, and
  its reader in Python) against scikit-learn's
  ``load_svmlight_file`` on LightGBM's lambdarank example
  (:func:`rankviz.fetch_letor_example`'s ``rank.train``, 3,005 documents x
  300 features; the data home's ``letor/`` folder), and on a generated
  sparse file of LETOR's shape (``--documents``, 136 features, about a
  third of the values written). scikit-learn's loader reads the file from
  the same bytes in memory; ours from the same bytes too, and builds the
  whole :class:`~rankviz.datasets.QueryDataset` (query ids, checks). The aim
  (issue 37): the compiled reader at most 1.1 times scikit-learn's loader.

Usage::

    python benchmarks/bench_loaders.py [--repeats 5] [--documents 100000]
"""

from __future__ import annotations

import argparse
import io
import time
from pathlib import Path

import numpy as np
from common import add_data_option, data_home_of, machine
from sklearn.datasets import load_svmlight_file

from rankviz import jit, load_svmlight
from rankviz.datasets import svmlight
from rankviz.datasets.label_ranking import load_csv
from rankviz.datasets.ordinal import load_ordinal_csv
from rankviz.datasets.queries import load_query_csv


def cpu_median(run, repeats):
    """Median CPU seconds of ``run()`` over ``repeats`` calls, after one untimed call."""
    run()
    times = []
    for _ in range(repeats):
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return float(np.median(times))


def wide_table(n_rows, n_features, n_labels, sep, seed=0):
    """CSV text: ``n_features`` columns f0.. of numbers, ``n_labels`` rank columns l0.., then y, qid, rel."""
    rng = np.random.default_rng(seed)
    decimal = "," if sep == ";" else "."
    header = [f"f{j}" for j in range(n_features)] + [f"l{j}" for j in range(n_labels)] + ["y", "qid", "rel"]
    rows = []
    for i in range(n_rows):
        features = [f"{v:.2f}".replace(".", decimal) for v in rng.random(n_features)]
        ranks = [str(r) for r in rng.permutation(n_labels) + 1]
        rows.append(sep.join(features + ranks + [str(rng.integers(1, 4)), str(i // 3), str(rng.integers(0, 3))]))
    return sep.join(header) + "\n" + "\n".join(rows) + "\n"


def letor_like(n_documents, n_features=136, density=0.3, seed=0):
    """svmlight text of LETOR's shape: graded relevance 0-4, queries of about 100 documents, sparse features."""
    rng = np.random.default_rng(seed)
    lines = []
    for i in range(n_documents):
        written = np.flatnonzero(rng.random(n_features) < density) + 1
        values = np.round(rng.random(len(written)) * 100, 3)
        features = " ".join(f"{j}:{v:g}" for j, v in zip(written, values))
        lines.append(f"{rng.integers(0, 5)} qid:{i // 100 + 1} {features}")
    return ("\n".join(lines) + "\n").encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(parser)
    parser.add_argument("--repeats", type=int, default=3, help="timed loads per measurement (median)")
    parser.add_argument("--documents", type=int, default=30_000, help="documents of the generated LETOR-like file")
    args = parser.parse_args()
    print(f"machine: {machine()}")
    print(f"CPU seconds, median of {args.repeats} after a warm-up load\n")

    print("| wide CSV | size | loader | load [s] |")
    print("|---|---:|---|---:|")
    labels = wide_table(10, 2, 10_000, ",")
    rank_columns = [f"l{j}" for j in range(10_000)]
    seconds = cpu_median(lambda: load_csv(io.StringIO(labels), ["f0", "f1"], "ranks", rank_columns), args.repeats)
    print(f"| 10 rows × 10,000 rank columns | {len(labels) // 1024:,} KB | label ranking | {seconds:.2f} |")
    for sep in (",", ";"):
        text = wide_table(10, 20_000, 3, sep)
        features = [f"f{j}" for j in range(20_000)]
        loaders = {
            "label ranking": lambda: load_csv(io.StringIO(text), features, "ranks", ["l0", "l1", "l2"]),
            "ordinal": lambda: load_ordinal_csv(io.StringIO(text), target="y", feature_columns=features),
            "query, features named": lambda: load_query_csv(io.StringIO(text), "qid", "rel", features),
            "query, features by default": lambda: load_query_csv(io.StringIO(text), "qid", "rel"),
        }
        shape = "10 rows × 20,000 feature columns" + (", ';' and decimal commas" if sep == ";" else "")
        for name, load in loaders.items():
            print(f"| {shape} | {len(text) // 1024:,} KB | {name} | {cpu_median(load, args.repeats):.2f} |", flush=True)

    build = svmlight.KERNELS.build()
    print(f"\nthe compiled svmlight reader built (or loaded from the cache) in {build:.1f} s of CPU; 'general' is "
          "the reader in Python (compilation mode 'never'), which reads the lines the compiled one leaves to it")
    print("\n| svmlight file | documents | compiled [s] | general [s] | scikit-learn [s] | compiled / scikit-learn "
          "| general / scikit-learn |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    files = []
    example = data_home_of(args.data) / "letor" / "lightgbm_lambdarank" / "rank.train"
    if example.exists():
        files.append(("LightGBM lambdarank rank.train (+ .query)", example.read_bytes(),
                      (example.parent / "rank.train.query").read_bytes()))
    else:
        print(f"(LightGBM's example not found at {example}: skipped)")
    files.append((f"generated, LETOR-like, {args.documents:,} × 136", letor_like(args.documents), None))
    for name, content, query in files:
        n_documents = content.count(b"\n")
        times = {}
        for mode in ("wait", "never"):
            jit.set_compile_mode(mode)
            times[mode] = cpu_median(lambda: load_svmlight(io.BytesIO(content), name="file",
                                                           query_file=io.BytesIO(query) if query else None),
                                     args.repeats)
        jit.set_compile_mode("background")
        theirs = cpu_median(lambda: load_svmlight_file(io.BytesIO(content), query_id=query is None), args.repeats)
        print(f"| {name} | {n_documents:,} | {times['wait']:.3f} | {times['never']:.3f} | {theirs:.3f} "
              f"| {times['wait'] / theirs:.2f} | {times['never'] / theirs:.2f} |", flush=True)
    print("\nscikit-learn's loader records query ids with one np.append per line (quadratic in the documents); "
          "the generated file's ratio shows it.")


if __name__ == "__main__":
    main()
