"""The γ path tab, the node inspector and the URL state of the "Ranking trees" page (AppTest)."""

import numpy as np
import plotly.io
import pytest
from drawings import tree_views
from apptest_pages import open_page, open_tab

from rankviz import RankingTree, load_sample
from rankviz.experiments.cross_validation import best_gamma, compare_methods, loo_gamma_curves
from rankviz.features import FeatureEncoder
from rankviz.tree.node_inspection import inspect_node
from rankviz.ui.tree_panel import GAMMA_GRID
from rankviz.ui.tree_panel import DEFAULT_MIN_LEAF
from test_page_ranking_trees import dot_of, leaves_text, n_drawn_nodes, plotly_array, status_line



def chart(at, key):
    return plotly.io.from_json(next(c for c in at.get("plotly_chart") if c.key == key).proto.spec)


def test_sweeping_gamma_recuts_the_tree_as_the_library_grows_it(app_path):
    at = open_page(app_path, timeout=120)
    dataset = load_sample("metalearning")
    for gamma in np.round(np.arange(0.90, 1.0501, 0.01), 3):
        at.slider(key="tree_gamma").set_value(float(gamma)).run()
        assert not at.exception
        expected = RankingTree(gamma=gamma, min_samples_leaf=DEFAULT_MIN_LEAF).fit(dataset.X, dataset.Y).tree_
        assert leaves_text(expected.n_leaves) in status_line(at)
        assert n_drawn_nodes(dot_of(at)) == expected.node_count
        # The row beside the slider names the same count.
        assert any(m.value.startswith(f"{leaves_text(expected.n_leaves)[:-1]}; ") for m in at.markdown)


def test_leaf_count_chart_is_the_step_function_of_the_gamma_path(app_path):
    at = open_page(app_path, timeout=120)
    dataset = load_sample("metalearning")
    path = RankingTree(gamma=np.inf, min_samples_leaf=DEFAULT_MIN_LEAF).fit(dataset.X, dataset.Y).gamma_path()
    steps = chart(at, "gamma_leaves").data[0]
    x, y = plotly_array(steps.x), plotly_array(steps.y)
    assert x[0] == 0.9 and x[-1] == 1.05
    np.testing.assert_array_equal(x[1:-1], path.breakpoints[(path.breakpoints > 0.9) & (path.breakpoints < 1.05)])
    # Between two breakpoints the count is that of a tree grown at their midpoint.
    for low, high, count in zip(x[:-1], x[1:], y[:-1]):
        middle = (low + high) / 2
        grown = RankingTree(gamma=middle, min_samples_leaf=DEFAULT_MIN_LEAF).fit(dataset.X, dataset.Y).tree_
        assert grown.n_leaves == count


def test_loo_curves_match_the_library_and_the_best_gamma_button_sets_the_slider(app_path):
    at = open_page(app_path, timeout=120, data="toy", min_leaf="3")
    at.button(key="gamma_run").click().run()
    assert not at.exception
    dataset = load_sample("toy")
    expected = loo_gamma_curves(dataset.X, dataset.Y, GAMMA_GRID, min_samples_leaf=3)
    figure = chart(at, "gamma_curves")
    tree_lines = [trace for trace in figure.data if trace.name == "Ranking tree"]
    for trace, measure in zip(tree_lines, ("CS", "WRC", "LRA")):
        np.testing.assert_allclose(plotly_array(trace.y), expected[measure].to_numpy())
    gamma, _ = best_gamma(expected, "LRA")
    at.button(key="gamma_best_LRA").click().run()
    assert at.slider(key="tree_gamma").value == pytest.approx(gamma)
    # The row beside the slider reads the curves at the slider's γ (the figures carry no mark of it).
    row = next(m.value for m in at.markdown if "held-out" in m.value)
    at_gamma = expected.iloc[int(np.argmin(np.abs(expected.index - gamma)))]
    assert ", ".join(f"{m} {at_gamma[m]:z.3f}" for m in ("CS", "WRC", "LRA")) in row
    assert "(leave-one-out)" in row and row.startswith(leaves_text(path_leaves(dataset, gamma))[:-1] + ";")
    # A γ step moves them along; so does another step back.
    other = float(GAMMA_GRID[-1])
    at.slider(key="tree_gamma").set_value(other).run()
    row = next(m.value for m in at.markdown if "held-out" in m.value)
    assert f"CS {expected.loc[other, 'CS']:z.3f}" in row
    at.button(key="gamma_best_LRA").click().run()
    grown = RankingTree(gamma=gamma, min_samples_leaf=3).fit(dataset.X, dataset.Y).tree_
    assert leaves_text(grown.n_leaves) in status_line(at)


