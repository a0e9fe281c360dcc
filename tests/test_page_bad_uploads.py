"""The corpus of bad and odd files (``tests/bad_inputs.py``) uploaded on every page that accepts it.

For each upload: no exception; a file the loader refuses shows exactly one
``st.error``, the loader's own message (``**Upload problem.** <message>``),
and nothing is drawn from stale data; a file that loads is the data the page
then shows (its name and size, or its level counts), with a caption saying
how many feature values are missing when some are, and another which rank
convention was read when the positions were not average positions (issue
16 §1: dense or competition ties, gaps). After the uploads the
page goes back to a sample and draws exactly what it drew before them.

What a page should show is computed from the library with the options the
picker passes (features: every column that is not a target; the level order
of named levels: the picker's alphabetical default; no ``labels`` list for
orderings), so it can differ from the library case in ``bad_inputs.py``
(e.g. ``ordering_unknown_label.csv`` loads here, with ``d`` as a fourth
label).

Each page runs as one AppTest session with many uploads, so the whole module
stays well under two minutes. ``ranking_trees`` gets every label-ranking file;
``side_by_side``, ``mallows_trees`` and the ranking branch of
``impurity_vs_gini`` use the same picker and get a sample of each kind of
file; the ordinal branch of ``impurity_vs_gini`` gets every ordinal file,
``mpboost`` every learning-to-rank file; every page gets a file one byte
over the size limit.
"""

import io
import json
import re

import numpy as np

import pytest
from streamlit.testing.v1 import AppTest

from rankviz.datasets import reading
from rankviz.datasets.label_ranking import load_benchmark, load_csv
from rankviz.datasets.reading import describe_missing_features, read_csv_header
from rankviz.exceptions import DataError
from rankviz.datasets.queries import load_query_csv
from rankviz.datasets.svmlight import load_svmlight
from rankviz.datasets.ordinal import load_ordinal_csv, read_target_values
from rankviz.ui.text import counted, md_escape
from rankviz.ui.upload import upload_digest
from bad_inputs import CASES, FAMILY
from drawings import drawings

UPLOAD = "__upload__"
BY_NAME = {case.file: case for case in CASES}
OVERSIZE = "oversize.csv"
#: An upload whose columns cannot be chosen as the case's; the picker waits for a choice.
NOT_CHOSEN = (None, None)
#: Files of each kind for the pages that share the label-ranking picker with ranking_trees.
LR_SAMPLE = ["ranks_bom.csv", "ranks_missing_features.csv", "ranks_rank_inf.csv", "ranks_duplicate_columns.csv",
             "bench_decimal_comma.txt", "bench_rank_inf.txt", "scores_decimal_comma.csv",
             "ordering_ties.csv", "ordering_spaces.csv", "ranks_latin1.csv", "bench_dense_partial.txt",
             "ranks_repeat.csv", "bench_rank_out_of_range.txt"]


def family(name):
    return [case.file for case in CASES if FAMILY[case.loader] == name]


def named(content, name):
    buffer = io.BytesIO(content)
    buffer.name = name
    return buffer


def attempt(load):
    """``(dataset, None)`` or ``(None, message)``."""
    try:
        return load(), None
    except DataError as error:
        return None, str(error)


def content_of(name):
    return bytes(reading.MAX_UPLOAD_BYTES + 1) if name == OVERSIZE else BY_NAME[name].content


def oversize_message():
    _, message = attempt(lambda: reading.check_upload_size(reading.MAX_UPLOAD_BYTES + 1, OVERSIZE))
    return message


def digest(content, name):
    return upload_digest(name, content)


def errors(at):
    return [e.value for e in at.error]


def no_exception(at):
    assert not at.exception, [e.value for e in at.exception]


def missing_captions(at):
    return [c.value for c in at.sidebar.caption if "feature value" in c.value and "missing" in c.value]


def convention_captions(at):
    return [c.value for c in at.sidebar.caption if c.value.startswith("Rank positions")]


def check_outcome(at, name, expected, shows, page_errors=()):
    """The page after an upload: the message of a refused file, or the loaded data.

    ``page_errors``: what the page itself must say about data that loaded
    (e.g. that a criterion needs complete rankings).
    """
    no_exception(at)
    if expected is NOT_CHOSEN:
        assert errors(at) == [] and not drawings(at), name
        assert any("Choose the label columns" in i.value for i in at.sidebar.info), name
        return
    dataset, message = expected
    if message is not None:
        # the loader's message, as literal Markdown (a file name's _ must not start emphasis)
        assert errors(at) == [f"**Upload problem.** {md_escape(message)}"], (name, errors(at))
        assert not drawings(at), name  # nothing drawn from the previous data
        return
    assert len(errors(at)) == len(page_errors), (name, errors(at))
    for shown, part in zip(errors(at), page_errors):
        assert part in shown, (name, shown)
    assert bool(drawings(at)) != bool(page_errors), name  # drawn unless the page says why not
    shows(at, dataset)
    caption = describe_missing_features(dataset.n_missing_features, dataset.X.size)
    assert missing_captions(at) == ([caption] if caption else []), name
    convention = getattr(dataset, "rank_convention", None)  # label-ranking data: positions converted, if so
    shown = [md_escape(convention.text)] if convention is not None and convention.converted else []
    assert convention_captions(at) == shown, (name, convention_captions(at))


