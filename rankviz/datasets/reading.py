"""The reading layer shared by every text loader of :mod:`rankviz.datasets`.

A file is read once into text (:func:`read_text`), its separator found on
line 1 (:func:`sniff_separator`), its header and records split
(:func:`parse_csv_header`, :func:`read_records`) and its feature cells
converted (:func:`convert_features`); every problem is a
:class:`rankviz.exceptions.DataError` naming the file, line and column.

What the loaders accept (the same rules for every text loader of rankviz):

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
* **Rankings.** Rank positions may follow any convention (lower =
  preferred, equal = tied): average positions (``1.5, 1.5, 3``), dense or
  competition ranks, gaps left by deleted labels (``4, , , , 1, 5``) or any
  finite numbers; only each row's order is kept, as average positions
  (:mod:`rankviz.datasets.rank_conventions` names what was read). An
  infinite position is an error naming the line and the column. Every row
  needs two ranked labels; a rank or score column empty in every row is
  refused (an ordering may leave out a label of an explicit label list).
"""

from __future__ import annotations

import csv
import io
import os
import re
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ..exceptions import data_error, format_number, quote_list, show_text

__all__ = [
    "MAX_NAME_CHARS", "MAX_UPLOAD_MB", "MAX_UPLOAD_BYTES", "MISSING_IN_WORDS", "MISSING_MARKERS", "SPREADSHEET_ERRORS",
    "PANDAS_PARSES_EXACTLY", "SEPARATORS", "SEPARATOR_NAMES",
    "TEXT_ENCODINGS", "check_upload_size", "whole_number", "detect_encoding", "encoding_name", "read_text",
    "split_lines", "sniff_separator", "file_stem",
    "parse_csv_header", "read_csv_header", "read_records", "as_name_list", "check_columns",
    "check_unique", "missing_mask", "numeric_cells", "convert_features", "check_feature_dtypes", "non_ascii_hint",
    "parse_number", "to_float", "grouped_numbers",
    "is_supported_feature", "check_finite_features", "count_missing_features",
    "describe_missing_features",
]

#: Whether ``pandas.to_numeric`` and ``read_csv`` round every number to the nearest
#: float (pandas 3.1 and later); before, :func:`to_float` and the benchmark reader
#: take care of it.
PANDAS_PARSES_EXACTLY = tuple(int(part) for part in pd.__version__.split(".")[:2]) >= (3, 1)

#: Largest file, in megabytes, that any loader (and the app's upload pickers)
#: reads. Larger files are refused before they are read, so a stray upload
#: cannot exhaust memory: parsing needs several times the file's size.
#: Streamlit's ``file_uploader(max_upload_size=...)`` takes the same unit.
MAX_UPLOAD_MB = 50

#: :data:`MAX_UPLOAD_MB` in bytes (a megabyte being 1024 * 1024 bytes, as in
#: Streamlit). Loaders read this module attribute at call time.
MAX_UPLOAD_BYTES = MAX_UPLOAD_MB * 1024 * 1024

#: Separators a CSV file may use; the one that occurs most often on line 1 wins.
SEPARATORS = (",", ";", "\t")

SEPARATOR_NAMES = {",": "','", ";": "';'", "\t": "tabs"}

#: The dtype pandas gives a column of texts (``str`` from pandas 3, ``object`` before): the dtype of the
#: text (nominal) columns the loaders return. They read the cells as ``object``, which pandas keeps
#: in one block, where a dtype per column would cost a fixed time per column.
TEXT_DTYPE = pd.Series(["text"]).dtype

# Texts of digits, signs, points and exponents only, one per line: what to_float reads the fast way.
_PLAIN_NUMBERS = re.compile(r"[0-9eE+\-.\n]*")

#: A number written with a decimal comma: ``0,5``, ``-1,25e3``, ``,5``.
_DECIMAL_COMMA = r"^\s*[+-]?(?:\d+,\d*|,\d+)(?:[eE][+-]?\d+)?\s*$"

#: The error values of spreadsheets (Excel, LibreOffice, Google Sheets) a formula cell can hold:
#: a file saved from a sheet carries them as text, and one such cell must not make a numeric
#: column nominal.
SPREADSHEET_ERRORS = frozenset({"#DIV/0!", "#N/A", "#NA", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#NULL!",
                                "#SPILL!", "#CALC!", "#FIELD!", "#BLOCKED!", "#CONNECT!", "#BUSY!", "#UNKNOWN!",
                                "#GETTING_DATA", "#ERROR!", "#N/A!"})
