"""Graphviz views of an MPBoost ensemble (rankviz.viz.dot.stumps): stumps and step functions."""

import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from rankviz.ltr.synthetic import make_ltr_dataset
from rankviz.ltr.mpboost import MPBoost
from rankviz.viz.dot.common import HIGHLIGHT_COLOR
from rankviz.viz.graphviz import available_engines, render
from rankviz.viz.dot.stumps import (
    NEGATIVE_FILL, POSITIVE_FILL, ZERO_FILL, additive_model_to_dot, feature_steps, stumps_to_dot,
)

ENGINES = available_engines()
needs_engine = pytest.mark.skipif(not ENGINES, reason="no Graphviz engine (dot or graphviz-pure) found")

NASTY = 'a<b & "c"'
SVG_TEXT = "{http://www.w3.org/2000/svg}text"


def hand_model(stumps, n_features):
    """An MPBoost holding the given ``(feature, threshold, value, gain)`` stumps."""
    model = MPBoost()
    features, thresholds, values, gains = (np.array(column) for column in zip(*stumps))
    model.n_features_in_ = n_features
    model.feature_ = features.astype(np.intp)
    model.threshold_ = thresholds.astype(float)
    model.value_ = values.astype(float)
    model.gain_ = gains.astype(float)
    model.normalizer_ = np.full(len(features), 0.9)
    model.n_rounds_ = len(features)
    return model


# Worked by hand:
#   feature 0: +0.5 above 1, -0.2 above 2, +0.1 above 1  -> thresholds (1, 2), levels (0, 0.6, 0.4)
#   feature 1: +0.3 above 0.5, -0.4 above -1             -> thresholds (-1, 0.5), levels (0, -0.4, -0.1)
#   feature 2: unused. Total gain: feature 0 0.45, feature 1 0.5, so feature 1 is listed first;
#   the newest stump is on feature 1.
HAND_STUMPS = [(0, 1.0, 0.5, 0.3), (1, 0.5, 0.3, 0.2), (0, 2.0, -0.2, 0.1), (0, 1.0, 0.1, 0.05),
               (1, -1.0, -0.4, 0.3)]


@pytest.fixture(scope="module")
def hand():
    return hand_model(HAND_STUMPS, n_features=3)


@pytest.fixture(scope="module")
def fitted():
    data = make_ltr_dataset(n_queries=30, docs_per_query=(5, 12), n_features=6, n_informative=4,
                            noise=0.5, seed=3)
    model = MPBoost(ddf="logdd", n_rounds=40).fit(data.X, data.relevance, qid=data.qid)
    return model, data


def svg_texts(dot, engine):
    root = ET.fromstring(render(dot, "svg", engine=engine))
    return [el.text or "" for el in root.iter(SVG_TEXT)]


def interval_rows(dot, feature):
    """(text, fill, value) of each interval row of one feature's table in additive DOT."""
    line = next(line for line in dot.splitlines() if line.startswith(f"f{feature} ["))
    rows = re.findall(r'<TR><TD ALIGN="LEFT" BGCOLOR="(#[0-9a-f]+)">(.*?)</TD>'
                      r'<TD ALIGN="RIGHT" BGCOLOR="#[0-9a-f]+">(.*?)</TD></TR>', line)
    return [(text, fill, float(value)) for fill, text, value in rows]


# --------------------------------------------------------------------------- #
# feature_steps
# --------------------------------------------------------------------------- #
def test_feature_steps_worked_by_hand(hand):
    thresholds, levels = feature_steps(hand, 0)
    np.testing.assert_allclose(thresholds, [1.0, 2.0])
    np.testing.assert_allclose(levels, [0.0, 0.6, 0.4])
    thresholds, levels = feature_steps(hand, 1)
    np.testing.assert_allclose(thresholds, [-1.0, 0.5])
    np.testing.assert_allclose(levels, [0.0, -0.4, -0.1])
    thresholds, levels = feature_steps(hand, 2)
    assert thresholds.size == 0
    np.testing.assert_array_equal(levels, [0.0])


def step_value(thresholds, levels, x):
    """The step function at x: ``levels[i]`` for ``thresholds[i-1] < x <= thresholds[i]``."""
    return levels[np.searchsorted(thresholds, x, side="left")]


def test_feature_steps_equal_the_sum_of_the_features_stumps(fitted):
    model, data = fitted
    used = np.unique(model.feature_)
    assert used.size >= 2
    for k in used:
        thresholds, levels = feature_steps(model, k)
        assert levels[0] == 0.0 and levels.size == thresholds.size + 1
        assert np.all(np.diff(thresholds) > 0)
        # the thresholds themselves and points just either side of each are the tricky spots
        x = np.concatenate([data.X[:, k], thresholds, thresholds - 1e-9, thresholds + 1e-9])
        mask = model.feature_ == k
        direct = ((x[:, None] > model.threshold_[mask]) * model.value_[mask]).sum(axis=1)
        np.testing.assert_allclose(step_value(thresholds, levels, x), direct, atol=1e-12)


