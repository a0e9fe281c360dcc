"""Tests for rankviz.datasets.label_ranking: dataset validation, loaders and the sample registry."""

import io

import numpy as np
import pandas as pd
import pytest

from rankviz.datasets import reading
from rankviz._validation import validate_rank_matrix
from rankviz.datasets.label_ranking import RankingDataset, load_benchmark, load_csv
from rankviz.datasets.reading import detect_encoding, encoding_name, read_csv_header
from rankviz.exceptions import DataError



def as_file(text, name="t.csv"):
    """An in-memory upload, like Streamlit's UploadedFile (a BytesIO with a name)."""
    buffer = io.BytesIO(text.encode("utf-8"))
    buffer.name = name
    return buffer


def make_dataset(**overrides):
    kwargs = dict(
        X=pd.DataFrame({"a": [1.0, 2.0, 3.0], "c": ["x", "y", "x"]}),
        Y=np.array([[1, 2, 3], [2, 1, 3], [1.5, 1.5, np.nan]], dtype=float),
        label_names=("p", "q", "r"),
        name="toy",
    )
    kwargs.update(overrides)
    return RankingDataset(**kwargs)


# --------------------------------------------------------------------------- #
# validate_rank_matrix
# --------------------------------------------------------------------------- #
def test_validate_accepts_permutations_ties_and_missing():
    Y = np.array([[1, 2, 3], [3, 1, 2], [1.5, 1.5, 3], [2, 2, 2], [np.nan, 1, 2], [1.5, np.nan, 1.5]])
    out = validate_rank_matrix(Y, ["a", "b", "c"])
    assert out.dtype == float
    np.testing.assert_array_equal(out, Y)


# Rows that were refused before issue 16 §1, and what they are read as now: only
# the order of the present labels is kept (average positions 1..m, ties as the
# average of the positions they fill).
@pytest.mark.parametrize("row, positions, convention", [
    ([1, np.nan, 3], [1, np.nan, 2], "other positions"),             # a gap
    ([0, 1, np.nan], [1, 2, np.nan], "other positions"),             # from 0
    ([2, 3, 4], [1, 2, 3], "other positions"),                       # shifted
    ([1, 1, 2], [1.5, 1.5, 3], "dense ranks"),                       # dense tie
    ([1.5, 1.5, 4], [1.5, 1.5, 3], "other positions"),
    ([1, 2.25, 3], [1, 2, 3], "other positions"),                    # any numbers
    ([1, 1, 3], [1.5, 1.5, 3], "competition ranks"),                 # competition tie
    ([1, 3, 3], [1, 2.5, 2.5], "other positions"),                   # neither (1, 2, 2 would be both)
    ([2, 3, 3], [1, 2.5, 2.5], "other positions"),
    ([2, 2.5, 2.5], [1, 2.5, 2.5], "other positions"),
    ([1, 1, 1], [2, 2, 2], "dense ranks"),                           # all tied, dense or competition
    ([4, np.nan, np.nan], [1, np.nan, np.nan], "other positions"),   # a lone label (estimators only)
    ([-5, 10, 1e300], [1, 2, 3], "other positions"),
])
def test_validate_reads_any_finite_positions_keeping_the_order(row, positions, convention):
    from rankviz.datasets.rank_conventions import rank_convention

    Y = np.array([[1, 2, 3], row], dtype=float)
    out = validate_rank_matrix(Y, ["a", "b", "c"], allow_short_rows=True)
    np.testing.assert_array_equal(out, [[1, 2, 3], positions])
    found = rank_convention(Y)
    assert found.kind == convention and found.n_converted == 1
    assert found.examples[0].place == "row 2"


@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_validate_refuses_an_infinite_position_naming_row_and_column(value):
    Y = np.array([[1, 2, 3], [1, value, 2]], dtype=float)
    with pytest.raises(DataError) as info:
        validate_rank_matrix(Y, ["a", "b", "c"], source="iris.csv", line_numbers=[8, 9])
    shown = format(value)
    assert str(info.value) == (
        f"iris.csv, line 9, column 'b': label 'b' has the infinite position {shown}; expected finite numbers "
        f"(lower = preferred, equal = tied), or an empty cell for a missing label")


def test_validate_refuses_text():
    with pytest.raises(DataError, match=r"^f\.csv: the rank matrix is not numeric .*; expected numbers or NaN"):
        validate_rank_matrix([["1", "x"]], ["a", "b"], "f.csv")


def test_validate_rejects_row_with_fewer_than_two_labels():
    Y = np.array([[1, 2, 3], [np.nan, 1, np.nan]], dtype=float)
    with pytest.raises(DataError, match=r"row 2: only 1 of the 3 labels has a rank position"):
        validate_rank_matrix(Y, ["a", "b", "c"])


def test_validate_rejects_wrong_width():
    with pytest.raises(DataError, match=r"3 columns but there are 2 label names"):
        validate_rank_matrix(np.ones((2, 3)), ["a", "b"])


