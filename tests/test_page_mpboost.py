"""The "MPBoost" page (Zhu et al. 2009), run headless with Streamlit's AppTest.

The numbers on the page are checked against the library: the metrics against
``MPBoost`` + ``mean_ndcg`` at the round shown, the drawing against the
model's stumps, the comparison chart against ``compare_rankers``.
"""

import io

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from rankviz import MPBoost, load_ltr_sample, make_ltr_dataset
from rankviz.datasets.svmlight import dump_svmlight
from rankviz.ltr.metrics import mean_ndcg
from rankviz.experiments.ltr_study import compare_rankers, method_title
from rankviz.ui.ltr_data_picker import UPLOAD
from drawings import drawings

PAGE = "pages/mpboost.py"


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


def ok(at):
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]


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
    at.toggle(key="mpb_tune").set_value(False).run()
    at.button(key="mpb_compare").click().run()
    ok(at)
    expected = compare_rankers(sample["train"], sample["vali"], sample["test"], n_rounds=20, tune=False).summary()
    chart = next(c for c in at.get("plotly_chart") if "Test NDCG@k per method" in c.proto.spec)
    for method in expected["method"].unique():
        assert method_title(method) in chart.proto.spec
    # the paired table: one row per method other than the reference (BINARY)
    table = at.dataframe[-1].value
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
