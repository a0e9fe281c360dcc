"""Ordinal datasets: a feature table and one ordered level per row.

An ordinal target is a single column whose values have an order: ratings
1–5, or names such as "low" < "medium" < "high". Numbers are ordered by
value; names have no order of their own, so it must be given, lowest first.

Loaders
-------
load_ordinal_csv
    A CSV with a header row; one column is the target, the others (or the
    chosen ones) are features.
read_target_values
    The distinct values of a column, for letting a person order them.

Malformed input raises :class:`rankviz.exceptions.DataError`, whose message
names the file, the line (header = line 1) and the column, the offending
value and what was expected, so an app can show ``str(error)`` as it is.

Files are read as :mod:`rankviz.datasets.reading` describes. A missing
feature value (empty cell, ``NA``, ``?``...) is NaN, counted by
``n_missing_features``; a missing *target* is an error, since every row
needs its level.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import numpy as np
import pandas as pd

from ..exceptions import data_error, quote_list, show_text
from ..ordinal.levels import OrdinalLevels, level_key
from .reading import (
    as_name_list, check_columns, check_feature_dtypes, check_unique, convert_features,
    count_missing_features, file_stem, missing_mask, parse_csv_header, read_records, read_text, to_float,
)

__all__ = ["OrdinalDataset", "load_ordinal_csv", "read_target_values", "check_level_order"]


# --------------------------------------------------------------------------- #
# dataset
# --------------------------------------------------------------------------- #
def _is_number(value):
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _level_array(levels):
    """The levels as an array: numeric when every level is a number, else object."""
    if all(_is_number(v) for v in levels):
        return np.asarray(levels)
    array = np.empty(len(levels), dtype=object)
    array[:] = levels
    return array


def _check_levels(levels: Any, source: str = "") -> list[Any]:
    """``levels`` as a list of at least 2 distinct levels (3, 3.0 and "3" are the same)."""
    if isinstance(levels, str) or not np.iterable(levels):
        raise data_error(f"the levels are {levels!r}; expected a list of levels, lowest first", source)
    levels = list(levels)
    check_unique([level_key(v) for v in levels], "level", source)
    if len(levels) < 2:
        given = f"only the level {levels[0]!r} was given" if levels else "no levels were given"
        raise data_error(f"{given}; expected at least 2 levels, lowest first", source)
    return levels


def _check_two_used(codes, levels, source, column=None):
    """The target must use at least two different levels."""
    used = np.unique(codes)
    if len(used) < 2:
        raise data_error(f"every row has the level {levels[used[0]]!r}; expected at least 2 different levels "
                     f"in the target column", source, column=column)


@dataclass(frozen=True, eq=False)
class OrdinalDataset:
    """Examples described by features, each with one level of an ordered target.

    The dataset of :class:`rankviz.OrdinalTree` and the ordinal baselines:
    ``X`` holds the features and ``y`` one level per row, the levels being
    ordered lowest first by ``levels`` rather than by their values or names.
    It is checked when built and frozen afterwards.

    Parameters
    ----------
    X : pandas.DataFrame, shape (n, d)
        Feature table. Float/int columns are numeric; string, object,
        category and bool columns are nominal. A missing value is NaN
        (numeric) or NaN/None (nominal); infinite numbers are refused.
    y : numpy.ndarray, shape (n,)
        The level of each row, one of ``levels`` (3, 3.0 and "3" count as the
        same level); stored as the level objects themselves, so numeric when
        every level is a number, object otherwise.
    levels : list
        The levels, lowest first; at least 2, distinct. A level no row has is
        allowed (its count is 0).
    target : str, default="y"
        Name of the target column; not a feature name.
    name : str, optional
        Short name shown in the app and used in error messages.
    description : str, optional
        Free text describing the data.

    Raises
    ------
    DataError
        If the parts do not fit together, there are fewer than 2 rows or no
        feature, a numeric feature value is infinite, the levels repeat or are
        fewer than 2, a value of ``y`` is not a level, or fewer than 2 levels
        occur.

    See Also
    --------
    load_ordinal_csv : Read a dataset from a CSV file.
    rankviz.datasets.load_ordinal_sample : Load the bundled ordinal sample.
    rankviz.OrdinalTree : The tree fitted on it.

    Notes
    -----
    To fit :class:`rankviz.OrdinalTree`, pass ``levels=dataset.levels`` for
    named levels; for numeric levels, ``fit(X, y)`` without ``levels`` keeps
    the values as positions (distances between ratings are their
    differences), as :attr:`ordinal_levels` does.

    Examples
    --------
    >>> import pandas as pd
    >>> from rankviz.datasets import OrdinalDataset
    >>> X = pd.DataFrame({"hours": [1.0, 5.0, 3.0, 2.0]})
    >>> data = OrdinalDataset(X, ["low", "high", "medium", "low"], ["low", "medium", "high"], target="grade")
    >>> data.positions  # 1 = lowest level
    array([1, 3, 2, 1])
    >>> data.level_counts, data.numeric
    (array([2, 1, 1]), False)
    """

    X: pd.DataFrame
    y: np.ndarray
    levels: list[Any]
    target: str = "y"
    name: str = ""
    description: str = ""
    _codes: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        source = str(self.name)
        X = self.X
        if not isinstance(X, pd.DataFrame):
            raise data_error(f"the features are a {type(X).__name__}; expected a pandas DataFrame", source)
        X = X.rename(columns=str).reset_index(drop=True)
        levels = _check_levels(self.levels, source)
        target = str(self.target)
        y = np.asarray(self.y, dtype=object)
        if y.ndim != 1 or len(y) != len(X):
            raise data_error(f"the target has shape {y.shape} but the feature table has {len(X)} rows; "
                         f"expected one level per row", source)
        if len(X) < 2:
            raise data_error(f"there {'is' if len(X) == 1 else 'are'} {len(X)} example{'' if len(X) == 1 else 's'}; "
                         f"expected at least 2", source)
        _check_features(X, target, source)
        codes = _encode(y, levels, source)
        _check_two_used(codes, levels, source, column=target)
        for key, value in (("X", X), ("y", _level_array(levels)[codes]), ("levels", levels),
                           ("target", target), ("name", source), ("description", str(self.description)),
                           ("_codes", codes)):
            object.__setattr__(self, key, value)

    @property
    def target_series(self) -> pd.Series:
        """``y`` as a Series named after the target: what ``fit`` takes to name it.

        Returns
        -------
        pandas.Series of shape (n_samples,)
            The levels, named ``target``, with the index of ``X``.
        """
        return pd.Series(self.y, name=self.target, index=self.X.index)

    @property
    def n_samples(self) -> int:
        """Number of examples (rows)."""
        return len(self.y)

    @property
    def n_levels(self) -> int:
        """Number of levels."""
        return len(self.levels)

    @property
    def feature_names(self) -> list[str]:
        """Feature column names, in order (list of str)."""
        return list(self.X.columns)

    @property
    def n_missing_features(self) -> int:
        """Number of missing feature values (cells of ``X``)."""
        return count_missing_features(self.X)

    @property
    def level_counts(self) -> np.ndarray:
        """Rows per level, aligned with :attr:`levels` (ndarray of int, length K)."""
        return np.bincount(self._codes, minlength=len(self.levels))

    @property
    def positions(self) -> np.ndarray:
        """The position ``1..K`` of each row's level (ndarray of int, 1 = lowest level)."""
        return self._codes + 1

    @property
    def numeric(self) -> bool:
        """True when every level is a number (ratings), False for named levels."""
        return all(_is_number(v) for v in self.levels)

    @property
    def ordinal_levels(self) -> OrdinalLevels:
        """The levels as :class:`rankviz.ordinal.levels.OrdinalLevels`, as :class:`rankviz.OrdinalTree` sees them.

        Numeric levels keep their values as positions; named levels get ``1..K``.
        """
        if self.numeric:
            return OrdinalLevels(self.levels, np.asarray(self.levels, dtype=float))
        return OrdinalLevels(self.levels, np.arange(1, len(self.levels) + 1, dtype=float))

    def to_frame(self) -> pd.DataFrame:
        """Return one table: the features, then the target column.

        Returns
        -------
        pandas.DataFrame
            ``n`` rows, ``d + 1`` columns; readable again with
            ``load_ordinal_csv(..., target=ds.target, levels=ds.levels)`` after
            ``to_csv(index=False)``.
        """
        frame = self.X.copy()
        frame[self.target] = self.y
        return frame