# --------------------------------------------------------------------------- #
# RankingDataset
# --------------------------------------------------------------------------- #
def test_dataset_properties_and_to_frame():
    ds = make_dataset()
    assert ds.n_samples == 3 and ds.n_labels == 3
    assert ds.feature_names == ["a", "c"]
    assert ds.nominal_features == ["c"]
    assert ds.label_names == ("p", "q", "r")
    frame = ds.to_frame()
    assert list(frame.columns) == ["a", "c", "p", "q", "r"]
    np.testing.assert_array_equal(frame[["p", "q", "r"]].to_numpy(), ds.Y)
    assert frame["c"].tolist() == ["x", "y", "x"]


def test_dataset_bool_and_category_are_nominal_int_is_numeric():
    X = pd.DataFrame({"i": [1, 2], "b": [True, False], "k": pd.Categorical(["u", "v"])})
    ds = RankingDataset(X, np.array([[1.0, 2.0], [2.0, 1.0]]), ("p", "q"))
    assert ds.nominal_features == ["b", "k"]


def test_dataset_is_frozen():
    ds = make_dataset()
    with pytest.raises(AttributeError):
        ds.name = "other"


@pytest.mark.parametrize(
    "overrides, pattern",
    [
        ({"Y": np.array([[1.0, 2, 3], [2, 1, 3]])}, r"^toy: the feature table has 3 rows but the rank matrix has 2"),
        ({"label_names": ("p", "q")}, r"^toy: the rank matrix has 3 columns but there are 2 label names"),
        ({"label_names": ("p", "q", "p")}, r"^toy: the label name 'p' appears twice"),
        ({"X": pd.DataFrame(index=range(3))}, r"^toy: there are no feature columns"),
        ({"X": pd.DataFrame([[1.0, 2.0]] * 3, columns=["a", "a"])}, r"^toy: the feature name 'a' appears twice"),
        ({"X": pd.DataFrame({"a": [1.0, np.inf, 3.0]})},
         r"^toy, row 2, column 'a': the feature value inf is not a finite number; expected a finite number, "
         r"or an empty cell for a missing value"),
        ({"X": pd.DataFrame({"p": [1.0, 2.0, 3.0]})}, r"'p' is both a feature name and a label name"),
        ({"Y": np.array([[1.0, 2, 3], [2, 1, 3], [1, -np.inf, 1]])},
         r"^toy, row 3, column 'q': label 'q' has the infinite position -inf"),
        ({"Y": np.array([[1.0, 2, 3], [2, 1, 3], [1, np.nan, np.nan]])},
         r"^toy, row 3: only 1 of the 3 labels has a rank position"),
    ],
)
def test_dataset_validation_errors(overrides, pattern):
    with pytest.raises(DataError, match=pattern):
        make_dataset(**overrides)


def test_dataset_converts_y_and_records_the_convention():
    ds = make_dataset(Y=np.array([[1.0, 2, 3], [1, 2, 2], [10, np.nan, 30]]))
    np.testing.assert_array_equal(ds.Y, [[1, 2, 3], [1, 2.5, 2.5], [1, np.nan, 2]])
    assert ds.rank_convention.kind == "other positions" and ds.rank_convention.n_converted == 2
    assert ds.rank_convention.text == (
        "Rank positions read as positions with gaps or on another scale (dense ranks, row 2: 1, 2, 2 read as "
        "1, 2.5, 2.5; row 3: 10, missing, 30 read as 1, missing, 2); 2 of 3 rows converted to average "
        "positions, which keep only the order of the labels.")
    plain = make_dataset()
    assert plain.rank_convention.kind == "average positions" and not plain.rank_convention.converted


def test_dataset_needs_two_rows_and_two_labels():
    with pytest.raises(DataError, match=r"^There is 1 example; expected at least 2"):
        RankingDataset(pd.DataFrame({"a": [1.0]}), np.array([[1.0, 2.0]]), ("p", "q"))
    with pytest.raises(DataError, match=r"^There is 1 label; expected at least 2"):
        RankingDataset(pd.DataFrame({"a": [1.0, 2.0]}), np.array([[1.0], [1.0]]), ("p",))


# --------------------------------------------------------------------------- #
# load_benchmark
# --------------------------------------------------------------------------- #
BENCH_TEXT = "3,2,3\n0.5,-1,1,2,3\n1.5,2,3,1,2\n-0.25,0,2,3,1\n"


