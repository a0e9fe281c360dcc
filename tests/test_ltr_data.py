"""Tests of rankviz.datasets.queries: learning-to-rank datasets, loaders, splits and synthetic data."""

from __future__ import annotations

import importlib.util
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr

from rankviz.datasets.samples import SAMPLE_DIR

#: The scripts that made the bundled samples: in the repository, not in the package.
REPO = Path(__file__).resolve().parents[1]
BUILDERS = REPO / "scripts" / "sample_data"
from rankviz.exceptions import DataError
from rankviz.datasets.queries import QueryDataset, load_query_csv, split_by_query
from rankviz.datasets.samples import load_ltr_sample, sample_info
from rankviz.datasets.svmlight import dump_svmlight, load_svmlight
from rankviz.ltr.synthetic import make_ltr_dataset


def text_file(text, name="train.txt"):
    """An in-memory upload with a file name, as Streamlit gives."""
    buffer = io.StringIO(text)
    buffer.name = name
    return buffer


def random_dataset(seed=0, n_docs=40, n_features=5, string_ids=False):
    """Awkward values (tiny, huge, negative, zero) and queries that are not contiguous."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n_docs, n_features)) * 10.0 ** rng.integers(-8, 8, size=(n_docs, n_features))
    X[rng.random(X.shape) < 0.2] = 0.0
    qid = np.tile(np.arange(1, n_docs // 4 + 1), 4)  # query k at rows k, k + 10, ...
    if string_ids:
        qid = np.array([f"q{q}" for q in qid], dtype=object)
    relevance = rng.integers(0, 5, size=n_docs).astype(float)
    relevance[::7] += 0.25  # a few non-integer grades
    return QueryDataset(X, relevance, qid)


# --------------------------------------------------------------------------- #
# QueryDataset
# --------------------------------------------------------------------------- #
def test_query_index_in_order_of_first_appearance():
    ds = QueryDataset(np.arange(10.0).reshape(5, 2), [1, 0, 2, 0, 1], ["b", "a", "b", "a", "b"])
    assert ds.query_index.tolist() == [0, 1, 0, 1, 0]
    assert ds.query_ids.tolist() == ["b", "a"]
    assert ds.query_sizes.tolist() == [3, 2]
    assert (ds.n_docs, ds.n_features, ds.n_queries) == (5, 2, 2)
    assert ds.feature_names == ["f1", "f2"]
    assert ds.qid[0] == "b" and type(ds.qid[0]) is str


def test_arrays_are_read_only_but_callers_arrays_are_not():
    X = np.ones((4, 2))
    ds = QueryDataset(X, [0, 1, 0, 1], [1, 1, 2, 2])
    with pytest.raises(ValueError):
        ds.X[0, 0] = 5.0
    with pytest.raises(ValueError):
        ds.relevance[0] = 5.0
    X[0, 0] = 5.0  # still writable
    assert X[0, 0] == 5.0


@pytest.mark.parametrize("kwargs, fragment", [
    (dict(X=np.ones((3, 2)), relevance=[0, 1], qid=[1, 1, 1]), "one relevance per document"),
    (dict(X=np.ones((3, 2)), relevance=[0, 1, 2], qid=[1, 1]), "one query id per document"),
    (dict(X=np.ones(3), relevance=[0, 1, 2], qid=[1, 1, 1]), "2-D"),
    (dict(X=np.ones((3, 0)), relevance=[0, 1, 2], qid=[1, 1, 1]), "no features"),
    (dict(X=np.ones((3, 2)), relevance=[0, np.nan, 2], qid=[1, 1, 1]), "row 2: the relevance nan"),
    (dict(X=[[1, 2], [1, np.inf], [0, 0]], relevance=[0, 1, 2], qid=[1, 1, 1]), "row 2, column 'f2'"),
    (dict(X=np.ones((3, 2)), relevance=[0, 1, 2], qid=[1, None, 1]), "row 2: the query id is missing"),
    (dict(X=np.ones((3, 2)), relevance=[0, 1, 2], qid=[1, 1, 1], feature_names=["a"]), "2 feature columns"),
    (dict(X=np.ones((3, 2)), relevance=[0, 1, 2], qid=[1, 1, 1], feature_names=["a", "a"]), "'a' appears twice"),
])
def test_dataset_validation(kwargs, fragment):
    with pytest.raises(DataError, match=None) as info:
        QueryDataset(name="mine", **kwargs)
    assert fragment in str(info.value)
    assert str(info.value).startswith("mine")


def test_subset_queries_and_to_frame():
    ds = random_dataset(string_ids=True)
    part = ds.subset_queries(["q3", "q1", "q3"])
    assert sorted(set(part.qid)) == ["q1", "q3"]
    rows = np.isin(ds.qid, ["q1", "q3"])
    np.testing.assert_array_equal(part.X, ds.X[rows])
    np.testing.assert_array_equal(part.relevance, ds.relevance[rows])
    with pytest.raises(DataError, match="(?i)the query 'q99' is not in the dataset"):
        ds.subset_queries(["q1", "q99"])
    frame = ds.to_frame()
    assert list(frame.columns) == ["qid", "relevance"] + ds.feature_names
    np.testing.assert_array_equal(frame[ds.feature_names].to_numpy(), ds.X)
    with pytest.raises(DataError, match="'f1' is already used"):
        ds.to_frame(query_column="f1")


def test_feature_names_from_a_frame():
    X = pd.DataFrame({"bm25": [1.0, 2.0, 3.0], "pagerank": [0.1, 0.2, 0.3]})
    assert QueryDataset(X, [0, 1, 2], [7, 7, 7]).feature_names == ["bm25", "pagerank"]


# --------------------------------------------------------------------------- #
# svmlight / LETOR
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize("string_ids", [False, True])
@pytest.mark.parametrize("sparse", [False, True])
def test_svmlight_round_trip_is_exact(string_ids, sparse):
    ds = random_dataset(string_ids=string_ids)
    buffer = io.StringIO()
    dump_svmlight(ds, buffer, sparse=sparse, comment="written by a test\nsecond comment line")
    back = load_svmlight(text_file(buffer.getvalue()))
    np.testing.assert_array_equal(back.X, ds.X)
    np.testing.assert_array_equal(back.relevance, ds.relevance)
    assert back.qid.tolist() == ds.qid.tolist()
    assert back.qid.dtype == (object if string_ids else np.int64)
    assert back.name == "train"


def test_svmlight_sparse_lines_fill_zeros_and_comments_are_ignored():
    text = (
        "# LETOR-style file\n"
        "\n"
        "2 qid:10 1:0.5 3:1.25 #docid = GX000-00-0000000 inc = 1\n"
        "   \n"
        "0 qid:10 2:-3\n"
        "1\tqid:11\t4:7   # the widest line\n"
        "0 qid:11\n"
        "1 qid:10 1:1e-3 2:2E2\n"
    )
    ds = load_svmlight(text_file(text))
    np.testing.assert_array_equal(ds.X, [[0.5, 0, 1.25, 0], [0, -3, 0, 0], [0, 0, 0, 7],
                                         [0, 0, 0, 0], [0.001, 200, 0, 0]])
    np.testing.assert_array_equal(ds.relevance, [2, 0, 1, 0, 1])
    assert ds.qid.tolist() == [10, 10, 11, 11, 10]  # query 10 not contiguous: allowed
    assert ds.query_index.tolist() == [0, 0, 1, 1, 0]
    assert ds.feature_names == ["f1", "f2", "f3", "f4"]


def test_svmlight_reads_paths_and_bytes(tmp_path):
    path = tmp_path / "fold1.txt"
    path.write_bytes(b"\xef\xbb\xbf1 qid:1 1:1\r\n0 qid:1 1:2\r\n")
    ds = load_svmlight(path)
    assert ds.name == "fold1"
    np.testing.assert_array_equal(ds.X, [[1], [2]])
    assert load_svmlight(io.BytesIO(path.read_bytes()), name="up").name == "up"


GOOD = "1 qid:1 1:0.5 2:1\n0 qid:1 1:0.25 2:0\n"


@pytest.mark.parametrize("bad_line, fragments", [
    ("high qid:2 1:1", ["relevance 'high' is not a number", "graded relevance such as 0, 1, 2"]),
    ("nan qid:2 1:1", ["relevance 'nan' is not a finite number"]),
    ("inf qid:2 1:1", ["relevance 'inf' is not a finite number"]),
    ("2 1:0.5 2:1", ["'qid:' is missing", "'1:0.5'"]),
    ("2", ["'qid:' is missing", "only the relevance '2'"]),
    ("qid:2 1:1", ["'qid:2'", "relevance is missing"]),
    ("2 qid: 1:1", ["query id is empty", "'qid:'"]),
    ("2 qid:2 3:abc", ["feature value 'abc' in '3:abc' is not a number"]),
    ("2 qid:2 abc", ["the token 'abc' is not a feature", "index:value"]),
    ("2 qid:2 x:1", ["feature index 'x' in 'x:1' is not a whole number"]),
    ("2 qid:2 1.5:1", ["feature index '1.5' in '1.5:1' is not a whole number"]),
    ("2 qid:2 0:1.5", ["feature index 0 in '0:1.5' is less than 1", "1-based"]),
    ("2 qid:2 1:1 2:3 2:4", ["feature index 2 in '2:4' repeats '2:3'"]),
    ("2 qid:2 1:1 5:3 2:4", ["feature index 2 in '2:4' comes after '5:3'", "increasing"]),
    ("2 qid:2 1:nan", ["feature value 'nan' in '1:nan' is not a finite number"]),
    ("2 qid:2 1:-inf", ["feature value '-inf' in '1:-inf' is not a finite number"]),
    ("2 qid:2 1:", ["feature value is empty in '1:'"]),
    ("2 qid:2 1:2:3", ["'1:2:3' has more than one ':'"]),
    ("2 qid:2 1:1 qid:3", ["second query id 'qid:3'"]),
    ("2 qid:2 123456789:1", ["feature index 123456789 in '123456789:1' is larger than 100000"]),
    ("2 qid:2 12345678901234567890123:1", ["feature index 12345678901234567890123 in", "larger than 100000"]),
    # texts Python's float() would read, and the loaders do not
    ("2 qid:2 1:1_0", ["feature value '1_0' in '1:1_0' is not a number"]),
    ("2 qid:2 1:\u0661", ["feature value '\u0661' in '1:\u0661' is not a number"]),
    ("2 qid:2 1:1e", ["feature value '1e' in '1:1e' is not a number"]),
])
def test_svmlight_errors_name_file_line_and_token(bad_line, fragments):
    # Line 1 is a comment, lines 2-3 are good, the bad one is line 4,
    # followed by a document that gives query 2 its second document.
    text = "# header comment\n" + GOOD + bad_line + "  # trailing comment\n" + "0 qid:2 1:3\n"
    with pytest.raises(DataError) as info:
        load_svmlight(text_file(text))
    message = str(info.value)
    assert message.startswith("train.txt, line 4: "), message
    for fragment in fragments:
        assert fragment in message, message


def test_svmlight_reports_the_first_faulty_line():
    # line 2 fails the vectorised order check, line 3 the line pattern
    text = "1 qid:1 1:1\n1 qid:1 3:1 2:1\nbad qid:1 1:1\n"
    with pytest.raises(DataError, match=r"^train.txt, line 2: the feature index 2 in '2:1' comes after '3:1'"):
        load_svmlight(text_file(text))
    text = "1 qid:1 1:1\nbad qid:1 1:1\n1 qid:1 3:1 2:1\n"
    with pytest.raises(DataError, match=r"^train.txt, line 2: relevance 'bad'"):
        load_svmlight(text_file(text))


def test_one_document_queries_are_kept():
    # svmlight: query 7 has one document, query 'b' too; nothing is refused
    text = "1 qid:1 1:1\n0 qid:1 1:2\n# comment\n2 qid:7 1:3\n1 qid:8 1:1\n1 qid:8 1:0\n"
    ds = load_svmlight(text_file(text))
    assert ds.query_ids.tolist() == [1, 7, 8] and ds.query_sizes.tolist() == [2, 1, 2]
    assert ds.n_single_document_queries == 1 and ds.n_docs == 5
    ds = load_svmlight(text_file("1 qid:a 1:1\n0 qid:b 1:2\n0 qid:a 1:2\n"))
    assert ds.query_sizes.tolist() == [2, 1] and ds.n_single_document_queries == 1
    # CSV, the dataset itself, and a split of it
    ds = load_query_csv(text_file(CSV + "3,0,3,3\n", "docs.csv"), "qid", "rel")
    assert ds.query_sizes.tolist() == [2, 2, 1] and ds.n_single_document_queries == 1
    ds = QueryDataset(np.ones((3, 2)), [0, 1, 2], [1, 2, 1])
    assert ds.n_single_document_queries == 1
    only = QueryDataset(np.arange(8.0).reshape(4, 2), [0, 1, 2, 1], [1, 2, 3, 4])
    parts = split_by_query(only, (0.5, 0.25, 0.25))
    assert [p.n_docs for p in parts] == [2, 1, 1]
    assert sum(p.n_single_document_queries for p in parts) == 4


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n  \n"])
def test_svmlight_empty_file(text):
    with pytest.raises(DataError, match=r"^train.txt: the file has no documents; expected one line per document"):
        load_svmlight(text_file(text))


def test_svmlight_without_any_feature():
    with pytest.raises(DataError, match=r"^train.txt: no line has a feature"):
        load_svmlight(text_file("1 qid:1\n0 qid:1\n"))


def test_svmlight_missing_file(tmp_path):
    with pytest.raises(DataError, match=r"^nope.txt: no such file"):
        load_svmlight(tmp_path / "nope.txt")


# --------------------------------------------------------------------------- #
# CSV
# --------------------------------------------------------------------------- #
def test_csv_matches_svmlight_on_the_same_data():
    ds = random_dataset()
    buffer = io.StringIO()
    dump_svmlight(ds, buffer)
    from_svm = load_svmlight(text_file(buffer.getvalue()))
    frame = ds.to_frame(query_column="query", relevance_column="rel")
    frame.insert(1, "docid", [f"GX-{i}" for i in range(ds.n_docs)])  # text: not a feature by default
    csv_text = frame.to_csv(index=False)  # pandas writes floats that read back exactly
    from_csv = load_query_csv(text_file(csv_text, "docs.csv"), "query", "rel")
    assert from_csv.feature_names == ds.feature_names
    assert from_csv.name == "docs"
    np.testing.assert_array_equal(from_csv.X, from_svm.X)
    np.testing.assert_array_equal(from_csv.relevance, from_svm.relevance)
    assert from_csv.qid.tolist() == from_svm.qid.tolist()
    assert from_csv.qid.dtype == from_svm.qid.dtype == np.int64


def test_csv_explicit_features_and_string_ids():
    csv_text = "q,rel,a,b,c\nx,1,1,2,3\nx,0,4,5,6\ny,2,7,8,9\ny,1,1,1,1\n"
    ds = load_query_csv(text_file(csv_text, "docs.csv"), "q", "rel", feature_columns=["c", "a"])
    assert ds.feature_names == ["c", "a"]
    np.testing.assert_array_equal(ds.X, [[3, 1], [6, 4], [9, 7], [1, 1]])
    assert ds.qid.tolist() == ["x", "x", "y", "y"]


CSV = "qid,rel,f1,f2\n1,2,0.5,1\n1,0,0.25,2\n2,1,1,1\n2,0,3,3\n"


@pytest.mark.parametrize("edit, kwargs, fragments", [
    (None, dict(query_column="query"), ["docs.csv: there is no query column 'query'", "'qid', 'rel'"]),
    (None, dict(relevance_column="grade"), ["there is no relevance column 'grade'"]),
    (None, dict(feature_columns=["f1", "f9"]), ["there is no feature column 'f9'"]),
    (None, dict(feature_columns=["f1", "rel"]), ["relevance column 'rel' is also chosen as a feature"]),
    (("1,0,0.25,2", "1,high,0.25,2"), {}, ["line 3, column 'rel': relevance 'high' is not a number",
                                          "graded relevance such as 0, 1, 2"]),
    (("1,0,0.25,2", "1,inf,0.25,2"), {}, ["line 3, column 'rel': relevance 'inf' is not a finite number"]),
    (("1,0,0.25,2", "1,,0.25,2"), {}, ["line 3, column 'rel': the relevance is empty"]),
    (("2,1,1,1", ",1,1,1"), {}, ["line 4, column 'qid': the query id is empty"]),
    (("2,1,1,1", "NA,1,1,1"), {}, ["line 4, column 'qid': the query id 'NA' marks a missing value"]),
    (("2,1,1,1", "2,1,1,abc"), {}, ["line 4, column 'f2': the feature value 'abc' is not a number"]),
    (("2,1,1,1", "2,1,inf,1"), {}, ["line 4, column 'f1': the feature value 'inf' is not a finite number"]),
    (("2,1,1,1", "2,1,1"), {}, ["line 4: found 3 fields; expected 4"]),
])
def test_csv_errors_name_file_line_and_column(edit, kwargs, fragments):
    text = CSV if edit is None else CSV.replace(edit[0], edit[1], 1)
    args = dict(query_column="qid", relevance_column="rel")
    args.update(kwargs)
    with pytest.raises(DataError) as info:
        load_query_csv(text_file(text, "docs.csv"), **args)
    message = str(info.value)
    assert message.startswith("docs.csv"), message
    for fragment in fragments:
        assert fragment in message, message


def test_csv_missing_feature_values_are_nan_and_counted():
    text = "qid,rel,f1,f2\n1,2,0.5,\n1,0,NA,2\n2,1,1,1\n2,0,?,3\n"
    ds = load_query_csv(text_file(text, "docs.csv"), "qid", "rel")
    assert ds.n_missing_features == 3 and ds.n_docs == 4  # no document dropped
    np.testing.assert_array_equal(np.isnan(ds.X), [[False, True], [True, False], [False, False], [True, False]])
    np.testing.assert_array_equal(ds.X[[0, 1, 2, 3], [0, 1, 0, 1]], [0.5, 2, 1, 3])
    # the dataset itself: NaN is a missing value, infinity an error
    assert QueryDataset(ds.X, ds.relevance, ds.qid).n_missing_features == 3
    with pytest.raises(DataError, match=r"row 1, column 'f2': the feature value inf is not a finite number"):
        QueryDataset(np.array([[0.0, np.inf], [1.0, 2.0]]), [0, 1], [1, 1])


def test_csv_first_bad_cell_in_file_order():
    text = "qid,rel,f1,f2\n1,2,0.5,oops\n1,0,bad,2\n2,1,1,1\n2,0,2,2\n2,0,3,3\n"
    with pytest.raises(DataError, match=r"^docs.csv, line 2, column 'f2': the feature value 'oops'"):
        load_query_csv(text_file(text, "docs.csv"), "qid", "rel")


def test_csv_without_numeric_feature():
    text = "qid,rel,url\n1,2,a.com\n1,0,b.org\n"
    with pytest.raises(DataError, match="no column besides 'qid' and 'rel' holds numbers"):
        load_query_csv(text_file(text, "docs.csv"), "qid", "rel")


# --------------------------------------------------------------------------- #
# split_by_query
# --------------------------------------------------------------------------- #
def test_split_keeps_queries_whole_disjoint_and_complete():
    ds = make_ltr_dataset(n_queries=50, seed=3)
    parts = split_by_query(ds, (0.6, 0.2, 0.2), seed=1)
    assert [p.n_queries for p in parts] == [30, 10, 10]
    assert [p.name for p in parts] == ["synthetic LTR: train", "synthetic LTR: vali", "synthetic LTR: test"]
    ids = [set(p.query_ids.tolist()) for p in parts]
    assert not (ids[0] & ids[1]) and not (ids[0] & ids[2]) and not (ids[1] & ids[2])
    assert set.union(*ids) == set(ds.query_ids.tolist())
    assert sum(p.n_docs for p in parts) == ds.n_docs
    sizes = dict(zip(ds.query_ids.tolist(), ds.query_sizes.tolist()))
    for part in parts:  # every query arrives with all its documents, rows unchanged
        for q, n in zip(part.query_ids.tolist(), part.query_sizes.tolist()):
            assert n == sizes[q]
        np.testing.assert_array_equal(part.X, ds.X[np.isin(ds.qid, part.query_ids)])


def test_split_is_deterministic_per_seed():
    ds = make_ltr_dataset(n_queries=40, seed=0)
    a = split_by_query(ds, seed=5)
    b = split_by_query(ds, seed=5)
    c = split_by_query(ds, seed=6)
    assert [p.query_ids.tolist() for p in a] == [p.query_ids.tolist() for p in b]
    assert [p.query_ids.tolist() for p in a] != [p.query_ids.tolist() for p in c]


@pytest.mark.parametrize("fractions, fragment", [
    ((0.5, 0.6), "summing to 1"),
    ((1.0, 0.0), "positive"),
    ((1.0,), "2 or more"),
])
def test_split_rejects_bad_fractions(fractions, fragment):
    with pytest.raises(DataError, match=fragment):
        split_by_query(make_ltr_dataset(n_queries=10), fractions)


def test_split_needs_a_query_per_part():
    ds = make_ltr_dataset(n_queries=2)
    with pytest.raises(DataError, match="there are 2 queries, too few to split into 3 parts"):
        split_by_query(ds)


# --------------------------------------------------------------------------- #
# make_ltr_dataset
# --------------------------------------------------------------------------- #
def test_make_ltr_dataset_shape_and_grades():
    ds = make_ltr_dataset(n_queries=200, docs_per_query=(5, 30), n_features=40, n_informative=8, seed=0)
    assert ds.n_queries == 200 and ds.n_features == 40
    sizes = ds.query_sizes
    assert sizes.min() >= 5 and sizes.max() <= 30 and ds.n_docs == sizes.sum()
    assert set(np.unique(ds.relevance)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    counts = np.bincount(ds.relevance.astype(int), minlength=5)
    assert (np.diff(counts) < 0).all()          # skewed: most 0, fewest 4
    assert counts[0] > 0.4 * ds.n_docs and counts[4] < 0.06 * ds.n_docs
    grades_per_query = pd.Series(ds.relevance).groupby(ds.query_index).nunique()
    assert grades_per_query.min() >= 2
    # each query's documents are contiguous and queries numbered 1..Q
    assert ds.qid.tolist() == sorted(ds.qid.tolist())
    assert ds.query_ids.tolist() == list(range(1, 201))


def test_make_ltr_dataset_small_queries_still_have_two_grades():
    ds = make_ltr_dataset(n_queries=300, docs_per_query=2, n_features=3, n_informative=1, seed=1)
    assert (ds.query_sizes == 2).all()
    spread = pd.Series(ds.relevance).groupby(ds.query_index).agg(lambda g: g.max() - g.min())
    assert spread.min() >= 1


def test_make_ltr_dataset_is_deterministic_per_seed():
    a, b, c = make_ltr_dataset(seed=7), make_ltr_dataset(seed=7), make_ltr_dataset(seed=8)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.relevance, b.relevance)
    assert a.n_docs != c.n_docs or not np.array_equal(a.X, c.X)


def _mean_within_query_spearman(ds, j):
    values = []
    for code in range(ds.n_queries):
        rows = ds.query_index == code
        rho = spearmanr(ds.X[rows, j], ds.relevance[rows])[0]
        if np.isfinite(rho):
            values.append(rho)
    return float(np.mean(values))


def test_make_ltr_dataset_informative_features_drive_relevance():
    ds = make_ltr_dataset(n_queries=200, n_features=40, n_informative=8, seed=0)
    strongest = _mean_within_query_spearman(ds, 0)
    noise = [_mean_within_query_spearman(ds, j) for j in (20, 39)]
    assert strongest > 0.3
    assert max(abs(r) for r in noise) < 0.08
    assert strongest > max(noise) + 0.25


def test_make_ltr_dataset_has_query_offsets():
    # The per-query mean of a noise feature varies across queries by about
    # query_shift (sd 1), far more than sampling noise of a mean of ~17 values.
    ds = make_ltr_dataset(n_queries=200, seed=0)
    means = pd.Series(ds.X[:, 30]).groupby(ds.query_index).mean()
    assert means.std() > 0.7
    flat = make_ltr_dataset(n_queries=200, seed=0, query_shift=0.0)
    assert pd.Series(flat.X[:, 30]).groupby(flat.query_index).mean().std() < 0.4


@pytest.mark.parametrize("kwargs", [
    dict(docs_per_query=(1, 5)), dict(docs_per_query=(6, 5)), dict(n_informative=0),
    dict(n_informative=50, n_features=40), dict(n_levels=1), dict(noise=-1), dict(n_queries=0),
])
def test_make_ltr_dataset_rejects_bad_parameters(kwargs):
    with pytest.raises(ValueError):
        make_ltr_dataset(**kwargs)


def test_make_ltr_dataset_benchmark_size_runs():
    ds = make_ltr_dataset(n_queries=200, docs_per_query=15, n_features=300, seed=0)
    assert (ds.n_docs, ds.n_features) == (3000, 300)


# --------------------------------------------------------------------------- #
# samples
# --------------------------------------------------------------------------- #
def test_ltr_sample_loads_with_about_200_queries():
    info = sample_info("ltr_synthetic")
    assert info["script"] == "scripts/sample_data/build_ltr_synthetic.py"
    assert (REPO / info["script"]).is_file()  # in the repository, not the package
    splits = load_ltr_sample()
    assert list(splits) == ["train", "vali", "test"]
    assert [s.n_queries for s in splits.values()] == [120, 40, 40]
    ids = [set(s.query_ids.tolist()) for s in splits.values()]
    assert len(set.union(*ids)) == 200
    for split in splits.values():
        assert split.n_features == 40
        assert split.description == info["description"]
        assert set(np.unique(split.relevance)) <= {0.0, 1.0, 2.0, 3.0, 4.0}
    total = sum((SAMPLE_DIR / f).stat().st_size for f in info["splits"].values())
    assert total < 1.5e6


def test_ltr_sample_files_are_what_the_script_builds(tmp_path, capsys):
    spec = importlib.util.spec_from_file_location("build_ltr_synthetic", BUILDERS / "build_ltr_synthetic.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(tmp_path)
    for name in ("ltr_synthetic/train.txt", "ltr_synthetic/vali.txt", "ltr_synthetic/test.txt", "ltr_synthetic.json"):
        assert (tmp_path / name).read_bytes() == (SAMPLE_DIR / name).read_bytes(), name




# -- group files and declared widths (LightGBM's .query, XGBoost's .group) -------------------

def test_svmlight_without_qid_reads_its_queries_from_a_group_file(tmp_path):
    from sklearn.datasets import load_svmlight_file

    from rankviz.datasets.svmlight import load_svmlight, read_query_file

    data = tmp_path / "train.txt"
    data.write_text("# exported by a learning-to-rank tool\n2 1:0.5 3:1\n0 2:0.25\n1 1:1\n"
                    "0 3:2 # a comment\n1 2:1\n")
    groups = tmp_path / "train.txt.query"
    groups.write_text("3\n\n2\n")
    assert read_query_file(groups).tolist() == [3, 2]
    dataset = load_svmlight(data, query_file=groups, n_features=4)
    assert dataset.qid.tolist() == [1, 1, 1, 2, 2]
    assert dataset.relevance.tolist() == [2, 0, 1, 0, 1]
    # The same features as scikit-learn's reader of the same file and width.
    X_sklearn, y_sklearn = load_svmlight_file(str(data), n_features=4)
    assert np.array_equal(np.asarray(dataset.X, dtype=float), X_sklearn.toarray())
    assert np.array_equal(dataset.relevance, y_sklearn)


def test_group_files_and_widths_that_do_not_fit_are_named(tmp_path):
    from rankviz.datasets.svmlight import load_svmlight, read_query_file
    from rankviz.exceptions import DataError

    data = tmp_path / "test.txt"
    data.write_text("2 1:0.5 5:1\n0 2:0.25\n1 1:1\n")
    with pytest.raises(DataError, match=r"^test\.txt, line 1: 'qid:' is missing: .*; or give a group file"):
        load_svmlight(data)
    sizes = tmp_path / "test.group"
    sizes.write_text("2\n2\n")
    with pytest.raises(DataError, match=r"^test\.txt: the group file's query sizes add up to 4 documents but "
                                        r"the file has 3"):
        load_svmlight(data, query_file=sizes)
    sizes.write_text("3\nmany\n")
    with pytest.raises(DataError, match=r"^test\.group, line 2: 'many' is not a number of documents"):
        read_query_file(sizes)
    sizes.write_text("3\n")
    with pytest.raises(DataError, match=r"^test\.txt, line 1: the feature index 5 is above n_features=4"):
        load_svmlight(data, query_file=sizes, n_features=4)
    assert load_svmlight(data, query_file=sizes, n_features=7).X.shape == (3, 7)
