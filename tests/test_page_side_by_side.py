"""The "Side by side" page (AppTest): two settings, two trees, one chart of scores."""

import plotly.io
import pytest
from streamlit.testing.v1 import AppTest

from rankviz import DefaultRanker, KNNRanker, RankingTree, load_sample
from rankviz.tree.criteria import CRITERIA
from rankviz.experiments.cross_validation import compare_methods
from test_page_ranking_trees import plotly_array
from drawings import drawings


@pytest.fixture
def app(app_path):
    at = AppTest.from_file(app_path, default_timeout=120)
    at.switch_page("app_pages/side_by_side.py").run()
    assert not at.exception
    return at


def summaries(at):
    return [m.value for m in at.markdown if m.value.startswith(("**Tree A:**", "**Tree B:**"))]


def leaves(n):
    return "1 leaf" if n == 1 else f"{n} leaves"


@pytest.mark.parametrize("criterion", list(CRITERIA))
def test_both_trees_are_the_librarys_for_every_criterion(app, criterion):
    dataset = load_sample("metalearning")
    app.selectbox(key="a_criterion").set_value(criterion)
    app.selectbox(key="b_criterion").set_value(criterion)
    app.slider(key="a_gamma").set_value(0.98)
    app.number_input(key="b_min_leaf").set_value(6).run()
    assert not app.exception
    expected = [RankingTree(criterion, gamma=0.98, min_samples_leaf=10).fit(dataset.X, dataset.Y).tree_,
                RankingTree(criterion, gamma=0.985, min_samples_leaf=6).fit(dataset.X, dataset.Y).tree_]
    for text, tree in zip(summaries(app), expected):
        assert f"{leaves(tree.n_leaves)}, depth {tree.max_depth}." in text
    dots = drawings(app)
    assert len(dots) == 2
    for dot, tree in zip(dots, expected):
        assert dot.count("label=\"yes\"") == tree.node_count // 2


def test_scores_of_both_trees_and_the_baselines_in_one_chart(app):
    app.selectbox(key="dataset").set_value("toy").run()
    app.number_input(key="a_min_leaf").set_value(3).run()
    app.radio(key="compare_eval_protocol").set_value("kfold").run()
    app.number_input(key="compare_eval_folds").set_value(4).run()
    app.button(key="compare_eval_run").click().run()
    assert not app.exception
    dataset = load_sample("toy")
    methods = {"Tree A": RankingTree(gamma=0.995, min_samples_leaf=3),
               "Tree B": RankingTree(gamma=0.985, min_samples_leaf=2),  # the toy set's own leaf size
               "KNN (k=1)": KNNRanker(), "Default ranking": DefaultRanker()}
    expected = compare_methods(methods, dataset.X, dataset.Y, cv=4, seed=0)
    means = expected.groupby("method", sort=False)[["CS", "WRC", "LRA"]].mean()
    bars = plotly.io.from_json(next(c for c in app.get("plotly_chart") if c.key == "compare_eval_bars").proto.spec)
    assert [bar.name for bar in bars.data] == list(means.index)
    for bar in bars.data:
        assert plotly_array(bar.y) == pytest.approx(means.loc[bar.name].to_numpy())


def test_side_by_side_settings_travel_in_the_url(app_path):
    at = AppTest.from_file(app_path, default_timeout=120)
    at.switch_page("app_pages/side_by_side.py")
    at.query_params.update({"data": "iris_nb", "a_gamma": "0.97", "b_max_depth": "2"})
    at.run()
    assert at.selectbox(key="dataset").value == "iris_nb"
    assert at.slider(key="a_gamma").value == pytest.approx(0.97)
    assert at.number_input(key="b_max_depth").value == 2
    at.slider(key="b_gamma").set_value(1.02).run()
    assert at.query_params["b_gamma"] == "1.020"
