"""Long computations on a page (rankviz.ui.long_run): worker threads, Stop, kept pieces."""

import threading
import time

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from rankviz.ui import evaluation_panel, long_run
from rankviz.ui.long_run import Cancelled, _Job, format_duration

PAGE = '''
import streamlit as st
from rankviz.ui.long_run import background

spec = st.session_state["spec"]
value = background(spec["compute"], key="job", signature=spec["signature"], label="Computing",
                   cancel=spec["cancel"], stopped_text="Try less.")
st.write(f"value: {value}")
'''


@pytest.fixture
def page(tmp_path):
    path = tmp_path / "page.py"
    path.write_text(PAGE)

    def make(compute, signature, cancel=False):
        at = AppTest.from_file(str(path), default_timeout=30)
        at.session_state["spec"] = {"compute": compute, "signature": signature, "cancel": cancel}
        return at
    return make


def written(at):
    return [m.value for m in at.markdown if m.value.startswith("value:")]


def test_a_quick_job_returns_its_value_without_a_bar(page):
    at = page(lambda progress: 42, ("quick", time.time()))
    at.run()
    assert not at.exception
    assert written(at) == ["value: 42"]
    assert not at.button  # no Stop button was needed


def test_a_slow_job_reports_progress_and_is_kept(page):
    calls = []

    def slow(progress):
        calls.append(1)
        for k in range(4):
            progress(k / 4, f"step {k}")
            time.sleep(0.2)
        return "done"

    signature = ("slow", time.time())
    at = page(slow, signature)
    at.run()
    assert not at.exception and written(at) == ["value: done"]
    at.run()  # kept: the same signature is not computed again
    assert written(at) == ["value: done"] and len(calls) == 1


def test_a_stopped_job_shows_a_note_until_continued(page):
    release = threading.Event()

    def blocked(progress):
        release.wait(20)
        return "late"

    signature = ("blocked", time.time())
    at = page(blocked, signature)
    # As if Stop had been pressed while the job ran: the job goes on in the background.
    job = long_run._registry().job(signature, blocked)
    at.session_state["job_stopped_job"] = signature
    at.run()
    assert not at.exception
    assert written(at) == ["value: None"]
    assert at.warning[0].value == "Stopped: Computing. Try less."
    assert at.button(key="job_resume").label == "Continue"
    release.set()
    job.done.wait(5)
    at.button(key="job_resume").click().run()
    assert written(at) == ["value: late"] and not at.warning


def test_a_stopped_job_that_finished_meanwhile_is_shown(page):
    signature = ("finished", time.time())
    at = page(lambda progress: "ready", signature)
    job = long_run._registry().job(signature, lambda progress: "ready")
    job.done.wait(5)
    at.session_state["job_stopped_job"] = signature
    at.run()
    assert written(at) == ["value: ready"] and not at.warning


def test_errors_reach_the_page_and_value_errors_are_kept():
    def failing(progress):
        raise ValueError("bad data")

    job = _Job(failing)
    job.done.wait(5)
    assert isinstance(job.error, ValueError)


def counting(steps, n):
    """A job of ``n`` steps of 5 ms, each reported to ``progress`` and then appended to ``steps``."""
    def loop(progress):
        for k in range(n):
            progress(k / n)
            steps.append(k)
            time.sleep(0.005)
        return "finished"
    return loop


def test_cancel_stops_a_job_at_its_next_progress_call():
    steps = []
    job = _Job(counting(steps, 1000))
    time.sleep(0.05)
    job.cancelled = True
    assert job.done.wait(5)
    assert isinstance(job.error, Cancelled) and job.value is None and len(steps) < 1000