def _check_features(X, target, source):
    if X.shape[1] == 0:
        raise data_error("there are no feature columns; expected at least 1", source)
    check_unique(list(X.columns), "feature name", source)
    if target in set(X.columns):
        raise data_error(f"{target!r} is both a feature name and the target; expected distinct names", source)
    check_feature_dtypes(X, source)


def _encode(y, levels, source):
    """Level index of every value of ``y``; the error names the first row that is not a level."""
    lookup = {level_key(v): k for k, v in enumerate(levels)}
    codes = pd.Series(y, dtype=object).map(lambda v: lookup.get(level_key(v), -1)).to_numpy(dtype=np.intp)
    bad = np.flatnonzero(codes < 0)
    if len(bad):
        i = bad[0]
        raise data_error(f"the target value {y[i]!r} is not one of the levels; expected one of "
                     f"{quote_list(levels)} (lowest first)", source, row=i + 1)
    return codes


# --------------------------------------------------------------------------- #
# CSV
# --------------------------------------------------------------------------- #
def _target_cells(frame, target, lines, source, levels=None):
    """The stripped target cells; an empty or missing-marker cell is an error."""
    cells = frame[target].str.strip()
    missing = missing_mask(cells).to_numpy()
    if missing.any():
        i = int(np.flatnonzero(missing)[0])
        cell = cells.iloc[i]
        what = "the target cell is empty" if cell == "" else f"the target value {show_text(cell)} marks a missing value"
        expected = f"one of the levels {quote_list(levels)}" if levels is not None else "a level"
        raise data_error(f"{what}; expected {expected} in every row", source, line=lines[i], column=target)
    return cells