def test_feature_steps_are_what_the_model_adds_when_only_that_feature_changes(fitted):
    model, data = fitted
    k = int(model.feature_[0])
    thresholds, levels = feature_steps(model, k)
    x = np.linspace(data.X[:, k].min() - 1, data.X[:, k].max() + 1, 301)
    X = np.tile(data.X[0], (x.size, 1))
    X[:, k] = x
    base = X[:1].copy()
    base[0, k] = -1e9  # below every threshold: the feature adds levels[0] = 0
    change = model.predict(X) - model.predict(base)[0]
    np.testing.assert_allclose(change, step_value(thresholds, levels, x), atol=1e-10)


def test_feature_steps_add_up_to_predict(fitted):
    model, data = fitted
    total = sum(step_value(*feature_steps(model, k), data.X[:, k]) for k in range(model.n_features_in_))
    np.testing.assert_allclose(total, model.predict(data.X), atol=1e-10)


# --------------------------------------------------------------------------- #
# stumps_to_dot
# --------------------------------------------------------------------------- #
def drawn_stumps(dot):
    """Round number (1-based) of each stump drawn, in order."""
    return [int(r) for r in re.findall(r'<FONT POINT-SIZE="9">round (\d+)</FONT>', dot)]


@pytest.mark.parametrize("last", [1, 3, 5, 10])
def test_stumps_to_dot_draws_the_latest_stumps_oldest_first(hand, last):
    dot = stumps_to_dot(hand, last=last)
    n = hand.n_rounds_
    assert drawn_stumps(dot) == list(range(max(1, n - last + 1), n + 1))
    # only the newest stump (its test and its "+a" box) is outlined
    outlined = re.findall(rf'^(s\d+(?:_yes|_no)?) \[.*color="{HIGHLIGHT_COLOR}"', dot, flags=re.M)
    assert outlined == [f"s{n - 1}", f"s{n - 1}_yes"]


def test_stumps_to_dot_shows_each_stumps_test_and_value(hand):
    dot = stumps_to_dot(hand, feature_names=["alpha", "beta", "gamma"], last=10)
    tests = re.findall(r"<B>(\w+) &gt; ([-0-9.e]+)</B>", dot)
    names = ["alpha", "beta", "gamma"]
    assert [name for name, _ in tests] == [names[f] for f, *_ in HAND_STUMPS]
    np.testing.assert_allclose([float(t) for _, t in tests], [t for _, t, *_ in HAND_STUMPS])
    yes = re.findall(r'^s(\d+)_yes \[label="([^"]+)", fillcolor="(#[0-9a-f]+)"', dot, flags=re.M)
    assert [int(t) for t, *_ in yes] == list(range(len(HAND_STUMPS)))
    for (_, label, fill), (_, _, value, _) in zip(yes, HAND_STUMPS):
        assert float(label) == pytest.approx(value)
        assert label[0] == ("+" if value > 0 else "-")  # signed, so "+a" reads as an addition
        assert fill == (POSITIVE_FILL if value > 0 else NEGATIVE_FILL)
    # every stump's other outcome adds nothing; edges yes / no
    assert len(re.findall(r'^s\d+_no \[label="0"', dot, flags=re.M)) == len(HAND_STUMPS)
    assert dot.count('[label="yes"]') == dot.count('[label="no", style="dashed"]') == len(HAND_STUMPS)


def test_stumps_to_dot_default_names_and_fitted_model(fitted):
    model, _ = fitted
    dot = stumps_to_dot(model, last=7)
    assert drawn_stumps(dot) == list(range(model.n_rounds_ - 6, model.n_rounds_ + 1))
    names = re.findall(r"<B>(f\d+) &gt; ", dot)
    assert names == [f"f{k + 1}" for k in model.feature_[-7:]]


def test_stumps_to_dot_of_an_empty_model(fitted):
    model, _ = fitted
    dot = stumps_to_dot(model.truncated(0))
    assert drawn_stumps(dot) == [] and "no stumps yet" in dot


@needs_engine
@pytest.mark.parametrize("engine", ENGINES)
def test_stumps_dot_renders_with_escaped_names(hand, engine):
    dot = stumps_to_dot(hand, feature_names=[NASTY, "b&b", "c"], title=f"title {NASTY}")
    texts = svg_texts(dot, engine)
    assert f"title {NASTY}" in texts
    assert f"{NASTY} > 1" in texts and f"{NASTY} > 2" in texts and "b&b > 0.5" in texts
    assert sum(text.startswith("round ") for text in texts) == hand.n_rounds_
    assert "-0.4" in texts and "+0.5" in texts


@needs_engine
def test_empty_stumps_dot_renders(fitted):
    texts = svg_texts(stumps_to_dot(fitted[0].truncated(0)), ENGINES[0])
    assert "no stumps yet" in texts


