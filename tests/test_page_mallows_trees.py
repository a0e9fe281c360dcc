"""The "Mallows label ranking trees" page (Cheng, Hühn & Hüllermeier 2009), run headless with Streamlit's AppTest.

Every number the page shows is checked against the library: the drawn tree
against ``RankingTree(criterion="mallows")``, the comparison against
``compare_methods``, the Fig. 1 curve against ``missing_rate_curve`` and the
size table against ``relative_tree_size``.
"""

import base64
import io
import json
import re

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest
from apptest_pages import ok, open_page, open_tab

from rankviz import IBLR, KNNRanker, RankingTree, delete_labels, load_benchmark, load_sample
from rankviz.datasets.samples import list_samples, sample_tree_defaults
from rankviz.experiments.cross_validation import compare_methods
from rankviz.experiments.label_ranking_study import label_ranking_methods, missing_rate_curve, relative_tree_size
from rankviz.ui.data_picker import UPLOAD
from rankviz.experiments.label_ranking_study import MEASURE_ORDER
from rankviz.experiments.statistics import paired_comparison, t_interval
from rankviz.ui.mallows_panel import DEFAULT_MIN_LEAF
from rankviz.ui.upload import upload_digest
from drawings import drawings

PAGE = "app_pages/mallows_trees.py"
INF = float("inf")


@pytest.fixture
def app(app_path):
    at = open_page(app_path, PAGE)
    ok(at)
    return at



def dot_of(at):
    return drawings(at)[0]


def status_line(at):
    return next(m.value for m in at.markdown if m.value.startswith("Step "))


def n_leaves_shown(at):
    match = re.search(r"(\d+) (?:leaf|leaves), depth", status_line(at))
    return int(match.group(1))


def n_drawn_nodes(dot):
    return len(set(re.findall(r"^\s*(node\d+) \[", dot, flags=re.M)))


