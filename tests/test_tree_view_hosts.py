"""The tree view outside the app, without a browser: its hosts, the HTML file and the notebook widget.

The browser halves (the view working in Chromium from ``file://`` and in a real
JupyterLab) are in ``tests/e2e/test_notebook_and_html.py``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from rankviz import OrdinalTree, RankingTree, load_sample
from rankviz.tree.trace import trace_example
from rankviz.viz import export_tree
from rankviz.viz.layout import layout_tree
from rankviz.viz.tree_view import trace_card, tree_page, view_data, view_script

pytest.importorskip("anywidget")
from rankviz.viz import TreeView  # noqa: E402


@pytest.fixture(scope="module")
def toy():
    data = load_sample("toy")
    return data, RankingTree(min_samples_leaf=2).fit(data.X, data.rankings)


def test_every_host_runs_the_same_view_module():
    core = view_script("streamlit").split("// -- host:")[0].rstrip()
    assert "function renderView(root, key, data, send)" in core
    for host in ("streamlit", "widget", "page"):
        script = view_script(host)
        assert script.startswith(core) and script.count("function renderView(") == 1
    assert "export default function (component)" in view_script("streamlit")
    assert "render({ model, el })" in view_script("widget") and "const RV_HTML = " in view_script("widget")
    assert "export default" not in view_script("page")  # an inline script, not a module for a loader
    with pytest.raises(ValueError, match="host must be one of"):
        view_script("iframe")


def page_data(page: str) -> dict:
    match = re.search(r'<script type="application/json" id="rv-data">(.*?)</script>', page, flags=re.S)
    assert match
    return json.loads(match.group(1))


def test_the_html_file_inlines_everything_and_escapes_user_text(toy):
    data, _ = toy
    hostile = ["</script><script>alert(1)</script>", "a & b <!--", "c"]
    model = RankingTree(min_samples_leaf=2).fit(data.X, pd.DataFrame(data.Y, columns=[*hostile, "d"]))
    page = export_tree(model, "html", title="<b>T</b> </script>").decode("utf-8")
    # Exactly the two scripts of the file: no user text closes one or opens another.
    assert len(re.findall(r"<script\b", page)) == 2 and len(re.findall(r"</script>", page)) == 2
    assert "<title>&lt;b&gt;T&lt;/b&gt; &lt;/script&gt;</title>" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing from the network
    shown = page_data(page)
    assert shown["local_folds"] is True and shown["label"] == "<b>T</b> </script>"
    assert any(hostile[0] in " ".join(node["details"]) for node in shown["nodes"])
    assert [node["id"] for node in shown["nodes"]] == [int(i) for i in model.tree_.node_ids]


def test_the_html_file_follows_the_export_options(toy):
    _, model = toy
    tree = model.tree_
    folded_at = int(np.flatnonzero(~tree.is_leaf)[1])
    shown = page_data(export_tree(model, "html", collapsed=[folded_at], direction="LR").decode())
    by_id = {node["id"]: node for node in shown["nodes"]}
    assert by_id[int(tree.node_ids[folded_at])]["folded"] is True
    assert shown["direction"] == "LR"
    assert len(by_id) < tree.node_count  # the folded subtree is not drawn
    assert tree_page(view_data(layout_tree(model)))  # any view data makes a page


def test_the_trace_card_follows_trace_example(toy):
    data, model = toy
    x = model.encoder_.transform(data.X.iloc[[3]])[0]
    card = trace_card(model.tree_, x, data.Y[3], who="Row 3")
    traced = trace_example(model.tree_, x, data.Y[3])
    assert card["path"] == [int(model.tree_.node_ids[n]) for n in traced.path]
    assert card["node"] == card["path"][-1] and card["scores"] == traced.scores
    assert card["lines"][0] == f"Row 3 → leaf #{card['node']}"


def test_the_widget_syncs_selection_folds_and_traces(toy):
    data, model = toy
    view = TreeView(model, data.X, data.Y)
    ids = [int(i) for i in model.tree_.node_ids]
    assert [node["id"] for node in view.data["nodes"]] == ids and view.selected is None
    view.selected = ids[2]
    with pytest.raises(Exception, match="no node #999"):
        view.selected = 999
    assert view.selected == ids[2]
    # The view's fold button sends a message; Python lays the tree out again without the subtree.
    view._on_message(view, {"event": "toggle", "id": 0}, [])
    assert view.collapsed == {0} and len(view.data["nodes"]) == 1
    view._on_message(view, {"event": "toggle", "id": 0}, [])
    assert view.collapsed == frozenset() and len(view.data["nodes"]) == len(ids)
    view._on_message(view, {"event": "toggle", "id": 12345}, [])  # not a node: ignored
    assert view.collapsed == frozenset()
    card = view.trace(3)
    assert view.data["path"] == card["path"] and view.data["trace"]["node"] == card["path"][-1]
    assert card["scores"]["Kendall tau"] == pytest.approx(trace_example(
        model.tree_, model.encoder_.transform(data.X.iloc[[3]])[0], data.Y[3]).scores["Kendall tau"])
    assert view.trace(None) is None and view.data["path"] == []
    with pytest.raises(ValueError, match="row must be an integer from 0 to"):
        view.trace(len(data.X))
    with pytest.raises(ValueError, match="no X to trace"):
        TreeView(model).trace(0)
    with pytest.raises(TypeError, match="fitted tree estimator or a Tree"):
        TreeView(object())
    with pytest.raises(ValueError, match="height"):
        TreeView(model, height=10)


def test_the_widget_draws_an_ordinal_tree_and_a_bare_tree():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(60, 3))
    y = np.digitize(X[:, 0], [-0.5, 0.5]) + 1
    model = OrdinalTree(min_samples_leaf=5).fit(X, y)
    view = TreeView(model, X)
    assert len(view.data["nodes"]) == model.tree_.node_count
    assert view.trace(0)["lines"][0].startswith("Row 0 → leaf #")
    bare = TreeView(model.tree_, model.encoder_.transform(X))
    assert bare.trace(0)["path"] == view.trace(0)["path"]


def test_a_fitted_tree_displays_itself(toy):
    data, _ = toy
    unfitted = RankingTree()
    assert "text/html" in unfitted._repr_mimebundle_()  # scikit-learn's parameter box
    model = RankingTree(min_samples_leaf=2).fit(data.X, data.rankings)
    bundle = model._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "image/svg+xml"}  # no kernel here: the drawing
    assert bundle["image/svg+xml"].lstrip().startswith("<?xml") or "<svg" in bundle["image/svg+xml"][:400]
    shown = TreeView(model)._repr_mimebundle_()
    data_, _metadata = shown
    assert {"application/vnd.jupyter.widget-view+json", "image/svg+xml"} <= set(data_)


def test_in_a_kernel_a_fitted_tree_is_the_widget_with_the_svg_beside_it(tmp_path):
    """A real IPython kernel (ipykernel): the display bundle holds the widget view and the SVG."""
    pytest.importorskip("ipykernel")
    code = """
