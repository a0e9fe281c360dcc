"""Learning-to-rank datasets: documents grouped by query, each with a graded relevance.

A learning-to-rank set (seed 004, LETOR) is a list of query–document pairs:
every document has a feature vector, the id of the query it was retrieved
for and a relevance grade (0 = not relevant, higher = more relevant). Only
documents of the same query are ever compared, so a query needs at least two
documents; the rows of one query need not be next to each other.

Loaders
-------
load_svmlight
    The svmlight / LETOR ranking format: ``rel qid:Q 1:v 2:v ... # comment``.
load_query_csv
    A CSV with a header: a query column, a relevance column, feature columns.
load_ltr_sample
    The train / vali / test files of a sample in ``sample_data/NAME/``.

Every malformed input raises :class:`rankviz.datasets.label_ranking.DataError`, whose message
names the file, the line (the first line of the file is line 1), the column
or token at fault and what was expected, e.g. ``"train.txt, line 12:
relevance 'high' is not a number; expected a graded relevance such as 0, 1,
2"``, so an app can show ``str(error)`` as it is.

Files are read as :mod:`rankviz.datasets.label_ranking` describes: at most
:data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, UTF-8 (BOM ignored); a CSV may be
separated by ``,``, ``;`` or tabs (found on line 1; decimal commas with
``;`` and tabs). A missing feature value in a CSV (empty cell, ``NA``,
``?``...) is NaN, counted by ``n_missing_features``; in the svmlight
format a feature left out is 0 by definition, so it has no missing values
(``1:nan`` is refused). Query ids and relevance are never missing.

Also here: :func:`split_by_query` (whole queries into train / vali / test),
:func:`dump_svmlight` (the writer matching :func:`load_svmlight`) and
:func:`make_ltr_dataset` (a synthetic set in the style of web-search data).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .label_ranking import (
    DataError, _check_unique, _error, _missing_mask, _parse_csv_header, _quote_list,
    _read_records, _read_text, _sample_dir, _show, _split_lines, _stem, count_missing_features,
    read_metadata,
)

__all__ = [
    "DataError",
    "QueryDataset",
    "split_by_query",
    "load_svmlight",
    "dump_svmlight",
    "load_query_csv",
    "make_ltr_dataset",
    "list_ltr_samples",
    "ltr_sample_info",
    "load_ltr_sample",
    "LTR_SIDECAR",
    "MAX_FEATURE_INDEX",
]

#: Metadata file of a learning-to-rank sample: ``sample_data/NAME/ltr.json``.
LTR_SIDECAR = "ltr.json"

#: Largest feature index :func:`load_svmlight` accepts. Features are stored
#: densely (LETOR sets have tens to a few thousand), so a stray huge index
#: would otherwise ask for gigabytes.
MAX_FEATURE_INDEX = 100_000

#: Keys every sample sidecar must have.
_SAMPLE_KEYS = ("title", "description", "source", "script", "splits")

_LINE_EXAMPLE = "'2 qid:10 1:0.5 2:0.13' (relevance, query id, then index:value features)"
_RELEVANCE_EXPECTED = "expected a graded relevance such as 0, 1, 2"
_FEATURE_EXAMPLE = "3:0.25"

# A well-formed line (comment removed): relevance, qid:Q, then index:value
# tokens with a decimal index and exactly one ':'. Lines that match go the
# fast, vectorised way; any other line is diagnosed token by token.
_LINE_RE = re.compile(r"\s*(\S+)\s+qid:(\S+)((?:\s+[0-9]+:[^\s:]+)*)\s*")
_INDEX_RE = re.compile(r"[0-9]+")
_INTEGER_RE = re.compile(r"-?[0-9]+")


# --------------------------------------------------------------------------- #
# small helpers
# --------------------------------------------------------------------------- #
def _scalar(value):
    """A numpy scalar as the Python value it holds (``np.int64(7)`` -> ``7``)."""
    return value.item() if isinstance(value, np.generic) else value


def _query_text(qid):
    """``7`` or ``'q7'``: how a query id is shown in messages."""
    return repr(_scalar(qid))


def _parse_number(text):
    """``float(text)``, or None when ``text`` is not a plain number.

    Python's ``float`` also reads ``1_000`` and non-ASCII digits; pandas (the
    fast path) does not, so neither does this, keeping both paths in step.
    """
    if not text.isascii() or "_" in text:
        return None
    try:
        return float(text)
    except ValueError:
        return None


def _to_float(tokens):
    """Tokens (strings) to floats, NaN where a token is not a number."""
    return pd.to_numeric(pd.Series(tokens, dtype=object), errors="coerce").to_numpy(dtype=float)


def _parse_query_ids(tokens):
    """Query id texts as int64 when every one is a whole number, else as str (object array)."""
    tokens = list(tokens)
    if all(_INTEGER_RE.fullmatch(t) for t in tokens):
        try:
            return np.array(tokens, dtype=np.int64)
        except OverflowError:
            pass
    out = np.empty(len(tokens), dtype=object)
    out[:] = tokens
    return out


def _readonly(array):
    """A read-only view, so a dataset's arrays cannot be changed in place (the caller's stay writable)."""
    view = array.view()
    view.flags.writeable = False
    return view


def _check_query_sizes(codes, query_ids, source, place):
    """Every query needs two documents; name the first lone document.

    ``place(i)`` gives the ``_error`` keywords (``line=`` / ``row=``...) of row ``i``.
    """
    sizes = np.bincount(codes, minlength=len(query_ids))
    lone = np.flatnonzero(sizes[codes] < 2)
    if len(lone):
        i = int(lone[0])
        raise _error(
            f"the query {_query_text(query_ids[codes[i]])} has only 1 document; expected at least 2 "
            f"documents per query, since a ranking compares documents of the same query",
            source, **place(i),
        )


# --------------------------------------------------------------------------- #
# dataset
# --------------------------------------------------------------------------- #
@dataclass(frozen=True, eq=False, repr=False)
class QueryDataset:
    """Documents with features and a graded relevance, grouped by query.

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
        not finite, a query id is missing, there is no feature, feature names
        repeat, or a query has fewer than 2 documents.

    Notes
    -----
    The arrays are read-only views; instances compare by identity.
    """

    X: np.ndarray
    relevance: np.ndarray
    qid: np.ndarray
    feature_names: list = None
    name: str = ""
    description: str = ""
    _codes: np.ndarray = field(init=False)
    _query_ids: np.ndarray = field(init=False)

    def __post_init__(self):
        source = str(self.name)
        feature_names = self.feature_names
        if feature_names is None and isinstance(self.X, pd.DataFrame):
            feature_names = list(self.X.columns)
        X = self._as_float(self.X, "feature matrix X", source)
        relevance = self._as_float(self.relevance, "relevance", source)
        if X.ndim != 2:
            raise _error(f"the feature matrix X has shape {X.shape}; expected a 2-D array "
                         f"(documents x features)", source)
        n_docs, n_features = X.shape
        if n_docs == 0:
            raise _error("there are no documents; expected at least one query with 2 documents", source)
        if n_features == 0:
            raise _error("there are no features; expected at least 1 feature column", source)
        if relevance.shape != (n_docs,):
            raise _error(f"the relevance has shape {relevance.shape} but there are {n_docs} documents; "
                         f"expected one relevance per document", source)
        qid = self._as_query_ids(self.qid, n_docs, source)
        feature_names = self._as_feature_names(feature_names, n_features, source)

        bad = np.flatnonzero(~np.isfinite(relevance))
        if len(bad):
            i = int(bad[0])
            raise _error(f"the relevance {relevance[i]} is not a finite number; "
                         f"{_RELEVANCE_EXPECTED}", source, row=i + 1)
        infinite = np.isinf(X)
        if infinite.any():
            i, j = np.argwhere(infinite)[0]
            raise _error(f"the feature value {X[i, j]} is not a finite number; expected finite "
                         f"feature values (NaN for a missing one)", source, row=i + 1, column=feature_names[j])
        codes, query_ids = pd.factorize(qid)
        _check_query_sizes(codes, query_ids, source, lambda i: {"row": i + 1})

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
            raise _error(f"the {what} is not numeric; expected numbers", source) from None

    @staticmethod
    def _as_query_ids(qid, n_docs, source):
        qid = np.asarray(qid)
        if qid.shape != (n_docs,):
            raise _error(f"the query ids have shape {qid.shape} but there are {n_docs} documents; "
                         f"expected one query id per document", source)
        if qid.dtype.kind in "US":
            # Python str elements rather than np.str_, so ds.qid[0] prints as 'q1'.
            qid = qid.astype(object)
        missing = np.flatnonzero(pd.isna(qid))
        if len(missing):
            raise _error("the query id is missing; expected a query id for every document",
                         source, row=int(missing[0]) + 1)
        return qid

    @staticmethod
    def _as_feature_names(names, n_features, source):
        if names is None:
            return [f"f{j + 1}" for j in range(n_features)]
        names = [str(n) for n in names]
        if len(names) != n_features:
            raise _error(f"there are {len(names)} feature names for {n_features} feature columns; "
                         f"expected one name per column", source)
        if any(n == "" for n in names):
            raise _error("a feature name is empty; expected a non-empty name for every feature", source)
        _check_unique(names, "feature name", source)
        return names

    def __repr__(self):
        return (f"QueryDataset(name={self.name!r}, n_queries={self.n_queries}, "
                f"n_docs={self.n_docs}, n_features={self.n_features})")

    @property
    def n_docs(self):
        """Number of documents (rows)."""
        return self.X.shape[0]

    @property
    def n_features(self):
        """Number of features (columns of ``X``)."""
        return self.X.shape[1]

    @property
    def n_missing_features(self):
        """Number of missing (NaN) feature values."""
        return count_missing_features(self.X)

    @property
    def n_queries(self):
        """Number of distinct queries."""
        return len(self._query_ids)

    @property
    def query_index(self):
        """Query code ``0..n_queries-1`` of every document, in order of first appearance."""
        return self._codes

    @property
    def query_ids(self):
        """The distinct original query ids, in order of first appearance."""
        return self._query_ids

    @property
    def query_sizes(self):
        """Documents per query, aligned with :attr:`query_ids` (ndarray of int)."""
        return np.bincount(self._codes, minlength=self.n_queries)

    def subset_queries(self, query_ids):
        """The documents of some queries, as a new dataset.

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
            raise _error("no queries were chosen; expected at least one query id", self.name)
        codes = pd.Index(self._query_ids).get_indexer(wanted)
        unknown = np.flatnonzero(codes < 0)
        if len(unknown):
            raise _error(f"the query {_query_text(wanted[unknown[0]])} is not in the dataset; expected "
                         f"one of its {self.n_queries} query ids", self.name)
        rows = np.isin(self._codes, codes)
        return QueryDataset(self.X[rows], self.relevance[rows], self.qid[rows], list(self.feature_names),
                            name=self.name, description=self.description)

    def to_frame(self, query_column="qid", relevance_column="relevance"):
        """One table: the query id, the relevance, then the features.

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
        taken = [c for c in (query_column, relevance_column) if c in set(self.feature_names)]
        if taken or query_column == relevance_column:
            clash = taken[0] if taken else query_column
            raise _error(f"the column name {clash!r} is already used; expected query and relevance "
                         f"column names different from each other and from the feature names", self.name)
        frame = pd.DataFrame(self.X, columns=self.feature_names)
        frame.insert(0, relevance_column, self.relevance)
        frame.insert(0, query_column, self.qid)
        return frame


def _part_names(k):
    return ("train", "vali", "test") if k == 3 else ("train", "test") if k == 2 else \
        tuple(f"part{i + 1}" for i in range(k))


def split_by_query(dataset, fractions=(0.6, 0.2, 0.2), seed=0):
    """Split a dataset into parts made of whole queries (e.g. train / vali / test).

    Parameters
    ----------
    dataset : QueryDataset
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
    """
    fractions = np.asarray(fractions, dtype=float)
    if fractions.ndim != 1 or len(fractions) < 2 or not (fractions > 0).all() \
            or abs(fractions.sum() - 1.0) > 1e-6:
        raise _error(f"the fractions {fractions.tolist()} are not valid; expected 2 or more positive "
                     f"shares of the queries summing to 1, e.g. (0.6, 0.2, 0.2)", dataset.name)
    n = dataset.n_queries
    cuts = np.round(np.cumsum(fractions) * n).astype(int)
    cuts[-1] = n
    sizes = np.diff(np.concatenate([[0], cuts]))
    if (sizes < 1).any():
        raise _error(f"there {'is' if n == 1 else 'are'} {n} quer{'y' if n == 1 else 'ies'}, too few to "
                     f"split into {len(fractions)} parts by {fractions.tolist()}; expected at least one "
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
# svmlight / LETOR
# --------------------------------------------------------------------------- #
def _feature_problem(token, previous):
    """What is wrong with one ``index:value`` token, or None; ``previous`` = last good token."""
    if token.startswith("qid:"):
        return (f"a second query id {_show(token)}; expected one qid: per line, right after the relevance, "
                f"e.g. {_LINE_EXAMPLE}")
    expected = f"expected index:value such as {_FEATURE_EXAMPLE}"
    if ":" not in token:
        return f"the token {_show(token)} is not a feature; {expected}"
    index_text, _, value_text = token.partition(":")
    if ":" in value_text:
        return f"the token {_show(token)} has more than one ':'; {expected}"
    if index_text == "":
        return f"the feature index is empty in {_show(token)}; {expected}"
    if not _INDEX_RE.fullmatch(index_text):
        return (f"the feature index {_show(index_text)} in {_show(token)} is not a whole number; expected "
                f"index:value with a whole-number index from 1, such as {_FEATURE_EXAMPLE}")
    index = int(index_text)
    if index < 1:
        return (f"the feature index {index} in {_show(token)} is less than 1; expected 1-based indices "
                f"(the first feature is 1:)")
    if index > MAX_FEATURE_INDEX:
        return (f"the feature index {index} in {_show(token)} is larger than {MAX_FEATURE_INDEX}; expected "
                f"feature numbers up to {MAX_FEATURE_INDEX}")
    if previous is not None:
        last = int(previous.partition(":")[0])
        if index == last:
            return (f"the feature index {index} in {_show(token)} repeats {_show(previous)}; expected each "
                    f"feature at most once per line")
        if index < last:
            return (f"the feature index {index} in {_show(token)} comes after {_show(previous)}; expected "
                    f"feature indices in increasing order")
    if value_text == "":
        return f"the feature value is empty in {_show(token)}; {expected}"
    value = _parse_number(value_text)
    if value is None:
        return f"the feature value {_show(value_text)} in {_show(token)} is not a number; {expected}"
    if not np.isfinite(value):
        return (f"the feature value {_show(value_text)} in {_show(token)} is not a finite number; expected a "
                f"finite number (leave a feature out for 0)")
    return None


def _line_problem(body):
    """What is wrong with one data line (comment removed), or None if it is fine."""
    tokens = body.split()
    first = tokens[0]
    if first.startswith("qid:"):
        return f"the line starts with {_show(first)}, so the relevance is missing; expected {_LINE_EXAMPLE}"
    relevance = _parse_number(first)
    if relevance is None:
        return f"relevance {_show(first)} is not a number; {_RELEVANCE_EXPECTED}"
    if not np.isfinite(relevance):
        return f"relevance {_show(first)} is not a finite number; {_RELEVANCE_EXPECTED}"
    if len(tokens) < 2:
        return f"'qid:' is missing (the line holds only the relevance {_show(first)}); expected {_LINE_EXAMPLE}"
    if not tokens[1].startswith("qid:"):
        return (f"'qid:' is missing: {_show(tokens[1])} follows the relevance; expected the query id as "
                f"qid:<id> right after the relevance, e.g. {_LINE_EXAMPLE}")
    if tokens[1] == "qid:":
        return "the query id is empty in 'qid:'; expected qid:<id> such as qid:10"
    previous = None
    for token in tokens[2:]:
        problem = _feature_problem(token, previous)
        if problem is not None:
            return problem
        previous = token
    return None


def _raise_line_error(raw_line, line_number, source):
    body = raw_line.partition("#")[0]
    problem = _line_problem(body)
    if problem is None:  # pragma: no cover - the fast path flagged a line the slow path accepts
        problem = f"the line cannot be read; expected {_LINE_EXAMPLE}"
    raise _error(problem, source, line=line_number)


def _scan_lines(lines):
    """Split well-formed lines into their parts until the first malformed one.

    Returns ``(line_numbers, relevance, qid, features, stop)``: lists with one
    entry per document line (``features`` the ``index:value`` part as one
    string) and the index in ``lines`` of the first line the fast pattern
    rejects (None if all match).
    """
    numbers, relevance, qids, features = [], [], [], []
    match = _LINE_RE.fullmatch
    for k, raw in enumerate(lines):
        body = raw.partition("#")[0] if "#" in raw else raw
        if body.isspace() or body == "":
            continue
        m = match(body)
        if m is None:
            return numbers, relevance, qids, features, k
        numbers.append(k + 1)
        relevance.append(m.group(1))
        qids.append(m.group(2))
        features.append(m.group(3))
    return numbers, relevance, qids, features, None


def load_svmlight(path_or_buffer, name=None):
    """Read a learning-to-rank set in the svmlight / LETOR ranking format.

    Each document is one line ``rel qid:Q i:v j:w ... # comment``: the graded
    relevance, the query id, then ``index:value`` features with 1-based,
    strictly increasing indices. Features left out are 0 (as in svmlight),
    so lines may be sparse. Blank lines, lines starting with ``#`` and
    everything after a ``#`` are ignored. The documents of a query need not
    be contiguous.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. an upload).
        Bytes are decoded as UTF-8.
    name : str, optional
        Dataset name; defaults to the file name without extension.

    Returns
    -------
    QueryDataset
        ``D`` features named ``f1..fD``, ``D`` the largest index seen; query
        ids as int64 when every id is a whole number, else as strings.

    Raises
    ------
    DataError
        For a file without documents, a relevance that is not a (finite)
        number, a missing or empty ``qid:``, a malformed feature token
        (``abc``, ``3:abc``, ``3:``, ``0:1.5``, a repeated or decreasing
        index, a non-finite value), no feature on any line, or a query with
        a single document. The message names the file, the line and the
        token, e.g. ``"train.txt, line 7: the feature index 2 in '2:0.1'
        comes after '5:0.3'; expected feature indices in increasing order"``.
        The first faulty line of the file is reported.
    """
    text, source = _read_text(path_or_buffer)
    lines = _split_lines(text)
    numbers, rel_tokens, qid_tokens, feature_parts, stop = _scan_lines(lines)

    # Vectorised checks over the lines that matched the pattern; the first
    # faulty line (found here or by the pattern) is then diagnosed token by
    # token, so every message comes from one place (_line_problem).
    n = len(numbers)
    relevance = _to_float(rel_tokens)
    counts = np.fromiter((p.count(":") for p in feature_parts), dtype=np.int64, count=n)
    flat = " ".join(feature_parts).replace(":", " ").split()
    try:
        indices = np.array(flat[0::2], dtype=np.int64)
    except OverflowError:
        indices = np.full(len(flat) // 2, MAX_FEATURE_INDEX + 1, dtype=np.int64)
    values = _to_float(flat[1::2])
    doc_of = np.repeat(np.arange(n), counts)
    same_doc = np.concatenate([[False], doc_of[1:] == doc_of[:-1]])
    bad_feature = (~np.isfinite(values) | (indices < 1) | (indices > MAX_FEATURE_INDEX)
                   | (same_doc & (indices <= np.concatenate([[0], indices[:-1]]))))
    bad_docs = np.concatenate([np.flatnonzero(~np.isfinite(relevance)), doc_of[bad_feature]])
    if len(bad_docs):
        line = numbers[int(bad_docs.min())]
        _raise_line_error(lines[line - 1], line, source)
    if stop is not None:
        _raise_line_error(lines[stop], stop + 1, source)

    if n == 0:
        raise _error(f"the file has no documents; expected one line per document such as {_LINE_EXAMPLE}",
                     source)
    n_features = int(indices.max()) if len(indices) else 0
    if n_features == 0:
        raise _error(f"no line has a feature; expected index:value features such as {_FEATURE_EXAMPLE} "
                     f"after the query id", source)
    qid = _parse_query_ids(qid_tokens)
    codes, query_ids = pd.factorize(qid)
    line_numbers = np.asarray(numbers)
    _check_query_sizes(codes, query_ids, source, lambda i: {"line": line_numbers[i]})
    X = np.zeros((n, n_features))
    X[doc_of, indices - 1] = values
    return QueryDataset(X, relevance, qid, name=_stem(source) if name is None else str(name))


def _format_number(value, significant_digits):
    """Whole numbers without a decimal point; others round-trip exactly or to ``significant_digits``."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    if significant_digits is None:
        return repr(value)
    return format(value, f".{int(significant_digits)}g")


