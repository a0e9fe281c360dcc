"""A corpus of bad and odd input files for every loader (issue 7).

Each :class:`Case` is one file in ``tests/data/bad/``, the loader that reads
it, the options it is read with, and what must happen: either it loads (and
``check`` asserts *what* was loaded) or the loader raises
:class:`rankviz.datasets.label_ranking.DataError` whose message starts with the file name and
contains every fragment of ``error`` (the line, the column, the value at
fault and what was expected).

The files are committed; this module is their source. ``python
tests/bad_inputs.py`` rewrites them, ``python tests/bad_inputs.py --report``
runs every case against the loaders and prints which ones fail (how the
"failures before the fixes" of issue 7 were counted), and
``tests/test_bad_inputs.py`` checks that the committed files are what this
module writes.

Files over the size limit are not committed: :func:`write_oversize` makes
them in a temporary folder (sparse, so they take no disk space).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np
import pandas as pd

BAD_DIR = Path(__file__).resolve().parent / "data" / "bad"

#: The loaders, as named in a case: (module, function).
LOADERS = {
    "benchmark": ("rankviz.datasets.label_ranking", "load_benchmark"),
    "ranks": ("rankviz.datasets.label_ranking", "load_csv"),
    "scores": ("rankviz.datasets.label_ranking", "load_csv"),
    "ordering": ("rankviz.datasets.label_ranking", "load_csv"),
    "ordinal": ("rankviz.datasets.ordinal", "load_ordinal_csv"),
    "svmlight": ("rankviz.datasets.svmlight", "load_svmlight"),
    "query_csv": ("rankviz.datasets.queries", "load_query_csv"),
    "group": ("rankviz.datasets.svmlight", "read_query_file"),
}

#: Longest acceptable error message (characters): one sentence, long values shortened.
MAX_MESSAGE = 1500

#: Which loader family a loader belongs to (the page that accepts its files).
FAMILY = {"benchmark": "label ranking", "ranks": "label ranking", "scores": "label ranking",
          "ordering": "label ranking", "ordinal": "ordinal", "svmlight": "learning to rank",
          "query_csv": "learning to rank", "group": "group file"}


@dataclass(frozen=True)
class Case:
    """One corpus file and what reading it must do."""

    file: str
    loader: str
    content: bytes
    why: str
    options: dict = field(default_factory=dict)
    error: tuple = None          # fragments of the DataError message; None: the file loads
    check: Callable = None       # for a file that loads: asserts what was loaded

    @property
    def loads(self):
        return self.error is None

    def read(self, path_or_buffer):
        """Call the case's loader on a path or buffer."""
        import importlib

        module, function = LOADERS[self.loader]
        load = getattr(importlib.import_module(module), function)
        options = dict(self.options)
        if self.loader in ("ranks", "scores", "ordering"):
            options["target"] = self.loader
        return load(path_or_buffer, **options)


# --------------------------------------------------------------------------- #
# building blocks
# --------------------------------------------------------------------------- #
def lines(*rows, end="\n"):
    return (end.join(rows) + end).encode("utf-8")


#: Eight examples, two features, three labels a, b, c (rank positions).
RANK_ROWS = [
    ("0.1", "u", "1", "2", "3"),
    ("0.2", "v", "2", "1", "3"),
    ("0.3", "u", "1", "3", "2"),
    ("0.4", "v", "3", "1", "2"),
    ("0.6", "u", "2", "3", "1"),
    ("0.7", "v", "3", "2", "1"),
    ("0.8", "u", "1", "2", "3"),
    ("0.9", "v", "2", "1", "3"),
]
RANK_Y = np.array([[float(v) for v in row[2:]] for row in RANK_ROWS])
F1 = np.array([float(row[0]) for row in RANK_ROWS])
CSV_OPTIONS = dict(feature_columns=["f1", "f2"], target_columns=["a", "b", "c"])


def rank_csv(rows=RANK_ROWS, header=("f1", "f2", "a", "b", "c"), sep=","):
    return [sep.join(header)] + [sep.join(r) for r in rows]


def bench(rows=RANK_ROWS, sep=","):
    """The benchmark form of RANK_ROWS: f2 as 1 (u) / 0 (v)."""
    body = [sep.join((r[0], "1" if r[1] == "u" else "0") + r[2:]) for r in rows]
    return [sep.join((str(len(rows)), "2", "3"))] + body


def with_row(rows, k, row):
    rows = list(rows)
    rows[k] = row
    return rows


def permutation_rows(n_rows, n_labels, seed):
    rng = np.random.default_rng(seed)
    return np.array([rng.permutation(n_labels) + 1 for _ in range(n_rows)], dtype=float)


# --------------------------------------------------------------------------- #
# checks of files that load
# --------------------------------------------------------------------------- #
def _same(a, b):
    np.testing.assert_array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float))


def check_base(ds, f2=("u", "v")):
    """The eight examples of RANK_ROWS, complete, features f1 (float) and f2."""
    assert ds.n_samples == 8
    _same(ds.Y, RANK_Y)
    _same(ds.X.iloc[:, 0], F1)
    assert ds.X.iloc[:, 0].dtype == float
    assert ds.n_missing_features == 0


def check_spreadsheet_errors(ds):
    f1 = ds.X["f1"]
    assert f1.dtype == float and np.isnan(f1.iloc[1]) and f1.drop(index=1).notna().all()
    assert pd.isna(ds.X["f2"].iloc[4]) and ds.n_missing_features == 2


def check_cafe(dataset):
    """The row with a non-ASCII value was decoded, not garbled."""
    assert "café" in set(map(str, np.ravel(dataset.X.to_numpy(dtype=object)))), dataset.X


def check_bench_base(ds):
    check_base(ds)
    assert ds.feature_names == ["x1", "x2"]
    _same(ds.X["x2"], [1, 0] * 4)


def check_csv_base(ds):
    check_base(ds)
    assert ds.feature_names == ["f1", "f2"] and ds.label_names == ("a", "b", "c")
    assert ds.X["f2"].tolist() == ["u", "v"] * 4


BIG_Y = permutation_rows(6, 200, seed=7)
BIG_ORDER_Y = permutation_rows(6, 200, seed=8)
BIG_LABELS = [f"L{j:03d}" for j in range(1, 201)]


def check_bench_200(ds):
    assert ds.n_labels == 200 and ds.label_names[0] == "label_1" and ds.label_names[-1] == "label_200"
    _same(ds.Y, BIG_Y)


def check_csv_200(ds):
    assert ds.label_names == tuple(BIG_LABELS)
    _same(ds.Y, BIG_Y)


def check_ordering_200(ds):
    assert ds.n_labels == 200 and set(ds.label_names) == set(BIG_LABELS)
    # the labels are in order of first appearance: reorder to L001..L200
    columns = [ds.label_names.index(name) for name in BIG_LABELS]
    _same(ds.Y[:, columns], BIG_ORDER_Y)


def check_bench_missing(ds):
    assert ds.n_missing_features == 2
    assert np.isnan(ds.X["x1"].iloc[2]) and np.isnan(ds.X["x2"].iloc[5])
    _same(ds.X["x1"].drop(index=2), np.delete(F1, 2))
    _same(ds.Y, RANK_Y)  # no row dropped


def check_csv_missing(ds):
    assert ds.n_missing_features == 4 and ds.n_samples == 8
    f1, f2 = ds.X["f1"], ds.X["f2"]
    assert f1.dtype == float and np.isnan(f1.iloc[[2, 6]]).all()
    _same(f1.drop(index=[2, 6]), np.delete(F1, [2, 6]))
    assert f2.isna().tolist() == [False, False, False, False, True, True, False, False]
    assert f2.dropna().tolist() == ["u", "v", "u", "v", "u", "v"]
    _same(ds.Y, RANK_Y)