#: Cell texts read as "no value": empty, one of these (after stripping), or a spreadsheet error.
MISSING_MARKERS = frozenset({"", "NA", "N/A", "NaN", "nan", "null", "NULL", "?"}) | SPREADSHEET_ERRORS
#: What counts as missing, in words for a page's help.
MISSING_IN_WORDS = ("empty cells, NA, N/A, NaN, null, ? and spreadsheet errors (#DIV/0!, #N/A, #VALUE!, #REF!, "
                    "#NAME?, #NUM!, #NULL! and the like)")


# --------------------------------------------------------------------------- #
# size limit
# --------------------------------------------------------------------------- #


def _megabytes(n_bytes):
    """``"50 MB"``, ``"61.2 MB"``: bytes in megabytes of 1024 * 1024."""
    value = n_bytes / (1024 * 1024)
    return f"{value:.0f} MB" if value == int(value) else f"{value:.1f} MB"

def check_upload_size(n_bytes: int | None, source: str = "") -> None:
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
        raise data_error(
            f"the file is {size} ({n_bytes:,} bytes); expected at most {_megabytes(limit)}, the upload "
            f"limit (rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES)",
            source,
        )


# --------------------------------------------------------------------------- #
# reading text
# --------------------------------------------------------------------------- #


def read_text(path_or_buffer: str | os.PathLike | IO) -> tuple[str, str]:
    """Read a path or file-like object once; return ``(text, file_name)``.

    Bytes are decoded in the encoding :func:`detect_encoding` finds (UTF-8
    with or without BOM, UTF-16, Windows-1252, Latin-1); line endings are
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
            raise data_error(f"no such file ({path}); expected an existing file", source) from None
        except IsADirectoryError:
            raise data_error(f"{path} is a directory; expected a file", source) from None
        except OSError as exc:
            raise data_error(f"the file cannot be read ({exc.strerror or exc}); expected a readable file", source) from None
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
            raise data_error(
                f"cannot read a {type(path_or_buffer).__name__}; expected a file path or a file-like object",
                source,
            ) from None
        check_upload_size(len(data), source)
    if isinstance(data, str):
        text = data[1:] if data.startswith("\ufeff") else data
    else:
        encoding = detect_encoding(bytes(data), source)
        text = bytes(data).decode(encoding)
        if text.startswith("\ufeff"):
            text = text[1:]
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, source

#: Encodings a file may be read in besides UTF-8, as a detector names them:
#: UTF-16 (Excel's "Unicode text") and the Western single-byte code pages
#: that Excel writes as "CSV" in many countries. Not Latin-9 (ISO 8859-15): it
#: differs from them in eight letters and signs (0xBD is "½" in both, "œ" in
#: Latin-9), and a detector cannot tell them apart on a few accented words.
TEXT_ENCODINGS = ("utf_16", "utf_16_le", "utf_16_be", "cp1252", "latin_1")

_ENCODING_NAMES = {"utf-8": "UTF-8", "utf-8-sig": "UTF-8 (with BOM)", "utf_16": "UTF-16",
                   "utf_16_le": "UTF-16 LE", "utf_16_be": "UTF-16 BE", "cp1252": "Windows-1252",
                   "latin_1": "Latin-1"}

# A multi-byte UTF-8 character: a lead byte and its continuation bytes. A file holding one is UTF-8
# text, however many bytes elsewhere are not (Windows-1252 text would need "Ã©"-like pairs by chance).
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
# Bytes that are control characters in every code page, which text files other than UTF-16 never hold.
_CONTROL_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def detect_encoding(data: bytes, source: str = "") -> str:
    """The text encoding of a file's bytes: UTF-8 (with or without BOM), UTF-16, or a Western code page.

    A byte order mark decides, and the whole file must then decode in its
    encoding; then strict UTF-8. A file with a byte that is not UTF-8 but
    with multi-byte UTF-8 characters elsewhere is UTF-8 with a bad byte,
    and is refused there. Otherwise charset-normalizer (a maintained
    detector) chooses among :data:`TEXT_ENCODINGS`, and text it cannot
    place (a few accented words) is read as Windows-1252 when it decodes so
    and holds no control bytes.

    Parameters
    ----------
    data : bytes
    source : str, default=""
        The file's name, for the message.

    Returns
    -------
    str
        A Python codec name, e.g. ``"utf-8-sig"``, ``"utf_16"``, ``"cp1252"``
        (see :func:`encoding_name` for a reader's name).

    Raises
    ------
    DataError
        If the bytes are none of these encodings, or not the one their byte
        order mark names, naming the first byte at fault and its line.
    """
    if data.startswith(b"\xef\xbb\xbf"):
        return _whole(data, "utf-8-sig", source)
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return _whole(data, "utf_16", source)
    try:
        data.decode("utf-8")
        return "utf-8"
    except UnicodeDecodeError as exc:
        first_bad = exc.start
    line = data[:first_bad].count(b"\n") + 1
    if _UTF8_SEQUENCE.search(data):
        raise data_error(
            f"byte 0x{data[first_bad]:02x} is not UTF-8 text, though the file's other accented or special "
            "characters are; expected UTF-8 throughout (retype that character, or save the file as "
            "'CSV UTF-8')", source, line=line)
    from charset_normalizer import from_bytes  # imported on demand: most files are UTF-8

    best = from_bytes(data[: 1 << 20], cp_isolation=list(TEXT_ENCODINGS)).best()
    if best is not None and best.encoding in TEXT_ENCODINGS:
        try:
            data.decode(best.encoding)
            return best.encoding
        except (UnicodeDecodeError, LookupError):
            pass
    if not _CONTROL_BYTES.search(data):
        try:
            data.decode("cp1252")
            return "cp1252"
        except UnicodeDecodeError:
            pass
    raise data_error(
        f"byte 0x{data[first_bad]:02x} is not UTF-8 text, and the file is not UTF-16, Windows-1252 or "
        "Latin-1 either; expected a text file (save it as 'CSV UTF-8')", source, line=line)


def _whole(data, encoding, source):
    """``encoding`` if all of ``data`` decodes in it (the encoding its byte order mark names), else a DataError."""
    try:
        data.decode(encoding)
        return encoding
    except UnicodeDecodeError:
        pass
    # Decoded again after the mark, in the byte order it names, for the fault's place in the file.
    mark, codec, name = ((3, "utf-8", "UTF-8") if encoding == "utf-8-sig" else
                         (2, "utf_16_le" if data.startswith(b"\xff\xfe") else "utf_16_be", "UTF-16"))
    try:
        data[mark:].decode(codec)
        problem, start = "the file cannot be decoded", mark
    except UnicodeDecodeError as exc:
        start = mark + exc.start
        if "truncated" in exc.reason or "end of data" in exc.reason:
            problem = f"the file ends inside a {name} character (it is cut short)"
        else:
            problem = f"byte 0x{data[start]:02x} is not {name} text"
    line = data[mark:start].decode(codec, errors="ignore").count("\n") + 1
    raise data_error(f"{problem}, though the file starts with the {name} byte order mark; expected {name} "
                     "throughout (save it again as such)", source, line=line)


def encoding_name(encoding: str) -> str:
    """A reader's name of a codec :func:`detect_encoding` returns: ``"cp1252"`` → ``"Windows-1252"``."""
    return _ENCODING_NAMES.get(encoding, encoding)


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

def sniff_separator(line: str) -> str:
    """``','``, ``';'`` or ``'\\t'``: the one occurring most often in ``line`` outside quotes."""
    outside = re.sub(r'"[^"]*"?', "", line) if '"' in line else line
    counts = [outside.count(sep) for sep in SEPARATORS]
    best = max(counts)
    return SEPARATORS[counts.index(best)] if best else ","

def split_lines(text: str) -> list[str]:
    """Physical lines of ``text``; a final line terminator adds no empty line."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines

def file_stem(source: str) -> str:
    return Path(source).stem if source else ""


# --------------------------------------------------------------------------- #
# CSV with a header row
# --------------------------------------------------------------------------- #


#: Longest column name a CSV header may hold (characters).
MAX_NAME_CHARS = 1_000


def parse_csv_header(text: str, source: str) -> list[str]:
    """Column names from line 1 (stripped; an empty name becomes ``Unnamed: i``).

    The separator is the one :func:`sniff_separator` finds on line 1.
    """
    if text.strip() == "":
        raise data_error("the file is empty; expected a header line with column names, then data rows", source)
    first = _first_line(text)
    if first.strip() == "":
        raise data_error("the line is empty; expected the header with the column names on line 1", source, line=1)
    sep = sniff_separator(first)
    if first.count('"') % 2 and _header_spans_lines(text, sep):
        # A quote the line does not close: a column name with a line break (a spreadsheet's wrapped
        # header cell). The data rows are read from line 2 on, so the header must be one line.
        raise data_error("a quote '\"' opened in the header runs on past line 1 (a column name holding a "
                         "line break?); expected the column names on line 1 alone: remove the line breaks inside "
                         "them", source, line=1)
    if '"' in first:
        names = _csv_records(first, sep, source, first_line=1)[0][0]
    else:
        names = first.split(sep)
    names = [n.strip() or f"Unnamed: {k}" for k, n in enumerate(names)]
    long = next((k for k, n in enumerate(names) if len(n) > MAX_NAME_CHARS), None)
    if long is not None:
        # Tables of names cost their longest name per column (NumPy's fixed-width strings): one name of
        # 100,000 characters among 3,000 columns asked for 1.1 GiB.
        raise data_error(f"the name of column {long + 1} is {len(names[long]):,} characters long "
                         f"({show_text(names[long])}); expected names of at most {MAX_NAME_CHARS:,} characters "
                         "(is a line break missing after the header?)", source, line=1)
    check_unique(names, "column name", source, line=1, where=" in the header", position="columns")
    return names

def _header_spans_lines(text, sep):
    """Whether the first CSV record of ``text`` (as the csv module reads quotes) runs past line 1."""
    reader = csv.reader(io.StringIO(text[:1 << 16]), delimiter=sep)
    try:
        next(reader)
    except (csv.Error, StopIteration):
        return False
    return reader.line_num > 1


def read_csv_header(path_or_buffer: str | os.PathLike | IO) -> list[str]:
    """Read the column names of a CSV file (its first line).

    Only the header is parsed, with the separator found on it (``,``, ``;``
    or a tab), so the columns can be shown, and chosen as features and
    targets, before the whole file is read.

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

    See Also
    --------
    rankviz.load_csv, rankviz.load_query_csv : Read the file once the columns are chosen.
    rankviz.datasets.load_ordinal_csv : Likewise for an ordinal target.

    Examples
    --------
    >>> import io
    >>> from rankviz.datasets import read_csv_header
    >>> read_csv_header(io.StringIO("colour; size ;a;b\\nred;1;1;2\\n"))
    ['colour', 'size', 'a', 'b']
    """
    text, source = read_text(path_or_buffer)
    return parse_csv_header(text, source)

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
        raise data_error(
            f"the record cannot be read as CSV ({exc}); expected fields of at most "
            f"{csv.field_size_limit():,} characters separated by {SEPARATOR_NAMES[sep]}",
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
        raw = split_lines(body)
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

def as_name_list(columns: str | Iterable[Any], what: str) -> list[str]:
    if isinstance(columns, str):
        return [columns]
    try:
        return [str(c) for c in columns]
    except TypeError:
        raise data_error(f"the {what} are {columns!r}; expected a list of column names") from None

def check_columns(header: Sequence[str], feature_columns: Sequence[str],
                  target_columns: Sequence[str], target: str, source: str) -> None:
    available = set(header)
    hint = ""
    if len(header) == 1 and "|" in header[0]:
        hint = " (the header has a single column: is the file separated by '|'? expected ',', ';' or tabs)"
    for kind, names in (("feature", feature_columns), ("target", target_columns)):
        for name in names:
            if name not in available:
                raise data_error(
                    f"there is no {kind} column {show_text(name)}; expected one of the columns of the header: "
                    f"{quote_list(header)}{hint}",
                    source,
                )
        check_unique(names, f"{kind} column", source)
    both = [c for c in feature_columns if c in set(target_columns)]
    if both:
        raise data_error(
            "the column is chosen both as a feature and as a target; expected feature and target "
            "columns to be different",
            source, column=both[0],
        )
    if not feature_columns:
        raise data_error("no feature columns were chosen; expected at least 1", source)
    if target == "ordering":
        if len(target_columns) != 1:
            raise data_error(
                f"{len(target_columns)} ordering columns were chosen ({quote_list(target_columns)}); "
                f"expected exactly one column holding orderings such as b>a>c",
                source,
            )
    elif len(target_columns) < 2:
        which = f" ({quote_list(target_columns)})" if target_columns else ""
        noun = "rank" if target == "ranks" else "score"
        raise data_error(
            f"{len(target_columns)} {noun} column{'' if len(target_columns) == 1 else 's'} "
            f"{'was' if len(target_columns) == 1 else 'were'} chosen{which}; expected at least 2 "
            f"labels, one column each, since a ranking needs 2",
            source,
        )

def check_unique(names: Iterable[Any], kind: str, source: str, line: int | None = None,
                 where: str = "", position: str = "positions") -> None:
    """Raise a DataError naming the first name that repeats and both places."""
    seen: dict[Any, int] = {}
    for k, n in enumerate(names):
        if n in seen:
            raise data_error(
                f"the {kind} {show_text(n, 40)} appears twice{where} ({position} {seen[n] + 1} and {k + 1}); "
                f"expected unique {kind}s",
                source, line=line,
            )
        seen[n] = k

def read_records(text: str, header: Sequence[str], source: str) -> tuple[pd.DataFrame, np.ndarray]:
    """The data rows as a str DataFrame (header names) and each row's file line.

    The separator is found on line 1 (:func:`sniff_separator`); with ``;``
    or tabs, cells that are numbers written with a decimal comma get a
    decimal point, so every later :func:`to_float` reads them.
    """
    sep = sniff_separator(_first_line(text))
    body = text.split("\n", 1)[1] if "\n" in text else ""
    counts, lines, blank, spans = _record_shape(body, first_line=2, sep=sep, source=source)
    wrong = np.flatnonzero((counts != len(header)) & ~blank)
    if len(wrong):
        k = wrong[0]
        if k in spans:
            raise data_error(
                f"a quote '\"' opened on this line is never closed (the quoted field runs on to line "
                f"{spans[k]}); expected every quoted field to end with '\"'",
                source, line=lines[k],
            )
        raise data_error(
            f"found {counts[k]} fields; expected {len(header)} fields separated by {SEPARATOR_NAMES[sep]} "
            f"as in the header ({quote_list(header, limit=8)})",
            source, line=lines[k],
        )
    keep = ~blank
    n_rows = int(keep.sum())
    if n_rows == 0:
        raise data_error("the file has a header but no data rows; expected at least 2 data rows", source)
    if n_rows == 1:
        raise data_error(
            f"the file has only 1 data row (line {lines[keep][0]}); expected at least 2 data rows", source
        )
    try:
        frame = pd.read_csv(
            io.StringIO(body), sep=sep, header=None, names=list(range(len(header))), dtype=object,
            keep_default_na=False, na_filter=False, skip_blank_lines=False,
            skipinitialspace=True, engine="c", index_col=False,
        )
    except pd.errors.ParserError as exc:
        if "EOF inside string" in str(exc):
            # A quote the file never closes, on its last record (the field counts could not see it).
            opened = int(np.flatnonzero(~blank)[-1])
            raise data_error("a quote '\"' opened on this line is never closed (the file ends inside the quoted "
                             "field); expected every quoted field to end with '\"'", source,
                             line=lines[opened]) from None
        match = re.search(r"line (\d+)", str(exc))  # pragma: no cover - field counts checked above
        line = int(match.group(1)) + 1 if match else None
        raise data_error(f"the row cannot be read as CSV ({exc}); expected {len(header)} fields", source,
                         line=line) from None
    if len(frame) != len(counts):  # pragma: no cover - parsers disagree on odd quoting
        raise data_error(
            "the rows cannot be split consistently (unbalanced quotes?); expected plain CSV rows", source
        )
    # One block of object cells (read_csv makes one per column: tens of thousands in a wide file).
    frame = pd.DataFrame(frame.to_numpy(dtype=object)[keep], columns=header, dtype=object)
    if sep != ",":
        frame = _decimal_commas(frame)
    return frame, lines[keep]

def _decimal_commas(frame):
    """Cells such as ``0,5`` to ``0.5``, and ``1.000,5`` to ``1000.5`` (only numbers; other text is left alone).

    Column by column the reading is one: a column holding a number that only
    thousands separators can explain (``12,345,678``, ``1,234.5``) keeps its
    ``1,000`` as one thousand too (read later, with the separators), where a
    decimal comma would have made it 1 beside 12,345,678. All cells in one
    pass (column after column), not one pass per column: a file may have tens
    of thousands of columns.
    """
    n_rows, n_columns = frame.shape
    flat = pd.Series(frame.to_numpy(dtype=object).ravel(order="F"), dtype=object)
    comma = flat.str.contains(",", regex=False).fillna(False).to_numpy(dtype=bool)
    if comma.any():
        candidates = flat[comma]
        column_of = np.flatnonzero(comma) // max(n_rows, 1)
        grouped = candidates.str.fullmatch(_ONLY_THOUSANDS).to_numpy(dtype=bool)
        thousands_columns = np.zeros(n_columns, dtype=bool)
        thousands_columns[column_of[grouped]] = True
        keep = thousands_columns[column_of]
        decimal = candidates.str.match(_DECIMAL_COMMA).to_numpy(dtype=bool) & ~keep
        dotted = candidates.str.fullmatch(_DOTTED_THOUSANDS).to_numpy(dtype=bool) & ~keep
        where = np.flatnonzero(comma)
        flat.iloc[where[decimal]] = candidates[decimal].str.replace(",", ".", regex=False).to_numpy()
        flat.iloc[where[dotted]] = (candidates[dotted].str.replace(".", "", regex=False)
                                    .str.replace(",", ".", regex=False).to_numpy())
    cells = flat.to_numpy(dtype=object).reshape(n_columns, n_rows).T
    return pd.DataFrame(cells, columns=frame.columns, index=frame.index, dtype=object)


# Numbers only thousands separators explain: two or more groups, or groups then a decimal point.
_ONLY_THOUSANDS = r"\s*[+-]?\d{1,3}(?:,\d{3}){2,}(?:\.\d+)?\s*|\s*[+-]?\d{1,3}(?:,\d{3})+\.\d+\s*"
# 1.000,5 or 12.345.678,25: points between groups of three, a decimal comma (the European way).
_DOTTED_THOUSANDS = r"\s*[+-]?\d{1,3}(?:\.\d{3})+,\d+\s*"


# --------------------------------------------------------------------------- #
# cells
# --------------------------------------------------------------------------- #


def missing_mask(column: pd.Series) -> pd.Series:
    return column.isna() | column.isin(MISSING_MARKERS)

def numeric_cells(frame: pd.DataFrame, columns: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The cells of ``columns``, stripped, which are missing, and their numbers, all columns at once.

    One pandas pass over every cell instead of one per column: a file of
    10,000 label or 20,000 feature columns otherwise pays pandas' fixed cost
    per column, seconds in all.

    Returns
    -------
    cells : ndarray of object, shape (n_rows, n_columns)
        The stripped texts.
    missing : ndarray of bool, same shape
        Empty cells and markers such as ``NA`` (``MISSING_MARKERS``).
    values : ndarray of float, same shape
        The numbers (see :func:`to_float`); NaN where a cell is missing or not a number.
    """
    n_rows = len(frame)
    # column after column, so that each column's cells stay together (and reshape back by columns)
    flat = pd.Series(frame[list(columns)].to_numpy(dtype=object).ravel(order="F"), dtype=object)
    stripped = flat.str.strip()
    missing = missing_mask(stripped).to_numpy()
    values = to_float(stripped.where(~missing, None))
    shape = (len(columns), n_rows)
    return (stripped.to_numpy(dtype=object).reshape(shape).T, missing.reshape(shape).T, values.reshape(shape).T)


def convert_features(frame: pd.DataFrame, feature_columns: Iterable[str], lines: np.ndarray,
                     source: str) -> pd.DataFrame:
    """Features from text cells: numbers to float, others (stripped) text; missing cells NaN.

    A column is numeric when every present (not missing) cell is a number,
    e.g. ``1``, ``-0.5``, ``2e3``; a column of numbers and text is nominal.
    A missing cell (empty or a marker such as ``NA``, see
    ``MISSING_MARKERS``) is NaN in either kind. An infinite number in a
    numeric column is an error naming its line and column.
    """
    names = list(feature_columns)
    cells, missing, values = numeric_cells(frame, names)
    numeric = (~np.isnan(values) | missing).all(axis=0)
    X = pd.DataFrame(values, columns=names, index=pd.RangeIndex(len(frame)))
    # Columns that need a look of their own, in column order (the first problem is the one named):
    # numeric ones with an infinity, and text ones (names, or numbers with thousands separators).
    for j in np.flatnonzero(~numeric | np.isinf(values).any(axis=0)):
        name = names[j]
        column = pd.Series(cells[:, j], dtype=object).astype(TEXT_DTYPE)
        if numeric[j]:
            i = int(np.flatnonzero(np.isinf(values[:, j]))[0])
            raise data_error(
                f"the feature value {show_text(cells[i, j])} is not a finite number; expected a finite "
                f"number, or an empty cell for a missing value",
                source, line=lines[i], column=name,
            )
        grouped = _thousands_numbers(column, values[:, j], missing[:, j], lines, source, name)
        X[name] = grouped if grouped is not None else column.where(~missing[:, j], np.nan)
    return X


# 1,000 or -12,345.5: digits in groups of three, as spreadsheets write numbers.
_THOUSANDS = r"[+-]?\d{1,3}(?:,\d{3})+(?:\.\d+)?"


def grouped_numbers(cells: np.ndarray) -> np.ndarray:
    """The numbers of cells written with thousands separators (``1,000``, ``-12,345.5``), NaN for other cells.

    Parameters
    ----------
    cells : ndarray of object
        Stripped cell texts (None for a missing cell), any shape.

    Returns
    -------
    ndarray of float, the shape of ``cells``

    Examples
    --------
    >>> grouped_numbers(np.array(["1,000", "12,345.5", "1,00", "x"], dtype=object))
    array([ 1000. , 12345.5,     nan,     nan])
    """
    flat = pd.Series(np.asarray(cells, dtype=object).ravel(), dtype=object)
    grouped = flat.str.fullmatch(_THOUSANDS).fillna(False).to_numpy(dtype=bool)
    values = np.full(len(flat), np.nan)
    if grouped.any():
        values[grouped] = to_float(flat[grouped].str.replace(",", "", regex=False))
    return values.reshape(np.shape(cells))


def _thousands_numbers(column, values, missing, lines, source, name):
    """A column of numbers written with thousands separators, as floats; None for a text column.

    Cells such as ``1,000`` (quoted in a comma-separated file) are numbers,
    not names: when every cell that is not a plain number is one, the column
    is numeric. When only some are, the first other cell is named, rather
    than the column silently becoming text.
    """
    text = ~missing & np.isnan(values)
    grouped = column[text].str.fullmatch(_THOUSANDS).to_numpy(dtype=bool)
    if not grouped.any():
        return None
    cells = np.flatnonzero(text)
    if not grouped.all():
        first, odd = cells[grouped][0], cells[~grouped][0]
        raise data_error(
            f"{show_text(column.iloc[odd])} is not a number, but the column holds numbers with thousands "
            f"separators such as {show_text(column.iloc[first])} (line {lines[first]}); expected numbers "
            "throughout, or names throughout", source, line=lines[odd], column=name)
    numbers = to_float(column.str.replace(",", "", regex=False).where(~missing, None))
    return pd.Series(numbers, dtype=float)


def whole_number(digits: str, cap: int = 10**18) -> int:
    """The value of a string of the digits 0-9 (an optional ``+``, leading zeros), at most ``cap``.

    ``int`` refuses strings of over 4,300 digits (Python's guard against
    slow conversions); any value over ``cap`` is more than every limit the
    loaders check it against, so it is ``cap``, which they then name as
    too large.

    Examples
    --------
    >>> whole_number("+007"), whole_number("9" * 5000) == 10**18
    (7, True)
    """
    significant = digits.lstrip("+").lstrip("0") or "0"
    return cap if len(significant) > len(str(cap)) else min(int(significant), cap)


def parse_number(text: str) -> float | None:
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

def non_ascii_hint(text: str) -> str:
    """A note on the first character of ``text`` that is not ASCII, for a message; "" if there is none.

    Such a character often looks like what a number allows: ``"２"`` (a
    full-width digit) like ``2``, a no-break space like a space. Naming it
    tells the reader why a number that looks right was not read.
    """
    odd = next((char for char in text if not char.isascii()), None)
    if odd is None:
        return ""
    name = unicodedata.name(odd, "a character with no name")
    return f" (it holds U+{ord(odd):04X} {name}; write numbers with the digits 0-9, '.', '-', 'e' and plain spaces)"


def to_float(tokens: Iterable[str | None]) -> np.ndarray:
    """Texts to floats, NaN where a text is not a number (or is None).

    Texts made only of digits, signs, points and exponents (a file's numbers,
    nearly always) are read by Python's ``float``, which rounds to the
    nearest float, in one NumPy conversion. Any other text (names, ``nan``,
    ``1_000``, digits of other scripts that ``float`` would read) goes the
    general way: ``pandas.to_numeric`` decides, vectorised, which texts are
    numbers and reads them. Before pandas 3.1 it can be one unit in the last
    place off, which would break the exact round trip of the writers
    (:func:`rankviz.datasets.svmlight.dump_svmlight`, ``to_csv``), so there
    the numbers are parsed again by NumPy, as ``float`` does.

    Parameters
    ----------
    tokens : iterable of str or None

    Returns
    -------
    ndarray of float
    """
    cells = np.asarray(tokens.to_numpy(dtype=object) if isinstance(tokens, pd.Series) else list(tokens),
                       dtype=object).ravel()
    given = pd.notna(cells)  # None (and NaN, pd.NA): read as NaN
    texts = cells[given]
    try:
        plain = _PLAIN_NUMBERS.fullmatch("\n".join(texts)) is not None
    except TypeError:  # a cell that is not a text: read below
        plain = False
    if plain:
        try:
            numbers = np.full(len(cells), np.nan)
            numbers[given] = texts.astype(np.float64)
            return numbers
        except ValueError:  # such as '1e', '+-1', '' or '.': not numbers, read below
            pass
    series = pd.Series(cells, dtype=object)
    numbers = pd.to_numeric(series, errors="coerce").to_numpy(dtype=float)
    accepted = ~np.isnan(numbers)
    if not PANDAS_PARSES_EXACTLY and accepted.any():
        try:
            numbers[accepted] = np.asarray(series.to_numpy()[accepted], dtype=str).astype(np.float64)
        except ValueError:  # pragma: no cover - a text pandas reads and NumPy does not: keep pandas' value
            pass
    return numbers


# --------------------------------------------------------------------------- #
# feature tables
# --------------------------------------------------------------------------- #


def is_supported_feature(column: pd.Series) -> bool:
    """Whether a feature column is numeric (float, int) or nominal (text, object, category, bool)."""
    return _is_supported_dtype(column.dtype)


def _is_supported_dtype(dtype: Any) -> bool:
    if pd.api.types.is_bool_dtype(dtype):
        return True
    if pd.api.types.is_numeric_dtype(dtype):
        return pd.api.types.is_float_dtype(dtype) or pd.api.types.is_integer_dtype(dtype)
    return (
        pd.api.types.is_string_dtype(dtype)
        or pd.api.types.is_object_dtype(dtype)
        or isinstance(dtype, pd.CategoricalDtype)
    )


def check_feature_dtypes(X: pd.DataFrame, source: str) -> None:
    """Every feature column numeric or nominal (:func:`is_supported_feature`), and no numeric value infinite."""
    for column, dtype in X.dtypes.items():  # the dtypes at once: a wide table has thousands of columns
        if not _is_supported_dtype(dtype):
            raise data_error(f"the feature has dtype {dtype}; expected a numeric (float/int) or "
                             f"nominal (string/object/category/bool) column", source, column=column)
    check_finite_features(X, source)


def check_finite_features(X: pd.DataFrame, source: str,
                          line_numbers: Sequence[int] | np.ndarray | None = None) -> None:
    """A numeric feature value may be missing (NaN) but not infinite."""
    numeric = [column for column, dtype in X.dtypes.items()
               if pd.api.types.is_numeric_dtype(dtype) and not pd.api.types.is_bool_dtype(dtype)]
    if not numeric:
        return
    infinite = np.isinf(X[numeric].to_numpy(dtype=float))  # one conversion of all numeric columns
    if not infinite.any():
        return
    j = int(np.flatnonzero(infinite.any(axis=0))[0])  # the first column holding one, its first row
    i = int(np.flatnonzero(infinite[:, j])[0])
    place = {"row": i + 1} if line_numbers is None else {"line": int(line_numbers[i])}
    raise data_error(
        f"the feature value {format_number(X[numeric[j]].iloc[i])} is not a finite number; expected a finite "
        f"number, or an empty cell for a missing value",
        source, column=numeric[j], **place,
    )


def count_missing_features(X: pd.DataFrame | ArrayLike) -> int:
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

def describe_missing_features(n_missing: int, n_cells: int) -> str:
    """``"12 feature values missing (0.4%)"``, or ``""`` when none is missing.

    What the data pickers show under the chosen data set.
    """
    if not n_missing:
        return ""
    share = 100.0 * n_missing / max(n_cells, 1)
    shown = f"{share:.1f}" if share >= 0.1 else f"{share:.2g}"
    noun = "feature value" if n_missing == 1 else "feature values"
    return f"{n_missing:,} {noun} missing ({shown}%)"
