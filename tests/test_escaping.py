"""User text with HTML, DOT and Markdown specials stays text everywhere; uploads are never run.

Names of features, categories, labels, levels, targets, files and queries'
features come from uploaded files. They reach three kinds of output:

* Graphviz DOT (HTML-like labels, tooltips): every drawing of the library,
  laid out by both engines, must give valid SVG that shows the name as written
  and lets no name add nodes or attributes.
* Streamlit Markdown (captions, status lines, expander labels): names are
  backslash-escaped (:func:`rankviz.ui.text.md_escape`), and the one
  ``unsafe_allow_html`` Markdown of the app carries no user text.
* Nothing else: no upload is executed, unpickled or opened as a path (a
  static scan of the sources).
"""

import ast
import csv
import html
import io
import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from rankviz import MPBoost, OrdinalTree, RankingTree
from rankviz.viz.dot import additive_model_to_dot, stumps_to_dot, tree_to_dot
from rankviz.viz.graphviz import available_engines, render
from rankviz.ui.text import md_escape
from rankviz.ui.upload import upload_digest
from drawings import drawings

#: Every special of HTML, DOT strings and Markdown at once.
NASTY = 'x<y> & "q" \'a\' {b}'
#: An attempt to close the HTML-like label and the node and declare a node of its own.
BREAKOUT = '</B></TD></TR></TABLE>>]; evil [id="evil", label="pwned"]; z [label=<'
MARKDOWN = "*em* _u_ `c` $x$ :red[r] :material/home: [l](http://e.x) ~~s~~ a|b \\ &amp;"
NAMES = (NASTY, BREAKOUT, MARKDOWN)

ENGINES = available_engines()
pytestmark = pytest.mark.skipif(not ENGINES, reason="no layout engine")

REPO = Path(__file__).resolve().parents[1]


def svg_of(dot, engine):
    svg = render(dot, "svg", engine=engine)
    return ET.fromstring(svg)  # raises on invalid XML


def svg_text(root):
    """Every text run and every attribute value (tooltips, ids) of an SVG tree."""
    texts = [t for el in root.iter() for t in (el.text, el.tail) if t]
    attributes = [v for el in root.iter() for v in el.attrib.values()]
    return texts, attributes


def svg_ids(root):
    return {el.get("id") for el in root.iter() if el.get("id")}


def assert_escaped(dot, names):
    """Each name in the DOT HTML-escaped; none with a ``<`` or ``"`` there raw."""
    for name in names:
        assert html.escape(name, quote=True) in dot
        if "<" in name or '"' in name:
            assert name not in dot


def assert_drawn(dot, names, engine, count_nodes=None):
    root = svg_of(dot, engine)
    texts, attributes = svg_text(root)
    joined = "\n".join(texts)
    for name in names:
        assert name in joined, (name, engine)
    assert "evil" not in svg_ids(root)
    assert not any(v == "pwned" for v in attributes) and "pwned" not in texts
    if count_nodes is not None:
        assert len([i for i in svg_ids(root) if re.fullmatch(r"node\d+", i)]) == count_nodes
    return root


# -- the library's drawings ----------------------------------------------------------

@pytest.fixture(scope="module")
def ranking_data():
    rng = np.random.default_rng(0)
    n = 60
    x = rng.normal(size=n)
    X = pd.DataFrame({NASTY: x, BREAKOUT: np.where(x > 0.3, MARKDOWN, "plain"),
                      MARKDOWN: rng.normal(size=n)})
    scores = np.column_stack([x, -x, 0.2 * rng.normal(size=n)])
    Y = np.argsort(np.argsort(-scores, axis=1), axis=1) + 1.0
    return X, Y


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("criterion", ["mean_spearman", "mallows"])
def test_ranking_tree_names_are_escaped_and_drawn(ranking_data, engine, criterion):
    X, Y = ranking_data
    tree = RankingTree(criterion=criterion, gamma=np.inf, min_samples_leaf=3).fit(
        X, pd.DataFrame(Y, columns=list(NAMES))).tree_
    assert tree.node_count > 3
    # Every option on: the strips' legend row names labels too, the path adds edge colours.
    dot = tree_to_dot(tree, title=NASTY, show_ids=True, highlight=1, rank_strips=True, path=[0, 1])
    assert_escaped(dot, NAMES)
    assert_drawn(dot, NAMES, engine, count_nodes=tree.node_count)
    # Tooltips hold the tests too: escaped in the DOT string, text again in the SVG.
    assert f"split {html.escape(tree.test_text(0), quote=True)}" in dot
    # Cut to a depth, the dashed nodes' notes and tooltips stay valid too.
    root = assert_drawn(tree_to_dot(tree, max_depth=1), [], engine)
    assert tree.test_text(0) in "\n".join(svg_text(root)[0])


