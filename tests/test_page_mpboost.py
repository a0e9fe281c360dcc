"""The "MPBoost" page (Zhu et al. 2009), run headless with Streamlit's AppTest.

The numbers on the page are checked against the library: the metrics against
``MPBoost`` + ``mean_ndcg`` at the round shown, the drawing against the
model's stumps, the comparison chart against ``compare_rankers``.
"""

import io
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from apptest_pages import ok, open_tab

from rankviz import MPBoost, load_ltr_sample, make_ltr_dataset
from rankviz.datasets.svmlight import dump_svmlight
from rankviz.ltr.metrics import mean_ndcg
from rankviz.experiments.ltr_study import compare_rankers, method_title
from rankviz.ui.ltr_data_picker import UPLOAD
from drawings import drawings

PAGE = "app_pages/mpboost.py"


@pytest.fixture(scope="module")
def sample():
    return load_ltr_sample()


def open_page(app_path, rounds=30, **state):
    at = AppTest.from_file(app_path, default_timeout=180)
    at.session_state["mpb_rounds"] = rounds
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(PAGE).run()
    return at



def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def dot_of(at):
    return drawings(at)[0]


def library_model(sample, ddf="logdd", parameter=1.0, rounds=30, shrinkage=1.0):
    train = sample["train"]
    return MPBoost(ddf=ddf, parameter=parameter, n_rounds=rounds, shrinkage=shrinkage).fit(
        train.X, train.relevance, qid=train.qid)


def test_default_page_shows_the_library_model(app_path, sample):
    at = open_page(app_path, rounds=30)
    ok(at)
    model = library_model(sample, rounds=30)
    for split, label in (("train", "Train"), ("vali", "Validation"), ("test", "Test")):
        data = sample[split]
        expected = mean_ndcg(data.relevance, model.predict(data.X), data.qid, ks=[5])[0]
        assert metric(at, f"{label} NDCG@5") == f"{expected:.3f}"
    vali = sample["vali"]
    curve = [mean_ndcg(vali.relevance, s, vali.qid, ks=[5])[0] for s in model.staged_predict(vali.X)]
    assert metric(at, "Best validation round") == str(int(np.argmax(curve)) + 1)
    dot = dot_of(at)
    # the newest stump is drawn with its feature and threshold, outlined
    newest = f"{sample['train'].feature_names[model.feature_[-1]]} &gt; {model.threshold_[-1]:.4g}"
    assert newest in dot and "round 30" in dot
    assert any("MPBoost.LOGDD, λ = 1, 30 rounds" in m.value for m in at.markdown)


def test_round_slider_shows_the_ensemble_at_that_round(app_path, sample):
    at = open_page(app_path, rounds=30)
    at.slider(key="mpb_round").set_value(7).run()
    ok(at)
    model = library_model(sample, rounds=30)
    test = sample["test"]
    expected = mean_ndcg(test.relevance, model.predict(test.X, rounds=7), test.qid, ks=[5])[0]
    assert metric(at, "Test NDCG@5") == f"{expected:.3f}"
    dot = dot_of(at)
    assert "round 7" in dot and "round 8" not in dot
    # the curves stop at the round shown
    chart = at.get("plotly_chart")[0].proto.spec
    assert '"name":"test"' in chart.replace(" ", "")
    # additive view: the model regrouped by feature, after 7 stumps
    at.radio(key="mpb_view").set_value("additive").run()
    ok(at)
    assert "F(x) = sum of 7 stumps" in dot_of(at)


def test_cut_off_and_form_change_the_metrics(app_path, sample):
    at = open_page(app_path, rounds=20, mpb_k=3, mpb_form="mpboost")
    ok(at)
    model = library_model(sample, rounds=20)
    test = sample["test"]
    expected = mean_ndcg(test.relevance, model.predict(test.X), test.qid, ks=[3], form="mpboost")[0]
    assert metric(at, "Test NDCG@3") == f"{expected:.3f}"


def test_binary_labelling_and_shrinkage(app_path, sample):
    at = open_page(app_path, rounds=20, mpb_ddf="binary", mpb_shrinkage=0.5)
    ok(at)
    assert any("MPBoost.BINARY, 20 rounds, shrinkage ν = 0.5" in m.value for m in at.markdown)
    model = library_model(sample, ddf="binary", parameter=None, rounds=20, shrinkage=0.5)
    train = sample["train"]
    expected = mean_ndcg(train.relevance, model.predict(train.X), train.qid, ks=[5])[0]
    assert metric(at, "Train NDCG@5") == f"{expected:.3f}"