def _numbers(cells):
    """The cells as floats, or None when some cell is not a number."""
    numbers = to_float(cells)
    return numbers if not np.isnan(numbers).any() else None


def _numeric_key(level):
    """Lookup key of a level in a numeric column: "1.0", 1 and 1.0 are the same level."""
    if isinstance(level, str):
        number = to_float([level.strip()])[0]
        return level_key(float(number)) if not np.isnan(number) else level
    return level_key(level)


def _sorted_names(values):
    return sorted({str(v) for v in values}, key=lambda s: (s.casefold(), s))


def _levels_from_values(cells: Any, numbers: np.ndarray | None, target: str, lines: Any,
                        source: str) -> tuple[list[Any], np.ndarray]:
    """Levels of a column without a given order: sorted numbers, or an error for names."""
    if numbers is None:
        bad = int(np.flatnonzero(np.isnan(to_float(cells)))[0])
        names = _sorted_names(cells)
        raise data_error(
            f"the target value {show_text(cells.iloc[bad])} is a name, and names have no order of their own; "
            f"expected the levels given in their order, lowest first (the column holds {len(names)} "
            f"distinct values: {quote_list(names)})",
            source, line=lines[bad], column=target,
        )
    levels = OrdinalLevels.from_target(numbers).names
    return levels, np.searchsorted(np.asarray(levels, dtype=float), numbers)


def _codes_for_levels(cells, numbers, levels, target, lines, source):
    """Index of each cell's level among the given ``levels``."""
    if numbers is not None:
        keys = [level_key(v) for v in numbers]
        check_unique([_numeric_key(v) for v in levels], "level", source)
        lookup = {_numeric_key(v): k for k, v in enumerate(levels)}
    else:
        keys = list(cells)
        lookup = {level_key(v): k for k, v in enumerate(levels)}
    codes = np.fromiter((lookup.get(k, -1) for k in keys), dtype=np.intp, count=len(keys))
    bad = np.flatnonzero(codes < 0)
    if len(bad):
        i = bad[0]
        raise data_error(f"the target value {show_text(cells.iloc[i])} is not one of the given levels; expected one of "
                     f"{quote_list(levels)} (lowest first), with every value of the column among them",
                     source, line=lines[i], column=target)
    return codes