def path_leaves(dataset, gamma):
    """Leaves of the toy tree (3 examples per leaf) at ``gamma``."""
    return RankingTree(gamma=gamma, min_samples_leaf=3).fit(dataset.X, dataset.Y).tree_.n_leaves


def test_inspector_table_is_the_libraries_candidate_splits(app_path):
    at = open_page(app_path, timeout=120, gamma="0.99", min_leaf="5")
    dataset = load_sample("metalearning")
    model = RankingTree(gamma=np.inf, min_samples_leaf=5).fit(dataset.X, dataset.Y)
    tree = model.gamma_path().tree_at(0.99)
    # Any internal node other than the root, by its id in the drawing.
    node = int(np.flatnonzero(~tree.is_leaf)[2])
    node_id = int(tree.node_ids[node])
    assert f"#{node_id} ·" in dot_of(at)
    at.selectbox(key="inspect_node").set_value(node_id).run()
    assert not at.exception
    at.radio(key="inspect_view").set_value("all").run()
    expected = inspect_node(tree, FeatureEncoder().fit(dataset.X).transform(dataset.X), dataset.Y, node,
                            min_samples_leaf=5, gamma=0.99)
    table = next(frame.value for frame in at.dataframe if "Condition" in frame.value.columns)
    assert len(table) == len(expected.candidates)
    assert list(table["Condition"]) == list(expected.candidates["condition"])
    np.testing.assert_allclose(table["S_split"], expected.candidates["score"])
    assert table["Condition"].iloc[0] == tree.test_text(node)  # the tree's split is the best candidate
    assert set(table["Rule (6)"]) <= {"split", "stop"}
    # Rule (6) with the node's numbers, and the node outlined in the drawing.
    rule = next(m.value for m in at.markdown if m.value.startswith("**Rule (6)**"))
    assert f"{1 + expected.similarity:.4f}" in rule and "is made" in rule
    assert tree_views(at)[0]["selected"] == int(tree.node_ids[node])
    # The heat map shows the node's rows (in its tab: only the open one is drawn).
    at.session_state["inspect_section"] = "Rankings in the node"
    at.run()
    heat = chart(at, "inspect_heatmap").data[0]
    assert len(plotly_array(heat.z).reshape(-1, dataset.n_labels)) == expected.n_samples


def test_the_inspector_draws_only_its_open_section_and_keeps_it_open_from_node_to_node(app_path):
    """A click on a node computes rule (6) and the open tab, not the charts of the closed ones."""
    at = open_page(app_path, timeout=120, gamma="0.99", min_leaf="5")
    tree = RankingTree(gamma=np.inf, min_samples_leaf=5).fit(
        load_sample("metalearning").X, load_sample("metalearning").Y).gamma_path().tree_at(0.99)
    inspector_charts = [c.key for c in at.get("plotly_chart") if c.key.startswith("inspect")]
    assert inspector_charts == [] and at.radio(key="inspect_view")  # the candidate table's tab
    at.session_state["inspect_section"] = "Threshold curve"
    at.run()
    assert [c.key for c in at.get("plotly_chart") if c.key.startswith("inspect")] == ["inspect_curve"]
    assert not [r for r in at.radio if r.key == "inspect_view"]  # the table is not drawn
    # Another node: the same tab open, its own curve (its best attribute first).
    node = int(np.flatnonzero(~tree.is_leaf)[1])
    at.selectbox(key="inspect_node").set_value(int(tree.node_ids[node])).run()
    assert at.session_state["inspect_section"] == "Threshold curve"
    curve = chart(at, "inspect_curve")
    assert tree.feature_names[tree.split_feature[node]] in curve.layout.title.text
    # The table's view survives the tab being closed (persisted widget state).
    at.session_state["inspect_section"] = "Candidate splits"
    at.run().radio(key="inspect_view").set_value("all").run()
    at.session_state["inspect_section"] = "Rankings in the node"
    at.run()
    at.session_state["inspect_section"] = "Candidate splits"
    assert at.run().radio(key="inspect_view").value == "all"
    assert not at.exception