def test_condition_9_is_flagged_when_distances_are_far_from_one(app_path):
    # LOGDD with the Fig. 2 value lambda = 3: |dist| up to 2.6 on grades 0..4
    at = open_page(app_path, rounds=20, mpb_param_logdd=3.0)
    assert not at.exception
    texts = [w.value for w in at.warning]
    assert any("overshoots" in t for t in texts)
    assert any("loss **rose**" in t for t in texts)  # Z_t > 1 in some rounds
    # with shrinkage the note no longer warns, and the loss falls every round
    at = open_page(app_path, rounds=20, mpb_param_logdd=3.0, mpb_shrinkage=0.2)
    assert not any("rose" in w.value for w in at.warning)


def test_comparison_chart_matches_the_library(app_path, sample):
    at = open_page(app_path, rounds=20)
    open_tab(at, "mpb_tab", "Compare labellings and baselines (Figs. 3–5)")
    at.toggle(key="mpb_tune").set_value(False).run()
    at.button(key="mpb_compare").click().run()
    ok(at)
    expected = compare_rankers(sample["train"], sample["vali"], sample["test"], n_rounds=20, tune=False).summary()
    chart = next(c for c in at.get("plotly_chart") if "Test NDCG@k per method" in c.proto.spec)
    for method in expected["method"].unique():
        assert method_title(method) in chart.proto.spec
    # the paired table: one row per method other than the reference (BINARY)
    table = next(d.value for d in reversed(at.dataframe) if "method" in d.value.columns)
    assert len(table) == len(expected["method"].unique()) - 1
    logdd = expected[(expected["method"] == "logdd") & (expected["k"] == 5)]["mean"].iloc[0]
    row = table[table["method"] == "MPBoost.LOGDD"].iloc[0]
    assert row["mean NDCG@5"] == pytest.approx(logdd)


def upload(at, text, name):
    at.selectbox(key="ltr_dataset").set_value(UPLOAD).run()
    at.sidebar.file_uploader[0].set_value((name, text.encode(), "text/plain")).run()
    return at


def test_uploaded_svmlight_file_is_split_and_boosted(app_path):
    data = make_ltr_dataset(n_queries=30, docs_per_query=(6, 10), n_features=5, n_informative=2, seed=3)
    buffer = io.StringIO()
    dump_svmlight(data, buffer)
    at = open_page(app_path, rounds=10)
    upload(at, buffer.getvalue(), "mine.txt")
    ok(at)
    assert metric(at, "Test NDCG@5")  # the ensemble was grown on the upload
    assert "round 10" in dot_of(at)


def test_bad_upload_names_the_line(app_path):
    at = open_page(app_path, rounds=10)
    upload(at, "2 qid:1 1:0.5 2:1\n1 qid:1 1:0.1 2:abc\n", "broken.txt")
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "broken.txt, line 2" in errors[0] and "abc" in errors[0]
    assert not drawings(at)


def test_play_shows_each_round_on_the_slider_and_pause_keeps_it(app_path):
    """While playing, a disabled slider shows the round drawn; Pause hands that round to the real slider."""
    at = open_page(app_path, rounds=30)
    at.button(key="mpb_play").click().run()  # from the last round, Play starts again at round 1
    ok(at)
    shown = [s for s in at.slider if s.label == "Show the ensemble after round"]
    assert len(shown) == 1 and shown[0].disabled and shown[0].key != "mpb_round"
    assert shown[0].value == 2  # the first tick of the play
    assert "Stumps 1–2 of 2" in dot_of(at)
    at.button(key="mpb_play").click().run()  # Pause
    ok(at)
    assert at.slider(key="mpb_round").value == 2 and not at.slider(key="mpb_round").disabled
    assert "Stumps 1–2 of 2" in dot_of(at)
    # the play's early rounds draw fewer stumps, but the reader's choice of six stays
    assert at.number_input(key="mpb_last").value == 6
    at.slider(key="mpb_round").set_value(30).run()
    assert "Stumps 25–30 of 30" in dot_of(at)


