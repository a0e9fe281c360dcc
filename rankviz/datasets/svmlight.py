"""The svmlight / LETOR ranking format: ``rel qid:Q 1:v 2:v ... # comment``.

Every malformed line raises :class:`rankviz.exceptions.DataError`, whose
message names the file, the line (the first line of the file is line 1),
the token at fault and what was expected, e.g. ``"train.txt, line 12:
relevance 'high' is not a number; expected a graded relevance such as 0, 1,
2"``. A feature left out of a line is 0 by definition, so the format has no
missing values (``1:nan`` is refused).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from types import ModuleType
from typing import IO, Literal, overload

import numpy as np
from scipy.sparse import csr_matrix

from ..exceptions import data_error, show_text
from .queries import RELEVANCE_EXPECTED, QueryDataset, parse_query_ids
from ..jit import LazyKernels
from .reading import MAX_UPLOAD_BYTES, file_stem, parse_number, read_text, split_lines, to_float, whole_number

__all__ = ["load_svmlight", "dump_svmlight", "read_query_file", "CELLS_PER_VALUE", "KERNELS", "MAX_FEATURE_INDEX",
           "MAX_DENSE_BYTES", "SMALL_DENSE_BYTES", "warm_up"]

#: Largest feature index :func:`load_svmlight` accepts. Features are stored
#: densely (LETOR sets have tens to a few thousand), so a stray huge index
#: would otherwise ask for gigabytes.
MAX_FEATURE_INDEX = 100_000
#: The largest query size a group file may state: more documents than an upload can hold lines.
MAX_GROUP_SIZE = 10**9

#: Largest dense feature matrix (bytes of float64, documents x largest
#: feature index x 8) :func:`load_svmlight` builds: 8 x
#: :data:`~rankviz.datasets.reading.MAX_UPLOAD_BYTES` (400 MiB). A dense
#: LETOR file spends at least 4 bytes (``1:0 ``) on each value it holds,
#: i.e. at most twice its size as float64, so every dense file under the
#: upload limit fits, and so do sparse ones with up to 4 zeros for each
#: value written; a few bytes such as ``1 qid:1 100000:1`` on each of a few
#: thousand lines would otherwise ask for gigabytes. The file is parsed into
#: a sparse matrix first, so a refused file costs memory in proportion to
#: its size.
MAX_DENSE_BYTES = 8 * MAX_UPLOAD_BYTES
#: Below :data:`MAX_DENSE_BYTES`, the dense table may hold at most this many cells per value
#: the file writes (a density of 1/256: LETOR sets run from all values written to about a
#: quarter), or :data:`SMALL_DENSE_BYTES`, whichever is more: memory in proportion to the
#: file, so that 10 KB of ``1 qid:1 50000:1`` lines cannot ask for 400 MB.
CELLS_PER_VALUE = 256
#: A dense table this small is built whatever the file's size.
SMALL_DENSE_BYTES = 64 * 2**20

def _import_kernels() -> ModuleType:
    from . import svmlight_kernels
    return svmlight_kernels


#: The compiled reader of well-formed lines (:mod:`rankviz.datasets.svmlight_kernels`), built on first use;
#: until then, and for any line it leaves to it, :func:`load_svmlight` reads in Python (:mod:`rankviz.jit`).
KERNELS = LazyKernels("the svmlight reader", "rankviz.datasets.svmlight_kernels", load=_import_kernels,
                      warm_up=lambda: warm_up())  # defined below


def warm_up() -> None:
    """Compile the svmlight reader (or load it from Numba's cache): ``rankviz warm-up`` and the background build."""
    buffer = np.frombuffer(b"1 qid:1 1:0.5\n", dtype=np.uint8)
    KERNELS.load().scan(buffer, MAX_FEATURE_INDEX, np.empty(2), np.empty(2, dtype=np.int64),
                        np.empty((2, 2), dtype=np.int64), np.empty(2, dtype=np.int64), np.empty(1, dtype=np.int32),
                        np.empty(1, dtype=np.int32), np.empty(1))


_LINE_EXAMPLE = "'2 qid:10 1:0.5 2:0.13' (relevance, query id, then index:value features)"

_FEATURE_EXAMPLE = "3:0.25"


# A well-formed line (comment removed): relevance, qid:Q, then index:value
# tokens with a decimal index and exactly one ':'. Lines that match go the
# fast, vectorised way; any other line is diagnosed token by token.
# The qid may be left out when the queries come from a group file.
_LINE_RE = re.compile(r"\s*(\S+)(?:\s+qid:(\S+))?((?:\s+[0-9]+:[^\s:]+)*)\s*")

_INDEX_RE = re.compile(r"[0-9]+")

# A query id ending in <index>:<value> (``qid:1 1:0.4`` written without its space as
# ``qid:11:0.4``): ids may hold ':' (``qid:q:``), but not a feature glued on.
_GLUED_FEATURE = re.compile(r".*?[0-9]+:([^\s:]+)")


def _feature_problem(token, previous):
    """What is wrong with one ``index:value`` token, or None; ``previous`` = last good token."""
    if token.startswith("qid:"):
        return (f"a second query id {show_text(token)}; expected one qid: per line, right after the relevance, "
                f"e.g. {_LINE_EXAMPLE}")
    expected = f"expected index:value such as {_FEATURE_EXAMPLE}"
    if ":" not in token:
        return f"the token {show_text(token)} is not a feature; {expected}"
    index_text, _, value_text = token.partition(":")
    if ":" in value_text:
        return f"the token {show_text(token)} has more than one ':'; {expected}"
    if index_text == "":
        return f"the feature index is empty in {show_text(token)}; {expected}"
    if not _INDEX_RE.fullmatch(index_text):
        return (f"the feature index {show_text(index_text)} in {show_text(token)} is not a whole number; expected "
                f"index:value with a whole-number index from 1, such as {_FEATURE_EXAMPLE}")
    index = whole_number(index_text)
    if index < 1:
        return (f"the feature index {index} in {show_text(token)} is less than 1; expected 1-based indices "
                f"(the first feature is 1:)")
    if index > MAX_FEATURE_INDEX:
        shown = index_text if len(index_text) <= 60 else show_text(index_text)
        return (f"the feature index {shown} in {show_text(token)} is larger than {MAX_FEATURE_INDEX}; expected "
                f"feature numbers up to {MAX_FEATURE_INDEX}")
    if previous is not None:
        last = whole_number(previous.partition(":")[0])
        if index == last:
            return (f"the feature index {index} in {show_text(token)} repeats {show_text(previous)}; expected each "
                    f"feature at most once per line")
        if index < last:
            return (f"the feature index {index} in {show_text(token)} comes after {show_text(previous)}; expected "
                    f"feature indices in increasing order")
    if value_text == "":
        return f"the feature value is empty in {show_text(token)}; {expected}"
    value = parse_number(value_text)
    if value is None:
        return f"the feature value {show_text(value_text)} in {show_text(token)} is not a number; {expected}"
    if not np.isfinite(value):
        return (f"the feature value {show_text(value_text)} in {show_text(token)} is not a finite number; expected a "
                f"finite number (leave a feature out for 0)")
    return None

def _line_problem(body):
    """What is wrong with one data line (comment removed), or None if it is fine."""
    tokens = body.split()
    first = tokens[0]
    if first.startswith("qid:"):
        return f"the line starts with {show_text(first)}, so the relevance is missing; expected {_LINE_EXAMPLE}"
    relevance = parse_number(first)
    if relevance is None:
        return f"relevance {show_text(first)} is not a number; {RELEVANCE_EXPECTED}"
    if not np.isfinite(relevance):
        return f"relevance {show_text(first)} is not a finite number; {RELEVANCE_EXPECTED}"
    if len(tokens) < 2:
        return f"'qid:' is missing (the line holds only the relevance {show_text(first)}); expected {_LINE_EXAMPLE}"
    if not tokens[1].startswith("qid:"):
        return (f"'qid:' is missing: {show_text(tokens[1])} follows the relevance; expected the query id as "
                f"qid:<id> right after the relevance, e.g. {_LINE_EXAMPLE}")
    if tokens[1] == "qid:":
        return "the query id is empty in 'qid:'; expected qid:<id> such as qid:10"
    if _glued(tokens[1][4:]):
        return (f"the query id {show_text(tokens[1][4:])} ends in index:value, which reads as a feature (a "
                f"space missing before it?); expected qid:<id> followed by a space, e.g. {_LINE_EXAMPLE}")
    previous = None
    for token in tokens[2:]:
        problem = _feature_problem(token, previous)
        if problem is not None:
            return problem
        previous = token
    return None

def _glued(query: str) -> bool:
    """Whether a query id ends in ``<index>:<number>``, a feature written without the space before it."""
    match = _GLUED_FEATURE.fullmatch(query)
    return match is not None and parse_number(match.group(1)) is not None


def _raise_line_error(raw_line, line_number, source):
    body = raw_line.partition("#")[0]
    problem = _line_problem(body)
    if problem is None:  # pragma: no cover - the fast path flagged a line the slow path accepts
        problem = f"the line cannot be read; expected {_LINE_EXAMPLE}"
    raise data_error(problem, source, line=line_number)

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

def _read_general(lines, source):
    """Every document line read in Python: ``(line_numbers, relevance, qid_tokens, doc_of, indices, values)``.

    ``qid_tokens`` is a list with None for a line without ``qid:``; the
    first faulty line raises its :class:`~rankviz.exceptions.DataError`.
    """
    numbers, rel_tokens, qid_tokens, feature_parts, stop = _scan_lines(lines)
    # Vectorised checks over the lines that matched the pattern; the first
    # faulty line (found here or by the pattern) is then diagnosed token by
    # token, so every message comes from one place (_line_problem).
    n = len(numbers)
    relevance = to_float(rel_tokens)
    counts = np.fromiter((p.count(":") for p in feature_parts), dtype=np.int64, count=n)
    flat = " ".join(feature_parts).replace(":", " ").split()
    index_text = flat[0::2]  # ASCII digits: the line pattern took only those
    try:
        indices = np.fromiter(map(int, index_text), dtype=np.int64, count=len(index_text))
    except (OverflowError, ValueError):
        # An index too long for an int64 (or for int: over 4,300 digits) is above MAX_FEATURE_INDEX:
        # marked as such, so that the line holding it is the one diagnosed.
        indices = np.fromiter((whole_number(text, MAX_FEATURE_INDEX + 1) for text in index_text), dtype=np.int64,
                              count=len(index_text))
    values = to_float(flat[1::2])
    doc_of = np.repeat(np.arange(n), counts)
    same_doc = np.concatenate([[False], doc_of[1:] == doc_of[:-1]])
    bad_feature = (~np.isfinite(values) | (indices < 1) | (indices > MAX_FEATURE_INDEX)
                   | (same_doc & (indices <= np.concatenate([[0], indices[:-1]]))))
    glued = [k for k, q in enumerate(qid_tokens) if q is not None and ":" in q and _glued(q)]
    bad_docs = np.concatenate([np.flatnonzero(~np.isfinite(relevance)), doc_of[bad_feature],
                               np.asarray(glued, dtype=np.int64)])
    if len(bad_docs):
        line = numbers[int(bad_docs.min())]
        _raise_line_error(lines[line - 1], line, source)
    if stop is not None:
        _raise_line_error(lines[stop], stop + 1, source)
    return numbers, relevance, qid_tokens, doc_of, indices, values

def _read_compiled(text):
    """:func:`_read_general`'s result from the compiled reader, or None when it cannot read the file.

    None when the reader is not built yet (it is then built in the
    background, :mod:`rankviz.jit`) or a line needs the general reader
    (:mod:`rankviz.datasets.svmlight_kernels`): a faulty line, or an
    unusual number, space or query id. Query ids come as an int64 array
    when every one is a whole number, as :func:`parse_query_ids` gives them.
    """
    if not KERNELS.request():
        return None
    data = text.encode("utf-8")
    buffer = np.frombuffer(data, dtype=np.uint8)
    n_lines = int(np.count_nonzero(buffer == ord("\n"))) + 1
    # A feature takes at least 4 bytes with its separator or line end ("1:0 "): a file of colons
    # cannot ask for more than that.
    n_entries = min(int(np.count_nonzero(buffer == ord(":"))), (buffer.size + n_lines) // 4)
    relevance, qid_value = np.empty(n_lines), np.empty(n_lines, dtype=np.int64)
    line_of, qid_span = np.empty(n_lines, dtype=np.int64), np.empty((n_lines, 2), dtype=np.int64)
    doc_of, indices = np.empty(n_entries, dtype=np.int32), np.empty(n_entries, dtype=np.int32)
    values = np.empty(n_entries)
    n, entries, general_line, integer_ids = KERNELS.load().scan(buffer, MAX_FEATURE_INDEX, relevance, line_of,
                                                                qid_span, qid_value, doc_of, indices, values)
    if general_line:
        return None
    spans = qid_span[:n]
    if integer_ids and (spans[:, 0] >= 0).all():
        qid_tokens = qid_value[:n]
    elif (spans[:, 0] < 0).all():  # no query id at all (a group file gives them)
        qid_tokens = [None] * n
    else:
        qid_tokens = [data[start:stop].decode("ascii") if start >= 0 else None for start, stop in spans.tolist()]
    return (line_of[:n], relevance[:n], qid_tokens, doc_of[:entries], indices[:entries],
            values[:entries])

def read_query_file(path_or_buffer: str | os.PathLike | IO) -> np.ndarray:
    """Query sizes from a group file: one whole number of documents per line.

    The ``.query`` file of LightGBM and the ``.group`` file of XGBoost: line
    ``k`` says how many consecutive documents of the data file form query
    ``k``. Blank lines are skipped.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like

    Returns
    -------
    ndarray of int64

    Raises
    ------
    DataError
        For a line that is not a whole number of at least 1, or a file without sizes.
    """
    text, source = read_text(path_or_buffer)
    sizes = []
    for k, line in enumerate(split_lines(text), start=1):
        token = line.strip()
        if not token:
            continue
        # ASCII digits only: str.isdigit() also takes '³' and other digits int() refuses.
        size = whole_number(token) if _INDEX_RE.fullmatch(token) else 0
        if size < 1:
            raise data_error(f"{show_text(token)} is not a number of documents; expected one whole number "
                             "of at least 1 per line (the query's size, in the digits 0-9)", source, line=k)
        if size > MAX_GROUP_SIZE:
            raise data_error(f"the query size {show_text(token)} is larger than {MAX_GROUP_SIZE:,} documents; "
                             "expected the number of documents of one query (the data file's lines)", source, line=k)
        sizes.append(size)
    if not sizes:
        raise data_error("the group file has no query sizes; expected one number of documents per line", source)
    return np.asarray(sizes, dtype=np.int64)


@overload
def load_svmlight(path_or_buffer: str | os.PathLike | IO, name: str | None = None, *,
                  query_file: str | os.PathLike | IO | None = None, n_features: int | None = None,
                  sparse: Literal[False] = False) -> QueryDataset: ...


@overload
def load_svmlight(path_or_buffer: str | os.PathLike | IO, name: str | None = None, *,
                  query_file: str | os.PathLike | IO | None = None, n_features: int | None = None,
                  sparse: Literal[True]) -> tuple[csr_matrix, np.ndarray, np.ndarray]: ...


def load_svmlight(path_or_buffer: str | os.PathLike | IO, name: str | None = None, *,
                  query_file: str | os.PathLike | IO | None = None,
                  n_features: int | None = None,
                  sparse: bool = False) -> QueryDataset | tuple[csr_matrix, np.ndarray, np.ndarray]:
    """Read a learning-to-rank set in the svmlight / LETOR ranking format.

    Each document is one line ``rel qid:Q i:v j:w ... # comment``: the graded
    relevance, the query id, then ``index:value`` features with 1-based,
    strictly increasing indices. Features left out are 0 (as in svmlight),
    so lines may be sparse. Blank lines, lines starting with ``#`` and
    everything after a ``#`` are ignored. The documents of a query need not
    be contiguous. A query with a single document is kept (it adds no pair;
    see :mod:`rankviz.datasets.queries`).

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. an upload).
        Bytes are decoded as UTF-8.
    name : str, optional
        Dataset name; defaults to the file name without extension.
    query_file : str, os.PathLike or file-like, optional
        A group file (LightGBM's ``.query``, XGBoost's ``.group``,
        :func:`read_query_file`): the documents are then in query order, the
        first ``sizes[0]`` lines query 1 and so on, and lines need no
        ``qid:`` (one that has it is ignored in favour of the file).
    n_features : int, optional
        The number of features, e.g. a training file's for its test file,
        whose largest index may be smaller; an index above it is an error.
    sparse : bool, default=False
        Return ``(X, relevance, qid)`` with ``X`` a CSR matrix of the values
        the file writes, as scikit-learn's ``load_svmlight_file(...,
        query_id=True)`` does, instead of a :class:`QueryDataset` (whose
        features are dense): for files of LETOR's size, with
        :class:`rankviz.MPBoost`, which searches a sparse matrix from the
        values it holds. No limit on the dense size applies then.

    Returns
    -------
    QueryDataset
        ``D`` features named ``f1..fD``, ``D`` the largest index seen; query
        ids as int64 when every id is a whole number, else as strings. The
        lines are parsed into a sparse matrix, made dense only when it holds
        at most :data:`MAX_DENSE_BYTES`, and at most :data:`CELLS_PER_VALUE`
        cells per value written (or :data:`SMALL_DENSE_BYTES`).

        With ``sparse=True``, the tuple ``(X, relevance, qid)`` instead:
        ``X`` a ``scipy.sparse.csr_matrix`` of float64, the grades and the
        query ids as in the dataset.

    Raises
    ------
    DataError
        For a file without documents, a relevance that is not a (finite)
        number, a missing or empty ``qid:``, a malformed feature token
        (``abc``, ``3:abc``, ``3:``, ``0:1.5``, a repeated or decreasing
        index, a non-finite value), no feature on any line, or features whose dense form would exceed
        :data:`MAX_DENSE_BYTES` or :data:`CELLS_PER_VALUE` cells per value written (the line with the
        largest index is named). The message names the file, the line and the
        token, e.g. ``"train.txt, line 7: the feature index 2 in '2:0.1'
        comes after '5:0.3'; expected feature indices in increasing order"``.
        The first faulty line of the file is reported.

    See Also
    --------
    dump_svmlight : Write a dataset in this format.
    read_query_file : Read a group file of query sizes.
    rankviz.load_query_csv : Read a learning-to-rank set from a CSV file.

    Examples
    --------
    >>> import io
    >>> from rankviz import load_svmlight
    >>> text = "2 qid:1 1:0.5 3:1.2\\n0 qid:1 2:0.1\\n1 qid:2 1:0.9 2:0.3 # a comment\\n"
    >>> data = load_svmlight(io.StringIO(text), name="tiny")
    >>> data
    QueryDataset(name='tiny', n_queries=2, n_docs=3, n_features=3)
    >>> data.X  # features left out of a line are 0
    array([[0.5, 0. , 1.2],
           [0. , 0.1, 0. ],
           [0.9, 0.3, 0. ]])
    """
    declared_features = n_features
    text, source = read_text(path_or_buffer)
    lines: list[str] | None = None
    read = _read_compiled(text)
    if read is None:  # not built yet, or a line the compiled reader leaves to the general one
        lines = split_lines(text)
        read = _read_general(lines, source)
    numbers, relevance, qid_tokens, doc_of, indices, values = read
    n = len(numbers)
    if n == 0:
        raise data_error(f"the file has no documents; expected one line per document such as {_LINE_EXAMPLE}",
                     source)
    n_features = int(indices.max()) if len(indices) else 0
    if n_features == 0:
        raise data_error(f"no line has a feature; expected index:value features such as {_FEATURE_EXAMPLE} "
                     f"after the query id", source)
    if declared_features is not None:
        if isinstance(declared_features, bool) or not isinstance(declared_features, (int, np.integer)) \
                or declared_features < 1:
            raise ValueError(f"n_features must be an integer >= 1, got {declared_features!r}")
        if n_features > declared_features:
            widest = int(np.argmax(indices))
            raise data_error(f"the feature index {n_features} is above n_features={declared_features}; expected "
                             f"indices 1..{declared_features}", source, line=numbers[doc_of[widest]])
        n_features = int(declared_features)
    if query_file is not None:
        sizes = read_query_file(query_file)
        if int(sizes.sum()) != n:
            raise data_error(f"the group file's query sizes add up to {int(sizes.sum()):,} documents but the file "
                             f"has {n:,}; expected one size per query, in the order of the lines", source)
        qid_tokens = np.repeat(np.arange(1, len(sizes) + 1, dtype=np.int64), sizes)  # as parse_query_ids reads them
    elif not isinstance(qid_tokens, np.ndarray) and None in qid_tokens:
        line = numbers[qid_tokens.index(None)]
        lines = split_lines(text) if lines is None else lines
        problem = _line_problem(lines[line - 1].partition("#")[0]) or "'qid:' is missing"
        raise data_error(f"{problem}; or give a group file of query sizes (query_file=)", source, line=line)
    qid = qid_tokens if isinstance(qid_tokens, np.ndarray) else parse_query_ids(qid_tokens)
    if sparse:
        X_sparse = csr_matrix((values, (doc_of, indices - 1)), shape=(n, n_features))
        return X_sparse, relevance, qid
    line_numbers = np.asarray(numbers)
    X = _dense_features(doc_of, indices, values, n, n_features, line_numbers, source)
    return QueryDataset(X, relevance, qid, name=file_stem(source) if name is None else str(name))

def _dense_features(doc_of, indices, values, n, n_features, line_numbers, source):
    """The (documents, features) matrix, built sparse and made dense within :data:`MAX_DENSE_BYTES`.

    A refused matrix names the line with the largest feature index, the
    index, and the size the dense form would take.
    """
    dense_bytes = n * n_features * 8
    in_proportion = max(SMALL_DENSE_BYTES, 8 * CELLS_PER_VALUE * len(values))
    if dense_bytes > min(MAX_DENSE_BYTES, in_proportion):
        if dense_bytes > MAX_DENSE_BYTES:
            allowed = MAX_DENSE_BYTES
            limit = (f"over the limit of {MAX_DENSE_BYTES / 2**20:,.0f} MiB "
                     "(rankviz.datasets.svmlight.MAX_DENSE_BYTES)")
        else:
            allowed = in_proportion
            limit = (f"from {len(values):,} values written: over {CELLS_PER_VALUE} cells per value "
                     "(rankviz.datasets.svmlight.CELLS_PER_VALUE)")
        widest = int(np.argmax(indices))
        raise data_error(
            f"the feature index {n_features} makes the features a dense table of {n:,} documents x "
            f"{n_features:,} features ({dense_bytes / 2**20:,.0f} MiB as 8-byte numbers), {limit}; expected "
            f"feature indices up to {allowed // (8 * n):,} for {n:,} documents",
            source, line=line_numbers[doc_of[widest]])
    matrix = csr_matrix((values, (doc_of, indices - 1)), shape=(n, n_features))
    return matrix.toarray()

def _format_number(value, significant_digits):
    """Whole numbers without a decimal point; others round-trip exactly or to ``significant_digits``."""
    if value == int(value) and abs(value) < 1e15:
        return str(int(value))
    if significant_digits is None:
        return repr(value)
    return format(value, f".{int(significant_digits)}g")

def _check_query_token(qid, source):
    text = str(qid)
    if text == "" or any(c.isspace() for c in text) or "#" in text or _glued(text):
        raise data_error(f"the query id {text!r} cannot be written as qid:<id>; expected ids without "
                         f"spaces or '#', not ending in <index>:<number> (it would read as a feature)", source)
    return text

def dump_svmlight(dataset: QueryDataset, path_or_buffer: str | os.PathLike | IO[str],
                  significant_digits: int | None = None, sparse: bool = False,
                  comment: str | None = None) -> None:
    """Write a dataset in the svmlight / LETOR ranking format.

    One line ``rel qid:Q 1:v 2:w ...`` per document, in the dataset's row
    order, in UTF-8; :func:`load_svmlight` reads the file back.

    Parameters
    ----------
    dataset : QueryDataset
        The documents to write: relevance, query id and features of each.
    path_or_buffer : str, os.PathLike or writable text file object
        The file to write (replaced if it exists), or an open text buffer
        the lines are written to.
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

    Raises
    ------
    DataError
        If a query id contains white space or ``#``, which the format
        cannot hold.

    See Also
    --------
    load_svmlight : Read the file back.

    Notes
    -----
    Feature indices are the 1-based column positions; feature names are not
    stored (the format has no place for them).

    Examples
    --------
    >>> import io
    >>> import numpy as np
    >>> from rankviz import QueryDataset
    >>> from rankviz.datasets import dump_svmlight
    >>> data = QueryDataset(np.array([[0.5, 0.0], [0.0, 0.25]]), [2, 0], [1, 1])
    >>> buffer = io.StringIO()
    >>> dump_svmlight(data, buffer, sparse=True, comment="two documents")
    >>> print(buffer.getvalue(), end="")
    # two documents
    2 qid:1 1:0.5 2:0
    0 qid:1 2:0.25
    """
    source = dataset.name
    qids = [_check_query_token(q, source) for q in dataset.qid.tolist()]
    out: list[str] = []
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
