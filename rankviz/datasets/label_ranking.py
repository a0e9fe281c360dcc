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

Files are read as :mod:`rankviz.datasets.reading` describes. Rank positions
may be any finite numbers, lower = preferred and equal = tied: average
positions (``1.5, 1.5, 3``), dense ranks (``1, 2, 2, 3``, as in the KEBI
benchmark files of partial rankings), competition ranks (``1, 2, 2, 4``) or
positions with gaps (``4, , , , 1, 5``, what deleting labels from complete
rankings leaves). Only the order of a row's present labels is kept, since
that is all any model here uses, so every convention reads the same way: the
row becomes the average positions ``1..m`` of its ``m`` present labels, and
the dataset's :attr:`RankingDataset.rank_convention` says which convention
was met and what was converted (see :mod:`rankviz.datasets.rank_conventions`).
An infinite position is an error naming the line and the column. Every row
needs two ranked labels; a rank or score column empty in every row is
refused (an ordering may leave out a label of an explicit label list).
"""

from __future__ import annotations

import difflib

import io
import os
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO

import numpy as np
import pandas as pd
from scipy.stats import rankdata

from .._validation import check_labels_used, check_two_present, validate_rank_matrix
from ..exceptions import ColumnLabel, count_phrase, data_error, format_number, quote_list, show_text
from ..features import is_nominal_column
from ..memory import check_memory, max_memory
from .rank_conventions import RankConvention, rank_convention
from .reading import (
    MISSING_MARKERS, PANDAS_PARSES_EXACTLY, SEPARATOR_NAMES, as_name_list, check_columns, check_feature_dtypes,
    check_unique, convert_features, count_missing_features, file_stem, non_ascii_hint, numeric_cells,
    parse_csv_header, parse_number, read_records, read_text, sniff_separator, split_lines, whole_number,
)

__all__ = ["RankingDataset", "TARGET_KINDS", "load_benchmark", "load_csv"]

#: Keyword that makes ``pandas.read_csv`` round every number to the nearest float: the
#: default from pandas 3.1 on (where the keyword is deprecated), "round_trip" before.
_EXACT_FLOATS = {} if PANDAS_PARSES_EXACTLY else {"float_precision": "round_trip"}

#: Accepted values of the ``target`` argument of :func:`load_csv`.
TARGET_KINDS = ("ranks", "scores", "ordering")


# --------------------------------------------------------------------------- #
# dataset
# --------------------------------------------------------------------------- #


@dataclass(frozen=True, eq=False)
class RankingDataset:
    """Examples described by features, each with a ranking of the labels.

    The dataset every label ranker of the library is fitted on: ``X`` holds
    the features and ``Y`` the rank positions, row by row. It is checked and
    normalised when built (column names as strings, a fresh row index, rank
    positions as average positions) and frozen afterwards.

    Parameters
    ----------
    X : pandas.DataFrame, shape (n, d)
        Feature table. Float/int columns are numeric; string, object,
        category and bool columns are nominal. A missing value is NaN
        (numeric) or NaN/None (nominal); infinite numbers are refused.
    Y : numpy.ndarray, shape (n, L)
        Rank positions (lower = preferred, NaN = label missing), in any
        convention: stored as average positions (positions ``1..m`` of the
        ``m`` present labels, ties at the average of the positions they
        fill), which keep the order of every row's labels.
    label_names : tuple of str
        The ``L`` label names, in the column order of ``Y``.
    name : str, optional
        Short name shown in the app and used in error messages.
    description : str, optional
        Free text describing the data.
    rank_convention : RankConvention, optional
        How the given rank positions were written (average positions, dense
        or competition ranks, positions with gaps) and what converting them
        to average positions changed; its ``text`` is the sentence to show
        the user. The loaders set it with the file's line numbers; by default
        it is found from ``Y`` (rows numbered from 1) by
        :func:`rankviz.datasets.rank_conventions.rank_convention`.

    Raises
    ------
    DataError
        If the parts do not fit together (row or label counts), there are
        fewer than 2 examples, 2 labels or 1 feature, names repeat, a numeric
        feature value is infinite, a rank position is infinite, or a row of
        ``Y`` has fewer than 2 present labels.

    See Also
    --------
    load_csv : Read a dataset from a CSV file with a header row.
    load_benchmark : Read a dataset from a benchmark file (``n,d,L`` header).
    rankviz.datasets.load_sample : Load a bundled sample.

    Notes
    -----
    Instances compare by identity (``eq=False``): comparing arrays
    element-wise has no single truth value.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from rankviz import RankingDataset
    >>> X = pd.DataFrame({"size": [1.0, 2.0, 3.0], "colour": ["red", "blue", "red"]})
    >>> Y = np.array([[1, 2, 3], [2, 1, 3], [1, 1, 2]])  # the last row ties a and b
    >>> data = RankingDataset(X, Y, ("a", "b", "c"), name="example")
    >>> data.n_samples, data.n_labels, data.nominal_features
    (3, 3, ['colour'])
    >>> data.Y[2]  # dense ranks 1, 1, 2 are read as average positions
    array([1.5, 1.5, 3. ])
    """

    X: pd.DataFrame
    Y: np.ndarray
    label_names: tuple[str, ...]
    name: str = ""
    description: str = ""
    rank_convention: RankConvention | None = None

    def __post_init__(self) -> None:
        source = self.name
        X = self.X
        if not isinstance(X, pd.DataFrame):
            raise data_error(
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
            raise data_error("the rank matrix Y is not numeric; expected numbers or NaN", source) from None
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "Y", Y)
        object.__setattr__(self, "label_names", label_names)
        object.__setattr__(self, "name", str(self.name))
        object.__setattr__(self, "description", str(self.description))

        if Y.ndim != 2:
            raise data_error(f"the rank matrix Y has shape {Y.shape}; expected a 2-D array (examples x labels)", source)
        if X.shape[0] != Y.shape[0]:
            raise data_error(
                f"the feature table has {X.shape[0]} rows but the rank matrix has {Y.shape[0]}; "
                f"expected one ranking per example",
                source,
            )
        if Y.shape[1] != len(label_names):
            raise data_error(
                f"the rank matrix has {Y.shape[1]} columns but there are {len(label_names)} label names; "
                f"expected one column per label",
                source,
            )
        if Y.shape[0] < 2:
            raise data_error(f"there {count_phrase(Y.shape[0], 'example')}; expected at least 2", source)
        if len(label_names) < 2:
            raise data_error(f"there {count_phrase(len(label_names), 'label')}; expected at least 2 to rank", source)
        check_unique(label_names, "label name", source)
        if any(n == "" for n in label_names):
            raise data_error("a label name is empty; expected a non-empty name for every label", source)
        if X.shape[1] == 0:
            raise data_error("there are no feature columns; expected at least 1", source)
        check_unique(list(X.columns), "feature name", source)
        both = [n for n in label_names if n in set(X.columns)]
        if both:
            raise data_error(
                f"{both[0]!r} is both a feature name and a label name; expected distinct names", source
            )
        check_feature_dtypes(X, source)
        positions = validate_rank_matrix(Y, label_names, source)
        if self.rank_convention is None:
            object.__setattr__(self, "rank_convention", rank_convention(Y))
        object.__setattr__(self, "Y", positions)

    @property
    def n_samples(self) -> int:
        """Number of examples (rows)."""
        return self.Y.shape[0]

    @property
    def n_labels(self) -> int:
        """Number of labels (columns of ``Y``)."""
        return self.Y.shape[1]

    @property
    def rankings(self) -> pd.DataFrame:
        """``Y`` as a DataFrame, one column per label, named: what ``fit`` takes to name the labels.

        Returns
        -------
        pandas.DataFrame of shape (n_samples, n_labels)
            The rank positions, columns ``label_names``, the index of ``X``.
        """
        return pd.DataFrame(self.Y, columns=list(self.label_names), index=self.X.index)

    @property
    def feature_names(self) -> list[str]:
        """Feature column names, in order (list of str)."""
        return list(self.X.columns)

    @property
    def nominal_features(self) -> list[str]:
        """Names of the nominal (non-numeric or boolean) feature columns."""
        return [c for c in self.X.columns if is_nominal_column(self.X[c])]

    @property
    def n_missing_features(self) -> int:
        """Number of missing feature values (cells of ``X``), see :func:`count_missing_features`."""
        return count_missing_features(self.X)

    def to_frame(self) -> pd.DataFrame:
        """Return one table: the features, then one rank-position column per label.

        Returns
        -------
        pandas.DataFrame
            ``n`` rows, ``d + L`` columns; readable again with
            ``load_csv(..., feature_columns=ds.feature_names, target="ranks",
            target_columns=list(ds.label_names))`` after ``to_csv(index=False)``.
        """
        ranks = pd.DataFrame(self.Y, columns=list(self.label_names), index=self.X.index)
        return pd.concat([self.X, ranks], axis=1)


# --------------------------------------------------------------------------- #
# benchmark format
# --------------------------------------------------------------------------- #


_ASCII_BLANKS = " \t\r\n"


def _parse_benchmark_header(line, source, sep=","):
    """``(n, d, L, names)`` of line 1: ``n,d,L``, or ``n,d,L`` followed by the ``d + L`` column names (the
    form scikit-lr publishes the files in); ``names`` is None without them."""
    fields = [f.strip(_ASCII_BLANKS).strip('"') for f in line.split(sep)]
    if len(fields) == 4 and fields[-1] == "":
        fields.pop()  # "150,4,3,": a separator ending the line, as some writers leave it
    expected = ("expected three positive whole numbers n_samples,n_features,n_labels (e.g. 150,4,3), "
                "optionally followed by the names of the features and labels")
    names = None
    if len(fields) > 3 and all(re.fullmatch(r"\+?[0-9]+", field) for field in fields[:3]):
        fields, names = fields[:3], fields[3:]
    if len(fields) != 3:
        raise data_error(f"the header {show_text(line.strip())} has {len(fields)} fields; {expected}", source, line=1)
    values = []
    for field in fields:
        if not re.fullmatch(r"\+?[0-9]+", field) or not 0 < whole_number(field) < 10**18:
            raise data_error(f"the header {show_text(line.strip())} has {show_text(field)}"
                             f"{non_ascii_hint(field)}; {expected}", source, line=1)
        values.append(whole_number(field))
    n, d, L = values
    if n < 2:
        raise data_error(f"the header says n_samples = {n}; expected at least 2 examples", source, line=1)
    if L < 2:
        raise data_error(f"the header says n_labels = {L}; expected at least 2 labels to rank", source, line=1)
    if names is not None:
        if len(names) != d + L:
            raise data_error(f"the header names {len(names)} columns after {n},{d},{L}; expected {d + L} names "
                             f"({d} features, then {L} labels) or none", source, line=1)
        if "" in names:
            raise data_error(f"column {names.index('') + 1} has no name in the header; expected a name for each "
                             f"of the {d + L} columns, or none", source, line=1)
        check_unique(names[d:], "label name", source, line=1, where=" in the header")
    return n, d, L, names


def _apart_from(feature_names: list[str], label_names: Sequence[str]) -> list[str]:
    """The feature names, each that is also a label's name renamed ``<name> (feature)``.

    A published file may name a feature and a label alike (yeast's scores
    ``mit``, ``nuc`` ... and its classes of the same names); the labels keep
    theirs, since the rankings show them.
    """
    labels = set(label_names)
    return [f"{name} (feature)" if name in labels else name for name in feature_names]


def _benchmark_column_label(j, d, label_names):
    if j < d:
        return ColumnLabel(f"column {j + 1} (feature x{j + 1})")
    return ColumnLabel(f"column {j + 1} (rank of {show_text(label_names[j - d], 40)})")

def _locate_bad_number(lines, first_line, d, label_names, source, sep=",", written=None):
    """After a fast parse failed: find the first cell that is not a number.

    An empty cell is a missing value (a feature) or a missing label (a rank),
    not an error. ``written`` are the lines as in the file, when ``lines``
    were rewritten (decimal commas): the message quotes the file's cell.
    """
    for k, line in enumerate(lines):
        as_written = (written[k] if written is not None else line).split(sep)
        for j, cell in enumerate(line.split(sep)):
            # ASCII blanks only: the fast parse reads neither a no-break space nor a full-width digit.
            text = cell.strip(_ASCII_BLANKS).strip('"').strip(_ASCII_BLANKS)
            if text == "":
                continue
            number = parse_number(text)
            if number is None or np.isnan(number):
                hint = (" (leave the cell empty for a missing value)" if text in MISSING_MARKERS
                        else non_ascii_hint(text))
                shown = (as_written[j].strip(_ASCII_BLANKS).strip('"').strip(_ASCII_BLANKS) if j < len(as_written)
                         else text)
                return data_error(
                    f"{show_text(shown)} is not a number; expected a number in every cell{hint}", source,
                    line=first_line + k, column=_benchmark_column_label(j, d, label_names),
                )
    return None

def load_benchmark(path_or_buffer: str | os.PathLike | IO, name: str | None = None,
                   label_names: Sequence[str] | None = None) -> RankingDataset:
    """Read a label-ranking benchmark file (``n,d,L`` header).

    Line 1 is ``n_samples,n_features,n_labels``, optionally followed by the
    names of the ``d`` features and ``L`` labels (as scikit-lr publishes the
    files; a feature named like a label becomes ``<name> (feature)``); each of the following
    ``n_samples`` lines holds ``x_1,...,x_d,r_1,...,r_L`` where ``r_j`` is the
    rank position of label ``j``. An empty rank cell marks a missing label
    (an incomplete ranking, as in Cheng, Hühn & Hüllermeier 2009). The
    positions of a row's present labels may be any finite numbers in any
    convention (dense ranks ``1,2,2,2,2`` as in the KEBI partial rankings,
    gaps ``4,,,,1,5``); they are read as average positions, keeping the
    order (see :attr:`RankingDataset.rank_convention`). An empty feature cell is a missing value (NaN); any other cell must be a number.
    The separator may also be ``;`` or a tab (then with decimal commas
    allowed), found on line 1; trailing blank lines are ignored; at most
    :data:`MAX_UPLOAD_BYTES`. The header's sizes are checked against the data
    lines (``d + L`` fields on every line, ``n`` lines) before anything of
    those sizes is built, so memory stays proportional to the file whatever
    the header declares.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. an upload).
    name : str, optional
        Dataset name; defaults to the file name without extension.
    label_names : sequence of str, optional
        Names of the ``L`` labels; defaults to those of the header, else ``label_1..label_L``.

    Returns
    -------
    RankingDataset
        Features named by the header, else ``x1..xd`` (float), ``Y`` the rank positions.

    Raises
    ------
    DataError
        If the file is over :data:`MAX_UPLOAD_BYTES`, the header is not
        three positive integers (with ``n >= 2``, ``L >= 2``), a line has
        other than ``d + L`` fields, a cell is not a number, a feature is
        infinite, the number of data lines is not ``n``, a label is ranked in
        no row, a rank position is infinite, or a row has fewer than two
        ranked labels; the message names the line (the header is line 1) and
        the column.

    See Also
    --------
    load_csv : Read a CSV file with a header row.
    rankviz.datasets.fetch_label_ranking : Download and read a public benchmark set.

    Examples
    --------
    >>> import io
    >>> from rankviz import load_benchmark
    >>> text = "3,2,3\\n0.5,1.0,1,2,3\\n1.5,0.0,2,1,3\\n2.5,1.0,3,,1\\n"
    >>> data = load_benchmark(io.StringIO(text), name="tiny", label_names=["a", "b", "c"])
    >>> data.feature_names, data.label_names
    (['x1', 'x2'], ('a', 'b', 'c'))
    >>> data.Y[2]  # the empty cell: label b is missing from the third ranking
    array([ 2., nan,  1.])
    """
    text, source = read_text(path_or_buffer)
    lines = split_lines(text)
    while lines and lines[-1].strip() == "":
        lines.pop()
    if not lines:
        raise data_error("the file is empty; expected a header line n_samples,n_features,n_labels and data lines", source)
    sep = sniff_separator(lines[0])
    n, d, L, header_names = _parse_benchmark_header(lines[0], source, sep)
    body = lines[1:]
    written = body  # as in the file, for the messages
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
        raise data_error(
            f"{problem}; expected {width} numbers separated by {SEPARATOR_NAMES[sep]} ({d} features + "
            f"{L} ranks, as the header {show_text(lines[0].strip())} says)",
            source, line=k + 2,
        )
    if len(body) != n:
        raise data_error(
            f"the header says {n} data lines but the file has {len(body)}; expected exactly {n} "
            f"lines after the header",
            source,
        )
    # Only now, with n and d + L matched against the data lines, is anything of
    # the declared sizes built: a 40-byte header cannot ask for 10^8 label names.
    if label_names is None:
        label_names = tuple(header_names[d:] if header_names else (f"label_{j + 1}" for j in range(L)))
    else:
        label_names = tuple(str(x) for x in label_names)
        if len(label_names) != L:
            raise data_error(
                f"{len(label_names)} label names were given but the header says {L} labels; "
                f"expected {L} names",
                source,
            )
    try:
        # Only an empty cell reads as NaN (a missing label if it is a rank);
        # "nan", "NA" and the like stay errors.
        values = pd.read_csv(
            io.StringIO("\n".join(body)), sep=sep, header=None, dtype=np.float64, keep_default_na=False,
            na_values=[""], engine="c", skip_blank_lines=False, **_EXACT_FLOATS,
        ).to_numpy()
    except (ValueError, pd.errors.ParserError):
        error = _locate_bad_number(body, 2, d, label_names, source, sep, written=written)
        if error is not None:
            raise error from None
        quoted = next((k for k, line in enumerate(body) if '"' in line), None)
        if quoted is not None:  # a quoted field holding the separator, or one never closed
            raise data_error(f"a quoted field on this line cannot be read (does it hold {SEPARATOR_NAMES[sep]}, "
                             "or is its quote never closed?); expected plain numbers, as the benchmark format "
                             "has", source, line=2 + quoted) from None
        raise data_error("the data lines cannot be read as numbers; expected numbers only", source) from None
    if values.shape != (n, width):  # pragma: no cover - guarded by the checks above
        raise data_error(f"read a {values.shape} table; expected {n} rows of {width} numbers", source)
    features = values[:, :d]
    infinite = np.isinf(features)
    if infinite.any():
        i, j = np.argwhere(infinite)[0]
        raise data_error(
            f"the feature value {format_number(features[i, j])} is not a finite number; expected a finite number, "
            f"or an empty cell for a missing value",
            source, line=i + 2, column=_benchmark_column_label(j, d, label_names),
        )
    check_labels_used(~np.isnan(values[:, d:]), label_names, source, "rank position", column_offset=d)
    line_numbers = np.arange(2, n + 2)
    Y = validate_rank_matrix(values[:, d:], label_names, source, line_numbers=line_numbers, column_offset=d)
    feature_names = [f"x{j + 1}" for j in range(d)] if header_names is None else _apart_from(header_names[:d],
                                                                                              label_names)
    check_unique(feature_names, "feature name", source, line=1, where=" in the header")
    X = pd.DataFrame(features, columns=feature_names)
    return RankingDataset(X, Y, label_names, name=file_stem(source) if name is None else name,
                          rank_convention=rank_convention(values[:, d:], line_numbers))


# --------------------------------------------------------------------------- #
# CSV with a header row
# --------------------------------------------------------------------------- #


def _numeric_targets(frame, target_columns, lines, source, noun):
    """Rank or score columns to a float matrix; empty/NA cells become NaN."""
    cells, missing, Y = numeric_cells(frame, target_columns)
    bad = (np.isnan(Y) & ~missing) | np.isinf(Y)
    if bad.any():  # the first bad cell of the first column that has one
        j = int(np.flatnonzero(bad.any(axis=0))[0])
        i = int(np.flatnonzero(bad[:, j])[0])
        problem = f"is not a finite number (an infinite {noun.split()[-1]})" if np.isinf(Y[i, j]) \
            else "is not a number"
        raise data_error(
            f"{show_text(cells[i, j])} {problem}; expected a {noun} (a finite number) or an empty cell "
            f"for a missing label",
            source, line=lines[i], column=target_columns[j],
        )
    return Y

#: Signs read as '>' and '=' in orderings (see _parse_orderings).
_PREFERS = r"≻|＞|&gt;|&#62;|&#x3[eE];"
_TIES = r"＝|&#61;|&#x3[dD];"
#: Signs that are not separators but look like one: named rather than read as part of a label.
_OTHER_SIGNS = r"[<≺＜≫≪»«›‹→←⇒⇐≥≤⊳⊲]|&lt;"


def _ordering_error(problem, source, line, column, ordering):
    return data_error(
        f"{problem} in the ordering {show_text(ordering, 120)}; expected label names separated by '>' "
        f"(better first) and '=' for ties, e.g. b>a=c",
        source, line=line, column=column,
    )

def _did_you_mean(name, known):
    """``" (did you mean 'a'?)"`` for the closest known label, ignoring case; empty if none is close."""
    folded = {str(k).casefold(): str(k) for k in known}
    close = difflib.get_close_matches(str(name).casefold(), list(folded), n=1, cutoff=0.75)
    return f" (did you mean {folded[close[0]]!r}?)" if close else ""


def _check_spellings(names, table_rows, label_names, text, lines, column, source):
    """Refuse two labels that differ only in case, spacing, letter width or invisible characters (``A`` for
    ``a``): a typo, not a new label.

    The spelling used in fewer rows is named, at its first line, with the other.
    """
    rows_of = pd.Series(table_rows).groupby(names.to_numpy()).nunique()
    seen = {}
    for name in label_names:
        # Case, spacing, the width of letters (full-width 'ｃ') and invisible characters (a zero-width
        # space) do not make another label: pasted text brings them in unseen.
        visible = "".join(ch for ch in unicodedata.normalize("NFKC", name) if unicodedata.category(ch) != "Cf")
        key = " ".join(visible.casefold().split())
        if key not in seen:
            seen[key] = name
            continue
        other = seen[key]
        rare, common = (name, other) if rows_of[name] <= rows_of[other] else (other, name)
        r = table_rows[int(np.flatnonzero(names.eq(rare).to_numpy())[0])]
        raise _ordering_error(
            f"the label {show_text(rare)} differs from the label {show_text(common)} only in case, spacing, width "
            f"or invisible characters (did you mean {show_text(common)}?)", source, lines[r], column, text.iloc[r])


#: Peak bytes of ``load_csv`` per cell of the rank matrix (rows x labels) read from orderings: the matrix
#: and its validation's sorted copies (measured 82 bytes on 1,000 rows naming 2,000 labels).
_BYTES_PER_RANK_CELL = 88


def _parse_orderings(column_values, column, labels, lines, source):
    """Orderings like ``b>a=c`` to rank positions, vectorised over rows.

    Returns ``(Y, label_names)``.
    """
    text = column_values.str.strip().reset_index(drop=True)
    empty = text.eq("").to_numpy()
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise data_error(
            "the ordering is empty; expected label names separated by '>' (better first) and '=' for "
            "ties, e.g. b>a=c",
            source, line=lines[i], column=column,
        )
    # Written orderings use other signs for '>' and '=': the mathematical ≻, full-width ＞ and ＝,
    # and HTML's &gt; from a page copied as source. They mean the same.
    text = text.str.replace(_PREFERS, ">", regex=True).str.replace(_TIES, "=", regex=True)
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

    odd_sign = np.flatnonzero(names.str.contains(_OTHER_SIGNS, regex=True).to_numpy()
                              & ~names.isin([] if labels is None else [str(x) for x in labels]).to_numpy())
    if len(odd_sign):
        k = odd_sign[0]
        r = table_rows[k]
        sign = re.search(_OTHER_SIGNS, names.iloc[k]).group(0)
        raise _ordering_error(f"{sign!r} is not a sign of orderings (write the better label first)", source,
                              lines[r], column, text.iloc[r])
    empty_name = np.flatnonzero(names.eq("").to_numpy())
    if len(empty_name):
        r = table_rows[empty_name[0]]
        raise _ordering_error("a label name is empty", source, lines[r], column, text.iloc[r])
    twice = np.flatnonzero(pd.DataFrame({"r": table_rows, "n": names.to_numpy()}).duplicated().to_numpy())
    if len(twice):
        k = twice[0]
        r = table_rows[k]
        raise _ordering_error(
            f"the label {show_text(names.iloc[k])} appears twice", source, lines[r], column, text.iloc[r]
        )
    if labels is None:
        label_names = [str(x) for x in pd.unique(names)]
        _check_spellings(names, table_rows, label_names, text, lines, column, source)
    else:
        label_names = [str(x) for x in labels]
        check_unique(label_names, "label", source)
        unknown = np.flatnonzero(~names.isin(label_names).to_numpy())
        if len(unknown):
            k = unknown[0]
            r = table_rows[k]
            raise data_error(
                f"the label {show_text(names.iloc[k])} in the ordering {show_text(text.iloc[r], 120)} is not one of "
                f"the given labels{_did_you_mean(names.iloc[k], label_names)}; expected one of "
                f"{quote_list(label_names)}",
                source, line=lines[r], column=column,
            )
    if len(label_names) < 2:
        found = f" ({quote_list(label_names)})" if label_names else ""
        raise data_error(
            f"the orderings name {len(label_names)} label{'' if len(label_names) == 1 else 's'}{found}; "
            f"expected at least 2 labels to rank",
            source, column=column,
        )
    # Orderings name labels sparsely, the rank matrix holds every row's cell of every label: a few KB of
    # orderings each naming new labels ask for gigabytes. Checked before it is made.
    rows, n_labels = len(text), len(label_names)
    check_memory(_BYTES_PER_RANK_CELL * rows * n_labels,
                 f"{source or 'The file'}: the orderings name {n_labels:,} labels in {rows:,} rows, and their rank "
                 f"matrix (a cell for every row and label)",
                 largest=f"at most {max(2, int(max_memory() // (_BYTES_PER_RANK_CELL * rows))):,} labels in "
                         f"{rows:,} rows, or fewer rows")
    codes = pd.Categorical(names, categories=label_names).codes
    Y = np.full((rows, n_labels), np.nan)
    Y[table_rows, codes] = table["position"].to_numpy(dtype=float)
    return Y, tuple(label_names)

def load_csv(path_or_buffer: str | os.PathLike | IO, feature_columns: str | Sequence[str],
             target: str, target_columns: str | Sequence[str], labels: Sequence[str] | None = None,
             name: str | None = None) -> RankingDataset:
    """Read a label-ranking dataset from a CSV file with a header row.

    The features are named columns; the ranking of each row is given by
    ``target``: one rank-position or score column per label, or one column
    of orderings such as ``b>a=c``. Whatever the form, the dataset holds
    rank positions (lower = preferred, NaN = label missing, ties at their
    average position).

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. a Streamlit
        ``UploadedFile``). Bytes are decoded as UTF-8 (a BOM is ignored).
    feature_columns : str or list of str
        Feature column names (one name may be given as a string). A column whose every present cell is a number
        becomes float; any other column is nominal and kept as (stripped)
        strings. An empty cell or a marker such as ``NA`` or ``?`` is a
        missing value (NaN), counted by ``n_missing_features``; see the
        module docstring for separators and decimal commas.
    target : {"ranks", "scores", "ordering"}
        How the ranking is given:

        * ``"ranks"``: ``target_columns`` hold rank positions, one column per
          label (the column name is the label name); empty = label missing.
          Any finite numbers, lower = preferred, equal = tied: average
          positions, dense or competition ranks, positions with gaps; read
          as average positions, keeping the order (see
          :attr:`RankingDataset.rank_convention`).
        * ``"scores"``: ``target_columns`` hold scores, higher = better; each
          row becomes ``rankdata(-scores, "average")``; empty = label missing.
        * ``"ordering"``: ``target_columns`` is one column of orderings such
          as ``b>a>c``; ``a=b>c`` is a tie (average positions); spaces around
          names are ignored; a label not in a row's ordering is missing.
    target_columns : str or list of str
        The rank or score columns, one per label and named after it, or the
        one column of orderings; see ``target``.
    labels : sequence of str, optional
        For ``target="ordering"``: the label set, in column order. Without it,
        the labels are all names seen, in order of first appearance.
    name : str, optional
        Dataset name; defaults to the file name without extension.

    Returns
    -------
    RankingDataset
        The features of ``feature_columns`` (numeric columns as float,
        others as stripped strings) and the rank positions, named after the
        file unless ``name`` is given.

    Raises
    ------
    DataError
        For a file over :data:`MAX_UPLOAD_BYTES`, an empty file, a header
        without data rows or with only one data row, duplicate or missing
        column names, overlapping feature and target columns, fewer than 2
        labels, a row with the wrong number of fields, a quote never closed,
        an infinite feature value, a rank/score cell that is not a finite
        number, a malformed ordering, a rank/score column empty in every row,
        or a row with fewer than two ranked labels. Messages name the line as numbered in the file
        (header = line 1, first data row = line 2) and the column.

    See Also
    --------
    load_benchmark : Read a headerless benchmark file.
    RankingDataset : The dataset returned, and how it stores rankings.

    Examples
    --------
    >>> import io
    >>> from rankviz import load_csv
    >>> text = "colour,size,order\\nred,1.0,b>a>c\\nblue,2.5,a=b>c\\nred,0.5,c>a\\n"
    >>> data = load_csv(io.StringIO(text), ["colour", "size"], target="ordering", target_columns="order")
    >>> data.label_names
    ('b', 'a', 'c')
    >>> data.Y
    array([[1. , 2. , 3. ],
           [1.5, 1.5, 3. ],
           [nan, 2. , 1. ]])
    """
    if target not in TARGET_KINDS:
        raise data_error(f"the target kind {target!r} is unknown; expected one of {quote_list(TARGET_KINDS)}")
    feature_columns = as_name_list(feature_columns, "feature columns")
    target_columns = as_name_list(target_columns, "target columns")
    text, source = read_text(path_or_buffer)
    header = parse_csv_header(text, source)
    check_columns(header, feature_columns, target_columns, target, source)
    frame, lines = read_records(text, header, source)
    X = convert_features(frame, feature_columns, lines, source)
    if target == "ordering":
        Y, label_names = _parse_orderings(frame[target_columns[0]], target_columns[0], labels, lines, source)
        check_two_present(~np.isnan(Y), source, lines, "a place in the ordering")
    elif target == "scores":
        S = _numeric_targets(frame, target_columns, lines, source, "score")
        check_labels_used(~np.isnan(S), target_columns, source, "score")
        check_two_present(~np.isnan(S), source, lines, "a score")
        Y = rankdata(-S, axis=1, method="average", nan_policy="omit")
        label_names = tuple(target_columns)
    else:
        Y = _numeric_targets(frame, target_columns, lines, source, "rank position")
        check_labels_used(~np.isnan(Y), target_columns, source, "rank position")
        label_names = tuple(target_columns)
    positions = validate_rank_matrix(Y, label_names, source, line_numbers=lines)
    return RankingDataset(X, positions, label_names, name=file_stem(source) if name is None else name,
                          rank_convention=rank_convention(Y, lines))