def check_mixed_nominal(ds):
    check_missing_free_nominal(ds, "f1", ["0.1", "0.2", "0.3", "abc", "0.6", "0.7", "0.8", "0.9"])
    _same(ds.Y, RANK_Y)


def check_missing_free_nominal(ds, column, values):
    assert not pd.api.types.is_numeric_dtype(ds.X[column]) and ds.X[column].tolist() == values
    assert column in ds.nominal_features and ds.n_missing_features == 0


def check_ties(ds):
    expected = RANK_Y.copy()
    expected[1] = [1.5, 1.5, 3]
    expected[4] = [2, 2, 2]
    _same(ds.Y, expected)


def check_converted(row, positions, kind, example):
    """A check: the rows of RANK_ROWS, the ``row``-th (0-based) read as ``positions``.

    ``kind`` is the convention found and ``example`` a fragment of its text
    (the example line as given and as converted).
    """
    def check(ds):
        expected = RANK_Y.copy()
        expected[row] = positions
        _same(ds.Y, expected)
        convention = ds.rank_convention
        assert convention.kind == kind and convention.n_converted == 1, convention
        assert example in convention.text and "1 of 8 rows converted" in convention.text, convention.text
    return check


def check_not_converted(ds):
    """Average positions as given: the dataset says nothing was converted."""
    assert ds.rank_convention.kind == "average positions" and not ds.rank_convention.converted


def check_ties_as_given(ds):
    check_ties(ds)
    check_not_converted(ds)


#: Partial rankings of five labels as the KEBI benchmark files write them: dense ranks.
DENSE_ROWS = [("0.1", "1", "1,2,2,2,2"), ("0.2", "0", "2,1,2,2,2"), ("0.3", "1", "1,2,3,3,3"),
              ("0.4", "0", "3,3,1,2,3"), ("0.5", "1", "1,2,3,4,5"), ("0.6", "0", "2,2,2,1,2")]
DENSE_Y = np.array([[1, 3.5, 3.5, 3.5, 3.5], [3.5, 1, 3.5, 3.5, 3.5], [1, 2, 4, 4, 4],
                    [4, 4, 1, 2, 4], [1, 2, 3, 4, 5], [3.5, 3.5, 3.5, 1, 3.5]])


def check_dense_partial(ds):
    _same(ds.Y, DENSE_Y)
    convention = ds.rank_convention
    assert convention.kind == "dense ranks" and convention.n_converted == 5, convention
    assert convention.text.startswith("Rank positions read as dense or competition ranks (tied labels share one "
                                      "position; line 2: 1, 2, 2, 2, 2 read as 1, 3.5, 3.5, 3.5, 3.5); "
                                      "5 of 6 rows converted"), convention.text


#: Rankings of six labels with labels deleted, positions left as they were (gaps).
GAP_ROWS = [("0.1", "4,,,,1,5"), ("0.2", "1,2,3,4,5,6"), ("0.3", ",6,,2,,4"), ("0.4", "6,5,4,3,2,1")]
GAP_Y = np.array([[2, np.nan, np.nan, np.nan, 1, 3], [1, 2, 3, 4, 5, 6], [np.nan, 3, np.nan, 1, np.nan, 2],
                  [6, 5, 4, 3, 2, 1]])
GAP_LABELS = ["a", "b", "c", "d", "e", "f"]


def check_gaps(ds):
    _same(ds.Y, GAP_Y)
    convention = ds.rank_convention
    assert convention.kind == "other positions" and convention.n_converted == 2, convention
    assert ("positions with gaps or on another scale (line 2: 4, missing, missing, missing, 1, 5 read as 2, "
            "missing, missing, missing, 1, 3); 2 of 4 rows converted") in convention.text, convention.text


def check_quoted(ds):
    assert ds.X["f2"].tolist() == ["u, north", "v"] * 4
    assert ds.feature_names == ["f1", "f2"] and ds.label_names == ("a", "b", "c")
    _same(ds.Y, RANK_Y)
    _same(ds.X["f1"], F1)


SCORES = [("0.9", "0.5", "0.1"), ("0,5", "0,9", "0,1"), ("0.9", "0.1", "0.5"), ("0.1", "0.9", "0.5"),
          ("0.5", "0.1", "0.9"), ("0.1", "0.5", "0.9"), ("0.9", "0.5", "0.1"), ("0.5", "0.9", "0.1")]


def check_scores(ds):
    _same(ds.Y, RANK_Y)  # the scores order the labels as RANK_ROWS do
    _same(ds.X["f1"], F1)


def check_score_ties(ds):
    expected = RANK_Y.copy()
    expected[0] = [1.5, 1.5, 3]
    expected[3] = [2, 2, 2]
    _same(ds.Y, expected)


ORDERINGS = ["a>b>c", "b>a>c", "a>c>b", "b>c>a", "c>a>b", "c>b>a", "a>b>c", "b>a>c"]


def check_ordering_ties(ds):
    assert ds.label_names == ("a", "b", "c")
    expected = RANK_Y.copy()
    expected[0] = [1.5, 1.5, 3]
    expected[1] = [2, 2, 2]
    expected[2] = [1, 2.5, 2.5]
    _same(ds.Y, expected)


def check_ordering_spaces(ds):
    assert ds.label_names == ("a", "b", "c")
    _same(ds.Y, RANK_Y)


def check_ordering_fullwidth(ds):
    assert ds.label_names == ("a", "b", "c")
    _same(ds.Y[1], [2.5, 1, 2.5])  # b＞a＝c
    _same(np.delete(ds.Y, 1, axis=0), np.delete(RANK_Y, 1, axis=0))


# ordinal: hours (float), school (nominal), grade 1..3
ORD_ROWS = [("1.5", "a", "1"), ("2.0", "b", "1"), ("3.5", "a", "2"), ("4.0", "b", "2"),
            ("5.5", "a", "2"), ("6.0", "b", "3"), ("7.5", "a", "3"), ("8.0", "b", "3")]
HOURS = [1.5, 2.0, 3.5, 4.0, 5.5, 6.0, 7.5, 8.0]
GRADES = [1, 1, 2, 2, 2, 3, 3, 3]


def ord_csv(rows=ORD_ROWS, header=("hours", "school", "grade"), sep=","):
    return [sep.join(header)] + [sep.join(r) for r in rows]


def check_ordinal_base(ds):
    assert ds.levels == [1, 2, 3] and ds.y.tolist() == GRADES and ds.target == "grade"
    assert ds.feature_names == ["hours", "school"]
    _same(ds.X["hours"], HOURS)
    assert ds.X["school"].tolist() == ["a", "b"] * 4 and ds.n_missing_features == 0


def check_ordinal_missing(ds):
    assert ds.n_missing_features == 3 and ds.n_samples == 8
    hours = ds.X["hours"]
    assert hours.dtype == float and np.isnan(hours.iloc[[1, 6]]).all()
    _same(hours.drop(index=[1, 6]), np.delete(HOURS, [1, 6]))
    assert ds.X["school"].isna().tolist() == [False, False, False, True, False, False, False, False]
    assert ds.y.tolist() == GRADES


def check_ordinal_mixed(ds):
    assert not pd.api.types.is_numeric_dtype(ds.X["hours"]) and ds.X["hours"].iloc[3] == "lots"
    assert "hours" not in ds.X.select_dtypes("number").columns and ds.y.tolist() == GRADES


def check_ordinal_200(ds):
    assert ds.n_levels == 200 and ds.levels[0] == 1 and ds.levels[-1] == 200
    assert ds.y.tolist() == list(range(200, 0, -1))


