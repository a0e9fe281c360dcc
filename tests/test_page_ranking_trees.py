"""The "Ranking trees" page, run headless with Streamlit's AppTest."""

import base64
import re

import numpy as np
import plotly.io
import pytest
from streamlit.testing.v1 import AppTest

from rankviz import DefaultRanker, KNNRanker, RankingTree, load_sample
from rankviz.datasets.samples import list_samples, sample_tree_defaults
from rankviz.experiments.cross_validation import compare_methods
from rankviz.ui.tree_panel import DEFAULT_MIN_LEAF
from apptest_pages import open_tab
from drawings import drawings, tree_views
from rankviz.viz.dot.ranking_tree import ranking_lines


@pytest.fixture
def app(app_path):
    at = AppTest.from_file(app_path, default_timeout=120)
    at.run()
    assert not at.exception
    return at


def dot_of(at):
    return drawings(at)[0]


def status_line(at):
    return next(m.value for m in at.markdown if m.value.startswith("Step "))


def page_min_leaf(name):
    """The leaf size the page starts at on a sample: the sample's suggestion, else the page's."""
    return sample_tree_defaults(name).get("min_samples_leaf", DEFAULT_MIN_LEAF)


def leaves_text(n):
    return "1 leaf," if n == 1 else f"{n} leaves,"


def plotly_array(values):
    """Plotly 7 stores numeric arrays as ``{"dtype", "bdata"}`` (base64)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values)


def n_drawn_nodes(dot):
    return len(set(re.findall(r"^\s*(node\d+) \[", dot, flags=re.M)))


def test_page_opens_on_the_metalearning_sample_with_the_full_tree(app):
    assert app.selectbox(key="dataset").value == "metalearning"
    dataset = load_sample("metalearning")
    expected = RankingTree(min_samples_leaf=DEFAULT_MIN_LEAF).fit(
        dataset.X, dataset.rankings).tree_
    assert leaves_text(expected.n_leaves) in status_line(app)
    dot = dot_of(app)
    assert n_drawn_nodes(dot) == expected.node_count
    assert f"n = {dataset.n_samples}" in dot  # the root
    assert " &gt; " in dot  # leaves show rankings "a &gt; b", HTML-escaped


@pytest.mark.parametrize("name", list_samples("label_ranking"))
def test_every_sample_grows_a_tree_whose_leaves_name_its_labels(app, name):
    app.selectbox(key="dataset").set_value(name).run()
    assert not app.exception
    dataset = load_sample(name)
    assert app.number_input(key="tree_min_leaf").value == page_min_leaf(name)
    expected = RankingTree(min_samples_leaf=page_min_leaf(name)).fit(
        dataset.X, dataset.rankings).tree_
    assert expected.n_leaves > 1  # every sample opens on a tree, not a lone root
    assert leaves_text(expected.n_leaves) in status_line(app)
    dot = dot_of(app)
    leaf = expected.ranking_text(int(np.flatnonzero(expected.is_leaf)[0]))
    first_label = leaf.split(" > ")[0]
    assert first_label in dot


def test_gamma_slider_changes_the_tree_as_the_library_does(app):
    app.selectbox(key="dataset").set_value("toy").run()
    app.number_input(key="tree_min_leaf").set_value(2).run()
    dataset = load_sample("toy")
    for gamma in (0.9, 0.97, 0.995, 1.05):
        app.slider(key="tree_gamma").set_value(gamma).run()
        assert not app.exception
        expected = RankingTree(gamma=gamma, min_samples_leaf=2).fit(dataset.X, dataset.Y).tree_
        assert leaves_text(expected.n_leaves) in status_line(app)
        assert n_drawn_nodes(dot_of(app)) == expected.node_count


def test_stepping_grows_the_tree_one_split_at_a_time(app):
    """The player reveals the splits on one fixed drawing of the whole tree."""
    app.selectbox(key="dataset").set_value("toy").run()
    app.number_input(key="tree_min_leaf").set_value(2).run()
    full = dot_of(app)
    app.button(key="tree_first").click().run()
    assert status_line(app).startswith("Step 0 of")
    (view,) = tree_views(app)
    assert view["dot"] == full  # laid out once: the drawing does not change while stepping
    assert view["revealed"] == [0] and view["current"] is None
    app.button(key="tree_forward").click().run()
    assert "split node #0 on **A1 = c**" in status_line(app)  # the toy set's designed root split
    (view,) = tree_views(app)
    assert sorted(view["revealed"]) == [0, 1, 2] and view["current"] == 0  # the node just split
    app.button(key="tree_forward").click().run()
    assert len(tree_views(app)[0]["revealed"]) == 5
    app.button(key="tree_back").click().run()
    assert len(tree_views(app)[0]["revealed"]) == 3
    app.button(key="tree_last").click().run()
    (view,) = tree_views(app)
    # The whole tree: nothing is "just split", and the view opens on the root.
    assert view["revealed"] is None and view["current"] is None
    assert view["dot"] == full
    app.radio(key="tree_order").set_value("best").run()  # a new order shows the whole tree again
    assert not app.exception
    steps = re.match(r"Step (\d+) of (\d+)", status_line(app)).groups()
    assert steps[0] == steps[1]


def evaluation_table(app):
    """The Evaluation tab's summary (rows "CS mean" …, a column per method)."""
    return next(frame.value for frame in app.dataframe if "CS mean" in frame.value.index)


