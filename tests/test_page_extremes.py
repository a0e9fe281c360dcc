"""Every page, every sample data set and every criterion, with widgets at their extremes (AppTest).

Nothing here checks numbers (the page tests do): each run must end without an
exception and without an error box, except the few errors a page documents
for settings the data cannot satisfy (listed in ``ALLOWED``).

The combinations are chosen, not crossed, to keep the run near a minute and a
half: every sample meets every criterion at least once per page, and each
extreme of each widget (γ at both ends of its slider, depth 1 and unlimited,
the smallest and a huge minimum leaf, KNN k = 1 and its largest, MPBoost 10
and 500 rounds at the smallest shrinkage, NDCG k = 1 and 10, …) is taken on
every page that has it. The long computations behind buttons (evaluation,
leave-one-out curves, Monte Carlo, comparisons) run on the smaller samples or
with the fewest folds and trials, but every one of them runs.
"""

import itertools
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from rankviz import RankingTree, load_sample
from rankviz.tree.criteria import CRITERIA
from rankviz.datasets.samples import list_samples
from rankviz.ltr.ddf import DDF_NAMES
from rankviz.label_ranking.iblr import DEFAULT_K_GRID
from rankviz.ui.gamma_panel import GAMMA_RANGE
from rankviz.viz.dot import fitting_depth, tree_to_dot
import streamlit as st

from rankviz.ui import export_panel, tree_panel
from rankviz.viz.export import PAGE_WIDTH_CM, fit_to_page
from rankviz.ui.mpboost_panel import SHRINKAGES
from rankviz.ui.tree_panel import LEGIBLE_LEAVES
from drawings import drawings

SAMPLES = list_samples("label_ranking")
CRITERIA_NAMES = list(CRITERIA)
GAMMAS = GAMMA_RANGE  # the slider's two ends
HUGE_LEAF = 1000  # the widgets' maximum: more than any sample has rows

#: Errors a page may show on purpose, by a phrase of their text. None is needed on the
#: samples today; e.g. the Mallows comparison's "could not be evaluated on this data" (a
#: method that cannot run on a tiny fold) would belong here.
ALLOWED = ()


def open_page(app_path, page, state=None, timeout=240):
    at = AppTest.from_file(app_path, default_timeout=timeout)
    for key, value in (state or {}).items():
        at.session_state[key] = value
    at.switch_page(page).run()
    return at


def ok(at, allowed=ALLOWED):
    assert not at.exception, at.exception
    errors = [e.value for e in at.error if not any(phrase in e.value for phrase in allowed)]
    assert not errors, errors


def open_tab(at, key, label):
    """Open the tab ``label`` of the tabs ``key`` (only an open tab is computed and drawn), and check the page."""
    at.session_state[key] = label
    at.run()
    ok(at)


def spread(values, n):
    """``values`` repeated to length ``n``: each value used, in turn."""
    return list(itertools.islice(itertools.cycle(values), n))


def combos():
    """(sample, criterion) pairs, every pair once, with the extremes dealt round-robin."""
    pairs = list(itertools.product(SAMPLES, CRITERIA_NAMES))
    n = len(pairs)
    return list(zip(pairs, spread(GAMMAS, n), spread([1, 1, 0, 0], n), spread([1, HUGE_LEAF, 2], n),
                    spread(["depth", "depth", "best", "best"], n)))


# -- Ranking trees --------------------------------------------------------------------

RANKING = "app_pages/ranking_trees.py"


@pytest.mark.parametrize("pair, gamma, depth, min_leaf, order", combos(),
                         ids=[f"{s}-{c}" for (s, c), *_ in combos()])
def test_ranking_trees_page(app_path, pair, gamma, depth, min_leaf, order):
    sample, criterion = pair
    at = open_page(app_path, RANKING, {
        "dataset": sample, "tree_criterion": criterion, "tree_gamma": gamma,
        "tree_min_leaf": min_leaf, "tree_max_depth": depth, "tree_order": order})
    ok(at)
    # The player at both ends, and the drawing-depth slider of a large tree at both ends.
    at.button(key="tree_first").click().run()
    ok(at)
    at.button(key="tree_last").click().run()
    ok(at)
    sliders = [s for s in at.slider if s.key == "tree_draw_depth"]
    if sliders:
        sliders[0].set_value(1).run()
        ok(at)
        at.slider(key="tree_draw_depth").set_value(at.slider(key="tree_draw_depth").max).run()
        ok(at)


