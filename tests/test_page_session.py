"""What a session keeps (AppTest): each sample's own starting settings, and the data set and
settings across the pages of the sidebar navigation."""


import io
import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from apptest_pages import open_page, open_tab

from rankviz import RankingTree, load_sample, make_ltr_dataset
from rankviz.datasets.svmlight import dump_svmlight
from rankviz.ui.tree_panel import DEFAULT_MIN_LEAF
from rankviz.ui.upload import upload_digest
from drawings import tree_views
from test_page_ranking_trees import leaves_text, status_line

UPLOAD = "__upload__"
RANKING, SIDE, MALLOWS, MPBOOST = ("app_pages/ranking_trees.py", "app_pages/side_by_side.py",
                                   "app_pages/mallows_trees.py", "app_pages/mpboost.py")
IVG = "app_pages/impurity_vs_gini.py"



def go(at, page):
    at.switch_page(page).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def upload_csv():
    """A small label-ranking CSV: one numeric attribute, three labels as rank positions."""
    rng = np.random.default_rng(0)
    lines = ["x,a,b,c"]
    for i in range(30):
        order = rng.permutation(3) + 1
        lines.append(f"{i / 3:.2f},{order[0]},{order[1]},{order[2]}")
    return ("\n".join(lines) + "\n").encode()


def upload(at, content, name="mine.csv"):
    at.selectbox(key="dataset").set_value(UPLOAD).run()
    at.file_uploader(key="upload_file").set_value((name, content, "text/csv")).run()
    digest = upload_digest(name, content)
    at.multiselect(key=f"upload_labels_{digest}").set_value(["a", "b", "c"]).run()
    assert not at.exception and not at.error
    return at


def expander_labels(at):
    return [e.label.replace("\\_", "_") for e in at.expander]


# -- each sample's own starting settings ---------------------------------------------

def test_the_toy_sample_opens_on_its_root_split(app_path):
    at = open_page(app_path, timeout=120)
    at.selectbox(key="dataset").set_value("toy").run()
    assert at.number_input(key="tree_min_leaf").value == 2  # the toy set's suggestion, not the page's 10
    toy = load_sample("toy")
    tree = RankingTree(min_samples_leaf=2).fit(toy.X, toy.Y).tree_
    assert tree.test_text(0) == "A1 = c"
    assert leaves_text(tree.n_leaves) in status_line(at)
    assert "A1 = c" in tree_views(at)[0]["dot"]


def test_leaf_sizes_nobody_set_follow_the_data_set_and_set_ones_stay(app_path):
    at = open_page(app_path, timeout=120)
    values = []
    for name in ("toy", "iris_nb", "toy", "metalearning"):
        at.selectbox(key="dataset").set_value(name).run()
        values.append(at.number_input(key="tree_min_leaf").value)
    assert values == [2, 10, 2, 10]
    at.number_input(key="tree_min_leaf").set_value(11).run()  # up and down again: the same number,
    at.number_input(key="tree_min_leaf").set_value(10).run()  # but the user's now
    at.selectbox(key="dataset").set_value("toy").run()
    assert at.number_input(key="tree_min_leaf").value == 10
    assert "1 leaf," in status_line(at)  # the user asked for it


def test_an_upload_gets_the_page_default(app_path):
    at = open_page(app_path, timeout=120)
    at.selectbox(key="dataset").set_value("toy").run()
    assert at.number_input(key="tree_min_leaf").value == 2
    upload(at, upload_csv())
    assert at.number_input(key="tree_min_leaf").value == DEFAULT_MIN_LEAF
    assert any(label.startswith("Data: mine.csv — 30 examples") for label in expander_labels(at))


def test_a_link_wins_over_the_sample_default(app_path):
    assert open_page(app_path, timeout=120, data="toy").number_input(key="tree_min_leaf").value == 2
    at = open_page(app_path, timeout=120, data="toy", min_leaf="10")
    assert at.number_input(key="tree_min_leaf").value == 10
    at.selectbox(key="dataset").set_value("iris_nb").run()
    at.selectbox(key="dataset").set_value("toy").run()
    assert at.number_input(key="tree_min_leaf").value == 10  # the link's value is not a default


def test_side_by_side_and_mallows_trees_start_at_the_samples_leaf_size_too(app_path):
    at = go(AppTest.from_file(app_path, default_timeout=120), SIDE)
    at.selectbox(key="dataset").set_value("toy").run()
    assert at.number_input(key="a_min_leaf").value == at.number_input(key="b_min_leaf").value == 2
    go(at, MALLOWS)
    assert at.number_input(key="lrt_min_leaf").value == 2