def load_ordinal_csv(path_or_buffer: str | os.PathLike | IO, target: str,
                     feature_columns: str | Sequence[str] | None = None,
                     levels: Sequence[Any] | None = None,
                     name: str | None = None) -> OrdinalDataset:
    """Read an ordinal dataset from a CSV file with a header row.

    One column is the target, one level per row; the levels are ordered by
    ``levels`` (needed for named levels) or, for a numeric column without
    it, by value. The other columns, or those named, are the features.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The file, or an open text/binary file object (e.g. a Streamlit
        ``UploadedFile``). Bytes are decoded as UTF-8 (a BOM is ignored).
    target : str
        The target column: one level per row, never empty.
    feature_columns : str or list of str, optional
        Feature column names; default: every column except ``target``. A
        column whose every present cell is a number becomes float; any other
        column (e.g. numbers mixed with text) is nominal and kept as
        (stripped) strings. An empty cell or a marker such as ``NA`` is a
        missing value (NaN).
    levels : sequence, optional
        The levels, lowest first; every value of the target column must be
        one of them (for a numeric column ``1``, ``1.0`` and ``"1"`` match the
        same level). Without it, a numeric column's levels are its sorted
        distinct values; a column of names needs ``levels``.
    name : str, optional
        Dataset name; defaults to the file name without extension.

    Returns
    -------
    OrdinalDataset
        ``y`` holds the level of each row (numbers for a numeric column
        without ``levels``, otherwise the given level objects).

    Raises
    ------
    DataError
        For a file over :data:`rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES`, an empty
        file, a header without data rows or with only one data row, a
        missing or repeated column, a row with the wrong number of fields, an
        infinite feature value, an empty target cell, a column of names without
        ``levels``, ``levels`` that repeat, are fewer than 2 or miss a value
        of the column, or a target with fewer than 2 different levels.
        Messages name the file, the line (header = line 1, first data row =
        line 2), the column and the offending value, e.g. ``"grades.csv, line
        5, column 'grade': the target value 'excellent' is not one of the
        given levels; expected one of 'poor', 'fair', 'good' (lowest first),
        with every value of the column among them"``.

    See Also
    --------
    read_target_values : The distinct values of the target column, to put in order.
    OrdinalDataset : The dataset returned.

    Examples
    --------
    >>> import io
    >>> from rankviz.datasets import load_ordinal_csv
    >>> text = "grade,hours\\nlow,1\\nhigh,5\\nmedium,3\\nlow,2\\n"
    >>> data = load_ordinal_csv(io.StringIO(text), "grade", levels=["low", "medium", "high"])
    >>> data.feature_names, data.n_levels
    (['hours'], 3)
    >>> data.positions
    array([1, 3, 2, 1])
    """
    target = str(target)
    text, source = read_text(path_or_buffer)
    header = parse_csv_header(text, source)
    if feature_columns is None:
        feature_columns = [c for c in header if c != target]
    else:
        feature_columns = as_name_list(feature_columns, "feature columns")
    check_columns(header, feature_columns, [target], "ordering", source)
    if levels is not None:
        levels = _check_levels(levels, source)
    frame, lines = read_records(text, header, source)
    X = convert_features(frame, feature_columns, lines, source)
    cells = _target_cells(frame, target, lines, source, levels)
    numbers = _numbers(cells)
    if numbers is not None and not np.isfinite(numbers).all():
        i = int(np.flatnonzero(~np.isfinite(numbers))[0])
        raise data_error(f"the target value {show_text(cells.iloc[i])} is not a finite number; expected a finite "
                     f"number or a level name", source, line=lines[i], column=target)
    if levels is None:
        levels, codes = _levels_from_values(cells, numbers, target, lines, source)
    else:
        codes = _codes_for_levels(cells, numbers, levels, target, lines, source)
    _check_two_used(codes, levels, source, column=target)
    y = _level_array(levels)[codes]
    return OrdinalDataset(X, y, levels, target, name=file_stem(source) if name is None else str(name))


