"""The results file of a grid: written one finished cell at a time, read back after a crash.

Two formats, chosen by the path:

* ``.csv``: one file; the client process appends each cell's rows in one
  write, then flushes and fsyncs, so a killed run loses at most the cell it
  was writing, whose cut-off last line is dropped on reading (and cut off
  before the next append).
* ``.parquet``: a directory holding one part file per cell, each written
  under a temporary name and renamed into place (a rename is atomic), so a
  part is either whole or absent.

Either way a cell counts as finished only when all its measures are there.

Integrity (issue 35). A CSV file starts with a line naming its schema
(:data:`SCHEMA`), and every row ends with the CRC-32 of the rest of its line;
a Parquet part is written with page checksums, verified on reading. Reading
refuses a foreign file (another header) and reports a corrupt row with the
file, the line and what is wrong (:class:`~rankviz.exceptions.DataError`). A
resumed run moves corrupt rows (or parts) aside, to ``<file>.corrupt``, runs
their cells again and says how many (a warning). Files written before the
schema line (no checksums) are still read, their header checked.
"""

from __future__ import annotations

import hashlib
import io
import os
import warnings
import zlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

import pandas as pd

from ...datasets.reading import PANDAS_PARSES_EXACTLY
from ...exceptions import data_error, show_text
from .cells import COLUMNS

__all__ = ["SCHEMA", "BadLine", "ResultStore", "finished_cells", "read_results", "tidy"]

#: The first line of a results CSV file; the number is the version of its layout.
SCHEMA = "# rankviz grid results, schema 2: every row ends with the CRC-32 of the rest of its line"
_SCHEMA_PREFIX = b"# rankviz grid results, schema "
_CHECKSUM = "crc32"


class BadLine(NamedTuple):
    """A row of a results file that fails its check: where, and what is wrong."""

    line: int
    problem: str

# Values must read back bit for bit, or a resumed table would differ from an uninterrupted one.
_EXACT_FLOATS = {} if PANDAS_PARSES_EXACTLY else {"float_precision": "round_trip"}
_INTEGER_COLUMNS = ("repetition", "fold", "n_train", "n_test", "seed")
_FLOAT_COLUMNS = ("value", "fit_seconds", "predict_seconds", "missing_rate")


def tidy(rows: pd.DataFrame | Iterable[dict]) -> pd.DataFrame:
    """Rows of a grid as its tidy table: the columns :data:`~rankviz.experiments.grid.cells.COLUMNS`, typed.

    Parameters
    ----------
    rows : DataFrame or iterable of dict

    Returns
    -------
    DataFrame
        Integers as int64, numbers as float64, the rest as str; one row per
        (cell, measure) (a cell run twice keeps its last rows), sorted by
        dataset, method, repetition, fold and measure.
    """
    frame = rows if isinstance(rows, pd.DataFrame) else pd.DataFrame(list(rows), columns=list(COLUMNS))
    frame = frame.reindex(columns=list(COLUMNS))
    frame = frame.astype({**{c: "int64" for c in _INTEGER_COLUMNS}, **{c: "float64" for c in _FLOAT_COLUMNS},
                          **{c: str for c in COLUMNS if c not in _INTEGER_COLUMNS + _FLOAT_COLUMNS}})
    frame = frame.drop_duplicates(["cell", "measure"], keep="last")
    return frame.sort_values(["dataset", "method", "repetition", "fold", "measure"],
                             kind="stable").reset_index(drop=True)


def _is_parquet(path: Path) -> bool:
    return path.suffix.lower() == ".parquet"


def _checksum(body: bytes) -> bytes:
    return b"%08x" % zlib.crc32(body)


def _read_csv(path: Path) -> tuple[pd.DataFrame, list[BadLine]]:
    """The rows of a results CSV that pass their checks, and those that do not."""
    data = path.read_bytes() if path.exists() else b""
    # A run killed while writing leaves a cut-off last line: everything after the last newline.
    data = data[: data.rfind(b"\n") + 1]
    if not data.strip():
        return pd.DataFrame(columns=list(COLUMNS)), []
    lines = data.split(b"\n")[:-1]
    checked = lines[0].startswith(_SCHEMA_PREFIX)
    if checked:
        version = lines[0][len(_SCHEMA_PREFIX):].split(b":")[0]
        if version != b"2":
            raise data_error(f"the results file's schema is {show_text(version.decode('utf-8', 'replace'))}; "
                             "expected schema 2 (written by another version of rankviz)", str(path), line=1)
    first = 1 if checked else 0  # index of the header line
    expected = [*COLUMNS, _CHECKSUM] if checked else list(COLUMNS)
    header = lines[first].decode("utf-8", "replace").strip().split(",") if len(lines) > first else []
    if header != expected:
        wrong = next((name for name, want in zip(header, expected) if name != want), None)
        what = (f"the column {show_text(wrong)} is not the results' {show_text(expected[header.index(wrong)])}"
                if wrong is not None else f"the header has {len(header)} columns")
        raise data_error(f"{what}; expected the header a grid run writes: {','.join(expected)}", str(path),
                         line=first + 1)
    bad: list[BadLine] = []
    good = [lines[first]]
    for number, line in enumerate(lines[first + 1:], start=first + 2):  # a loop over lines: CRC per line
        if checked:
            body, _, stored = line.rpartition(b",")
            if _checksum(body) != stored.strip():
                bad.append(BadLine(number, "the row does not match its checksum (changed since it was written)"))
                continue
            line = body
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as error:
            bad.append(BadLine(number, f"byte {error.start + 1} is not UTF-8 text"))
            continue
        good.append(line)
    if checked:
        good[0] = b",".join(good[0].split(b",")[:-1])  # the header without its checksum column
    try:
        frame = pd.read_csv(io.BytesIO(b"\n".join(good) + b"\n"),
                            dtype={"params": str, "cell": str, "rankviz_version": str},
                            keep_default_na=False, na_values={"value": ["NaN", "nan", ""]}, **_EXACT_FLOATS)
        frame = tidy(frame)
    except (ValueError, pd.errors.ParserError) as error:  # a row of an unchecked file that is not a results row
        raise data_error(f"the rows cannot be read as results ({error}); expected the rows a grid run writes",
                         str(path)) from None
    return frame, bad


