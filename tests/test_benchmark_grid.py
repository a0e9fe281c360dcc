"""Benchmark grids (rankviz.experiments.grid and ``rankviz benchmark``): the table as users get it.

* A cell scores what cross-validation scores on the same folds, with the
  exact tidy schema, and a hand-computed cell with missing labels agrees.
* The table does not depend on where or in what order cells run: serial,
  2 local processes, a real ``distributed.LocalCluster`` (by client and by
  address), reversed method and data set order.
* A run killed mid-way (SIGKILL of the command line) keeps its finished
  cells; running it again gives the table of an uninterrupted run (CSV, and
  Parquet in-process; a cut-off last CSV line is dropped).
* Inner-CV tuning records its chosen settings; command-line errors exit 2
  naming the culprit.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankviz import DefaultRanker, KNNRanker, RankingTree, compare_methods, delete_labels, load_sample
from rankviz.cli import ProgressBar, main
from rankviz.experiments.grid import (COLUMNS, HIGHER_IS_BETTER, MEASURES, Protocol, default_measures, read_results, rank_loss,
                                      run_grid)
from rankviz.label_ranking.metrics import kendall_tau, tau_x

REPO = Path(__file__).resolve().parents[1]
TIMES = ["fit_seconds", "predict_seconds"]

#: The measures a grid computes by default on data without ties (τx only where there are ties).
STRICT_MEASURES = default_measures([])


def small_methods():
    return {"KNN": KNNRanker(n_neighbors=3), "Default": DefaultRanker(),
            "LRT": RankingTree(criterion="mallows", min_samples_leaf=3)}


def small_datasets():
    return {"toy": load_sample("toy"), "iris_nb": load_sample("iris_nb")}


def without_times(table):
    return table.drop(columns=TIMES)


@pytest.fixture(scope="module")
def serial_table():
    return run_grid(small_methods(), small_datasets(), Protocol("repeated_kfold", n_splits=3, n_repeats=2),
                    backend="serial")


# --------------------------------------------------------------------------- #
# what a cell holds
# --------------------------------------------------------------------------- #
def test_the_schema_is_exact_and_cells_score_what_cross_validation_scores(serial_table):
    table = serial_table
    assert tuple(table.columns) == COLUMNS
    assert table.dtypes[["repetition", "fold", "n_train", "n_test", "seed"]].map(str).eq("int64").all()
    assert table.dtypes[["value", "missing_rate"]].map(str).eq("float64").all()
    assert len(table) == 2 * 3 * 2 * 3 * len(STRICT_MEASURES)  # data sets × methods × repetitions × folds × measures
    assert set(table["params"]) == {"{}"} and (table["rankviz_version"] != "").all()
    assert table.groupby("cell").size().eq(len(STRICT_MEASURES)).all()
    iris = load_sample("iris_nb")
    assert (table.loc[table.dataset == "iris_nb", ["n_train", "n_test"]].sum(axis=1) == iris.n_samples).all()

    scores = compare_methods(small_methods(), iris.X, iris.Y, cv=3, repetitions=2)
    expected = scores.groupby(["method", "repetition", "fold"])[["Kendall tau", "CS", "WRC", "LRA"]].mean()
    ours = table[table.dataset == "iris_nb"].pivot_table(index=["method", "repetition", "fold"],
                                                         columns="measure", values="value")
    np.testing.assert_allclose(ours[expected.columns].to_numpy(), expected.loc[ours.index].to_numpy(),
                               rtol=0, atol=1e-12)


def test_a_cell_with_missing_labels_is_computed_by_hand():
    dataset = load_sample("iris_nb")
    protocol = Protocol("kfold", n_splits=4, missing_rate=0.4, seed=3)
    table = run_grid({"KNN": KNNRanker(n_neighbors=5)}, {"iris": dataset}, protocol, backend="serial")
    repetition, fold, train, test = list(protocol.splits(dataset.n_samples))[2]
    Y = np.asarray(dataset.Y, dtype=float)
    Y_train = delete_labels(Y[train], 0.4, seed=[3, repetition, fold])
    assert np.isnan(Y_train).any() and not np.isnan(Y[test]).any()
    predicted = KNNRanker(n_neighbors=5).fit(dataset.X.iloc[train], Y_train).predict(dataset.X.iloc[test])
    row = table[(table.fold == fold) & (table.measure == "Kendall tau")].iloc[0]
    assert row["value"] == pytest.approx(np.nanmean(kendall_tau(Y[test], predicted)), abs=1e-12)
    assert row["missing_rate"] == 0.4 and row["n_test"] == len(test)
    # Without deletions the cell differs: the labels were deleted (from training only).
    complete = KNNRanker(n_neighbors=5).fit(dataset.X.iloc[train], Y[train]).predict(dataset.X.iloc[test])
    assert not np.array_equal(predicted, complete)


def test_data_with_ties_is_also_scored_with_tau_x_by_default():
    rng = np.random.default_rng(2)
    X = pd.DataFrame({"x": rng.random(40)})
    Y = np.where((X["x"] < 0.5).to_numpy()[:, None], [1.0, 2.0, 2.0, 3.0], [2.0, 1.0, 3.0, 3.0])  # dense ranks, ties
    protocol = Protocol("kfold", n_splits=4, seed=1)
    table = run_grid({"default": DefaultRanker()}, {"ties": (X, Y)}, protocol, backend="serial")
    assert set(table["measure"]) == set(MEASURES)  # τx too
    _, fold, train, test = list(protocol.splits(len(Y)))[1]
    predicted = DefaultRanker().fit(X.iloc[train], Y[train]).predict(X.iloc[test])
    row = table[(table.fold == fold) & (table.measure == "τx")].iloc[0]
    assert row["value"] == pytest.approx(np.mean(tau_x(Y[test], predicted)), abs=1e-12)
    # strict rankings: no τx (it equals Kendall tau there)
    assert "τx" not in default_measures([np.argsort(rng.random((5, 4)), axis=1) + 1.0])


def test_inner_cv_tuning_records_the_settings_it_chose():
    methods = {"KNN tuned": (KNNRanker(), {"n_neighbors": [1, 5, 15]})}
    table = run_grid(methods, {"iris": load_sample("iris_nb")}, Protocol(n_splits=3), backend="serial",
                     inner_folds=3)
    chosen = [json.loads(p) for p in table.drop_duplicates("cell")["params"]]
    assert len(chosen) == 3 and all(set(p) == {"n_neighbors"} and p["n_neighbors"] in (1, 5, 15) for p in chosen)


def test_the_rank_loss_counts_reversed_pairs_and_half_the_predicted_ties():
    assert rank_loss([[1, 2, 3]], [[3, 2, 1]]).tolist() == [1.0]
    assert rank_loss([[1, 2, 3]], [[1, 1, 1]]).tolist() == [0.5]
    # a pair tied in the truth, or a missing label, is not counted
    assert rank_loss([[1, 1, 3]], [[2, 1, 3]]).tolist() == [0.0]
    assert rank_loss([[1, np.nan, 2]], [[2, 1, 3]]).tolist() == [0.0]
    # on strict rankings it is (1 - Kendall tau) / 2
    rng = np.random.default_rng(0)
    truth = np.argsort(rng.random((50, 5)), axis=1) + 1.0
    guess = np.argsort(rng.random((50, 5)), axis=1) + 1.0
    np.testing.assert_allclose(rank_loss(truth, guess), (1 - kendall_tau(truth, guess)) / 2)
    assert set(HIGHER_IS_BETTER) == set(MEASURES) and not HIGHER_IS_BETTER["rank loss"]


def test_protocols_split_every_row_once_per_repetition():
    for protocol, n_cells in [(Protocol("loo"), 20), (Protocol("holdout", n_repeats=3, test_size=0.25), 3),
                              (Protocol("repeated_kfold", n_splits=4, n_repeats=2), 8)]:
        splits = list(protocol.splits(20))
        assert len(splits) == n_cells
        for _, _, train, test in splits:
            assert len(np.intersect1d(train, test)) == 0 and len(train) + len(test) == 20
    assert [len(s[3]) for s in Protocol("holdout", test_size=0.25).splits(20)] == [5]
    with pytest.raises(ValueError, match="kind"):
        Protocol("bootstrap")
    with pytest.raises(ValueError, match="repeated_kfold"):
        Protocol("kfold", n_repeats=2)


# --------------------------------------------------------------------------- #
# where and in what order cells run
# --------------------------------------------------------------------------- #
def test_two_local_processes_give_the_serial_table(serial_table):
    table = run_grid(small_methods(), small_datasets(), Protocol("repeated_kfold", n_splits=3, n_repeats=2),
                     backend="processes", n_jobs=2)
    pd.testing.assert_frame_equal(without_times(table), without_times(serial_table))


def test_the_order_of_methods_and_data_sets_does_not_change_the_table(serial_table):
    methods = dict(reversed(list(small_methods().items())))
    datasets = dict(reversed(list(small_datasets().items())))
    table = run_grid(methods, datasets, Protocol("repeated_kfold", n_splits=3, n_repeats=2), backend="serial")
    pd.testing.assert_frame_equal(without_times(table), without_times(serial_table))


def test_a_dask_local_cluster_gives_the_serial_table(serial_table):
    distributed = pytest.importorskip("distributed")
    protocol = Protocol("repeated_kfold", n_splits=3, n_repeats=2)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            by_client = run_grid(small_methods(), small_datasets(), protocol, backend="dask", scheduler=client)
            workers = client.run(os.getpid)
        by_address = run_grid(small_methods(), small_datasets(), protocol, backend="dask",
                              scheduler=cluster.scheduler_address)
    assert len(set(workers.values())) == 2 and os.getpid() not in workers.values()
    pd.testing.assert_frame_equal(without_times(by_client), without_times(serial_table))
    pd.testing.assert_frame_equal(without_times(by_address), without_times(serial_table))


def test_the_cluster_a_run_starts_keeps_the_allocator_and_profiler_out_of_the_cells():
    # Dask's default MALLOC_TRIM_THRESHOLD_ made the cells 17 % slower (LOCAL_CLUSTER_CONFIG's notes).
    pytest.importorskip("distributed")
    import dask.config

    from rankviz.experiments.grid.execution import run_tasks

    trim = list(run_tasks(os.getenv, ["MALLOC_TRIM_THRESHOLD_"], backend="dask"))
    profiling = list(run_tasks(dask.config.get, ["distributed.worker.profile.enabled"], backend="dask"))
    assert trim == [None] and profiling == [False]
    assert dask.config.get("distributed.worker.profile.enabled")  # this process's settings are left as they were


# --------------------------------------------------------------------------- #
# stopping and resuming
# --------------------------------------------------------------------------- #
KILL_ARGS = ["--datasets", "iris_nb", "--methods", "rt", "knn", "default", "--cv", "loo", "--backend", "serial"]
KILL_CELLS = 150 * 3


def rows_in(path):
    return path.read_bytes().count(b"\n") - 1 if path.exists() else 0


def test_a_killed_run_keeps_its_finished_cells_and_resumes_to_the_same_table(tmp_path):
    results = tmp_path / "results.csv"
    command = [sys.executable, "-m", "rankviz", "benchmark", *KILL_ARGS, "--results", str(results)]
    process = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while rows_in(results) < 5 * len(STRICT_MEASURES) and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.005)
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.wait()
    assert process.returncode == -signal.SIGKILL  # killed, not finished
    partial = read_results(results, STRICT_MEASURES)
    written = results.read_text(encoding="utf-8")
    kept_lines = written[:written.rfind("\n") + 1]  # a line cut by the kill is dropped on resuming
    assert 5 <= partial["cell"].nunique() < KILL_CELLS
    assert partial.groupby("cell").size().eq(len(STRICT_MEASURES)).all()

    finished = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    resumed = read_results(results, STRICT_MEASURES)
    assert resumed["cell"].nunique() == KILL_CELLS
    # the cells of the first run were kept as written, not run again: the file only grew after them
    assert results.read_text(encoding="utf-8").startswith(kept_lines)

    fresh_path = tmp_path / "fresh.csv"
    assert main(["benchmark", *KILL_ARGS, "--results", str(fresh_path)]) == 0
    fresh = read_results(fresh_path)
    pd.testing.assert_frame_equal(without_times(resumed), without_times(fresh))


def test_a_cut_off_csv_line_is_dropped_and_the_cell_run_again(tmp_path, serial_table):
    results = tmp_path / "results.csv"
    protocol = Protocol("repeated_kfold", n_splits=3, n_repeats=2)
    run_grid(small_methods(), {"toy": load_sample("toy")}, protocol, results=results, backend="serial")
    data = results.read_bytes()
    results.write_bytes(data[: len(data) - 40])  # the last cell loses its last line and part of another
    damaged = read_results(results, STRICT_MEASURES)
    assert damaged["cell"].nunique() == 3 * 2 * 3 - 1
    table = run_grid(small_methods(), small_datasets(), protocol, results=results, backend="serial")
    pd.testing.assert_frame_equal(without_times(table), without_times(serial_table))
    pd.testing.assert_frame_equal(without_times(read_results(results)), without_times(serial_table))


def test_a_parquet_run_resumes_without_rerunning_finished_cells(tmp_path, serial_table):
    results = tmp_path / "results.parquet"
    protocol = Protocol("repeated_kfold", n_splits=3, n_repeats=2)
    run_grid(small_methods(), {"toy": load_sample("toy")}, protocol, results=results, backend="serial")
    (results / ".part-leftover.parquet.123.tmp").write_bytes(b"half a file")  # a write cut short
    calls = []
    table = run_grid(small_methods(), small_datasets(), protocol, results=results, backend="processes", n_jobs=2,
                     progress=lambda *state: calls.append(state))
    assert calls[0][:2] == (18, 36) and calls[-1][:2] == (36, 36) and len(calls) == 1 + 18
    pd.testing.assert_frame_equal(without_times(table), without_times(serial_table))


# --------------------------------------------------------------------------- #
# the command line
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("args, named", [
    (["--datasets", "toy", "--methods", "knn", "jungle"], "'jungle'"),
    (["--datasets", "toy", "no_such_data", "--methods", "knn"], "'no_such_data'"),
    (["--datasets", "toy", "--cv", "ten"], "'ten'"),
    (["--datasets", "toy", "--cv", "loo", "--repetitions", "3"], "leave-one-out"),
    (["--datasets", "toy", "--jobs", "0"], "--jobs"),
    (["--datasets", "toy", "--backend", "serial", "--scheduler", "tcp://127.0.0.1:1"], "--scheduler"),
])
def test_command_line_errors_exit_2_naming_the_problem(tmp_path, capsys, args, named):
    assert main(["benchmark", *args, "--results", str(tmp_path / "r.csv")]) == 2
    error = capsys.readouterr().err
    assert named in error and "Traceback" not in error
    assert not (tmp_path / "r.csv").exists()


def test_the_command_line_runs_through_python_dash_m(tmp_path):
    results = tmp_path / "r.parquet"
    done = subprocess.run([sys.executable, "-m", "rankviz", "benchmark", "--datasets", "sample:toy", "--methods",
                           "knn", "default", "--cv", "3", "--jobs", "2", "--results", str(results)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "6/6 cells" in done.stderr and "KNN (k=1)" in done.stdout
    assert read_results(results)["cell"].nunique() == 6


def test_the_progress_bar_writes_plain_lines_off_a_terminal():
    stream = io.StringIO()
    bar = ProgressBar(stream)
    # The bar is handed made-up durations (half a unit per cell); nothing is measured here.
    for done in range(0, 101):
        bar(done, 100, done * 0.5, (100 - done) * 0.5)
    lines = stream.getvalue().splitlines()
    assert 10 <= len(lines) <= 12 and "\r" not in stream.getvalue()
    assert lines[0].startswith("[....") and "0/100 cells" in lines[0]
    handed_over = "0:50 elapsed, ~0:00 left"  # 100 x 0.5 written as m:ss, and nothing left
    assert lines[-1].endswith("100/100 cells, " + handed_over)


def test_a_dask_run_whose_workers_are_all_gone_stops_with_a_message_keeping_its_cells(tmp_path):
    """Issue 35: with every worker gone the driver waited for ever; now it says so after worker_timeout."""
    distributed = pytest.importorskip("distributed")
    results = tmp_path / "results.csv"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        def leave_after_some_cells(done, total, elapsed, remaining):
            if done == 3:  # every worker leaves (retiring waits for the cell under way: not in this thread)
                threading.Thread(target=cluster.scale, args=(0,), daemon=True).start()

        started = time.monotonic()
        with pytest.raises(RuntimeError, match=r"no worker for 2 s while \d+ cell\(s\) waited; the finished "
                                               r"cells are kept"):
            run_grid({"lrt": RankingTree(min_samples_leaf=3)}, {"iris": load_sample("iris_nb")},
                     Protocol("loo"), measures=MEASURES, backend="dask", scheduler=client, results=results,
                     progress=leave_after_some_cells, worker_timeout=2)
        assert time.monotonic() - started < 60
    kept = read_results(results, MEASURES)
    assert 3 <= kept["cell"].nunique() < 150


@pytest.mark.parametrize("n_tasks, n_workers", [(0, 2), (5, 2), (160, 2), (2600, 2), (100, 0), (1000, 40)])
def test_dask_batches_deal_every_task_once_and_shrink_to_single_cells(n_tasks, n_workers):
    from rankviz.experiments.grid.execution import CELLS_PER_BATCH, deal_batches

    tasks = list(range(n_tasks))
    batches = deal_batches(tasks, n_workers)
    assert sorted(task for batch in batches for task in batch) == tasks
    sizes = [len(batch) for batch in batches]
    assert all(0 < size <= CELLS_PER_BATCH for size in sizes)
    assert sizes == sorted(sizes, reverse=True)  # guided: the large batches first, ...
    assert sizes[-max(n_workers, 1):] == [1] * min(n_tasks, max(n_workers, 1))  # ... one cell per worker last
    if n_tasks >= 2 * CELLS_PER_BATCH:  # slow cells, adjacent in the grid, spread out
        first = batches[0]
        assert np.diff(first).min() >= n_tasks // CELLS_PER_BATCH - 1
