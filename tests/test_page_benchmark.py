"""The "Benchmark" page, run headless with Streamlit's AppTest.

The page's table, ranks and tests are checked against the library run on the
same inputs: ``run_grid`` (serial) and ``build_report``; resuming is checked
through :func:`rankviz.ui.benchmark_panel.run_benchmark`, the function the
page runs.
"""

import io
import zipfile

import numpy as np
import pandas as pd
import pytest
from apptest_pages import ok, open_page

from rankviz.datasets.samples import load_sample
from rankviz.experiments.grid import MEASURES, Protocol, default_measures, finished_cells, resolve_methods, run_grid
from rankviz.experiments.report import build_report, summary_table
from rankviz.safe_csv import safe_csv
from rankviz.ui import benchmark_panel
from rankviz.ui.benchmark_panel import (BenchmarkChoice, benchmark_methods, cells_text, report_html_bytes,
                                        report_markdown_zip, results_parquet, run_benchmark)

PAGE = "app_pages/benchmark.py"
SAMPLES = ["toy", "iris_nb"]


@pytest.fixture
def app(app_path):
    at = open_page(app_path, PAGE)
    ok(at)
    return at



def frame(at, which):
    """The page's tables: the Table-2 table comes first, the others are known by a column."""
    tables = [d.value for d in at.dataframe]
    if which == "summary":
        return tables[0]
    column = {"numbers": "mean ± sd", "ranks": "average rank"}[which]
    return next(t for t in tables if column in t.columns)


def library_results(measure_folds=3):
    datasets = {name: load_sample(name) for name in SAMPLES}
    return run_grid(resolve_methods(["knn", "default"]), datasets, Protocol(n_splits=measure_folds),
                    backend="serial")


def small_grid(at):
    at.multiselect(key="bench_samples").set_value(SAMPLES)
    at.multiselect(key="bench_methods").set_value(["KNN", "Default"])
    at.selectbox(key="bench_kind").set_value("kfold")
    at.number_input(key="bench_folds").set_value(3).run()
    ok(at)


def test_the_page_shows_the_cell_count_before_running(app):
    small_grid(app)
    assert any(m.value.startswith("12 cells\\: 2 data sets × 2 methods × 3 folds") for m in app.markdown)
    assert any("Run benchmark" in i.value for i in app.info)
    assert not app.get("download_button")


def test_a_small_grid_shows_the_librarys_table_ranks_and_downloads(app):
    small_grid(app)
    app.button(key="bench_run").click().run()
    ok(app)
    assert not app.warning  # not partial
    expected = library_results()
    for measure in ("Kendall tau", "rank loss"):
        app.selectbox(key="bench_measure").set_value(measure).run()
        ok(app)
        library = summary_table(expected, measure)
        shown = frame(app, "summary")
        assert shown.to_numpy().tolist() == library.to_numpy().tolist()
        assert list(shown.index) == list(library.index) and list(shown.columns) == list(library.columns)
        numbers = frame(app, "numbers").set_index(["dataset", "method"])
        for column in ("mean", "sd", "n"):
            table = library.attrs[column]
            for (dataset, method), value in numbers[column].items():
                assert value == pytest.approx(table.at[dataset, method], rel=1e-12, abs=1e-12)
        ranks = frame(app, "ranks")["average rank"]
        report = build_report(expected, [measure]).measures[measure].significance.average_ranks
        np.testing.assert_allclose(ranks.sort_index().to_numpy(), report.sort_index().to_numpy())
        tests = next(m.value for m in app.markdown if m.value.startswith("- Average ranks"))
        assert "With 2 methods there is no Friedman test" in tests
        assert app.get("image"), "the critical-difference diagram"
    # One download in a popover, of the format chosen, made in the run (not on click: see chosen_download).
    labels = []
    for fmt in ("csv", "parquet", "html", "md"):
        app.session_state["bench_export_format"] = fmt
        app.run()
        ok(app)
        labels += [b.proto.label for b in app.get("download_button")]
    assert labels == ["Download results (CSV)", "Download results (Parquet)", "Download report (HTML)",
                      "Download report (Markdown, ZIP)"]
    table = expected  # the page's table equals the library's (checked above)
    files = {fmt: benchmark_panel._results_file(table, fmt) for fmt in ("csv", "parquet", "html", "md")}
    assert files["csv"].decode() == safe_csv(table)
    pd.testing.assert_frame_equal(pd.read_parquet(io.BytesIO(files["parquet"])), table.reset_index(drop=True))
    assert files["html"].lstrip().lower().startswith(b"<!doctype html")
    assert zipfile.ZipFile(io.BytesIO(files["md"])).testzip() is None
    # The run is finished: the button says so and cannot start it again.
    assert any("All finished" in m.value for m in app.markdown)


def test_no_data_set_or_no_method_gives_a_note_not_an_error(app):
    app.multiselect(key="bench_samples").set_value([]).run()
    ok(app)
    assert any("data set" in i.value for i in app.info)
    app.multiselect(key="bench_samples").set_value(["toy"])
    app.multiselect(key="bench_methods").set_value([]).run()
    ok(app)
    assert any("method" in i.value for i in app.info)


def test_a_protocol_that_does_not_fit_gives_a_warning(app):
    app.multiselect(key="bench_samples").set_value(["toy"])  # 16 rows
    app.number_input(key="bench_folds").set_value(40).run()
    ok(app)
    assert any("does not fit" in w.value for w in app.warning)