@pytest.mark.parametrize("engine", ENGINES)
def test_ordinal_tree_levels_features_and_target_are_escaped_and_drawn(engine):
    rng = np.random.default_rng(1)
    X = pd.DataFrame({NASTY: rng.normal(size=90), BREAKOUT: rng.normal(size=90)})
    levels = [BREAKOUT, NASTY, MARKDOWN]
    y = np.array(levels, dtype=object)[np.digitize(X[NASTY], [-0.4, 0.4])]
    model = OrdinalTree("ranking_impurity", max_depth=3).set_params(levels=levels).fit(X, pd.Series(y, name=NASTY))
    dot = tree_to_dot(model.tree_, title=MARKDOWN)
    assert_escaped(dot, NAMES)
    assert_drawn(dot, NAMES, engine, count_nodes=model.tree_.node_count)


@pytest.fixture(scope="module")
def boosted():
    rng = np.random.default_rng(2)
    n, queries = 120, 12
    X = rng.normal(size=(n, 3))
    qid = np.repeat(np.arange(queries), n // queries)
    relevance = np.clip(np.round(X[:, 0] + X[:, 1] + 1.5), 0, 3)
    return MPBoost(n_rounds=12).fit(X, relevance, qid=qid)


@pytest.mark.parametrize("engine", ENGINES)
def test_stump_drawings_escape_feature_names(boosted, engine):
    names = list(NAMES)
    used = [names[k] for k in np.unique(boosted.feature_)]
    for dot in (stumps_to_dot(boosted, names, last=12, title=NASTY),
                additive_model_to_dot(boosted, names, max_features=3, title=NASTY)):
        assert_escaped(dot, used + [NASTY])
        assert_drawn(dot, used + [NASTY], engine)


# -- Markdown -----------------------------------------------------------------------------

def unescape(text):
    """CommonMark's reading of backslash escapes: ``\\`` before punctuation is dropped."""
    # The word joiner that keeps addresses from becoming links is invisible: not part of what is read.
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text).replace("\u2060", "")


@pytest.mark.parametrize("name", NAMES + ("plain name 1.5", "a\nb"))
def test_md_escape_reads_back_as_the_name(name):
    escaped = md_escape(name)
    assert unescape(escaped) == " ".join(name.splitlines())
    # Nothing with a meaning is left bare: every special is escaped...
    bare = re.sub(r"\\.", "", escaped)
    assert not set(bare) & set("\\`*_[]<>$~:&|/")
    # ...so Streamlit's extensions find nothing either (an icon needs ':material/name:').
    assert ":material/" not in escaped and "$x$" not in escaped


#: A crafted link's values: a backtick closing a code span, then a link, an image and HTML.
HOSTILE_VALUES = {
    "gamma": "1` [Click here to re-login](http://evil.example/login) `",
    "min_leaf": "![img](http://evil.example/x.png)",
    "criterion": "<img src=x onerror=alert(1)>",
    "data": "``x`` [l](http://evil.example) \u202egpj.exe",
}


def bare(markdown):
    """The Markdown with every backslash escape removed: what is left has its meaning."""
    return re.sub(r"\\.", "", markdown)


