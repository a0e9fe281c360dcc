"""The "Ranking impurity vs Gini" page (AppTest): Xia, Zhang & Wang (2006) reproduced on the page."""

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from apptest_pages import ok, open_page, open_tab

from rankviz import OrdinalTree, load_sample
from rankviz.experiments.monte_carlo import SyntheticSource
from rankviz.ordinal.synthetic import PRINTED_THRESHOLDS
from drawings import drawings

PAGE = "app_pages/impurity_vs_gini.py"


@pytest.fixture
def app(app_path):
    at = open_page(app_path, PAGE)
    return at



def tree_dots(at):
    """DOT of the two drawn trees (the first two graphviz charts; Fig. 1's come later)."""
    return drawings(at)[:2]


def figure(at, key):
    chart = next(c for c in at.get("plotly_chart") if c.proto.id and c.key == key)
    return json.loads(chart.proto.spec)


def tree_summaries_of(at):
    """The lines above the two trees: "**Gini:** 5 leaves, depth 3."."""
    return [m.value for m in at.markdown if m.value.startswith(("**Ranking impurity:**", "**Gini:**"))]


def node_frame(at):
    return next(d.value for d in at.dataframe if "ranking impurity" in d.value.columns)


def brute_force(levels, positions=None):
    """Gini and ranking impurity of a set of levels by their definitions (all pairs)."""
    levels = np.asarray(levels, dtype=float)
    values, counts = np.unique(levels, return_counts=True)
    p = counts / counts.sum()
    gini = float(sum(p[i] * p[j] for i in range(len(p)) for j in range(len(p)) if i != j))
    rank = float(np.abs(levels[:, None] - levels[None, :]).sum() / 2.0)
    return gini, rank


def default_split(**changes):
    source = SyntheticSource(**changes)
    return source.draw(np.random.default_rng(0))


# -- synthetic data ------------------------------------------------------------------

def test_default_trees_are_the_librarys_and_differ_between_criteria(app):
    ok(app)
    dots = tree_dots(app)
    assert len(dots) == 2
    assert dots[0] != dots[1]
    # Side by side: left to right, one legend for both in a caption.
    assert all("rankdir=LR" in dot and "legend [" not in dot for dot in dots)
    X_train, y_train, X_test, y_test = default_split()
    summaries = [m.value for m in app.markdown if m.value.startswith(("**Ranking impurity:**", "**Gini:**"))]
    metrics = {m.label: m.value for m in app.metric}
    for dot, summary, criterion, name in zip(dots, summaries, ("ranking_impurity", "gini"),
                                             ("Ranking impurity", "Gini")):
        # Rule (6) is off by default: trees grow as the CART trees of Xia et al. do.
        model = OrdinalTree(criterion, max_depth=3, gamma=np.inf).set_params(levels=[1, 2, 3, 4, 5]).fit(X_train, y_train)
        tree = model.tree_
        assert f"{tree.n_leaves} leaves, depth {tree.max_depth}." in summary
        assert tree.max_depth == 3
        assert dot.count('label="yes"') == tree.node_count // 2
        assert tree.test_text(0).replace("<", "&lt;") in dot
        assert metrics[f"{name} tree"] == f"{model.rank_loss(X_test, y_test):.3f}"
    assert set(metrics) == {"Ranking impurity tree", "Gini tree", "KNN (k=1) baseline",
                            "Default (median) baseline"}


def test_the_knn_baselines_k_is_chosen_and_goes_into_the_url(app, app_path):
    from rankviz.ordinal import OrdinalKNN, OrdinalLevels, mean_rank_loss

    app.number_input(key="ivg_knn_k").set_value(7).run()
    ok(app)
    X_train, y_train, X_test, y_test = default_split()
    knn = OrdinalKNN(7).set_params(levels=[1, 2, 3, 4, 5]).fit(X_train, y_train)
    truth = OrdinalLevels(knn.classes_, knn.positions_).position_of(y_test)
    expected = mean_rank_loss(truth, knn.positions_[knn.predict_index(X_test)])
    metrics = {m.label: m.value for m in app.metric}
    assert metrics["KNN (k=7) baseline"] == f"{expected:.3f}" and "KNN (k=1) baseline" not in metrics
    # k = 7 is not k = 1's loss on this draw, so the test sees the choice.
    nearest = OrdinalKNN(1).set_params(levels=[1, 2, 3, 4, 5]).fit(X_train, y_train)
    assert mean_rank_loss(truth, nearest.positions_[nearest.predict_index(X_test)]) != pytest.approx(expected)
    assert app.query_params["knn_k"] == "7"
    linked = open_page(app_path, PAGE, knn_k="7")
    ok(linked)
    assert linked.number_input(key="ivg_knn_k").value == 7
    assert "KNN (k=7) baseline" in [m.label for m in linked.metric]