def plotly_array(values):
    """Plotly 7 stores numeric arrays as ``{"dtype", "bdata"}`` (base64)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)


def figure(at, key):
    chart = next(c for c in at.get("plotly_chart") if c.key == key)
    return json.loads(chart.proto.spec)


def library_tree(X, Y, min_samples_leaf=DEFAULT_MIN_LEAF, max_depth=None, gamma=INF):
    return RankingTree(criterion="mallows", gamma=gamma, min_samples_leaf=min_samples_leaf,
                       max_depth=max_depth).fit(X, Y).tree_


def check_tree_drawn(at, tree):
    """The status line, the drawn nodes and the leaves' θ̂ / rel are the library tree's."""
    assert n_leaves_shown(at) == tree.n_leaves
    dot = dot_of(at)
    assert n_drawn_nodes(dot) == tree.node_count
    assert dot.count("θ̂ = ") == tree.node_count  # every node its spread
    assert dot.count("rel = ") == tree.n_leaves  # every leaf its reliability
    assert "Mallows spread" in dot  # the reliability legend


def page_methods(min_samples_leaf=DEFAULT_MIN_LEAF, max_depth=None, gamma=INF, iblr_k="auto"):
    return label_ranking_methods(lrt=RankingTree(criterion="mallows", gamma=gamma,
                                           min_samples_leaf=min_samples_leaf, max_depth=max_depth),
                           iblr=IBLR(n_neighbors=iblr_k))


# -- the tree ------------------------------------------------------------------------

@pytest.mark.parametrize("name", list_samples("label_ranking"))
def test_every_sample_draws_the_librarys_label_ranking_tree(app, name):
    app.selectbox(key="dataset").set_value(name).run()
    ok(app)
    dataset = load_sample(name)
    # The page starts at the sample's own leaf size (the toy set's 2), else at the page's 10.
    min_leaf = sample_tree_defaults(name).get("min_samples_leaf", DEFAULT_MIN_LEAF)
    assert app.number_input(key="lrt_min_leaf").value == min_leaf
    tree = library_tree(dataset.X, dataset.Y, min_samples_leaf=min_leaf)
    assert tree.n_leaves > 1
    check_tree_drawn(app, tree)
    leaves = next(d.value for d in app.dataframe if "reliability" in d.value.columns)
    assert len(leaves) == tree.n_leaves
    np.testing.assert_allclose(np.sort(leaves["reliability"].to_numpy()),
                               np.sort(tree.reliability[tree.is_leaf]))
    # Pure leaves show ∞, as the θ̂ of a pure set in Cheng et al.
    assert np.isinf(leaves["θ̂"]).sum() == np.isinf(tree.theta[tree.is_leaf]).sum()


def test_missing_labels_caption_counts_the_deleted_labels_and_the_tree_uses_them(app):
    app.selectbox(key="dataset").set_value("wine_nb").run()
    app.slider(key="lrt_p").set_value(0.3).run()
    app.number_input(key="lrt_p_seed").set_value(7).run()
    ok(app)
    dataset = load_sample("wine_nb")
    deleted_Y = delete_labels(dataset.Y, 0.3, seed=7)
    deleted = int(np.isnan(deleted_Y).sum() - np.isnan(dataset.Y).sum())
    present = int((~np.isnan(dataset.Y)).sum())
    assert 0 < deleted < present
    caption = " ".join(c.value for c in app.sidebar.caption)
    assert f"{deleted:,} of {present:,} labels deleted" in caption
    check_tree_drawn(app, library_tree(dataset.X, deleted_Y))
    leaves = next(d.value for d in app.dataframe if "reliability" in d.value.columns)
    assert "labels observed" in leaves.columns
    # Back to p = 0: the complete rankings again.
    app.slider(key="lrt_p").set_value(0.0).run()
    assert "No labels deleted" in " ".join(c.value for c in app.sidebar.caption)
    check_tree_drawn(app, library_tree(dataset.X, dataset.Y))


def test_each_tree_control_changes_the_tree_as_the_library_says(app):
    app.selectbox(key="dataset").set_value("wine_nb").run()
    dataset = load_sample("wine_nb")
    X, Y = dataset.X, dataset.Y
    shown = [n_leaves_shown(app)]
    check_tree_drawn(app, library_tree(X, Y))

    app.number_input(key="lrt_min_leaf").set_value(2).run()
    check_tree_drawn(app, library_tree(X, Y, min_samples_leaf=2))
    shown.append(n_leaves_shown(app))

    app.number_input(key="lrt_max_depth").set_value(3).run()
    check_tree_drawn(app, library_tree(X, Y, min_samples_leaf=2, max_depth=3))
    shown.append(n_leaves_shown(app))

    app.number_input(key="lrt_max_depth").set_value(0).run()
    app.number_input(key="lrt_min_leaf").set_value(5).run()
    assert app.slider(key="lrt_gamma").proto.disabled  # no γ stop until asked for
    app.checkbox(key="lrt_use_gamma").check().run()
    assert not app.slider(key="lrt_gamma").proto.disabled
    app.slider(key="lrt_gamma").set_value(0.98).run()
    ok(app)
    check_tree_drawn(app, library_tree(X, Y, min_samples_leaf=5, gamma=0.98))
    shown.append(n_leaves_shown(app))
    assert len(set(shown)) == len(shown), shown  # every control changed the tree

    app.checkbox(key="lrt_use_gamma").uncheck().run()  # γ off again: the stopping of Cheng et al. only
    check_tree_drawn(app, library_tree(X, Y, min_samples_leaf=5))


def test_settings_travel_in_the_url(app_path):
    at = AppTest.from_file(app_path, default_timeout=180)
    at.switch_page(PAGE)
    at.query_params.update({"data": "iris_nb", "p": "0.4", "p_seed": "3", "min_leaf": "5",
                            "gamma_stop": "1", "gamma": "0.97", "max_depth": "x"})
    at.run()
    assert not at.exception
    assert at.selectbox(key="dataset").value == "iris_nb"
    assert at.slider(key="lrt_p").value == pytest.approx(0.4)
    assert at.number_input(key="lrt_min_leaf").value == 5
    assert at.checkbox(key="lrt_use_gamma").value
    assert any("`max_depth` = x" in w.value for w in at.warning)  # named, the rest used
    dataset = load_sample("iris_nb")
    check_tree_drawn(at, library_tree(dataset.X, delete_labels(dataset.Y, 0.4, seed=3),
                                      min_samples_leaf=5, gamma=0.97))
    at.number_input(key="lrt_min_leaf").set_value(4).run()
    assert at.query_params["min_leaf"] == "4"
    assert at.query_params["p"] == "0.4"


def test_an_uploaded_benchmark_file_grows_a_tree(app):
    rng = np.random.default_rng(1)
    X = rng.random((40, 2))
    # Label order flips with x1: a tree with a split.
    rows = [f"{a:.4f},{b:.4f}," + ("1,2,3" if a < 0.5 else "3,1,2") for a, b in X]
    content = ("40,2,3\n" + "\n".join(rows) + "\n").encode()
    app.selectbox(key="dataset").set_value(UPLOAD).run()
    assert any("Upload a file" in i.value for i in app.sidebar.info)
    app.sidebar.get("file_uploader")[0].set_value(("ranks.txt", content, "text/plain")).run()
    digest = upload_digest("ranks.txt", content)
    app.radio(key=f"upload_kind_{digest}").set_value("benchmark").run()
    ok(app)
    dataset = load_benchmark(io.BytesIO(content), name="ranks.txt")
    tree = library_tree(dataset.X, dataset.Y)
    assert tree.n_leaves >= 2
    check_tree_drawn(app, tree)


# -- the experiments -----------------------------------------------------------------

def test_compare_tab_shows_the_means_of_compare_methods(app):
    app.selectbox(key="dataset").set_value("iris_nb").run()
    app.slider(key="lrt_p").set_value(0.3).run()  # deletions in the training folds
    open_tab(app, "lrt_tab", "Compare methods")
    app.number_input(key="lrt_cmp_folds").set_value(3).run()
    assert not [c for c in app.get("plotly_chart") if c.key == "lrt_cmp_bars"]  # only on a press
    app.button(key="lrt_cmp_run").click().run()
    ok(app)
    # the note above the button drops its estimate in the very run that finishes (it had kept it until the
    # page's next rerun)
    assert not any("Estimated time" in c.value for c in app.caption)
    dataset = load_sample("iris_nb")
    expected = compare_methods(page_methods(), dataset.X, dataset.Y, cv=3, seed=0,
                              missing_rate=0.3)
    means = expected.groupby("method", sort=False)[list(MEASURE_ORDER)].mean()
    bars = figure(app, "lrt_cmp_bars")
    assert [bar["name"] for bar in bars["data"]] == ["LRT", "IBLR", "CC", "KNN (k=1)", "Default"]
    for bar in bars["data"]:
        assert list(bar["x"]) == list(MEASURE_ORDER)
        np.testing.assert_allclose(plotly_array(bar["y"]), means.loc[bar["name"]].to_numpy())
        # One repetition: whiskers are 95% Student-t intervals over the held-out rankings.
        scores = expected[expected["method"] == bar["name"]][list(MEASURE_ORDER)]
        np.testing.assert_allclose(plotly_array(bar["error_y"]["array"]),
                                   [t_interval(scores[m].to_numpy())[1] for m in MEASURE_ORDER])
    layout = bars["layout"]
    assert "95% CI" in layout["title"]["text"] and "held-out rankings" in layout["title"]["text"]
    assert layout["xaxis"]["title"]["text"] and "95% CI" in layout["yaxis"]["title"]["text"]
    # The paired table: the LRT against every other method, as the statistics module computes it.
    paired = next(d.value for d in app.dataframe if "wins / ties / losses" in d.value.columns)
    lrt = expected[expected["method"] == "LRT"].set_index("example")["CS"].sort_index()
    assert list(paired["method"]) == ["IBLR", "CC", "KNN (k=1)", "Default"]
    for row in paired.to_dict("records"):
        other = expected[expected["method"] == row["method"]].set_index("example")["CS"].sort_index()
        result = paired_comparison(lrt.to_numpy(), other.to_numpy())
        assert row["difference"] == pytest.approx(result.mean_difference)
        assert row["Wilcoxon p"] == pytest.approx(result.wilcoxon_pvalue)
        assert row["95% CI"] == f"{result.ci_low:+.3f} … {result.ci_high:+.3f}"
        assert row["wins / ties / losses"] == f"{result.wins} / {result.ties} / {result.losses}"
    table = next(d.value for d in app.dataframe if "Kendall tau mean" in d.value.columns)
    assert table.loc["IBLR", "Kendall tau mean"] == pytest.approx(means.loc["IBLR", "Kendall tau"])
    assert any("p = 0.3" in c.value for c in app.caption)

    # Other settings: the old results are flagged; back again: they are shown as they were.
    app.number_input(key="lrt_cmp_folds").set_value(4).run()
    assert any("earlier settings" in w.value for w in app.warning)
    # a run not made yet has its estimate; once made, its result's caption says what it took instead
    notes = " ".join(c.value for c in app.caption)
    assert "Estimated time: about" in notes
    app.number_input(key="lrt_cmp_folds").set_value(3).run()
    assert not any("earlier settings" in w.value for w in app.warning)
    notes = [c.value for c in app.caption]
    assert not any("Estimated time" in note for note in notes)
    assert any(re.search(r"held-out rankings per method, \d+\.\d s\.", note) for note in notes)
    again = figure(app, "lrt_cmp_bars")
    np.testing.assert_allclose(plotly_array(again["data"][0]["y"]), means.loc["LRT"].to_numpy())


def test_five_repetitions_whiskers_are_95_percent_intervals_over_repetitions(app):
    app.selectbox(key="dataset").set_value("toy").run()
    app.number_input(key="lrt_min_leaf").set_value(2).run()
    open_tab(app, "lrt_tab", "Compare methods")
    app.multiselect(key="lrt_cmp_methods").set_value(["LRT", "Default"]).run()
    app.number_input(key="lrt_cmp_folds").set_value(4).run()
    app.checkbox(key="lrt_cmp_repeat").check().run()
    app.button(key="lrt_cmp_run").click().run()
    ok(app)
    dataset = load_sample("toy")
    methods = {name: m for name, m in page_methods(min_samples_leaf=2).items()
               if name in ("LRT", "Default")}
    expected = compare_methods(methods, dataset.X, dataset.Y, cv=4, seed=0, repetitions=5)
    bars = figure(app, "lrt_cmp_bars")
    assert [bar["name"] for bar in bars["data"]] == ["LRT", "Default"]
    assert "repetitions" in bars["layout"]["title"]["text"]
    for bar in bars["data"]:
        group = expected[expected["method"] == bar["name"]]
        per_repetition = group.groupby("repetition")[list(MEASURE_ORDER)].mean()
        np.testing.assert_allclose(plotly_array(bar["y"]), group[list(MEASURE_ORDER)].mean())
        np.testing.assert_allclose(plotly_array(bar["error_y"]["array"]),
                                   [t_interval(per_repetition[m].to_numpy())[1] for m in MEASURE_ORDER])


def test_a_failing_method_gives_a_message_and_the_others_still_run(app, monkeypatch):
    from rankviz.label_ranking.constraint_classification import ConstraintClassifier

    def broken(self, X, Y):
        raise ValueError("the perceptron cannot learn this (test)")

    monkeypatch.setattr(ConstraintClassifier, "fit", broken)
    app.selectbox(key="dataset").set_value("toy").run()
    open_tab(app, "lrt_tab", "Compare methods")
    app.number_input(key="lrt_cmp_folds").set_value(4).run()
    app.button(key="lrt_cmp_run").click().run()
    assert not app.exception
    errors = [e.value for e in app.error]
    assert len(errors) == 1 and "**CC** could not be evaluated" in errors[0]
    assert "the perceptron cannot learn this (test)" in errors[0]
    names = [bar["name"] for bar in figure(app, "lrt_cmp_bars")["data"]]
    assert names == ["LRT", "IBLR", "KNN (k=1)", "Default"]


def test_missing_labels_tab_draws_missing_rate_curve(app):
    app.selectbox(key="dataset").set_value("iris_nb").run()
    open_tab(app, "lrt_tab", "Missing labels (Fig. 1)")
    app.multiselect(key="lrt_fig1_rates").set_value([0.0, 0.5]).run()
    app.multiselect(key="lrt_fig1_methods").set_value(["LRT", "IBLR", "CC"]).run()
    app.selectbox(key="lrt_fig1_iblr_k").set_value(5).run()
    app.number_input(key="lrt_fig1_folds").set_value(3).run()
    app.button(key="lrt_fig1_run").click().run()
    ok(app)
    assert not any("Estimated time" in c.value for c in app.caption)  # the finished run's note
    dataset = load_sample("iris_nb")
    methods = {name: m for name, m in page_methods(iblr_k=5).items() if name in ("LRT", "IBLR", "CC")}
    curve = missing_rate_curve(methods, dataset.X, dataset.Y, [0.0, 0.5], cv=3, seed=0)
    chart = figure(app, "lrt_fig1_chart")
    assert [line["name"] for line in chart["data"]] == ["LRT", "IBLR", "CC"]
    for line in chart["data"]:
        rows = curve[curve["method"] == line["name"]].sort_values("missing_rate")
        assert line["mode"] == "lines+markers"
        shift = plotly_array(line["x"]) - rows["missing_rate"].to_numpy()  # methods nudged apart
        assert np.ptp(shift) < 1e-12 and abs(shift[0]) <= 0.015 + 1e-12
        np.testing.assert_allclose(plotly_array(line["customdata"]), rows["missing_rate"])
        np.testing.assert_allclose(plotly_array(line["y"]), rows["Kendall tau"])
        # Whiskers: the 95% t interval over the held-out rankings (one repetition).
        np.testing.assert_allclose(plotly_array(line["error_y"]["array"]), rows["Kendall tau ci"])
    layout = chart["layout"]
    assert "95% CI over held-out rankings" in layout["title"]["text"]
    assert layout["xaxis"]["title"]["text"] == "fraction of labels deleted from training rankings (p)"
    assert layout["yaxis"]["title"]["text"].startswith("Kendall tau")
    # Another measure from the same run.
    app.selectbox(key="lrt_fig1_measure").set_value("CS").run()
    line = figure(app, "lrt_fig1_chart")["data"][0]
    np.testing.assert_allclose(plotly_array(line["y"]),
                               curve[curve["method"] == "LRT"].sort_values("missing_rate")["CS"])


def test_tree_size_table_is_relative_tree_size(app):
    app.selectbox(key="dataset").set_value("wine_nb").run()
    app.slider(key="lrt_p").set_value(0.2).run()
    app.number_input(key="lrt_p_seed").set_value(4).run()
    ok(app)
    assert not [d for d in app.dataframe if "LRT leaves" in d.value.columns]  # only the open tab is computed
    open_tab(app, "lrt_tab", "Tree size (Table 2)")
    dataset = load_sample("wine_nb")
    table = next(d.value for d in app.dataframe if "LRT leaves" in d.value.columns)
    assert list(table["p"]) == ["0", "0.2 (sidebar)", "0.3", "0.6"]
    assert "Cheng et al. (wine, J48)" in table.columns
    seed_lrt = RankingTree(criterion="mallows", gamma=INF, min_samples_leaf=2)
    for row, rate in zip(table.itertuples(index=False), (0.0, 0.2, 0.3, 0.6)):
        size = relative_tree_size(dataset.X, dataset.Y, seed_lrt, missing_rate=rate, seed=4)
        assert row[1] == size["lrt_leaves"]
        assert row[2] == size["classification_leaves"]
        assert row[3] == pytest.approx(size["ratio"])
    # The drawn tree's settings: its row at the sidebar's p is the tree above.
    app.radio(key="lrt_size_lrt").set_value("drawn").run()
    table = next(d.value for d in app.dataframe if "LRT leaves" in d.value.columns)
    assert table["LRT leaves"].iloc[1] == n_leaves_shown(app)


@pytest.mark.filterwarnings("error::RuntimeWarning")  # an overflow in a method is a message on the page
def test_finite_features_near_the_float_limit_grow_every_table(app):
    """±1.7e308 is finite: the page once said the size table's trees met "infinity"."""
    rng = np.random.default_rng(2)
    lines = ["big,x,A,B,C"]
    for i in range(40):
        ranks = np.argsort(np.argsort(rng.normal(size=3))) + 1
        lines.append(f"{('1.7e308', '-1.7e308', '1e308', '-0.5')[i % 4]},{rng.normal():.3f},"
                     + ",".join(map(str, ranks)))
    content = ("\n".join(lines) + "\n").encode()
    app.selectbox(key="dataset").set_value(UPLOAD).run()
    app.file_uploader(key="upload_file").set_value(("big.csv", content, "text/csv")).run()
    app.multiselect(key=f"upload_labels_{upload_digest('big.csv', content)}").set_value(["A", "B", "C"]).run()
    ok(app)
    open_tab(app, "lrt_tab", "Tree size (Table 2)")
    assert not any("infinity" in w.value for w in app.warning)
    table = next(d.value for d in app.dataframe if "LRT leaves" in d.value.columns)
    assert (table["classification-tree leaves"] >= 1).all()
    # The comparison too: constraint classification standardises the column without overflowing.
    open_tab(app, "lrt_tab", "Compare methods")
    app.number_input(key="lrt_cmp_folds").set_value(3).run()
    app.button(key="lrt_cmp_run").click().run()
    ok(app)
    bars = {bar["name"]: plotly_array(bar["y"]) for bar in figure(app, "lrt_cmp_bars")["data"]}
    assert "CC" in bars and all(np.isfinite(values).all() for values in bars.values())