@pytest.mark.parametrize("cancellable", [True, False])
def test_a_job_stops_once_no_session_that_asked_for_it_is_connected(monkeypatch, cancellable):
    # A closed tab: the γ curves of a 40,000-row upload went on for minutes after the browser left.
    connected = {"tab-1": True, "tab-2": True}
    monkeypatch.setattr(long_run, "_session_alive", lambda session: connected.get(session, False))
    steps = []
    job = _Job(counting(steps, 400), cancellable=cancellable)
    job.owners |= {"tab-1", "tab-2"}
    time.sleep(0.05)
    connected["tab-1"] = False  # one of two tabs closed: the other still waits
    time.sleep(0.05)
    assert not job.done.is_set()
    connected["tab-2"] = False
    assert job.done.wait(10)
    if cancellable:
        assert isinstance(job.error, Cancelled) and len(steps) < 400
    else:  # work that is kept for its settings (a tree's growth) runs to its end
        assert job.value == "finished" and len(steps) == 400


def test_format_duration():
    # a formatter of given numbers of seconds, not a measured time
    shown = [format_duration(s) for s in (4.24, 35.2, 600, 7200)]
    assert shown == ["4.2 s", "35 s", "10 min", "2.0 h"]


def test_stopped_evaluation_keeps_the_methods_done(app_path, monkeypatch):
    """Stop reruns the script; Streamlit interrupts it at the next progress update."""
    real = evaluation_panel.compare_methods

    def interrupted(methods, *args, **kwargs):
        scores = real(methods, *args, **kwargs)
        if "KNN (k=1)" in methods and not st.session_state.get("stopped"):
            st.session_state["stopped"] = True
            st.rerun()  # as the Stop button does, after the tree's scores were stored
        return scores

    monkeypatch.setattr(evaluation_panel, "compare_methods", interrupted)
    at = AppTest.from_file(app_path, default_timeout=120)
    at.run()
    at.selectbox(key="dataset").set_value("toy").run()
    at.session_state["explore_tab"] = "Evaluation"  # only the open tab is drawn
    at.run().button(key="eval_run").click().run()
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any("Stopped: the results below are partial (Ranking tree done)" in w for w in warnings)
    assert at.get("plotly_chart")  # the tree's scores are drawn


def test_what_is_left_follows_the_current_job_and_the_rate_per_weight_of_the_finished_ones():
    # arithmetic on given numbers, not a measured time
    from rankviz.ui.long_run import _extrapolated

    # The tree (weight 1) spent 15; KNN (weight 0.3) is at step 59 of 1,484 after 5; the default ranking
    # (weight 0.05) is left: KNN's own rate for its 1,425 steps, the tree's rate for the default ranking.
    left = _extrapolated(spent=20.0, in_job=5.0, done=59, steps=1484, before=1.0, weight=0.3, later=0.05)
    assert left == pytest.approx(5.0 * 1425 / 59 + 0.05 * 15.0)
    # The first job: its own rate per weight serves the later ones too.
    first = _extrapolated(spent=2.0, in_job=2.0, done=1, steps=4, before=0.0, weight=2.0, later=1.0)
    assert first == pytest.approx(2.0 * 3 + 1.0 * 8.0 / 2.0)
    assert _extrapolated(spent=0.0, in_job=0.0, done=0, steps=4, before=0.0, weight=1.0, later=0.0) is None


def test_a_forest_weighs_its_trees_and_the_features_each_split_searches():
    """The bar's weights (one tree = 1): a forest of 100 trees searching √13 of 13 features at a split weighs
    100 √13 / 13 (about 28), so its pace is not promised to the quicker methods after it."""
    from rankviz import RankingForest, RankingTree
    from rankviz.ui.evaluation_panel import _job_weight

    assert _job_weight("Forest", RankingForest(n_estimators=100), 13, 1) == pytest.approx(100 * 13 ** 0.5 / 13)
    assert _job_weight("Forest", RankingForest(n_estimators=10, split_features=None), 13, 1) == pytest.approx(10)
    assert _job_weight("One tree", RankingTree(), 13, 1) == 1.0
    assert _job_weight("KNN (k=auto)", None, 13, "auto") == 3.0
    assert _job_weight("Default ranking", None, 13, 1) == 0.05