def _check_query_token(qid, source):
    text = str(qid)
    if text == "" or any(c.isspace() for c in text) or "#" in text:
        raise _error(f"the query id {text!r} cannot be written as qid:<id>; expected ids without "
                     f"spaces or '#'", source)
    return text


def dump_svmlight(dataset, path_or_buffer, significant_digits=None, sparse=False, comment=None):
    """Write a dataset in the svmlight / LETOR ranking format.

    Parameters
    ----------
    dataset : QueryDataset
    path_or_buffer : str, os.PathLike or writable text file object
    significant_digits : int, optional
        Round feature values (and non-integer relevances) to this many
        significant digits to keep files small; by default every value is
        written so that :func:`load_svmlight` reads back exactly the same
        float. Whole numbers are always written without a decimal point.
    sparse : bool, default=False
        Leave out zero features (svmlight style) instead of writing every
        feature (LETOR style); the last feature is always written, so that
        the file keeps its number of features.
    comment : str, optional
        Written first, each of its lines as a ``# ...`` comment line.

    Notes
    -----
    Feature indices are the 1-based column positions; feature names are not
    stored (the format has no place for them).
    """
    source = dataset.name
    qids = [_check_query_token(_scalar(q), source) for q in dataset.qid]
    out = []
    if comment:
        out.extend(f"# {line}".rstrip() for line in str(comment).splitlines())
    X = dataset.X.tolist()
    for rel, qid, row in zip(dataset.relevance.tolist(), qids, X):
        # Sparse lines still write the last feature, zero or not: the reader
        # takes the number of features from the largest index it sees.
        last = len(row) - 1
        features = " ".join(f"{j + 1}:{_format_number(v, significant_digits)}"
                            for j, v in enumerate(row) if not (sparse and v == 0.0 and j != last))
        head = f"{_format_number(rel, significant_digits)} qid:{qid}"
        out.append(f"{head} {features}" if features else head)
    text = "\n".join(out) + "\n"
    if isinstance(path_or_buffer, (str, os.PathLike)):
        Path(path_or_buffer).write_text(text, encoding="utf-8")
    else:
        path_or_buffer.write(text)