def test_link_values_are_shown_escaped_in_the_warning(app_path):
    at = AppTest.from_file(app_path, default_timeout=120)
    at.query_params.update(HOSTILE_VALUES)
    at.run()
    assert not at.exception
    warning = next(w.value for w in at.warning if w.value.startswith("The link's settings"))
    for param, value in HOSTILE_VALUES.items():
        assert md_escape(value) in warning
        assert f"`{param}`" in warning
    meaningful = bare(warning)
    # No link, image or HTML outside escapes; the only code spans are the parameters' names.
    assert "](" not in meaningful and "![" not in meaningful and "<" not in meaningful
    assert "http://" not in warning  # its colon and slashes escaped: no autolink either
    assert sorted(re.findall(r"`[^`]*`", meaningful)) == sorted(f"`{p}`" for p in HOSTILE_VALUES)
    assert "\u202e" not in warning and "\\u202egpj" in warning  # the override shown, not obeyed


@pytest.mark.parametrize("name", ["a\u202ecba", "\u2066x\u2069 \u200f\u061c"])
def test_bidi_controls_are_shown_in_markdown_and_dot(name):
    from rankviz.safe_text import BIDI_CONTROLS, visible_controls
    from rankviz.viz.dot.common import dot_string, escape

    for shown in (md_escape(name), escape(name), dot_string(name), visible_controls(name)):
        assert not set(shown) & set(BIDI_CONTROLS), shown
    assert md_escape("a\u202ecba") == "a\\\\u202ecba"  # an escaped backslash: shows \u202e
    assert visible_controls("a\u202ecba") == "a\\u202ecba"
    assert dot_string("a\u202ecba") == '"a\\\\u202ecba"'  # DOT's backslash doubled
    assert visible_controls("plain é 名") == "plain é 名"


# -- pages, with an uploaded file full of specials -------------------------------------

def ranking_csv():
    rng = np.random.default_rng(3)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    labels = [f"L{k}{NASTY}" for k in range(3)]
    writer.writerow([NASTY, MARKDOWN, *labels])
    for i in range(48):
        x = rng.normal()
        ranks = np.argsort(np.argsort([-x, x, 0.1 * rng.normal()])) + 1
        writer.writerow([f"{x:.3f}", [BREAKOUT, "v"][i % 2], *ranks])
    return buffer.getvalue().encode(), labels


def upload_ranking(at, content, labels, name):
    at.selectbox(key="dataset").set_value("__upload__").run()
    at.file_uploader(key="upload_file").set_value((name, content, "text/csv")).run()
    digest = upload_digest(name, content)
    at.multiselect(key=f"upload_labels_{digest}").set_value(labels).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]


def markdown_texts(at):
    """Every Markdown string on the page: text elements, alerts and expander labels."""
    texts = [m.value for kind in ("markdown", "caption", "info", "warning", "success")
             for m in getattr(at, kind)]
    return texts + [e.label for e in at.expander]


def assert_page_escapes(at, names):
    dots = drawings(at)
    assert dots
    for dot in dots:
        for name in names:
            if "<" in name or '"' in name:  # the others have nothing HTML would read
                assert name not in dot
    texts = markdown_texts(at)
    for text in texts:
        for name in names:
            assert name not in text, text
    for markdown in at.markdown:
        if markdown.proto.allow_html:  # the export buttons' label only: no user text
            assert re.fullmatch(r"\*\*Export\*\* <small>\((Graphviz dot|graphviz-pure)\)</small>",
                                markdown.value)
    return texts


@pytest.mark.parametrize("page", ["app_pages/ranking_trees.py", "app_pages/side_by_side.py",
                                  "app_pages/mallows_trees.py", "app_pages/ranking_forest.py"])