def test_one_data_set_shows_the_table_and_says_why_there_are_no_tests(app):
    app.multiselect(key="bench_samples").set_value(["toy"])
    app.multiselect(key="bench_methods").set_value(["KNN", "Default"])
    app.number_input(key="bench_folds").set_value(3).run()
    app.button(key="bench_run").click().run()
    ok(app)
    assert any(i.value.startswith("No tests") for i in app.info)
    assert frame(app, "summary").shape == (1, 2)


def test_the_methods_are_the_catalogs_with_the_pages_settings():
    methods = benchmark_methods(["Default", "KNN", "LRT", "IBLR"], knn_k=5, iblr_k=3, lrt_leaf=7)
    assert list(methods) == ["LRT", "IBLR", "KNN (k=5)", "Default"]
    assert methods["LRT"].min_samples_leaf == 7 and methods["IBLR"].n_neighbors == 3
    assert methods["KNN (k=5)"].n_neighbors == 5
    assert list(benchmark_methods(["KNN", "Default"])) == list(resolve_methods(["knn", "default"]))
    forest = benchmark_methods(["RankingForest"])["RankingForest"]
    assert forest.get_params() == resolve_methods(["forest"])["RankingForest"].get_params()


def test_cells_text_counts_every_protocol():
    datasets = {name: load_sample(name) for name in SAMPLES}
    assert cells_text(datasets, 3, Protocol(n_splits=4)) == (24, "24 cells: 2 data sets × 3 methods × 4 folds")
    total, text = cells_text(datasets, 2, Protocol(kind="repeated_kfold", n_splits=3, n_repeats=2))
    assert total == 24 and "2 repetitions × 3 folds" in text
    total, _ = cells_text(datasets, 2, Protocol(kind="loo"))
    assert total == 2 * (16 + 150)
    assert cells_text(datasets, 1, Protocol(kind="holdout", n_repeats=3))[0] == 6


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stopped_run_continues_with_the_finished_cells(tmp_path, workers):
    datasets = {name: load_sample(name) for name in SAMPLES}
    protocol = Protocol(n_splits=3)
    path = tmp_path / "results.csv"
    # A stopped run: only the Default cells (6 of the 12) are in the file.
    run_grid(resolve_methods(["default"]), datasets, protocol, results=path, backend="serial")
    assert len(finished_cells(path)) == 6
    calls = []
    choice = BenchmarkChoice(datasets, ("sample:toy", "sample:iris_nb"), benchmark_methods(["KNN", "Default"]),
                             protocol, workers)
    table, note = run_benchmark(choice, path, lambda share, text: calls.append((share, text)))
    assert note == ""
    assert calls[0] == (0.0, "6 of 12 cells (6 from before)")
    assert calls[-1] == (1.0, "12 of 12 cells (6 from before)")
    assert len(calls) == 1 + 6  # the start and the 6 cells that were left
    expected = library_results()
    key = ["cell", "measure"]
    pd.testing.assert_frame_equal(table.sort_values(key)[key + ["value"]].reset_index(drop=True),
                                  expected.sort_values(key)[key + ["value"]].reset_index(drop=True))


def test_the_downloads_hold_the_results_and_the_report():
    results = library_results()
    back = pd.read_parquet(io.BytesIO(results_parquet(results)))
    pd.testing.assert_frame_equal(back, results)
    html = report_html_bytes(results).decode("utf-8")
    assert html.startswith("<!DOCTYPE html>") and html.count("<figure><svg") == len(default_measures([]))  # inlined
    assert "KNN (k=1)" in html and "Wilcoxon" in html
    with zipfile.ZipFile(io.BytesIO(report_markdown_zip(results))) as archive:
        names = set(archive.namelist())
    assert "benchmark_report.md" in names
    assert sum(name.endswith(".png") for name in names) == len(default_measures([]))
    assert sum(name.endswith(".svg") for name in names) == len(default_measures([]))


def test_an_uploaded_file_joins_the_grid_under_its_name(app):
    """The shared picker's upload (a benchmark-format file) becomes one more data set of the grid."""
    from rankviz.datasets.label_ranking import load_benchmark
    from rankviz.ui.upload import upload_digest

    rows = ["30,2,3"] + [f"{i % 3},{(i * 7) % 5},{'1,2,3' if i % 2 else '3,1,2'}" for i in range(30)]
    content = ("\n".join(rows) + "\n").encode()
    name = "my_ranks.txt"
    app.multiselect(key="bench_samples").set_value(["toy"])
    app.multiselect(key="bench_methods").set_value(["KNN", "Default"])
    app.number_input(key="bench_folds").set_value(3)
    app.toggle(key="bench_upload").set_value(True).run()
    ok(app)
    app.selectbox(key="dataset").set_value("__upload__").run()
    app.file_uploader(key="upload_file").set_value((name, content, "text/plain")).run()
    radio = f"upload_kind_{upload_digest(name, content)}"
    if app.radio(key=radio).value != "benchmark":
        app.radio(key=radio).set_value("benchmark").run()
    ok(app)
    # 2 data sets × 2 methods × 3 folds, counted before the run.
    assert any(m.value.startswith("12 cells\\: 2 data sets × 2 methods × 3 folds") for m in app.markdown)
    app.button(key="bench_run").click().run()
    ok(app)
    summary = frame(app, "summary")
    uploaded = load_benchmark(io.BytesIO(content), name=name)
    assert set(summary.index) == {"toy", uploaded.name}
    expected = run_grid(resolve_methods(["knn", "default"]),
                        {"toy": load_sample("toy"), uploaded.name: uploaded}, Protocol(n_splits=3),
                        backend="serial")
    library = summary_table(expected, "Kendall tau")
    assert summary.loc[uploaded.name].tolist() == library.loc[uploaded.name].tolist()