def check_ordinal_quoted(ds):
    assert ds.X["school"].tolist() == ["a, north", "b"] * 4
    assert ds.y.tolist() == GRADES


# learning to rank: 6 queries x 3 documents, grades 0..2, features f1..f3
LTR_ROWS = [(q, rel, f"{0.1 * q + 0.3 * rel:.1f}", f"{q}", f"{rel * 2 - 1}")
            for q in range(1, 7) for rel in (2, 0, 1)]
LTR_REL = [float(r[1]) for r in LTR_ROWS]
LTR_QID = [r[0] for r in LTR_ROWS]
LTR_X = np.array([[float(v) for v in r[2:]] for r in LTR_ROWS])


def svm_lines(rows=LTR_ROWS):
    return [f"{rel} qid:{q} 1:{a} 2:{b} 3:{c}" for q, rel, a, b, c in rows]


def qcsv(rows=LTR_ROWS, header=("qid", "rel", "f1", "f2", "f3"), sep=","):
    return [sep.join(header)] + [sep.join(str(v) for v in r) for r in rows]


def check_ltr_base(ds):
    assert ds.n_docs == 18 and ds.n_queries == 6 and ds.n_features == 3
    _same(ds.relevance, LTR_REL)
    assert ds.qid.tolist() == LTR_QID
    _same(ds.X, LTR_X)
    assert ds.n_missing_features == 0


def check_ltr_one_doc_query(ds):
    assert ds.n_docs == 19 and ds.n_queries == 7 and ds.n_single_document_queries == 1
    assert ds.query_ids[-1] == 7 and ds.query_sizes[-1] == 1
    _same(ds.X[:18], LTR_X)
    _same(ds.X[18, :2], [0.5, 1])  # the last feature differs between the two files
    _same(ds.relevance[:18], LTR_REL)


def check_ltr_string_qids(ds):
    assert ds.qid.tolist() == [f"q-{q}" for q in LTR_QID] and ds.n_queries == 6
    _same(ds.X, LTR_X)


def check_ltr_sparse(ds):
    expected = LTR_X.copy()
    expected[0, 1] = expected[4, 0] = 0.0  # left out: 0, as in svmlight
    _same(ds.X, expected)
    assert ds.n_missing_features == 0


def check_ltr_missing(ds):
    assert ds.n_missing_features == 3 and ds.n_docs == 18
    missing = np.isnan(ds.X)
    assert sorted(map(tuple, np.argwhere(missing).tolist())) == [(1, 0), (4, 2), (9, 1)]
    _same(ds.X[~missing], LTR_X[~missing])
    _same(ds.relevance, LTR_REL)


