"""The Benchmark page's widgets: choose a grid, run it with progress and Stop, show its report.

A grid is every chosen method on every chosen data set under one protocol
(:func:`rankviz.experiments.grid.run_grid`); the page shows the Table-2
style table of one measure (Cheng, Hühn & Hüllermeier 2009), the
wins/ties/losses, the tests of Demšar (2006) in words and the
critical-difference diagram (:func:`rankviz.experiments.report.build_report`),
and offers the results as CSV and Parquet and the report as HTML and
Markdown.

The results go, one finished cell at a time, to a file of the session in
the temporary folder, named by the grid's settings
(:func:`results_path`): after **Stop**, pressing **Run benchmark** again
runs only the cells not yet there, and the page shows the finished cells
meanwhile, marked partial. Nothing here computes a statistic or draws a
figure: the library does.

References
----------
.. [1] J. Demšar, "Statistical comparisons of classifiers over multiple data
   sets", Journal of Machine Learning Research 7, pp. 1-30, 2006.
.. [2] W. Cheng, J. Hühn and E. Hüllermeier, "Decision tree and
   instance-based learning for label ranking", ICML 2009, pp. 161-168.
"""

from __future__ import annotations

import io
import os
import tempfile
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st
from sklearn.base import BaseEstimator, clone

from ..datasets.label_ranking import RankingDataset
from ..datasets.samples import list_samples, load_sample, sample_info
from ..experiments.grid import MEASURES, Protocol, default_measures, read_results, run_grid, standard_methods
from ..experiments.report import (build_report, describe_tests, report_archive, report_html, summary_table,
                                  wins_ties_losses)
from ..label_ranking.neighbourhood_size import DEFAULT_K_GRID
from ..safe_csv import safe_csv
from ..tree.ranking_tree import RankingTree
from ..viz.figures.critical_difference import figure_bytes
from .data_picker import UPLOAD, DATASET_KEY, dataset_picker
from .evaluation_panel import knn_k_input, knn_name
from .export_panel import chosen_download
from .long_run import background, error_text, short_hash
from .text import counted, md_escape

__all__ = ["BenchmarkChoice", "METHOD_NAMES", "benchmark_choice", "benchmark_methods", "benchmark_report",
           "benchmark_results", "benchmark_run", "numbers_table",
           "cells_text", "report_html_bytes", "report_markdown_zip", "results_parquet", "results_path",
           "run_benchmark"]

#: The methods offered, as the grid's catalog names them (KNN gets its k in its name).
METHOD_NAMES = ("LRT", "IBLR", "CC", "KNN", "Default", "RankingTree", "RankingForest")
METHOD_HELP = {
    "LRT": "label ranking tree of Cheng et al. (Mallows model, no pruning)",
    "IBLR": "instance-based label ranking, Mallows aggregation of the k nearest neighbours",
    "CC": "constraint classification (pairwise linear model)",
    "KNN": "the k nearest training examples' mean ranking",
    "Default": "the mean ranking of all training rankings",
    "RankingTree": "the ranking tree of Rebelo et al. (mean Spearman criterion)",
    "RankingForest": "100 mean-Spearman trees on bootstrap samples, voting by the Borda count",
}
PROTOCOLS = {"kfold": "k-fold", "repeated_kfold": "Repeated k-fold", "loo": "Leave-one-out",
             "holdout": "Hold-out"}
IBLR_K_OPTIONS: list[int | str] = ["auto", *DEFAULT_K_GRID]
DEFAULT_SAMPLES = ["iris_nb", "toy", "wine_nb"]
DEFAULT_METHODS = ["LRT", "KNN", "Default"]
#: Where the results files of the sessions go.
RESULTS_FOLDER = os.path.join(tempfile.gettempdir(), "rankviz_bench")
KEY = "bench"