@pytest.mark.parametrize("sample", SAMPLES)
def test_ranking_trees_long_computations(app_path, sample):
    """Evaluation (fewest folds; leave-one-out on the toy set) and the γ curves on the small sets."""
    small = sample == "toy"
    at = open_page(app_path, RANKING, {"dataset": sample, "tree_min_leaf": 1, "tree_max_depth": 0,
                                       "tree_gamma": GAMMAS[1]})
    ok(at)
    at.session_state["explore_tab"] = "Evaluation"  # only the open tab is drawn
    at.run()
    if not small:
        at.radio(key="eval_protocol").set_value("kfold").run()
        at.number_input(key="eval_folds").set_value(2)
        at.number_input(key="eval_seed").set_value(10_000)
    at.button(key="eval_run").click().run()
    ok(at)
    assert at.get("plotly_chart")  # the evaluation's charts
    at.session_state["explore_tab"] = "Node inspector"  # the γ path is always drawn
    at.run()
    if sample in ("toy", "iris_nb"):
        at.button(key="gamma_run").click().run()
        ok(at)
        at.button(key="gamma_best_CS").click().run()  # sets the slider to the best γ
        ok(at)
    # Every node of the inspector's last choice: the deepest node of the tree.
    nodes = at.selectbox(key="inspect_node").options
    at.selectbox(key="inspect_node").select_index(len(nodes) - 1).run()
    at.radio(key="inspect_view").set_value("all").run()
    ok(at)


# -- Side by side ------------------------------------------------------------------------

SIDE = "app_pages/side_by_side.py"


