"""Real-browser tests of the explorable tree view (rankviz.ui.tree_view) on the Ranking trees page.

Headless Chromium (Playwright) drives the app served by ``streamlit run app.py``
(fixtures ``streamlit_server``, ``browser`` and ``page`` of ``tests/conftest.py``):

* the mouse wheel zooms about the pointer: ``data-scale`` changes by the wheel's
  factor and the drawing's point under the pointer stays there;
* a drag pans the view by the drag vector;
* a click on node #5 inspects it: the Node inspector's dropdown shows #5 and
  only #5 carries the outline class ``rv-selected``;
* a node's − button folds its subtree ("+ n nodes, k leaves" as
  ``Tree.subtree_sizes`` says), and the fold survives a γ move;
* a traced training row lights up the path and leaf ``RankingTree.apply`` gives;
* nodes stay put while the growth player steps;
* at 100 % every text of a tree of over 140 leaves is at least 12 px tall.

The view lives in a shadow root: Playwright's CSS locators pierce it, and
``locator.evaluate`` runs on the element itself. Waits are on the page's state
(``data-scale``, classes, the status line), never fixed sleeps. The expected
trees come from the library with the page's own defaults, read from the code.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect  # noqa: E402
from streamlit_page import current, wait_until_idle  # noqa: E402

from rankviz import RankingTree, load_sample  # noqa: E402
from rankviz.datasets.samples import sample_tree_defaults  # noqa: E402
from rankviz.tree.structure import parent_array  # noqa: E402
from rankviz.ui.data_picker import dataset_url_field  # noqa: E402
from rankviz.ui.tree_panel import DEFAULT_MIN_LEAF, GAMMA_STEP, tree_settings, tree_url_fields  # noqa: E402

pytestmark = pytest.mark.e2e

SAMPLE = "metalearning"
#: The page's starting settings: γ is the default of tree_settings() (pages/ranking_trees.py passes
#: none); the limits are those the sample suggests (its NAME.json), else the page's own.
DEFAULT_GAMMA = inspect.signature(tree_settings).parameters["gamma"].default
DEFAULT_LIMITS = {"min_samples_leaf": DEFAULT_MIN_LEAF, "max_depth": None, **sample_tree_defaults(SAMPLE)}
LOAD_TIMEOUT = 60_000
DATA_PARAM = dataset_url_field().param
_PARAMS = {f.key: f.param for f in tree_url_fields()}
GAMMA_PARAM, MIN_LEAF_PARAM = _PARAMS["tree_gamma"], _PARAMS["tree_min_leaf"]
#: Settings that grow a tree of at least 140 leaves on the sample, drawn whole (≤ DRAWN_WHOLE_LEAVES).
BIG_GAMMA, BIG_MIN_LEAF = 1.02, 1

VIEW = ".st-key-tree_view"
SVG = f"{VIEW} .rv-svg"
STATUS_RE = re.compile(r"Step (\d+) of (\d+):")


# -- library expectations ----------------------------------------------------------

_dataset = None


def dataset():
    global _dataset
    if _dataset is None:
        _dataset = load_sample(SAMPLE)
    return _dataset


def fitted(gamma: float = DEFAULT_GAMMA, **limits) -> RankingTree:
    """The library's tree with the page's settings, or with ``gamma`` and ``limits``."""
    data = dataset()
    params = {**DEFAULT_LIMITS, **limits}
    return RankingTree(gamma=gamma, min_samples_leaf=params["min_samples_leaf"],
                       max_depth=params["max_depth"] or None).fit(data.X, data.Y, label_names=data.label_names)


def descendants(tree, stable_id: int) -> set[int]:
    """Stable ids of the nodes strictly below the node ``stable_id``."""
    index = {int(s): k for k, s in enumerate(tree.node_ids)}
    below, todo = set(), [index[stable_id]]
    while todo:
        k = todo.pop()
        for child in (tree.children_left[k], tree.children_right[k]):
            if child >= 0 and not tree.is_leaf[k]:
                below.add(int(tree.node_ids[child]))
                todo.append(child)
    return below


# -- page helpers ------------------------------------------------------------------

def open_page(page: Page, base_url: str, node_count: int, gamma: float = DEFAULT_GAMMA,
              min_leaf: int = DEFAULT_LIMITS["min_samples_leaf"], params: dict | None = None) -> None:
    """Open Ranking trees with ``params`` in the URL; check that the sidebar shows ``gamma`` and
    ``min_leaf`` (the page's defaults unless ``params`` set them) and wait until the view draws
    ``node_count`` nodes."""
    query = "&".join(f"{k}={v}" for k, v in {DATA_PARAM: SAMPLE, **(params or {})}.items())
    page.goto(f"{base_url}/?{query}", timeout=LOAD_TIMEOUT)
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-ready", "1", timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("slider", name="γ (stopping parameter)")).to_have_attribute(
        "aria-valuetext", f"{gamma:.3f}")
    expect(page.get_by_role("spinbutton", name="Minimum examples per leaf")).to_have_value(str(min_leaf))
    expect(page.locator(f"{SVG} g.node[data-node-id]")).to_have_count(node_count, timeout=LOAD_TIMEOUT)
    wait_until_idle(page)
    settle(page)


def settle(page: Page) -> None:
    """Wait for two animation frames: the layout of what was just changed is done."""
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def scale(page: Page) -> float:
    return float(page.locator(f"{VIEW} .rv-root").get_attribute("data-scale"))


def node(page: Page, stable_id: int):
    return page.locator(f'{SVG} g.node[data-node-id="{stable_id}"]')


def box(page: Page, stable_id: int) -> dict[str, float]:
    """The screen box (px) of a node's outline: its geometry, without the stroke (Playwright's
    ``bounding_box`` would include the stroke, which the inspected and just-split outlines widen)."""
    shape = node(page, stable_id).locator(".rv-shape")
    assert shape.count() == 1, f"node #{stable_id} is not drawn"
    return shape.evaluate("""s => {
        const r = s.getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height};
    }""")


def drawn_ids(page: Page, css: str = "") -> set[int]:
    """Stable ids of the drawn nodes (with the extra classes ``css``, e.g. ``.rv-path``)."""
    return {int(i) for i in page.locator(f"{SVG} g.node{css}[data-node-id]").evaluate_all(
        "gs => gs.map(g => g.getAttribute('data-node-id'))")}


def status_line(page: Page):
    return page.get_by_test_id("stMarkdownContainer").filter(has_text=STATUS_RE).and_(current(page))


def button(page: Page, name: str):
    return page.get_by_role("button", name=re.compile(rf"^(?:\w+\s+)?{re.escape(name)}$")).and_(current(page))


def background_point(page: Page) -> tuple[float, float]:
    """A point of the view (page px) with no node, edge or button under it."""
    point = page.locator(f"{VIEW} .rv-viewport").evaluate("""port => {
        const r = port.getBoundingClientRect();
        const shadow = port.getRootNode();
        for (let fy = 0.9; fy > 0.1; fy -= 0.05) {
            for (let fx = 0.05; fx < 0.95; fx += 0.05) {
                const x = r.left + fx * r.width, y = r.top + fy * r.height;
                const hit = shadow.elementFromPoint(x, y);
                if (hit && port.contains(hit) && !hit.closest('g.node, g.edge, g.rv-toggle, a, text'))
                    return [x, y];
            }
        }
        return null;
    }""")
    assert point, "no empty spot in the tree view"
    return tuple(point)


def centre(b: dict[str, float]) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


@pytest.fixture(autouse=True, scope="module")
def patient_expect():
    """Page reruns after a click can take seconds on a busy machine: wait up to 20 s in ``expect``."""
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)  # Playwright's default, for the other modules


# -- tests -------------------------------------------------------------------------

def test_wheel_zooms_about_the_pointer(streamlit_server, page: Page):
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    leaves = [int(i) for i in tree.node_ids[tree.is_leaf]]
    # The pointer on a leaf far from the view's centre, a second node far from the pointer.
    port = page.locator(f"{VIEW} .rv-viewport").bounding_box()
    port_centre = centre(port)
    anchor = max(leaves, key=lambda i: abs(centre(box(page, i))[0] - port_centre[0]))
    other = 0  # the root, at the top middle
    for delta_y in (-100, 200):  # one notch in (× 1.25), two notches out (÷ 1.25²)
        px, py = centre(box(page, anchor))
        before_scale, before_other, before_anchor = scale(page), box(page, other), box(page, anchor)
        page.mouse.move(px, py)
        page.mouse.wheel(0, delta_y)
        expect(page.locator(f"{VIEW} .rv-root")).not_to_have_attribute("data-scale", f"{before_scale:.4f}")
        settle(page)
        ratio = scale(page) / before_scale
        assert ratio == pytest.approx(1.25 ** (-delta_y / 100), rel=2e-3)
        # The drawing's point under the pointer stays there ...
        after_anchor = box(page, anchor)
        u = (px - before_anchor["x"]) / before_anchor["width"]
        v = (py - before_anchor["y"]) / before_anchor["height"]
        assert after_anchor["x"] + u * after_anchor["width"] == pytest.approx(px, abs=3)
        assert after_anchor["y"] + v * after_anchor["height"] == pytest.approx(py, abs=3)
        assert after_anchor["width"] == pytest.approx(before_anchor["width"] * ratio, rel=0.02)
        # ... and every other point moves away from (or towards) it by the ratio.
        after_other = box(page, other)
        assert after_other["x"] == pytest.approx(px + (before_other["x"] - px) * ratio, abs=3)
        assert after_other["y"] == pytest.approx(py + (before_other["y"] - py) * ratio, abs=3)


def test_drag_pans_the_view(streamlit_server, page: Page):
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    x, y = background_point(page)
    port = page.locator(f"{VIEW} .rv-viewport").bounding_box()
    # A drag vector that stays inside the view, towards its centre.
    dx = -120.0 if x > port["x"] + port["width"] / 2 else 120.0
    dy = -90.0 if y > port["y"] + port["height"] / 2 else 90.0
    before = {i: box(page, i) for i in (0, 5)}
    before_scale = scale(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx / 2, y + dy / 2, steps=4)
    page.mouse.move(x + dx, y + dy, steps=4)
    page.mouse.up()
    settle(page)
    for i, b in before.items():
        after = box(page, i)
        assert after["x"] - b["x"] == pytest.approx(dx, abs=2), f"node #{i}"
        assert after["y"] - b["y"] == pytest.approx(dy, abs=2), f"node #{i}"
        assert after["width"] == pytest.approx(b["width"], abs=0.5)
    assert scale(page) == before_scale


def test_click_on_a_node_inspects_it(streamlit_server, page: Page):
    model = fitted()
    tree = model.tree_
    target = 5
    position = int(np.flatnonzero(tree.node_ids == target)[0])
    open_page(page, streamlit_server, tree.node_count)
    expect(node(page, target)).to_contain_text(f"#{target} ")
    node(page, target).click()
    combobox = page.get_by_role("combobox", name="Node")
    expect(combobox).to_have_value(re.compile(rf"^#{target} ·"))
    expect(page.get_by_test_id("stMetric").filter(has_text="Examples")).to_contain_text(
        str(tree.n_samples[position]))
    selected = page.locator(f"{SVG} g.node.rv-selected")
    expect(selected).to_have_count(1)
    expect(selected).to_have_attribute("data-node-id", str(target))


def test_collapse_hides_the_subtree_and_survives_a_gamma_move(streamlit_server, page: Page):
    lower_gamma = round(DEFAULT_GAMMA - 5 * GAMMA_STEP, 3)
    trees = {g: fitted(g).tree_ for g in (DEFAULT_GAMMA, lower_gamma)}
    sizes = {g: {int(i): (int(n), int(k)) for i, n, k in zip(t.node_ids, *t.subtree_sizes())}
             for g, t in trees.items()}

    def internal(g):
        t = trees[g]
        return {int(i) for i in t.node_ids[~t.is_leaf]} - {0}

    # A node split at both γ whose subtree differs between them; the largest such.
    candidates = [i for i in internal(DEFAULT_GAMMA) & internal(lower_gamma)
                  if sizes[DEFAULT_GAMMA][i] != sizes[lower_gamma][i]]
    assert candidates, "no node to fold: choose another γ"
    target = max(candidates, key=lambda i: sizes[DEFAULT_GAMMA][i][0])

    open_page(page, streamlit_server, trees[DEFAULT_GAMMA].node_count)
    toggle = page.locator(f'{SVG} g.rv-toggle[data-node-id="{target}"]')
    expect(toggle).to_have_attribute("aria-label", f"Collapse node #{target}")
    toggle.click()

    for g in (DEFAULT_GAMMA, lower_gamma):
        tree = trees[g]
        hidden_nodes, hidden_leaves = sizes[g][target]
        hidden = descendants(tree, target)
        assert len(hidden) == hidden_nodes
        leaf_word = "leaf" if hidden_leaves == 1 else "leaves"
        expect(node(page, target)).to_contain_text(f"+ {hidden_nodes} nodes, {hidden_leaves} {leaf_word}")
        expect(page.locator(f"{SVG} g.node[data-node-id]")).to_have_count(int(tree.node_count) - hidden_nodes)
        assert drawn_ids(page) == {int(i) for i in tree.node_ids} - hidden
        expect(page.locator(f'{SVG} g.rv-toggle[data-node-id="{target}"]')).to_have_attribute(
            "aria-label", f"Expand node #{target}")
        if g == DEFAULT_GAMMA:
            # Move γ down with the keyboard: a smaller tree that still splits the node.
            slider = page.get_by_role("slider", name="γ (stopping parameter)")
            slider.focus()
            for _ in range(round((DEFAULT_GAMMA - lower_gamma) / GAMMA_STEP)):
                page.keyboard.press("ArrowLeft")
            expect(slider).to_have_attribute("aria-valuetext", f"{lower_gamma:.3f}")
            expect(status_line(page)).to_contain_text(f"{trees[lower_gamma].n_leaves} leaves")


def test_traced_row_lights_up_its_path_and_leaf(streamlit_server, page: Page):
    model = fitted()
    tree = model.tree_
    leaf_index = model.apply(dataset().X)
    depth = np.asarray(tree.depth)[leaf_index]
    row = int(np.flatnonzero(depth >= 4)[0])  # a row with a long path (0-based)
    leaf = int(tree.node_ids[leaf_index[row]])
    parent = parent_array(tree.children_left, tree.children_right)
    path, k = [], int(leaf_index[row])
    while k >= 0:
        path.append(int(tree.node_ids[k]))
        k = parent[k]
    path = path[::-1]

    open_page(page, streamlit_server, tree.node_count)
    expect(page.locator(f"{SVG} .rv-path")).to_have_count(0)
    page.get_by_role("tab", name="Trace an example").click()
    rows = page.get_by_role("spinbutton", name=re.compile(r"^Training row"))
    rows.fill(str(row + 1))
    rows.press("Enter")
    expect(rows).to_have_value(str(row + 1))
    wait_until_idle(page)
    page.get_by_text("a training row", exact=True).click()
    expect(page.get_by_text(re.compile(r"^Path: #0 →"))).to_contain_text(" → ".join(f"#{i}" for i in path))
    expect(page.locator(f"{SVG} g.node.rv-path")).to_have_count(len(path))
    assert drawn_ids(page, ".rv-path") == set(path)
    # The highlighted leaf is the library's leaf for that row.
    assert drawn_ids(page, ".rv-path.rv-leaf") == {leaf}
    # Each edge into a path node below the root is lit, and no other edge.
    # (The edge into the drawing's node "node{k}" is "edge{k}".)
    lit_edges = page.locator(f"{SVG} g.edge.rv-path").evaluate_all("es => es.map(e => e.id)")
    into = page.locator(SVG).evaluate(
        """(svg, ids) => ids.map(i => svg.querySelector(`g.node[data-node-id="${i}"]`).id
                                    .replace(/^node/, 'edge'))""", path[1:])
    assert sorted(lit_edges) == sorted(into)
    assert len(lit_edges) == len(path) - 1 >= 4
    expect(page.locator(f"{VIEW} .rv-card")).to_contain_text(f"Row {row + 1} → leaf #{leaf}")


def test_nodes_stay_put_while_the_player_steps(streamlit_server, page: Page):
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    watched = [0, int(tree.node_ids[-1])]  # the root and a node grown late
    button(page, "Start").click()
    expect(status_line(page)).to_contain_text("Step 0 of ")
    grown = page.locator(f"{SVG} g.node[data-node-id]:not(.rv-future)")
    expect(grown).to_have_count(1)
    settle(page)
    first = {i: box(page, i) for i in watched}
    for step in (1, 2, 3):
        button(page, "Step").click()
        expect(status_line(page)).to_contain_text(f"Step {step} of ")
        expect(grown).to_have_count(1 + 2 * step)
        expect(page.locator(f"{SVG} g.node.rv-current")).to_have_count(1)
        settle(page)
        for i, b in first.items():
            now = box(page, i)
            for side in ("x", "y", "width", "height"):
                assert now[side] == pytest.approx(b[side], abs=1), f"node #{i} moved at step {step}: {b} → {now}"


def test_text_at_100_percent_is_at_least_12px(streamlit_server, page: Page):
    tree = fitted(BIG_GAMMA, min_samples_leaf=BIG_MIN_LEAF).tree_
    assert tree.n_leaves >= 140, tree.n_leaves
    open_page(page, streamlit_server, tree.node_count, BIG_GAMMA, BIG_MIN_LEAF,
              params={GAMMA_PARAM: f"{BIG_GAMMA:.3f}", MIN_LEAF_PARAM: BIG_MIN_LEAF})
    expect(page.locator(f"{SVG} g.node.rv-leaf")).to_have_count(tree.n_leaves)
    assert scale(page) < 0.5  # fitted: such a tree starts well below 100 %
    page.locator(f"{VIEW} .rv-actual").click()
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-scale", "1.0000")
    expect(page.locator(f"{VIEW} .rv-zoom")).to_have_text("100 %")
    settle(page)
    sizes = page.locator(SVG).evaluate("""svg => {
        const k = svg.getScreenCTM().a;          // screen px per unit of the drawing
        const out = [];
        for (const t of svg.querySelectorAll('g.node text, g.edge text, g.graph text')) {
            if (!t.textContent.trim()) continue;
            const size = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize);
            out.push([t.textContent.trim(), size * k, t.getBoundingClientRect().height]);
        }
        return out;
    }""")
    assert len(sizes) > 3 * tree.n_leaves
    smallest_font = min(sizes, key=lambda s: s[1])
    smallest_box = min(sizes, key=lambda s: s[2])
    assert smallest_font[1] >= 12 - 1e-6, f"text {smallest_font[0]!r} is drawn at {smallest_font[1]:.2f} px"
    assert smallest_box[2] >= 12, f"text {smallest_box[0]!r} is {smallest_box[2]:.2f} px tall"