def test_predicted_ties_reach_the_leaf_table_and_the_comparison(app):
    """"Predict ties": leaves tie labels whose mean Borda positions are close; every method compared ties alike."""
    app.selectbox(key="dataset").set_value("wine_nb").run()
    app.checkbox(key="lrt_ties").check().run()
    app.number_input(key="lrt_tie_tolerance").set_value(0.3).run()
    ok(app)
    dataset = load_sample("wine_nb")
    min_leaf = sample_tree_defaults("wine_nb").get("min_samples_leaf", DEFAULT_MIN_LEAF)
    tree = RankingTree(criterion="mallows", gamma=INF, min_samples_leaf=min_leaf, tie_tolerance=0.3).fit(
        dataset.X, dataset.rankings).tree_
    leaves = next(d.value for d in app.dataframe if "centre ranking" in d.value.columns)
    expected = sorted(tree.ranking_text(i) for i in np.flatnonzero(tree.is_leaf))
    assert sorted(leaves["centre ranking"]) == expected
    assert any(" = " in text for text in expected)
    open_tab(app, "lrt_tab", "Compare methods")
    app.multiselect(key="lrt_cmp_methods").set_value(["LRT", "KNN", "Default"]).run()
    app.number_input(key="lrt_cmp_folds").set_value(3).run()
    app.button(key="lrt_cmp_run").click().run()
    ok(app)
    methods = label_ranking_methods(
        lrt=RankingTree(criterion="mallows", gamma=INF, min_samples_leaf=min_leaf, tie_tolerance=0.3),
        tie_tolerance=0.3)
    methods = {name: methods[name] for name in ("LRT", "KNN (k=1)", "Default")}
    means = compare_methods(methods, dataset.X, dataset.Y, cv=3, seed=0).groupby(
        "method", sort=False)["Kendall tau"].mean()
    table = next(d.value for d in app.dataframe if "Kendall tau mean" in d.value.columns)
    for name in methods:
        assert table.loc[name, "Kendall tau mean"] == pytest.approx(means[name])
    assert any("ties within 0.3 positions" in c.value for c in app.caption)