def _read_parquet(path: Path) -> tuple[pd.DataFrame, list[Path]]:
    """The parts of a results directory that read back whole, and those that do not."""
    parts = sorted(path.glob("part-*.parquet")) if path.is_dir() else []
    frames, bad = [], []
    for part in parts:
        try:
            frame = pd.read_parquet(part, page_checksum_verification=True)
        except Exception:  # noqa: BLE001 - pyarrow raises several kinds for a damaged file
            bad.append(part)
            continue
        if list(frame.columns) != list(COLUMNS):
            raise data_error(f"the part {part.name} has the columns {', '.join(map(str, frame.columns))}; "
                             f"expected those a grid run writes: {', '.join(COLUMNS)}", str(path))
        frames.append(frame)
    if not frames:
        return pd.DataFrame(columns=list(COLUMNS)), bad
    return pd.concat(frames, ignore_index=True), bad


def _read_checked(path: Path) -> pd.DataFrame:
    """The results, or a DataError naming the first corrupt row or part and how many there are."""
    if _is_parquet(path):
        frame, parts = _read_parquet(path)
        if parts:
            raise data_error(f"{len(parts)} part file(s) cannot be read back whole, first {parts[0].name}; "
                             "expected parts a grid run wrote (a resumed run moves them aside and runs their "
                             "cells again)", str(path))
        return tidy(frame)
    frame, bad = _read_csv(path)
    if bad:
        more = f" ({len(bad)} corrupt rows in all)" if len(bad) > 1 else ""
        raise data_error(f"{bad[0].problem}{more}; expected rows as a grid run wrote them (a resumed run moves "
                         "them aside and runs their cells again)", str(path), line=bad[0].line)
    return frame


def read_results(path: str | os.PathLike, measures: Sequence[str] | None = None) -> pd.DataFrame:
    """Read the finished cells of a results file as a tidy table.

    The file is the one :func:`run_grid` writes as cells finish, read back
    after a run, or after a crash to see what is done.

    Parameters
    ----------
    path : str or os.PathLike
        A ``.csv`` file or a ``.parquet`` directory; missing = no cells.
    measures : sequence of str, optional
        Keep only the rows of these measures, and only the cells that
        hold a row for each of them (the cells a run asking for them counts
        as finished); by default every row is kept.

    Returns
    -------
    DataFrame
        One row per cell and measure, the columns of
        :data:`~rankviz.experiments.grid.cells.COLUMNS` (see :func:`tidy`);
        empty when the file does not exist.

    Raises
    ------
    DataError
        If the file is not a results file (another header or schema), or a
        row fails its checksum (CSV) or a part cannot be read back whole
        (Parquet); the message names the file, the line and what is wrong.

    See Also
    --------
    run_grid : The run that writes the file.

    Examples
    --------
    >>> import os
    >>> import tempfile
    >>> from rankviz import DefaultRanker, load_sample
    >>> from rankviz.experiments import Protocol, read_results, run_grid
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "results.csv")
    ...     _ = run_grid({"default": DefaultRanker()}, {"toy": load_sample("toy")}, Protocol(n_splits=4),
    ...                  measures=["CS"], results=path, backend="serial")
    ...     table = read_results(path)
    >>> table[["dataset", "method", "fold", "measure", "value"]].round(3)
      dataset   method  fold measure  value
    0     toy  default     0      CS   0.55
    1     toy  default     1      CS   0.40
    2     toy  default     2      CS   0.25
    3     toy  default     3      CS   0.00
    """
    path = Path(path)
    frame = _read_checked(path)
    if measures is not None:
        wanted = frame[frame["measure"].isin(set(measures))]
        counts = wanted.groupby("cell")["measure"].nunique()
        complete = set(counts.index[counts.to_numpy() == len(set(measures))])
        frame = wanted[wanted["cell"].isin(complete)].reset_index(drop=True)
    return frame