@dataclass(frozen=True)
class BenchmarkChoice:
    """A grid chosen on the page.

    Attributes
    ----------
    datasets : dict of str -> RankingDataset
    data_keys : tuple of str
        What identifies each data set (a sample's name, an upload's digest).
    methods : dict of str -> estimator
    protocol : Protocol
    workers : int
        Local processes; 1 runs the cells in the page's own process.
    """

    datasets: dict[str, RankingDataset]
    data_keys: tuple[str, ...]
    methods: dict[str, BaseEstimator]
    protocol: Protocol
    workers: int

    @property
    def measures(self) -> tuple[str, ...]:
        """The measures of the grid: all, τx only where a data set has ties (``default_measures``)."""
        return default_measures(dataset.Y for dataset in self.datasets.values())

    @property
    def signature(self) -> tuple:
        """Everything the results depend on (not the workers)."""
        return (self.data_keys, tuple((name, repr(method)) for name, method in self.methods.items()),
                repr(self.protocol), self.measures)


def benchmark_methods(names: Sequence[str], *, knn_k: int | str = 1, iblr_k: int | str = "auto",
                      lrt_leaf: int = 2) -> dict[str, BaseEstimator]:
    """The catalog's methods by name, with the page's settings.

    Parameters
    ----------
    names : sequence of str
        Some of :data:`METHOD_NAMES`, in any order (the catalog's order is kept).
    knn_k, iblr_k : int or "auto"
        Neighbours of KNN (named ``"KNN (k=…)"``) and IBLR.
    lrt_leaf : int
        The LRT's ``min_samples_leaf``.

    Returns
    -------
    dict of str -> estimator
        Unfitted copies of :func:`rankviz.experiments.grid.standard_methods`,
        but the LRT: the unpruned tree of the catalog's criterion with
        ``lrt_leaf`` (the catalog's is tuned by inner cross-validation).
    """
    catalog = standard_methods()
    methods = {}
    for name in METHOD_NAMES:
        if name not in names:
            continue
        if name == "KNN":
            methods[knn_name(knn_k)] = clone(catalog["KNN (k=1)"]).set_params(n_neighbors=knn_k)
        elif name == "LRT":
            # The page's LRT is the unpruned tree with its leaf size: the catalog's (the command
            # line's) chooses leaf size and γ by inner CV, about 30 growths per cell.
            methods[name] = RankingTree(criterion=catalog[name].criterion, gamma=np.inf,
                                        min_samples_leaf=int(lrt_leaf))
        elif name == "IBLR":
            methods[name] = clone(catalog[name]).set_params(n_neighbors=iblr_k)
        else:
            methods[name] = clone(catalog[name])
    return methods


def cells_text(datasets: Mapping[str, RankingDataset], n_methods: int, protocol: Protocol) -> tuple[int, str]:
    """The number of cells of a grid and a sentence such as "36 cells: 3 data sets × 3 methods × 4 folds".

    Raises
    ------
    ValueError
        When the protocol does not fit a data set (e.g. more folds than rows).
    """
    splits = {name: sum(1 for _ in protocol.splits(dataset.n_samples)) for name, dataset in datasets.items()}
    total = n_methods * sum(splits.values())
    head = f"{counted(total, 'cell')}: {counted(len(datasets), 'data set')} × {counted(n_methods, 'method')}"
    if protocol.kind == "loo":
        return total, f"{head} × one split per row ({counted(sum(splits.values()), 'row')} in all)"
    if protocol.kind == "holdout":
        return total, f"{head} × {counted(protocol.n_repeats, 'hold-out split')}"
    folds = counted(protocol.n_splits, "fold")
    if protocol.kind == "repeated_kfold":
        return total, f"{head} × {counted(protocol.n_repeats, 'repetition')} × {folds}"
    return total, f"{head} × {folds}"


def results_path(session: str, signature: object) -> str:
    """The session's results file of a grid: ``<tmp>/rankviz_bench/<session>-<digest of the settings>.csv``.

    Only the library reads and writes it (:func:`run_grid`, :func:`read_results`).
    """
    return os.path.join(RESULTS_FOLDER, f"{session}-{short_hash(signature)}.csv")