def test_every_synthetic_and_tree_control(app):
    changes = [
        ("number_input", "syn_n_train", 400), ("number_input", "syn_n_test", 300),
        ("number_input", "syn_noise_sd", 0.2), ("slider", "syn_label_noise", 0.1),
        ("number_input", "syn_seed", 7), ("number_input", "syn_b2", -1.2),
        ("number_input", "syn_b3", -0.2), ("number_input", "syn_b4", 0.3), ("number_input", "syn_b5", 1.1),
        ("number_input", "ivg_max_depth", 2), ("number_input", "ivg_min_leaf", 5),
        ("radio", "ivg_prediction", "mode"), ("checkbox", "ivg_rule6", True),
        ("slider", "ivg_gamma", 0.995),
        ("radio", "ivg_layout", "stacked"),
    ]
    for kind, key, value in changes:
        getattr(app, kind)(key=key).set_value(value).run()
        ok(app)
    assert all("rankdir=TB" in dot and "legend [" in dot for dot in tree_dots(app))
    assert "Default (mode) baseline" in [m.label for m in app.metric]
    # Every setting reaches the trees: the library's trees with the same ones.
    source = SyntheticSource(400, 300, 0.2, (-np.inf, -1.2, -0.2, 0.3, 1.1), 0.1)
    X_train, y_train, X_test, y_test = source.draw(np.random.default_rng(7))
    summaries = [m.value for m in app.markdown if m.value.startswith(("**Ranking impurity:**", "**Gini:**"))]
    metrics = {m.label: m.value for m in app.metric}
    for summary, criterion, name in zip(summaries, ("ranking_impurity", "gini"), ("Ranking impurity", "Gini")):
        model = OrdinalTree(criterion, max_depth=2, prediction="mode", min_samples_leaf=5,
                            gamma=0.995).set_params(levels=[1, 2, 3, 4, 5]).fit(X_train, y_train)
        leaves = "1 leaf" if model.tree_.n_leaves == 1 else f"{model.tree_.n_leaves} leaves"
        assert f"{leaves}, depth {model.tree_.max_depth}." in summary
        assert metrics[f"{name} tree"] == f"{model.rank_loss(X_test, y_test):.3f}"
    # Label noise puts rows on every rank; σ and the thresholds reach the data.
    bars = figure(app, "ivg_levels")["data"][0]
    assert bars["y"] == [int((y_train == r).sum()) for r in range(1, 6)]
    app.button(key="syn_corrected").click().run()
    ok(app)
    assert app.number_input(key="syn_b4").value == pytest.approx(0.25)
    app.number_input(key="ivg_max_depth").set_value(0).run()  # no limit: a big tree, still drawn
    ok(app)
    assert len(tree_dots(app)) == 2


def test_printed_thresholds_leave_rank_3_empty(app):
    app.button(key="syn_printed").click().run()
    ok(app)
    assert [app.number_input(key=f"syn_b{r}").value for r in (2, 3, 4, 5)] == pytest.approx(
        list(PRINTED_THRESHOLDS[1:]))
    chart = figure(app, "ivg_levels")
    for trace in chart["data"]:  # training and test rows
        counts = dict(zip(trace["x"], trace["y"]))
        assert counts["3"] == 0
        assert all(counts[r] > 0 for r in ("1", "2", "4", "5"))
    assert chart["layout"]["xaxis"]["title"]["text"] == "rank"
    assert chart["layout"]["yaxis"]["title"]["text"] == "rows"
    assert chart["layout"]["title"]["text"]
    warning = " ".join(w.value for w in app.warning)
    assert "rank 3" in warning and "b3 = -0.1 ≥ b4 = -0.25" in warning