# --------------------------------------------------------------------------- #
# the corpus
# --------------------------------------------------------------------------- #
def _cases():
    B = "benchmark"
    bench_big = ["6,1,200"] + [f"0.{i}," + ",".join(str(int(v)) for v in row) for i, row in enumerate(BIG_Y)]
    yield Case("bench_empty.txt", B, b"", "empty file", error=("the file is empty",))
    yield Case("bench_header_only.txt", B, lines("8,2,3"), "header, no data lines",
               error=("the header says 8 data lines but the file has 0",))
    yield Case("bench_one_row.txt", B, lines(*bench(RANK_ROWS[:1])), "one example",
               error=("line 1", "n_samples = 1", "expected at least 2 examples"))
    yield Case("bench_one_label.txt", B, lines("3,2,1", "0.1,1,1", "0.2,0,1", "0.3,1,1"), "one label",
               error=("line 1", "n_labels = 1", "expected at least 2 labels"))
    yield Case("bench_huge_header.txt", B, lines("8,2,100000000", "1,2,1,2", "2,1,2,1"),
               "a 30-byte file whose header declares 10^8 labels: refused before anything that size is built",
               error=("line 2", "found 4 fields", "expected 100000002 numbers", "as the header '8,2,100000000' says"))
    yield Case("bench_200_labels.txt", B, lines(*bench_big), "200 labels: loads", check=check_bench_200)
    yield Case("bench_bom.txt", B, b"\xef\xbb\xbf" + lines(*bench()), "UTF-8 BOM: ignored",
               check=check_bench_base)
    yield Case("bench_semicolon.txt", B, lines(*bench(sep=";")), "';' separator: found from line 1",
               check=check_bench_base)
    yield Case("bench_tab.txt", B, lines(*bench(sep="\t")), "tab separator: found from line 1",
               check=check_bench_base)
    yield Case("bench_decimal_comma.txt", B, lines(*[r.replace(".", ",") for r in bench(sep=";")]),
               "';' separator with decimal commas 0,1: read as 0.1", check=check_bench_base)
    yield Case("bench_trailing_blank.txt", B, lines(*bench(), "", "  ", ""), "trailing blank lines: ignored",
               check=check_bench_base)
    yield Case("bench_crlf.txt", B, lines(*bench(), end="\r\n"), "Windows line ends", check=check_bench_base)
    yield Case("bench_quoted.txt", B, lines(*[f'"{r}"'.replace(",", '","') if k else r
                                              for k, r in enumerate(bench())]),
               "every field quoted: quotes removed", check=check_bench_base)
    yield Case("bench_text_feature.txt", B, lines(*with_row(bench(), 3, "abc,0,3,1,2")),
               "text in a feature: the format is numbers only",
               error=("line 4", "column 1 (feature x1)", "'abc' is not a number", "expected a number"))
    yield Case("bench_fullwidth_digit.txt", B, lines(*with_row(bench(), 3, "0.3,1,２,1,3")),
               "a full-width digit in a rank: named, with its line and column (it looks like 2)",
               error=("line 4", "column 3 (rank of 'label_1')", "'２' is not a number", "U+FF12 FULLWIDTH DIGIT TWO"))
    yield Case("bench_nbsp.txt", B, lines(*with_row(bench(), 2, "0.2,\u00a00,1,2,3")),
               "a no-break space before a feature value: named, with its line and column",
               error=("line 3", "column 2 (feature x2)", "U+00A0 NO-BREAK SPACE"))
    yield Case("bench_fullwidth_header.txt", B, lines("８,2,3", *bench()[1:]),
               "a full-width digit in the header: named",
               error=("line 1", "U+FF18 FULLWIDTH DIGIT EIGHT", "expected three positive whole numbers"))
    yield Case("bench_header_trailing_sep.txt", B, lines(bench()[0] + ",", *bench()[1:]),
               "a separator ending the header (150,4,3,): ignored", check=check_bench_base)
    yield Case("bench_missing_feature.txt", B,
               lines(*with_row(with_row(bench(), 3, ",1,1,3,2"), 6, "0.7,,3,2,1")),
               "empty feature cells: NaN, counted", check=check_bench_missing)
    yield Case("bench_rank_repeat.txt", B, lines(*with_row(bench(), 4, "0.4,0,1,1,2")),
               "a rank position repeated, the next one following (a dense-rank tie): read as 1.5, 1.5, 3",
               check=check_converted(3, [1.5, 1.5, 3], "dense ranks", "line 5: 1, 1, 2 read as 1.5, 1.5, 3"))
    yield Case("bench_rank_out_of_range.txt", B, lines(*with_row(bench(), 5, "0.6,1,1,2,4")),
               "a rank position above the number of labels (a gap): only the order is kept",
               check=check_converted(4, [1, 2, 3], "other positions", "line 6: 1, 2, 4 read as 1, 2, 3"))
    yield Case("bench_rank_zero.txt", B, lines(*with_row(bench(), 2, "0.2,0,0,1,2")),
               "rank positions from 0: only the order is kept",
               check=check_converted(1, [1, 2, 3], "other positions", "line 3: 0, 1, 2 read as 1, 2, 3"))
    yield Case("bench_ties.txt", B, lines(*with_row(with_row(bench(), 2, "0.2,0,1.5,1.5,3"), 5, "0.6,1,2,2,2")),
               "ties as average positions: loaded as given", check=check_ties_as_given)
    yield Case("bench_dense_partial.txt", B,
               lines("6,2,5", *[f"{x},{b},{r}" for x, b, r in DENSE_ROWS]),
               "partial rankings in dense ranks, as the KEBI files write them (1,2,2,2,2): read as average "
               "positions, the convention named", check=check_dense_partial)
    yield Case("bench_rank_inf.txt", B, lines(*with_row(bench(), 3, "0.3,1,1,inf,2")),
               "an infinite rank position",
               error=("line 4", "column 4 (rank of 'label_2')", "infinite position inf", "expected finite numbers"))
    yield Case("bench_all_missing_labels.txt", B, lines(*with_row(bench(), 6, "0.7,0,,,")),
               "a row without any rank", error=("line 7", "none of the 3 labels has a rank position"))
    yield Case("bench_label_never_ranked.txt", B,
               lines(*[r.rsplit(",", 1)[0] + "," if k else r for k, r in enumerate(bench())]),
               "a label without a rank in any row",
               error=("column 5 (rank of 'label_3')", "no rank position in any row", "expected"))
    yield Case("bench_wrong_field_count.txt", B, lines(*with_row(bench(), 2, "0.2,0,2,1,3,9")),
               "a line with an extra field", error=("line 3", "found 6 fields", "expected 5"))

    R = "ranks"
    yield Case("ranks_empty.csv", R, b"", "empty file", CSV_OPTIONS, error=("the file is empty",))
    yield Case("ranks_blank.csv", R, b"  \n\n \n", "only blank lines", CSV_OPTIONS, error=("the file is empty",))
    yield Case("ranks_header_only.csv", R, lines(rank_csv()[0], ""), "header, then a blank line",
               CSV_OPTIONS, error=("the file has a header but no data rows", "expected at least 2"))
    yield Case("ranks_one_row.csv", R, lines(*rank_csv()[:2]), "one data row", CSV_OPTIONS,
               error=("only 1 data row (line 2)", "expected at least 2"))
    yield Case("ranks_one_label.csv", R, lines(*[",".join(r.split(",")[:3]) for r in rank_csv()]),
               "one label column", dict(feature_columns=["f1", "f2"], target_columns=["a"]),
               error=("1 rank column was chosen ('a')", "expected at least 2 labels"))
    big = [",".join(["f1"] + BIG_LABELS)] + [f"0.{i}," + ",".join(str(int(v)) for v in row)
                                             for i, row in enumerate(BIG_Y)]
    yield Case("ranks_200_labels.csv", R, lines(*big), "200 labels: loads",
               dict(feature_columns=["f1"], target_columns=BIG_LABELS), check=check_csv_200)
    yield Case("ranks_bom.csv", R, b"\xef\xbb\xbf" + lines(*rank_csv()), "UTF-8 BOM: ignored", CSV_OPTIONS,
               check=check_csv_base)
    yield Case("ranks_semicolon.csv", R, lines(*rank_csv(sep=";")), "';' separator: found from the header",
               CSV_OPTIONS, check=check_csv_base)
    yield Case("ranks_tab.txt", R, lines(*rank_csv(sep="\t")), "tab separator: found from the header",
               CSV_OPTIONS, check=check_csv_base)
    yield Case("ranks_decimal_comma.csv", R, lines(*[r.replace(".", ",") for r in rank_csv(sep=";")]),
               "';' separator, decimal commas: read as numbers", CSV_OPTIONS, check=check_csv_base)
    quoted = ['"f1","f2","a","b","c"'] + [f'{r[0]},"{r[1]}, north",{",".join(r[2:])}' if r[1] == "u"
                                         else ",".join(r) for r in RANK_ROWS]
    yield Case("ranks_quoted.csv", R, lines(*quoted), "quoted names and a quoted comma in a nominal value",
               CSV_OPTIONS, check=check_quoted)
    yield Case("ranks_trailing_blank.csv", R, lines(*rank_csv(), "", "", " "), "trailing blank lines: ignored",
               CSV_OPTIONS, check=check_csv_base)
    yield Case("ranks_crlf.csv", R, lines(*rank_csv(), end="\r\n"), "Windows line ends", CSV_OPTIONS,
               check=check_csv_base)
    yield Case("ranks_mixed_feature.csv", R, lines(*with_row(rank_csv(), 4, "abc,v,3,1,2")),
               "a feature with numbers and text: nominal", CSV_OPTIONS, check=check_mixed_nominal)
    missing = rank_csv()
    missing[3] = ",u,1,3,2"
    missing[5] = "0.6,,2,3,1"
    missing[6] = "0.7,NA,3,2,1"
    missing[7] = "?,u,1,2,3"
    yield Case("ranks_missing_features.csv", R, lines(*missing),
               "empty / NA / ? feature cells: NaN (numeric) or missing (nominal), counted", CSV_OPTIONS,
               check=check_csv_missing)
    yield Case("ranks_repeat.csv", R, lines(*with_row(rank_csv(), 4, "0.4,v,1,1,2")),
               "a rank repeated, the next one following (a dense-rank tie): read as 1.5, 1.5, 3", CSV_OPTIONS,
               check=check_converted(3, [1.5, 1.5, 3], "dense ranks", "line 5: 1, 1, 2 read as 1.5, 1.5, 3"))
    yield Case("ranks_out_of_range.csv", R, lines(*with_row(rank_csv(), 5, "0.6,u,1,2,5")),
               "a rank above the number of labels (a gap): only the order is kept", CSV_OPTIONS,
               check=check_converted(4, [1, 2, 3], "other positions", "line 6: 1, 2, 5 read as 1, 2, 3"))
    yield Case("ranks_ties.csv", R, lines(*with_row(with_row(rank_csv(), 2, "0.2,v,1.5,1.5,3"), 5, "0.6,u,2,2,2")),
               "ties as average positions: loaded as given", CSV_OPTIONS, check=check_ties_as_given)
    yield Case("ranks_gaps.csv", R, lines("f1,a,b,c,d,e,f", *[f"{x},{r}" for x, r in GAP_ROWS]),
               "labels deleted from complete rankings, positions left with gaps (4,,,,1,5): only the order kept",
               dict(feature_columns=["f1"], target_columns=GAP_LABELS), check=check_gaps)
    yield Case("ranks_rank_inf.csv", R, lines(*with_row(rank_csv(), 6, "0.7,v,3,-inf,1")),
               "an infinite rank position", CSV_OPTIONS,
               error=("line 7", "column 'b'", "'-inf' is not a finite number (an infinite position)",
                      "expected a rank position"))
    yield Case("ranks_all_missing_labels.csv", R, lines(*with_row(rank_csv(), 6, "0.7,v,,,")),
               "a row without any rank", CSV_OPTIONS, error=("line 7", "none of the 3 labels has a rank position"))
    yield Case("ranks_label_never_ranked.csv", R,
               lines(*[r.rsplit(",", 1)[0] + ("," if k else ",c") for k, r in enumerate(rank_csv())]),
               "a label column empty in every row", CSV_OPTIONS,
               error=("column 'c'", "no rank position in any row", "expected"))
    yield Case("ranks_duplicate_columns.csv", R, lines(*[r.replace("c", "b") if k == 0 else r
                                                         for k, r in enumerate(rank_csv())]),
               "two columns named 'b'", dict(feature_columns=["f1", "f2"], target_columns=["a", "b"]),
               error=("line 1", "'b' appears twice", "columns 4 and 5"))
    yield Case("ranks_text_rank.csv", R, lines(*with_row(rank_csv(), 2, "0.2,v,2,first,3")), "text in a rank",
               CSV_OPTIONS, error=("line 3", "column 'b'", "'first' is not a number", "expected a rank position"))
    # Text as Excel saves it in many countries: a Windows code page, or UTF-16 ("Unicode text").
    yield Case("ranks_latin1.csv", R, lines(*with_row(rank_csv(), 3, "0.3,café,1,3,2")).replace(
        "é".encode(), "é".encode("latin-1")), "Latin-1 / Windows-1252: read as such", CSV_OPTIONS,
        check=check_cafe)
    yield Case("ranks_utf16.csv", R, lines(*with_row(rank_csv(), 3, "0.3,café,1,3,2")).decode().encode("utf-16"),
               "UTF-16 with its BOM: read as such", CSV_OPTIONS, check=check_cafe)
    yield Case("ranks_ragged.csv", R, lines(*with_row(rank_csv(), 4, "0.4,v,3,1,2,7")), "a row with a 6th field",
               CSV_OPTIONS, error=("line 5", "found 6 fields", "expected 5"))
    yield Case("ranks_unclosed_quote.csv", R, lines(*with_row(rank_csv(), 3, '0.3,"u,1,3,2')),
               "a quote that is never closed", CSV_OPTIONS,
               error=("line 4", "quote", "never closed", "expected"))
    yield Case("ranks_long_line.csv", R, b"x" * 140_000, "one line of 140,000 characters (no separator)",
               CSV_OPTIONS,
               error=("line 1", "the name of column 1 is 140,000 characters long", "is a line break missing",
                      "..."))
    yield Case("ranks_long_quoted_field.csv", R, lines(*with_row(rank_csv(), 2, '"' + "y" * 140_000 + '",v,2,1,3')),
               "a quoted field of 140,000 characters (over the csv module's limit)", CSV_OPTIONS,
               error=("line 3", "field larger than field limit", "expected fields of at most 131,072 characters"))
    yield Case("ranks_spreadsheet_errors.csv", R, lines(*with_row(with_row(rank_csv(), 2, "#DIV/0!,v,2,1,3"), 5,
                                                                 "0.6,#N/A,2,3,1")),
               "spreadsheet error cells (#DIV/0!, #N/A): missing, the column stays numeric", CSV_OPTIONS,
               check=check_spreadsheet_errors)
    yield Case("ranks_inf_feature.csv", R, lines(*with_row(rank_csv(), 2, "inf,v,2,1,3")),
               "an infinite feature value", CSV_OPTIONS,
               error=("line 3", "column 'f1'", "'inf' is not a finite number", "expected"))

    S = "scores"
    scores = [",".join(["f1", "f2", "a", "b", "c"])] + [
        ";".join([r[0], r[1], *s]) for r, s in zip(RANK_ROWS, SCORES)]
    scores = [scores[0].replace(",", ";")] + [r.replace(".", ",") for r in scores[1:]]
    yield Case("scores_decimal_comma.csv", S, lines(*scores), "';' separator, decimal comma scores",
               CSV_OPTIONS, check=check_scores)
    plain = ["f1,f2,a,b,c"] + [",".join([r[0], r[1], *(v.replace(",", ".") for v in s)])
                               for r, s in zip(RANK_ROWS, SCORES)]
    yield Case("scores_ties.csv", S, lines(*with_row(with_row(plain, 1, "0.1,u,0.9,0.9,0.1"), 4, "0.4,v,7,7,7")),
               "equal scores: average positions", CSV_OPTIONS, check=check_score_ties)
    yield Case("scores_text.csv", S, lines(*with_row(plain, 3, "0.3,u,0.9,high,0.5")), "text in a score",
               CSV_OPTIONS, error=("line 4", "column 'b'", "'high' is not a number", "expected a score"))
    yield Case("scores_all_missing.csv", S, lines(*with_row(plain, 2, "0.2,v,NA,,")), "a row without scores",
               CSV_OPTIONS, error=("line 3", "none of the 3 labels has a score"))
    yield Case("scores_inf.csv", S, lines(*with_row(plain, 4, "0.4,v,inf,0.9,0.5")), "an infinite score",
               CSV_OPTIONS, error=("line 5", "column 'a'", "'inf' is not a finite number", "expected a score"))

    O = "ordering"
    order_opts = dict(feature_columns=["f1", "f2"], target_columns=["order"])

    def ordering_csv(orderings, sep=","):
        return [sep.join(["f1", "f2", "order"])] + [sep.join([r[0], r[1], o]) for r, o in zip(RANK_ROWS, orderings)]

    yield Case("ordering_ties.csv", O, lines(*ordering_csv(["a=b>c", "a=b=c", "a>b=c", *ORDERINGS[3:]])),
               "ties with '=': average positions", order_opts, check=check_ordering_ties)
    yield Case("ordering_spaces.csv", O, lines(*ordering_csv([o.replace(">", " > ") for o in ORDERINGS])),
               "spaces around the names: ignored", order_opts, check=check_ordering_spaces)
    yield Case("ordering_succ.csv", O, lines(*ordering_csv([o.replace(">", "≻") for o in ORDERINGS])),
               "the mathematical '≻' for '>'", order_opts, check=check_ordering_spaces)
    yield Case("ordering_fullwidth.csv", O,
               lines(*ordering_csv(["a＞b＞c", "b＞a＝c", *[o.replace(">", "＞") for o in ORDERINGS[2:]]])),
               "full-width '＞' and '＝'", order_opts,
               check=check_ordering_fullwidth)
    yield Case("ordering_html_gt.csv", O, lines(*ordering_csv([o.replace(">", "&gt;") for o in ORDERINGS])),
               "'&gt;' from a page copied as HTML", order_opts, check=check_ordering_spaces)
    yield Case("ordering_less_than.csv", O, lines(*ordering_csv(with_row(ORDERINGS, 4, "c<a<b"))),
               "'<' (worse first) in one row: named, not read as a label 'c<a<b'", order_opts,
               error=("line 6", "'<' is not a sign of orderings", "'c<a<b'", "better first"))
    yield Case("ordering_semicolon.csv", O, lines(*ordering_csv(ORDERINGS, sep=";")), "';' separator",
               order_opts, check=check_ordering_spaces)
    yield Case("ordering_unknown_label.csv", O, lines(*ordering_csv(with_row(ORDERINGS, 2, "a>d>b"))),
               "a label not in the given label set", dict(order_opts, labels=["a", "b", "c"]),
               error=("line 4", "column 'order'", "'d'", "expected one of 'a', 'b', 'c'"))
    yield Case("ordering_repeated_label.csv", O, lines(*ordering_csv(with_row(ORDERINGS, 1, "b>a>b"))),
               "a label twice in one ordering", order_opts,
               error=("line 3", "column 'order'", "'b' appears twice", "expected label names"))
    yield Case("ordering_empty_cell.csv", O, lines(*ordering_csv(with_row(ORDERINGS, 3, ""))),
               "an empty ordering", order_opts, error=("line 5", "column 'order'", "the ordering is empty"))
    yield Case("ordering_one_label.csv", O, lines(*ordering_csv(["a"] * 8)), "every ordering names one label",
               order_opts, error=("column 'order'", "name 1 label ('a')", "expected at least 2 labels"))
    yield Case("ordering_short_row.csv", O, lines(*ordering_csv(with_row(ORDERINGS, 5, "c"))),
               "one ordering names a single label", order_opts,
               error=("line 7", "only 1 of the 3 labels has a place in the ordering", "expected at least 2"))
    big_orders = [">".join(BIG_LABELS[j] for j in np.argsort(row)) for row in BIG_ORDER_Y]
    yield Case("ordering_200_labels.csv", O, lines("f1,order", *[f"0.{i},{o}" for i, o in enumerate(big_orders)]),
               "200 labels: loads", dict(feature_columns=["f1"], target_columns=["order"]),
               check=check_ordering_200)

    N = "ordinal"
    n_opts = dict(target="grade")
    yield Case("ordinal_empty.csv", N, b"", "empty file", n_opts, error=("the file is empty",))
    yield Case("ordinal_header_only.csv", N, lines(ord_csv()[0]), "header only", n_opts,
               error=("the file has a header but no data rows",))
    yield Case("ordinal_one_row.csv", N, lines(*ord_csv()[:2]), "one data row", n_opts,
               error=("only 1 data row (line 2)", "expected at least 2"))
    yield Case("ordinal_one_level.csv", N, lines(*[r[:-1] + "2" if k else r for k, r in enumerate(ord_csv())]),
               "every row has the same level", n_opts,
               error=("column 'grade'", "every row has the level 2", "expected at least 2 different levels"))
    yield Case("ordinal_decimal_comma.csv", N, lines(*[r.replace(".", ",") for r in ord_csv(sep=";")]),
               "';' separator, decimal commas", n_opts, check=check_ordinal_base)
    yield Case("ordinal_tab.txt", N, lines(*ord_csv(sep="\t")), "tab separator", n_opts, check=check_ordinal_base)
    yield Case("ordinal_bom_crlf_trailing.csv", N, b"\xef\xbb\xbf" + lines(*ord_csv(), "", "", end="\r\n"),
               "BOM, Windows line ends, trailing blank lines", n_opts, check=check_ordinal_base)
    yield Case("ordinal_missing_target.csv", N, lines(*with_row(ord_csv(), 3, "3.5,a,")), "an empty target cell",
               n_opts, error=("line 4", "column 'grade'", "the target cell is empty", "expected a level"))
    om = ord_csv()
    om[2] = ",b,1"
    om[4] = "4.0,NA,2"
    om[7] = "N/A,a,3"
    yield Case("ordinal_missing_features.csv", N, lines(*om), "empty / NA feature cells: NaN / missing, counted",
               n_opts, check=check_ordinal_missing)
    names = {"1": "poor", "2": "fair", "3": "good"}
    named = [ord_csv()[0]] + [f"{r[0]},{r[1]},{names[r[2]]}" for r in ORD_ROWS]
    yield Case("ordinal_names_without_order.csv", N, lines(*named), "named levels, no order given", n_opts,
               error=("line 2", "column 'grade'", "'poor' is a name", "expected the levels given in their order"))
    yield Case("ordinal_unknown_level.csv", N, lines(*with_row(named, 5, "5.5,a,excellent")),
               "a value outside the given levels", dict(target="grade", levels=["poor", "fair", "good"]),
               error=("line 6", "column 'grade'", "'excellent' is not one of the given levels",
                      "expected one of 'poor', 'fair', 'good'"))
    yield Case("ordinal_duplicate_columns.csv", N, lines(*[r.replace("school", "hours") for r in ord_csv()]),
               "two columns named 'hours'", n_opts,
               error=("line 1", "'hours' appears twice", "columns 1 and 2"))
    yield Case("ordinal_mixed_feature.csv", N, lines(*with_row(ord_csv(), 4, "lots,b,2")),
               "a feature with numbers and text: nominal", n_opts, check=check_ordinal_mixed)
    yield Case("ordinal_200_levels.csv", N, lines("x,grade", *[f"{i},{200 - i}" for i in range(200)]),
               "200 levels: loads", n_opts, check=check_ordinal_200)
    quoted = ['"hours","school","grade"'] + [f'{h},"{s}, north",{g}' if s == "a" else f"{h},{s},{g}"
                                             for h, s, g in ORD_ROWS]
    yield Case("ordinal_quoted.csv", N, lines(*quoted), "quoted names, a quoted comma in a nominal value",
               n_opts, check=check_ordinal_quoted)
    yield Case("ordinal_ragged.csv", N, lines(*with_row(ord_csv(), 6, "6.0,b")), "a row with 2 fields", n_opts,
               error=("line 7", "found 2 fields", "expected 3"))

    V = "svmlight"
    yield Case("svm_empty.txt", V, b"", "empty file", error=("the file has no documents",))
    yield Case("svm_comments_only.txt", V, lines("# LETOR export", "", "# nothing else"), "comments only",
               error=("the file has no documents",))
    yield Case("svm_one_doc_query.txt", V, lines(*svm_lines(), "1 qid:7 1:0.5 2:1 3:0"),
               "a query with one document: kept (it adds no pair)", check=check_ltr_one_doc_query)
    yield Case("svm_text_relevance.txt", V, lines(*with_row(svm_lines(), 1, "high qid:1 1:0.1 2:1 3:-1")),
               "text relevance", error=("line 2", "relevance 'high' is not a number", "expected a graded relevance"))
    yield Case("svm_bom_crlf.txt", V, b"\xef\xbb\xbf" + lines(*svm_lines(), end="\r\n"), "BOM, Windows line ends",
               check=check_ltr_base)
    yield Case("svm_tabs_trailing_blank.txt", V, lines(*[s.replace(" ", "\t") for s in svm_lines()], "", "\t", ""),
               "tabs between tokens, trailing blank lines", check=check_ltr_base)
    yield Case("svm_decimal_comma.txt", V, lines(*with_row(svm_lines(), 0, "2 qid:1 1:0,7 2:1 3:3")),
               "a decimal comma (the format is '.' only)",
               error=("line 1", "'0,7'", "is not a number", "expected index:value"))
    yield Case("svm_repeated_index.txt", V, lines(*with_row(svm_lines(), 2, "1 qid:1 1:0.4 1:1 3:1")),
               "a feature index twice", error=("line 3", "repeats '1:0.4'", "expected each feature at most once"))
    yield Case("svm_missing_qid.txt", V, lines(*with_row(svm_lines(), 4, "0 1:0.2 2:2 3:-1")), "no qid:",
               error=("line 5", "'qid:' is missing", "expected the query id"))
    yield Case("svm_string_qids.txt", V, lines(*[s.replace("qid:", "qid:q-") for s in svm_lines()]),
               "query ids that are not numbers: kept as strings", check=check_ltr_string_qids)
    yield Case("svm_long_value.txt", V, lines("1 qid:1 1:" + "9" * 140_000, *svm_lines()),
               "a feature value of 140,000 digits", error=("line 1", "is not a finite number", "..."))
    wide = [f"{i % 3} qid:{i // 10} 1:0.5 2:0.25" for i in range(600)]
    wide[3] += " 100000:1"
    yield Case("svm_too_wide.txt", V, lines(*wide),
               "600 short lines, one with feature 100000: a dense table of 447 MiB, refused (13 KB file)",
               error=("line 4", "the feature index 100000", "600 documents x 100,000 features",
                      "over the limit of 400 MiB", "expected feature indices up to 87,381"))
    near_cap = [f"{k % 3} qid:{k // 20} 1:0.5" for k in range(600)] + ["1 qid:99 87000:1"]
    yield Case("svm_near_cap.txt", V, lines(*near_cap),
               "9 KB making a 399 MiB table (just under the 400 MiB cap): refused, as more than 256 cells "
               "per value written",
               error=("line 601", "the feature index 87000", "601 documents x 87,000 features",
                      "over 256 cells per value", "expected feature indices up to 13,957"))
    sparse = svm_lines()
    sparse[0] = sparse[0].replace(" 2:1", "")
    sparse[4] = sparse[4].replace(" 1:0.2", "")
    yield Case("svm_sparse.txt", V, lines(*sparse), "features left out: 0 (svmlight)", check=check_ltr_sparse)
    yield Case("svm_nan_feature.txt", V, lines(*with_row(svm_lines(), 3, "2 qid:2 1:nan 2:2 3:3")),
               "'nan' as a value (leave the feature out instead)",
               error=("line 4", "'nan'", "not a finite number", "leave a feature out for 0"))

    yield Case("svm_30_digit_index.txt", V, lines(*svm_lines()[:3], "1 qid:2 " + "1" * 30 + ":0.5"),
               "a 30-digit feature index on line 4 (once blamed on line 1)",
               error=("line 4", "the feature index " + "1" * 30, "larger than 100000"))
    yield Case("svm_qid_colon.txt", V, lines(*svm_lines()[:2], "0 qid:11:0.4 2:0", *svm_lines()[2:]),
               "a space missing after the query id (once read as the query '11:0.4')",
               error=("line 3", "the query id '11:0.4' ends in index:value", "a space missing"))

    G = "group"
    yield Case("group_sizes.query", G, lines("3", "", "2"), "LightGBM's .query: sizes, blank lines skipped",
               check=lambda sizes: _same(sizes, np.array([3, 2])))
    yield Case("group_superscript.group", G, lines("3", "³"), "a superscript digit (str.isdigit() takes it)",
               error=("line 2", "'³' is not a number of documents", "digits 0-9"))
    yield Case("group_fullwidth.group", G, lines("２"), "a full-width digit",
               error=("line 1", "'２' is not a number of documents"))
    yield Case("group_zero.query", G, lines("3", "0", "2"), "a query of no documents",
               error=("line 2", "'0' is not a number of documents", "at least 1"))
    yield Case("group_empty.group", G, lines("", ""), "blank lines only",
               error=("the group file has no query sizes",))
    yield Case("group_30_digits.query", G, lines("2", "1" * 30), "a 30-digit size (once an OverflowError)",
               error=("line 2", "larger than 1,000,000,000 documents"))

    Q = "query_csv"
    q_opts = dict(query_column="qid", relevance_column="rel")
    yield Case("qcsv_empty.csv", Q, b"", "empty file", q_opts, error=("the file is empty",))
    yield Case("qcsv_header_only.csv", Q, lines(qcsv()[0], ""), "header only", q_opts,
               error=("the file has a header but no data rows",))
    yield Case("qcsv_one_row.csv", Q, lines(*qcsv()[:2]), "one data row", q_opts,
               error=("only 1 data row (line 2)", "expected at least 2"))
    qm = qcsv()
    qm[2] = qm[2].replace(",0.1,", ",,", 1)      # row 2 (index 1): f1 empty
    qm[5] = qm[5].rsplit(",", 1)[0] + ",NA"     # row 5 (index 4): f3 NA
    qm[10] = qm[10].replace(",4,", ",,", 1)     # row 10 (index 9): f2 empty
    yield Case("qcsv_missing_features.csv", Q, lines(*qm), "empty / NA feature cells: NaN, counted", q_opts,
               check=check_ltr_missing)
    yield Case("qcsv_text_relevance.csv", Q, lines(*with_row(qcsv(), 3, "1,high,0.4,1,1")), "text relevance",
               q_opts, error=("line 4", "column 'rel'", "relevance 'high' is not a number", "expected a graded"))
    yield Case("qcsv_one_doc_query.csv", Q, lines(*qcsv(), "7,1,0.5,1,1"),
               "a query with one document: kept (it adds no pair)", q_opts, check=check_ltr_one_doc_query)
    yield Case("qcsv_decimal_comma.csv", Q, lines(*[r.replace(".", ",") for r in qcsv(sep=";")]),
               "';' separator, decimal commas", q_opts, check=check_ltr_base)
    yield Case("qcsv_tab_quoted.txt", Q, lines(*['"' + r.replace("\t", '"\t"') + '"' if k else r
                                                 for k, r in enumerate(qcsv(sep="\t"))]),
               "tab separator, every data field quoted", q_opts, check=check_ltr_base)
    yield Case("qcsv_duplicate_columns.csv", Q, lines(*[r.replace("f3", "f2") for r in qcsv()]),
               "two columns named 'f2'", q_opts, error=("line 1", "'f2' appears twice", "columns 4 and 5"))
    yield Case("qcsv_text_feature.csv", Q, lines(*with_row(qcsv(), 6, "2,1,abc,2,1")),
               "text in a numeric feature (LTR features are numbers)", q_opts,
               error=("line 7", "column 'f1'", "'abc' is not a number", "expected a number"))

    # Found by fuzzing the loaders (2026-11-28): encodings, huge numbers, names and what a file asks for.
    R = "ranks"
    csv_text = "\n".join(rank_csv()) + "\n"
    yield Case("ranks_bom_then_latin1.csv", R,
               b"\xef\xbb\xbf" + csv_text.replace("0.2,v", "0.2,v\u00e9").encode("latin-1"),
               "a UTF-8 byte order mark, then a Latin-1 byte (once a raw UnicodeDecodeError)", CSV_OPTIONS,
               error=("line 3", "byte 0xe9 is not UTF-8 text", "the UTF-8 byte order mark"))
    yield Case("ranks_utf16_cut.csv", R, csv_text.encode("utf-16") + b"\x00",
               "UTF-16 with an odd number of bytes (once a raw UnicodeDecodeError)", CSV_OPTIONS,
               error=("ends inside a UTF-16 character", "the UTF-16 byte order mark"))
    latin = [(r[0], "d\u00e9j\u00e0 \u00bd" if r[1] == "u" else r[1]) + r[2:] for r in RANK_ROWS]
    yield Case("ranks_latin1_words.csv", R, ("\n".join(rank_csv(latin)) + "\n").encode("latin-1"),
               "Latin-1 text a detector cannot place (once refused; its '\u00bd' once read as '\u0153')", CSV_OPTIONS,
               check=lambda ds: (_same(ds.Y, RANK_Y), _assert(set(ds.X["f2"]) == {"d\u00e9j\u00e0 \u00bd", "v"})))
    yield Case("ranks_utf8_one_stray_byte.csv", R,
               csv_text.replace(",u,", ",caf\u00e9,").encode("utf-8").replace(b"0.4,v", b"0.4,v\xe9", 1),
               "UTF-8 with one Latin-1 byte (once decoded whole as Windows-1252: 'caf\u00c3\u00a9')", CSV_OPTIONS,
               error=("line 5", "byte 0xe9 is not UTF-8 text", "other accented or special characters are"))
    yield Case("ranks_long_column_name.csv", R, lines(*rank_csv(header=("f1", "f2" + "x" * 2_000, "a", "b", "c"))),
               "a column name of 2,002 characters (one of 100,000 among 3,000 columns once asked for 1.1 GiB)",
               CSV_OPTIONS, error=("line 1", "the name of column 2 is 2,002 characters long", "at most 1,000"))
    yield Case("ranks_header_line_break.csv", R, lines('"f1', '(kg)",f2,a,b,c', *rank_csv()[1:]),
               "a line break inside a quoted column name (a spreadsheet's wrapped cell)", CSV_OPTIONS,
               error=("line 1", "runs on past line 1", "remove the line breaks"))
    yield Case("ordering_invisible_character.csv", O,
               lines(*ordering_csv(with_row(ORDERINGS, 3, "b>c\u200b>a"))),
               "a zero-width space after a label (once a fourth label)", order_opts,
               error=("line 5", "differs from the label 'c'", "invisible characters"))
    yield Case("ordering_fullwidth_letter.csv", O, lines(*ordering_csv(with_row(ORDERINGS, 5, "\uff43>b>a"))),
               "a full-width letter (once a fourth label)", order_opts,
               error=("line 7", "differs from the label 'c'", "width"))
    yield Case("bench_4301_digit_header.txt", B, lines("1" * 4301 + ",2,3", *bench()[1:]),
               "a header number of 4,301 digits (once Python's int() limit, a raw ValueError)",
               error=("line 1", "expected three positive whole numbers"))
    yield Case("svm_4301_digit_index.txt", V, lines(*svm_lines()[:3], "1 qid:2 " + "1" * 4301 + ":0.5"),
               "a feature index of 4,301 digits (once a raw ValueError)",
               error=("line 4", "larger than 100000"))
    yield Case("group_4301_digits.query", G, lines("2", "1" * 4301),
               "a size of 4,301 digits (once a raw ValueError)", error=("line 2", "larger than 1,000,000,000"))
    yield Case("group_leading_zeros.query", G, lines("3", "0000000000001"),
               "a size written with leading zeros (once 'larger than 1,000,000,000')",
               check=lambda sizes: _same(sizes, np.array([3, 1])))
    us = [("1,000", "u", "1", "2", "3"), ("2,500", "v", "2", "1", "3"), ("12,345,678", "u", "1", "3", "2")]
    yield Case("ranks_tab_thousands.txt", R, lines(*rank_csv(us, sep="\t")),
               "tab-separated, thousands separators (once '1,000' read as 1 beside 12,345,678)", CSV_OPTIONS,
               check=lambda ds: _same(ds.X["f1"], [1000, 2500, 12345678]))
    eu = [("1.000,5", "u", "1", "2", "3"), ("2.000,5", "v", "2", "1", "3"), ("0,3", "u", "1", "3", "2")]
    yield Case("ranks_semicolon_dotted_thousands.csv", R, lines(*rank_csv(eu, sep=";")),
               "';'-separated, points between thousands and a decimal comma (once a text column)", CSV_OPTIONS,
               check=lambda ds: _same(ds.X["f1"], [1000.5, 2000.5, 0.3]))
    mixed = [("1,000", "u", "1", "2", "3"), ("2,5", "v", "2", "1", "3"), ("12,345,678", "u", "1", "3", "2")]
    yield Case("ranks_tab_thousands_and_decimal.txt", R, lines(*rank_csv(mixed, sep="\t")),
               "a decimal comma in a column of thousands separators", CSV_OPTIONS,
               error=("line 3", "column 'f1'", "'2,5' is not a number", "thousands separators such as '1,000'"))
    grouped = [row.replace(",0.4,", ',"1,400",').replace(",0.1,", ',"1,100",') for row in qcsv()]
    yield Case("qcsv_thousands_feature.csv", Q, lines(*grouped), "a feature written with thousands separators "
               "(once left out of the default features)", q_opts,
               check=lambda ds: _assert(ds.X.shape[1] == 3 and 1400.0 in ds.X[:, 0] and 1100.0 in ds.X[:, 0]))
    yield Case("ranks_unclosed_quote_at_end.csv", R, lines(*rank_csv()[:-1], '0.9,v,2,1,"3'),
               "a quote never closed on the last row (once pandas' 'EOF inside string starting at row 7')",
               CSV_OPTIONS, error=("line 9", "opened on this line is never closed", "the file ends inside"))
    yield Case("bench_quoted_separator.txt", B, lines(*bench()[:4], '"0.4,0",3,1,2', *bench()[5:]),
               "a quoted field holding the separator (once 'the data lines cannot be read as numbers')",
               error=("line 5", "a quoted field on this line cannot be read", "expected plain numbers"))
    yield Case("bench_semicolon_bad_cell.txt", B,
               lines(*with_row(bench(sep=";"), 2, "1.000,5;0;2;1;3")),
               "';' and a cell that is no number: named as written (once as the loader's rewrite '1.000.5')",
               error=("line 3", "'1.000,5' is not a number"))