def run_benchmark(choice: BenchmarkChoice, path: str | os.PathLike,
                  progress: Callable[[float | None, str], None] | None = None) -> tuple[pd.DataFrame, str]:
    """Run the cells of ``choice`` not yet in ``path``; the full table and a note.

    Parameters
    ----------
    choice : BenchmarkChoice
    path : str or os.PathLike
        The results file (:func:`results_path`); finished cells found there
        are skipped, so a stopped run continues.
    progress : callable, optional
        ``progress(share, text)``: the share of this run's cells done and
        "12 of 36 cells (6 from before)".

    Returns
    -------
    table : DataFrame
        The grid's tidy results (:func:`rankviz.experiments.grid.run_grid`).
    note : str
        Empty, or why the cells ran in this process instead of worker processes.
    """
    before: list[int] = []

    def report(done: int, total: int, elapsed: float, remaining: float) -> None:
        if not before:
            before.append(done)
        share = (done - before[0]) / max(1, total - before[0])
        text = f"{done} of {counted(total, 'cell')}" + (f" ({before[0]} from before)" if before[0] else "")
        if progress is not None:
            progress(share, text)

    if choice.workers > 1:
        try:
            return run_grid(choice.methods, choice.datasets, choice.protocol, backend="processes",
                            n_jobs=choice.workers, results=path, progress=report, measures=choice.measures), ""
        except (OSError, RuntimeError, ImportError) as error:  # no worker processes here: run them in this one
            before.clear()
            note = f"Worker processes failed ({error_text(error)}); the cells ran one after the other instead."
            return run_grid(choice.methods, choice.datasets, choice.protocol, backend="serial", results=path,
                            progress=report, measures=choice.measures), note
    return run_grid(choice.methods, choice.datasets, choice.protocol, backend="serial", results=path,
                    progress=report, measures=choice.measures), ""


def benchmark_results(path: str | os.PathLike, measures: Sequence[str] = tuple(MEASURES)) -> pd.DataFrame:
    """The finished cells of a results file (every one of ``measures`` present), or an empty table."""
    return read_results(path, tuple(measures))


def results_parquet(table: pd.DataFrame) -> bytes:
    """The results table as Parquet bytes."""
    buffer = io.BytesIO()
    table.to_parquet(buffer, index=False)
    return buffer.getvalue()


def report_html_bytes(table: pd.DataFrame) -> bytes:
    """The report of every measure as one self-contained HTML page (:func:`rankviz.experiments.report.report_html`)."""
    return report_html(build_report(table)).encode("utf-8")


def report_markdown_zip(table: pd.DataFrame) -> bytes:
    """The Markdown report with its diagrams in one ZIP file (:func:`rankviz.experiments.report.report_archive`)."""
    return report_archive(build_report(table), "benchmark_report")


@st.cache_data(show_spinner="Writing the file…", max_entries=8)
def _results_file(table: pd.DataFrame, fmt: str) -> bytes:
    """The results or the report as the bytes of format ``fmt``, once per table (hashed by its content)."""
    writers = {"csv": lambda: safe_csv(table).encode("utf-8"), "parquet": lambda: results_parquet(table),
               "html": lambda: report_html_bytes(table), "md": lambda: report_markdown_zip(table)}
    return writers[fmt]()


# -- widgets --------------------------------------------------------------------------

def _want_upload() -> None:
    if st.session_state.get(f"{KEY}_upload"):
        st.session_state[DATASET_KEY] = UPLOAD


@st.cache_data(show_spinner=False)
def _sample(name: str) -> RankingDataset:
    dataset = load_sample(name)
    assert isinstance(dataset, RankingDataset)  # a label-ranking sample: the page lists only those
    return dataset