def test_evaluation_matches_the_library(app):
    app.selectbox(key="dataset").set_value("toy").run()
    open_tab(app, "explore_tab", "Evaluation")
    app.radio(key="eval_protocol").set_value("kfold").run()
    app.number_input(key="eval_folds").set_value(4).run()
    app.button(key="eval_run").click().run()
    assert not app.exception
    charts = [chart for chart in app.get("plotly_chart") if chart.key in ("eval_bars", "eval_dist")]
    assert len(charts) == 2
    dataset = load_sample("toy")
    methods = {"Ranking tree": RankingTree(min_samples_leaf=page_min_leaf("toy")),
               "KNN (k=1)": KNNRanker(), "Default ranking": DefaultRanker()}
    expected = compare_methods(methods, dataset.X, dataset.Y, cv=4, seed=0)
    means = expected.groupby("method", sort=False)[["CS", "WRC", "LRA"]].mean()
    figure = plotly.io.from_json(charts[0].proto.spec)
    assert [bar.name for bar in figure.data] == list(means.index)
    for bar in figure.data:  # the bar heights are the library's means
        np.testing.assert_allclose(plotly_array(bar.y), means.loc[bar.name].to_numpy())
    assert figure.layout.yaxis.title.text and figure.layout.xaxis.title.text
    table = evaluation_table(app)
    assert table.loc["CS mean", "Default ranking"] == pytest.approx(means.loc["Default ranking", "CS"])


def test_a_heat_map_row_is_traced_through_the_tree(app):
    """Node #2's heat map: pick one of its rows, Trace it; the view lights up the library's path."""
    from rankviz.features import FeatureEncoder

    dataset = load_sample("metalearning")
    tree = RankingTree(min_samples_leaf=DEFAULT_MIN_LEAF).fit(
        dataset.X, dataset.rankings).tree_
    app.selectbox(key="inspect_node").set_value(2).run()
    app.session_state["inspect_section"] = "Rankings in the node"
    pick = app.run().selectbox(key="inspect_trace_pick")
    encoded = FeatureEncoder().fit(dataset.X).transform(dataset.X)
    # The heat map lists node #2's rows only.
    index_of = {int(s): k for k, s in enumerate(tree.node_ids)}
    members = np.flatnonzero((tree.decision_paths(encoded) == index_of[2]).any(axis=1))
    assert set(pick.options) == {f"row {r + 1} (leaf #{tree.node_ids[tree.apply(encoded[r:r + 1])[0]]})"
                                 for r in members}
    row = int(members[-1])
    pick.set_value(row).run()
    app.button(key="inspect_trace_it").click().run()
    assert not app.exception
    path = tuple(int(tree.node_ids[k]) for k in dict.fromkeys(tree.decision_paths(encoded[row:row + 1])[0]))
    (view,) = tree_views(app)
    assert tuple(view["path"]) == path and path[0] == 0 and 2 in path
    assert view["trace"]["node"] == path[-1]
    # The Trace tab, opened later, shows the row traced (its controls keep their state while closed).
    open_tab(app, "explore_tab", "Trace an example")
    assert app.radio(key="trace_mode").value == "row" and app.number_input(key="trace_row").value == row + 1
    assert tuple(tree_views(app)[0]["path"]) == path