def _assert(condition):
    assert condition


CASES = list(_cases())

#: Generated at test time, not committed: one file over the size limit per loader family.
OVERSIZE = [
    ("bench_oversize.txt", "benchmark", {}),
    ("ranks_oversize.csv", "ranks", CSV_OPTIONS),
    ("ordinal_oversize.csv", "ordinal", dict(target="grade")),
    ("svm_oversize.txt", "svmlight", {}),
    ("qcsv_oversize.csv", "query_csv", dict(query_column="qid", relevance_column="rel")),
]


def oversize_cases(limit):
    """Cases for files of ``limit + 1`` bytes (made by :func:`write_oversize`)."""
    return [Case(name, loader, b"", "over the size limit", options,
                 error=("expected at most", "upload limit")) for name, loader, options in OVERSIZE]


def write_oversize(folder, name, size):
    """A sparse file of ``size`` bytes (NUL bytes; no disk space used)."""
    path = Path(folder) / name
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


def write_corpus(folder=BAD_DIR):
    """Write every case's file into ``folder``; return the paths."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for case in CASES:
        path = folder / case.file
        path.write_bytes(case.content)
        paths.append(path)
    return paths


def evaluate(case, path_or_buffer):
    """Run one case: ``None`` if it behaves as required, else what went wrong (one line)."""
    from rankviz.exceptions import DataError

    name = case.file
    try:
        result = case.read(path_or_buffer)
    except DataError as error:
        message = str(error)
        if case.loads:
            return f"refused ({message})"
        if len(message) > MAX_MESSAGE:
            return f"message of {len(message):,} characters: {message[:200]}..."
        if not message.startswith(name):
            return f"message does not start with the file name: {message}"
        lacking = [part for part in case.error if part not in message]
        if lacking:
            return f"message lacks {lacking}: {message}"
        return None
    except Exception as error:  # noqa: BLE001 - this is what the corpus looks for
        return f"unexpected {type(error).__name__}: {error}"
    if not case.loads:
        return f"loaded, expected an error with {list(case.error)}"
    try:
        case.check(result)
    except Exception as error:  # noqa: BLE001
        return f"loaded wrongly: {type(error).__name__}: {error}"
    return None


def report(folder=BAD_DIR, limit=None):
    """Print one line per failing case and the totals; return the failures."""
    import tempfile

    failures = []
    per_loader = {}
    for case in CASES:
        per_loader[case.loader] = per_loader.get(case.loader, 0) + 1
        problem = evaluate(case, Path(folder) / case.file)
        if problem:
            failures.append((case.file, problem))
    if limit is not None:
        with tempfile.TemporaryDirectory() as tmp:
            for case in oversize_cases(limit):
                per_loader[case.loader] += 1
                problem = evaluate(case, write_oversize(tmp, case.file, limit + 1))
                if problem:
                    failures.append((case.file, problem))
    for name, problem in failures:
        print(f"FAIL {name}: {problem[:300]}")
    total = sum(per_loader.values())
    print(f"{total} inputs ({', '.join(f'{k}: {v}' for k, v in per_loader.items())}); {len(failures)} failed")
    return failures


if __name__ == "__main__":
    if "--report" in sys.argv:
        from rankviz.datasets.reading import MAX_UPLOAD_BYTES

        limit = MAX_UPLOAD_BYTES
        report(limit=limit)
    else:
        for written in write_corpus():
            print(written.relative_to(Path.cwd()) if written.is_relative_to(Path.cwd()) else written)
