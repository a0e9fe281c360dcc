"""Around the tree (AppTest): criterion names, results of earlier settings, the sorted heat map of the
node inspector and why a tree of Side by side is a single leaf."""

import numpy as np
import plotly.io
from streamlit.testing.v1 import AppTest

from rankviz import RankingTree, load_sample
from rankviz.experiments.cross_validation import loo_gamma_curves
from rankviz.features import FeatureEncoder
from rankviz.tree.criteria import CRITERIA, get_criterion
from rankviz.tree.node_inspection import inspect_node, ordered_rows
from rankviz.ui.tree_panel import GAMMA_GRID
from apptest_pages import open_tab
from test_page_ranking_trees import plotly_array


def open_app(app_path, page=None, **query):
    at = AppTest.from_file(app_path, default_timeout=120)
    at.query_params.update(query)
    if page:
        at.switch_page(page)
    at.run()
    assert not at.exception
    return at


def chart_keys(at):
    return [c.key for c in at.get("plotly_chart")]


def chart(at, key):
    return plotly.io.from_json(next(c for c in at.get("plotly_chart") if c.key == key).proto.spec)


def notices(at):
    return [m.value for m in at.markdown if "for earlier settings are hidden" in m.value]


# -- criterion names -----------------------------------------------------------------

def test_the_criterion_menu_names_each_criterion_and_its_paper_and_links_keep_the_code_names(app_path):
    at = open_app(app_path, criterion="ranking_impurity")
    menu = at.selectbox(key="tree_criterion")
    assert menu.value == "ranking_impurity"
    assert menu.options == [get_criterion(name).label for name in CRITERIA]
    assert menu.options[0] == "Mean pairwise Spearman correlation (Rebelo et al. 2008)"
    subtitle = at.caption[0].value
    assert "Splitting criterion: **Ranking impurity**, from Xia, Zhang & Wang (2006)." in subtitle
    at.selectbox(key="tree_criterion").set_value("mallows").run()
    assert "**Mallows spread θ**, from Cheng, Hühn & Hüllermeier (2009)" in at.caption[0].value
    assert at.query_params["criterion"] == "mallows"
    at.selectbox(key="tree_criterion").set_value("mean_spearman").run()
    assert "**Mean pairwise Spearman correlation**, the paper's own" in at.caption[0].value


# -- results of earlier settings -----------------------------------------------------

def test_gamma_curves_of_earlier_limits_are_hidden_with_what_changed_and_computed_again(app_path):
    at = open_app(app_path, data="toy")
    at.button(key="gamma_run").click().run()
    assert "gamma_curves" in chart_keys(at) and not notices(at)
    at.slider(key="tree_gamma").set_value(0.97).run()  # the curves cover every γ: still current
    assert "gamma_curves" in chart_keys(at) and not notices(at)
    at.number_input(key="tree_min_leaf").set_value(3).run()
    assert "gamma_curves" not in chart_keys(at)
    assert not [b for b in at.button if b.key.startswith("gamma_best_")]
    (notice,) = notices(at)
    assert notice.startswith(":material/history: **γ curves for earlier settings are hidden.**")
    assert "minimum examples per leaf: 2 → 3" in notice and "data set" not in notice
    at.button(key="gamma_rerun").click().run()
    assert not at.exception and not notices(at)
    toy = load_sample("toy")
    expected = loo_gamma_curves(toy.X, toy.Y, GAMMA_GRID, min_samples_leaf=3)
    line = next(t for t in chart(at, "gamma_curves").data if t.name == "Ranking tree")
    np.testing.assert_allclose(plotly_array(line.y), expected["CS"].to_numpy())
    at.selectbox(key="dataset").set_value("iris_nb").run()
    (notice,) = notices(at)
    assert "data set: Toy example\\: 4 items" in notice and "→ Iris" in notice  # names escaped