def read_target_values(path_or_buffer: str | os.PathLike | IO, target: str) -> tuple[list[Any], bool]:
    """Read the distinct values of a column, in the order a person would start from.

    The step before :func:`load_ordinal_csv` for a column of level names:
    the names are listed alphabetically, to be put in level order by the
    user; a numeric column's values are already its levels, lowest first.

    Parameters
    ----------
    path_or_buffer : str, os.PathLike or file-like
        The CSV file or an upload (a seekable buffer is rewound first).
    target : str
        The column.

    Returns
    -------
    values : list
        For a numeric column, its distinct values sorted ascending (int when
        whole, else float) — the default level order; otherwise the distinct
        names sorted alphabetically (case-insensitive), which still need to
        be put in order.
    numeric : bool
        Whether every cell is a number.

    Raises
    ------
    DataError
        If the file cannot be read as a CSV with a header and data rows, the
        column does not exist, or a target cell is empty or not finite.

    See Also
    --------
    load_ordinal_csv : Read the dataset once the levels are ordered.

    Examples
    --------
    >>> import io
    >>> from rankviz.datasets import read_target_values
    >>> read_target_values(io.StringIO("grade,hours\\nlow,1\\nhigh,5\\nmedium,3\\n"), "grade")
    (['high', 'low', 'medium'], False)
    >>> read_target_values(io.StringIO("stars,hours\\n3,1\\n1,5\\n2.5,3\\n"), "stars")
    ([1, 2.5, 3], True)
    """
    target = str(target)
    text, source = read_text(path_or_buffer)
    header = parse_csv_header(text, source)
    if target not in header:
        raise data_error(f"there is no target column {show_text(target)}; expected one of the columns of the header: "
                     f"{quote_list(header)}", source)
    frame, lines = read_records(text, header, source)
    cells = _target_cells(frame, target, lines, source)
    numbers = _numbers(cells)
    if numbers is None:
        return _sorted_names(cells), False
    if not np.isfinite(numbers).all():
        i = int(np.flatnonzero(~np.isfinite(numbers))[0])
        raise data_error(f"the target value {show_text(cells.iloc[i])} is not a finite number; expected a finite "
                     f"number or a level name", source, line=lines[i], column=target)
    return OrdinalLevels.from_target(numbers).names, True


def check_level_order(values: Sequence[Any], order: Sequence[Any],
                      column: str | None = None) -> list[Any]:
    """Check that ``order`` places every one of ``values`` exactly once.

    Parameters
    ----------
    values : sequence
        The distinct values of the target column.
    order : sequence
        The same values in level order, lowest first.
    column : str, optional
        The column's name, for the message ("the target column" without it).

    Returns
    -------
    list
        ``order`` as a list.

    Raises
    ------
    DataError
        Naming the first value placed twice, a value that is not in the
        column, or the values not placed yet.
    """
    order = list(order)
    where = "the target column" if column is None else f"column {column!r}"
    seen = set()
    for value in order:
        key = level_key(value)
        if key in seen:
            raise data_error(f"the level {value!r} is placed twice in the order; expected every value of "
                         f"{where} exactly once")
        seen.add(key)
    known = {level_key(v) for v in values}
    unknown = [v for v in order if level_key(v) not in known]
    if unknown:
        raise data_error(f"the level {unknown[0]!r} is not a value of {where}; expected only its values "
                     f"{quote_list(values)}")
    left = [v for v in values if level_key(v) not in seen]
    if left:
        raise data_error(f"{quote_list(left)} {'is' if len(left) == 1 else 'are'} not placed in the order yet; "
                     f"expected every value of {where} exactly once, lowest first")
    return order
