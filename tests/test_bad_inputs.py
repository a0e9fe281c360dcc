"""Every loader against the corpus of bad and odd files in ``tests/data/bad/`` (issue 7).

Each file either loads, and its case's ``check`` says what must have been
loaded (values, kinds, missing cells), or the loader raises ``DataError``
with a message that starts with the file name and names the line / column,
the value at fault and what was expected (``tests/bad_inputs.py`` lists the
cases, one line each on what is odd and the behaviour chosen).

Before the fixes of issue 7 the corpus had 107 inputs, and 36 of them failed
(``python tests/bad_inputs.py --report`` on the loaders of the commit before,
with ``n_missing_features`` computed from ``X`` so that only loading was
judged):

* 12 refused a ``;`` or tab separator (or decimal commas) the loaders now find;
* 4 refused missing feature values, now NaN and counted;
* 5 named the line of a bad rank row but not the column(s);
* 2 blamed a row for a label column that is empty in every row;
* 1 reported an unclosed quote as a wrong field count;
* 2 (benchmark, 1 example / 1 label) gave a message without the file's name
  or at a misleading line;
* 2 silently loaded infinite values (a feature, a score);
* 3 long lines: 2 crashed with ``_csv.Error`` (a field over 128 KiB), one
  put its 140,000-digit token into the message;
* 5 files over the size limit (there was none): all read whole (about 1 GB
  of memory for 50 MB), then 3 crashed with ``_csv.Error`` and 2 raised a
  message of 200 million characters (the whole file, escaped).

Issue 16 §1 (rank conventions): five rank files that were refused now load,
since any finite positions are read as average positions keeping the order
(``bench/ranks_rank_repeat``, a dense-rank tie ``1, 1, 2``;
``bench/ranks_out_of_range`` and ``bench_rank_zero``, gaps); each check
asserts the converted row and the dataset's ``rank_convention`` text. New:
``bench_dense_partial.txt`` (KEBI-style dense ranks ``1,2,2,2,2``),
``ranks_gaps.csv`` (``4,,,,1,5``), and an infinite position in each format
(still refused).
"""

import io

import pytest

from rankviz.datasets import reading
from rankviz.exceptions import DataError
import bad_inputs
from bad_inputs import BAD_DIR, CASES, FAMILY, LOADERS, MAX_MESSAGE, evaluate

IDS = [case.file for case in CASES]


def test_the_corpus_covers_every_loader_with_at_least_40_files():
    assert len(CASES) >= 40 and len(set(IDS)) == len(IDS)
    per_loader = {name: sum(case.loader == name for case in CASES) for name in LOADERS}
    assert min(per_loader.values()) >= 5, per_loader
    for family in set(FAMILY.values()):
        cases = [case for case in CASES if FAMILY[case.loader] == family]
        assert any(case.loads for case in cases) and any(not case.loads for case in cases)


def test_committed_files_are_what_the_generator_writes():
    committed = sorted(p.name for p in BAD_DIR.iterdir())
    assert committed == sorted(IDS), "run: python tests/bad_inputs.py"
    for case in CASES:
        assert (BAD_DIR / case.file).read_bytes() == case.content, case.file


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_file_loads_correctly_or_names_the_problem(case):
    """From the committed file (a path)."""
    problem = evaluate(case, BAD_DIR / case.file)
    assert problem is None, problem


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_upload_buffer_behaves_like_the_file(case):
    """The same bytes as an upload (a named BytesIO, as the pickers pass them)."""
    buffer = io.BytesIO(case.content)
    buffer.name = case.file
    problem = evaluate(case, buffer)
    assert problem is None, problem


def test_errors_are_one_clear_sentence():
    for case in CASES:
        if case.loads:
            continue
        with pytest.raises(DataError) as info:
            case.read(BAD_DIR / case.file)
        message = str(info.value)
        assert len(message) <= MAX_MESSAGE and "\n" not in message and "Traceback" not in message, case.file
        assert "expected" in message or case.file.endswith("_empty.csv"), (case.file, message)


@pytest.mark.parametrize("name, loader, options", bad_inputs.OVERSIZE, ids=[o[0] for o in bad_inputs.OVERSIZE])
def test_file_over_the_size_limit_is_refused_by_every_loader(tmp_path, name, loader, options):
    path = bad_inputs.write_oversize(tmp_path, name, reading.MAX_UPLOAD_BYTES + 1)
    case = bad_inputs.oversize_cases(reading.MAX_UPLOAD_BYTES)[[o[0] for o in bad_inputs.OVERSIZE].index(name)]
    with pytest.raises(DataError) as info:
        case.read(path)
    assert str(info.value) == (
        f"{name}: the file is 50.000001 MB (52,428,801 bytes); expected at most 50 MB, the upload limit "
        f"(rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES)")


def test_size_limit_is_50_megabytes():
    assert reading.MAX_UPLOAD_MB == 50 and reading.MAX_UPLOAD_BYTES == 50 * 1024 * 1024


def test_a_file_just_under_the_limit_is_read(tmp_path, monkeypatch):
    """The limit is a maximum, not a bound one byte short (checked with a small limit)."""
    content = bad_inputs.CASES[IDS.index("ranks_bom.csv")].content
    monkeypatch.setattr(reading, "MAX_UPLOAD_BYTES", len(content))
    case = CASES[IDS.index("ranks_bom.csv")]
    assert evaluate(case, io.BytesIO(content)) is None
    monkeypatch.setattr(reading, "MAX_UPLOAD_BYTES", len(content) - 1)
    with pytest.raises(DataError, match=r"expected at most"):
        case.read(io.BytesIO(content))