def test_ranking_pages_escape_uploaded_names(app_path, page):
    content, labels = ranking_csv()
    at = AppTest.from_file(app_path, default_timeout=180)
    at.session_state["tree_min_leaf"] = at.session_state["lrt_min_leaf"] = 2
    at.session_state["a_min_leaf"] = at.session_state["b_min_leaf"] = 2
    at.switch_page(page).run()
    upload_ranking(at, content, labels, f"file{NASTY}.csv")
    texts = assert_page_escapes(at, [NASTY, BREAKOUT, MARKDOWN] + labels)
    dots = "\n".join(drawings(at))
    assert html.escape(NASTY, quote=True) in dots
    if page != "app_pages/side_by_side.py":
        assert any(md_escape(f"file{NASTY}") in text for text in texts)  # the data expander
    if page == "app_pages/mallows_trees.py":  # the tabs below the tree are drawn only when opened
        for tab in ("Compare methods", "Missing labels (Fig. 1)", "Tree size (Table 2)"):
            at.session_state["lrt_tab"] = tab
            at.run()
            assert_page_escapes(at, [NASTY, BREAKOUT, MARKDOWN] + labels)
    if page == "app_pages/ranking_forest.py":  # the importance heatmap names features and labels
        at.button(key="forest_importance_run").click().run()
        spec = next(c for c in at.get("plotly_chart") if c.key == "forest_importance_chart").proto.spec
        assert all(name not in spec for name in (NASTY, BREAKOUT)) and "x&lt;y&gt;" in spec
    if page == "app_pages/ranking_trees.py":
        status = next(t for t in texts if t.startswith("Step "))
        assert md_escape(NASTY) in status or md_escape(MARKDOWN) in status
        rule = next(t for t in texts if t.startswith("**Rule (6)**"))
        assert "\\<" in rule or "\\*" in rule  # the best split, escaped


def test_ordinal_upload_escapes_level_and_feature_names(app_path):
    levels = [f"lo{NASTY}", f"mid{MARKDOWN}", f"hi{BREAKOUT}"]
    rng = np.random.default_rng(4)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow([NASTY, MARKDOWN, "grade"])
    for _ in range(60):
        x = rng.normal()
        writer.writerow([f"{x:.3f}", f"{rng.normal():.3f}", levels[int(np.digitize(x, [-0.4, 0.4]))]])
    content = buffer.getvalue().encode()
    at = AppTest.from_file(app_path, default_timeout=180)
    at.session_state["ivg_kind"] = "ordinal"
    at.switch_page("app_pages/impurity_vs_gini.py").run()
    at.selectbox(key="ordinal_dataset").set_value("__upload__").run()
    at.file_uploader(key="ordinal_upload_file").set_value(("grades.csv", content, "text/csv")).run()
    order = next(m for m in at.multiselect if m.label.startswith("Level order"))
    order.set_value(levels).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    texts = assert_page_escapes(at, [NASTY, MARKDOWN, BREAKOUT] + levels)
    assert any(md_escape(levels[0]) in text for text in texts)  # the drawings' caption
    dots = "\n".join(drawings(at))
    assert html.escape(levels[0], quote=True) in dots
    # Plotly reads <b>, <a href> and %{...} in ticks and hovers: the level chart escapes them.
    chart = json.loads(next(c for c in at.get("plotly_chart") if c.key == "ivg_levels").proto.spec)
    assert chart["layout"]["xaxis"]["ticktext"] == [html.escape(level) for level in levels]
    assert chart["data"][0]["x"] == levels  # the data keep the names
    assert all(BREAKOUT not in str(row) for row in chart["data"][0]["customdata"])


def test_query_csv_upload_escapes_feature_names(app_path):
    rng = np.random.default_rng(5)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["qid", "relevance", NASTY, MARKDOWN, BREAKOUT])
    for query in range(20):
        for _ in range(8):
            x = rng.normal(size=3)
            writer.writerow([query, int(np.clip(round(x[0] + 1.5), 0, 3)), *(f"{v:.3f}" for v in x)])
    at = AppTest.from_file(app_path, default_timeout=180)
    at.session_state["mpb_rounds"] = 20
    at.switch_page("app_pages/mpboost.py").run()
    at.selectbox(key="ltr_dataset").set_value("__upload__").run()
    at.file_uploader(key="ltr_upload_file").set_value(
        (f"q{NASTY}.csv", buffer.getvalue().encode(), "text/csv")).run()
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]
    assert_page_escapes(at, [NASTY, MARKDOWN, BREAKOUT])
    dot = drawings(at)[0]
    assert html.escape(NASTY, quote=True) in dot
    at.radio(key="mpb_view").set_value("additive").run()
    assert html.escape(NASTY, quote=True) in drawings(at)[0]