def test_knn_k_chosen_by_inner_cv_reaches_the_comparison(app):
    app.selectbox(key="dataset").set_value("iris_nb").run()
    open_tab(app, "lrt_tab", "Compare methods")
    app.multiselect(key="lrt_cmp_methods").set_value(["LRT", "KNN"]).run()
    app.selectbox(key="lrt_cmp_knn_k").set_value("auto").run()
    app.number_input(key="lrt_cmp_folds").set_value(3).run()
    app.button(key="lrt_cmp_run").click().run()
    ok(app)
    # the note above the button drops its estimate in the very run that finishes (it had kept it until the
    # page's next rerun)
    assert not any("Estimated time" in c.value for c in app.caption)
    dataset = load_sample("iris_nb")
    min_leaf = sample_tree_defaults("iris_nb").get("min_samples_leaf", DEFAULT_MIN_LEAF)
    methods = {"LRT": RankingTree(criterion="mallows", gamma=INF, min_samples_leaf=min_leaf),
               "KNN (k=auto)": KNNRanker(n_neighbors="auto")}
    expected = compare_methods(methods, dataset.X, dataset.Y, cv=3, seed=0)
    means = expected.groupby("method", sort=False)[list(MEASURE_ORDER)].mean()
    bars = figure(app, "lrt_cmp_bars")
    assert [bar["name"] for bar in bars["data"]] == ["LRT", "KNN (k=auto)"]
    for bar in bars["data"]:
        np.testing.assert_allclose(plotly_array(bar["y"]), means.loc[bar["name"]].to_numpy())
