"""The "Ranking forest" page, run headless with Streamlit's AppTest: every number against the library."""

import base64
import json
import re

import numpy as np
import pandas as pd
import pytest
from apptest_pages import ok, open_page, open_tab

from rankviz import IBLR, KNNRanker, DefaultRanker, RankingForest, RankingTree, load_sample
from rankviz.experiments.cross_validation import compare_methods
from rankviz.label_ranking import held_out_importance
from rankviz.ui.forest_panel import DEFAULT_TREES
from drawings import drawings

PAGE = "app_pages/ranking_forest.py"
SAMPLE = "iris_nb"


@pytest.fixture
def app(app_path):
    at = open_page(app_path, PAGE)
    ok(at)
    at.selectbox(key="dataset").set_value(SAMPLE).run()
    ok(at)
    return at


def page_forest(**changes):
    params = dict(n_estimators=DEFAULT_TREES, criterion="mean_spearman", split_features="sqrt", min_samples_leaf=1,
                  oob_score=True, random_state=0) | changes
    data = load_sample(SAMPLE)
    return RankingForest(**params).fit(data.X, pd.DataFrame(data.Y, columns=list(data.label_names))), data


def plotly_array(values):
    """Plotly 7 stores numeric arrays as ``{"dtype", "bdata", "shape"}`` (base64)."""
    if isinstance(values, dict):
        array = np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
        return array.reshape([int(n) for n in str(values.get("shape", len(array))).split(",")])
    return np.asarray(values, dtype=float)


def figure(at, key):
    return json.loads(next(c for c in at.get("plotly_chart") if c.key == key).proto.spec)


def test_the_page_shows_the_librarys_forest_and_any_of_its_trees(app):
    forest, _ = page_forest()
    metric = next(m for m in app.metric if m.label == "Out-of-bag Kendall tau")
    assert metric.value == f"{forest.oob_score_:.3f}"
    # the first tree drawn, node for node; then the third
    for number in (1, 3):
        app.number_input(key="forest_tree").set_value(number).run()
        ok(app)
        tree = forest.estimators_[number - 1].tree_
        dot = drawings(app)[0]
        assert len(set(re.findall(r"^\s*(node\d+) \[", dot, flags=re.M))) == tree.node_count
        caption = next(c.value for c in app.caption if c.value.startswith(f"Tree {number}:"))
        assert f"{tree.n_leaves} leaves" in caption
        assert f"{len(np.unique(forest.estimators_samples_[number - 1])):,} distinct" in caption
    # another setting, another forest: half the features at each split
    app.radio(key="forest_features").set_value("half").run()
    ok(app)
    half, _ = page_forest(split_features=0.5)
    assert next(m for m in app.metric if m.label == "Out-of-bag Kendall tau").value == f"{half.oob_score_:.3f}"


def test_importance_per_label_is_the_librarys(app):
    app.slider(key="forest_trees").set_value(10).run()  # a smaller forest: the same computation, sooner
    assert not [c for c in app.get("plotly_chart") if c.key == "forest_importance_chart"]  # only on a press
    app.button(key="forest_importance_run").click().run()
    ok(app)
    data = load_sample(SAMPLE)
    expected = held_out_importance(
        RankingForest(n_estimators=10, min_samples_leaf=1, random_state=0), data.X, data.Y,
        n_repeats=5, random_state=0)
    chart = figure(app, "forest_importance_chart")["data"][0]
    order = np.argsort(-expected.overall_mean, kind="stable")
    np.testing.assert_allclose(plotly_array(chart["z"]), expected.importances_mean[order])
    assert [row.split(" (")[0] for row in chart["y"]] == [expected.feature_names[j] for j in order]
    assert list(chart["x"]) == list(data.label_names)


def test_the_comparison_runs_the_forest_one_tree_iblr_and_the_baselines(app):
    open_tab(app, "forest_tab", "Forest against one tree, IBLR and the baselines")
    app.radio(key="forest_eval_protocol").set_value("kfold").run()
    app.number_input(key="forest_eval_folds").set_value(3).run()
    app.button(key="forest_eval_run").click().run()
    ok(app)
    data = load_sample(SAMPLE)
    methods = {"Forest": RankingForest(n_estimators=DEFAULT_TREES, min_samples_leaf=1, oob_score=True, random_state=0),
               "One tree": RankingTree(), "IBLR": IBLR(n_neighbors="auto"),
               "KNN (k=1)": KNNRanker(n_neighbors=1), "Default ranking": DefaultRanker()}
    expected = compare_methods(methods, data.X, data.Y, cv=3, seed=0)
    means = expected.groupby("method", sort=False)["CS"].mean()
    paired = next(d.value for d in app.dataframe if "wins / ties / losses" in d.value.columns)
    assert list(paired["method"]) == ["One tree", "IBLR", "KNN (k=1)", "Default ranking"]
    assert paired["mean Forest"].iloc[0] == pytest.approx(means["Forest"])
    np.testing.assert_allclose(paired["mean method"].to_numpy(), means.drop("Forest").to_numpy())


@pytest.mark.filterwarnings("ignore:.*no out-of-bag prediction")  # 7 trees: the page counts the rows without
def test_settings_travel_in_the_url(app_path):
    at = open_page(app_path, PAGE, data=SAMPLE, trees="7", features="half", seed="3", min_leaf="2")
    ok(at)
    forest, _ = page_forest(n_estimators=7, split_features=0.5, random_state=3, min_samples_leaf=2)
    assert at.slider(key="forest_trees").value == 7
    assert next(m for m in at.metric if m.label == "Out-of-bag Kendall tau").value == f"{forest.oob_score_:.3f}"
    assert at.radio(key="forest_features").value == "half" and at.number_input(key="forest_seed").value == 3