import json
from jupyter_client.manager import start_new_kernel
km, kc = start_new_kernel(kernel_name="python3")
try:
    kc.execute_interactive(
        "from rankviz import RankingTree, load_sample\\n"
        "d = load_sample('toy')\\n"
        "m = RankingTree(min_samples_leaf=2).fit(d.X, d.rankings)\\n"
        "m", output_hook=lambda msg: msg["msg_type"] == "execute_result" and print(json.dumps(sorted(msg["content"]["data"]))),
        timeout=120)
finally:
    kc.stop_channels(); km.shutdown_kernel(now=True)
"""
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=240, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    shown = json.loads(result.stdout.strip().splitlines()[-1])
    assert shown == ["application/vnd.jupyter.widget-view+json", "image/svg+xml", "text/plain"]


def test_without_system_graphviz_the_widget_and_the_html_file_lay_out_with_graphviz_pure(tmp_path):
    """A shared JupyterHub without admin rights: no `dot` on PATH, only what pip installed."""
    bindir = Path(sys.executable).parent
    if not (bindir / "graphviz-pure").exists():
        pytest.skip("graphviz-pure is not installed in this environment")
    code = """
import shutil
from rankviz import RankingTree, load_sample
from rankviz.viz import TreeView, export_tree
from rankviz.viz.graphviz import available_engines
assert shutil.which("dot") is None and available_engines() == ["pure"], available_engines()
data = load_sample("toy")
model = RankingTree(min_samples_leaf=2).fit(data.X, data.rankings)
view = TreeView(model)
assert "<svg" in view.data["svg"] and len(view.data["nodes"]) == model.tree_.node_count
assert b'id="rv-data"' in export_tree(model, "html")
print("ok")
"""
    env = {"PATH": str(bindir), "HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                            cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stderr[-3000:]


def test_nbconvert_shows_the_widget_with_its_state_and_the_svg_without(toy):
    """The bundle a kernel displays (test above), exported by nbconvert as a site or an e-mail would."""
    nbformat = pytest.importorskip("nbformat")
    nbconvert = pytest.importorskip("nbconvert")
    _, model = toy
    view = TreeView(model)
    data, _ = view._repr_mimebundle_()
    data["image/svg+xml"] = model._repr_mimebundle_()["image/svg+xml"]
    cell = nbformat.v4.new_code_cell("model", outputs=[nbformat.v4.new_output(
        "execute_result", data=data, execution_count=1)])
    notebook = nbformat.v4.new_notebook(cells=[cell])
    saved_state = {"application/vnd.jupyter.widget-state+json": {
        "version_major": 2, "version_minor": 0,
        "state": {view.model_id: {"model_name": "AnyModel", "model_module": "anywidget",
                                  "model_module_version": "*", "state": {}}}}}
    shown = {False: nbconvert.HTMLExporter().from_notebook_node(notebook)[0]}
    notebook.metadata["widgets"] = saved_state
    shown[True] = nbconvert.HTMLExporter().from_notebook_node(notebook)[0]
    assert 'data-mime-type="image/svg+xml"' in shown[False]  # no widget state (JupyterLab's default): the drawing
    assert 'type="application/vnd.jupyter.widget-view+json"' in shown[True]  # with it: the view
