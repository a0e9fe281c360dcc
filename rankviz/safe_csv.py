"""CSV text of a table that spreadsheets open as data, never as formulas.

A cell starting with ``=``, ``+``, ``-`` or ``@`` (or a tab or carriage
return) is read by Excel, LibreOffice and Google Sheets as a formula, so a
feature called ``=HYPERLINK("http://evil", "x")`` would become a live link
in a downloaded table ("CSV injection"). :func:`safe_csv` prefixes such text
cells with a single quote, as OWASP recommends; numbers, and text that is a
plain number such as ``-0.5``, are left as they are. Bidi controls in text
are written visibly (:func:`rankviz.safe_text.visible_controls`).
"""

from __future__ import annotations

import re

import pandas as pd

from .safe_text import visible_controls

__all__ = ["FORMULA_STARTS", "safe_cell", "safe_csv"]

#: First characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def safe_cell(value: object) -> object:
    """One cell as :func:`safe_csv` writes it; values other than text are returned unchanged.

    Parameters
    ----------
    value : object
        A cell, column name or index value.

    Returns
    -------
    object
        ``value`` with bidi controls made visible and a leading ``'`` if it is
        text starting with one of :data:`FORMULA_STARTS` and not a plain number.

    Examples
    --------
    >>> safe_cell('=HYPERLINK("http://evil")'), safe_cell("-0.5"), safe_cell(-0.5)
    ('\\'=HYPERLINK("http://evil")', '-0.5', -0.5)
    """
    if not isinstance(value, str):
        return value
    value = visible_controls(value)
    if value.startswith(FORMULA_STARTS) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def safe_csv(frame: pd.DataFrame, index: bool = False) -> str:
    """``frame.to_csv(index=index)`` with every text cell, column name and index value defused.

    Parameters
    ----------
    frame : DataFrame
        The table; it is not modified.
    index : bool, default=False
        Whether to write the index (and its name) as the first column.

    Returns
    -------
    str
        The CSV text, lines ended by CRLF as RFC 4180 has it (so that a cell
        holding a carriage return is quoted, not cut in two).

    Examples
    --------
    >>> import pandas as pd
    >>> safe_csv(pd.DataFrame({"name": ["=1+1", "a"], "x": [-0.5, 2.0]})).splitlines()
    ['name,x', "'=1+1,-0.5", 'a,2.0']
    """
    out = frame.copy()
    for position in range(out.shape[1]):
        column = out.iloc[:, position]
        if not pd.api.types.is_numeric_dtype(column.dtype) and not pd.api.types.is_bool_dtype(column.dtype):
            out.isetitem(position, column.astype(object).map(safe_cell))
    out.columns = out.columns.map(safe_cell)
    if index:
        out.index = out.index.map(safe_cell)
        out.index.names = [safe_cell(name) for name in out.index.names]
    return out.to_csv(index=index, lineterminator="\r\n")