# -- across the pages ----------------------------------------------------------------

def test_data_and_tree_settings_survive_a_round_of_the_pages(app_path):
    at = open_page(app_path, timeout=120)
    at.selectbox(key="dataset").set_value("wine_nb").run()
    at.selectbox(key="tree_criterion").set_value("gini").run()
    at.slider(key="tree_gamma").set_value(0.97).run()
    at.number_input(key="tree_min_leaf").set_value(7).run()
    at.number_input(key="tree_max_depth").set_value(3).run()
    at.radio(key="tree_order").set_value("best").run()
    line = status_line(at)

    go(at, SIDE)
    assert at.selectbox(key="dataset").value == "wine_nb"  # the data set is shared
    at.slider(key="b_gamma").set_value(1.01).run()
    go(at, MALLOWS)
    assert at.selectbox(key="dataset").value == "wine_nb"
    at.number_input(key="lrt_min_leaf").set_value(12).run()
    go(at, MPBOOST)  # a page without the picker: Streamlit drops the state of widgets it does not draw
    go(at, RANKING)

    assert at.selectbox(key="dataset").value == "wine_nb"
    assert at.selectbox(key="tree_criterion").value == "gini"
    assert at.slider(key="tree_gamma").value == pytest.approx(0.97)
    assert at.number_input(key="tree_min_leaf").value == 7
    assert at.number_input(key="tree_max_depth").value == 3
    assert at.radio(key="tree_order").value == "best"
    assert status_line(at) == line  # the same tree, shown whole again
    assert at.query_params["gamma"] == "0.970" and at.query_params["data"] == "wine_nb"
    go(at, SIDE)
    assert at.slider(key="b_gamma").value == pytest.approx(1.01)
    go(at, MALLOWS)
    assert at.number_input(key="lrt_min_leaf").value == 12


def test_an_upload_survives_other_pages_until_it_is_forgotten(app_path):
    at = upload(open_page(app_path, timeout=120), upload_csv())
    go(at, MPBOOST)
    go(at, SIDE)
    assert at.selectbox(key="dataset").value == UPLOAD
    assert any("Using **mine.csv**, uploaded earlier" in c.value.replace("\\", "") for c in at.sidebar.caption)
    assert len(tree_views(at)) == 2 and all("n = 30," in view["dot"] for view in tree_views(at))
    go(at, RANKING)
    assert any(label.startswith("Data: mine.csv — 30 examples") for label in expander_labels(at))
    at.button(key="upload_file_forget").click().run()
    assert any("Upload a file to continue" in i.value for i in at.sidebar.info)
    assert not tree_views(at)


def test_an_evaluation_is_still_current_after_a_round_of_the_pages(app_path):
    at = open_page(app_path, timeout=120, data="toy")
    open_tab(at, "explore_tab", "Evaluation")
    at.radio(key="eval_protocol").set_value("kfold").run()
    at.number_input(key="eval_folds").set_value(4).run()
    at.button(key="eval_run").click().run()
    assert [c.key for c in at.get("plotly_chart") if c.key == "eval_bars"]
    go(at, MPBOOST)
    go(at, RANKING)
    open_tab(at, "explore_tab", "Evaluation")
    assert at.radio(key="eval_protocol").value == "kfold" and at.number_input(key="eval_folds").value == 4
    assert [c.key for c in at.get("plotly_chart") if c.key == "eval_bars"]  # drawn: not stale


# -- Ranking impurity vs Gini and MPBoost --------------------------------------------

def assert_shown(at, changes):
    """Each widget of ``changes`` (kind, key, value) shows its value."""
    for kind, key, value in changes:
        shown = getattr(at, kind)(key=key).value
        assert shown == (pytest.approx(value) if isinstance(value, float) else value), key


def set_all(at, changes):
    for kind, key, value in changes:
        getattr(at, kind)(key=key).set_value(value).run()
        assert not at.exception, [e.value for e in at.exception]


def tree_summaries(at):
    return [m.value for m in at.markdown if m.value.startswith(("**Ranking impurity:**", "**Gini:**"))]