def test_benchmark_round_trip():
    ds = load_benchmark(as_file(BENCH_TEXT, "small.csv"))
    assert ds.name == "small"
    assert ds.feature_names == ["x1", "x2"]
    assert ds.label_names == ("label_1", "label_2", "label_3")
    np.testing.assert_array_equal(ds.X.to_numpy(), [[0.5, -1], [1.5, 2], [-0.25, 0]])
    np.testing.assert_array_equal(ds.Y, [[1, 2, 3], [3, 1, 2], [2, 3, 1]])
    assert all(ds.X[c].dtype == float for c in ds.X.columns)
    # and back: features then ranks, same numbers
    back = ds.to_frame().to_numpy()
    lines = [",".join(format(v, "g") for v in row) for row in back]
    again = load_benchmark(io.StringIO("3,2,3\n" + "\n".join(lines)), label_names=["a", "b", "c"])
    np.testing.assert_array_equal(again.Y, ds.Y)
    assert again.label_names == ("a", "b", "c")


def test_benchmark_accepts_crlf_bom_and_trailing_blank_lines():
    text = "\ufeff" + BENCH_TEXT.replace("\n", "\r\n") + "\r\n\r\n"
    ds = load_benchmark(io.BytesIO(text.encode("utf-8")))
    assert ds.Y.shape == (3, 3)


def test_benchmark_iris(benchmark_data):
    ds = load_benchmark(benchmark_data / "iris.csv", label_names=["setosa", "versicolor", "virginica"])
    assert ds.name == "iris"
    assert ds.X.shape == (150, 4)
    assert ds.Y.shape == (150, 3)
    assert ds.label_names == ("setosa", "versicolor", "virginica")
    np.testing.assert_array_equal(np.sort(ds.Y, axis=1), np.tile([1.0, 2.0, 3.0], (150, 1)))
    np.testing.assert_array_equal(ds.Y[0], [1, 2, 3])
    np.testing.assert_allclose(ds.X.iloc[0].to_numpy(), [-0.55556, 0.25, -0.86441, -0.91667])


def test_benchmark_calhousing_shape(benchmark_data):
    ds = load_benchmark(benchmark_data / "calhousing.csv")
    assert ds.X.shape == (20640, 4)
    assert ds.Y.shape == (20640, 4)
    assert not np.isnan(ds.Y).any()


@pytest.mark.parametrize(
    "text, pattern",
    [
        ("", r"^t\.csv: the file is empty"),
        ("3,2\n1,2,3\n", r"^t\.csv, line 1: the header '3,2' has 2 fields; expected three positive whole numbers"),
        ("3,x,3\n", r"^t\.csv, line 1: the header '3,x,3' has 'x'"),
        ("3,0,3\n", r"^t\.csv, line 1: the header '3,0,3' has '0'"),
        ("3,2,3\n0.5,-1,1,2,3\n1.5,2,3,1\n-0.25,0,2,3,1\n",
         r"^t\.csv, line 3: found 4 fields; expected 5 numbers separated by ',' \(2 features \+ 3 ranks"),
        ("3,2,3\n0.5,-1,1,2,3\n\n-0.25,0,2,3,1\n", r"^t\.csv, line 3: the line is empty; expected 5"),
        ("3,2,3\n0.5,-1,1,2,3\n1.5,abc,3,1,2\n-0.25,0,2,3,1\n",
         r"^t\.csv, line 3, column 2 \(feature x2\): 'abc' is not a number"),
        ("3,2,3\n0.5,-1,1,2,3\n1.5,2,3,1,2\n-0.25,NA,2,3,1\n",
         r"^t\.csv, line 4, column 2 \(feature x2\): 'NA' is not a number; expected a number in every cell "
         r"\(leave the cell empty for a missing value\)"),
        ("3,2,3\n0.5,-1,1,2,3\n1.5,2,3,1,2\n-inf,0,1,3,2\n",
         r"^t\.csv, line 4, column 1 \(feature x1\): the feature value -inf is not a finite number"),
        ("3,2,3\n0.5,-1,1,2,3\n1.5,2,3,1,2\n-0.25,0,3,inf,1\n",
         r"^t\.csv, line 4, column 4 \(rank of 'label_2'\): label 'label_2' has the infinite position inf; "
         r"expected finite numbers"),
        ("2,1,3\n0.5,1,2,\n1.5,2,1,\n",
         r"^t\.csv, column 4 \(rank of 'label_3'\): the label 'label_3' has no rank position in any row"),
        ("1,2,3\n0.5,-1,1,2,3\n", r"^t\.csv, line 1: the header says n_samples = 1; expected at least 2"),
        ("2,2,1\n0.5,-1,1\n0.5,-1,1\n", r"^t\.csv, line 1: the header says n_labels = 1; expected at least 2"),
        ("4,2,3\n0.5,-1,1,2,3\n1.5,2,3,1,2\n-0.25,0,2,3,1\n",
         r"^t\.csv: the header says 4 data lines but the file has 3"),
        ("3,2,3\n0.5,-1,1,2,3\n1.5,2,3,1,2\n-0.25,0,2,,\n",
         r"^t\.csv, line 4: only 1 of the 3 labels has a rank position; expected at least 2"),
        ("3,2,3\n0.5,inf,1,2,3\n1.5,2,3,1,2\n-0.25,0,2,3,1\n",
         r"^t\.csv, line 2, column 2 \(feature x2\): the feature value inf is not a finite number"),
    ],
)
def test_benchmark_errors(text, pattern):
    with pytest.raises(DataError, match=pattern):
        load_benchmark(as_file(text))


