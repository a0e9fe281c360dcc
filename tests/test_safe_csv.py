"""CSV downloads open in a spreadsheet as data: no formula from user text, bidi controls visible."""

import ast
import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankviz.safe_csv import FORMULA_STARTS, safe_cell, safe_csv

REPO = Path(__file__).resolve().parents[1]

FORMULAS = ['=HYPERLINK("http://evil.example","Click")', "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)",
            "\t=1", "\r=1", "=1\u202e"]


def cells(text):
    return list(csv.reader(io.StringIO(text, newline="")))


def test_formula_cells_get_a_quote_and_numbers_stay_numbers():
    frame = pd.DataFrame({"name": FORMULAS, "x": np.linspace(-0.5, 0.5, len(FORMULAS)),
                          "k": np.arange(-3, len(FORMULAS) - 3)})
    rows = cells(safe_csv(frame))
    assert rows[0] == ["name", "x", "k"]
    assert rows[1][0] == "'=HYPERLINK(\"http://evil.example\",\"Click\")"
    for row, formula in zip(rows[1:], FORMULAS):
        assert row[0].startswith("'") and row[0][1:2] == formula[0]
    assert [row[0] for row in rows[1:]][-1] == "'=1\\u202e"  # the override written visibly
    # Numbers are written as pandas writes them: -0.5 is no formula, it stays a number.
    assert [row[1] for row in rows[1:]] == frame["x"].astype(str).tolist()
    assert rows[1][1] == "-0.5" and rows[1][2] == "-3"
    assert frame["name"].tolist() == FORMULAS  # the frame itself is untouched


def test_names_index_categories_and_plain_text():
    frame = pd.DataFrame({"=evil()": pd.Categorical(["-x", "ok"]), "text numbers": ["-0.5", "+1e3"],
                          "missing": ["@a", None], "flag": [True, False]},
                         index=pd.Index(["=A1", "b"], name="+name"))
    rows = cells(safe_csv(frame, index=True))
    assert rows[0] == ["'+name", "'=evil()", "text numbers", "missing", "flag"]
    assert rows[1] == ["'=A1", "'-x", "-0.5", "'@a", "True"]
    assert rows[2] == ["b", "ok", "+1e3", "", "False"]
    # Without the index, as every download writes its tables.
    assert cells(safe_csv(frame))[1] == ["'-x", "-0.5", "'@a", "True"]


@pytest.mark.parametrize("value", ["plain", "a=b", "1-2", "", 3, -0.5, None])
def test_safe_cell_leaves_harmless_values(value):
    assert safe_cell(value) == value


@pytest.mark.parametrize("start", FORMULA_STARTS)
def test_safe_cell_quotes_every_formula_start(start):
    assert safe_cell(f"{start}x") == f"'{start}x"


def test_stumps_table_of_mpboost_is_defused():
    from rankviz import MPBoost

    rng = np.random.default_rng(0)
    X = rng.normal(size=(80, 2))
    qid = np.repeat(np.arange(8), 10)
    model = MPBoost(n_rounds=4).fit(X, np.clip(np.round(X[:, 0] + 1.5), 0, 3), qid=qid)
    rows = cells(safe_csv(model.stumps_frame(["=HYPERLINK(\"http://e\")", "-f"])))
    features = {row[1] for row in rows[1:]}
    assert features <= {"'=HYPERLINK(\"http://e\")", "'-f"} and features
    assert all(not cell.startswith(("=", "@")) for row in rows for cell in row)


def download_calls():
    """Every ``download_button(...)`` call of the app with its source file."""
    for path in REPO.joinpath("rankviz", "ui").rglob("*.py"):  # the app and its pages included
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and ast.unparse(node.func).endswith("download_button"):
                yield path.name, node


def csv_writers() -> tuple[str, ...]:
    """``"name("`` of each function in rankviz/ui whose every ``return`` gives ``safe_csv(...)`` bytes."""
    names = []
    for path in REPO.joinpath("rankviz", "ui").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                returns = [r for r in ast.walk(node) if isinstance(r, ast.Return)]
                if returns and all(r.value is not None and ast.unparse(r.value).startswith("safe_csv(")
                                   for r in returns):
                    names.append(f"{node.name}(")
    return tuple(names)


def test_every_csv_download_goes_through_safe_csv():
    """AppTest runs without a media server (a download's URL is empty), so the sources are read."""
    csv_calls = []
    for name, node in download_calls():
        source = ast.unparse(node)
        if ".csv" in source or "text/csv" in source or "CSV" in source:
            data = node.args[1] if len(node.args) > 1 else next(k.value for k in node.keywords if k.arg == "data")
            csv_calls.append((name, ast.unparse(data)))
    assert len(csv_calls) >= 10  # the Benchmark page's CSV goes through chosen_download: tested there
    # Written at once, when pressed (a callable: Streamlit's deferred download), or by a
    # function of the app's whose every return is a safe_csv (a cached file, say).
    writers = csv_writers()
    assert [c for c in csv_calls if not c[1].startswith(("safe_csv(", "lambda: safe_csv(", *writers))] == []
    for path in REPO.joinpath("rankviz", "ui").rglob("*.py"):
        assert ".to_csv(" not in path.read_text(encoding="utf-8"), path.name
