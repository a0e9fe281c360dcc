"""Label-ranking datasets: a feature table, a rank matrix and label names.

Rankings are stored as rank **positions**: ``Y[i, j]`` is the position of
label ``j`` for example ``i``; 1 = most preferred, ``NaN`` = label missing,
ties get the average of the positions they share (``1.5, 1.5, 3``).

Loaders
-------
load_benchmark
    The headerless ``n,d,L`` format of the label-ranking benchmark files.
load_csv
    A CSV with a header row; the target given as rank positions, as scores
    (higher = better) or as one column of orderings such as ``b>a=c``.
load_sample
    A dataset from the project's ``sample_data/`` directory.

Every malformed input raises :class:`DataError`. Its message is one sentence
that names the file, the line as numbered in the file (the header, or the
``n,d,L`` line, is line 1) and the column, and says what was expected, so
an app can show ``str(error)`` to the user as it is.

What the loaders accept (the same rules for every text loader of rankviz:
this module, :mod:`rankviz.datasets.ordinal` and :mod:`rankviz.datasets.queries`):

* **Size.** At most :data:`MAX_UPLOAD_BYTES` (50 MB); a larger file is
  refused before it is read, with a message giving its size and the limit.
* **Encoding.** UTF-8; a byte-order mark is ignored; ``\r\n`` and ``\r``
  line ends are read as ``\n``.
* **Separator.** Comma, semicolon or tab, whichever occurs most often on
  line 1 (outside quotes; a tie or none means comma). With ``;`` or tabs a
  number may use a **decimal comma** (``0,5`` = 0.5, as European Excel
  writes it); thousands separators are not read.
* **Quotes.** ``"..."`` fields may hold the separator; a quote that is never
  closed is an error naming its line.
* **Blank lines** (empty or only spaces) are ignored anywhere after line 1.
* **Missing feature values.** An empty cell or one of ``NA``, ``N/A``,
  ``NaN``, ``nan``, ``null``, ``NULL``, ``?`` (the benchmark format: only an
  empty cell) is a missing value: NaN in a numeric feature, missing (NaN)
  in a nominal one. Rows are never dropped; ``n_missing_features`` of a
  dataset counts the missing values. Infinite numbers are refused.
* **Feature kinds.** A column whose every present cell is a number is
  numeric (float); any other column, e.g. numbers mixed with text, is
  nominal and kept as (stripped) text.
* **Rankings.** Rank positions must be a ranking of the labels present in
  the row, ties as average positions (``1.5, 1.5, 3``); a repeated or
  out-of-range position is an error naming the line and the columns. Every
  row needs two ranked labels; a rank or score column empty in every row is
  refused (an ordering may leave out a label of an explicit label list).
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from ..features import is_nominal_column

__all__ = [
    "DataError",
    "MAX_UPLOAD_BYTES",
    "MAX_UPLOAD_MB",
    "check_upload_size",
    "RankingDataset",
    "validate_rank_matrix",
    "count_missing_features",
    "describe_missing_features",
    "load_benchmark",
    "load_csv",
    "read_csv_header",
    "list_samples",
    "sample_info",
    "load_sample",
    "SAMPLE_DIR",
    "TARGET_KINDS",
]

#: Directory holding ``NAME.csv`` + ``NAME.json`` sample datasets.
SAMPLE_DIR = Path(__file__).resolve().parents[2] / "sample_data"

#: Accepted values of the ``target`` argument of :func:`load_csv`.
TARGET_KINDS = ("ranks", "scores", "ordering")

#: Largest file, in megabytes, that any loader (and the app's upload pickers)
#: reads. Larger files are refused before they are read, so a stray upload
#: cannot exhaust memory: parsing needs several times the file's size.
#: Streamlit's ``file_uploader(max_upload_size=...)`` takes the same unit.
MAX_UPLOAD_MB = 50

#: :data:`MAX_UPLOAD_MB` in bytes (a megabyte being 1024 * 1024 bytes, as in
#: Streamlit). Loaders read this module attribute at call time.
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024

#: Separators a CSV file may use; the one that occurs most often on line 1 wins.
_SEPARATORS = (",", ";", "\t")
_SEPARATOR_NAMES = {",": "','", ";": "';'", "\t": "tabs"}

#: A number written with a decimal comma: ``0,5``, ``-1,25e3``, ``,5``.
_DECIMAL_COMMA = r"^\s*[+-]?(?:\d+,\d*|,\d+)(?:[eE][+-]?\d+)?\s*$"

#: Cell texts read as "no value": empty, or one of these (after stripping).
_MISSING_MARKERS = frozenset({"", "NA", "N/A", "NaN", "nan", "null", "NULL", "?"})

#: Keys every sample sidecar ``NAME.json`` must have.
_SAMPLE_KEYS = ("title", "description", "source", "script", "feature_columns", "label_columns")

_TOLERANCE = 1e-9


class DataError(ValueError):
    """Malformed input data; the message says what, where and what was expected."""


# --------------------------------------------------------------------------- #
# messages
# --------------------------------------------------------------------------- #
def _where(source="", line=None, row=None, column=None):
    """``"iris.csv, line 7, column 'a'"`` from the parts that are known."""
    parts = []
    if source:
        parts.append(str(source))
    if line is not None:
        parts.append(f"line {int(line)}")
    if row is not None:
        parts.append(f"row {int(row)}")
    if column is not None:
        parts.append(column if isinstance(column, _Raw) else f"column {column!r}")
    return ", ".join(parts)


class _Raw(str):
    """A column description used verbatim by :func:`_where`."""


def _error(problem, source="", line=None, row=None, column=None):
    """A :class:`DataError` whose message is ``"<where>: <problem>"``."""
    where = _where(source, line, row, column)
    if where:
        return DataError(f"{where}: {problem}")
    return DataError(problem[:1].upper() + problem[1:])


def _show(text, limit=60):
    """``repr(text)``, shortened to ``limit`` characters with its length given."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def _megabytes(n_bytes):
    """``"50 MB"``, ``"61.2 MB"``: bytes in megabytes of 1024 * 1024."""
    value = n_bytes / (1024 * 1024)
    return f"{value:.0f} MB" if value == int(value) else f"{value:.1f} MB"


