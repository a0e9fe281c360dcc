"""
A benchmark grid on a Dask cluster
==================================

Comparing label rankers fairly means running every method on every data set
under one protocol: the same folds for every method, every cell (data set ×
method × fold) independent and carrying its own random state.
:func:`rankviz.experiments.run_grid` runs such a grid serially, in local
processes or on a Dask cluster, and returns one tidy table; the report of
:mod:`rankviz.experiments.report` turns it into the tables and tests Demšar
(2006) recommends for comparing methods over several data sets, with a
critical-difference diagram.

This example runs a small grid (three methods, four small data sets,
5-fold cross-validation) on a local Dask cluster of two worker processes.
"""

# %%
# The grid
# --------
# Methods are unfitted label rankers by name; data sets are
# :class:`rankviz.RankingDataset` objects (or ``(X, Y)`` pairs) by name; the
# :class:`rankviz.experiments.Protocol` fixes the splits and their random state, so
# every method is scored on the same folds. Besides the three bundled label
# ranking samples, a fourth data set is drawn by perturbing the wine
# rankings' features.

import time
from pathlib import Path

import numpy as np
from dask.distributed import Client, LocalCluster

from rankviz import DefaultRanker, IBLR, RankingTree, load_sample
from rankviz.experiments import Protocol, run_grid
from rankviz.experiments.report import (build_report, describe_tests, report_html, summary_table,
                                        wins_ties_losses)
from rankviz.viz.figures.critical_difference import figure_bytes

methods = {
    "LRT": RankingTree(criterion="mallows", gamma=1.0, min_samples_leaf=5),
    "IBLR": IBLR(n_neighbors=10),
    "Default": DefaultRanker(),
}
wine = load_sample("wine_nb")
noisy_X = wine.X + np.random.default_rng(0).normal(0.0, 0.5, wine.X.shape) * wine.X.std().to_numpy()
datasets = {
    "iris_nb": load_sample("iris_nb"),
    "wine_nb": wine,
    "wine_nb (noisy features)": (noisy_X, wine.Y),
    "metalearning": load_sample("metalearning"),
}
protocol = Protocol(kind="kfold", n_splits=5, seed=0)

# %%
# A local Dask cluster
# --------------------
# Two worker processes of one thread each. Worker processes are started by
# *spawning* fresh Python interpreters, which import the script that started
# them; as with any code that starts processes, the work is therefore put
# under ``if __name__ == "__main__":``, so that a worker importing this file
# does not start a cluster of its own. (The gallery runs every block as
# ``__main__``.) On a real cluster, ``Client("tcp://scheduler:8786")``
# connects to its scheduler instead.

if __name__ == "__main__":
    cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None)
    client = Client(cluster)
    print(f"{len(client.scheduler_info()['workers'])} workers")

# %%
# Run the grid
# ------------
# ``backend="dask"`` sends each cell to the cluster through joblib;
# ``scheduler`` takes the connected client (or a scheduler address). Cells
# come back as they finish, in any order; the table is sorted. With
# ``results="grid.csv"`` each cell would be written down as it finishes, and
# a second run after a crash would skip the cells already there.

if __name__ == "__main__":
    print(f"{protocol.tag}: {len(methods) * len(datasets) * protocol.n_splits} cells")
    started = time.perf_counter()
    results = run_grid(methods, datasets, protocol, backend="dask", scheduler=client)
    print(f"{results['cell'].nunique()} cells in {time.perf_counter() - started:.1f} s")
    print(results[["dataset", "method", "fold", "measure", "value", "n_train", "n_test"]].head(6)
          .round(4).to_string(index=False))

# %%
# The report
# ----------
# The mean ± sd over folds of each method on each data set (the layout of
# Table 2 of Cheng, Hühn & Hüllermeier (2009)), then the wins, ties and
# losses of each method against each other over the data sets.

if __name__ == "__main__":
    print(summary_table(results, "Kendall tau").to_string())
    print()
    print(wins_ties_losses(results, "Kendall tau").to_string())

# %%
# :func:`rankviz.experiments.report.build_report` ranks the methods on each
# data set, tests whether the average ranks differ (Friedman with the
# Iman-Davenport correction) and which pairs do (Nemenyi), and draws the
# critical-difference diagram: methods joined by a bar are not
# significantly different at α = 0.05. With four data sets the critical
# difference is wide: a small grid can tell few methods apart.
# :func:`~rankviz.experiments.report.describe_tests` states the tests in
# words.

if __name__ == "__main__":
    report = build_report(results, ["Kendall tau", "rank loss"])
    significance = report.measures["Kendall tau"].significance
    for line in describe_tests(significance):
        print("-", line)
    Path("critical_difference.svg").write_bytes(figure_bytes(report.measures["Kendall tau"].figure, "svg"))

# %%
# The whole report, tables, tests in words and both diagrams, as one
# self-contained HTML page (:func:`rankviz.experiments.report.write_report`
# writes it to a ``.html`` or ``.md`` file directly):

if __name__ == "__main__":
    Path("benchmark_report.html").write_text(report_html(report), encoding="utf-8")

# %%
# Close the client and the cluster when done.

if __name__ == "__main__":
    client.close()
    cluster.close()