def test_predicted_ties_reach_the_drawing_and_the_evaluation(app):
    """"Predict ties" makes leaves rank close labels as ties (a > b = c) and scores them as the library does."""
    app.selectbox(key="dataset").set_value("toy").run()
    app.number_input(key="tree_min_leaf").set_value(4).run()
    dataset = load_sample("toy")
    strict = RankingTree(min_samples_leaf=4).fit(dataset.X, dataset.rankings).tree_
    assert all(line in dot_of(app) for leaf in np.flatnonzero(strict.is_leaf) for line in ranking_lines(strict, leaf))
    app.checkbox(key="tree_ties").check().run()
    app.number_input(key="tree_tie_tolerance").set_value(0.5).run()
    assert not app.exception
    model = RankingTree(min_samples_leaf=4, tie_tolerance=0.5).fit(dataset.X, dataset.rankings)
    tied_leaves = [i for i in np.flatnonzero(model.tree_.is_leaf) if " = " in model.tree_.ranking_text(i)]
    assert tied_leaves  # the toy set has leaves whose mean ranks are this close
    dot = dot_of(app)
    for leaf in tied_leaves:
        assert all(line in dot for line in ranking_lines(model.tree_, leaf))
    assert app.query_params.get("ties") == "1" and app.query_params.get("tie_tol") == "0.5"
    open_tab(app, "explore_tab", "Evaluation")
    app.radio(key="eval_protocol").set_value("kfold").run()
    app.number_input(key="eval_folds").set_value(4).run()
    app.button(key="eval_run").click().run()
    assert not app.exception
    expected = compare_methods({"Ranking tree": RankingTree(min_samples_leaf=4, tie_tolerance=0.5),
                               "KNN (k=1)": KNNRanker(tie_tolerance=0.5),
                               "Default ranking": DefaultRanker(tie_tolerance=0.5)},
                              dataset.X, dataset.Y, cv=4, seed=0)
    means = expected.groupby("method", sort=False)["CS"].mean()
    table = evaluation_table(app)
    for method in means.index:
        assert table.loc["CS mean", method] == pytest.approx(means[method])
    assert any("ties within 0.5 positions" in c.value for c in app.caption)