# --------------------------------------------------------------------------- #
# CSV
# --------------------------------------------------------------------------- #
def _check_column(header, column, kind, source):
    if column not in set(header):
        raise _error(f"there is no {kind} column {_show(column)}; expected one of the columns of the header: "
                     f"{_quote_list(header)}",
                     source)


def _query_column(frame, column, lines, source):
    cells = frame[column].str.strip()
    missing = _missing_mask(cells).to_numpy()
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        what = "the query id is empty" if cells.iloc[i] == "" else \
            f"the query id {_show(cells.iloc[i])} marks a missing value"
        raise _error(f"{what}; expected a query id for every document", source, line=lines[i], column=column)
    return _parse_query_ids(cells)


def _relevance_column(frame, column, lines, source):
    cells = frame[column].str.strip()
    missing = _missing_mask(cells).to_numpy()
    values = _to_float(cells.where(~missing, "x"))
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        i = int(bad[0])
        cell = cells.iloc[i]
        if cell == "":
            problem = f"the relevance is empty; {_RELEVANCE_EXPECTED} for every document"
        elif missing[i]:
            problem = f"relevance {_show(cell)} marks a missing value; {_RELEVANCE_EXPECTED} for every document"
        elif _parse_number(cell) is not None:
            problem = f"relevance {_show(cell)} is not a finite number; {_RELEVANCE_EXPECTED}"
        else:
            problem = f"relevance {_show(cell)} is not a number; {_RELEVANCE_EXPECTED}"
        raise _error(problem, source, line=lines[i], column=column)
    return values