def test_inspected_node_keeps_its_id_while_gamma_moves(app_path):
    at = open_page(app_path, timeout=120, gamma="1.0", min_leaf="5")
    dataset = load_sample("metalearning")
    path = RankingTree(gamma=np.inf, min_samples_leaf=5).fit(dataset.X, dataset.Y).gamma_path()
    cut = path.tree_at(1.0)
    deep = int(cut.node_ids[np.flatnonzero(~cut.is_leaf)[-1]])  # an internal node: split for γ > e
    at.selectbox(key="inspect_node").set_value(deep).run()
    # Down to the slider step just above its e: still there and split, same id.
    at.slider(key="tree_gamma").set_value(float(np.ceil(path.node_gamma[deep] * 1000) / 1000)).run()
    assert at.selectbox(key="inspect_node").value == deep
    assert f"#{deep} ·" in at.selectbox(key="inspect_node").options[at.selectbox(key="inspect_node").index]
    at.slider(key="tree_gamma").set_value(0.9).run()  # only the root is left
    assert not at.exception
    assert at.selectbox(key="inspect_node").value == 0
    assert any(f"Node #{deep} is not in the tree" in c.value for c in at.caption)


def test_settings_come_from_and_go_to_the_url(app_path):
    at = open_page(app_path, timeout=120, data="toy", gamma="0.97", min_leaf="3", max_depth="2", order="best")
    assert at.selectbox(key="dataset").value == "toy"
    assert at.slider(key="tree_gamma").value == pytest.approx(0.97)
    assert at.number_input(key="tree_min_leaf").value == 3
    assert at.number_input(key="tree_max_depth").value == 2
    assert at.radio(key="tree_order").value == "best"
    at.slider(key="tree_gamma").set_value(1.01).run()
    assert at.query_params["gamma"] == "1.010"
    assert at.query_params["data"] == "toy"


def test_bad_url_values_are_named_and_ignored(app_path):
    at = open_page(app_path, timeout=120, gamma="abc", min_leaf="0", data="nope")
    warning = at.warning[0].value
    assert "`gamma` = abc (not a number)" in warning
    assert "`min_leaf` = 0 (outside 1…1000)" in warning
    assert "`data` = nope (" in warning
    assert at.slider(key="tree_gamma").value == pytest.approx(0.995)
    assert at.number_input(key="tree_min_leaf").value == DEFAULT_MIN_LEAF


@pytest.mark.parametrize("name", ["toy", "iris_nb", "wine_nb"])
def test_every_node_of_every_sample_can_be_inspected(app_path, name):
    at = open_page(app_path, timeout=120, data=name, min_leaf="4")
    dataset = load_sample(name)
    tree = RankingTree(gamma=np.inf, min_samples_leaf=4).fit(dataset.X, dataset.Y).gamma_path().tree_at(0.995)
    assert len(at.selectbox(key="inspect_node").options) == tree.node_count
    for node, node_id in enumerate(tree.node_ids):
        at.selectbox(key="inspect_node").set_value(int(node_id)).run()
        assert not at.exception and not at.error
        examples = next(m.value for m in at.metric if m.label == "Examples")
        assert int(examples) == tree.n_samples[node]


def test_k_fold_and_repeated_k_fold_curves_match_the_library(app_path):
    from rankviz.experiments.cross_validation import gamma_curves
    from rankviz.ui.evaluation_panel import baseline_rankers

    at = open_page(app_path, timeout=120, data="metalearning", min_leaf="4")
    dataset = load_sample("metalearning")
    # A small data set starts on leave-one-out, and the caption says why k-fold is the default above a few thousand rows.
    assert at.radio(key="gamma_protocol").value == "loo"
    assert any("leave-one-out grows one tree per row" in c.value for c in at.caption)
    for protocol, repetitions in (("kfold", 1), ("repeated", 3)):
        at.radio(key="gamma_protocol").set_value(protocol).run()
        at.number_input(key="gamma_folds").set_value(5).run()
        if protocol == "repeated":
            at.number_input(key="gamma_repetitions").set_value(3).run()
        at.number_input(key="gamma_seed").set_value(2).run()
        at.button(key="gamma_run").click().run()
        assert not at.exception
        expected = gamma_curves(dataset.X, dataset.Y, GAMMA_GRID, cv=5, repetitions=repetitions, seed=2,
                                min_samples_leaf=4)
        figure = chart(at, "gamma_curves")
        tree_lines = [trace for trace in figure.data if trace.name == "Ranking tree"]
        for trace, measure in zip(tree_lines, ("CS", "WRC", "LRA")):
            np.testing.assert_allclose(plotly_array(trace.y), expected[measure].to_numpy())
        # The bands are the 95% intervals of the library.
        band = next(trace for trace in figure.data if trace.name == "95% CI")
        upper = plotly_array(band.y)[:len(GAMMA_GRID)]
        np.testing.assert_allclose(upper, (expected["CS"] + expected["CS ci"]).to_numpy())
        assert "95% CI" in figure.layout.annotations[0].text
        title = figure.layout.title.text
        assert (f"{repetitions} × 5-fold" if repetitions > 1 else "5-fold") in title and "partial" not in title
        # The baselines' lines are their means on the same folds.
        scores = compare_methods(baseline_rankers([]), dataset.X, dataset.Y, cv=5, seed=2,
                                repetitions=repetitions)
        knn = next(trace for trace in figure.data if trace.name == "KNN (k=1)")
        assert plotly_array(knn.y)[0] == pytest.approx(scores[scores["method"] == "KNN (k=1)"]["CS"].mean())
        assert any("estimate after the first fold" in c.value for c in at.caption)