def test_benchmark_reads_gaps_and_dense_ties_and_names_the_convention():
    text = "3,2,3\n0.5,-1,1,2,3\n1.5,2,3,1,2\n-0.25,0,3,,1\n"
    ds = load_benchmark(as_file(text))
    np.testing.assert_array_equal(ds.Y, [[1, 2, 3], [3, 1, 2], [2, np.nan, 1]])
    assert "line 4: 3, missing, 1 read as 2, missing, 1" in ds.rank_convention.text
    dense = load_benchmark(as_file("3,1,3\n0.5,1,2,2\n1.5,2,1,2\n-0.25,1,2,3\n"))
    np.testing.assert_array_equal(dense.Y, [[1, 2.5, 2.5], [2.5, 1, 2.5], [1, 2, 3]])
    assert dense.rank_convention.kind == "dense ranks" and dense.rank_convention.also == ("competition ranks",)
    assert dense.rank_convention.text.startswith(
        "Rank positions read as dense or competition ranks (tied labels share one position; line 2: 1, 2, 2 "
        "read as 1, 2.5, 2.5); 2 of 3 rows converted")


def test_benchmark_wrong_number_of_label_names():
    with pytest.raises(DataError, match=r"2 label names were given but the header says 3 labels"):
        load_benchmark(as_file(BENCH_TEXT), label_names=["a", "b"])


# --------------------------------------------------------------------------- #
# load_csv: ranks
# --------------------------------------------------------------------------- #
RANKS_CSV = "age,colour,a,b,c\n30,red,1,2,3\n41,blue,3,1,2\n25,red,1.5,1.5,3\n52,green,2,,1\n"


def test_csv_ranks_numeric_and_nominal_features():
    ds = load_csv(as_file(RANKS_CSV, "people.csv"), ["age", "colour"], "ranks", ["a", "b", "c"])
    assert ds.name == "people"
    assert ds.X["age"].dtype == float
    assert ds.X["age"].tolist() == [30.0, 41.0, 25.0, 52.0]
    assert not pd.api.types.is_numeric_dtype(ds.X["colour"])
    assert ds.X["colour"].tolist() == ["red", "blue", "red", "green"]
    assert ds.nominal_features == ["colour"]
    assert ds.label_names == ("a", "b", "c")
    np.testing.assert_array_equal(ds.Y, [[1, 2, 3], [3, 1, 2], [1.5, 1.5, 3], [2, np.nan, 1]])


def test_csv_accepts_path_text_buffer_bom_and_spaces(tmp_path):
    path = tmp_path / "f.csv"
    path.write_bytes(("\ufeff" + RANKS_CSV.replace(",", ", ")).encode("utf-8"))
    for source in (path, str(path), io.StringIO(RANKS_CSV)):
        ds = load_csv(source, ["age", "colour"], "ranks", ["a", "b", "c"], name="n")
        assert ds.name == "n"
        assert ds.X["colour"].tolist() == ["red", "blue", "red", "green"]
        assert ds.Y[1].tolist() == [3, 1, 2]


def test_csv_header_then_load_same_buffer():
    upload = as_file(RANKS_CSV)
    assert read_csv_header(upload) == ["age", "colour", "a", "b", "c"]
    ds = load_csv(upload, ["age"], "ranks", ["a", "b", "c"])
    assert ds.n_samples == 4


def test_csv_quoted_fields_keep_line_numbers():
    text = 'f,a,b\n"x, y",1,2\n"multi\nline",2,1\n"z",1,2,9\n'
    with pytest.raises(DataError, match=r"^t\.csv, line 5: found 4 fields; expected 3"):
        load_csv(as_file(text), ["f"], "ranks", ["a", "b"])
    ds = load_csv(as_file(text.replace(",9", "")), ["f"], "ranks", ["a", "b"])
    assert ds.X["f"].tolist() == ["x, y", "multi\nline", "z"]


def test_csv_blank_lines_are_skipped_but_counted():
    text = "f,a,b\n1,1,2\n\n2,2,1\n3,1,inf\n"
    with pytest.raises(DataError, match=r"^t\.csv, line 5, column 'b': 'inf' is not a finite number"):
        load_csv(as_file(text), ["f"], "ranks", ["a", "b"])
    ds = load_csv(as_file(text.replace("inf", "1")), ["f"], "ranks", ["a", "b"])
    np.testing.assert_array_equal(ds.Y, [[1, 2], [2, 1], [1.5, 1.5]])
    assert "line 5: 1, 1 read as 1.5, 1.5" in ds.rank_convention.text