def _default_features(frame, exclude):
    """Columns other than ``exclude`` whose non-missing cells are mostly numbers.

    "Mostly" (more than half), not "all": a numeric column with a typo stays
    a feature and its bad cell is reported, while a text column (document
    ids, titles) that happens to hold a number or two is left out.
    """
    chosen = []
    for column in frame.columns:
        if column in exclude:
            continue
        cells = frame[column].str.strip()
        present = ~_missing_mask(cells).to_numpy()
        numeric = np.isfinite(_to_float(cells[present])) if present.any() else np.array([])
        if len(numeric) and numeric.sum() * 2 > len(numeric):
            chosen.append(column)
    return chosen


def _feature_matrix(frame, columns, lines, source):
    """The feature cells as floats, NaN for a missing cell; the first bad cell in file order is reported."""
    X = np.empty((len(frame), len(columns)))
    first = None  # (row, column position, problem)
    for j, column in enumerate(columns):
        cells = frame[column].str.strip()
        missing = _missing_mask(cells).to_numpy()
        X[:, j] = _to_float(cells.where(~missing, "nan"))
        bad = np.flatnonzero(~np.isfinite(X[:, j]) & ~missing)
        if len(bad) and (first is None or bad[0] < first[0]):
            i = int(bad[0])
            cell = cells.iloc[i]
            if _parse_number(cell) is not None:
                problem = (f"the feature value {_show(cell)} is not a finite number; expected a finite number, "
                           f"or an empty cell for a missing value")
            else:
                problem = (f"the feature value {_show(cell)} is not a number; expected a number, or an empty "
                           f"cell for a missing value")
            first = (i, j, problem)
    if first is not None:
        i, j, problem = first
        raise _error(problem, source, line=lines[i], column=columns[j])
    return X


