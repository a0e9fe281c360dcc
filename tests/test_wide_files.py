"""CSV files of thousands of columns: every cell converted at once, with the values and messages of one column at a time."""

import io

import numpy as np
import pandas as pd
import pytest

from rankviz import load_csv, load_query_csv
from rankviz.datasets.ordinal import load_ordinal_csv
from rankviz.datasets.reading import TEXT_DTYPE
from rankviz.exceptions import DataError

N_ROWS, N_FEATURES, N_LABELS = 6, 400, 300


def wide_cells(seed=0):
    """Feature cells (numbers, a few missing markers), rank cells (permutations), qid and rel cells."""
    rng = np.random.default_rng(seed)
    features = np.round(rng.normal(size=(N_ROWS, N_FEATURES)) * 100, 3).astype(str).astype(object)
    features[rng.random(features.shape) < 0.05] = "NA"
    features[rng.random(features.shape) < 0.05] = ""
    ranks = (np.argsort(rng.random((N_ROWS, N_LABELS)), axis=1) + 1).astype(str).astype(object)
    return features, ranks


def to_text(features, ranks, sep=",", decimal="."):
    header = [f"f{j}" for j in range(features.shape[1])] + [f"l{j}" for j in range(ranks.shape[1])] + ["qid", "rel"]
    lines = [sep.join(header)]
    for i in range(len(features)):
        cells = [c.replace(".", decimal) for c in features[i]] + list(ranks[i]) + [str(i // 2), str(i % 3)]
        lines.append(sep.join(cells))
    return "\n".join(lines) + "\n"


def expected_features(features):
    return np.array([[np.nan if c in ("", "NA") else float(c) for c in row] for row in features])


FEATURES = [f"f{j}" for j in range(N_FEATURES)]
LABELS = [f"l{j}" for j in range(N_LABELS)]


@pytest.mark.parametrize("sep, decimal", [(",", "."), (";", ",")])
def test_every_cell_of_a_wide_file_is_read_as_one_column_at_a_time_would(sep, decimal):
    features, ranks = wide_cells()
    text = to_text(features, ranks, sep, decimal)
    data = load_csv(io.StringIO(text), FEATURES, "ranks", LABELS)
    np.testing.assert_array_equal(data.X.to_numpy(dtype=float), expected_features(features))
    np.testing.assert_array_equal(data.Y, ranks.astype(float))
    queries = load_query_csv(io.StringIO(text), "qid", "rel", FEATURES)
    np.testing.assert_array_equal(queries.X, expected_features(features))
    by_default = load_query_csv(io.StringIO(text), "qid", "rel")
    assert list(by_default.feature_names) == FEATURES + LABELS
    ordinal = load_ordinal_csv(io.StringIO(text), target="rel", feature_columns=FEATURES)
    np.testing.assert_array_equal(ordinal.X.to_numpy(dtype=float), expected_features(features))


def test_a_text_column_among_hundreds_of_numbers_stays_text():
    features, ranks = wide_cells(1)
    features[:, 123] = ["red", "green", " blue ", "red", "NA", "green"]
    data = load_csv(io.StringIO(to_text(features, ranks)), FEATURES, "ranks", LABELS)
    assert data.X["f123"].dtype == TEXT_DTYPE
    assert data.X["f123"].tolist()[:3] == ["red", "green", "blue"] and pd.isna(data.X["f123"].iloc[4])
    assert data.X.drop(columns="f123").dtypes.eq(float).all()


def test_the_first_bad_rank_is_named_column_by_column():
    """Two bad cells: the one in the earlier column is named, though the other is on an earlier line."""
    features, ranks = wide_cells(2)
    ranks[3, 250] = "x"
    ranks[1, 260] = "inf"
    with pytest.raises(DataError, match=r"line 5, column 'l250'.*'x' is not a number"):
        load_csv(io.StringIO(to_text(features, ranks)), FEATURES, "ranks", LABELS)
    ranks[3, 250] = "4"
    with pytest.raises(DataError, match=r"line 3, column 'l260'.*'inf' is not a finite number"):
        load_csv(io.StringIO(to_text(features, ranks)), FEATURES, "ranks", LABELS)


def test_the_first_bad_feature_of_a_query_file_is_named_in_file_order():
    """Two bad cells: the one on the earlier line is named, though the other is in an earlier column."""
    features, ranks = wide_cells(3)
    features[3, 250] = "abc"
    features[1, 360] = "-inf"
    with pytest.raises(DataError, match=r"line 3, column 'f360'.*'-inf' is not a finite number"):
        load_query_csv(io.StringIO(to_text(features, ranks)), "qid", "rel", FEATURES)
    features[1, 360] = "1"
    with pytest.raises(DataError, match=r"line 5, column 'f250'.*'abc' is not a number"):
        load_query_csv(io.StringIO(to_text(features, ranks)), "qid", "rel", FEATURES)


def test_an_infinite_feature_among_hundreds_names_its_column():
    features, ranks = wide_cells(4)
    features[2, 300] = "1e999"
    with pytest.raises(DataError, match=r"line 4, column 'f300'.*not a finite number"):
        load_csv(io.StringIO(to_text(features, ranks)), FEATURES, "ranks", LABELS)