def test_evaluation_results_of_earlier_settings_are_hidden_and_run_again(app_path):
    at = open_app(app_path, data="toy")
    open_tab(at, "explore_tab", "Evaluation")
    at.radio(key="eval_protocol").set_value("kfold").run()
    at.number_input(key="eval_folds").set_value(4).run()
    at.button(key="eval_run").click().run()
    assert "eval_bars" in chart_keys(at)
    at.slider(key="tree_gamma").set_value(0.97).run()
    assert "eval_bars" not in chart_keys(at) and "eval_dist" not in chart_keys(at)
    (notice,) = notices(at)
    assert "**Evaluation results for earlier settings are hidden.**" in notice and "γ: 0.995 → 0.970" in notice
    at.number_input(key="eval_folds").set_value(5).run()
    (notice,) = notices(at)
    assert "protocol: 4-fold cross-validation, seed 0 → 5-fold cross-validation, seed 0" in notice
    at.button(key="eval_rerun").click().run()
    assert not at.exception and not notices(at) and "eval_bars" in chart_keys(at)
    assert any(c.value.startswith("5-fold cross-validation (seed 0) over 16 examples") for c in at.caption)
    at.number_input(key="eval_folds").set_value(4).run()  # back: the kept result is for 5 folds
    assert notices(at)


def test_side_by_side_hides_scores_of_earlier_settings_too(app_path):
    at = open_app(app_path, "app_pages/side_by_side.py", data="toy")
    at.radio(key="compare_eval_protocol").set_value("kfold").run()
    at.number_input(key="compare_eval_folds").set_value(4).run()
    at.button(key="compare_eval_run").click().run()
    assert "compare_eval_bars" in chart_keys(at)
    at.number_input(key="b_max_depth").set_value(1).run()
    assert "compare_eval_bars" not in chart_keys(at)
    (notice,) = notices(at)
    assert "Tree B maximum depth: none → 1" in notice and "Tree A" not in notice


# -- the node inspector's heat map ---------------------------------------------------

def test_the_heat_map_lists_the_rows_by_leaf_then_by_distance_to_the_nodes_ranking(app_path):
    at = open_app(app_path, min_leaf="5")
    data = load_sample("metalearning")
    tree = RankingTree(gamma=np.inf, min_samples_leaf=5).fit(data.X, data.Y).gamma_path().tree_at(0.995)
    Xe = FeatureEncoder().fit(data.X).transform(data.X)
    inspection = inspect_node(tree, Xe, data.Y, 0, min_samples_leaf=5, gamma=0.995)
    listed = ordered_rows(tree, Xe, data.Y, inspection)
    assert "inspect_heatmap" not in chart_keys(at)
    at.session_state["inspect_section"] = "Rankings in the node"  # only the open tab is drawn
    at.run()
    heat = chart(at, "inspect_heatmap").data[0]
    assert list(heat.y) == [str(row + 1) for row in listed.rows]  # hover: the row number to trace
    assert [row[0] for row in heat.customdata] == [f"#{tree.node_ids[leaf]}" for leaf in listed.leaves]
    caption = next(c.value for c in at.caption if c.value.startswith("Rows in bands"))
    assert "Trace an example" in caption and "evenly spaced" not in caption  # 153 rows: all drawn
    leaf = int(tree.node_ids[np.flatnonzero(tree.is_leaf)[0]])
    at.selectbox(key="inspect_node").set_value(leaf).run()
    assert any(c.value.startswith("Rows closest to this node's ranking first") for c in at.caption)


# -- Side by side: why a tree is a single leaf ---------------------------------------

def test_a_single_leaf_tree_says_which_rule_stopped_it(app_path):
    at = open_app(app_path, "app_pages/side_by_side.py")
    data = load_sample("metalearning")
    path = RankingTree(gamma=np.inf, min_samples_leaf=10).fit(data.X, data.Y).gamma_path()
    at.slider(key="a_gamma").set_value(0.95).run()  # below the root's breakpoint
    notes = [i.value for i in at.info if i.value.startswith("The tree is its root alone")]
    assert len(notes) == 1
    root = path.tree.test_text(0).replace("_", "\\_").replace("<", "\\<")
    assert f"rule (6) stops it at γ = 0.950: its best split, **{root}**, is made only for γ > " \
           f"{path.breakpoints.min():.4f}" in notes[0]
    at.slider(key="a_gamma").set_value(0.995).run()
    at.number_input(key="b_min_leaf").set_value(100).run()
    notes = [i.value for i in at.info if i.value.startswith("The tree is its root alone")]
    assert notes == ["The tree is its root alone: with 153 examples it cannot make two leaves of at least "
                     "100 (the minimum examples per leaf)."]