def test_csv_round_trip_through_to_frame():
    ds = load_csv(as_file(RANKS_CSV), ["age", "colour"], "ranks", ["a", "b", "c"])
    text = ds.to_frame().to_csv(index=False)
    again = load_csv(io.StringIO(text), ds.feature_names, "ranks", list(ds.label_names))
    np.testing.assert_array_equal(again.Y, ds.Y)
    pd.testing.assert_frame_equal(again.X, ds.X)


# --------------------------------------------------------------------------- #
# load_csv: scores and orderings
# --------------------------------------------------------------------------- #
def test_csv_scores_to_ranks_with_ties_averaged():
    text = ("f,a,b,c,d\n"
            "1,0.9,0.1,0.5,0.3\n"   # a > c > d > b      -> a=1, b=4, c=2, d=3
            "2,5,7,7,1\n"           # b = c > a > d      -> a=3, b=1.5, c=1.5, d=4
            "3,2,2,2,2\n"           # all tied           -> 2.5 each
            "4,1,,3,\n")            # c > a, b d missing -> a=2, c=1
    ds = load_csv(as_file(text), ["f"], "scores", ["a", "b", "c", "d"])
    expected = [[1, 4, 2, 3], [3, 1.5, 1.5, 4], [2.5, 2.5, 2.5, 2.5], [2, np.nan, 1, np.nan]]
    np.testing.assert_array_equal(ds.Y, expected)


def test_csv_orderings_to_positions():
    text = ("f,order\n"
            "1,b>a>c\n"
            "2,a=b>c\n"
            "3, c > a \n"
            "4,c>a=b=d\n")
    ds = load_csv(as_file(text), ["f"], "ordering", ["order"])
    assert ds.label_names == ("b", "a", "c", "d")  # first appearance
    expected = [
        [1, 2, 3, np.nan],
        [1.5, 1.5, 3, np.nan],
        [np.nan, 2, 1, np.nan],
        [3, 3, 1, 3],
    ]
    np.testing.assert_array_equal(ds.Y, expected)


def test_csv_orderings_with_given_labels():
    text = "f,order\n1,b>a>c\n2,a=b>c\n"
    ds = load_csv(as_file(text), ["f"], "ordering", "order", labels=["a", "b", "c", "d"])
    assert ds.label_names == ("a", "b", "c", "d")
    np.testing.assert_array_equal(ds.Y, [[2, 1, 3, np.nan], [1.5, 1.5, 3, np.nan]])


@pytest.mark.parametrize(
    "cell, pattern",
    [
        ("", r"^t\.csv, line 3, column 'order': the ordering is empty"),
        ("a>>b", r"^t\.csv, line 3, column 'order': a label name is empty in the ordering 'a>>b'"),
        ("a=>b", r"^t\.csv, line 3, column 'order': a label name is empty in the ordering 'a=>b'"),
        ("a>b>a", r"^t\.csv, line 3, column 'order': the label 'a' appears twice in the ordering 'a>b>a'"),
        ("b", r"^t\.csv, line 3: only 1 of the 3 labels has a place in the ordering"),
    ],
)
def test_csv_ordering_errors(cell, pattern):
    text = f"f,order\n1,a>b>c\n2,{cell}\n"
    with pytest.raises(DataError, match=pattern):
        load_csv(as_file(text), ["f"], "ordering", ["order"])


def test_csv_ordering_unknown_label():
    text = "f,order\n1,a>b\n2,b>z>a\n"
    with pytest.raises(DataError, match=r"^t\.csv, line 3, column 'order': the label 'z' in the ordering "
                                        r"'b>z>a' is not one of the given labels; expected one of 'a', 'b'"):
        load_csv(as_file(text), ["f"], "ordering", ["order"], labels=["a", "b"])


def test_csv_ordering_single_label_overall():
    with pytest.raises(DataError, match=r"column 'order': the orderings name 1 label \('a'\)"):
        load_csv(as_file("f,order\n1,a\n2,a\n"), ["f"], "ordering", ["order"])