def test_counts_of_one_read_in_the_singular(app_path):
    at = open_page(app_path, rounds=10)
    at.slider(key="mpb_round").set_value(1).run()
    ok(at)
    helps = [m.proto.help for m in at.metric if m.label.endswith("NDCG@5")]
    assert len(helps) == 3 and all(h.endswith("after 1 round.") for h in helps)
    assert "Stump 1 of 1 (newest outlined in red)" in dot_of(at)
    at.radio(key="mpb_view").set_value("additive").run()
    ok(at)
    assert "The score after 1 round, feature by feature" in dot_of(at)
    # Four queries split 2/1/1: the paired comparison is over 1 test query.
    lines = [f"{grade} qid:{q} 1:{x1} 2:{x2}" for q, grade, x1, x2 in [
        (1, 1, 0.5, 1), (1, 0, 0.1, 0), (2, 2, 0.7, 1), (2, 0, 0.2, 3),
        (3, 1, 0.3, 2), (3, 0, 0.9, 0), (4, 2, 0.4, 1), (4, 0, 0.6, 2)]]
    upload(at, "\n".join(lines) + "\n", "tiny.txt")
    ok(at)
    open_tab(at, "mpb_tab", "Compare labellings and baselines (Figs. 3–5)")
    at.button(key="mpb_compare").click().run()
    ok(at)
    assert any(m.value.startswith("**Paired over 1 test query, NDCG@5**") for m in at.markdown)


def test_an_upload_of_one_query_is_refused_in_the_singular(app_path):
    at = open_page(app_path, rounds=10)
    upload(at, "2 qid:1 1:0.5 2:1\n0 qid:1 1:0.1 2:0\n", "one.txt")
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "1 query; expected at least 3 queries" in errors[0]
    assert not drawings(at)


# --------------------------------------------------------------------------- #
# uploads as people have them: group files, one's own test file, lone documents
# --------------------------------------------------------------------------- #
def svmlight_text(data, qid=True):
    """``data`` as svmlight lines, with or without ``qid:`` (rows in query order)."""
    buffer = io.StringIO()
    dump_svmlight(data, buffer)
    text = buffer.getvalue()
    return text if qid else re.sub(r" qid:\S+", "", text)


def group_text(data):
    """The group file of ``data``: one query size per line, queries in order of first appearance."""
    return "".join(f"{n}\n" for n in data.query_sizes)


def put_file(at, key, text, name):
    at.file_uploader(key=key).set_value((name, text.encode(), "text/plain")).run()
    return at


def split_rows(at):
    table = next(d.value for d in at.dataframe if "split" in d.value.columns)
    return table.set_index("split")


@pytest.fixture(scope="module")
def ltr_files():
    def make(n_queries, seed, n_features=5):
        return make_ltr_dataset(n_queries=n_queries, docs_per_query=(6, 10), n_features=n_features,
                                n_informative=2, seed=seed)
    return {"train": make(30, 3), "test": make(9, 4), "vali": make(7, 5), "wide": make(9, 6, n_features=7)}


def test_svmlight_without_qid_asks_for_its_group_file_then_trains(app_path, ltr_files):
    train = ltr_files["train"]
    at = open_page(app_path, rounds=10)
    upload(at, svmlight_text(train, qid=False), "train.txt")
    assert not at.exception
    warnings = [w.value for w in at.warning if "group file" in w.value]
    assert len(warnings) == 1 and "The lines of **train.txt** have no `qid:`" in warnings[0]
    assert not at.error and not drawings(at)
    assert any("without qid:, as LightGBM and XGBoost write them" in c.value for c in at.sidebar.caption)
    put_file(at, "ltr_group_file", group_text(train), "train.txt.query")
    ok(at)
    assert not any("group file" in w.value for w in at.warning)
    rows = split_rows(at)
    assert rows["queries"].sum() == train.n_queries and rows["documents"].sum() == train.n_docs
    assert metric(at, "Test NDCG@5") and "round 10" in dot_of(at)
    # a group file that does not add up is one located message
    put_file(at, "ltr_group_file", "6\n6\n", "bad.query")
    errors = [e.value for e in at.error]
    assert not at.exception and len(errors) == 1
    assert "train.txt" in errors[0] and f"has {train.n_docs:,}" in errors[0]