IVG_CHANGES = {
    # the generator, the trees' shared settings and their layout, above the tabs
    None: [
        ("number_input", "syn_n_train", 400), ("number_input", "syn_noise_sd", 0.2),
        ("slider", "syn_label_noise", 0.1), ("number_input", "syn_seed", 5), ("number_input", "syn_b4", 0.3),
        ("number_input", "ivg_max_depth", 2), ("number_input", "ivg_min_leaf", 5),
        ("radio", "ivg_prediction", "mode"), ("checkbox", "ivg_rule6", True), ("slider", "ivg_gamma", 0.99),
        ("radio", "ivg_layout", "stacked")],
    "Monte Carlo (Table I, Fig. 2)": [
        ("number_input", "ivg_mc_trials", 3), ("number_input", "ivg_mc_depth", 4),
        ("radio", "ivg_mc_selection", "cv"), ("number_input", "ivg_mc_k", 3), ("number_input", "ivg_mc_seed", 2),
        ("checkbox", "ivg_mc_knn", False)],
    "Label noise (Fig. 3)": [
        ("multiselect", "ivg_noise_levels", [0.1, 0.3]), ("multiselect", "ivg_noise_sizes", [100]),
        ("number_input", "ivg_noise_trials", 2), ("number_input", "ivg_noise_depth", 5),
        ("radio", "ivg_noise_selection", "fixed"), ("number_input", "ivg_noise_seed", 7)],
    # the worked examples
    "Teaching: Fig. 1": [("number_input", "ivg_teach_fig1_a", 3), ("number_input", "ivg_teach_three_n2", 30)],
}


def each_tab(at, key, changes, act):
    """``act(at, changes)`` for the changes above the tabs ``key`` and then for each tab's, that tab open."""
    for tab, in_tab in changes.items():
        if tab is not None:
            open_tab(at, key, tab)  # only the open tab is computed and drawn
        act(at, in_tab)


def test_impurity_vs_gini_settings_survive_a_round_of_the_pages(app_path):
    at = go(AppTest.from_file(app_path, default_timeout=180), IVG)
    each_tab(at, "ivg_tab", IVG_CHANGES, set_all)
    each_tab(at, "ivg_tab", IVG_CHANGES, assert_shown)
    summaries = tree_summaries(at)
    losses = {m.label: m.value for m in at.metric}

    go(at, RANKING)
    go(at, SIDE)
    go(at, IVG)

    each_tab(at, "ivg_tab", IVG_CHANGES, assert_shown)
    assert tree_summaries(at) == summaries and {m.label: m.value for m in at.metric} == losses
    assert "Default (mode) baseline" in losses  # the same trees, from the same data
    for param, text in {"seed": "5", "b4": "0.3", "max_depth": "2", "rule6": "1", "gamma": "0.990"}.items():
        assert at.query_params[param] == text


def test_the_data_kind_and_hold_out_split_survive_other_kinds_and_pages(app_path):
    at = go(AppTest.from_file(app_path, default_timeout=180), IVG)
    at.number_input(key="syn_seed").set_value(3).run()
    at.radio(key="ivg_kind").set_value("ordinal").run()
    held = [("slider", "hold_test_share", 0.5), ("slider", "hold_label_noise", 0.2),
            ("number_input", "hold_seed", 4)]
    set_all(at, held)
    # Another kind of data hides these widgets; they keep their values meanwhile.
    at.radio(key="ivg_kind").set_value("synthetic").run()
    assert at.number_input(key="syn_seed").value == 3
    at.radio(key="ivg_kind").set_value("ordinal").run()
    assert_shown(at, held)

    go(at, RANKING)
    go(at, IVG)
    assert at.radio(key="ivg_kind").value == "ordinal"
    assert_shown(at, held)
    assert at.query_params["kind"] == "ordinal" and at.query_params["split_seed"] == "4"
    bars = json.loads(next(c for c in at.get("plotly_chart") if c.key == "ivg_levels").proto.spec)
    assert sum(bars["data"][1]["y"]) == 221  # half of the sample's 442 rows held out
    at.radio(key="ivg_kind").set_value("synthetic").run()
    assert at.number_input(key="syn_seed").value == 3


def test_a_links_settings_on_impurity_vs_gini_stay_until_the_user_changes_them(app_path):
    at = AppTest.from_file(app_path, default_timeout=180)
    at.switch_page(IVG)
    at.query_params.update({"kind": "synthetic", "max_depth": "2", "seed": "5", "rule6": "1"})
    at.run()
    assert not at.exception
    assert at.number_input(key="ivg_max_depth").value == 2 and at.number_input(key="syn_seed").value == 5
    go(at, RANKING)
    go(at, IVG)  # the link is read once: its values are the session's now, not put back over the user's
    assert at.number_input(key="ivg_max_depth").value == 2 and at.number_input(key="syn_seed").value == 5
    assert at.checkbox(key="ivg_rule6").value
    at.number_input(key="ivg_max_depth").set_value(4).run()
    go(at, RANKING)
    go(at, IVG)
    assert at.number_input(key="ivg_max_depth").value == 4 and at.query_params["max_depth"] == "4"