def load_query_csv(path_or_buffer, query_column, relevance_column, feature_columns=None, name=None):
    """Read a learning-to-rank set from a CSV file with a header row.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. an upload).
    query_column : str
        Column holding each document's query id (never empty); ids are int64
        when every one is a whole number, else strings.
    relevance_column : str
        Column holding the graded relevance (a finite number, never empty).
    feature_columns : list of str, optional
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

    Raises
    ------
    DataError
        For an empty file, fewer than 2 data rows, an unknown or repeated
        column, the same column chosen twice, no feature column, a row with
        the wrong number of fields, an empty query id or relevance, a
        relevance or feature value that is not a finite number (a missing
        feature value is NaN), a file over
        :data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, or a query with a single
        document. Messages name the
        file, the line (header = line 1) and the column, e.g. ``"docs.csv,
        line 4, column 'rel': relevance 'high' is not a number; expected a
        graded relevance such as 0, 1, 2"``.
    """
    query_column, relevance_column = str(query_column), str(relevance_column)
    text, source = _read_text(path_or_buffer)
    header = _parse_csv_header(text, source)
    _check_column(header, query_column, "query", source)
    _check_column(header, relevance_column, "relevance", source)
    if query_column == relevance_column:
        raise _error(f"the column {query_column!r} is chosen as both the query and the relevance column; "
                     f"expected two different columns", source)
    if feature_columns is not None:
        feature_columns = [feature_columns] if isinstance(feature_columns, str) else \
            [str(c) for c in feature_columns]
        for column in feature_columns:
            _check_column(header, column, "feature", source)
            if column in (query_column, relevance_column):
                role = "query" if column == query_column else "relevance"
                raise _error(f"the {role} column {column!r} is also chosen as a feature; expected "
                             f"features other than the query and relevance columns", source)
        _check_unique(feature_columns, "feature column", source)
    frame, lines = _read_records(text, header, source)
    if feature_columns is None:
        feature_columns = _default_features(frame, {query_column, relevance_column})
    if not feature_columns:
        raise _error(f"no column besides {query_column!r} and {relevance_column!r} holds numbers; "
                     f"expected at least one numeric feature column", source)
    qid = _query_column(frame, query_column, lines, source)
    relevance = _relevance_column(frame, relevance_column, lines, source)
    X = _feature_matrix(frame, feature_columns, lines, source)
    codes, query_ids = pd.factorize(qid)
    _check_query_sizes(codes, query_ids, source, lambda i: {"line": lines[i], "column": query_column})
    return QueryDataset(X, relevance, qid, feature_columns, name=_stem(source) if name is None else str(name))