def benchmark_choice() -> BenchmarkChoice | None:
    """The grid's widgets (data sets, methods, protocol, workers); the choice, or None with a note why."""
    samples = list_samples("label_ranking")
    titles = {name: sample_info(name)["title"] for name in samples}
    col_data, col_methods, col_protocol = st.columns([1.1, 1, 1.2], gap="medium")
    with col_data:
        st.header("Data sets")  # h2: the sections sit right under the page title
        # wrap: in a column Streamlit keeps the chips on one scrolling row, which cut the last at 1280 px
        picked = st.multiselect("Samples", samples, default=[s for s in DEFAULT_SAMPLES if s in samples],
                                key=f"{KEY}_samples", persist_state="session", wrap=True,
                                help="The bundled label-ranking samples (sample_data/): "
                                     + " · ".join(f"{name}: {md_escape(title)}" for name, title in titles.items()))
        st.toggle("Add a file of your own", key=f"{KEY}_upload", persist_state="session", on_change=_want_upload,
                  help="Uses the data set picker the other pages share: choose 'Upload your own file…' in it.")
        datasets, keys = {}, []
        for name in picked:
            datasets[name] = _sample(name)
            keys.append(f"sample:{name}")
        if st.session_state.get(f"{KEY}_upload"):
            extra, extra_key = dataset_picker(st.container(border=True))
            if extra is not None and extra_key not in keys:
                assert extra_key is not None  # dataset_picker gives a key with every data set
                name = str(extra.name)
                while name in datasets:
                    name += " (upload)"
                datasets[name] = extra
                keys.append(extra_key)
    with col_methods:
        st.header("Methods")
        names = st.multiselect("Methods", METHOD_NAMES, default=DEFAULT_METHODS, key=f"{KEY}_methods",
                               persist_state="session", label_visibility="collapsed", wrap=True,
                               help=" · ".join(f"{n}: {t}" for n, t in METHOD_HELP.items()))
        knn_k = knn_k_input(st, KEY, disabled="KNN" not in names)
        iblr_k = st.selectbox("IBLR neighbours k", IBLR_K_OPTIONS, key=f"{KEY}_iblr_k", persist_state="session",
                              format_func=lambda k: "auto (inner 5-fold CV)" if k == "auto" else str(k),
                              disabled="IBLR" not in names,
                              help="auto picks k by cross-validation on each training fold (slower).")
        lrt_leaf = st.number_input("LRT minimum leaf size", 1, 100, 2, key=f"{KEY}_lrt_leaf",
                                   persist_state="session", disabled="LRT" not in names,
                                   help="The smallest number of training examples in a leaf of the LRT.")
    with col_protocol:
        st.header("Protocol")
        kind = st.selectbox("Protocol", list(PROTOCOLS), format_func=PROTOCOLS.__getitem__, key=f"{KEY}_kind",
                            persist_state="session", label_visibility="collapsed")
        cols = st.columns(2)
        folds = cols[0].number_input("Folds", 2, 50, 5, key=f"{KEY}_folds", persist_state="session",
                                     disabled=kind not in ("kfold", "repeated_kfold"),
                                     help="k of the k-fold cross-validation.")
        repeats = cols[1].number_input("Repetitions", 1, 20, 5, key=f"{KEY}_repeats", persist_state="session",
                                       disabled=kind not in ("repeated_kfold", "holdout"),
                                       help="New shuffles (repeated k-fold) or random hold-out splits.")
        test_size = cols[0].number_input("Hold-out share", 0.05, 0.95, 0.2, 0.05, key=f"{KEY}_test_size",
                                         persist_state="session", disabled=kind != "holdout",
                                         help="Share of the rows held out for testing.")
        seed = cols[1].number_input("Seed", 0, 1_000_000, 0, key=f"{KEY}_seed", persist_state="session",
                                    help="Seed of the shuffles and of every random step of a cell.")
        missing = st.slider("Missing-label rate p", 0.0, 0.9, 0.0, 0.05, key=f"{KEY}_missing",
                            persist_state="session",
                            help="Each label of each training ranking is deleted with probability p "
                                 "(Cheng et al. 2009); test rankings stay complete.")
        workers = st.number_input("Workers", 1, max(1, os.cpu_count() or 1), 1, key=f"{KEY}_workers",
                                  persist_state="session",
                                  help="Local worker processes; 1 runs the cells in the app's own process.")
    if not datasets:
        st.info("Choose at least one data set.")
        return None
    if not names:
        st.info("Choose at least one method.")
        return None
    repeated = kind in ("repeated_kfold", "holdout")
    try:
        protocol = Protocol(kind=kind, n_splits=int(folds), n_repeats=int(repeats) if repeated else 1,
                            test_size=float(test_size), missing_rate=float(missing), seed=int(seed))
    except ValueError as error:
        st.warning(md_escape(error))
        return None
    methods = benchmark_methods(names, knn_k=knn_k, iblr_k=iblr_k, lrt_leaf=int(lrt_leaf))
    return BenchmarkChoice(datasets, tuple(keys), methods, protocol, int(workers))