def check_upload_size(n_bytes, source=""):
    """Refuse a file larger than :data:`MAX_UPLOAD_BYTES`.

    Parameters
    ----------
    n_bytes : int
        The file's size in bytes.
    source : str, optional
        The file name, put first in the message.

    Raises
    ------
    DataError
        ``"big.csv: the file is 61.2 MB (64,172,851 bytes); expected at most
        50 MB, the upload limit (rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES)"``.
    """
    limit = MAX_UPLOAD_BYTES
    if n_bytes is not None and n_bytes > limit:
        size = _megabytes(n_bytes)
        if float(size.split()[0]) <= limit / (1024 * 1024):  # "50.0 MB" would not look larger
            size = f"{n_bytes / (1024 * 1024):.6f}".rstrip("0") + " MB"
        raise _error(
            f"the file is {size} ({n_bytes:,} bytes); expected at most {_megabytes(limit)}, the upload "
            f"limit (rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES)",
            source,
        )


def _fmt(value):
    """A number as a person would write it (``1``, ``1.5``); NaN as ``missing``."""
    value = float(value)
    if np.isnan(value):
        return "missing"
    return format(value, ".10g")


def _count(n, noun):
    """``"is 1 example"`` / ``"are 3 examples"``."""
    return f"is 1 {noun}" if n == 1 else f"are {n} {noun}s"


def _quote_list(names, limit=20):
    names = [_show(n) for n in names]
    if len(names) > limit:
        names = names[:limit] + [f"... ({len(names) - limit} more)"]
    return ", ".join(names)


def _tie_example(m):
    """Example ranking of ``m`` labels with a tie: ``1.5, 1.5, 3`` (``..., 200`` when long)."""
    example = [1.5, 1.5] + list(range(3, m + 1)) if m >= 2 else [1]
    if len(example) > 6:
        example = example[:4] + ["...", m]
    return ", ".join(v if isinstance(v, str) else _fmt(v) for v in example)


# --------------------------------------------------------------------------- #
# rank matrix validation
# --------------------------------------------------------------------------- #
def _row_place(i, line_numbers):
    """``{"line": ...}`` or ``{"row": ...}`` for the ``i``-th row (0-based)."""
    if line_numbers is None:
        return {"row": i + 1}
    return {"line": int(line_numbers[i])}


def _check_labels_used(present, label_names, source, what, column_offset=None):
    """Every label column of a file must hold a rank (score) in at least one row.

    An empty label column is almost surely a wrong choice of columns. (With
    orderings, labels given explicitly may be unused: the label set is then
    chosen on purpose.)
    """
    unused = np.flatnonzero(~present.any(axis=0))
    if len(unused):
        j = unused[0]
        raise _error(
            f"the label {_show(label_names[j], 40)} has no {what} in any row; expected every label "
            f"to be ranked in at least one row (leave the column out of the labels otherwise)",
            source, column=_label_columns([j], label_names, column_offset),
        )


def _check_two_present(present, source, line_numbers, what):
    """Every row must have at least two present labels."""
    counts = present.sum(axis=1)
    bad = np.flatnonzero(counts < 2)
    if len(bad):
        i = bad[0]
        got = "none" if counts[i] == 0 else "only 1"
        raise _error(
            f"{got} of the {present.shape[1]} labels has {what}; expected at least 2 per row, "
            f"since a ranking needs 2 labels",
            source, **_row_place(i, line_numbers),
        )


def _label_columns(indices, label_names, column_offset):
    """How messages name the columns of some labels.

    ``column 'a'`` / ``columns 'a' and 'b'`` (a file with a header: the column
    is the label), or ``column 5 (rank of 'label_3')`` / ``columns 3 and 4
    (ranks of 'label_1' and 'label_2')`` when ``column_offset`` (0-based file
    column of the first label, a headerless file) is given.
    """
    indices = list(indices)
    names = _and([_show(label_names[j], 40) for j in indices])
    if column_offset is None:
        return _Raw(f"column {names}" if len(indices) == 1 else f"columns {names}")
    numbers = _and([str(column_offset + j + 1) for j in indices])
    if len(indices) == 1:
        return _Raw(f"column {numbers} (rank of {names})")
    return _Raw(f"columns {numbers} (ranks of {names})")


def _and(items, limit=6):
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'`` (at most ``limit`` shown)."""
    items = list(items)
    if len(items) > limit:
        items = items[:limit - 1] + [f"{len(items) - limit + 1} more"]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _row_text(row, limit=12):
    """``1, 1, 3`` (long rows shortened)."""
    shown = [_fmt(v) for v in row[:limit]]
    if len(row) > limit:
        shown.append(f"... ({len(row)} positions)")
    return ", ".join(shown)


def _rank_row_problem(row, label_names):
    """Why a row of positions is not a ranking: ``(detail, label indices at fault)``."""
    present = np.flatnonzero(~np.isnan(row))
    m = len(present)
    values = row[present]
    for k, j in enumerate(present):
        v = values[k]
        if v < 1 or v > m:
            return f"label {_show(label_names[j], 40)} has position {_fmt(v)}, outside 1..{m}", [j]
    for k, j in enumerate(present):
        v = values[k]
        if abs(v * 2 - round(v * 2)) > _TOLERANCE:
            return (f"label {_show(label_names[j], 40)} has position {_fmt(v)}, neither a whole position "
                    f"nor the average of tied ones"), [j]
    expected = rankdata(values, method="average")
    wrong = np.flatnonzero(np.abs(expected - values) > _TOLERANCE)
    tied = [k for k in wrong if (np.abs(values - values[k]) <= _TOLERANCE).sum() > 1]
    k = tied[0] if tied else wrong[0]  # a wrong tie explains the row better than a label it shifts
    same = present[np.abs(values - values[k]) <= _TOLERANCE]
    if len(same) > 1:
        names = _and([_show(label_names[j], 40) for j in same])
        return (f"labels {names} share position {_fmt(values[k])}, but {len(same)} tied labels take the "
                f"average of the {len(same)} positions they fill (here {_fmt(expected[k])})"), list(same)
    j = present[k]
    return (f"label {_show(label_names[j], 40)} has position {_fmt(values[k])}, but by its place among the "
            f"others it would be {_fmt(expected[k])}"), [j]


