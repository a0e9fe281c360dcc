"""The ordinal data picker: its parsing function with bytes, and the widgets through AppTest."""

import pytest
from streamlit.testing.v1 import AppTest

from rankviz.exceptions import DataError
from rankviz.datasets.samples import load_ordinal_sample
from rankviz.ui.ordinal_data_picker import UPLOAD, parse_upload

GRADES = b"hours,school,grade\n1,a,poor\n2,b,good\n3,a,fair\n4,b,good\n5,a,poor\n"

PAGE = '''
import streamlit as st
from rankviz.ui.ordinal_data_picker import ordinal_data_picker

dataset, data_key = ordinal_data_picker(key={key!r})
st.write(f"data key: {{data_key!r}}")
if dataset is not None:
    st.write(f"levels: {{dataset.levels}}")
    st.write(f"counts: {{dataset.level_counts.tolist()}}")
    st.write(f"features: {{dataset.feature_names}}")
    st.write(f"name: {{dataset.name}}")
'''


# --------------------------------------------------------------------------- #
# parsing, without widgets
# --------------------------------------------------------------------------- #
def test_parse_upload_named_levels_in_the_given_order():
    ds = parse_upload(GRADES, "grades.csv", "grade", ("poor", "fair", "good"), ("hours",))
    assert ds.levels == ["poor", "fair", "good"] and ds.positions.tolist() == [1, 3, 2, 3, 1]
    assert ds.feature_names == ["hours"] and ds.name == "grades.csv"


def test_parse_upload_numeric_target_sorted():
    ds = parse_upload(b"x,r\n1,5\n2,1\n3,3\n", "r.csv", "r")
    assert ds.levels == [1, 3, 5] and ds.positions.tolist() == [3, 1, 2]


def test_parse_upload_errors_name_the_file_line_and_value():
    with pytest.raises(DataError) as info:
        parse_upload(GRADES, "grades.csv", "grade", ("poor", "good"))
    assert str(info.value).startswith("grades.csv, line 4, column 'grade': the target value 'fair' is not one")


# --------------------------------------------------------------------------- #
# the widgets
# --------------------------------------------------------------------------- #
def page(tmp_path, key="ordinal"):
    script = tmp_path / "page.py"
    script.write_text(PAGE.format(key=key), encoding="utf-8")
    at = AppTest.from_file(str(script), default_timeout=60)
    at.run()
    assert not at.exception
    return at


def texts(at):
    return [m.value for m in at.markdown]


def test_opens_on_the_bundled_sample_with_its_level_order(tmp_path):
    at = page(tmp_path)
    assert at.selectbox(key="ordinal_dataset").value == "diabetes_ordinal"
    expected = load_ordinal_sample("diabetes_ordinal")
    shown = texts(at)
    assert "data key: 'ordinal-sample:diabetes_ordinal'" in shown
    assert "levels: ['very low', 'low', 'medium', 'high', 'very high']" in shown
    assert f"counts: {expected.level_counts.tolist()}" in shown
    assert f"name: {expected.name}" in shown


def test_widget_keys_take_the_prefix(tmp_path):
    at = page(tmp_path, key="left")
    assert at.selectbox(key="left_dataset").value == "diabetes_ordinal"


def upload(tmp_path, content=GRADES, name="grades.csv"):
    at = page(tmp_path)
    at.selectbox(key="ordinal_dataset").set_value(UPLOAD).run()
    assert "Upload a file to continue." in [m.value for m in at.info]
    assert "data key: ''" in texts(at)
    at.file_uploader(key="ordinal_upload_file").set_value((name, content, "text/csv")).run()
    assert not at.exception
    return at


def test_upload_of_named_levels_starts_alphabetical_and_takes_the_users_order(tmp_path):
    at = upload(tmp_path)
    order = at.multiselect[0]
    assert order.label == "Level order of 'grade', lowest first"
    assert order.value == ["fair", "good", "poor"]  # a starting point, shown to the user
    assert "levels: ['fair', 'good', 'poor']" in texts(at)

    order.set_value(["poor", "fair"]).run()  # mid-way through reordering
    assert not at.error and not at.exception
    assert "'good' is not placed in the order yet" in at.info[0].value
    assert not any(t.startswith("levels:") for t in texts(at))

    at.multiselect[0].set_value(["poor", "fair", "good"]).run()
    assert "levels: ['poor', 'fair', 'good']" in texts(at)
    assert "counts: [2, 1, 2]" in texts(at)
    assert "features: ['hours', 'school']" in texts(at)
    key = next(t for t in texts(at) if t.startswith("data key: "))
    assert key.startswith("data key: \"ordinal-upload:") and "('poor', 'fair', 'good')" in key


def test_upload_of_a_numeric_target_orders_by_value(tmp_path):
    at = upload(tmp_path, b"x,r\n1,5\n2,1\n3,3\n", "r.csv")
    assert "levels: [1, 3, 5]" in texts(at)
    assert any("1 < 3 < 5" in c.value for c in at.caption)


def test_choosing_another_target_column(tmp_path):
    at = upload(tmp_path)
    target = at.selectbox[1]
    assert target.value == "grade"
    target.set_value("hours").run()
    assert "levels: [1, 2, 3, 4, 5]" in texts(at)
    assert "features: ['school', 'grade']" in texts(at)


def test_a_bad_upload_shows_one_error_and_no_traceback(tmp_path):
    at = upload(tmp_path, b"hours,grade\n1,poor\n2,\n", "bad.csv")
    assert not at.exception
    assert len(at.error) == 1
    # the message as literal Markdown (rankviz.ui.text.md_escape): the ':' escaped
    assert at.error[0].value == ("**Upload problem.** bad.csv, line 3, column 'grade'\\: the target cell is "
                                 "empty; expected a level in every row")
    assert "data key: ''" in texts(at)