# --------------------------------------------------------------------------- #
# load_csv: malformed files
# --------------------------------------------------------------------------- #
@pytest.mark.parametrize(
    "text, pattern",
    [
        ("", r"^t\.csv: the file is empty"),
        ("\n\n", r"^t\.csv: the file is empty"),
        ("\nf,a,b\n1,1,2\n", r"^t\.csv, line 1: the line is empty; expected the header"),
        ("f,a,b\n", r"^t\.csv: the file has a header but no data rows"),
        ("f,a,b\n\n", r"^t\.csv: the file has a header but no data rows"),
        ("f,a,b\n1,1,2\n", r"^t\.csv: the file has only 1 data row \(line 2\); expected at least 2"),
        ("f,a,a\n1,1,2\n2,2,1\n",
         r"^t\.csv, line 1: the column name 'a' appears twice in the header \(columns 2 and 3\)"),
        ("f,a,b\n1,1,2\n2,2,1,5\n3,1,2\n", r"^t\.csv, line 3: found 4 fields; expected 3"),
        ("f,a,b\n1,1,2\n2,2\n3,1,2\n", r"^t\.csv, line 3: found 2 fields; expected 3"),
        ("f,a,b\n1,1,2\n-inf,2,1\n", r"^t\.csv, line 3, column 'f': the feature value '-inf' is not a finite"),
        ("f,a,b\n1,1,inf\n2,2,1\n", r"^t\.csv, line 2, column 'b': 'inf' is not a finite number \(an infinite "
                                     r"position\); expected a rank position"),
        ("f,a,b\n1,1,2\n2,,\n3,2,1\n", r"^t\.csv, line 3: none of the 2 labels has a rank position"),
        ("f,a,b\n1,1,\n2,2,\n", r"^t\.csv, column 'b': the label 'b' has no rank position in any row"),
        ('f,a,b\n1,1,2\n"2,2,1\n3,1,2\n', r"^t\.csv, line 3: a quote '\"' opened on this line is never closed "
                                           r"\(the quoted field runs on to line 4\)"),
        ("f,a,b\n1,1,2\n2,x,1\n", r"^t\.csv, line 3, column 'a': 'x' is not a number; expected a rank position"),
        ("f,a,b\n1,1,2\n2,,1\n", r"^t\.csv, line 3: only 1 of the 2 labels has a rank position"),
    ],
)
def test_csv_ranks_errors(text, pattern):
    with pytest.raises(DataError, match=pattern):
        load_csv(as_file(text), ["f"], "ranks", ["a", "b"])


def test_csv_score_errors():
    with pytest.raises(DataError, match=r"^t\.csv, line 4, column 'b': 'high' is not a number; expected a score"):
        load_csv(as_file("f,a,b\n1,1,2\n2,3,1\n3,1,high\n"), ["f"], "scores", ["a", "b"])
    with pytest.raises(DataError, match=r"^t\.csv, line 2: only 1 of the 2 labels has a score"):
        load_csv(as_file("f,a,b\n1,1,\n2,3,1\n"), ["f"], "scores", ["a", "b"])


def test_csv_column_selection_errors():
    upload = as_file("f,g,a,b\n1,1,1,2\n2,2,2,1\n")
    with pytest.raises(DataError, match=r"^t\.csv: there is no feature column 'h'; expected one of the columns of "
                                        r"the header: 'f', 'g', 'a', 'b'"):
        load_csv(upload, ["h"], "ranks", ["a", "b"])
    with pytest.raises(DataError, match=r"^t\.csv: there is no target column 'c'"):
        load_csv(upload, ["f"], "ranks", ["a", "c"])
    with pytest.raises(DataError, match=r"^t\.csv, column 'a': the column is chosen both as a feature and as a target"):
        load_csv(upload, ["f", "a"], "ranks", ["a", "b"])
    with pytest.raises(DataError, match=r"^t\.csv: 1 rank column was chosen \('a'\); expected at least 2 labels"):
        load_csv(upload, ["f"], "ranks", ["a"])
    with pytest.raises(DataError, match=r"^t\.csv: 2 ordering columns were chosen"):
        load_csv(upload, ["f"], "ordering", ["a", "b"])
    with pytest.raises(DataError, match=r"^t\.csv: no feature columns were chosen"):
        load_csv(upload, [], "ranks", ["a", "b"])
    with pytest.raises(DataError, match=r"^The target kind 'rank' is unknown; expected one of 'ranks', 'scores', 'ordering'"):
        load_csv(upload, ["f"], "rank", ["a", "b"])


def test_csv_semicolon_and_tab_separators_are_found_on_line_1():
    for sep in (";", "\t"):
        text = f"f{sep}g{sep}a{sep}b\n1,5{sep}x{sep}1{sep}2\n-2{sep}y,z{sep}2{sep}1\n"
        ds = load_csv(as_file(text), ["f", "g"], "ranks", ["a", "b"])
        # a decimal comma is read as a number; a comma in text stays text
        np.testing.assert_array_equal(ds.X["f"], [1.5, -2.0])
        assert ds.X["g"].tolist() == ["x", "y,z"]
        np.testing.assert_array_equal(ds.Y, [[1, 2], [2, 1]])
    # with commas as separators there are no decimal commas: '1,5' is two fields
    with pytest.raises(DataError, match=r"^t\.csv, line 2: found 4 fields; expected 3 fields separated by ','"):
        load_csv(as_file("f,a,b\n1,5,1,2\n2,2,1\n"), ["f"], "ranks", ["a", "b"])


def test_csv_pipe_separator_gets_a_hint():
    with pytest.raises(DataError, match=r"is the file separated by '\|'\? expected ',', ';' or tabs"):
        load_csv(as_file("f|a|b\n1|1|2\n2|2|1\n"), ["f"], "ranks", ["a", "b"])