def test_monte_carlo_and_noise_tabs_run(app):
    app.number_input(key="syn_n_train").set_value(200).run()
    app.number_input(key="ivg_mc_trials").set_value(2).run()
    app.number_input(key="ivg_mc_depth").set_value(4).run()
    app.button(key="ivg_mc_run").click().run()
    ok(app)
    # The Monte Carlo table (the hold-out's paired table above it has a "method" column too).
    table = next(d.value for d in app.dataframe
                 if "method" in d.value.columns and "wins / ties / losses" not in d.value.columns)
    assert list(table["method"])[:2] == ["Ranking impurity", "Gini"]
    open_tab(app, "ivg_tab", "Label noise (Fig. 3)")
    app.multiselect(key="ivg_noise_levels").set_value([0.0, 0.2]).run()
    app.multiselect(key="ivg_noise_sizes").set_value([100]).run()
    app.number_input(key="ivg_noise_trials").set_value(2).run()
    app.button(key="ivg_noise_run").click().run()
    ok(app)
    assert any(c.key == "ivg_noise_chart" for c in app.get("plotly_chart"))


# -- teaching -----------------------------------------------------------------------

def test_figure1_arithmetic_for_a_3(app):
    open_tab(app, "ivg_tab", "Teaching: Fig. 1")
    app.number_input(key="ivg_teach_fig1_a").set_value(3).run()
    ok(app)
    text = " ".join(m.value for m in app.markdown)
    assert "2a^2 = 18" in text and "4a^2 = 36" in text
    assert "10a^2 = 90" in text
    lefts = [m.value for m in app.markdown if m.value.startswith("- **Gini** of each child")]
    assert len(lefts) == 2
    weighted = [line.split("weighted by the children's shares")[1].split("; gain")[0] for line in lefts]
    assert weighted[0] == weighted[1] and "\\tfrac{1}{2}" in weighted[0]
    fig1 = drawings(app)[2:]
    assert "I_rank 9<" in fig1[0] and "I_rank 18<" in fig1[1]


def test_three_ratings_table(app):
    open_tab(app, "ivg_tab", "Teaching: Fig. 1")
    for r, value in zip((1, 2, 3), (10, 30, 10)):
        app.number_input(key=f"ivg_teach_three_n{r}").set_value(value).run()
        ok(app)
    table = next(d.value for d in app.dataframe if "ranking impurity picks" in d.value.columns)
    picks = dict(zip(table["split"], table["ranking impurity picks"]))
    assert picks["{2} | {1, 3}"] == "✓"  # N2 > 2 N1 and N2 > 2 N3
    app.number_input(key="ivg_teach_three_n2").set_value(15).run()
    table = next(d.value for d in app.dataframe if "ranking impurity picks" in d.value.columns)
    assert dict(zip(table["split"], table["ranking impurity picks"]))["{2} | {1, 3}"] == ""
    # At N2 = 2 N1 = 2 N3 the three splits tie; equal counts tie Gini's three.
    app.number_input(key="ivg_teach_three_n2").set_value(20).run()
    table = next(d.value for d in app.dataframe if "ranking impurity picks" in d.value.columns)
    assert list(table["ranking impurity picks"]) == ["✓"] * 3
    app.number_input(key="ivg_teach_three_n2").set_value(10).run()
    table = next(d.value for d in app.dataframe if "ranking impurity picks" in d.value.columns)
    assert list(table["Gini picks"]) == ["✓"] * 3
    assert list(table["ranking impurity picks"]) == ["✓", "", "✓"]


def test_node_table_root_matches_brute_force(app):
    _, y_train, _, _ = default_split()
    gini, rank = brute_force(y_train)
    open_tab(app, "ivg_tab", "Teaching: Fig. 1")
    for tree_name in ("Ranking impurity", "Gini"):
        app.radio(key="ivg_teach_node_tree").set_value(tree_name).run()
        ok(app)
        root = node_frame(app).iloc[0]
        assert root["n"] == len(y_train)
        assert [root[f"rank {r}"] for r in range(1, 6)] == [int((y_train == r).sum()) for r in range(1, 6)]
        assert root["Gini"] == pytest.approx(gini)
        assert root["ranking impurity"] == pytest.approx(rank)
    # A child of the root: its row and the gains of the split.
    key = "ivg_teach_node_node_1"
    app.selectbox(key=key).set_value(1).run()
    ok(app)
    frame = node_frame(app)
    assert frame.iloc[0]["node"].startswith("#1 ")
    model = OrdinalTree("gini", max_depth=3, gamma=np.inf).set_params(levels=[1, 2, 3, 4, 5]).fit(*default_split()[:2])
    counts = model.tree_.class_counts[1]
    assert frame.iloc[0]["n"] == counts.sum()
    levels = np.repeat(np.arange(1, 6), counts.astype(int))
    assert frame.iloc[0]["ranking impurity"] == pytest.approx(brute_force(levels)[1])
    leaf = int(np.flatnonzero(model.tree_.is_leaf)[0])
    app.selectbox(key=key).set_value(leaf).run()
    ok(app)
    assert len(node_frame(app)) == 1


