"""Choosing query-document data: a sample's train/validation/test files, or uploads.

An upload is split 60/20/20 by query, or tested on the user's own test file
(and validation file, else a quarter of the training queries validate). An
svmlight file without ``qid:`` takes its queries from a group file
(LightGBM ``.query``, XGBoost ``.group``); svmlight test and validation
files are read at the training file's width, CSV ones with its columns.
Queries with a single document are kept and counted in a caption.

Uploads follow the rules of :mod:`rankviz.ui.data_picker`: at most
:data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, one sentence for a file that cannot
be read, and a caption saying how many feature values are missing (a CSV's
empty cells; svmlight files have none, a left-out feature being 0).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
import streamlit as st

from ..datasets.formats import sniff_query_format
from ..datasets.queries import QueryDataset, load_query_csv, split_by_query
from ..datasets.reading import read_csv_header
from ..datasets.samples import list_samples, load_ltr_sample, sample_info
from ..datasets.svmlight import load_svmlight
from ..exceptions import DataError
from .data_picker import missing_caption
from .text import counted, md_escape
from .upload import Upload, named_buffer, receive_upload, show_problem

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


#: One uploaded file as the cache sees it: (name, content, group file name, group file content).
FileParts = tuple[str, bytes, str | None, bytes | None]

# A data line, and a data line whose second token is qid: (a BOM or CR is harmless to both).
_DATA_LINE = re.compile(rb"^[ \t]*[^#\s]", re.MULTILINE)
_QID_LINE = re.compile(rb"^[ \t]*[^#\s]\S*[ \t]+qid:", re.MULTILINE)
_SPLIT_MODES = {"split": "Split my file 60/20/20 by query",
                "own": "Use my own test file (and optional validation file)"}
_GROUP_HELP = ("LightGBM's .query or XGBoost's .group file: one whole number per line, the number of documents "
               "of each query, in the order of the lines of the data file.")


@st.cache_data(show_spinner=False, max_entries=16)
def _without_qid(digest: str, _content: bytes) -> bool:
    """Whether an svmlight file has data lines but none with ``qid:`` (keyed by the upload's digest).

    Such a file (LightGBM's and XGBoost's own) takes its queries from a
    group file; a file where only some lines lack ``qid:`` is malformed, and
    the loader names the first such line.
    """
    return _DATA_LINE.search(_content) is not None and _QID_LINE.search(_content) is None


def _read(parts: FileParts, kind: str, options: tuple[str, str, tuple[str, ...]] | None,
          n_features: int | None = None) -> QueryDataset:
    """One uploaded file (and its group file) as a dataset; svmlight at ``n_features`` when given."""
    name, content, group_name, group = parts
    buffer = named_buffer(content, name)
    if kind == "svmlight":
        query_file = None if group is None else named_buffer(group, group_name or "group file")
        return load_svmlight(buffer, name=name, query_file=query_file, n_features=n_features)
    assert options is not None  # a CSV comes with its columns
    query_column, relevance_column, feature_columns = options
    return load_query_csv(buffer, query_column, relevance_column, list(feature_columns), name=name)


def _renamed(part: QueryDataset, name: str) -> QueryDataset:
    return QueryDataset(part.X, part.relevance, part.qid, part.feature_names, name=name,
                        description=part.description)


@st.cache_data(show_spinner=False, max_entries=8)
def _cached_upload(train: FileParts, kind: str, options: tuple[str, str, tuple[str, ...]] | None,
                   split_seed: int, test: FileParts | None = None,
                   vali: FileParts | None = None) -> dict[str, QueryDataset]:
    dataset = _read(train, kind, options)
    name = train[0]
    if test is None:
        if dataset.n_queries < 3:
            raise DataError(
                f"{name}: {counted(dataset.n_queries, 'query', 'queries')}; expected at least "
                "3 queries, one each for training, validation and test"
            )
        return dict(zip(SPLITS, split_by_query(dataset, (0.6, 0.2, 0.2), seed=split_seed)))
    # A test (or validation) file is read at the training file's width: its largest index may be smaller.
    width = dataset.n_features if kind == "svmlight" else None
    test_set = _read(test, kind, options, width)
    if vali is not None:
        return {"train": dataset, "vali": _read(vali, kind, options, width), "test": test_set}
    if dataset.n_queries < 2:
        raise DataError(
            f"{name}: {counted(dataset.n_queries, 'query', 'queries')}; expected at least 2 queries, "
            "one each for training and validation, or a validation file"
        )
    fit, held_out = split_by_query(dataset, (0.75, 0.25), seed=split_seed)
    return {"train": _renamed(fit, f"{name}: train"), "vali": _renamed(held_out, f"{name}: vali"),
            "test": test_set}


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

    Notes
    -----
    An upload is split 60/20/20 by query, or the user gives a test file
    (and a validation file, else a quarter of the training file's queries
    is split off for validation). An svmlight file whose lines have no
    ``qid:`` asks for its group file. Queries with a single document are
    kept, and counted in a caption.
    """
    container = container or st.sidebar
    names = list_samples("query")
    titles = {name: sample_info(name)["title"] for name in names}
    titles[UPLOAD] = "Upload your own file…"
    choice = container.selectbox(
        "Data set", options=names + [UPLOAD], format_func=titles.__getitem__, key=DATASET_KEY,
        persist_state="session",
        help="The synthetic learning-to-rank sample made by scripts/sample_data/build_ltr_synthetic.py "
             "(train/validation/test split by query), or a file of your own.",
    )
    splits: dict[str, QueryDataset] | None
    key: str | None
    if choice != UPLOAD:
        splits, key = _cached_sample(choice), f"sample:{choice}"
    else:
        splits, key = _upload(container)
    if splits is not None:
        missing_caption(container, sum(s.n_missing_features for s in splits.values()),
                        sum(s.X.size for s in splits.values()))
        single = sum(s.n_single_document_queries for s in splits.values())
        if single:
            container.caption(
                f"{counted(single, 'query', 'queries')} with a single document kept: "
                f"{'it adds' if single == 1 else 'they add'} no pair to learn from, and NDCG counts "
                f"{'it' if single == 1 else 'each'} as 1 when the document is relevant "
                "(left out when it is not).")
    return splits, key


def _with_group(container: DeltaGenerator, upload: Upload, kind: str, key: str
                ) -> tuple[FileParts | None, str]:
    """An upload, with its group file when it is svmlight without ``qid:``; None while that is missing.

    Returns the file's parts for :func:`_cached_upload` and a digest of
    them for the cache key of fitted models.
    """
    if kind != "svmlight" or not _without_qid(upload.digest, upload.content):
        return (upload.name, upload.content, None, None), upload.digest
    name = md_escape(upload.name)
    group = receive_upload(container, f"Group file for {name}", None, key,
                           f"The lines of {name} have no qid:, so its queries come from a group file. {_GROUP_HELP}")
    if group is None:
        st.warning(f"The lines of **{name}** have no `qid:`, so its queries are unknown. Upload its group file "
                   f"(LightGBM .query / XGBoost .group: one query size per line, in the order of its lines) "
                   f"under **Group file for {name}** in the sidebar.")
        return None, ""
    return (upload.name, upload.content, group.name, group.content), f"{upload.digest}+{group.digest}"


def _upload(container: DeltaGenerator) -> tuple[dict[str, QueryDataset] | None, str | None]:
    upload = receive_upload(
        container, "Query-document file", None, "ltr_upload_file",
        "LETOR / svmlight lines 'relevance qid:Q 1:v 2:v …' (without qid: a group file gives the queries), or a "
        "CSV with query, relevance and feature columns (separated by commas, semicolons or tabs); any file name, "
        "the content decides. Queries are split 60/20/20 into training, validation and test, or you give "
        "your own test file.")
    if upload is None:
        return None, None
    content, digest = upload.content, upload.digest
    # The content decides (a file may have any name, or none).
    guess = sniff_query_format(content, upload.name)
    kind = container.radio("File format", list(_FORMATS), index=list(_FORMATS).index(guess.format),
                           format_func=_FORMATS.get, key=f"ltr_upload_kind_{digest}", persist_state="session")
    if guess.format == "svmlight" and guess.reason and kind == "svmlight":
        container.caption("Detected svmlight lines 'relevance index:value …' without qid:, as LightGBM and "
                          "XGBoost write them." if _without_qid(digest, content) else
                          f"Detected LETOR / svmlight: {guess.reason}.")
    train, train_digest = _with_group(container, upload, kind, "ltr_group_file")
    mode = container.radio("Test data", list(_SPLIT_MODES), format_func=_SPLIT_MODES.get, key="ltr_test_mode",
                           persist_state="session",
                           help="Split the queries of your file into training, validation and test, or test on a "
                                "file of your own in the same format (CSV files: the same columns).")
    test = vali = None
    digests = [train_digest]
    if mode == "own":
        files = _own_files(container, kind)
        if files is None:
            return None, None
        (test, test_digest), vali_part = files
        digests.append(test_digest)
        if vali_part is not None:
            vali, vali_digest = vali_part
            digests.append(vali_digest)
    seed = 0
    if vali is None:
        seed = container.number_input("Split seed", 0, 10_000, 0, key=f"ltr_split_seed_{digest}",
                                      persist_state="session",
                                      help="Which queries go to training, validation and test." if mode == "split"
                                      else "Which queries of the training file go to validation.")
    if train is None:
        return None, None
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
        splits = _cached_upload(train, kind, options, int(seed), test, vali)
    except DataError as error:
        show_problem(container, error)
        return None, None
    if test is not None:
        name = md_escape(upload.name)
        where = (f"validation: **{md_escape(vali[0])}**" if vali is not None else
                 f"validation: a quarter of the queries of **{name}**, split off by query (no validation file)")
        container.caption(f"Training: **{name}**; {where}; test: **{md_escape(test[0])}**.")
    return splits, f"upload:{':'.join(digests)}:{kind}:{options!r}:{mode}:{int(seed)}"


def _own_files(container: DeltaGenerator, kind: str
               ) -> tuple[tuple[FileParts, str], tuple[FileParts, str] | None] | None:
    """The test file and, when asked for, the validation file (each with its group file); None while missing."""
    test_upload = receive_upload(
        container, "Test file", None, "ltr_test_file",
        "Documents to test on, in the training file's format: svmlight is read with the training file's "
        "features (an index above them is an error), a CSV needs the same columns.")
    test = None if test_upload is None else _with_group(container, test_upload, kind, "ltr_test_group_file")
    with_vali = container.checkbox("I have a validation file too", key="ltr_vali_add", persist_state="session",
                                   help="Without one, a quarter of the training file's queries are split off "
                                        "for validation (choosing the number of rounds).")
    vali = None
    if with_vali:
        vali_upload = receive_upload(container, "Validation file", None, "ltr_vali_file",
                                     "Documents to pick the number of rounds on, in the training file's format.")
        if vali_upload is None:
            return None
        vali_parts, vali_digest = _with_group(container, vali_upload, kind, "ltr_vali_group_file")
        if vali_parts is None:
            return None
        vali = (vali_parts, vali_digest)
    if test is None:
        return None
    test_parts, test_digest = test
    if test_parts is None:
        return None
    return (test_parts, test_digest), vali


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