def test_csv_missing_feature_values_are_nan_and_counted():
    text = "f,g,a,b\n1,x,1,2\n,y,2,1\nNA,,1,2\n4,?,2,1\n"
    ds = load_csv(as_file(text), ["f", "g"], "ranks", ["a", "b"])
    assert ds.n_samples == 4 and ds.n_missing_features == 4
    assert ds.X["f"].dtype == float
    np.testing.assert_array_equal(ds.X["f"].isna(), [False, True, True, False])
    assert ds.X["g"].isna().tolist() == [False, False, True, True]
    assert ds.X["g"].iloc[0] == "x" and ds.nominal_features == ["g"]
    # a column with no value at all is numeric and all NaN
    ds = load_csv(as_file("f,e,a,b\n1,,1,2\n2,,2,1\n"), ["f", "e"], "ranks", ["a", "b"])
    assert ds.X["e"].dtype == float and ds.X["e"].isna().all() and ds.n_missing_features == 2


def test_dataset_accepts_missing_feature_values():
    ds = make_dataset(X=pd.DataFrame({"a": [1.0, np.nan, 3.0], "c": ["x", None, np.nan]}))
    assert ds.n_missing_features == 3


def test_describe_missing_features():
    assert reading.describe_missing_features(0, 100) == ""
    assert reading.describe_missing_features(1, 100) == "1 feature value missing (1.0%)"
    assert reading.describe_missing_features(12, 3000) == "12 feature values missing (0.4%)"
    assert reading.describe_missing_features(1, 30000) == "1 feature value missing (0.0033%)"


def test_size_limit_refuses_before_reading(tmp_path, monkeypatch):
    # a sparse file one byte over the real limit: refused by its size on disk
    path = tmp_path / "huge.csv"
    with open(path, "wb") as handle:
        handle.truncate(reading.MAX_UPLOAD_BYTES + 1)
    expected = (f"huge.csv: the file is 50.000001 MB ({reading.MAX_UPLOAD_BYTES + 1:,} bytes); expected at most "
                "50 MB, the upload limit (rankviz.datasets.label_ranking.MAX_UPLOAD_BYTES)")
    for load in (lambda f: load_csv(f, ["f"], "ranks", ["a", "b"]), load_benchmark, read_csv_header):
        with pytest.raises(DataError) as info:
            load(path)
        assert str(info.value) == expected
    # a buffer: by its size attribute (Streamlit's UploadedFile), never read
    class Upload(io.BytesIO):
        size = 64 * 1024 * 1024

        def read(self, *args):  # pragma: no cover - must not be called
            raise AssertionError("read before the size check")

    upload = Upload(b"")
    upload.name = "big.csv"
    with pytest.raises(DataError, match=r"^big\.csv: the file is 64 MB \(67,108,864 bytes\); expected at most "
                                        r"50 MB"):
        load_benchmark(upload)
    # a buffer that cannot tell its size: at most limit + 1 bytes are read
    monkeypatch.setattr(reading, "MAX_UPLOAD_BYTES", 10)

    class Stream(io.BytesIO):
        def seekable(self):
            return False

    stream = Stream(b"f,a,b\n1,1,2\n2,2,1\n")
    with pytest.raises(DataError, match=r"^The file is [0-9.]+ MB \(11 bytes\); expected at most"):
        read_csv_header(stream)
    assert stream.tell() == 11


@pytest.mark.parametrize(("encoding", "name"), [("utf-8", "UTF-8"), ("utf-8-sig", "UTF-8 (with BOM)"),
                                              ("utf-16", "UTF-16"), ("cp1252", "Windows-1252")])
def test_csv_encodings_are_detected(encoding, name):
    data = "f,a,b\n1,1,2\ncaf\u00e9 \u20ac,2,1\n".encode(encoding)
    assert encoding_name(detect_encoding(data)) == name
    upload = io.BytesIO(data)
    upload.name = "excel.csv"
    dataset = load_csv(upload, ["f"], "ranks", ["a", "b"])
    assert "caf\u00e9 \u20ac" in set(map(str, dataset.X["f"]))


def test_bytes_of_no_text_encoding_are_refused():
    data = b"f,a,b\n1,1,2\n" + bytes(range(0x80, 0x100)) * 4 + b"\x00\x00\n"
    with pytest.raises(DataError, match=r"^bin\.csv, line 3: byte 0x80 is not UTF-8 text"):
        detect_encoding(data, "bin.csv")


def test_csv_missing_file(tmp_path):
    with pytest.raises(DataError, match=r"^nope\.csv: no such file"):
        load_csv(tmp_path / "nope.csv", ["f"], "ranks", ["a", "b"])


def test_read_csv_header_errors():
    with pytest.raises(DataError, match=r"^t\.csv: the file is empty"):
        read_csv_header(as_file(""))
    with pytest.raises(DataError, match=r"^t\.csv, line 1: the column name 'x' appears twice"):
        read_csv_header(as_file("x,y,x\n1,2,3\n"))
    assert read_csv_header(as_file(",a, b \n1,2,3\n")) == ["Unnamed: 0", "a", "b"]


def test_error_is_a_value_error():
    assert issubclass(DataError, ValueError)


