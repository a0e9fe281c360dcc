"""Choosing a data set: a sample from ``sample_data/`` or an uploaded file.

An upload larger than :data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES` is refused by the
uploader itself and, should one arrive anyway, before its bytes are parsed;
a file that cannot be read shows one sentence naming the line and column
(``st.error``), never a traceback. Under the chosen data set a caption says
how many feature values are missing, if any, and another which convention
the rank positions were written in when they were not average positions
(dense or competition ranks, gaps: ``RankingDataset.rank_convention``). The choice, an upload and its
options are kept for the session, across the pages that share the picker;
:func:`picked_tree_defaults` gives the tree settings the picked sample
suggests.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from ..datasets.formats import sniff_label_ranking_format
from ..datasets.label_ranking import RankingDataset, load_benchmark, load_csv
from ..datasets.reading import MISSING_IN_WORDS, describe_missing_features, read_csv_header
from ..datasets.samples import list_samples, load_sample, sample_info, sample_tree_defaults
from ..exceptions import DataError
from .text import counted, md_escape
from .upload import named_buffer, receive_upload, show_problem
from .url_state import UrlField, choice

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

UPLOAD = "__upload__"
DATASET_KEY = "dataset"
_TARGET_KINDS = {
    "ranks": "Rank positions: one column per label (1 = best)",
    "scores": "Scores: one column per label (higher = better)",
    "ordering": "One ordering column, e.g. b>a>c (a=b for ties)",
}


@st.cache_data(show_spinner=False)
def _cached_sample(name: str) -> RankingDataset:
    dataset = load_sample(name)
    assert isinstance(dataset, RankingDataset)  # a label-ranking sample: the picker lists only those
    return dataset


@st.cache_data(show_spinner=False, max_entries=8)
def _cached_upload(content: bytes, file_name: str, kind: str,
                   options: tuple[tuple[str, ...], str, tuple[str, ...]] | None) -> RankingDataset:
    buffer = named_buffer(content, file_name)
    if kind == "benchmark":
        return load_benchmark(buffer, name=file_name)
    assert options is not None  # a CSV comes with its columns
    feature_columns, target, target_columns = options
    return load_csv(buffer, list(feature_columns), target, list(target_columns), name=file_name)


def dataset_picker(container: DeltaGenerator | None = None) -> tuple[RankingDataset | None, str | None]:
    """Sidebar widgets to pick a data set.

    Parameters
    ----------
    container : streamlit container, optional
        Where the widgets go; defaults to the sidebar.

    Returns
    -------
    dataset : RankingDataset or None
        None until an upload is complete and valid (the problem is shown).
    key : str or None
        Identifies the data set for caching fitted models; None while
        ``dataset`` is None.
    """
    container = container or st.sidebar
    names = list_samples("label_ranking")
    titles = {name: sample_info(name)["title"] for name in names}
    titles[UPLOAD] = "Upload your own file…"
    choice = container.selectbox(
        "Data set", options=names + [UPLOAD], format_func=titles.__getitem__, key=DATASET_KEY,
        persist_state="session", help="Samples made by the scripts in sample_data/, or a CSV file of your own.",
    )
    dataset: RankingDataset | None
    key: str | None
    if choice != UPLOAD:
        dataset, key = _cached_sample(choice), f"sample:{choice}"
    else:
        dataset, key = _upload(container)
    if dataset is not None:
        missing_caption(container, dataset.n_missing_features, dataset.X.size)
        convention_caption(container, dataset)
    return dataset, key


def picked_tree_defaults() -> dict[str, int]:
    """The tree settings the picked sample suggests (its ``tree_defaults``); none for an upload.

    See :func:`rankviz.datasets.samples.sample_tree_defaults`; for
    :func:`rankviz.ui.tree_panel.tree_settings`.
    """
    choice = st.session_state.get(DATASET_KEY)
    if choice is None or choice == UPLOAD:
        return {}
    return _cached_tree_defaults(choice)


@st.cache_data(show_spinner=False)
def _cached_tree_defaults(name: str) -> dict[str, int]:
    return sample_tree_defaults(name)


def missing_caption(container: DeltaGenerator, n_missing: int, n_cells: int) -> None:
    """A caption such as "12 feature values missing (0.4%)"; nothing when none is missing."""
    text = describe_missing_features(n_missing, n_cells)
    if text:
        container.caption(text, help=f"Read as missing: {MISSING_IN_WORDS}. Trees send a missing value to the "
                                     "side their split chose for missing values in training.")


def convention_caption(container: DeltaGenerator, dataset: RankingDataset) -> None:
    """A caption such as "Rank positions read as dense ranks (...)"; nothing when none was converted.

    See :class:`rankviz.datasets.rank_conventions.RankConvention`: only
    the order of each row's labels is kept, whatever the convention.
    """
    convention = dataset.rank_convention
    if convention is not None and convention.converted:
        container.caption(md_escape(convention.text))


def data_table(dataset: RankingDataset) -> None:
    """The data set folded in an expander: its name and size as the label, its description and table inside."""
    with st.expander(f"Data: {md_escape(dataset.name)} — {counted(dataset.n_samples, 'example')}, "
                     f"{counted(len(dataset.feature_names), 'attribute')}, {counted(dataset.n_labels, 'label')}"):
        st.write(dataset.description)
        st.dataframe(dataset.to_frame(), height=240)


def dataset_url_field() -> UrlField:
    """The data set as a URL parameter (samples only: an upload cannot travel in a link)."""
    return UrlField("data", DATASET_KEY, choice(list_samples("label_ranking")),
                    show=lambda name: None if name in (UPLOAD, None) else str(name))


def _upload(container: DeltaGenerator) -> tuple[RankingDataset | None, str | None]:
    upload = receive_upload(
        container, "Data file", None, "upload_file",
        "A CSV with a header row (separated by commas, semicolons or tabs), or the benchmark "
        "format (first line n,d,L); any file name, the content decides.")
    if upload is None:
        return None, None
    content, digest = upload.content, upload.digest
    guess = sniff_label_ranking_format(content)
    kinds = ["csv", "benchmark"]
    kind = container.radio(
        "File format", kinds, index=kinds.index(guess.format), key=f"upload_kind_{digest}", horizontal=True,
        format_func={"csv": "CSV with header", "benchmark": "Benchmark (n,d,L)"}.get, persist_state="session",
    )
    if guess.reason and kind == guess.format:
        container.caption(f"Detected the benchmark format: {md_escape(guess.reason)}.")
    try:
        if kind == "benchmark":
            dataset = _cached_upload(content, upload.name, "benchmark", None)
            return dataset, f"upload:{digest}:benchmark"
        header = read_csv_header(upload.buffer())
        target = container.radio("Target", list(_TARGET_KINDS), format_func=_TARGET_KINDS.get,
                                 key=f"upload_target_{digest}", persist_state="session")
        if target == "ordering":
            column = container.selectbox("Ordering column", header, index=len(header) - 1,
                                         key=f"upload_ordering_{digest}", persist_state="session")
            target_columns = [column]
        else:
            target_columns = container.multiselect(
                "Label columns", header, key=f"upload_labels_{digest}", persist_state="session",
                help="One column per label; the column name is the label's name.")
        rest = [c for c in header if c not in target_columns]
        feature_columns = container.multiselect("Feature columns", rest, default=rest,
                                                key=f"upload_features_{digest}", persist_state="session")
        if not target_columns or not feature_columns:
            container.info("Choose the label columns and at least one feature column.")
            return None, None
        options = (tuple(feature_columns), target, tuple(target_columns))
        dataset = _cached_upload(content, upload.name, "csv", options)
        return dataset, f"upload:{digest}:{options!r}"
    except DataError as error:
        show_problem(container, error)
        return None, None