def _request_run(path: str) -> None:
    st.session_state[f"{KEY}_requested"] = path
    st.session_state[f"{KEY}_restart"] = True


def _session() -> str:
    return st.session_state.setdefault(f"{KEY}_session", uuid.uuid4().hex[:16])


def benchmark_run(choice: BenchmarkChoice) -> tuple[pd.DataFrame, int] | None:
    """The cell count, the Run button, the progress bar with Stop; the finished cells and the grid's size.

    Returns
    -------
    (table, total) or None
        The tidy results found so far for these settings (possibly none
        or a part) and the number of cells of the grid; None when the
        protocol does not fit the data (a warning says why).
    """
    try:
        total, text = cells_text(choice.datasets, len(choice.methods), choice.protocol)
    except ValueError as error:
        st.warning(f"This protocol does not fit the data: {md_escape(error)}")
        return None
    path = results_path(_session(), choice.signature)
    table = benchmark_results(path, choice.measures)
    done = table["cell"].nunique()
    cols = st.columns([1, 3], vertical_alignment="center")
    label = "Continue the benchmark" if 0 < done < total else "Run benchmark"
    cols[0].button(label, type="primary", icon=":material/play_arrow:", key=f"{KEY}_run", width="stretch",
                   disabled=done >= total, on_click=_request_run, args=(path,),
                   help="Runs the cells not finished yet; Stop keeps the finished ones.")
    status = f"{md_escape(text)}." + (f" {done} finished." if 0 < done < total else
                                      " All finished." if done >= total else "")
    cols[1].markdown(status)
    state = st.session_state
    if state.get(f"{KEY}_requested") == path and done < total:
        try:
            value = background(lambda progress: run_benchmark(choice, path, progress), key=KEY,
                               signature=("benchmark", path), label="Benchmark", keep=False,
                               restart=bool(state.pop(f"{KEY}_restart", False)),
                               stopped_text="The finished cells are kept: \"Continue the benchmark\" runs the rest.",
                               resume_button=False)
        except Exception as error:  # noqa: BLE001 — one message on the page, never a traceback
            state.pop(f"{KEY}_requested", None)
            st.error(f"The benchmark stopped with an error: {md_escape(error_text(error))}")
            value = None
        if value is not None:
            state.pop(f"{KEY}_requested", None)
            state[f"{KEY}_note"] = value[1]
            st.rerun()  # the button and the count above now say it is finished
        table = benchmark_results(path, choice.measures)
    if state.get(f"{KEY}_note"):
        st.caption(md_escape(state[f"{KEY}_note"]))
    return table, total


@st.cache_data(show_spinner=False, max_entries=16)
def _measure_view(table: pd.DataFrame, measure: str) -> dict[str, Any]:
    """What the page shows of one measure; the report's own numbers, tests and diagram."""
    view: dict[str, Any] = {"summary": summary_table(table, measure)}
    view["wtl"] = wins_ties_losses(table, measure)
    try:
        part = build_report(table, [measure]).measures[measure]
    except ValueError as error:
        view["problem"] = error_text(error)
        return view
    view["ranks"] = part.significance.average_ranks.rename("average rank").to_frame()
    view["tests"] = describe_tests(part.significance)
    view["holm"] = part.significance.holm
    view["png"] = figure_bytes(part.figure, "png")
    return view


