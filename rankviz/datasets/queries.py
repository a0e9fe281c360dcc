"""Learning-to-rank datasets: documents grouped by query, each with a graded relevance.

A learning-to-rank set (Zhu et al. 2009; LETOR) is a list of query–document
pairs: every document has a feature vector, the id of the query it was
retrieved for and a relevance grade (0 = not relevant, higher = more
relevant). Only documents of the same query are ever compared; the rows of
one query need not be next to each other.

A query with a single document is kept: it adds no pair to a pairwise
learner (MPBoost trains on the other queries) and its ranking is trivially
perfect, so its NDCG@k is 1 when the document is relevant, and when it is
not it counts as any query without a relevant document does
(:mod:`rankviz.ltr.metrics`: left out by default; LightGBM scores it 1).
Real sets have such queries (a judged query with one retrieved document, or
the tail of a random split), and refusing the whole file for them would
refuse the data as people have it. :attr:`QueryDataset.n_single_document_queries`
counts them.

:func:`load_query_csv` reads a CSV with a query column, a relevance column
and feature columns, as :mod:`rankviz.datasets.reading` describes; a missing
feature value (empty cell, ``NA``, ``?``...) is NaN, counted by
``n_missing_features``. Query ids and relevance are never missing.
:func:`split_by_query` splits whole queries into train / vali / test. The
svmlight / LETOR format is read and written by :mod:`rankviz.datasets.svmlight`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np
import pandas as pd

from ..exceptions import data_error, quote_list, show_text
from .reading import (
    check_unique, count_missing_features, file_stem, grouped_numbers, missing_mask, numeric_cells, parse_csv_header,
    parse_number, read_records, read_text, to_float,
)

__all__ = ["QueryDataset", "split_by_query", "load_query_csv", "parse_query_ids", "query_text",
           "RELEVANCE_EXPECTED"]

RELEVANCE_EXPECTED = "expected a graded relevance such as 0, 1, 2"

_INTEGER_RE = re.compile(r"-?[0-9]+")


# --------------------------------------------------------------------------- #
# small helpers
# --------------------------------------------------------------------------- #


def _scalar(value):
    """A numpy scalar as the Python value it holds (``np.int64(7)`` -> ``7``)."""
    return value.item() if isinstance(value, np.generic) else value

def query_text(qid: Any) -> str:
    """``7`` or ``'q7'``: how a query id is shown in messages."""
    return repr(_scalar(qid))

def parse_query_ids(tokens: Iterable[str]) -> np.ndarray:
    """Query id texts as int64 when every one is a whole number, else as str (object array)."""
    tokens = list(tokens)
    if all(_INTEGER_RE.fullmatch(t) for t in tokens):
        try:
            return np.array(tokens, dtype=np.int64)
        except (OverflowError, ValueError):  # past int64, or past the 4,300 digits int() reads: kept as text
            pass
    out = np.empty(len(tokens), dtype=object)
    out[:] = tokens
    return out

def _readonly(array):
    """A read-only view, so a dataset's arrays cannot be changed in place (the caller's stay writable)."""
    view = array.view()
    view.flags.writeable = False
    return view

# --------------------------------------------------------------------------- #
# dataset
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, eq=False, repr=False)
class QueryDataset:
    """Documents with features and a graded relevance, grouped by query.

    The dataset of learning to rank (:class:`rankviz.MPBoost` and the
    baselines of :mod:`rankviz.ltr`): one row per query-document pair, a
    relevance grade per row and the query each row belongs to. Only the
    documents of one query are ever compared. It is checked when built and
    frozen afterwards.

    Parameters
    ----------
    X : array_like, shape (n_docs, n_features)
        Feature values, floats: finite, or NaN for a missing value. Raw
        values need not be comparable across queries; only documents of one
        query are compared.
    relevance : array_like, shape (n_docs,)
        Graded relevance of each document for its query (higher = more
        relevant), finite; usually the grades 0, 1, 2, ...
    qid : array_like, shape (n_docs,)
        The id of each document's query, kept as given (ints or strings).
        The documents of a query need not be contiguous.
    feature_names : list of str, optional
        One unique, non-empty name per column of ``X``; defaults to
        ``f1..fD`` (the 1-based indices of the svmlight format).
    name : str, optional
        Short name shown in the app and used in error messages.
    description : str, optional
        Free text describing the data.

    Attributes
    ----------
    query_index : ndarray of int, shape (n_docs,)
        The query of each document as a code ``0..n_queries-1``, numbered in
        order of first appearance.
    query_ids : ndarray, shape (n_queries,)
        The original query ids in that order.

    Raises
    ------
    DataError
        If the shapes disagree, a feature value is infinite, a relevance is
        not finite, a query id is missing, there is no document or no
        feature, or feature names repeat.

    See Also
    --------
    load_query_csv : Read a dataset from a CSV file.
    rankviz.load_svmlight : Read a dataset from svmlight / LETOR files.
    split_by_query : Split a dataset into parts made of whole queries.

    Notes
    -----
    The arrays are read-only views; instances compare by identity. A query
    may have a single document (see :attr:`n_single_document_queries`).

    Examples
    --------
    >>> import numpy as np
    >>> from rankviz import QueryDataset
    >>> X = np.array([[0.1, 1.0], [0.5, 0.0], [0.9, 1.0], [0.2, 0.0], [0.4, 1.0]])
    >>> data = QueryDataset(X, relevance=[0, 1, 2, 0, 1], qid=[7, 7, 7, 9, 9])
    >>> data
    QueryDataset(name='', n_queries=2, n_docs=5, n_features=2)
    >>> data.query_ids, data.query_sizes, data.feature_names
    (array([7, 9]), array([3, 2]), ['f1', 'f2'])
    """

    X: np.ndarray
    relevance: np.ndarray
    qid: np.ndarray
    feature_names: list[str] | None = None
    name: str = ""
    description: str = ""
    _codes: np.ndarray = field(init=False)
    _query_ids: np.ndarray = field(init=False)

    def __post_init__(self) -> None:
        source = str(self.name)
        feature_names = self.feature_names
        if feature_names is None and isinstance(self.X, pd.DataFrame):
            feature_names = list(self.X.columns)
        X = self._as_float(self.X, "feature matrix X", source)
        relevance = self._as_float(self.relevance, "relevance", source)
        if X.ndim != 2:
            raise data_error(f"the feature matrix X has shape {X.shape}; expected a 2-D array "
                         f"(documents x features)", source)
        n_docs, n_features = X.shape
        if n_docs == 0:
            raise data_error("there are no documents; expected at least one document of a query", source)
        if n_features == 0:
            raise data_error("there are no features; expected at least 1 feature column", source)
        if relevance.shape != (n_docs,):
            raise data_error(f"the relevance has shape {relevance.shape} but there are {n_docs} documents; "
                         f"expected one relevance per document", source)
        qid = self._as_query_ids(self.qid, n_docs, source)
        feature_names = self._as_feature_names(feature_names, n_features, source)

        bad = np.flatnonzero(~np.isfinite(relevance))
        if len(bad):
            i = int(bad[0])
            raise data_error(f"the relevance {relevance[i]} is not a finite number; "
                         f"{RELEVANCE_EXPECTED}", source, row=i + 1)
        infinite = np.isinf(X)
        if infinite.any():
            i, j = np.argwhere(infinite)[0]
            raise data_error(f"the feature value {X[i, j]} is not a finite number; expected finite "
                         f"feature values (NaN for a missing one)", source, row=i + 1, column=feature_names[j])
        codes, query_ids = pd.factorize(qid)

        for key, value in (("X", _readonly(X)), ("relevance", _readonly(relevance)),
                           ("qid", _readonly(qid)), ("feature_names", feature_names),
                           ("name", source), ("description", str(self.description)),
                           ("_codes", _readonly(codes.astype(np.intp, copy=False))),
                           ("_query_ids", _readonly(np.asarray(query_ids)))):
            object.__setattr__(self, key, value)

    @staticmethod
    def _as_float(values, what, source):
        try:
            return np.asarray(values, dtype=float)
        except (TypeError, ValueError):
            raise data_error(f"the {what} is not numeric; expected numbers", source) from None

    @staticmethod
    def _as_query_ids(qid, n_docs, source):
        qid = np.asarray(qid)
        if qid.shape != (n_docs,):
            raise data_error(f"the query ids have shape {qid.shape} but there are {n_docs} documents; "
                         f"expected one query id per document", source)
        if qid.dtype.kind in "US":
            # Python str elements rather than np.str_, so ds.qid[0] prints as 'q1'.
            qid = qid.astype(object)
        missing = np.flatnonzero(pd.isna(qid))
        if len(missing):
            raise data_error("the query id is missing; expected a query id for every document",
                         source, row=int(missing[0]) + 1)
        return qid

    @staticmethod
    def _as_feature_names(names, n_features, source):
        if names is None:
            return [f"f{j + 1}" for j in range(n_features)]
        names = [str(n) for n in names]
        if len(names) != n_features:
            raise data_error(f"there are {len(names)} feature names for {n_features} feature columns; "
                         f"expected one name per column", source)
        if any(n == "" for n in names):
            raise data_error("a feature name is empty; expected a non-empty name for every feature", source)
        check_unique(names, "feature name", source)
        return names

    def __repr__(self) -> str:
        return (f"QueryDataset(name={self.name!r}, n_queries={self.n_queries}, "
                f"n_docs={self.n_docs}, n_features={self.n_features})")

    @property
    def n_docs(self) -> int:
        """Number of documents (rows)."""
        return self.X.shape[0]

    @property
    def n_features(self) -> int:
        """Number of features (columns of ``X``)."""
        return self.X.shape[1]

    @property
    def n_missing_features(self) -> int:
        """Number of missing (NaN) feature values."""
        return count_missing_features(self.X)

    @property
    def n_queries(self) -> int:
        """Number of distinct queries."""
        return len(self._query_ids)

    @property
    def query_index(self) -> np.ndarray:
        """Query code ``0..n_queries-1`` of every document, in order of first appearance."""
        return self._codes

    @property
    def query_ids(self) -> np.ndarray:
        """The distinct original query ids, in order of first appearance."""
        return self._query_ids

    @property
    def query_sizes(self) -> np.ndarray:
        """Documents per query, aligned with :attr:`query_ids` (ndarray of int)."""
        return np.bincount(self._codes, minlength=self.n_queries)

    @property
    def n_single_document_queries(self) -> int:
        """Number of queries with a single document: kept, though they add no pair to learn from."""
        return int((self.query_sizes == 1).sum())

    def subset_queries(self, query_ids: Any) -> QueryDataset:
        """Return the documents of some queries, as a new dataset.

        Parameters
        ----------
        query_ids : iterable or a single id
            Original query ids (as in :attr:`qid`); repeats are ignored.

        Returns
        -------
        QueryDataset
            The rows of those queries, in their original order, with the same
            features, name and description.

        Raises
        ------
        DataError
            If an id is not a query of this dataset, or none is given.
        """
        # one id on its own (a string is iterable, but not a list of ids)
        wanted = [query_ids] if isinstance(query_ids, str) or np.ndim(query_ids) == 0 else list(query_ids)
        if not wanted:
            raise data_error("no queries were chosen; expected at least one query id", self.name)
        codes = pd.Index(self._query_ids).get_indexer(wanted)
        unknown = np.flatnonzero(codes < 0)
        if len(unknown):
            raise data_error(f"the query {query_text(wanted[unknown[0]])} is not in the dataset; expected "
                         f"one of its {self.n_queries} query ids", self.name)
        rows = np.isin(self._codes, codes)
        assert self.feature_names is not None  # filled in by __post_init__
        return QueryDataset(self.X[rows], self.relevance[rows], self.qid[rows], list(self.feature_names),
                            name=self.name, description=self.description)

    def to_frame(self, query_column: str = "qid", relevance_column: str = "relevance") -> pd.DataFrame:
        """Return one table: the query id, the relevance, then the features.

        Parameters
        ----------
        query_column, relevance_column : str
            Names of the first two columns; they must differ from the
            feature names.

        Returns
        -------
        pandas.DataFrame
            ``n_docs`` rows; readable again with ``load_query_csv(...,
            query_column, relevance_column)`` after ``to_csv(index=False)``.
        """
        assert self.feature_names is not None  # filled in by __post_init__
        taken = [c for c in (query_column, relevance_column) if c in set(self.feature_names)]
        if taken or query_column == relevance_column:
            clash = taken[0] if taken else query_column
            raise data_error(f"the column name {clash!r} is already used; expected query and relevance "
                         f"column names different from each other and from the feature names", self.name)
        frame = pd.DataFrame(self.X, columns=self.feature_names)
        frame.insert(0, relevance_column, self.relevance)
        frame.insert(0, query_column, self.qid)
        return frame

def _part_names(k):
    return ("train", "vali", "test") if k == 3 else ("train", "test") if k == 2 else \
        tuple(f"part{i + 1}" for i in range(k))

def split_by_query(dataset: QueryDataset, fractions: Sequence[float] = (0.6, 0.2, 0.2),
                   seed: int | np.random.Generator = 0) -> tuple[QueryDataset, ...]:
    """Split a dataset into parts made of whole queries (e.g. train / vali / test).

    The queries are shuffled and cut by ``fractions``, so a query's
    documents are never split between parts and the parts hold about these
    shares of the queries (not of the documents).

    Parameters
    ----------
    dataset : QueryDataset
        The dataset to split; it is not changed.
    fractions : sequence of float, default=(0.6, 0.2, 0.2)
        Share of the *queries* (not documents) in each part; positive,
        summing to 1.
    seed : int or numpy.random.Generator, default=0
        Randomness of the shuffle of the queries.

    Returns
    -------
    tuple of QueryDataset
        One dataset per fraction, each with ``round(cumulative fraction *
        n_queries)`` boundaries; rows keep their original order. With three
        fractions the names end in ``train``, ``vali``, ``test``.

    Raises
    ------
    DataError
        If a fraction is not positive, they do not sum to 1, or a part would
        get no query.

    See Also
    --------
    QueryDataset.subset_queries : The documents of chosen queries.

    Examples
    --------
    >>> from rankviz.datasets import load_ltr_sample, split_by_query
    >>> train = load_ltr_sample()["train"]
    >>> first, second = split_by_query(train, (0.5, 0.5), seed=0)
    >>> first.n_queries, second.n_queries, first.n_queries + second.n_queries == train.n_queries
    (60, 60, True)
    >>> first.name
    'ltr_synthetic: train: train'
    """
    shares = np.asarray(fractions, dtype=float)
    if shares.ndim != 1 or len(shares) < 2 or not (shares > 0).all() \
            or abs(shares.sum() - 1.0) > 1e-6:
        raise data_error(f"the fractions {shares.tolist()} are not valid; expected 2 or more positive "
                     f"shares of the queries summing to 1, e.g. (0.6, 0.2, 0.2)", dataset.name)
    n = dataset.n_queries
    cuts = np.round(np.cumsum(shares) * n).astype(int)
    cuts[-1] = n
    sizes = np.diff(np.concatenate([[0], cuts]))
    if (sizes < 1).any():
        raise data_error(f"there {'is' if n == 1 else 'are'} {n} quer{'y' if n == 1 else 'ies'}, too few to "
                     f"split into {len(shares)} parts by {shares.tolist()}; expected at least one "
                     f"query in each part", dataset.name)
    order = np.random.default_rng(seed).permutation(n)
    parts = np.split(order, cuts[:-1])
    out = []
    for label, codes in zip(_part_names(len(parts)), parts):
        part = dataset.subset_queries(dataset.query_ids[np.sort(codes)])
        name = f"{dataset.name}: {label}" if dataset.name else label
        out.append(QueryDataset(part.X, part.relevance, part.qid, part.feature_names,
                                name=name, description=dataset.description))
    return tuple(out)


# --------------------------------------------------------------------------- #
# CSV
# --------------------------------------------------------------------------- #


def _check_column(header, names, column, kind, source):
    """``names``: ``header`` as a set, built once (a file may have tens of thousands of columns)."""
    if column not in names:
        raise data_error(f"there is no {kind} column {show_text(column)}; expected one of the columns of the header: "
                     f"{quote_list(header)}",
                     source)

def _query_column(frame, column, lines, source):
    cells = frame[column].str.strip()
    missing = missing_mask(cells).to_numpy()
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        what = "the query id is empty" if cells.iloc[i] == "" else \
            f"the query id {show_text(cells.iloc[i])} marks a missing value"
        raise data_error(f"{what}; expected a query id for every document", source, line=lines[i], column=column)
    return parse_query_ids(cells)

def _relevance_column(frame, column, lines, source):
    cells = frame[column].str.strip()
    missing = missing_mask(cells).to_numpy()
    values = to_float(cells.where(~missing, "x"))
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        i = int(bad[0])
        cell = cells.iloc[i]
        if cell == "":
            problem = f"the relevance is empty; {RELEVANCE_EXPECTED} for every document"
        elif missing[i]:
            problem = f"relevance {show_text(cell)} marks a missing value; {RELEVANCE_EXPECTED} for every document"
        elif parse_number(cell) is not None:
            problem = f"relevance {show_text(cell)} is not a finite number; {RELEVANCE_EXPECTED}"
        else:
            problem = f"relevance {show_text(cell)} is not a number; {RELEVANCE_EXPECTED}"
        raise data_error(problem, source, line=lines[i], column=column)
    return values

def _read_grouped(cells, missing, values):
    """``values`` with the numbers of the cells written with thousands separators, such as ``1,000``: only
    the cells present that are no plain number are looked at again."""
    odd = np.isnan(values) & ~missing
    if not odd.any():
        return values
    values = values.copy()  # numeric_cells' may be a read-only view
    values[odd] = grouped_numbers(cells[odd])
    return values


def _default_features(frame, exclude):
    """Columns other than ``exclude`` whose non-missing cells are mostly numbers.

    "Mostly" (more than half), not "all": a numeric column with a typo stays
    a feature and its bad cell is reported, while a text column (document
    ids, titles) that happens to hold a number or two is left out.
    """
    candidates = [column for column in frame.columns if column not in exclude]
    cells, missing, values = numeric_cells(frame, candidates)
    values = _read_grouped(cells, missing, values)
    numbers = (np.isfinite(values) & ~missing).sum(axis=0)
    present = (~missing).sum(axis=0)
    return [column for column, n, m in zip(candidates, numbers, present) if m and n * 2 > m]

def _feature_matrix(frame, columns, lines, source):
    """The feature cells as floats, NaN for a missing cell; the first bad cell in file order is reported."""
    cells, missing, X = numeric_cells(frame, columns)
    X = _read_grouped(cells, missing, X)
    bad = ~np.isfinite(X) & ~missing
    if bad.any():  # in file order: the first row with a bad cell, its first bad column
        i = int(np.flatnonzero(bad.any(axis=1))[0])
        j = int(np.flatnonzero(bad[i])[0])
        cell = cells[i, j]
        if parse_number(cell) is not None:
            problem = (f"the feature value {show_text(cell)} is not a finite number; expected a finite number, "
                       f"or an empty cell for a missing value")
        else:
            problem = (f"the feature value {show_text(cell)} is not a number; expected a number, or an empty "
                       f"cell for a missing value")
        raise data_error(problem, source, line=lines[i], column=columns[j])
    return np.where(missing, np.nan, X)

def load_query_csv(path_or_buffer: str | os.PathLike | IO, query_column: str, relevance_column: str,
                   feature_columns: str | Sequence[str] | None = None,
                   name: str | None = None) -> QueryDataset:
    """Read a learning-to-rank set from a CSV file with a header row.

    One row per query-document pair: a column of query ids, a column of
    relevance grades (higher = more relevant) and numeric feature columns;
    the documents of a query need not be on consecutive rows.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. an upload).
    query_column : str
        Column holding each document's query id (never empty); ids are int64
        when every one is a whole number, else strings.
    relevance_column : str
        Column holding the graded relevance (a finite number, never empty).
    feature_columns : str or list of str, optional
        Feature columns, each cell a finite number or missing (an empty cell
        or a marker such as ``NA``: NaN). Default: every other column whose
        non-empty cells are mostly (more than half) numbers, so text columns
        such as document ids are left out while a numeric column with a bad
        cell is kept and the cell reported.
    name : str, optional
        Dataset name; defaults to the file name without extension.

    Returns
    -------
    QueryDataset
        The documents in file order, with the feature columns' names and
        named after the file unless ``name`` is given.

    Raises
    ------
    DataError
        For an empty file, fewer than 2 data rows, an unknown or repeated
        column, the same column chosen twice, no feature column, a row with
        the wrong number of fields, an empty query id or relevance, a
        relevance or feature value that is not a finite number (a missing
        feature value is NaN), a file over
        :data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`. A query with a single
        document is kept. Messages name the
        file, the line (header = line 1) and the column, e.g. ``"docs.csv,
        line 4, column 'rel': relevance 'high' is not a number; expected a
        graded relevance such as 0, 1, 2"``.

    See Also
    --------
    rankviz.load_svmlight : Read svmlight / LETOR files.
    QueryDataset : The dataset returned.

    Examples
    --------
    >>> import io
    >>> from rankviz import load_query_csv
    >>> text = "qid,rel,f1,f2,doc\\n1,0,0.1,3,x\\n1,2,0.7,1,y\\n2,1,0.4,2,z\\n2,0,0.3,5,w\\n"
    >>> data = load_query_csv(io.StringIO(text), "qid", "rel")
    >>> data.feature_names  # the text column doc is left out
    ['f1', 'f2']
    >>> data.query_sizes, data.relevance
    (array([2, 2]), array([0., 2., 1., 0.]))
    """
    query_column, relevance_column = str(query_column), str(relevance_column)
    text, source = read_text(path_or_buffer)
    header = parse_csv_header(text, source)
    names = set(header)
    _check_column(header, names, query_column, "query", source)
    _check_column(header, names, relevance_column, "relevance", source)
    if query_column == relevance_column:
        raise data_error(f"the column {query_column!r} is chosen as both the query and the relevance column; "
                     f"expected two different columns", source)
    if feature_columns is not None:
        feature_columns = [feature_columns] if isinstance(feature_columns, str) else \
            [str(c) for c in feature_columns]
        for column in feature_columns:
            _check_column(header, names, column, "feature", source)
            if column in (query_column, relevance_column):
                role = "query" if column == query_column else "relevance"
                raise data_error(f"the {role} column {column!r} is also chosen as a feature; expected "
                             f"features other than the query and relevance columns", source)
        check_unique(feature_columns, "feature column", source)
    frame, lines = read_records(text, header, source)
    if feature_columns is None:
        feature_columns = _default_features(frame, {query_column, relevance_column})
    if not feature_columns:
        raise data_error(f"no column besides {query_column!r} and {relevance_column!r} holds numbers; "
                     f"expected at least one numeric feature column", source)
    qid = _query_column(frame, query_column, lines, source)
    relevance = _relevance_column(frame, relevance_column, lines, source)
    X = _feature_matrix(frame, feature_columns, lines, source)
    return QueryDataset(X, relevance, qid, list(feature_columns),
                        name=file_stem(source) if name is None else str(name))