def test_own_test_file_is_used_and_validation_split_off(app_path, ltr_files):
    train, test, vali = ltr_files["train"], ltr_files["test"], ltr_files["vali"]
    at = open_page(app_path, rounds=10)
    upload(at, svmlight_text(train), "train.txt")
    at.radio(key="ltr_test_mode").set_value("own").run()
    assert not at.exception and not drawings(at)  # waiting for the test file
    put_file(at, "ltr_test_file", svmlight_text(test), "test.txt")
    ok(at)
    rows = split_rows(at)
    assert rows.loc["test", "documents"] == test.n_docs and rows.loc["test", "queries"] == test.n_queries
    # no validation file: a quarter of the training queries, by query
    assert rows.loc["validation", "queries"] == round(0.25 * train.n_queries)
    assert rows.loc["train", "documents"] + rows.loc["validation", "documents"] == train.n_docs
    assert any("a quarter of the queries of **train.txt**" in c.value for c in at.sidebar.caption)
    assert metric(at, "Test NDCG@5")
    # with a validation file every training query trains
    at.checkbox(key="ltr_vali_add").check().run()
    put_file(at, "ltr_vali_file", svmlight_text(vali), "vali.txt")
    ok(at)
    rows = split_rows(at)
    assert rows.loc["train", "documents"] == train.n_docs
    assert rows.loc["validation", "documents"] == vali.n_docs and rows.loc["test", "documents"] == test.n_docs
    model = MPBoost(ddf="logdd", parameter=1.0, n_rounds=10).fit(train.X, train.relevance, qid=train.qid)
    expected = mean_ndcg(test.relevance, model.predict(test.X), test.qid, ks=[5])[0]
    assert metric(at, "Test NDCG@5") == f"{expected:.3f}"


def test_a_test_file_wider_than_training_is_one_located_message(app_path, ltr_files):
    at = open_page(app_path, rounds=10)
    upload(at, svmlight_text(ltr_files["train"]), "train.txt")
    at.radio(key="ltr_test_mode").set_value("own").run()
    put_file(at, "ltr_test_file", svmlight_text(ltr_files["wide"]), "wide.txt")
    assert not at.exception
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "wide.txt, line 1" in errors[0] and "n\\_features=5" in errors[0]
    assert not drawings(at)


def test_own_csv_test_file_needs_the_same_columns(app_path, ltr_files):
    train, test = ltr_files["train"], ltr_files["test"]
    at = open_page(app_path, rounds=10)
    upload(at, train.to_frame().to_csv(index=False), "train.csv")
    at.radio(key="ltr_test_mode").set_value("own").run()
    put_file(at, "ltr_test_file", test.to_frame().to_csv(index=False), "test.csv")
    ok(at)
    assert split_rows(at).loc["test", "documents"] == test.n_docs
    put_file(at, "ltr_test_file", test.to_frame().drop(columns="f3").to_csv(index=False), "short.csv")
    errors = [e.value for e in at.error]
    assert not at.exception and len(errors) == 1 and "short.csv" in errors[0] and "f3" in errors[0]


def test_one_document_queries_are_kept_and_counted(app_path, ltr_files):
    lone = "".join(f"{g} qid:{900 + q} 1:{q / 7:.3f} 2:0.5 3:1\n" for q, g in enumerate([2, 0, 1, 3]))
    at = open_page(app_path, rounds=10)
    upload(at, svmlight_text(ltr_files["train"]) + lone, "lone.txt")
    ok(at)
    assert split_rows(at)["queries"].sum() == ltr_files["train"].n_queries + 4
    assert any(c.value.startswith("4 queries with a single document kept") for c in at.sidebar.caption)
    assert metric(at, "Test NDCG@5")


def test_a_test_file_of_lone_irrelevant_documents_says_ndcg_is_undefined(app_path, ltr_files):
    at = open_page(app_path, rounds=10)
    upload(at, svmlight_text(ltr_files["train"]), "train.txt")
    at.radio(key="ltr_test_mode").set_value("own").run()
    put_file(at, "ltr_test_file", "".join(f"0 qid:{q} 1:0.5 2:1\n" for q in range(4)), "lone.txt")
    ok(at)
    assert metric(at, "Test NDCG@5") == "—"
    open_tab(at, "mpb_tab", "Compare labellings and baselines (Figs. 3–5)")
    at.toggle(key="mpb_tune").set_value(False).run()
    at.button(key="mpb_compare").click().run()
    ok(at)
    assert any("No test query has a relevant document" in i.value for i in at.info)