# -- ordinal CSV ------------------------------------------------------------------

def test_ordinal_sample_every_control(app):
    app.radio(key="ivg_kind").set_value("ordinal").run()
    ok(app)
    dots = tree_dots(app)
    assert len(dots) == 2 and dots[0] != dots[1]
    assert "very low" in dots[0]
    for kind, key, value in [("slider", "hold_test_share", 0.5), ("slider", "hold_label_noise", 0.2),
                             ("number_input", "hold_seed", 4), ("radio", "ivg_prediction", "mode"),
                             ("number_input", "ivg_min_leaf", 3), ("number_input", "ivg_max_depth", 2)]:
        getattr(app, kind)(key=key).set_value(value).run()
        ok(app)
    assert len(tree_dots(app)) == 2
    bars = figure(app, "ivg_levels")
    assert bars["data"][0]["x"] == ["very low", "low", "medium", "high", "very high"]
    assert sum(bars["data"][0]["y"]) + sum(bars["data"][1]["y"]) == 442
    assert sum(bars["data"][1]["y"]) == 221  # half the rows held out
    open_tab(app, "ivg_tab", "Teaching: Fig. 1")
    app.radio(key="ivg_teach_node_tree").set_value("Gini").run()
    ok(app)
    assert "very high" in node_frame(app).columns


# -- label-ranking data ------------------------------------------------------------

def test_label_ranking_kind(app):
    app.radio(key="ivg_kind").set_value("ranking").run()
    ok(app)
    assert app.radio(key="ivg_prediction").disabled
    app.selectbox(key="dataset").set_value("toy").run()
    app.number_input(key="ivg_max_depth").set_value(2).run()
    app.checkbox(key="ivg_rule6").check().run()
    app.slider(key="ivg_gamma").set_value(0.99).run()
    ok(app)
    assert app.radio(key="ivg_ranking_layout").value == "stacked"
    dots = tree_dots(app)
    assert len(dots) == 2 and "rankdir=TB" in dots[0]
    app.radio(key="ivg_ranking_layout").set_value("side").run()
    ok(app)
    assert all("rankdir=LR" in dot and "legend [" not in dot for dot in tree_dots(app))
    # Root of the node table: per label, impurities of the rank positions by brute force.
    dataset = load_sample("toy")
    open_tab(app, "ivg_ranking_tab", "Teaching: Fig. 1")
    frame = node_frame(app)
    root = frame[frame["node"].str.startswith("#0 ")]
    for label, Y_column in zip(dataset.label_names, dataset.Y.T):
        row = root[root["label"] == label].iloc[0]
        gini, rank = brute_force(Y_column)
        assert row["Gini"] == pytest.approx(gini)
        assert row["ranking impurity"] == pytest.approx(rank)
    total = root[root["label"] == "all labels (sum)"].iloc[0]
    assert total["ranking impurity"] == pytest.approx(
        sum(brute_force(column)[1] for column in dataset.Y.T))
    open_tab(app, "ivg_ranking_tab", "Evaluation (CS, WRC, LRA)")
    app.radio(key="ivg_eval_protocol").set_value("kfold").run()
    app.number_input(key="ivg_eval_folds").set_value(4).run()
    app.button(key="ivg_eval_run").click().run()
    ok(app)
    bars = json.loads(next(c for c in app.get("plotly_chart") if c.key == "ivg_eval_bars").proto.spec)
    assert [bar["name"] for bar in bars["data"]] == ["Ranking impurity", "Gini", "KNN (k=1)",
                                                     "Default ranking"]


def test_settings_travel_in_the_url(app_path):
    at = AppTest.from_file(app_path, default_timeout=180)
    at.switch_page(PAGE)
    at.query_params.update({"kind": "synthetic", "b4": "-0.25", "max_depth": "2", "rule6": "1",
                            "gamma": "0.97", "label_noise": "x"})
    at.run()
    assert at.number_input(key="syn_b4").value == pytest.approx(-0.25)
    assert at.number_input(key="ivg_max_depth").value == 2
    assert at.checkbox(key="ivg_rule6").value
    assert at.slider(key="ivg_gamma").value == pytest.approx(0.97)
    assert any("`label_noise` = x" in w.value for w in at.warning)  # named, the rest used
    at.number_input(key="syn_seed").set_value(5).run()
    assert at.query_params["seed"] == "5"
    assert at.query_params["b4"] == "-0.25"