def test_a_large_data_set_starts_on_ten_fold(app_path, monkeypatch):
    import rankviz.ui.gamma_panel as gamma_panel

    monkeypatch.setattr(gamma_panel, "LOO_ROWS", 50)  # the metalearning sample then counts as large
    at = open_page(app_path, timeout=120, data="metalearning", min_leaf="4")
    assert at.radio(key="gamma_protocol").value == "kfold"
    assert at.number_input(key="gamma_folds").value == 10
    assert any("k-fold is the default above 50 rows" in c.value for c in at.caption)


def test_the_protocols_follow_the_data_set_until_the_user_picks_one(app_path, monkeypatch):
    # An upload or another sample above the limit must not keep the small set's leave-one-out
    # (a 40,768-row upload offered "Compute the γ curves (40,768 growths)").
    import rankviz.ui.evaluation_panel as evaluation_panel
    import rankviz.ui.gamma_panel as gamma_panel

    monkeypatch.setattr(gamma_panel, "LOO_ROWS", 50)  # toy (16 rows) is small, metalearning large
    monkeypatch.setattr(evaluation_panel, "LOO_LIMIT", 50)
    at = open_page(app_path, timeout=120, data="toy", min_leaf="3")

    def protocols():  # the γ path is always drawn; the evaluation in its tab only
        at.session_state["explore_tab"] = "Node inspector"
        gamma = at.run().radio(key="gamma_protocol").value
        return gamma, open_tab(at, "explore_tab", "Evaluation").radio(key="eval_protocol").value

    assert protocols() == ("loo", "loo")
    at.selectbox(key="dataset").set_value("metalearning").run()
    assert not at.exception
    assert protocols() == ("kfold", "kfold")
    assert at.button(key="gamma_run").label.startswith(
        "Compute the γ curves (10 growths)")
    # Chosen by the user: kept across data sets.
    at.radio(key="gamma_protocol").set_value("loo").run()
    at.selectbox(key="dataset").set_value("toy").run()
    at.selectbox(key="dataset").set_value("metalearning").run()
    assert protocols() == ("loo", "kfold")


def test_the_knn_reference_of_the_curves_has_the_chosen_k(app_path):
    from rankviz.label_ranking.baselines import KNNRanker

    at = open_page(app_path, timeout=120, data="metalearning", min_leaf="4")
    dataset = load_sample("metalearning")
    at.radio(key="gamma_protocol").set_value("kfold").run()
    at.number_input(key="gamma_folds").set_value(5).run()
    at.selectbox(key="gamma_knn_k").set_value(5).run()
    assert any("KNN (k=5) and the default ranking" in i.value for i in at.info)
    at.button(key="gamma_run").click().run()
    assert not at.exception
    figure = chart(at, "gamma_curves")
    names = {trace.name for trace in figure.data}
    assert "KNN (k=5)" in names and "KNN (k=1)" not in names
    scores = compare_methods({"KNN (k=5)": KNNRanker(n_neighbors=5)}, dataset.X, dataset.Y, cv=5, seed=0)
    knn = next(trace for trace in figure.data if trace.name == "KNN (k=5)")
    assert plotly_array(knn.y)[0] == pytest.approx(scores["CS"].mean())
    nearest = compare_methods({"KNN (k=1)": KNNRanker()}, dataset.X, dataset.Y, cv=5, seed=0)
    assert nearest["CS"].mean() != pytest.approx(scores["CS"].mean())  # the choice is visible in the line
    # Another k makes the curves stale: the note names the change.
    at.selectbox(key="gamma_knn_k").set_value(1).run()
    assert not at.exception
    assert not [c for c in at.get("plotly_chart") if c.key == "gamma_curves"]
