"""Results files that prove their integrity (issue 35 §2): checksums per row, a schema line, located errors.

Every corruption the issue met is made to a real results file: a flipped
digit in a value, a renamed header column, a deleted comma, NUL bytes, a 0xff
byte, a garbage line, bit flips and a flipped cell id. Reading names the file
and the line; a resumed run moves the bad rows aside, runs exactly their
cells again, says how many, and ends on the table of an uninterrupted run.
"""

import random
import warnings

import numpy as np
import pandas as pd
import pytest

from rankviz import DefaultRanker, KNNRanker, load_sample
from rankviz.exceptions import DataError
from rankviz.experiments import Protocol, read_results, run_grid
from rankviz.experiments.grid.store import SCHEMA

MEASURES = ["CS", "WRC"]


def grid(results=None):
    methods = {"default": DefaultRanker(), "knn": KNNRanker()}
    return run_grid(methods, {"toy": load_sample("toy")}, Protocol(n_splits=4), measures=MEASURES,
                    results=results, backend="serial")


def same_table(table, reference):
    """Equal but for the timings, which no two runs share."""
    timings = ["fit_seconds", "predict_seconds"]
    pd.testing.assert_frame_equal(table.drop(columns=timings), reference.drop(columns=timings))


@pytest.fixture(scope="module")
def serial():
    return grid()


@pytest.fixture
def written(tmp_path):
    path = tmp_path / "results.csv"
    grid(path)
    return path


def rows_of(path):
    return path.read_bytes().split(b"\n")


def corrupt(path, line, change):
    lines = rows_of(path)
    lines[line - 1] = change(lines[line - 1])
    path.write_bytes(b"\n".join(lines))


def flip_digit(row):
    fields = row.split(b",")
    value = fields[5]  # the column "value"
    digit = next(k for k, c in enumerate(value) if chr(c).isdigit() and k > 1)
    fields[5] = value[:digit] + str((int(chr(value[digit])) + 1) % 10).encode() + value[digit + 1:]
    return b",".join(fields)


CORRUPTIONS = {
    "a flipped digit in a value": flip_digit,
    "a deleted comma": lambda row: row.replace(b",", b"", 1),
    "NUL bytes": lambda row: row[:10] + b"\x00\x00" + row[10:],
    "a 0xff byte": lambda row: row[:5] + b"\xff" + row[6:],
    "bit flips": lambda row: bytes(c ^ (1 if k % 17 == 3 else 0) for k, c in enumerate(row)),
    "a flipped cell id": lambda row: row.replace(b"toy|", b"tox|", 1) if b"toy|" in row else row[::-1],
    "a garbage line": lambda row: b"\x13garbage;;;" + row[:7],
}


def test_the_file_starts_with_its_schema_and_every_row_carries_its_checksum(written):
    lines = rows_of(written)
    assert lines[0].decode() == SCHEMA and lines[1].endswith(b",crc32")
    import zlib
    for row in lines[2:-1]:
        body, _, stored = row.rpartition(b",")
        assert stored == b"%08x" % zlib.crc32(body)


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
def test_a_corrupt_row_is_named_and_its_cell_alone_is_run_again(written, serial, kind):
    corrupt(written, 5, CORRUPTIONS[kind])
    with pytest.raises(DataError) as error:
        read_results(written)
    message = str(error.value)
    assert message.startswith(f"{written}, line 5: ") and "expected rows as a grid run wrote them" in message
    with pytest.warns(RuntimeWarning, match=r"1 corrupt row\(s\) \(first: line 5"):
        table = grid(written)
    same_table(table, serial)
    assert read_results(written)["cell"].nunique() == serial["cell"].nunique()  # no phantom cell
    aside = written.with_name(written.name + ".corrupt").read_bytes()
    assert aside.count(b"\n") == 1  # the bad row is kept aside, not lost


def test_a_renamed_header_column_is_a_foreign_file_not_an_all_nan_table(written):
    corrupt(written, 2, lambda header: header.replace(b"value", b"valeur"))
    with pytest.raises(DataError, match=r"line 2: the column 'valeur' is not the results' 'value'"):
        read_results(written)
    before = written.read_bytes()
    with pytest.raises(DataError, match="valeur"):
        grid(written)
    assert written.read_bytes() == before  # nothing written into a foreign file


def test_a_file_of_another_schema_is_refused(written):
    corrupt(written, 1, lambda line: line.replace(b"schema 2", b"schema 9"))
    with pytest.raises(DataError, match=r"line 1: the results file's schema is '9'"):
        read_results(written)


def test_a_file_written_before_checksums_is_read_and_resumed(written, serial):
    lines = rows_of(written)
    legacy = [lines[1].rpartition(b",")[0]] + [row.rpartition(b",")[0] for row in lines[2:-1]]
    keep = len(legacy) // 2
    written.write_bytes(b"\n".join(legacy[:keep]) + b"\n")  # the first cells, as an old version wrote them
    assert len(read_results(written)) == keep - 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        table = grid(written)
    same_table(table, serial)
    assert rows_of(written)[0].decode() == SCHEMA  # signed on resuming


def test_a_damaged_parquet_part_is_moved_aside_and_its_cell_run_again(tmp_path, serial):
    path = tmp_path / "results.parquet"
    grid(path)
    part = sorted(path.glob("part-*.parquet"))[2]
    data = bytearray(part.read_bytes())
    rng = random.Random(0)
    for k in rng.sample(range(8, len(data) - 8), 40):
        data[k] ^= 0xFF
    part.write_bytes(bytes(data))
    with pytest.raises(DataError, match="part file"):
        read_results(path)
    with pytest.warns(RuntimeWarning, match=r"1 part file\(s\)"):
        table = grid(path)
    same_table(table, serial)
    assert (tmp_path / "results.parquet.corrupt" / part.name).exists()
    np.testing.assert_array_equal(read_results(path)["value"], serial["value"])
