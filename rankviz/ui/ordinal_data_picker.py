"""Choosing an ordinal data set: a bundled sample or an uploaded CSV with its level order.

Uploads follow the rules of :mod:`rankviz.ui.data_picker`: at most
:data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, one sentence for a file that cannot
be read, and a caption saying how many feature values are missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import streamlit as st

from ..datasets.ordinal import OrdinalDataset, check_level_order, load_ordinal_csv, read_target_values
from ..datasets.reading import read_csv_header
from ..datasets.samples import list_samples, load_ordinal_sample, sample_info
from ..exceptions import DataError
from .data_picker import missing_caption
from .text import counted, md_escape
from .upload import named_buffer, receive_upload, show_problem

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

UPLOAD = "__upload__"
#: Above this many distinct values a target column is probably not ordinal; say so.
MANY_LEVELS = 20


def parse_upload(content: bytes, file_name: str, target: str, levels: Sequence[object] | None = None,
                 feature_columns: Sequence[str] | None = None) -> OrdinalDataset:
    """Read uploaded CSV bytes as an ordinal dataset (what the picker does, without widgets).

    Parameters
    ----------
    content : bytes
        The file's bytes.
    file_name : str
        The file's name, used in messages and as the dataset name.
    target : str
        The target column.
    levels : sequence, optional
        The levels, lowest first; None for a numeric column's sorted values.
    feature_columns : sequence of str, optional
        The features; None for every other column.

    Returns
    -------
    OrdinalDataset

    Raises
    ------
    DataError
        Whatever :func:`rankviz.datasets.ordinal.load_ordinal_csv` finds wrong.
    """
    return load_ordinal_csv(named_buffer(content, file_name), target,
                            feature_columns=None if feature_columns is None else list(feature_columns),
                            levels=None if levels is None else list(levels), name=file_name)


@st.cache_data(show_spinner=False)
def _cached_sample(name: str) -> OrdinalDataset:
    return load_ordinal_sample(name)


@st.cache_data(show_spinner=False)
def _cached_titles() -> dict[str, str]:
    return {name: sample_info(name)["title"] for name in list_samples("ordinal")}


@st.cache_data(show_spinner=False, max_entries=8)
def _cached_header(content: bytes, file_name: str) -> list[str]:
    return read_csv_header(named_buffer(content, file_name))


@st.cache_data(show_spinner=False, max_entries=8)
def _cached_values(content: bytes, file_name: str, target: str) -> tuple[list[object], bool]:
    return read_target_values(named_buffer(content, file_name), target)


@st.cache_data(show_spinner=False, max_entries=8)
def _cached_upload(content: bytes, file_name: str, target: str, levels: tuple[object, ...] | None,
                   feature_columns: tuple[str, ...]) -> OrdinalDataset:
    return parse_upload(content, file_name, target, levels, feature_columns)


def ordinal_data_picker(container: DeltaGenerator | None = None,
                        key: str = "ordinal") -> tuple[OrdinalDataset | None, str]:
    """Sidebar widgets to pick an ordinal data set.

    Parameters
    ----------
    container : streamlit container, optional
        Where the widgets go; defaults to the sidebar. Problems with an
        upload are shown on the page with ``st.error``.
    key : str, default "ordinal"
        Prefix of every widget key, so that two pickers can share a page.

    Returns
    -------
    dataset : OrdinalDataset or None
        None until an upload is complete and valid (what is missing or wrong
        is shown).
    data_key : str
        Identifies the data set and its options, for caching fitted models;
        ``""`` while ``dataset`` is None.
    """
    container = container or st.sidebar
    titles = dict(_cached_titles())
    titles[UPLOAD] = "Upload your own file…"
    choice = container.selectbox(
        "Data set", options=list(titles), format_func=titles.__getitem__, key=f"{key}_dataset",
        persist_state="session",
        help="Samples made by the scripts in sample_data/, or a CSV file of your own with one "
             "column of ordered levels.",
    )
    dataset: OrdinalDataset | None
    if choice != UPLOAD:
        dataset, data_key = _cached_sample(choice), f"ordinal-sample:{choice}"
    else:
        dataset, data_key = _upload(container, key)
    if dataset is not None:
        missing_caption(container, dataset.n_missing_features, dataset.X.size)
    return dataset, data_key


def _upload(container: DeltaGenerator, key: str) -> tuple[OrdinalDataset | None, str]:
    upload = receive_upload(
        container, "CSV file", None, f"{key}_upload_file",
        "A CSV with a header row: feature columns and one target column whose values are "
        "ordered levels (numbers such as ratings 1-5, or names such as low, medium, high); "
        "separated by commas, semicolons or tabs.")
    if upload is None:
        return None, ""
    content, digest = upload.content, upload.digest
    try:
        header = _cached_header(content, upload.name)
        target = container.selectbox(
            "Target column", header, index=len(header) - 1, key=f"{key}_target_{digest}", persist_state="session",
            help="The column holding each row's level.")
        values, numeric = _cached_values(content, upload.name, target)
        levels = _level_order(container, key, digest, target, values, numeric)
        if levels is None:
            return None, ""
        rest = [c for c in header if c != target]
        features = container.multiselect("Feature columns", rest, default=rest,
                                         key=f"{key}_features_{digest}_{target}", persist_state="session")
        if not features:
            container.info("Choose at least one feature column.")
            return None, ""
        options = (target, None if numeric else tuple(levels), tuple(features))
        dataset = _cached_upload(content, upload.name, *options)
        return dataset, f"ordinal-upload:{digest}:{options!r}"
    except DataError as error:
        show_problem(container, error)
        return None, ""


def _level_order(container: DeltaGenerator, key: str, digest: str, target: str, values: list[object],
                 numeric: bool) -> list[object] | None:
    """The level order of the target column, lowest first; None while it is incomplete."""
    if len(values) > MANY_LEVELS:
        container.warning(f"{md_escape(repr(target))} has {counted(len(values), 'distinct value')}; an ordinal "
                          "target usually has a few levels. Is it the right column?")
    if numeric:
        shown = [str(v) for v in values[:12]] + (["…"] if len(values) > 12 else [])
        container.caption(f"Levels of {md_escape(repr(target))} (numbers, in ascending order): "
                          + " < ".join(shown))
        return values
    order = container.multiselect(
        f"Level order of {md_escape(repr(target))}, lowest first", values, default=values,
        key=f"{key}_levels_{digest}_{target}", persist_state="session",
        help="The values are names, so their order must be given: the order of the chosen values "
             "is the level order, lowest first. It starts alphabetical; to reorder, remove values "
             "(×) and choose them again in order, from lowest to highest.")
    try:
        return check_level_order(values, order, target)
    except DataError as problem:
        container.info(md_escape(problem))
        return None