# -- uploads are data, never code or paths -------------------------------------------------

def python_sources():
    return sorted(REPO.joinpath("rankviz").rglob("*.py"))  # the app and its pages are in the package


def calls(path):
    """(dotted name, call node) of every call in a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            yield ast.unparse(node.func), node


#: Calls that run text as code, unpickle, or hand text to a shell.
FORBIDDEN = {"eval", "exec", "compile", "__import__", "importlib.import_module", "os.system",
             "os.popen", "np.load", "numpy.load", "pd.read_pickle", "pandas.read_pickle",
             "pickle.load", "pickle.loads", "marshal.load", "marshal.loads", "yaml.load",
             "yaml.unsafe_load", "torch.load", "joblib.load"}
FORBIDDEN_MODULES = {"pickle", "cPickle", "dill", "marshal", "shelve", "joblib", "yaml"}
#: The modules allowed to import joblib: the grid runner ships the library's own grid cells to its own
#: worker processes (or a Dask cluster the user starts); the forest grows its trees in threads
#: (prefer="threads": nothing is pickled). No uploaded byte is ever unpickled.
JOBLIB_USERS = {"rankviz/experiments/grid/execution.py", "rankviz/ensemble/forest.py"}


def test_no_code_execution_or_unpickling_anywhere():
    found = []
    for path in python_sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
                allowed = {"joblib"} if path.relative_to(REPO).as_posix() in JOBLIB_USERS else set()
                found += [f"{path.name}: import {m}" for m in modules
                          if m.split(".")[0] in FORBIDDEN_MODULES - allowed]
        for name, node in calls(path):
            if name in FORBIDDEN or name.endswith(".read_pickle"):
                found.append(f"{path.name}:{node.lineno}: {name}(...)")
            if any(k.arg == "allow_pickle" for k in node.keywords):
                found.append(f"{path.name}:{node.lineno}: allow_pickle")
    assert found == []


def test_subprocesses_run_only_the_layout_engines_and_the_app():
    users = [path.name for path in python_sources() if "subprocess" in path.read_text(encoding="utf-8")]
    assert users == ["cli.py", "graphviz.py"]
    # The layout engines on DOT text given on stdin, never on a path or a shell.
    source = (REPO / "rankviz" / "viz" / "graphviz.py").read_text(encoding="utf-8")
    assert "shell=True" not in source and "input=dot_source.encode" in source
    # The command line starts Streamlit on the packaged entry, with no shell.
    source = (REPO / "rankviz" / "cli.py").read_text(encoding="utf-8")
    assert "shell=True" not in source and '"streamlit", "run", str(main_script())' in source


def test_the_pages_and_widgets_open_no_files():
    """Uploads reach the loaders as in-memory buffers: nothing in the app opens a path.

    The package's own files read through ``importlib.resources`` (``files(__package__)...``,
    the page style) name no path a user gives.
    """
    opened = []
    app = REPO / "rankviz" / "ui" / "app"
    for path in [*REPO.joinpath("rankviz", "ui").glob("*.py"), app / "main.py", *app.joinpath("app_pages").glob("*.py")]:
        for name, node in calls(path):
            if name.startswith("files(__package__)"):
                continue
            if name in ("open", "io.open", "os.open", "Path", "pathlib.Path") or name.endswith(
                    (".read_text", ".read_bytes", ".write_text", ".write_bytes", ".open")):
                opened.append(f"{path.name}:{node.lineno}: {name}")
    assert opened == []


def test_html_markdown_is_never_used():
    uses = []
    for path in python_sources():
        for name, node in calls(path):
            if any(k.arg == "unsafe_allow_html" for k in node.keywords):
                uses.append((path.name, node.lineno))
    assert uses == []


def test_rank_heatmap_escapes_label_names():
    import numpy as np

    from rankviz.viz.figures.ranking_trees import rank_heatmap

    names = ["<b>bold</b>", "a&b"]
    fig = rank_heatmap(np.array([[1.0, 2.0], [2.0, 1.0]]), names, np.array([1.0, 2.0]), np.array([1.5, 1.5]))
    shown = list(fig.data[0].x)
    assert "&lt;b&gt;bold&lt;/b&gt;" in shown and "a&amp;b" in shown
    assert "<b>bold</b>" not in shown


# -- plotly figures: bidi controls in user names are shown, not obeyed ------------------

BIDI_NAME = "x\u202egpj.exe"


def bidi_figures():
    """Every figure that takes a user's name, built with a name holding U+202E (and a tag)."""
    from rankviz.viz.figures.forest import importance_heatmap
    from rankviz.viz.figures.ordinal import level_count_chart
    from rankviz.viz.figures.ranking_trees import rank_heatmap, threshold_curve

    names = [BIDI_NAME, "<b>\u2067b\u2069</b>"]
    yield "rank_heatmap", rank_heatmap(np.array([[1.0, 2.0], [2.0, 1.0]]), names, np.array([1.0, 2.0]),
                                       np.array([1.5, 1.5]), groups=[f"#1 {BIDI_NAME}", "#2"])
    yield "level_count_chart", level_count_chart([BIDI_NAME, "b"], ["b", BIDI_NAME], [BIDI_NAME, "b"],
                                                 title=f"Rows per {BIDI_NAME}", axis=BIDI_NAME)
    # the candidate table of rankviz.tree.node_inspection.candidate_splits, for one numeric attribute
    table = pd.DataFrame({"attribute": BIDI_NAME, "feature": 0, "kind": "numeric", "threshold": [0.5, 1.5, 2.5],
                          "score": [0.1, 0.3, 0.2], "similarity_meet": [0.2, 0.4, 0.1],
                          "similarity_rest": [0.0, 0.2, 0.3], "n_meet": [2, 4, 6], "n_rest": [6, 4, 2]})
    for feature in (BIDI_NAME, 0):
        yield f"threshold_curve({feature!r})", threshold_curve(table, feature, chosen_threshold=1.5,
                                                               similarity_parent=0.2, gamma=0.98)
    yield "importance_heatmap", importance_heatmap(np.array([[0.1, 0.2], [0.0, -0.1]]), names, names[::-1])