def validate_rank_matrix(Y, label_names, source="", *, line_numbers=None, allow_short_rows=False,
                         column_offset=None):
    """Check that every row of ``Y`` holds valid rank positions.

    The present (non-NaN) values of a row must be a ranking ``1..m`` of its
    ``m`` present labels with ties as average positions, i.e. they must equal
    ``scipy.stats.rankdata(present, method="average")``; a row needs at least
    two present labels unless ``allow_short_rows``.

    Parameters
    ----------
    Y : array_like, shape (n, L)
        Rank positions, NaN for a missing label.
    label_names : sequence of str
        The ``L`` label names.
    source : str, optional
        File or dataset name put at the start of error messages.
    line_numbers : array_like of int, optional
        The file line of each row; messages then say ``line k`` instead of
        ``row i`` (1-based row of ``Y``).
    column_offset : int, optional
        For a file without a header (the benchmark format): the 0-based
        file column of the first label, so that messages name columns by
        number (``column 5 (rank of 'label_3')``); by default a column is
        named by its label (``column 'c'``).
    allow_short_rows : bool, default=False
        Accept rows with fewer than two present labels. Files must not have
        them, but training data after deleting labels at random (seed 003's
        protocol, :func:`rankviz.label_ranking.incomplete.delete_labels`) does; estimators
        keep such rows, which order no pair.

    Returns
    -------
    numpy.ndarray
        ``Y`` as a float array.

    Raises
    ------
    DataError
        If ``Y`` is not 2-D, its width differs from ``len(label_names)``, or a
        row is not a ranking. The message names the first such row and the
        columns at fault (a position out of range, not a whole or half
        number, or repeated without being a proper tie), e.g. ``"iris.csv,
        line 7, columns 'a' and 'b': the rank positions (1, 1, 3) are not a
        ranking of 3 labels: labels 'a' and 'b' share position 1, but 2 tied
        labels take the average of the 2 positions they fill (here 1.5);
        expected the positions 1..3, ties as average positions (e.g. 1.5,
        1.5, 3)"``.
    """
    try:
        Y = np.asarray(Y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise _error(f"the rank matrix is not numeric ({exc}); expected numbers or NaN", source) from None
    if Y.ndim != 2:
        raise _error(f"the rank matrix has shape {Y.shape}; expected a 2-D table (examples x labels)", source)
    if Y.shape[1] != len(label_names):
        raise _error(
            f"the rank matrix has {Y.shape[1]} columns but there are {len(label_names)} label names; "
            f"expected one column per label",
            source,
        )
    if Y.shape[0] == 0:
        return Y
    present = ~np.isnan(Y)
    if not allow_short_rows:
        _check_two_present(present, source, line_numbers, "a rank position")
    if present.all():
        ranks = rankdata(Y, axis=1, method="average")
    else:
        ranks = rankdata(Y, axis=1, method="average", nan_policy="omit")
    matches = np.where(present, np.abs(ranks - Y) <= _TOLERANCE, True)
    bad = np.flatnonzero(~matches.all(axis=1))
    if len(bad):
        i = bad[0]
        row = Y[i]
        m = int(present[i].sum())
        of = f"{m} labels" if m == Y.shape[1] else f"the {m} present labels"
        detail, columns = _rank_row_problem(row, label_names)
        raise _error(
            f"the rank positions ({_row_text(row)}) are not a ranking of {of}: {detail}; "
            f"expected positions 1..{m}, ties as average positions (e.g. {_tie_example(m)})",
            source, **_row_place(i, line_numbers),
            column=_label_columns(columns, label_names, column_offset),
        )
    return Y


# --------------------------------------------------------------------------- #
# dataset
# --------------------------------------------------------------------------- #
def _is_supported_feature(column):
    dtype = column.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return True
    if pd.api.types.is_numeric_dtype(dtype):
        return pd.api.types.is_float_dtype(dtype) or pd.api.types.is_integer_dtype(dtype)
    return (
        pd.api.types.is_string_dtype(dtype)
        or pd.api.types.is_object_dtype(dtype)
        or isinstance(dtype, pd.CategoricalDtype)
    )


@dataclass(frozen=True, eq=False)
class RankingDataset:
    """Examples described by features, each with a ranking of the labels.

    Parameters
    ----------
    X : pandas.DataFrame, shape (n, d)
        Feature table. Float/int columns are numeric; string, object,
        category and bool columns are nominal. A missing value is NaN
        (numeric) or NaN/None (nominal); infinite numbers are refused.
    Y : numpy.ndarray, shape (n, L)
        Rank positions (1 = most preferred, NaN = label missing, ties as
        average positions).
    label_names : tuple of str
        The ``L`` label names, in the column order of ``Y``.
    name : str, optional
        Short name shown in the app and used in error messages.
    description : str, optional
        Free text describing the data.

    Raises
    ------
    DataError
        If the parts do not fit together (row or label counts), there are
        fewer than 2 examples, 2 labels or 1 feature, names repeat, a numeric
        feature value is infinite, or a row of ``Y`` is not a ranking.

    Notes
    -----
    Instances compare by identity (``eq=False``): comparing arrays
    element-wise has no single truth value.
    """

    X: pd.DataFrame
    Y: np.ndarray
    label_names: tuple
    name: str = ""
    description: str = ""

    def __post_init__(self):
        source = self.name
        X = self.X
        if not isinstance(X, pd.DataFrame):
            raise _error(
                f"the features are a {type(X).__name__}; expected a pandas DataFrame", source
            )
        if not all(isinstance(c, str) for c in X.columns):
            X = X.rename(columns=str)
        if not isinstance(X.index, pd.RangeIndex) or X.index.start != 0 or X.index.step != 1:
            X = X.reset_index(drop=True)
        label_names = tuple(str(n) for n in self.label_names)
        try:
            Y = np.asarray(self.Y, dtype=float)
        except (TypeError, ValueError):
            raise _error("the rank matrix Y is not numeric; expected numbers or NaN", source) from None
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "Y", Y)
        object.__setattr__(self, "label_names", label_names)
        object.__setattr__(self, "name", str(self.name))
        object.__setattr__(self, "description", str(self.description))

        if Y.ndim != 2:
            raise _error(f"the rank matrix Y has shape {Y.shape}; expected a 2-D array (examples x labels)", source)
        if X.shape[0] != Y.shape[0]:
            raise _error(
                f"the feature table has {X.shape[0]} rows but the rank matrix has {Y.shape[0]}; "
                f"expected one ranking per example",
                source,
            )
        if Y.shape[1] != len(label_names):
            raise _error(
                f"the rank matrix has {Y.shape[1]} columns but there are {len(label_names)} label names; "
                f"expected one column per label",
                source,
            )
        if Y.shape[0] < 2:
            raise _error(f"there {_count(Y.shape[0], 'example')}; expected at least 2", source)
        if len(label_names) < 2:
            raise _error(f"there {_count(len(label_names), 'label')}; expected at least 2 to rank", source)
        _check_unique(label_names, "label name", source)
        if any(n == "" for n in label_names):
            raise _error("a label name is empty; expected a non-empty name for every label", source)
        if X.shape[1] == 0:
            raise _error("there are no feature columns; expected at least 1", source)
        _check_unique(list(X.columns), "feature name", source)
        both = [n for n in label_names if n in set(X.columns)]
        if both:
            raise _error(
                f"{both[0]!r} is both a feature name and a label name; expected distinct names", source
            )
        for column in X.columns:
            if not _is_supported_feature(X[column]):
                raise _error(
                    f"the feature has dtype {X[column].dtype}; expected a numeric (float/int) or "
                    f"nominal (string/object/category/bool) column",
                    source, column=column,
                )
        _check_finite_features(X, source)
        validate_rank_matrix(Y, label_names, source)

    @property
    def n_samples(self):
        """Number of examples (rows)."""
        return self.Y.shape[0]

    @property
    def n_labels(self):
        """Number of labels (columns of ``Y``)."""
        return self.Y.shape[1]

    @property
    def feature_names(self):
        """Feature column names, in order (list of str)."""
        return list(self.X.columns)

    @property
    def nominal_features(self):
        """Names of the nominal (non-numeric or boolean) feature columns."""
        return [c for c in self.X.columns if is_nominal_column(self.X[c])]

    @property
    def n_missing_features(self):
        """Number of missing feature values (cells of ``X``), see :func:`count_missing_features`."""
        return count_missing_features(self.X)

    def to_frame(self):
        """One table: the features, then one rank-position column per label.

        Returns
        -------
        pandas.DataFrame
            ``n`` rows, ``d + L`` columns; readable again with
            ``load_csv(..., feature_columns=ds.feature_names, target="ranks",
            target_columns=list(ds.label_names))`` after ``to_csv(index=False)``.
        """
        ranks = pd.DataFrame(self.Y, columns=list(self.label_names), index=self.X.index)
        return pd.concat([self.X, ranks], axis=1)