MPBOOST_CHANGES = [
    ("selectbox", "mpb_ddf", "ldd"), ("number_input", "mpb_param_ldd", 0.3), ("slider", "mpb_rounds", 20),
    ("select_slider", "mpb_shrinkage", 0.5), ("slider", "mpb_k", 3), ("radio", "mpb_form", "mpboost"),
    ("number_input", "mpb_last", 3), ("radio", "mpb_view", "additive"),
]
#: In the comparison's tab.
MPBOOST_COMPARE = "Compare labellings and baselines (Figs. 3–5)"
MPBOOST_COMPARE_CHANGES = [("toggle", "mpb_tune", False)]


def test_mpboost_settings_survive_a_round_of_the_pages(app_path):
    at = AppTest.from_file(app_path, default_timeout=180)
    at.session_state["mpb_rounds"] = 10  # a small first ensemble
    go(at, MPBOOST)
    at.number_input(key="mpb_param_logdd").set_value(0.8).run()
    set_all(at, MPBOOST_CHANGES)
    assert_shown(at, MPBOOST_CHANGES[-1:])  # the view (the stumps view's count is hidden now)
    open_tab(at, "mpb_tab", MPBOOST_COMPARE)
    set_all(at, MPBOOST_COMPARE_CHANGES)
    open_tab(at, "mpb_tab", "Grow the ensemble (Fig. 6)")
    described = "MPBoost.LDD, α = 0.3, 20 rounds, shrinkage ν = 0.5"
    assert any(described in m.value for m in at.markdown)

    go(at, RANKING)
    go(at, MPBOOST)

    shown = [change for change in MPBOOST_CHANGES if change[1] != "mpb_last"]  # the stumps view's
    assert_shown(at, shown)
    assert any(described in m.value for m in at.markdown)
    assert "Test NDCG@3" in [m.label for m in at.metric]
    assert "sum of 20 stumps" in tree_views(at)[0]["dot"]  # the additive view, at the last round
    for param, text in {"ddf": "ldd", "ldd_param": "0.3", "logdd_param": "0.8", "rounds": "20", "nu": "0.5",
                        "k": "3", "form": "mpboost"}.items():
        assert at.query_params[param] == text
    open_tab(at, "mpb_tab", MPBOOST_COMPARE)
    assert_shown(at, MPBOOST_COMPARE_CHANGES)
    open_tab(at, "mpb_tab", "Grow the ensemble (Fig. 6)")
    # A labelling not shown kept its own parameter, and the stumps view its count.
    at.selectbox(key="mpb_ddf").set_value("logdd").run()
    assert at.number_input(key="mpb_param_logdd").value == pytest.approx(0.8)
    at.radio(key="mpb_view").set_value("stumps").run()
    assert at.number_input(key="mpb_last").value == 3


def test_an_ltr_upload_and_its_options_survive_other_pages(app_path):
    data = make_ltr_dataset(n_queries=30, docs_per_query=(6, 10), n_features=5, n_informative=2, seed=3)
    buffer = io.StringIO()
    dump_svmlight(data, buffer)
    content = buffer.getvalue().encode()
    at = AppTest.from_file(app_path, default_timeout=180)
    at.session_state["mpb_rounds"] = 10
    go(at, MPBOOST)
    at.selectbox(key="ltr_dataset").set_value(UPLOAD).run()
    at.file_uploader(key="ltr_upload_file").set_value(("mine.txt", content, "text/plain")).run()
    digest = upload_digest("mine.txt", content)
    at.number_input(key=f"ltr_split_seed_{digest}").set_value(3).run()
    assert not at.exception and not at.error
    table = next(d.value for d in at.dataframe if "split" in d.value.columns)

    go(at, RANKING)
    go(at, MPBOOST)

    assert at.selectbox(key="ltr_dataset").value == UPLOAD
    assert at.radio(key=f"ltr_upload_kind_{digest}").value == "svmlight"
    assert at.number_input(key=f"ltr_split_seed_{digest}").value == 3
    assert any("Using **mine.txt**, uploaded earlier" in c.value.replace("\\", "") for c in at.sidebar.caption)
    assert any(label.startswith("Data: mine.txt — 30 queries") for label in expander_labels(at))
    assert next(d.value for d in at.dataframe if "split" in d.value.columns).equals(table)  # the same split