def expander_labels(at):
    """Expander labels as written (Streamlit escapes markdown such as the ``_`` of file names)."""
    return [e.label.replace("\\_", "_") for e in at.expander]


def trees(at):
    """What each drawing shows of its tree: every node's tooltip (its test or leaf) and the edges.

    Display settings are left out: a small upload clamps settings such as
    the labels shown per leaf, and they stay clamped after switching back.
    """
    return [(re.findall(r'tooltip="([^"]*)"', dot), re.findall(r"(node\d+ -> node\d+)", dot))
            for dot in drawings(at)]


# --------------------------------------------------------------------------- #
# label ranking: ranking_trees, side_by_side, mallows_trees, impurity_vs_gini (ranking)
# --------------------------------------------------------------------------- #
def lr_upload(at, name):
    """Upload as a person would with the label-ranking picker; return what the page should show."""
    content = content_of(name)
    at.file_uploader(key="upload_file").set_value((name, content, "text/csv")).run()
    if name == OVERSIZE:
        return None, oversize_message()
    case, d = BY_NAME[name], digest(content, name)
    if case.loader == "benchmark":
        at.radio(key=f"upload_kind_{d}").set_value("benchmark").run()
        return attempt(lambda: load_benchmark(named(content, name), name=name))
    header, message = attempt(lambda: read_csv_header(named(content, name)))
    if message is not None:
        return None, message
    targets = case.options["target_columns"]
    if not set(targets) <= set(header):  # e.g. one 140,000-character line: no such columns to choose
        return NOT_CHOSEN
    if case.loader != "ranks":
        at.radio(key=f"upload_target_{d}").set_value(case.loader).run()
    if case.loader == "ordering":
        at.selectbox(key=f"upload_ordering_{d}").set_value(targets[0]).run()
    else:
        at.multiselect(key=f"upload_labels_{d}").set_value(targets).run()
    features = [c for c in header if c not in targets]
    return attempt(lambda: load_csv(named(content, name), features, case.loader, targets, name=name))


def expander_shows(at, ds):
    label = (f"Data: {ds.name} — {counted(ds.n_samples, 'example')}, "
             f"{counted(len(ds.feature_names), 'attribute')}, {counted(ds.n_labels, 'label')}")
    assert label in expander_labels(at), expander_labels(at)


def root_shows(at, ds):
    dots = drawings(at)
    assert len(dots) == 2 and all(f"n = {ds.n_samples}," in dot for dot in dots)


def summary_shows(at, ds):
    summary = f"**{md_escape(ds.name)}**: {counted(ds.n_samples, 'example')}, {counted(ds.n_labels, 'label')}."
    assert any(m.value.startswith(summary) for m in at.markdown), [m.value[:80] for m in at.markdown]


LR_PAGES = {
    "ranking_trees": (family("label ranking") + [OVERSIZE], expander_shows),
    "mallows_trees": (LR_SAMPLE + [OVERSIZE], expander_shows),
    "ranking_forest": (LR_SAMPLE + [OVERSIZE], expander_shows),
    "side_by_side": (LR_SAMPLE + [OVERSIZE], root_shows),
    "impurity_vs_gini": (LR_SAMPLE[:6] + [OVERSIZE], summary_shows),
}


def open_page(app_path, page, **state):
    at = AppTest.from_file(app_path, default_timeout=180)
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(f"app_pages/{page}.py").run()
    no_exception(at)
    return at


@pytest.mark.parametrize("page", list(LR_PAGES))
def test_label_ranking_pages_take_every_upload(app_path, page):
    names, shows = LR_PAGES[page]
    # the impurity page on its ranking data; the forest with few trees (the uploads, not the forest, are tested)
    state = {"impurity_vs_gini": {"ivg_kind": "ranking"}, "ranking_forest": {"forest_trees": 5}}.get(page, {})
    at = open_page(app_path, page, **state)
    sample = at.selectbox(key="dataset").value
    before = trees(at)
    assert before and not errors(at)
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    loaded = refused = 0
    for name in names:
        expected = lr_upload(at, name)
        incomplete = expected[0] is not None and np.isnan(expected[0].Y).any()
        # ordering_unknown_label.csv: without a label list, 'd' is a label most rows lack
        check_outcome(at, name, expected, shows,
                      page_errors=["needs complete rankings"] if incomplete else [])
        loaded += expected is not NOT_CHOSEN and expected[1] is None
        refused += expected[1] is not None
    assert loaded >= 3 and refused >= 3
    at.selectbox(key="dataset").set_value(sample).run()
    no_exception(at)
    assert not errors(at)
    assert trees(at) == before