# --------------------------------------------------------------------------- #
# sample registry
# --------------------------------------------------------------------------- #


def test_benchmark_empty_rank_cells_are_missing_labels():
    """The incomplete rankings of Cheng et al. in the benchmark format: an empty rank cell is a missing label."""
    data = load_benchmark(io.StringIO("3,1,3\n0.1,1,2,\n0.2,,1,2\n0.3,2,1,3\n"), name="m")
    np.testing.assert_array_equal(data.Y, [[1, 2, np.nan], [np.nan, 1, 2], [2, 1, 3]])
    with pytest.raises(DataError, match="'nan' is not a number"):
        load_benchmark(io.StringIO("2,1,2\n0.1,nan,1\n0.2,1,2\n"))


@pytest.mark.parametrize("pandas_exact", [
    False, pytest.param(True, marks=pytest.mark.skipif(not reading.PANDAS_PARSES_EXACTLY,
                                                       reason="pandas before 3.1 does not read exactly")),
])
def test_numbers_read_from_text_are_the_nearest_floats(monkeypatch, pandas_exact):
    """Both ways of reading (pandas 3.1's own, and NumPy's after older pandas) give Python's float()."""
    monkeypatch.setattr(reading, "PANDAS_PARSES_EXACTLY", pandas_exact)
    rng = np.random.default_rng(1)
    values = np.concatenate([rng.normal(size=2000) * 10.0 ** rng.integers(-300, 300, 2000), rng.random(2000)])
    texts = [repr(float(v)) for v in values] + ["x", None, "1e400", "-0.0"]
    parsed = reading.to_float(texts)
    np.testing.assert_array_equal(parsed[:-4], values)
    assert np.isnan(parsed[-4]) and np.isnan(parsed[-3]) and not np.isfinite(parsed[-2]) and parsed[-1] == 0.0


def test_thousands_separators_read_as_numbers():
    upload = io.BytesIO(b'f,g,a,b\n"1,000",x,1,2\n"-12,345.5",y,2,1\n7,"1,5",1,2\n')
    upload.name = "money.csv"
    dataset = load_csv(upload, ["f", "g"], "ranks", ["a", "b"])
    assert dataset.X["f"].tolist() == [1000.0, -12345.5, 7.0]
    assert dataset.X["g"].tolist() == ["x", "y", "1,5"]  # names (and 1,5 is no grouping): text
    bad = io.BytesIO(b'f,a,b\n"1,000",1,2\n"2,500",2,1\nlots,1,2\n')
    bad.name = "money.csv"
    with pytest.raises(DataError, match=r"^money\.csv, line 4, column 'f': 'lots' is not a number, but the "
                                        r"column holds numbers with thousands separators such as '1,000' \(line 2\)"):
        load_csv(bad, ["f"], "ranks", ["a", "b"])


def test_a_mistyped_ordering_label_is_named_with_the_closest_label():
    upload = io.BytesIO(b"f,order\n1,a>b>c\n2,b>a>c\n3,c>A>b\n4,a>c>b\n")
    upload.name = "orders.csv"
    with pytest.raises(DataError, match=r"^orders\.csv, line 4, column 'order': the label 'A' differs from the "
                                        r"label 'a' only in case, spacing, width or invisible characters "
                                        r"\(did you mean 'a'\?\)"):
        load_csv(upload, ["f"], "ordering", ["order"])
    upload = io.BytesIO(b"f,order\n1,apple>banana\n2,banana>appel\n")
    upload.name = "orders.csv"
    with pytest.raises(DataError, match=r"line 3, column 'order': the label 'appel' .* is not one of the given "
                                        r"labels \(did you mean 'apple'\?\)"):
        load_csv(upload, ["f"], "ordering", ["order"], labels=["apple", "banana"])


def test_orderings_naming_a_label_per_row_are_refused_before_their_rank_matrix_is_made():
    """Orderings name labels sparsely, the rank matrix holds a cell for every row and label: 800 rows each
    naming two new labels (13 KB) make 1.3 million cells, about 110 MB with the validation's copies. Refused
    under a budget they exceed, naming the rows, the labels and how many labels would fit; loaded above it."""
    import rankviz

    text = "f,o\n" + "".join(f"{i},L{i}>M{i}\n" for i in range(800))
    with rankviz.config_context(max_memory="32 MiB"):
        with pytest.raises(rankviz.DataError, match=r"^o\.csv: the orderings name 1,600 labels in 800 rows.*"
                                                    r"needs about 10\d\.\d MiB, over the memory limit of 32\.0 MiB.*"
                                                    r"expected at most 4\d\d labels in 800 rows"):
            load_csv(as_file(text, "o.csv"), ["f"], "ordering", ["o"])
    with rankviz.config_context(max_memory="1 GiB"):
        assert load_csv(as_file(text, "o.csv"), ["f"], "ordering", ["o"]).Y.shape == (800, 1600)