def side_combos():
    """Each sample with every criterion over the two sides, extremes on both."""
    runs = []
    for k, sample in enumerate(SAMPLES):
        for first in range(0, len(CRITERIA_NAMES), 2):
            a, b = CRITERIA_NAMES[first], CRITERIA_NAMES[(first + 1) % len(CRITERIA_NAMES)]
            runs.append((sample, a, b, GAMMAS[(k + first // 2) % 2], [1, 0][(k + first // 2) % 2],
                         [1, HUGE_LEAF][(k + first // 2) % 2]))
    return runs


@pytest.mark.parametrize("sample, a, b, gamma, depth, min_leaf", side_combos(),
                         ids=[f"{s}-{a}-{b}" for s, a, b, *_ in side_combos()])
def test_side_by_side_page(app_path, sample, a, b, gamma, depth, min_leaf):
    other = GAMMAS[0] if gamma == GAMMAS[1] else GAMMAS[1]
    at = open_page(app_path, SIDE, {
        "dataset": sample, "a_criterion": a, "b_criterion": b, "a_gamma": gamma, "b_gamma": other,
        "a_max_depth": depth, "b_max_depth": 1 - depth if depth in (0, 1) else 0,
        "a_min_leaf": min_leaf, "b_min_leaf": 1})
    ok(at)
    if sample == "toy":
        at.button(key="compare_eval_run").click().run()  # leave-one-out on 16 rows
        ok(at)


# -- Ranking impurity vs Gini -----------------------------------------------------------------

IVG = "app_pages/impurity_vs_gini.py"

IVG_SYNTHETIC = [
    # (state, run the Monte Carlo and noise panels)
    ({"syn_n_train": 10, "syn_n_test": 10, "syn_noise_sd": 5.0, "syn_label_noise": 1.0,
      "ivg_max_depth": 0, "ivg_min_leaf": 1, "ivg_prediction": "mode",
      "ivg_rule6": True, "ivg_gamma": GAMMAS[0]}, True),
    ({"syn_n_train": 200_000, "syn_n_test": 10, "syn_noise_sd": 0.0, "syn_label_noise": 0.0,
      "syn_seed": 1_000_000, "ivg_max_depth": 30, "ivg_min_leaf": 10_000,
      "ivg_rule6": True, "ivg_gamma": GAMMAS[1]}, False),
    ({"syn_n_train": 2000, "syn_b2": -20.0, "syn_b3": 20.0, "syn_b4": -20.0, "syn_b5": 20.0,
      "ivg_max_depth": 0, "ivg_min_leaf": 1}, False),  # a large tree: drawn to a depth
]


@pytest.mark.parametrize("state, panels", IVG_SYNTHETIC, ids=["tiny-noisy", "huge-clean", "big-tree"])
def test_impurity_vs_gini_synthetic(app_path, state, panels):
    at = open_page(app_path, IVG, {"ivg_kind": "synthetic", **state})
    ok(at)
    for slider in [s for s in at.slider if s.key and s.key.endswith("_depth") and "ordinal_tree" in s.key]:
        slider.set_value(1).run()
        ok(at)
    at.radio(key="ivg_layout").set_value("stacked").run()
    ok(at)
    if panels:
        at.number_input(key="ivg_mc_trials").set_value(1)
        at.number_input(key="ivg_mc_depth").set_value(20)
        at.number_input(key="ivg_mc_k").set_value(50)
        at.radio(key="ivg_mc_selection").set_value("cv")
        at.button(key="ivg_mc_run").click().run()
        ok(at)
        at.number_input(key="ivg_mc_depth").set_value(1)
        at.number_input(key="ivg_mc_k").set_value(1)
        at.checkbox(key="ivg_mc_knn").uncheck()
        at.button(key="ivg_mc_run").click().run()
        ok(at)
        open_tab(at, "ivg_tab", "Label noise (Fig. 3)")
        at.multiselect(key="ivg_noise_levels").set_value([0.0, 1.0])
        at.multiselect(key="ivg_noise_sizes").set_value([100])
        at.number_input(key="ivg_noise_trials").set_value(1)
        at.number_input(key="ivg_noise_depth").set_value(1)
        at.button(key="ivg_noise_run").click().run()
        ok(at)
        open_tab(at, "ivg_tab", "Teaching: Fig. 1")
        at.number_input(key="ivg_teach_fig1_a").set_value(100_000)
        at.number_input(key="ivg_teach_three_n1").set_value(0)
        at.number_input(key="ivg_teach_three_n3").set_value(0)
        at.run()
        ok(at)


@pytest.mark.parametrize("sample", list_samples("ordinal"))
@pytest.mark.parametrize("extreme", ["low", "high"])
def test_impurity_vs_gini_ordinal_samples(app_path, sample, extreme):
    low = extreme == "low"
    at = open_page(app_path, IVG, {
        "ivg_kind": "ordinal", "ordinal_dataset": sample,
        "hold_test_share": 0.05 if low else 0.95, "hold_label_noise": 0.0 if low else 1.0,
        "hold_seed": 0 if low else 1_000_000, "ivg_max_depth": 0 if low else 1,
        "ivg_min_leaf": 1 if low else 10_000, "ivg_prediction": "mode" if low else "median",
        "ivg_rule6": True, "ivg_gamma": GAMMAS[0] if low else GAMMAS[1]})
    ok(at)
    open_tab(at, "ivg_tab", "Teaching: Fig. 1")  # the node table of both trees at the extremes
    open_tab(at, "ivg_tab", "Monte Carlo (Table I, Fig. 2)")
    if low:
        at.number_input(key="ivg_mc_trials").set_value(1)
        at.button(key="ivg_mc_run").click().run()
        ok(at)
        open_tab(at, "ivg_tab", "Label noise (Fig. 3)")
        at.multiselect(key="ivg_noise_levels").set_value([1.0])
        at.number_input(key="ivg_noise_trials").set_value(1)
        at.number_input(key="ivg_noise_depth").set_value(20)
        at.radio(key="ivg_noise_selection").set_value("fixed")
        at.button(key="ivg_noise_run").click().run()
        ok(at)


@pytest.mark.parametrize("sample", SAMPLES)
def test_impurity_vs_gini_ranking_samples(app_path, sample):
    low = SAMPLES.index(sample) % 2 == 0
    at = open_page(app_path, IVG, {
        "ivg_kind": "ranking", "dataset": sample, "ivg_max_depth": 0 if low else 1,
        "ivg_min_leaf": 1 if low else 10_000, "ivg_rule6": True,
        "ivg_gamma": GAMMAS[1] if low else GAMMAS[0]})
    ok(at)
    at.radio(key="ivg_ranking_layout").set_value("side").run()
    ok(at)
    if sample == "toy":
        at.button(key="ivg_eval_run").click().run()
        ok(at)
    # The node table: the last node of each tree.
    open_tab(at, "ivg_ranking_tab", "Teaching: Fig. 1")
    for tree in at.radio(key="ivg_teach_node_tree").options:
        at.radio(key="ivg_teach_node_tree").set_value(tree).run()
        node = next(s for s in at.selectbox if s.key and s.key.startswith("ivg_teach_node_node_"))
        node.select_index(len(node.options) - 1).run()
        ok(at)


# -- Mallows label ranking trees -------------------------------------------------------------

MALLOWS = "app_pages/mallows_trees.py"


@pytest.mark.parametrize("sample", SAMPLES)
def test_mallows_page(app_path, sample):
    low = SAMPLES.index(sample) % 2 == 0
    at = open_page(app_path, MALLOWS, {
        "dataset": sample, "lrt_p": 0.9 if low else 0.0, "lrt_p_seed": 1_000_000 if low else 0,
        "lrt_min_leaf": 1 if low else HUGE_LEAF, "lrt_max_depth": 0 if low else 1,
        "lrt_use_gamma": True, "lrt_gamma": GAMMAS[1] if low else GAMMAS[0],
        "lrt_order": "best" if low else "depth"})
    ok(at)
    for tab in ("Compare methods", "Missing labels (Fig. 1)", "Tree size (Table 2)"):
        open_tab(at, "lrt_tab", tab)
    at.radio(key="lrt_size_lrt").set_value("drawn").run()  # the size table for the drawn tree
    ok(at)
    if sample == "toy":
        # Every method on the fewest folds, IBLR with its largest k, and the Fig. 1 curve
        # at both ends of the rates.
        open_tab(at, "lrt_tab", "Compare methods")
        at.number_input(key="lrt_cmp_folds").set_value(2)
        at.selectbox(key="lrt_cmp_iblr_k").set_value(DEFAULT_K_GRID[-1])
        at.radio(key="lrt_cmp_lrt").set_value("unpruned")
        at.button(key="lrt_cmp_run").click().run()
        ok(at)
        open_tab(at, "lrt_tab", "Missing labels (Fig. 1)")
        at.multiselect(key="lrt_fig1_rates").set_value([0.0, 0.9])
        at.number_input(key="lrt_fig1_folds").set_value(2)
        at.selectbox(key="lrt_fig1_iblr_k").set_value(1)
        at.button(key="lrt_fig1_run").click().run()
        ok(at)


# -- MPBoost -------------------------------------------------------------------------------

MPBOOST = "app_pages/mpboost.py"


def mpboost_combos():
    """Every labelling on every LTR sample; rounds, shrinkage, parameter, k and form at their ends."""
    runs = []
    for sample in list_samples("query"):
        for k, ddf in enumerate(DDF_NAMES):
            runs.append((sample, ddf, [10, 500][k == 1], SHRINKAGES[0] if k == 1 else SHRINKAGES[-1],
                         [0.01, 20.0][k % 2], [1, 10][k % 2], ["common", "mpboost"][k % 2]))
    return runs


@pytest.mark.parametrize("sample, ddf, rounds, shrinkage, parameter, k, form", mpboost_combos(),
                         ids=[f"{s}-{d}-{r}" for s, d, r, *_ in mpboost_combos()])
def test_mpboost_page(app_path, sample, ddf, rounds, shrinkage, parameter, k, form):
    state = {"ltr_dataset": sample, "mpb_ddf": ddf, "mpb_rounds": rounds, "mpb_shrinkage": shrinkage,
             "mpb_k": k, "mpb_form": form}
    if ddf != "binary":
        state[f"mpb_param_{ddf}"] = parameter
    at = open_page(app_path, MPBOOST, state)
    ok(at)
    at.radio(key="mpb_view").set_value("additive").run()
    ok(at)
    at.slider(key="mpb_round").set_value(1).run()  # the ensemble after its first round
    ok(at)
    if rounds == 10:
        open_tab(at, "mpb_tab", "Compare labellings and baselines (Figs. 3–5)")
        at.toggle(key="mpb_tune").set_value(ddf == "binary")
        at.button(key="mpb_compare").click().run()
        ok(at)


# -- large trees: drawn to a depth, exported whole ----------------------------------------------

def drawn_nodes(dot):
    return sorted(int(n) for n in re.findall(r"^  node(\d+) \[", dot, flags=re.M))


@pytest.fixture
def exported(monkeypatch):
    """The DOT of each figure an open Export popover lays out, recorded as the page runs."""
    seen = []
    original = export_panel.export_tree

    def record(tree, fmt, **options):
        made = original(tree, fmt, **options)
        if fmt == "dot":
            seen.append(made.decode("utf-8"))
        return made

    st.cache_data.clear()  # figures are cached: lay them out again, through the recorder
    monkeypatch.setattr(export_panel, "export_tree", record)
    return seen


def depth_notice(at):
    return [c.value for c in at.caption if c.value.startswith("**Drawn to depth")]


def test_big_ranking_tree_is_drawn_to_a_depth_and_exported_whole(app_path, exported):
    # A width given (40 cm): the whole tree, as wide as asked (without one the figure fits a
    # page, cut by levels: test_the_export_fits_a_page_by_default).
    at = open_page(app_path, RANKING, {"dataset": "metalearning", "tree_min_leaf": 1,
                                       "tree_gamma": GAMMAS[1], "tree_export_open": True,
                                       "tree_export_width": 40.0})
    ok(at)
    data = load_sample("metalearning")
    tree = RankingTree(gamma=np.inf, min_samples_leaf=1).fit(  # as the page: cut from the γ path
        data.X, data.rankings).gamma_path().tree_at(GAMMAS[1])
    assert LEGIBLE_LEAVES < tree.n_leaves <= tree_panel.DRAWN_WHOLE_LEAVES
    # The view zooms: up to DRAWN_WHOLE_LEAVES leaves the whole tree is drawn first.
    assert at.slider(key="tree_draw_depth").value == tree.max_depth
    assert not depth_notice(at)
    assert drawn_nodes(drawings(at)[0]) == list(range(tree.node_count))
    depth = fitting_depth(tree, LEGIBLE_LEAVES)
    at.slider(key="tree_draw_depth").set_value(depth).run()
    (notice,) = depth_notice(at)
    assert f"Drawn to depth {depth} of {tree.max_depth}" in notice
    drawn = drawings(at)[0]
    assert drawn_nodes(drawn) == list(np.flatnonzero(tree.depth <= depth))
    assert "dashed: subtree not drawn" in drawn
    # The export is the whole tree by default, without highlights ...
    (full,) = set(exported)
    assert drawn_nodes(full) == list(range(tree.node_count)) and "dashed: subtree not drawn" not in full
    assert full == tree_to_dot(tree, similarity_range=tree_panel.SIMILARITY_RANGE, show_ids=True,
                               max_labels=4)
    # ... and the current view on request: the same drawing as on screen, cut.
    (drawing,) = [r for r in at.radio if r.key == "tree_export_what"]
    exported.clear()
    drawing.set_value(drawing.options[1]).run()
    assert drawing.options[1].startswith("The current view (to depth")
    assert exported == [drawings(at)[0]]
    # Deeper on request; the whole tree at the slider's end, the notice then gone.
    at.slider(key="tree_draw_depth").set_value(depth + 2).run()
    assert drawn_nodes(drawings(at)[0]) == list(np.flatnonzero(tree.depth <= depth + 2))
    at.slider(key="tree_draw_depth").set_value(tree.max_depth).run()
    assert drawn_nodes(drawings(at)[0]) == list(range(tree.node_count))
    assert not depth_notice(at)
    # The player keeps the chosen depth while it steps through the same tree.
    at.slider(key="tree_draw_depth").set_value(3).run()
    at.button(key="tree_back").click().run()
    ok(at)
    assert at.slider(key="tree_draw_depth").value == 3
    # A small tree has no slider and is drawn whole.
    at.number_input(key="tree_min_leaf").set_value(20).run()
    assert not [s for s in at.slider if s.key == "tree_draw_depth"]


def test_the_export_fits_a_page_by_default(app_path):
    """No width given: page wide (16 cm), the deepest levels cut so the text stays legible, and said so."""
    at = open_page(app_path, RANKING, {"dataset": "metalearning", "tree_min_leaf": 1,
                                       "tree_gamma": GAMMAS[1], "tree_export_open": True})
    ok(at)
    data = load_sample("metalearning")
    tree = RankingTree(gamma=np.inf, min_samples_leaf=1).fit(
        data.X, data.rankings).gamma_path().tree_at(GAMMAS[1])
    _, inches, depth = fit_to_page(tree, similarity_range=tree_panel.SIMILARITY_RANGE, show_ids=True,
                                   max_labels=4, direction="TB", font_size=12.0, legend=True,
                                   rank_strips=False, title=None)
    assert depth is not None and depth < tree.max_depth
    captions = [c.value for c in at.caption]
    assert any(c.startswith(f"Figure {PAGE_WIDTH_CM:.1f} × ") for c in captions), captions
    assert any(c.startswith(f"Drawn to depth {depth}, its deeper subtrees as boxes") for c in captions)
    assert [n.value for n in at.number_input if n.key == "tree_export_dpi"] == [300]


def test_big_trees_on_the_other_pages_are_drawn_to_a_depth(app_path, exported):
    at = open_page(app_path, SIDE, {"dataset": "metalearning", "a_min_leaf": 1, "a_gamma": GAMMAS[1],
                                    "b_min_leaf": 1, "b_gamma": GAMMAS[1], "b_criterion": "gini",
                                    "a_export_open": True, "a_export_width": 40.0})
    ok(at)
    assert {s.key for s in at.slider} >= {"a_draw_depth", "b_draw_depth"}
    assert not depth_notice(at)  # drawn whole at first: the views zoom
    (full,) = exported  # tree A's Export is open
    assert set(drawn_nodes(drawings(at)[0])) == set(drawn_nodes(full))
    at.slider(key="a_draw_depth").set_value(2).run()
    assert len(depth_notice(at)) == 1
    chart, (full,) = drawings(at)[0], set(exported)
    assert "<I>+ " in chart and "<I>+ " not in full  # exported whole by default
    assert set(drawn_nodes(chart)) < set(drawn_nodes(full))

    # Impurity vs Gini: both trees in the zooming view, each with its depth control.
    at = open_page(app_path, IVG, {"ivg_kind": "synthetic", "ivg_max_depth": 0})
    ok(at)
    keys = {s.key for s in at.slider if s.key and s.key.endswith("_draw_depth")}
    assert keys == {"ivg_side_0_draw_depth", "ivg_side_1_draw_depth"}
    at.slider(key="ivg_side_0_draw_depth").set_value(2).run()
    assert len(depth_notice(at)) == 1 and "<I>+ " in drawings(at)[0] and "<I>+ " not in drawings(at)[1]

    at = open_page(app_path, MALLOWS, {"dataset": "metalearning", "lrt_min_leaf": 1})
    ok(at)
    assert at.slider(key="lrt_draw_depth").value >= 1  # drawn whole at first, with a depth control
    at.slider(key="lrt_draw_depth").set_value(2).run()
    assert depth_notice(at) and "<I>+ " in drawings(at)[0]