# --------------------------------------------------------------------------- #
# additive_model_to_dot
# --------------------------------------------------------------------------- #
def test_additive_model_worked_by_hand(hand):
    dot = additive_model_to_dot(hand, feature_names=["alpha", "beta", "gamma"])
    # features by total gain (feature 1: 0.5, feature 0: 0.45); the unused one is left out
    assert re.findall(r"^f(\d+) \[", dot, flags=re.M) == ["1", "0"]
    assert 'root [label="F(x) = sum of 5 stumps over 2 features"' in dot
    assert re.findall(r"^root -> (\w+);", dot, flags=re.M) == ["f1", "f0"]
    assert "more" not in dot and "gamma" not in dot
    assert interval_rows(dot, 0) == [("x &lt;= 1", ZERO_FILL, 0.0), ("1 &lt; x &lt;= 2", POSITIVE_FILL, 0.6),
                                     ("x &gt; 2", POSITIVE_FILL, 0.4)]
    assert interval_rows(dot, 1) == [("x &lt;= -1", ZERO_FILL, 0.0), ("-1 &lt; x &lt;= 0.5", NEGATIVE_FILL, -0.4),
                                     ("x &gt; 0.5", NEGATIVE_FILL, -0.1)]
    # the newest stump is on feature 1: its table is outlined, feature 0's is not
    f1 = next(line for line in dot.splitlines() if line.startswith("f1 ["))
    f0 = next(line for line in dot.splitlines() if line.startswith("f0 ["))
    assert f'COLOR="{HIGHLIGHT_COLOR}"' in f1 and HIGHLIGHT_COLOR not in f0
    assert "<B>beta</B>" in f1 and "(2 stumps)" in f1 and "(3 stumps)" in f0


def test_additive_model_intervals_match_feature_steps(fitted):
    model, _ = fitted
    dot = additive_model_to_dot(model, max_features=model.n_features_in_, max_steps=1000)
    used = np.unique(model.feature_)
    assert sorted(int(k) for k in re.findall(r"^f(\d+) \[", dot, flags=re.M)) == used.tolist()
    for k in used:
        thresholds, levels = feature_steps(model, k)
        rows = interval_rows(dot, k)
        assert len(rows) == levels.size
        # values are printed to 3 significant digits
        np.testing.assert_allclose([value for *_, value in rows], levels, rtol=5e-3, atol=1e-12)
        edges = [float(v) for text, *_ in rows for v in re.findall(r"-?[0-9.]+(?:e[-+]?\d+)?", text)]
        # each threshold closes one interval and opens the next
        expected = np.repeat(thresholds, 2)
        np.testing.assert_allclose(edges, expected, rtol=5e-4)


def test_additive_model_orders_features_by_total_gain_and_counts_the_rest(fitted):
    model, _ = fitted
    gain = np.bincount(model.feature_, weights=model.gain_, minlength=model.n_features_in_)
    used = np.unique(model.feature_)
    assert used.size >= 3
    dot = additive_model_to_dot(model, max_features=2)
    shown = [int(k) for k in re.findall(r"^f(\d+) \[", dot, flags=re.M)]
    assert shown == list(np.argsort(-gain, kind="stable")[:2])
    rest = used.size - 2
    assert f'more [label="+ {rest} more feature{"s" if rest != 1 else ""}"' in dot
    assert f"over {used.size} features" in dot and f"sum of {model.n_rounds_} stumps" in dot


@pytest.mark.parametrize("max_steps", [1, 2, 3, 4])
def test_additive_model_cuts_long_step_functions(fitted, max_steps):
    model, _ = fitted
    k = int(np.bincount(model.feature_).argmax())
    _, levels = feature_steps(model, k)
    assert levels.size > 4
    dot = additive_model_to_dot(model, max_features=model.n_features_in_, max_steps=max_steps)
    rows = interval_rows(dot, k)
    head = max_steps // 2
    assert [value for *_, value in rows] == pytest.approx(
        list(levels[:head]) + list(levels[levels.size - head:]), rel=5e-3, abs=1e-12)
    line = next(line for line in dot.splitlines() if line.startswith(f"f{k} ["))
    assert f"... {levels.size - 2 * head} more intervals ..." in line


def test_additive_model_of_an_empty_model(fitted):
    dot = additive_model_to_dot(fitted[0].truncated(0))
    assert "sum of 0 stumps over 0 features" in dot
    assert re.findall(r"^f(\d+) \[", dot, flags=re.M) == []


@needs_engine
@pytest.mark.parametrize("engine", ENGINES)
def test_additive_dot_renders_with_escaped_names(hand, engine):
    dot = additive_model_to_dot(hand, feature_names=[NASTY, "b&b", "c"], title=NASTY, max_features=1)
    texts = svg_texts(dot, engine)
    assert NASTY in texts  # the title
    assert "b&b" in texts  # the first feature by gain
    assert texts.count(NASTY) == 1  # feature 0 is cut: its name is not drawn
    assert "+ 1 more feature" in texts
    assert "x <= -1" in texts and "-1 < x <= 0.5" in texts and "x > 0.5" in texts
    assert "-0.4" in texts and "-0.1" in texts
    full = svg_texts(additive_model_to_dot(hand, feature_names=[NASTY, "b&b", "c"]), engine)
    assert NASTY in full and "1 < x <= 2" in full and "+0.6" in full
