"""scikit-lr on the outer folds of the Table-2 grid (benchmarks/bench_label_ranking.py), to compare on the same rows.

scikit-lr 0.3.0 needs Python 3.13, so it runs in its own interpreter
(``--sklr-python``, e.g. a virtual environment with ``pip install
scikit-lr==0.3.0``); this script hands it each file's folds, those of the
grid's protocol (5 × 10-fold below 10,000 rows, 1 × 10-fold above, the
same seed), and records one row per (file, method, repetition, fold) in
``--results`` (CSV; finished files are not run again):

* ``sklr tree``: ``DecisionTreeLabelRanker(random_state=0)``, grown fully;
* ``sklr kNN``: ``KNeighborsLabelRanker`` with ``n_neighbors`` chosen by
  ``GridSearchCV`` (5 inner folds, Kendall tau) over rankviz's k grid
  (values above the inner training sets left out), on files of at most
  ``--knn-max-rows`` rows (its search of every k takes hours on the larger
  ones).

With ``--grid FILE`` (the Table-2 grid's results, e.g. the two files of
``benchmarks/results/`` joined) it then prints, per file, the mean Kendall
tau of every method of both, averaged over the rows of all folds, and the
differences that the goal of issue 36 reads (our tuned tree against
scikit-lr's tree, IBLR against its kNN).

Run: .venv/bin/python benchmarks/bench_sklr_label_ranking.py --sklr-python /tmp/sklr/bin/python
     [--datasets iris wine ...] [--results benchmarks/results/sklr_table2_folds.csv]
     [--grid benchmarks/results/table2_13_files.csv benchmarks/results/table2_large_files.csv]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from rankviz.datasets import available_label_ranking_sets
from rankviz.experiments.grid import Protocol, read_results
from rankviz.label_ranking.neighbourhood_size import DEFAULT_K_GRID
from common import add_data_option, load_label_ranking, machine  # benchmarks/common.py, beside this script

LARGE = 10_000  # as bench_label_ranking.py: files above this many rows get one repetition
REPETITIONS = 5
SEED = 0

# Run by --sklr-python on one file: the rows, the ranks and each cell's test rows in; per-cell means out (JSON).
SKLR_SCRIPT = """
import json, sys
import numpy as np
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV, KFold
from sklr.metrics import kendall_tau_score
from sklr.neighbors import KNeighborsLabelRanker
from sklr.tree import DecisionTreeLabelRanker
data = np.load(sys.argv[1])
X, Y, cells, grid = data["X"], data["Y"].astype(np.int64), data["cells"], [int(k) for k in data["grid"]]
run_knn = bool(data["knn"])
out = []
for repetition, fold in sorted({(int(r), int(f)) for r, f in cells.T}):
    test = (cells[0] == repetition) & (cells[1] == fold)
    train = ~test
    tree = DecisionTreeLabelRanker(random_state=0).fit(X[train], Y[train])
    out.append(["sklr tree", repetition, fold, float(kendall_tau_score(Y[test], tree.predict(X[test]))),
                int(test.sum())])
    if not run_knn:
        continue
    inner = KFold(5, shuffle=True, random_state=0)
    cut = sorted({min(k, int(train.sum() * 4 // 5)) for k in grid})
    search = GridSearchCV(KNeighborsLabelRanker(), {"n_neighbors": cut}, cv=inner,
                          scoring=make_scorer(kendall_tau_score)).fit(X[train], Y[train])
    out.append(["sklr kNN", repetition, fold, float(kendall_tau_score(Y[test], search.predict(X[test]))),
                int(test.sum())])
print(json.dumps(out))
"""


def fold_cells(n_rows: int) -> np.ndarray:
    """(repetition, fold) of each row's test fold, one column per cell: the grid's protocol, as bench_label_ranking."""
    repetitions = 1 if n_rows > LARGE else REPETITIONS
    kind = "kfold" if repetitions == 1 else "repeated_kfold"
    protocol = Protocol(kind, n_splits=10, n_repeats=repetitions, seed=SEED)
    columns = []
    for repetition, fold, _, test in protocol.splits(n_rows):
        columns.append(np.stack([np.full(test.size, repetition), np.full(test.size, fold), test]))
    return np.concatenate(columns, axis=1)


def run_sklr(python: str, name: str, X: np.ndarray, Y: np.ndarray, knn: bool) -> pd.DataFrame:
    """scikit-lr's two rankers on every cell of ``name``: one row per (method, repetition, fold)."""
    cells = fold_cells(len(Y))
    frames = []
    # one call per repetition: every row is a test row once in it, so the cells' rows line up with X
    for repetition in np.unique(cells[0]):
        own = cells[:, cells[0] == repetition]
        order = np.argsort(own[2])
        with tempfile.TemporaryDirectory() as folder:
            arrays = Path(folder) / "cells.npz"
            np.savez(arrays, X=X, Y=Y.astype(np.int64), cells=own[:2, order], grid=np.array(DEFAULT_K_GRID),
                     knn=np.array(knn))
            done = subprocess.run([python, "-c", SKLR_SCRIPT, str(arrays)], capture_output=True, text=True)
        if done.returncode:
            raise SystemExit(f"scikit-lr failed on {name}: {done.stderr.strip().splitlines()[-1]}")
        frames.append(pd.DataFrame(json.loads(done.stdout), columns=["method", "repetition", "fold", "value",
                                                                     "n_test"]))
    table = pd.concat(frames, ignore_index=True)
    table.insert(0, "dataset", name)
    return table


def row_mean(table: pd.DataFrame) -> pd.Series:
    """Mean over the held-out rows of all cells, per (dataset, method)."""
    weighted = table.assign(total=table["value"] * table["n_test"])
    sums = weighted.groupby(["dataset", "method"])[["total", "n_test"]].sum()
    return sums["total"] / sums["n_test"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_data_option(parser)
    parser.add_argument("--sklr-python", required=True, help="a Python that imports scikit-lr (sklr)")
    parser.add_argument("--datasets", nargs="*", help="set names (default: every complete-ranking set available)")
    parser.add_argument("--results", type=Path, default=Path("benchmarks/results/sklr_table2_folds.csv"))
    parser.add_argument("--grid", nargs="*", type=Path, default=[], help="the Table-2 grid's results files")
    parser.add_argument("--knn-max-rows", type=int, default=1000, help="largest file scikit-lr's kNN runs on")
    args = parser.parse_args()
    print(f"machine: {machine()}\n")
    names = args.datasets or available_label_ranking_sets("complete")
    done = pd.read_csv(args.results) if args.results.exists() else pd.DataFrame(columns=["dataset"])
    for name in names:
        if name in set(done["dataset"]):
            continue
        dataset = load_label_ranking(args.data, name, required=False)
        if dataset is None:
            print(f"({name}: not in the data home, skipped)")
            continue
        print(f"{name}: {len(dataset.Y):,} rows ...", flush=True)
        table = run_sklr(args.sklr_python, name, np.asarray(dataset.X, dtype=float), np.asarray(dataset.Y),
                         knn=len(dataset.Y) <= args.knn_max_rows)
        done = pd.concat([done, table], ignore_index=True) if len(done) else table
        done.to_csv(args.results, index=False)
    means = row_mean(done).unstack()
    if args.grid:
        grid = pd.concat([read_results(path) for path in args.grid], ignore_index=True)
        grid = grid[grid["measure"] == "Kendall tau"]
        means = means.join(row_mean(grid).unstack(), how="left")
        means["lrt − sklr tree"] = means["lrt"] - means["sklr tree"]
        if "sklr kNN" in means:
            means["iblr − sklr kNN"] = means["iblr"] - means["sklr kNN"]
    columns = list(means.columns)
    print("| data set | " + " | ".join(columns) + " |")
    print("|---|" + "---:|" * len(columns))
    for name, row in means.iterrows():
        print(f"| {name} | " + " | ".join("–" if pd.isna(v) else f"{v:+.3f}" if "−" in c else f"{v:.3f}"
                                          for c, v in row.items()) + " |")


if __name__ == "__main__":
    main()