@pytest.mark.parametrize("k", [3, "auto"])
def test_knn_k_reaches_the_evaluation_with_95_percent_intervals_and_a_paired_table(app, k):
    from rankviz.experiments.statistics import paired_comparison, t_interval

    app.selectbox(key="dataset").set_value("metalearning").run()
    open_tab(app, "explore_tab", "Evaluation")
    app.radio(key="eval_protocol").set_value("kfold").run()
    app.number_input(key="eval_folds").set_value(5).run()
    app.selectbox(key="eval_knn_k").set_value(k).run()
    app.button(key="eval_run").click().run()
    assert not app.exception
    dataset = load_sample("metalearning")
    knn = f"KNN (k={k})"
    methods = {"Ranking tree": RankingTree(min_samples_leaf=page_min_leaf("metalearning")),
               knn: KNNRanker(n_neighbors=k), "Default ranking": DefaultRanker()}
    expected = compare_methods(methods, dataset.X, dataset.Y, cv=5, seed=0)
    figure = plotly.io.from_json(next(c for c in app.get("plotly_chart") if c.key == "eval_bars").proto.spec)
    assert [bar.name for bar in figure.data] == list(methods)
    assert "95% CI" in figure.layout.title.text
    bars = ["CS", "WRC", "LRA", "τx"]  # τx: the sample ties labels in some rankings
    for bar in figure.data:
        group = expected[expected["method"] == bar.name]
        assert list(bar.x) == bars
        np.testing.assert_allclose(plotly_array(bar.y), group[bars].mean().to_numpy())
        # Whiskers: the 95% Student-t interval of the mean over the held-out examples.
        np.testing.assert_allclose(plotly_array(bar.error_y.array),
                                   [t_interval(group[m].to_numpy())[1] for m in bars])
    paired = next(d.value for d in app.dataframe if "wins / ties / losses" in d.value.columns)
    assert list(paired["method"]) == [knn, "Default ranking"]
    tree = expected[expected["method"] == "Ranking tree"].set_index("example")["CS"].sort_index()
    for row in paired.to_dict("records"):
        other = expected[expected["method"] == row["method"]].set_index("example")["CS"].sort_index()
        result = paired_comparison(tree.to_numpy(), other.to_numpy())
        assert row["difference"] == pytest.approx(result.mean_difference)
        assert row["95% CI"] == f"{result.ci_low:+.3f} … {result.ci_high:+.3f}"
        assert row["Wilcoxon p"] == pytest.approx(result.wilcoxon_pvalue)
        assert row["wins / ties / losses"] == f"{result.wins} / {result.ties} / {result.losses}"
    # Another measure: the table follows.
    app.selectbox(key="eval_paired_measure").set_value("LRA").run()
    paired = next(d.value for d in app.dataframe if "wins / ties / losses" in d.value.columns)
    other = expected[expected["method"] == "Default ranking"].set_index("example")["LRA"].sort_index()
    tree = expected[expected["method"] == "Ranking tree"].set_index("example")["LRA"].sort_index()
    assert paired["difference"].iloc[1] == pytest.approx(
        paired_comparison(tree.to_numpy(), other.to_numpy()).mean_difference)
    assert any(b.label == "Download the paired comparison (CSV)" for b in app.get("download_button"))


def test_leaf_size_and_gamma_are_tuned_together_as_rankingtreecv_does(app):
    import pandas as pd

    from rankviz import RankingTreeCV
    from rankviz.ui.tree_panel import GAMMA_GRID
    from rankviz.ui.tuning_panel import LEAF_GRID

    app.selectbox(key="tune_cv_scoring").set_value("cs").run()
    app.number_input(key="tune_cv_folds").set_value(4).run()
    app.button(key="tune_cv_run").click().run()
    assert not app.exception and not app.error
    dataset = load_sample("metalearning")
    search = RankingTreeCV(leaf_grid=sorted({*LEAF_GRID, DEFAULT_MIN_LEAF}), cv=4, scoring="cs", random_state=0).fit(
        dataset.X, pd.DataFrame(dataset.Y, columns=list(dataset.label_names)))
    leaf = search.best_params_["min_samples_leaf"]
    chosen = next(m.value for m in app.markdown if m.value.startswith("**Chosen"))
    assert f"at least {leaf} example{'' if leaf == 1 else 's'} per leaf" in chosen
    assert f"mean held-out CS {search.best_score_:.3f}" in chosen
    table = next(d.value for d in app.dataframe if "mean CS" in d.value.columns)
    assert table["mean CS"].iloc[0] == pytest.approx(search.cv_results_["mean_test_score"].max())
    assert table[table["chosen"] == "✓"]["mean CS"].item() == pytest.approx(search.best_score_)
    # the button sets the sidebar and the slider to the chosen tree's smallest γ on the slider (or, if
    # none gives it, to the slider's best γ for that leaf size)
    same = search.gamma_path_.same_tree(search.best_params_["gamma"], GAMMA_GRID)
    scores = search.score_at(GAMMA_GRID)
    gamma = float(GAMMA_GRID[int(np.argmax(same)) if same.any() else int(np.nanargmax(scores))])
    app.button(key="tune_cv_use").click().run()
    assert not app.exception
    assert app.number_input(key="tree_min_leaf").value == leaf
    assert app.session_state["tree_gamma"] == pytest.approx(gamma)
    expected = RankingTree(min_samples_leaf=leaf, gamma=gamma).fit(dataset.X, dataset.rankings).tree_
    assert leaves_text(expected.n_leaves) in status_line(app)