def count_missing_features(X):
    """Number of missing values (NaN, None) in a feature table or matrix.

    Parameters
    ----------
    X : pandas.DataFrame or array_like

    Returns
    -------
    int
    """
    if isinstance(X, pd.DataFrame):
        return int(X.isna().to_numpy().sum())
    return int(pd.isna(np.asarray(X)).sum())


def describe_missing_features(n_missing, n_cells):
    """``"12 feature values missing (0.4%)"``, or ``""`` when none is missing.

    What the data pickers show under the chosen data set.
    """
    if not n_missing:
        return ""
    share = 100.0 * n_missing / max(n_cells, 1)
    shown = f"{share:.1f}" if share >= 0.1 else f"{share:.2g}"
    noun = "feature value" if n_missing == 1 else "feature values"
    return f"{n_missing:,} {noun} missing ({shown}%)"


def _check_finite_features(X, source, line_numbers=None):
    """A numeric feature value may be missing (NaN) but not infinite."""
    for j, column in enumerate(X.columns):
        values = X[column]
        if pd.api.types.is_bool_dtype(values) or not pd.api.types.is_numeric_dtype(values):
            continue
        infinite = np.isinf(values.to_numpy(dtype=float))
        if infinite.any():
            i = int(np.flatnonzero(infinite)[0])
            place = {"row": i + 1} if line_numbers is None else {"line": int(line_numbers[i])}
            raise _error(
                f"the feature value {_fmt(values.iloc[i])} is not a finite number; expected a finite "
                f"number, or an empty cell for a missing value",
                source, column=column, **place,
            )


def _check_unique(names, kind, source, line=None, where="", position="positions"):
    """Raise a DataError naming the first name that repeats and both places."""
    seen = {}
    for k, n in enumerate(names):
        if n in seen:
            raise _error(
                f"the {kind} {_show(n, 40)} appears twice{where} ({position} {seen[n] + 1} and {k + 1}); "
                f"expected unique {kind}s",
                source, line=line,
            )
        seen[n] = k


# --------------------------------------------------------------------------- #
# reading text
# --------------------------------------------------------------------------- #
def _read_text(path_or_buffer):
    """Read a path or file-like object once; return ``(text, file_name)``.

    Bytes are decoded as UTF-8 with a leading BOM removed; line endings are
    normalised to ``\\n``. A file larger than :data:`MAX_UPLOAD_BYTES` is
    refused before it is read (a path by its size on disk, a buffer by its
    ``size`` attribute or its length, or by reading one byte past the limit).
    """
    if isinstance(path_or_buffer, (str, os.PathLike)):
        path = Path(path_or_buffer)
        source = path.name
        try:
            if path.is_file():
                check_upload_size(path.stat().st_size, source)
            data = path.read_bytes()
        except FileNotFoundError:
            raise _error(f"no such file ({path}); expected an existing file", source) from None
        except IsADirectoryError:
            raise _error(f"{path} is a directory; expected a file", source) from None
        except OSError as exc:
            raise _error(f"the file cannot be read ({exc.strerror or exc}); expected a readable file", source) from None
    else:
        raw_name = getattr(path_or_buffer, "name", "")
        source = Path(raw_name).name if isinstance(raw_name, str) else ""
        try:
            if path_or_buffer.seekable():
                path_or_buffer.seek(0)
        except (AttributeError, OSError, ValueError):
            pass
        check_upload_size(_buffer_size(path_or_buffer), source)
        try:
            try:
                data = path_or_buffer.read(MAX_UPLOAD_BYTES + 1)  # one byte past the limit is enough to tell
            except TypeError:  # a file-like object whose read() takes no size
                data = path_or_buffer.read()
        except AttributeError:
            raise _error(
                f"cannot read a {type(path_or_buffer).__name__}; expected a file path or a file-like object",
                source,
            ) from None
        check_upload_size(len(data), source)
    if isinstance(data, str):
        text = data[1:] if data.startswith("\ufeff") else data
    else:
        try:
            text = bytes(data).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            line = bytes(data)[: exc.start].count(b"\n") + 1
            raise _error(
                f"byte 0x{bytes(data)[exc.start]:02x} is not UTF-8 text; expected a UTF-8 encoded file "
                f"(save it as 'CSV UTF-8')",
                source, line=line,
            ) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, source


def _buffer_size(buffer):
    """Bytes (or characters) left in a buffer, without reading it; None if unknown."""
    size = getattr(buffer, "size", None)  # Streamlit's UploadedFile
    if isinstance(size, (int, np.integer)) and not isinstance(size, bool):
        return int(size)
    try:
        if buffer.seekable():
            start = buffer.tell()
            end = buffer.seek(0, io.SEEK_END)
            buffer.seek(start)
            return end - start
    except (AttributeError, OSError, ValueError):
        pass
    return None


def _first_line(text):
    return text.split("\n", 1)[0]


def _sniff_separator(line):
    """``','``, ``';'`` or ``'\\t'``: the one occurring most often in ``line`` outside quotes."""
    outside = re.sub(r'"[^"]*"?', "", line) if '"' in line else line
    counts = [outside.count(sep) for sep in _SEPARATORS]
    best = max(counts)
    return _SEPARATORS[counts.index(best)] if best else ","