def _plain(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` without its ``attrs`` (Streamlit cannot serialise tables kept there)."""
    plain = table.copy()
    plain.attrs = {}
    return plain


def numbers_table(summary: pd.DataFrame) -> pd.DataFrame:
    """One row per data set and method: mean, sd, runs, "mean ± sd" and whether it is the best."""
    numbers = summary.attrs
    long = pd.DataFrame({name: numbers[name].stack(future_stack=True) for name in ("mean", "sd", "n")})
    long["mean ± sd"] = summary.stack(future_stack=True)
    long["best"] = numbers["best"].stack(future_stack=True)
    return long.reset_index()


def benchmark_report(table: pd.DataFrame, total: int) -> None:
    """The results of the grid so far: table, wins/ties/losses, tests, diagram and downloads."""
    done = table["cell"].nunique()
    if done == 0:
        st.info("Press **Run benchmark** to compute the grid.")
        return
    st.header("Results")
    if done < total:
        st.warning(f"Partial results: {done} of {counted(total, 'cell')} finished. Press **Continue the "
                   "benchmark** to run the rest.", icon=":material/hourglass_bottom:")
    measured = [m for m in MEASURES if m in set(table["measure"])]
    measure = st.columns([1, 2])[0].selectbox("Measure", measured, key=f"{KEY}_measure", persist_state="session",
                           help="Every measure but the rank loss is better when higher.")
    view = _measure_view(table, measure)
    summary = view["summary"]
    spread = ("mean over the folds of each repetition, then mean ± sd over the repetitions"
              if summary.attrs["spread"] == "repetitions" else "mean ± sd over the folds")
    st.markdown(f"**{md_escape(measure)}** per data set (rows) and method (columns): {spread}; the best "
                "mean of each data set in bold.")
    best = summary.attrs["best"]
    st.dataframe(pd.DataFrame(summary.to_numpy(), index=summary.index, columns=summary.columns).style.apply(
        lambda _: np.where(best.to_numpy(), "font-weight: bold", ""), axis=None), key=f"{KEY}_summary")
    with st.expander("The numbers (mean, sd, runs)"):
        st.dataframe(numbers_table(summary), hide_index=True, key=f"{KEY}_numbers",
                     column_config={"mean": st.column_config.NumberColumn(format="%.4f"),
                                    "sd": st.column_config.NumberColumn(format="%.4f")})
    left, right = st.columns([1, 1.4], gap="large")
    with left:
        st.markdown("**Wins/ties/losses** (row method against column method, over the data sets)")
        st.dataframe(_plain(view["wtl"]), key=f"{KEY}_wtl")
        if "ranks" in view:
            st.markdown("**Average ranks** (1 = best)")
            st.dataframe(view["ranks"], key=f"{KEY}_ranks",
                         column_config={"average rank": st.column_config.NumberColumn(format="%.3f")})
    with right:
        if "problem" in view:
            st.info(f"No tests: {md_escape(view['problem'])}")
        else:
            st.markdown("**Tests** (Demšar 2006)")
            st.markdown("\n".join(f"- {md_escape(line)}" for line in view["tests"]))
            st.markdown("**Wilcoxon signed-rank tests against the control** (Holm-adjusted)")
            number = st.column_config.NumberColumn
            st.dataframe(_plain(view["holm"]), key=f"{KEY}_holm", column_config={
                "mean difference": number("mean diff.", format="%+.3f", help="Method minus the control, averaged "
                                          "over the data sets"),
                "p": number(format="%.3f"), "p (Holm)": number(format="%.3f"),
                "significant": st.column_config.CheckboxColumn("signif.", width="small",
                                                               help="Significant at α = 0.05 after Holm's adjustment")})
    if "png" in view:
        st.image(view["png"], caption=f"Critical-difference diagram of {md_escape(measure)}: methods joined "
                                      "by a bar do not differ significantly (Nemenyi, α = 0.05).",
                 width=760)
    formats = {"csv": ("results (CSV)", "benchmark_results.csv", "text/csv"),
               "parquet": ("results (Parquet)", "benchmark_results.parquet", "application/vnd.apache.parquet")}
    if "problem" not in view:  # a report needs what the tests need
        formats.update({"html": ("report (HTML)", "benchmark_report.html", "text/html"),
                        "md": ("report (Markdown, ZIP)", "benchmark_report.zip", "application/zip")})
    # In a popover: the chosen file is made in the run (see chosen_download) and fetched on click only.
    with st.popover("Download results and report", icon=":material/download:"):
        chosen_download(formats, lambda fmt: _results_file(table, fmt), key=f"{KEY}_export")