# -- counts ---------------------------------------------------------------------------

def test_counts_of_one_read_in_the_singular(app):
    """A 20-row upload with a 5 % test share: 1 test row; trees of 1 leaf; 1 trial, 1 fit, 1 run."""
    rng = np.random.default_rng(0)
    lines = ["x1,x2,y"] + [f"{rng.random():.3f},{rng.random():.3f},{rng.integers(1, 4)}" for _ in range(20)]
    app.radio(key="ivg_kind").set_value("ordinal").run()
    app.selectbox(key="ordinal_dataset").set_value("__upload__").run()
    app.sidebar.file_uploader[0].set_value(("tiny.csv", ("\n".join(lines) + "\n").encode(), "text/csv")).run()
    app.slider(key="hold_test_share").set_value(0.05).run()
    app.number_input(key="ivg_min_leaf").set_value(10_000).run()
    ok(app)
    text = " ".join(m.value for m in app.markdown)
    assert "over the 1 test row, in levels" in text and "the same 19 training rows." in text
    assert tree_summaries_of(app) == ["**Ranking impurity:** 1 leaf, depth 0.", "**Gini:** 1 leaf, depth 0."]
    assert any(c.value.startswith("Each trial: 19 training rows and 1 test row.") for c in app.caption)
    app.number_input(key="ivg_mc_trials").set_value(1).run()
    assert any("Press **Run** for 1 trial of" in i.value for i in app.info)
    app.number_input(key="ivg_mc_depth").set_value(1).run()
    app.button(key="ivg_mc_run").click().run()
    ok(app)
    assert any(c.value.startswith("1 trial in ") for c in app.caption)
    open_tab(app, "ivg_tab", "Label noise (Fig. 3)")
    app.multiselect(key="ivg_noise_levels").set_value([0.1]).run()
    app.number_input(key="ivg_noise_trials").set_value(1).run()
    assert any(c.value.startswith("1 fit of both trees (1 training size × 1 noise level × 1 trial)")
               for c in app.caption)
    app.button(key="ivg_noise_run").click().run()
    ok(app)
    assert any("Done: 1 run in " in c.value for c in app.caption)



def test_the_hold_out_losses_are_compared_row_by_row(app):
    """The paired table: each method against the ranking-impurity tree on the same test rows, lower is better."""
    import pandas as pd
    from rankviz.experiments.cross_validation import paired_scores
    from rankviz.ordinal import OrdinalDefault, OrdinalKNN

    ok(app)
    X_train, y_train, X_test, y_test = default_split()
    levels = [1, 2, 3, 4, 5]
    models = {"Ranking impurity": OrdinalTree("ranking_impurity", max_depth=3, gamma=np.inf),
              "Gini": OrdinalTree("gini", max_depth=3, gamma=np.inf),
              "KNN (k=1)": OrdinalKNN(1), "Default (median)": OrdinalDefault()}
    losses = {name: model.set_params(levels=levels).fit(X_train, y_train).rank_losses(X_test, y_test)
              for name, model in models.items()}
    for name, model in models.items():  # the mean of the rows is the loss shown
        assert losses[name].mean() == pytest.approx(model.rank_loss(X_test, y_test))
    frame = pd.concat([pd.DataFrame({"method": name, "example": np.arange(len(v)), "rank loss": v})
                       for name, v in losses.items()], ignore_index=True)
    expected = paired_scores(frame, "Ranking impurity", "rank loss", lower_is_better=True)
    shown = next(d.value for d in app.dataframe if "wins / ties / losses" in d.value.columns)
    assert list(shown["method"]) == ["Gini", "KNN (k=1)", "Default (median)"]
    np.testing.assert_allclose(shown["difference"].to_numpy(), expected["difference"].to_numpy())
    reference = losses["Ranking impurity"]
    for name, text in zip(shown["method"], shown["wins / ties / losses"]):
        other = losses[name]
        assert text == f"{(reference < other).sum()} / {(reference == other).sum()} / {(reference > other).sum()}"
    # The difference is reference − method in loss units: negative where the reference loses less.
    gini_row = expected.set_index("method").loc["Gini"]
    assert gini_row["difference"] == pytest.approx(reference.mean() - losses["Gini"].mean())
    assert gini_row["ci low"] <= gini_row["difference"] <= gini_row["ci high"]