# --------------------------------------------------------------------------- #
# synthetic data
# --------------------------------------------------------------------------- #
def _docs_range(docs_per_query):
    if np.ndim(docs_per_query) == 0:
        low = high = int(docs_per_query)
    else:
        low, high = (int(v) for v in docs_per_query)
    if low < 2 or high < low:
        raise ValueError(f"docs_per_query must be an int >= 2 or a range (low, high) with "
                         f"2 <= low <= high, got {docs_per_query!r}")
    return low, high


def _grade_shares(n_levels):
    """Share of documents per grade, halving from one grade to the next (most 0, few top)."""
    shares = 0.5 ** np.arange(n_levels)
    return shares / shares.sum()


def make_ltr_dataset(n_queries=200, docs_per_query=(5, 30), n_features=40, n_informative=8,
                     noise=1.0, n_levels=5, seed=0, query_shift=1.0):
    """Draw a synthetic learning-to-rank set in the style of web-search data.

    For each query, ``m`` documents (``m`` uniform in ``docs_per_query``)
    get features ``x = z + o_q`` with ``z ~ N(0, I)`` and a per-query offset
    ``o_q ~ N(0, query_shift^2 I)``, so raw feature values are not
    comparable across queries (as with query-dependent web features). Only
    the first ``n_informative`` features matter, through the within-query
    part ``z``::

        latent = sum_j z_j / sqrt(j)        (j = 1..n_informative)
                 + 0.75 [z_2 > 0.5]         (a threshold, if n_informative >= 2)
                 + 0.5 z_3 z_4              (an interaction, if n_informative >= 4)
                 + noise * N(0, 1)

    The latent score is cut at its quantiles into grades ``0..n_levels-1``
    whose shares halve from one grade to the next (for 5 grades about 52%,
    26%, 13%, 6%, 3%): most documents are 0 or 1, few are 4, as in LETOR.
    A query whose documents all got the same grade has its best document
    (highest latent score) moved one grade up (its worst one down if the
    grade is the top one), so every query has at least 2 distinct grades;
    this keeps grades in the order of the latent score.

    Parameters
    ----------
    n_queries : int, default=200
    docs_per_query : int or (int, int), default=(5, 30)
        Documents per query: a fixed number, or a range ``(low, high)``
        with both ends included; at least 2.
    n_features : int, default=40
    n_informative : int, default=8
        The informative features are ``f1..f<n_informative>``, strongest
        first; the others are noise.
    noise : float, default=1.0
        Standard deviation of the noise on the latent score (the signal's is
        about 1.7 with 8 informative features).
    n_levels : int, default=5
        Number of relevance grades (at least 2).
    seed : int or numpy.random.Generator, default=0
    query_shift : float, default=1.0
        Standard deviation of the per-query feature offsets.

    Returns
    -------
    QueryDataset
        Query ids ``1..n_queries``, each query's documents contiguous,
        relevance the grades as floats.
    """
    n_queries, n_features, n_informative, n_levels = (int(v) for v in (n_queries, n_features,
                                                                        n_informative, n_levels))
    low, high = _docs_range(docs_per_query)
    if n_queries < 1:
        raise ValueError(f"n_queries must be at least 1, got {n_queries}")
    if n_features < 1 or not 1 <= n_informative <= n_features:
        raise ValueError(f"expected 1 <= n_informative <= n_features, got n_informative={n_informative}, "
                         f"n_features={n_features}")
    if n_levels < 2:
        raise ValueError(f"n_levels must be at least 2, got {n_levels}")
    if noise < 0 or query_shift < 0:
        raise ValueError(f"noise and query_shift must be >= 0, got {noise} and {query_shift}")
    rng = np.random.default_rng(seed)
    sizes = rng.integers(low, high + 1, size=n_queries)
    query = np.repeat(np.arange(n_queries), sizes)
    Z = rng.standard_normal((len(query), n_features))
    offsets = rng.normal(0.0, query_shift, size=(n_queries, n_features))

    k = n_informative
    latent = Z[:, :k] @ (1.0 / np.sqrt(np.arange(1, k + 1)))
    if k >= 2:
        latent += 0.75 * (Z[:, 1] > 0.5)
    if k >= 4:
        latent += 0.5 * Z[:, 2] * Z[:, 3]
    latent += noise * rng.standard_normal(len(query))

    cuts = np.quantile(latent, np.cumsum(_grade_shares(n_levels))[:-1])
    grades = np.searchsorted(cuts, latent, side="right")
    _spread_grades(grades, latent, sizes, n_levels)
    X = Z + offsets[query]
    description = (f"Synthetic learning-to-rank data: {n_queries} queries, {low}-{high} documents each, "
                   f"{n_features} features (f1..f{k} informative, strongest first), grades 0..{n_levels - 1}, "
                   f"noise {noise:g}, per-query feature offsets with sd {query_shift:g}, seed {seed}.")
    return QueryDataset(X, grades.astype(float), np.arange(1, n_queries + 1)[query],
                        name="synthetic LTR", description=description)