def test_dense_rank_benchmark_upload_names_the_convention_on_ranking_trees(app_path):
    """KEBI-style partial rankings (1,2,2,2,2): loaded, one caption says how they were read, a tree is drawn."""
    at = open_page(app_path, "ranking_trees")
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    dataset, message = lr_upload(at, "bench_dense_partial.txt")
    assert message is None and dataset.rank_convention.kind == "dense ranks"
    no_exception(at)
    assert errors(at) == [] and drawings(at)
    assert convention_captions(at) == [md_escape(dataset.rank_convention.text)]
    shown = convention_captions(at)[0].replace("\\", "")  # md_escape's backslashes
    assert shown.startswith("Rank positions read as dense or competition ranks (tied labels share one position; "
                            "line 2: 1, 2, 2, 2, 2 read as 1, 3.5, 3.5, 3.5, 3.5)"), shown
    expander_shows(at, dataset)


# --------------------------------------------------------------------------- #
# ordinal: impurity_vs_gini (ordinal data)
# --------------------------------------------------------------------------- #
def ordinal_upload(at, name):
    content = content_of(name)
    at.file_uploader(key="ordinal_upload_file").set_value((name, content, "text/csv")).run()
    if name == OVERSIZE:
        return None, oversize_message()
    header, message = attempt(lambda: read_csv_header(named(content, name)))
    if message is not None:
        return None, message
    target = BY_NAME[name].options["target"]
    at.selectbox(key=f"ordinal_target_{digest(content, name)}").set_value(target).run()
    found, message = attempt(lambda: read_target_values(named(content, name), target))
    if message is not None:
        return None, message
    values, numeric = found
    features = [c for c in header if c != target]
    return attempt(lambda: load_ordinal_csv(named(content, name), target, features,
                                            levels=None if numeric else values, name=name))


def level_counts_shown(at, ds):
    """The bar chart of rows per level (training + test bars) adds up to the data's level counts."""
    chart = next(c for c in at.get("plotly_chart") if "Rows per" in c.proto.spec)
    shown = {}
    for bar in json.loads(chart.proto.spec)["data"]:
        for x, y in zip(bar["x"], bar["y"]):
            shown[str(x)] = shown.get(str(x), 0) + y
    assert shown == {str(level): int(n) for level, n in zip(ds.levels, ds.level_counts)}


def test_ordinal_page_takes_every_ordinal_upload(app_path):
    at = open_page(app_path, "impurity_vs_gini", ivg_kind="ordinal")
    sample = at.selectbox(key="ordinal_dataset").value
    before = trees(at)
    assert before and not errors(at)
    at.selectbox(key="ordinal_dataset").set_value(UPLOAD).run()
    outcomes = []
    for name in family("ordinal") + [OVERSIZE]:
        expected = ordinal_upload(at, name)
        check_outcome(at, name, expected, level_counts_shown)
        outcomes.append(expected[1] is None)
    assert sum(outcomes) >= 4 and outcomes.count(False) >= 4
    at.selectbox(key="ordinal_dataset").set_value(sample).run()
    no_exception(at)
    assert not errors(at) and trees(at) == before


# --------------------------------------------------------------------------- #
# learning to rank: mpboost
# --------------------------------------------------------------------------- #
def ltr_upload(at, name):
    content = content_of(name)
    at.file_uploader(key="ltr_upload_file").set_value((name, content, "text/plain")).run()
    if name == OVERSIZE:
        return None, oversize_message()
    csv = BY_NAME[name].loader == "query_csv"
    if csv != name.endswith(".csv"):  # the picker guesses the format from the extension
        at.radio(key=f"ltr_upload_kind_{digest(content, name)}").set_value("csv" if csv else "svmlight").run()
    if not csv:
        return attempt(lambda: load_svmlight(named(content, name), name=name))
    header, message = attempt(lambda: read_csv_header(named(content, name)))
    if message is not None:
        return None, message
    features = [c for c in header if c not in ("qid", "rel")]
    return attempt(lambda: load_query_csv(named(content, name), "qid", "rel", features, name=name))


def ltr_shows(at, ds):
    label = (f"Data: {ds.name} — {counted(ds.n_queries, 'query', 'queries')}, {counted(ds.n_docs, 'document')}, "
             f"{counted(ds.n_features, 'feature')}")
    assert label in expander_labels(at), expander_labels(at)
    assert any(m.label == "Test NDCG@5" for m in at.metric)


def test_mpboost_page_takes_every_learning_to_rank_upload(app_path):
    at = open_page(app_path, "mpboost", mpb_rounds=10)
    sample = at.selectbox(key="ltr_dataset").value
    before = trees(at)
    assert before and not errors(at)
    at.selectbox(key="ltr_dataset").set_value(UPLOAD).run()
    outcomes = []
    for name in family("learning to rank") + [OVERSIZE]:
        expected = ltr_upload(at, name)
        check_outcome(at, name, expected, ltr_shows)
        outcomes.append(expected[1] is None)
    assert sum(outcomes) >= 4 and outcomes.count(False) >= 4
    at.selectbox(key="ltr_dataset").set_value(sample).run()
    no_exception(at)
    assert not errors(at) and trees(at) == before
