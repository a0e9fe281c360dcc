"""Errors of rankviz and the pieces their messages are made of.

A :class:`DataError` message is one sentence that says what is wrong, where
(file, line or row, column) and what was expected, e.g. ``"iris.csv, line 7,
column 'a': 'x' is not a number; expected a rank position (a finite number)
or an empty cell for a missing label"``, so an app can show ``str(error)``
as it is. The helpers below build such messages the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

__all__ = ["DataError", "MemoryLimitError", "ColumnLabel", "data_error", "show_text", "format_number", "count_phrase",
           "quote_list", "join_and"]

class DataError(ValueError):
    """Malformed input data; the message says what, where and what was expected.

    Raised by the loaders and the datasets of :mod:`rankviz.datasets` for a
    file or a table that cannot be read as the data it should be. The
    message is one sentence, ``"<file>, line <n>, column <c>: <what is
    wrong>; expected <what>"``, that an app can show as it is. As a
    :class:`ValueError` it is caught by code that handles bad values.

    See Also
    --------
    rankviz.load_csv, rankviz.load_benchmark : Loaders that raise it.

    Examples
    --------
    >>> import io
    >>> from rankviz import DataError, load_benchmark
    >>> try:
    ...     load_benchmark(io.StringIO("2,1,2\\n0.5,1,2\\nx,2,1\\n"))
    ... except DataError as error:
    ...     print(error)
    line 3, column 1 (feature x1): 'x' is not a number; expected a number in every cell
    """


class MemoryLimitError(DataError):
    """Well-formed input too large for the memory budget of a fit.

    Raised before anything large is allocated, by every estimator whose
    memory grows faster than its input (statistics per pair of labels,
    document pairs per query, a dense matrix from a sparse file). The
    message names the need and what drives it, the limit
    (:func:`rankviz.set_config`'s ``max_memory``) and the largest input of
    the same kind that fits. As a :class:`DataError` an app shows it as it is.

    See Also
    --------
    rankviz.set_config : Sets the limit.
    rankviz.memory.check_memory : Raises it.

    Examples
    --------
    >>> import numpy as np
    >>> import rankviz
    >>> Y = np.argsort(np.random.default_rng(0).random((50, 100)), axis=1) + 1
    >>> with rankviz.config_context(max_memory="10 MB"):
    ...     try:
    ...         rankviz.RankingTree(criterion="gini").fit(np.zeros((50, 1)), Y)
    ...     except rankviz.MemoryLimitError as error:
    ...         print(str(error)[:74])
    criterion 'gini' keeps an indicator per label and rank level for every row
    """


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
        parts.append(column if isinstance(column, ColumnLabel) else f"column {show_text(column)}")
    return ", ".join(parts)

class ColumnLabel(str):
    """A column description used verbatim by :func:`_where`."""

def data_error(problem: str, source: str = "", line: int | None = None, row: int | None = None,
               column: str | None = None) -> DataError:
    """A :class:`DataError` whose message is ``"<where>: <problem>"``."""
    where = _where(source, line, row, column)
    if where:
        return DataError(f"{where}: {problem}")
    return DataError(problem[:1].upper() + problem[1:])

def show_text(text: Any, limit: int = 60) -> str:
    """``repr(text)``, shortened to ``limit`` characters with its length given."""
    text = str(text)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"

def format_number(value: float) -> str:
    """A number as a person would write it (``1``, ``1.5``); NaN as ``missing``."""
    value = float(value)
    if np.isnan(value):
        return "missing"
    return format(value, ".10g")

def count_phrase(n: int, noun: str) -> str:
    """``"is 1 example"`` / ``"are 3 examples"``."""
    return f"is 1 {noun}" if n == 1 else f"are {n} {noun}s"

def quote_list(names: Iterable[Any], limit: int = 20, chars: int = 600) -> str:
    """``'a', 'b', ... (3 more)``: at most ``limit`` names, and no more than about ``chars`` characters of them
    (each shortened by :func:`show_text`), so that a message stays one readable sentence."""
    names = [show_text(n) for n in names]
    shown: list[str] = []
    length = 0
    for name in names[:limit]:
        if shown and length + len(name) > chars:
            break
        shown.append(name)
        length += len(name) + 2
    if len(shown) < len(names):
        shown.append(f"... ({len(names) - len(shown)} more)")
    return ", ".join(shown)

def join_and(items: Iterable[str], limit: int = 6) -> str:
    """``'a'``, ``'a' and 'b'``, ``'a', 'b' and 'c'`` (at most ``limit`` shown)."""
    items = list(items)
    if len(items) > limit:
        items = items[:limit - 1] + [f"{len(items) - limit + 1} more"]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
