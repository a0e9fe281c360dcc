"""Choosing query-document data: a sample's train/validation/test files or an upload split by query.

Uploads follow the rules of :mod:`rankviz.ui.data_picker`: at most
:data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, one sentence for a file that cannot
be read, and a caption saying how many feature values are missing (a CSV's
empty cells; svmlight files have none, a left-out feature being 0).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import streamlit as st

from ..datasets.formats import sniff_query_format
from ..datasets.queries import QueryDataset, load_query_csv, split_by_query
from ..datasets.reading import describe_missing_features, read_csv_header
from ..datasets.samples import list_samples, load_ltr_sample, sample_info
from ..datasets.svmlight import load_svmlight
from ..exceptions import DataError
from .text import counted
from .upload import named_buffer, receive_upload, show_problem

if TYPE_CHECKING:
    from streamlit.delta_generator import DeltaGenerator

UPLOAD = "__upload__"
DATASET_KEY = "ltr_dataset"
SPLITS = ("train", "vali", "test")
SPLIT_TITLES = {"train": "train", "vali": "validation", "test": "test"}
_FORMATS = {"svmlight": "LETOR / svmlight (rel qid:Q 1:v …)", "csv": "CSV with a header"}


@st.cache_data(show_spinner=False)
def _cached_sample(name: str) -> dict[str, QueryDataset]:
    return load_ltr_sample(name)


@st.cache_data(show_spinner=False, max_entries=8)
def _cached_upload(content: bytes, file_name: str, kind: str,
                   options: tuple[str, str, tuple[str, ...]] | None, split_seed: int) -> dict[str, QueryDataset]:
    buffer = named_buffer(content, file_name)
    if kind == "svmlight":
        dataset = load_svmlight(buffer, name=file_name)
    else:
        query_column, relevance_column, feature_columns = options
        dataset = load_query_csv(buffer, query_column, relevance_column, list(feature_columns), name=file_name)
    if dataset.n_queries < 3:
        raise DataError(
            f"{file_name}: {counted(dataset.n_queries, 'query', 'queries')}; expected at least "
            "3 queries, one each for training, validation and test"
        )
    return dict(zip(SPLITS, split_by_query(dataset, (0.6, 0.2, 0.2), seed=split_seed)))


def ltr_data_picker(container: DeltaGenerator | None = None
                    ) -> tuple[dict[str, QueryDataset] | None, str | None]:
    """Sidebar widgets to pick query-document data.

    Parameters
    ----------
    container : streamlit container, optional
        Where the widgets go; defaults to the sidebar.

    Returns
    -------
    splits : dict or None
        ``{"train", "vali", "test"}`` -> QueryDataset; None until an upload
        is complete and valid (the problem is shown on the page).
    key : str or None
        Identifies the data for caching fitted models; None while ``splits``
        is None.
    """
    container = container or st.sidebar
    names = list_samples("query")
    titles = {name: sample_info(name)["title"] for name in names}
    titles[UPLOAD] = "Upload your own file…"
    choice = container.selectbox(
        "Data set", options=names + [UPLOAD], format_func=titles.get, key=DATASET_KEY, persist_state="session",
        help="The synthetic learning-to-rank sample made by sample_data/build_ltr_synthetic.py "
             "(train/validation/test split by query), or a file of your own.",
    )
    if choice != UPLOAD:
        splits, key = _cached_sample(choice), f"sample:{choice}"
    else:
        splits, key = _upload(container)
    if splits is not None:
        text = describe_missing_features(sum(s.n_missing_features for s in splits.values()),
                                         sum(s.X.size for s in splits.values()))
        if text:
            container.caption(text)
    return splits, key


def _upload(container: DeltaGenerator) -> tuple[dict[str, QueryDataset] | None, str | None]:
    upload = receive_upload(
        container, "Query-document file", None, "ltr_upload_file",
        "LETOR / svmlight lines 'relevance qid:Q 1:v 2:v …', or a CSV with query, relevance and "
        "feature columns (separated by commas, semicolons or tabs); any file name, the content decides. "
        "Queries are split 60/20/20 into training, validation and test.")
    if upload is None:
        return None, None
    content, digest = upload.content, upload.digest
    # The content decides (a file may have any name, or none).
    guess = sniff_query_format(content, upload.name)
    kind = container.radio("File format", list(_FORMATS), index=list(_FORMATS).index(guess.format),
                           format_func=_FORMATS.get, key=f"ltr_upload_kind_{digest}", persist_state="session")
    if guess.format == "svmlight" and guess.reason and kind == "svmlight":
        container.caption(f"Detected LETOR / svmlight: {guess.reason}.")
    seed = container.number_input("Split seed", 0, 10_000, 0, key=f"ltr_split_seed_{digest}", persist_state="session",
                                  help="Which queries go to training, validation and test.")
    try:
        options = None
        if kind == "csv":
            header = read_csv_header(upload.buffer())
            query_column = container.selectbox("Query column", header, key=f"ltr_qcol_{digest}",
                                               index=_guess(header, ("qid", "query", "query_id")),
                                               persist_state="session")
            relevance_column = container.selectbox(
                "Relevance column", header, key=f"ltr_rcol_{digest}", persist_state="session",
                index=_guess(header, ("relevance", "rel", "label", "grade")))
            rest = [c for c in header if c not in (query_column, relevance_column)]
            features = container.multiselect("Feature columns", rest, default=rest, key=f"ltr_fcols_{digest}",
                                             persist_state="session")
            if query_column == relevance_column or not features:
                container.info("Choose different query and relevance columns and at least one feature.")
                return None, None
            options = (query_column, relevance_column, tuple(features))
        splits = _cached_upload(content, upload.name, kind, options, int(seed))
        return splits, f"upload:{digest}:{kind}:{options!r}:{int(seed)}"
    except DataError as error:
        show_problem(container, error)
        return None, None


def _guess(header: Sequence[str], names: Sequence[str]) -> int:
    lowered = [c.lower() for c in header]
    for name in names:
        if name in lowered:
            return lowered.index(name)
    return 0


def describe_splits(splits: dict[str, QueryDataset]) -> pd.DataFrame:
    """A table of queries, documents and the grade distribution of each split."""
    rows = []
    grades = np.unique(np.concatenate([splits[s].relevance for s in SPLITS]))
    for split in SPLITS:
        data = splits[split]
        row = {"split": SPLIT_TITLES[split], "queries": data.n_queries, "documents": data.n_docs,
               "docs per query": f"{data.query_sizes.min()}–{data.query_sizes.max()}"}
        if grades.size > 8:  # graded on a continuous scale: a range says more than 100 columns
            row["relevance"] = f"{data.relevance.min():g} – {data.relevance.max():g}"
        else:
            for grade in grades:
                row[f"grade {grade:g}"] = int((data.relevance == grade).sum())
        rows.append(row)
    return pd.DataFrame(rows)