def finished_cells(path: str | os.PathLike, measures: Sequence[str] | None = None) -> set[str]:
    """Ids of the cells a results file holds in full.

    Parameters
    ----------
    path : str or os.PathLike
    measures : sequence of str, optional
        As for :func:`read_results`.

    Returns
    -------
    set of str
    """
    return set(read_results(path, measures)["cell"])


class ResultStore:
    """Appends finished cells to a results file; used by the one process that collects results.

    Parameters
    ----------
    path : str or os.PathLike
        ``.parquet`` for a directory of part files, anything else for CSV.
    """

    def __init__(self, path: str | os.PathLike) -> None:
        self.path = Path(path)
        #: Corrupt rows (CSV) or parts (Parquet) moved aside when the store opened.
        self.moved_aside = 0
        if _is_parquet(self.path):
            self.path.mkdir(parents=True, exist_ok=True)
            self._move_aside_parts()
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._cut_partial_line()
            self._sign_unchecked()
            self._move_aside_rows()

    @property
    def corrupt_path(self) -> Path:
        """Where corrupt rows or parts go: ``<file>.corrupt`` (a file for CSV, a directory for Parquet)."""
        return self.path.with_name(self.path.name + ".corrupt")

    def _cut_partial_line(self) -> None:
        # Appending after a cut-off line would glue the next row onto it.
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            with open(self.path, "r+b") as handle:
                handle.truncate(end)

    def _sign_unchecked(self) -> None:
        """A file written before checksums: checked (header, rows) and rewritten with them, to append to."""
        if not self.path.exists() or not self.path.stat().st_size:
            return
        data = self.path.read_bytes()
        if data.startswith(_SCHEMA_PREFIX):
            return
        _read_csv(self.path)  # a foreign file or unreadable rows: refused, the file left as it is
        header, *rows = data.split(b"\n")[:-1]
        signed = [SCHEMA.encode("utf-8"), header + b"," + _CHECKSUM.encode(),
                  *(row + b"," + _checksum(row) for row in rows)]
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(b"\n".join(signed) + b"\n")
        os.replace(temporary, self.path)

    def _move_aside_rows(self) -> None:
        """Rewrite the file without its corrupt rows, appended to :attr:`corrupt_path` (nothing is lost)."""
        if not self.path.exists() or not self.path.stat().st_size:
            return
        _, bad = _read_csv(self.path)  # raises for a foreign file: a run never writes into one
        if not bad:
            return
        lines = self.path.read_bytes().split(b"\n")
        numbers = {b.line for b in bad}
        with open(self.corrupt_path, "ab") as aside:
            aside.write(b"".join(lines[n - 1] + b"\n" for n in sorted(numbers)))
        kept = b"".join(line + b"\n" for n, line in enumerate(lines[:-1], start=1) if n not in numbers)
        temporary = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        temporary.write_bytes(kept)
        os.replace(temporary, self.path)
        self.moved_aside = len(bad)
        warnings.warn(f"{self.path}: {len(bad)} corrupt row(s) (first: line {bad[0].line}, {bad[0].problem}) moved "
                      f"to {self.corrupt_path.name}; their cells are run again", RuntimeWarning, stacklevel=3)

    def _move_aside_parts(self) -> None:
        _, bad = _read_parquet(self.path)
        if not bad:
            return
        self.corrupt_path.mkdir(exist_ok=True)
        for part in bad:
            os.replace(part, self.corrupt_path / part.name)
        self.moved_aside = len(bad)
        warnings.warn(f"{self.path}: {len(bad)} part file(s) that cannot be read back whole (first {bad[0].name}) "
                      f"moved to {self.corrupt_path.name}; their cells are run again", RuntimeWarning, stacklevel=3)

    def append(self, rows: Sequence[dict]) -> None:
        """Write one cell's rows durably.

        Parameters
        ----------
        rows : sequence of dict
            The rows of :func:`rankviz.experiments.grid.cells.run_cell`.
        """
        frame = pd.DataFrame(list(rows), columns=list(COLUMNS))
        if _is_parquet(self.path):
            name = hashlib.sha1(str(frame["cell"].iloc[0]).encode("utf-8")).hexdigest()[:20]
            final = self.path / f"part-{name}.parquet"
            temporary = self.path / f".{final.name}.{os.getpid()}.tmp"
            frame.to_parquet(temporary, index=False, write_page_checksum=True)
            os.replace(temporary, final)
            return
        new_file = not self.path.exists() or self.path.stat().st_size == 0
        text = frame.to_csv(index=False, header=new_file, lineterminator="\n", na_rep="NaN").encode("utf-8")
        lines = text.split(b"\n")[:-1]
        if new_file:
            lines[0] += b"," + _CHECKSUM.encode()
        signed = [*([SCHEMA.encode("utf-8"), lines[0]] if new_file else []),
                  *(line + b"," + _checksum(line) for line in lines[1 if new_file else 0:])]
        with open(self.path, "ab") as handle:
            handle.write(b"\n".join(signed) + b"\n")
            handle.flush()
            os.fsync(handle.fileno())