def _spread_grades(grades, latent, sizes, n_levels):
    """In place: give every query (contiguous rows, ``sizes`` each) at least 2 distinct grades."""
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    ends = starts + sizes
    lowest = np.minimum.reduceat(grades, starts)
    flat = lowest == np.maximum.reduceat(grades, starts)
    if not flat.any():
        return
    query = np.repeat(np.arange(len(sizes)), sizes)
    order = np.lexsort((latent, query))          # by query, then latent score
    best, worst = order[ends - 1], order[starts]
    up = flat & (lowest < n_levels - 1)
    down = flat & ~up
    grades[best[up]] += 1
    grades[worst[down]] -= 1


# --------------------------------------------------------------------------- #
# samples
# --------------------------------------------------------------------------- #
def list_ltr_samples(directory=None):
    """Names of the learning-to-rank samples (folders ``NAME/`` holding ``ltr.json``).

    Parameters
    ----------
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`rankviz.datasets.label_ranking.SAMPLE_DIR`.

    Returns
    -------
    list of str
        Sorted folder names; empty if the directory does not exist.
    """
    folder = _sample_dir(directory)
    if not folder.is_dir():
        return []
    return sorted(p.parent.name for p in folder.glob(f"*/{LTR_SIDECAR}"))


def ltr_sample_info(name, directory=None):
    """The sidecar metadata of a learning-to-rank sample.

    Parameters
    ----------
    name : str
        Sample name, one of :func:`list_ltr_samples`.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`rankviz.datasets.label_ranking.SAMPLE_DIR`.

    Returns
    -------
    dict
        ``title``, ``description``, ``source``, ``script`` (str) and
        ``splits`` (dict: split name -> file name in the sample's folder),
        plus any other keys of the JSON file.

    Raises
    ------
    DataError
        If there is no such sample, or its JSON is unreadable or lacks a key.
    """
    path = _sample_dir(directory) / str(name) / LTR_SIDECAR
    if not path.is_file():
        available = list_ltr_samples(directory)
        listed = _quote_list(available) if available else "none"
        raise _error(f"there is no learning-to-rank sample {name!r}; available samples: {listed}")
    info = read_metadata(path, _SAMPLE_KEYS)
    splits = info["splits"]
    if not isinstance(splits, dict) or not splits or not all(isinstance(v, str) for v in splits.values()):
        raise _error(f"the key 'splits' is {splits!r}; expected an object mapping split names to file "
                     f"names, e.g. {{\"train\": \"train.txt\"}}", f"{name}/{LTR_SIDECAR}")
    return dict(info)


def load_ltr_sample(name="ltr_synthetic", directory=None):
    """Load the splits of a learning-to-rank sample from ``sample_data/NAME/``.

    Parameters
    ----------
    name : str, default="ltr_synthetic"
        Sample name, one of :func:`list_ltr_samples`.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`rankviz.datasets.label_ranking.SAMPLE_DIR`.

    Returns
    -------
    dict of str -> QueryDataset
        One dataset per split in the sidecar's order (``"train"``,
        ``"vali"``, ``"test"`` for the bundled sample), each named
        ``"<name>: <split>"`` and described by the sidecar's description.

    Raises
    ------
    DataError
        If the sample does not exist or a file is malformed.
    """
    info = ltr_sample_info(name, directory)
    folder = _sample_dir(directory) / str(name)
    out = {}
    for split, file_name in info["splits"].items():
        dataset = load_svmlight(folder / file_name, name=f"{name}: {split}")
        out[split] = QueryDataset(dataset.X, dataset.relevance, dataset.qid, dataset.feature_names,
                                  name=dataset.name, description=str(info["description"]))
    return out

