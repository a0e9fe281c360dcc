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
"""

from __future__ import annotations

import hashlib
import io
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from ...datasets.reading import PANDAS_PARSES_EXACTLY
from .cells import COLUMNS

__all__ = ["ResultStore", "finished_cells", "read_results", "tidy"]

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


def _read_csv(path: Path) -> pd.DataFrame:
    data = path.read_bytes() if path.exists() else b""
    # A run killed while writing leaves a cut-off last line: everything after the last newline.
    data = data[: data.rfind(b"\n") + 1]
    if not data.strip():
        return pd.DataFrame(columns=list(COLUMNS))
    return pd.read_csv(io.BytesIO(data), dtype={"params": str, "cell": str, "rankviz_version": str},
                       keep_default_na=False, na_values={"value": ["NaN", "nan", ""]},
                       **_EXACT_FLOATS)


def _read_parquet(path: Path) -> pd.DataFrame:
    parts = sorted(path.glob("part-*.parquet")) if path.is_dir() else []
    if not parts:
        return pd.DataFrame(columns=list(COLUMNS))
    return pd.concat([pd.read_parquet(part) for part in parts], ignore_index=True)


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
    frame = tidy(_read_parquet(path) if _is_parquet(path) else _read_csv(path))
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
        if _is_parquet(self.path):
            self.path.mkdir(parents=True, exist_ok=True)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._cut_partial_line()

    def _cut_partial_line(self) -> None:
        # Appending after a cut-off line would glue the next row onto it.
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        end = data.rfind(b"\n") + 1
        if end != len(data):
            with open(self.path, "r+b") as handle:
                handle.truncate(end)

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
            frame.to_parquet(temporary, index=False)
            os.replace(temporary, final)
            return
        header = not self.path.exists() or self.path.stat().st_size == 0
        text = frame.to_csv(index=False, header=header, lineterminator="\n", na_rep="NaN")
        with open(self.path, "ab") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())