def _split_lines(text):
    """Physical lines of ``text``; a final line terminator adds no empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _stem(source):
    return Path(source).stem if source else ""


# --------------------------------------------------------------------------- #
# benchmark format
# --------------------------------------------------------------------------- #
def _parse_benchmark_header(line, source, sep=","):
    fields = [f.strip().strip('"') for f in line.split(sep)]
    expected = "expected three positive whole numbers n_samples,n_features,n_labels (e.g. 150,4,3)"
    if len(fields) != 3:
        raise _error(f"the header {_show(line.strip())} has {len(fields)} fields; {expected}", source, line=1)
    values = []
    for field in fields:
        if not re.fullmatch(r"\+?\d+", field) or int(field) <= 0:
            raise _error(f"the header {_show(line.strip())} has {_show(field)}; {expected}", source, line=1)
        values.append(int(field))
    n, d, L = values
    if n < 2:
        raise _error(f"the header says n_samples = {n}; expected at least 2 examples", source, line=1)
    if L < 2:
        raise _error(f"the header says n_labels = {L}; expected at least 2 labels to rank", source, line=1)
    return tuple(values)


def _benchmark_column_label(j, d, label_names):
    if j < d:
        return _Raw(f"column {j + 1} (feature x{j + 1})")
    return _Raw(f"column {j + 1} (rank of {_show(label_names[j - d], 40)})")


def _locate_bad_number(lines, first_line, d, label_names, source, sep=","):
    """After a fast parse failed: find the first cell that is not a number.

    An empty cell is a missing value (a feature) or a missing label (a rank),
    not an error.
    """
    for k, line in enumerate(lines):
        for j, cell in enumerate(line.split(sep)):
            text = cell.strip().strip('"').strip()
            if text == "":
                continue
            try:
                if np.isnan(float(text)):
                    raise ValueError(cell)
            except ValueError:
                hint = " (leave the cell empty for a missing value)" if text in _MISSING_MARKERS else ""
                return _error(
                    f"{_show(text)} is not a number; expected a number in every cell{hint}", source,
                    line=first_line + k, column=_benchmark_column_label(j, d, label_names),
                )
    return None


def load_benchmark(path_or_buffer, name=None, label_names=None):
    """Read a label-ranking benchmark file (``n,d,L`` header, no column names).

    Line 1 is ``n_samples,n_features,n_labels``; each of the following
    ``n_samples`` lines holds ``x_1,...,x_d,r_1,...,r_L`` where ``r_j`` is the
    rank position of label ``j``. An empty rank cell marks a missing label
    (an incomplete ranking, seed 003): the present positions must then rank
    the present labels ``1..m``. An empty feature cell is a missing value
    (NaN); any other cell must be a number. The separator may also be ``;``
    or a tab (then with decimal commas allowed), found on line 1; trailing
    blank lines are ignored; at most :data:`MAX_UPLOAD_BYTES`.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. an upload).
    name : str, optional
        Dataset name; defaults to the file name without extension.
    label_names : sequence of str, optional
        Names of the ``L`` labels; defaults to ``label_1..label_L``.

    Returns
    -------
    RankingDataset
        Features named ``x1..xd`` (float), ``Y`` the rank positions.

    Raises
    ------
    DataError
        If the file is over :data:`MAX_UPLOAD_BYTES`, the header is not
        three positive integers (with ``n >= 2``, ``L >= 2``), a line has
        other than ``d + L`` fields, a cell is not a number, a feature is
        infinite, the number of data lines is not ``n``, a label is ranked in
        no row, or a row is not a ranking; the message names the line (the
        header is line 1) and the column.
    """
    text, source = _read_text(path_or_buffer)
    lines = _split_lines(text)
    while lines and lines[-1].strip() == "":
        lines.pop()
    if not lines:
        raise _error("the file is empty; expected a header line n_samples,n_features,n_labels and data lines", source)
    sep = _sniff_separator(lines[0])
    n, d, L = _parse_benchmark_header(lines[0], source, sep)
    if label_names is None:
        label_names = tuple(f"label_{j + 1}" for j in range(L))
    else:
        label_names = tuple(str(x) for x in label_names)
        if len(label_names) != L:
            raise _error(
                f"{len(label_names)} label names were given but the header says {L} labels; "
                f"expected {L} names",
                source,
            )
    body = lines[1:]
    if sep != ",":  # decimal commas: 0,5 is 0.5
        body = [line.replace(",", ".") for line in body]
    width = d + L
    counts = np.fromiter((line.count(sep) for line in body), dtype=np.int64, count=len(body)) + 1
    wrong = np.flatnonzero(counts != width)
    if len(wrong):
        k = wrong[0]
        if body[k].strip() == "":
            problem = "the line is empty"
        else:
            problem = f"found {counts[k]} fields"
        raise _error(
            f"{problem}; expected {width} numbers separated by {_SEPARATOR_NAMES[sep]} ({d} features + "
            f"{L} ranks, as the header {_show(lines[0].strip())} says)",
            source, line=k + 2,
        )
    if len(body) != n:
        raise _error(
            f"the header says {n} data lines but the file has {len(body)}; expected exactly {n} "
            f"lines after the header",
            source,
        )
    try:
        # Only an empty cell reads as NaN (a missing label if it is a rank);
        # "nan", "NA" and the like stay errors.
        values = pd.read_csv(
            io.StringIO("\n".join(body)), sep=sep, header=None, dtype=np.float64, keep_default_na=False,
            na_values=[""], engine="c", skip_blank_lines=False,
        ).to_numpy()
    except (ValueError, pd.errors.ParserError):
        error = _locate_bad_number(body, 2, d, label_names, source, sep)
        if error is not None:
            raise error from None
        raise _error("the data lines cannot be read as numbers; expected numbers only", source) from None
    if values.shape != (n, width):  # pragma: no cover - guarded by the checks above
        raise _error(f"read a {values.shape} table; expected {n} rows of {width} numbers", source)
    features = values[:, :d]
    infinite = np.isinf(features)
    if infinite.any():
        i, j = np.argwhere(infinite)[0]
        raise _error(
            f"the feature value {_fmt(features[i, j])} is not a finite number; expected a finite number, "
            f"or an empty cell for a missing value",
            source, line=i + 2, column=_benchmark_column_label(j, d, label_names),
        )
    _check_labels_used(~np.isnan(values[:, d:]), label_names, source, "rank position", column_offset=d)
    Y = validate_rank_matrix(values[:, d:], label_names, source, line_numbers=np.arange(2, n + 2),
                             column_offset=d)
    X = pd.DataFrame(features, columns=[f"x{j + 1}" for j in range(d)])
    return RankingDataset(X, Y, label_names, name=_stem(source) if name is None else name)


# --------------------------------------------------------------------------- #
# CSV with a header row
# --------------------------------------------------------------------------- #
def _parse_csv_header(text, source):
    """Column names from line 1 (stripped; an empty name becomes ``Unnamed: i``).

    The separator is the one :func:`_sniff_separator` finds on line 1.
    """
    if text.strip() == "":
        raise _error("the file is empty; expected a header line with column names, then data rows", source)
    first = _first_line(text)
    if first.strip() == "":
        raise _error("the line is empty; expected the header with the column names on line 1", source, line=1)
    sep = _sniff_separator(first)
    if '"' in first:
        names = _csv_records(first, sep, source, first_line=1)[0][0]
    else:
        names = first.split(sep)
    names = [n.strip() or f"Unnamed: {k}" for k, n in enumerate(names)]
    _check_unique(names, "column name", source, line=1, where=" in the header", position="columns")
    return names


def read_csv_header(path_or_buffer):
    """Column names of a CSV file (its first line).

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file or an upload; a seekable buffer is rewound first, so the same
        buffer can be passed to :func:`load_csv` afterwards.

    Returns
    -------
    list of str
        The names, stripped of surrounding spaces; an empty name becomes
        ``"Unnamed: i"`` (0-based column index, as pandas names it).

    Raises
    ------
    DataError
        If the file is empty, line 1 is blank, or a name appears twice.
    """
    text, source = _read_text(path_or_buffer)
    return _parse_csv_header(text, source)


def _csv_records(text, sep, source, first_line):
    """``csv.reader`` over ``text``: ``(records, start line of each, end line of each)``.

    A field longer than the csv module's limit (128 KiB) is a DataError
    naming its line, not a ``csv.Error``.
    """
    records, starts, ends = [], [], []
    reader = csv.reader(io.StringIO(text), delimiter=sep, skipinitialspace=True)
    start = 0
    try:
        for record in reader:
            records.append(record)
            starts.append(first_line + start)
            ends.append(first_line + reader.line_num - 1)
            start = reader.line_num
    except csv.Error as exc:
        raise _error(
            f"the record cannot be read as CSV ({exc}); expected fields of at most "
            f"{csv.field_size_limit():,} characters separated by {_SEPARATOR_NAMES[sep]}",
            source, line=first_line + start,
        ) from None
    return records, starts, ends


def _record_shape(body, first_line, sep=",", source=""):
    """Field count and file line of every record of ``body`` (without header).

    Returns ``(counts, lines, blank, spans)``; ``blank`` marks empty or
    whitespace-only records, ``spans`` the records running over more than
    one line (a quoted field holding a line break), as ``{index: last
    line}``. Without quote characters, records are lines and no CSV parser
    is needed; with quotes, ``csv.reader`` finds the records.
    """
    if '"' not in body:
        raw = _split_lines(body)
        counts = np.fromiter((r.count(sep) for r in raw), dtype=np.int64, count=len(raw)) + 1
        blank = np.fromiter((r.isspace() or r == "" for r in raw), dtype=bool, count=len(raw))
        lines = np.arange(first_line, first_line + len(raw))
        return counts, lines, blank, {}
    records, starts, ends = _csv_records(body, sep, source, first_line)
    counts = np.fromiter((len(r) for r in records), dtype=np.int64, count=len(records))
    blank = np.fromiter((len(r) <= 1 and (not r or r[0].strip() == "") for r in records), dtype=bool,
                        count=len(records))
    spans = {k: end for k, (begin, end) in enumerate(zip(starts, ends)) if end > begin}
    return counts, np.array(starts, dtype=np.int64), blank, spans


def _as_name_list(columns, what):
    if isinstance(columns, str):
        return [columns]
    try:
        return [str(c) for c in columns]
    except TypeError:
        raise _error(f"the {what} are {columns!r}; expected a list of column names") from None


def _check_columns(header, feature_columns, target_columns, target, source):
    available = set(header)
    hint = ""
    if len(header) == 1 and "|" in header[0]:
        hint = " (the header has a single column: is the file separated by '|'? expected ',', ';' or tabs)"
    for kind, names in (("feature", feature_columns), ("target", target_columns)):
        for name in names:
            if name not in available:
                raise _error(
                    f"there is no {kind} column {_show(name)}; expected one of the columns of the header: "
                    f"{_quote_list(header)}{hint}",
                    source,
                )
        _check_unique(names, f"{kind} column", source)
    both = [c for c in feature_columns if c in set(target_columns)]
    if both:
        raise _error(
            "the column is chosen both as a feature and as a target; expected feature and target "
            "columns to be different",
            source, column=both[0],
        )
    if not feature_columns:
        raise _error("no feature columns were chosen; expected at least 1", source)
    if target == "ordering":
        if len(target_columns) != 1:
            raise _error(
                f"{len(target_columns)} ordering columns were chosen ({_quote_list(target_columns)}); "
                f"expected exactly one column holding orderings such as b>a>c",
                source,
            )
    elif len(target_columns) < 2:
        which = f" ({_quote_list(target_columns)})" if target_columns else ""
        noun = "rank" if target == "ranks" else "score"
        raise _error(
            f"{len(target_columns)} {noun} column{'' if len(target_columns) == 1 else 's'} "
            f"{'was' if len(target_columns) == 1 else 'were'} chosen{which}; expected at least 2 "
            f"labels, one column each, since a ranking needs 2",
            source,
        )


def _read_records(text, header, source):
    """The data rows as a str DataFrame (header names) and each row's file line.

    The separator is found on line 1 (:func:`_sniff_separator`); with ``;``
    or tabs, cells that are numbers written with a decimal comma get a
    decimal point, so every later ``pd.to_numeric`` reads them.
    """
    sep = _sniff_separator(_first_line(text))
    body = text.split("\n", 1)[1] if "\n" in text else ""
    counts, lines, blank, spans = _record_shape(body, first_line=2, sep=sep, source=source)
    wrong = np.flatnonzero((counts != len(header)) & ~blank)
    if len(wrong):
        k = wrong[0]
        if k in spans:
            raise _error(
                f"a quote '\"' opened on this line is never closed (the quoted field runs on to line "
                f"{spans[k]}); expected every quoted field to end with '\"'",
                source, line=lines[k],
            )
        raise _error(
            f"found {counts[k]} fields; expected {len(header)} fields separated by {_SEPARATOR_NAMES[sep]} "
            f"as in the header ({_quote_list(header, limit=8)})",
            source, line=lines[k],
        )
    keep = ~blank
    n_rows = int(keep.sum())
    if n_rows == 0:
        raise _error("the file has a header but no data rows; expected at least 2 data rows", source)
    if n_rows == 1:
        raise _error(
            f"the file has only 1 data row (line {lines[keep][0]}); expected at least 2 data rows", source
        )
    try:
        frame = pd.read_csv(
            io.StringIO(body), sep=sep, header=None, names=list(range(len(header))), dtype=str,
            keep_default_na=False, na_filter=False, skip_blank_lines=False,
            skipinitialspace=True, engine="c", index_col=False,
        )
    except pd.errors.ParserError as exc:  # pragma: no cover - field counts checked above
        match = re.search(r"line (\d+)", str(exc))
        line = int(match.group(1)) + 1 if match else None
        raise _error(f"the row cannot be read as CSV ({exc}); expected {len(header)} fields", source, line=line) from None
    if len(frame) != len(counts):  # pragma: no cover - parsers disagree on odd quoting
        raise _error(
            "the rows cannot be split consistently (unbalanced quotes?); expected plain CSV rows", source
        )
    frame.columns = header
    frame = frame.loc[keep].reset_index(drop=True)
    if sep != ",":
        frame = _decimal_commas(frame)
    return frame, lines[keep]


def _decimal_commas(frame):
    """Cells such as ``0,5`` to ``0.5`` (only numbers; other text is left alone)."""
    out = {}
    for k, name in enumerate(frame.columns):
        column = frame.iloc[:, k]
        if column.str.contains(",", regex=False).any():
            comma = column.str.match(_DECIMAL_COMMA)
            column = column.where(~comma, column.str.replace(",", ".", regex=False))
        out[k] = column
    result = pd.DataFrame(out)
    result.columns = frame.columns
    return result


def _missing_mask(column):
    return column.isna() | column.isin(_MISSING_MARKERS)


def _convert_features(frame, feature_columns, lines, source):
    """Features from text cells: numbers to float, others (stripped) text; missing cells NaN.

    A column is numeric when every present (not missing) cell is a number,
    e.g. ``1``, ``-0.5``, ``2e3``; a column of numbers and text is nominal.
    A missing cell (empty or a marker such as ``NA``, see
    ``_MISSING_MARKERS``) is NaN in either kind. An infinite number in a
    numeric column is an error naming its line and column.
    """
    X = {}
    for name in feature_columns:
        column = frame[name].str.strip()
        missing = _missing_mask(column).to_numpy()
        numbers = pd.to_numeric(column.where(~missing, None), errors="coerce")
        if (numbers.notna().to_numpy() | missing).all():
            values = numbers.to_numpy(dtype=float)
            infinite = np.isinf(values)
            if infinite.any():
                i = int(np.flatnonzero(infinite)[0])
                raise _error(
                    f"the feature value {_show(column.iloc[i])} is not a finite number; expected a finite "
                    f"number, or an empty cell for a missing value",
                    source, line=lines[i], column=name,
                )
            X[name] = pd.Series(values, dtype=float)
        else:
            X[name] = column.where(~missing, np.nan)
    return pd.DataFrame(X, index=pd.RangeIndex(len(frame)))


def _numeric_targets(frame, target_columns, lines, source, noun):
    """Rank or score columns to a float matrix; empty/NA cells become NaN."""
    Y = np.empty((len(frame), len(target_columns)), dtype=float)
    for j, name in enumerate(target_columns):
        column = frame[name].str.strip()
        missing = _missing_mask(column)
        numbers = pd.to_numeric(column.where(~missing, None), errors="coerce")
        values = numbers.to_numpy(dtype=float)
        bad = np.flatnonzero((numbers.isna() & ~missing).to_numpy() | np.isinf(values))
        if len(bad):
            i = bad[0]
            problem = "is not a finite number" if np.isinf(values[i]) else "is not a number"
            raise _error(
                f"{_show(column.iloc[i])} {problem}; expected a {noun} (a finite number) or an empty cell "
                f"for a missing label",
                source, line=lines[i], column=name,
            )
        Y[:, j] = values
    return Y


def _ordering_error(problem, source, line, column, ordering):
    return _error(
        f"{problem} in the ordering {ordering!r}; expected label names separated by '>' "
        f"(better first) and '=' for ties, e.g. b>a=c",
        source, line=line, column=column,
    )


def _parse_orderings(column_values, column, labels, lines, source):
    """Orderings like ``b>a=c`` to rank positions, vectorised over rows.

    Returns ``(Y, label_names)``.
    """
    text = column_values.str.strip().reset_index(drop=True)
    empty = text.eq("").to_numpy()
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise _error(
            "the ordering is empty; expected label names separated by '>' (better first) and '=' for "
            "ties, e.g. b>a=c",
            source, line=lines[i], column=column,
        )
    groups = text.str.split(">").explode()
    rows = groups.index.to_numpy()
    members = groups.str.split("=")
    size = members.str.len().to_numpy()
    # position of a tie group = end of the group minus (size - 1) / 2
    end = pd.Series(size).groupby(rows).cumsum().to_numpy()
    position = end - (size - 1) / 2.0
    table = pd.DataFrame({"row": rows, "position": position, "name": members.to_numpy()}).explode("name")
    names = table["name"].astype(str).str.strip()
    table_rows = table["row"].to_numpy(dtype=np.int64)

    empty_name = np.flatnonzero(names.eq("").to_numpy())
    if len(empty_name):
        r = table_rows[empty_name[0]]
        raise _ordering_error("a label name is empty", source, lines[r], column, text.iloc[r])
    twice = np.flatnonzero(pd.DataFrame({"r": table_rows, "n": names.to_numpy()}).duplicated().to_numpy())
    if len(twice):
        k = twice[0]
        r = table_rows[k]
        raise _ordering_error(
            f"the label {names.iloc[k]!r} appears twice", source, lines[r], column, text.iloc[r]
        )
    if labels is None:
        label_names = [str(x) for x in pd.unique(names)]
    else:
        label_names = [str(x) for x in labels]
        _check_unique(label_names, "label", source)
        unknown = np.flatnonzero(~names.isin(label_names).to_numpy())
        if len(unknown):
            k = unknown[0]
            r = table_rows[k]
            raise _error(
                f"the label {names.iloc[k]!r} in the ordering {text.iloc[r]!r} is not one of the given "
                f"labels; expected one of {_quote_list(label_names)}",
                source, line=lines[r], column=column,
            )
    if len(label_names) < 2:
        found = f" ({_quote_list(label_names)})" if label_names else ""
        raise _error(
            f"the orderings name {len(label_names)} label{'' if len(label_names) == 1 else 's'}{found}; "
            f"expected at least 2 labels to rank",
            source, column=column,
        )
    codes = pd.Categorical(names, categories=label_names).codes
    Y = np.full((len(text), len(label_names)), np.nan)
    Y[table_rows, codes] = table["position"].to_numpy(dtype=float)
    return Y, tuple(label_names)


def load_csv(path_or_buffer, feature_columns, target, target_columns, labels=None, name=None):
    """Read a label-ranking dataset from a CSV file with a header row.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. a Streamlit
        ``UploadedFile``). Bytes are decoded as UTF-8 (a BOM is ignored).
    feature_columns : list of str
        Feature column names. A column whose every present cell is a number
        becomes float; any other column is nominal and kept as (stripped)
        strings. An empty cell or a marker such as ``NA`` or ``?`` is a
        missing value (NaN), counted by ``n_missing_features``; see the
        module docstring for separators and decimal commas.
    target : {"ranks", "scores", "ordering"}
        How the ranking is given:

        * ``"ranks"``: ``target_columns`` hold rank positions, one column per
          label (the column name is the label name); empty = label missing.
        * ``"scores"``: ``target_columns`` hold scores, higher = better; each
          row becomes ``rankdata(-scores, "average")``; empty = label missing.
        * ``"ordering"``: ``target_columns`` is one column of orderings such
          as ``b>a>c``; ``a=b>c`` is a tie (average positions); spaces around
          names are ignored; a label not in a row's ordering is missing.
    target_columns : list of str
        See ``target``.
    labels : sequence of str, optional
        For ``target="ordering"``: the label set, in column order. Without it,
        the labels are all names seen, in order of first appearance.
    name : str, optional
        Dataset name; defaults to the file name without extension.

    Returns
    -------
    RankingDataset

    Raises
    ------
    DataError
        For a file over :data:`MAX_UPLOAD_BYTES`, an empty file, a header
        without data rows or with only one data row, duplicate or missing
        column names, overlapping feature and target columns, fewer than 2
        labels, a row with the wrong number of fields, a quote never closed,
        an infinite feature value, a rank/score cell that is not a finite
        number, a malformed ordering, a rank/score column empty in every row,
        or a row that is not a ranking. Messages name the line as numbered in the file
        (header = line 1, first data row = line 2) and the column.
    """
    if target not in TARGET_KINDS:
        raise _error(f"the target kind {target!r} is unknown; expected one of {_quote_list(TARGET_KINDS)}")
    feature_columns = _as_name_list(feature_columns, "feature columns")
    target_columns = _as_name_list(target_columns, "target columns")
    text, source = _read_text(path_or_buffer)
    header = _parse_csv_header(text, source)
    _check_columns(header, feature_columns, target_columns, target, source)
    frame, lines = _read_records(text, header, source)
    X = _convert_features(frame, feature_columns, lines, source)
    if target == "ordering":
        Y, label_names = _parse_orderings(frame[target_columns[0]], target_columns[0], labels, lines, source)
        _check_two_present(~np.isnan(Y), source, lines, "a place in the ordering")
    elif target == "scores":
        S = _numeric_targets(frame, target_columns, lines, source, "score")
        _check_labels_used(~np.isnan(S), target_columns, source, "score")
        _check_two_present(~np.isnan(S), source, lines, "a score")
        Y = rankdata(-S, axis=1, method="average", nan_policy="omit")
        label_names = tuple(target_columns)
    else:
        Y = _numeric_targets(frame, target_columns, lines, source, "rank position")
        _check_labels_used(~np.isnan(Y), target_columns, source, "rank position")
        label_names = tuple(target_columns)
    Y = validate_rank_matrix(Y, label_names, source, line_numbers=lines)
    return RankingDataset(X, Y, label_names, name=_stem(source) if name is None else name)


# --------------------------------------------------------------------------- #
# sample data registry
# --------------------------------------------------------------------------- #
def _sample_dir(directory):
    return Path(SAMPLE_DIR if directory is None else directory)


def list_samples(directory=None):
    """Names of the sample datasets (``NAME.csv`` with a ``NAME.json`` sidecar).

    Parameters
    ----------
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    list of str
        Sorted names, with ``"metalearning"`` first when present; empty if
        the directory does not exist.
    """
    folder = _sample_dir(directory)
    if not folder.is_dir():
        return []
    names = sorted(p.stem for p in folder.glob("*.csv") if p.with_suffix(".json").is_file())
    if "metalearning" in names:
        names.remove("metalearning")
        names.insert(0, "metalearning")
    return names


def sample_info(name, directory=None):
    """The sidecar metadata of a sample dataset.

    Parameters
    ----------
    name : str
        Sample name (file name without ``.csv``).
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    dict
        ``title``, ``description``, ``source``, ``script`` (str),
        ``feature_columns``, ``label_columns`` (lists of str), plus any other
        keys of the JSON file.

    Raises
    ------
    DataError
        If there is no such sample, or its JSON is unreadable or lacks a key.
    """
    folder = _sample_dir(directory)
    path = folder / f"{name}.json"
    if not path.is_file() or not path.with_suffix(".csv").is_file():
        available = list_samples(directory)
        listed = _quote_list(available) if available else "none"
        raise _error(f"there is no sample dataset {name!r}; available samples: {listed}")
    info = read_metadata(path, _SAMPLE_KEYS)
    for key in ("feature_columns", "label_columns"):
        value = info[key]
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise _error(f"the key {key!r} is {value!r}; expected a list of column names", path.name)
    return dict(info)


def read_metadata(path, required_keys):
    """A sample's JSON metadata as a dict; the error names the file and the missing key."""
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise _error(f"the metadata cannot be read ({exc}); expected a UTF-8 JSON object", path.name) from None
    if not isinstance(info, dict):
        raise _error(f"the metadata is a JSON {type(info).__name__}; expected a JSON object", path.name)
    for key in required_keys:
        if key not in info:
            raise _error(f"the key {key!r} is missing; expected the keys {_quote_list(required_keys)}",
                         path.name)
    return info


def load_sample(name, directory=None):
    """Load a sample dataset from ``sample_data/``.

    Parameters
    ----------
    name : str
        Sample name, one of :func:`list_samples`.
    directory : str or os.PathLike, optional
        Where to look; defaults to :data:`SAMPLE_DIR`.

    Returns
    -------
    RankingDataset
        ``name`` is the sample's title (or its name if the title is empty),
        ``description`` the sidecar's description.

    Raises
    ------
    DataError
        If the sample does not exist or its files are malformed.
    """
    info = sample_info(name, directory)
    path = _sample_dir(directory) / f"{name}.csv"
    dataset = load_csv(path, info["feature_columns"], "ranks", info["label_columns"], name=name)
    return dataclasses.replace(
        dataset, name=str(info["title"] or name), description=str(info["description"])
    )
