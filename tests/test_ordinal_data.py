"""Tests for rankviz.datasets.ordinal: ordinal datasets, the CSV loader and the ordinal samples."""

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankviz import OrdinalTree
from rankviz.datasets.samples import SAMPLE_DIR
from rankviz.exceptions import DataError
from rankviz.datasets.ordinal import OrdinalDataset, check_level_order, load_ordinal_csv, read_target_values
from rankviz.datasets.samples import load_ordinal_sample, sample_info

GRADES = "hours,school,grade\n1,a,poor\n2,b,good\n3,a,fair\n4,b,good\n5,a,poor\n"
LEVELS = ["poor", "fair", "good"]


def write(tmp_path, text, name="grades.csv"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --------------------------------------------------------------------------- #
# loading
# --------------------------------------------------------------------------- #
def test_numeric_target_gets_its_sorted_values_as_levels(tmp_path):
    path = write(tmp_path, "x,kind,rating\n0.5,u,3\n1.5,v,1\n2.5,u,5\n3.5,v,3\n", "ratings.csv")
    ds = load_ordinal_csv(path, "rating")
    assert ds.levels == [1, 3, 5]
    assert ds.y.tolist() == [3, 1, 5, 3] and np.issubdtype(ds.y.dtype, np.number)
    assert ds.positions.tolist() == [2, 1, 3, 2]
    assert ds.level_counts.tolist() == [1, 2, 1]
    assert ds.n_samples == 4 and ds.n_levels == 3 and ds.numeric
    assert ds.target == "rating" and ds.name == "ratings"
    assert ds.feature_names == ["x", "kind"]
    assert ds.X["x"].dtype == float and ds.X["kind"].tolist() == ["u", "v", "u", "v"]
    # numeric levels keep their values as positions, as OrdinalTree does without levels
    assert ds.ordinal_levels.positions.tolist() == [1.0, 3.0, 5.0]


def test_named_levels_follow_the_given_order_not_the_alphabet(tmp_path):
    ds = load_ordinal_csv(write(tmp_path, GRADES), "grade", levels=LEVELS)
    assert ds.levels == LEVELS
    assert ds.y.tolist() == ["poor", "good", "fair", "good", "poor"]
    assert ds.positions.tolist() == [1, 3, 2, 3, 1]
    assert ds.level_counts.tolist() == [2, 1, 2]
    assert not ds.numeric
    assert ds.ordinal_levels.positions.tolist() == [1.0, 2.0, 3.0]
    reverse = load_ordinal_csv(write(tmp_path, GRADES), "grade", levels=LEVELS[::-1])
    assert reverse.positions.tolist() == [3, 1, 2, 1, 3]


def test_a_level_no_row_has_counts_zero(tmp_path):
    ds = load_ordinal_csv(write(tmp_path, GRADES), "grade", levels=["poor", "fair", "good", "excellent"])
    assert ds.level_counts.tolist() == [2, 1, 2, 0]


def test_feature_columns_default_to_all_others_and_can_be_chosen(tmp_path):
    path = write(tmp_path, GRADES)
    assert load_ordinal_csv(path, "grade", levels=LEVELS).feature_names == ["hours", "school"]
    assert load_ordinal_csv(path, "grade", ["school"], LEVELS).feature_names == ["school"]


def test_numeric_column_matches_given_levels_by_value(tmp_path):
    path = write(tmp_path, "x,r\n1,1.0\n2,2\n3, 3 \n", "r.csv")
    ds = load_ordinal_csv(path, "r", levels=[3, "2", 1.0])  # user's order: 3 lowest
    assert ds.levels == [3, "2", 1.0]
    assert ds.positions.tolist() == [3, 2, 1]


def test_reads_an_upload_buffer_and_names_it(tmp_path):
    buffer = io.BytesIO(GRADES.encode("utf-8-sig"))
    buffer.name = "upload.csv"
    ds = load_ordinal_csv(buffer, "grade", levels=LEVELS, name="mine")
    assert ds.name == "mine" and ds.n_samples == 5


def test_to_frame_round_trips(tmp_path):
    ds = load_ordinal_csv(write(tmp_path, GRADES), "grade", levels=LEVELS)
    path = tmp_path / "again.csv"
    ds.to_frame().to_csv(path, index=False)
    again = load_ordinal_csv(path, ds.target, levels=ds.levels)
    assert again.y.tolist() == ds.y.tolist()
    pd.testing.assert_frame_equal(again.X, ds.X, check_dtype=False)


# --------------------------------------------------------------------------- #
# errors: file, line, column, value, what was expected
# --------------------------------------------------------------------------- #
def test_names_without_an_order_ask_for_the_order(tmp_path):
    with pytest.raises(DataError) as info:
        load_ordinal_csv(write(tmp_path, GRADES), "grade")
    message = str(info.value)
    assert message.startswith("grades.csv, line 2, column 'grade': the target value 'poor' is a name")
    assert "expected the levels given in their order, lowest first" in message
    assert "'fair', 'good', 'poor'" in message


def test_a_value_outside_the_given_levels_names_line_column_value_and_levels(tmp_path):
    with pytest.raises(DataError) as info:
        load_ordinal_csv(write(tmp_path, GRADES), "grade", levels=["poor", "good"])
    assert str(info.value) == (
        "grades.csv, line 4, column 'grade': the target value 'fair' is not one of the given levels; "
        "expected one of 'poor', 'good' (lowest first), with every value of the column among them")


@pytest.mark.parametrize("levels, message", [
    (["poor", "fair", "poor"], "grades.csv: the level 'poor' appears twice (positions 1 and 3); expected unique levels"),
    (["poor"], "grades.csv: only the level 'poor' was given; expected at least 2 levels, lowest first"),
    ([], "grades.csv: no levels were given; expected at least 2 levels, lowest first"),
    ("poor", "grades.csv: the levels are 'poor'; expected a list of levels, lowest first"),
])
def test_bad_level_lists(tmp_path, levels, message):
    with pytest.raises(DataError) as info:
        load_ordinal_csv(write(tmp_path, GRADES), "grade", levels=levels)
    assert str(info.value) == message


def test_levels_equal_by_value_in_a_numeric_column_are_a_repeat(tmp_path):
    path = write(tmp_path, "x,r\n1,1\n2,2\n", "r.csv")
    with pytest.raises(DataError, match=r"^r\.csv: the level '1' appears twice \(positions 1 and 2\)"):
        load_ordinal_csv(path, "r", levels=[1, "1.0", 2])


@pytest.mark.parametrize("cell, problem", [
    ("", "the target cell is empty"),
    ("NA", "the target value 'NA' marks a missing value"),
])
def test_missing_target_names_the_line(tmp_path, cell, problem):
    path = write(tmp_path, f"hours,grade\n1,poor\n2,good\n3,{cell}\n")
    with pytest.raises(DataError) as info:
        load_ordinal_csv(path, "grade", levels=LEVELS)
    assert str(info.value) == (f"grades.csv, line 4, column 'grade': {problem}; expected one of the levels "
                               f"'poor', 'fair', 'good' in every row")


def test_missing_feature_is_nan_and_wrong_field_count_as_load_csv_reports_them(tmp_path):
    ds = load_ordinal_csv(write(tmp_path, "hours,school,grade\n1,a,poor\n,NA,good\n3,b,fair\n"), "grade",
                          levels=LEVELS)
    assert ds.n_missing_features == 2 and ds.n_samples == 3
    assert np.isnan(ds.X["hours"].iloc[1]) and ds.X["hours"].dtype == float
    assert ds.X["school"].isna().tolist() == [False, True, False]
    with pytest.raises(DataError, match=r"^grades\.csv, line 3, column 'hours': the feature value 'inf' is not a "
                                        r"finite number"):
        load_ordinal_csv(write(tmp_path, "hours,grade\n1,poor\ninf,good\n"), "grade", levels=LEVELS)
    with pytest.raises(DataError, match=r"^grades\.csv, line 3: found 3 fields; expected 2"):
        load_ordinal_csv(write(tmp_path, "hours,grade\n1,poor\n2,good,x\n"), "grade", levels=LEVELS)


def test_a_non_number_in_a_feature_makes_it_nominal_as_load_csv_does(tmp_path):
    ds = load_ordinal_csv(write(tmp_path, "hours,grade\n1,poor\ntwo,good\n"), "grade", levels=LEVELS)
    assert ds.X["hours"].tolist() == ["1", "two"]


def test_column_problems(tmp_path):
    path = write(tmp_path, GRADES)
    with pytest.raises(DataError) as info:
        load_ordinal_csv(path, "mark")
    assert str(info.value) == ("grades.csv: there is no target column 'mark'; expected one of the columns of the "
                               "header: 'hours', 'school', 'grade'")
    with pytest.raises(DataError, match=r"^grades\.csv: there is no feature column 'age'"):
        load_ordinal_csv(path, "grade", ["age"], LEVELS)
    with pytest.raises(DataError, match=r"^grades\.csv, column 'grade': the column is chosen both as a feature"):
        load_ordinal_csv(path, "grade", ["hours", "grade"], LEVELS)
    with pytest.raises(DataError, match=r"^grades\.csv: no feature columns were chosen; expected at least 1"):
        load_ordinal_csv(write(tmp_path, "grade\npoor\ngood\n"), "grade", levels=LEVELS)


def test_fewer_than_two_levels_in_use(tmp_path):
    with pytest.raises(DataError) as info:
        load_ordinal_csv(write(tmp_path, "x,r\n1,3\n2,3\n", "r.csv"), "r")
    assert str(info.value) == ("r.csv, column 'r': every row has the level 3; expected at least 2 "
                               "different levels in the target column")


def test_non_finite_numeric_target(tmp_path):
    with pytest.raises(DataError, match=r"^r\.csv, line 3, column 'r': the target value 'inf' is not a finite"):
        load_ordinal_csv(write(tmp_path, "x,r\n1,3\n2,inf\n", "r.csv"), "r")


def test_dataset_checks_its_parts():
    X = pd.DataFrame({"a": [1.0, 2.0, 3.0]})
    with pytest.raises(DataError, match=r"^row 2: the target value 'x' is not one of the levels; expected one of 'lo', 'hi'"):
        OrdinalDataset(X, ["lo", "x", "hi"], ["lo", "hi"], "t")
    with pytest.raises(DataError, match="expected one level per row"):
        OrdinalDataset(X, ["lo", "hi"], ["lo", "hi"], "t")
    with pytest.raises(DataError, match="'a' is both a feature name and the target"):
        OrdinalDataset(X, ["lo", "hi", "lo"], ["lo", "hi"], "a")
    with pytest.raises(DataError, match=r"^d, row 2, column 'a': the feature value inf is not a finite number"):
        OrdinalDataset(pd.DataFrame({"a": [1.0, np.inf, 3.0]}), ["lo", "hi", "lo"], ["lo", "hi"], "t", name="d")
    with_missing = OrdinalDataset(pd.DataFrame({"a": [1.0, None, 3.0], "b": ["u", None, "v"]}),
                                  ["lo", "hi", "lo"], ["lo", "hi"], "t")
    assert with_missing.n_missing_features == 2
    ds = OrdinalDataset(X, [2, 1.0, "2"], [1, 2], "t")  # 2, 2.0 and "2" are the same level
    assert ds.y.tolist() == [2, 1, 2] and ds.positions.tolist() == [2, 1, 2]


# --------------------------------------------------------------------------- #
# helpers for the picker
# --------------------------------------------------------------------------- #
def test_read_target_values(tmp_path):
    assert read_target_values(write(tmp_path, GRADES), "grade") == (["fair", "good", "poor"], False)
    path = write(tmp_path, "x,r\n1,2\n2,1.5\n3,10\n4,2.0\n", "r.csv")
    assert read_target_values(path, "r") == ([1.5, 2, 10], True)
    with pytest.raises(DataError, match=r"^r\.csv: there is no target column 'q'"):
        read_target_values(path, "q")
    with pytest.raises(DataError, match=r"^r\.csv, line 3, column 'r': the target cell is empty"):
        read_target_values(write(tmp_path, "x,r\n1,2\n2,\n", "r.csv"), "r")


def test_check_level_order():
    assert check_level_order(["a", "b", "c"], ("c", "a", "b"), "grade") == ["c", "a", "b"]
    with pytest.raises(DataError) as info:
        check_level_order(["a", "b", "c"], ["c", "a"], "grade")
    assert str(info.value) == ("'b' is not placed in the order yet; expected every value of column "
                               "'grade' exactly once, lowest first")
    with pytest.raises(DataError, match=r"^The level 'a' is placed twice in the order"):
        check_level_order(["a", "b"], ["a", "b", "a"], "grade")
    with pytest.raises(DataError, match=r"^The level 'z' is not a value of column 'grade'; expected only its values 'a', 'b'"):
        check_level_order(["a", "b"], ["a", "z", "b"], "grade")


# --------------------------------------------------------------------------- #
# samples
# --------------------------------------------------------------------------- #


def test_the_diabetes_sample_loads_with_its_level_order():
    ds = load_ordinal_sample("diabetes_ordinal")
    assert ds.levels == ["very low", "low", "medium", "high", "very high"]
    assert ds.target == "progression" and ds.n_samples == 442
    assert ds.feature_names == ["age", "sex", "bmi", "bp", "tc", "ldl", "hdl", "tch", "ltg", "glu"]
    assert all(ds.X[c].dtype == float for c in ds.feature_names)
    counts = ds.level_counts
    assert counts.sum() == 442 and counts.min() >= 80 and counts.max() <= 95  # quintiles: ~88 each
    assert ds.name == sample_info("diabetes_ordinal")["title"]
    assert "quintiles" in ds.description


def test_the_diabetes_levels_follow_progression():
    """Higher levels hold higher progression: the order is the real one, not alphabetical."""
    from sklearn.datasets import load_diabetes
    progression = load_diabetes(scaled=False).target
    ds = load_ordinal_sample("diabetes_ordinal")
    by_level = [progression[ds.positions == k] for k in range(1, 6)]
    assert all(a.max() < b.min() for a, b in zip(by_level, by_level[1:]))


def test_the_builder_reproduces_the_shipped_files(tmp_path):
    script = Path(__file__).resolve().parents[1] / "scripts" / "sample_data" / "build_diabetes_ordinal.py"
    subprocess.run([sys.executable, str(script), "--out", str(tmp_path)], check=True,
                   capture_output=True, cwd=SAMPLE_DIR.parent)
    for name in ("diabetes_ordinal.csv", "diabetes_ordinal.json"):
        assert (tmp_path / name).read_bytes() == (SAMPLE_DIR / name).read_bytes(), name


def test_an_ordinal_tree_fits_the_sample():
    ds = load_ordinal_sample("diabetes_ordinal")
    tree = OrdinalTree(max_depth=3).set_params(levels=ds.levels).fit(ds.X, pd.Series(ds.y, name=ds.target))
    assert tree.classes_ == ds.levels
    assert set(tree.predict(ds.X)) <= set(ds.levels)