def test_plotly_figures_show_bidi_controls_in_user_names():
    from rankviz.safe_text import BIDI_CONTROLS

    checked = 0
    for what, fig in bidi_figures():
        text = json.loads(fig.to_json())
        dumped = json.dumps(text, ensure_ascii=False)
        assert not set(dumped) & set(BIDI_CONTROLS), what
        assert "x\\\\u202egpj.exe" in dumped, what  # shown as its escape, one backslash in the figure
        assert "<b>" not in dumped.replace("<b>bold", ""), what  # tags in names are escaped too
        checked += 1
    assert checked == 5


def test_the_text_export_writes_bidi_controls_and_line_breaks_visibly():
    """Issue 35: the plain-text export wrote U+202E raw (the rest of its line then reads reversed)."""
    import pandas as pd

    from rankviz import RankingTree
    from rankviz.tree.export import export_text

    X = pd.DataFrame({"a\u202ecba": [0.0, 0.1, 1.0, 1.1], "two\nlines": ["u", "v", "u", "v"]})
    Y = pd.DataFrame([[1, 2], [1, 2], [2, 1], [2, 1]], columns=["x\u2066y", "z\r\nw"])
    text = export_text(RankingTree(min_samples_leaf=2).fit(X, Y))
    assert not set(text) & set("\u202e\u2066\r") and text.count("\n") == 4
    assert "a\\u202ecba <= 0.55" in text and "x\\u2066y" in text and "z\\r\\nw" in text
