"""Real-browser tests of the explorable tree view (rankviz.ui.tree_view) on the Ranking trees page.

Headless Chromium (Playwright) drives the app served by ``rankviz app``
(fixtures ``streamlit_server``, ``browser`` and ``page`` of ``tests/conftest.py``):

* a tree opens readable: node text at least 11 px on screen and no text
  drawn under 6 px (the page's default tree and one of over 140 leaves);
* the mouse wheel zooms about the pointer: ``data-scale`` changes by the wheel's
  factor and the drawing's point under the pointer stays there;
* a drag pans the view by the drag vector;
* a click on node #5 inspects it: the Node inspector's dropdown shows #5 and
  only #5 carries the outline class ``rv-selected``;
* the outline of a clicked node and the fold of a subtree show in the same
  frame as the click, before the page reruns (no new render of the view);
* a node's − button folds its subtree ("+ n nodes, k leaves" as
  ``Tree.subtree_sizes`` says), and the fold survives a γ move;
* a traced training row lights up the path and leaf ``RankingTree.apply`` gives;
* nodes stay put while the growth player steps; Play keeps the reader's zoom
  and the view's place, and the Split slider follows it;
* the overview map: a click or a drag in it centres the view there, same zoom;
  its button hides it;
* the keyboard: Tab enters the tree on a node, arrows walk it, Enter inspects,
  Space folds, Escape goes back to the viewport whose arrows pan;
* semantic zoom: zoomed far out the text is hidden (never drawn at 1-5 px),
  zoomed in again it is back;
* the legend: where the drawing's is out of view (a wide tree at its readable
  zoom) or its text hidden, a copy is pinned in the view's bottom-left corner,
  at least 11 px, off the root, and the drawing's is hidden; moved into view,
  the drawing's shows again and the copy goes;
* 100 % centres the inspected node; at 100 % every text of a tree of over 140
  leaves is at least 12 px tall.

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
#: The page's starting settings: γ is the default of tree_settings() (rankviz/ui/app/app_pages/ranking_trees.py passes
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
PORT = f"{VIEW} .rv-viewport"
MINI = f"{VIEW} .rv-mini"
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
                       max_depth=params["max_depth"] or None).fit(data.X, data.rankings)


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
                if (hit && port.contains(hit) && !hit.closest('g.node, g.edge, g.rv-toggle, a, text, .rv-mini'))
                    return [x, y];
            }
        }
        return null;
    }""")
    assert point, "no empty spot in the tree view"
    return tuple(point)


def centre(b: dict[str, float]) -> tuple[float, float]:
    return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def port_box(page: Page) -> dict[str, float]:
    """The view's screen box (px), cut to the browser window."""
    return page.locator(PORT).evaluate("""p => {
        const r = p.getBoundingClientRect();
        const top = Math.max(r.top, 0), bottom = Math.min(r.bottom, innerHeight);
        return {x: r.left, y: top, width: r.width, height: bottom - top};
    }""")


def port_centre(page: Page) -> tuple[float, float]:
    """The centre (page px) of the whole view, not cut to the window: where the view centres a node."""
    return tuple(page.locator(PORT).evaluate(
        "p => { const r = p.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }"))


def show_view(page: Page) -> None:
    """Scroll the page so that the view's toolbar is at the top of the window: the view is on screen."""
    page.locator(f"{VIEW} .rv-bar").evaluate("e => e.scrollIntoView({block: 'start'})")
    settle(page)


def in_view(page: Page, stable_id: int, margin: float = 16) -> bool:
    """Whether a node's box is on screen inside the view, ``margin`` px from its edges."""
    b, p = box(page, stable_id), port_box(page)
    return (b["x"] >= p["x"] + margin and b["y"] >= p["y"] + margin
            and b["x"] + b["width"] <= p["x"] + p["width"] - margin
            and b["y"] + b["height"] <= p["y"] + p["height"] - margin)


def nodes_in_view(page: Page) -> list[int]:
    """Stable ids of the nodes wholly in view whose centre the pointer reaches (not under the overview map)."""
    ids = page.locator(f"{SVG} g.node[data-node-id]").evaluate_all(
        """gs => gs.filter(g => {
            const r = g.getBoundingClientRect();
            const hit = g.getRootNode().elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            return hit && hit.closest('g.node') === g;
        }).map(g => Number(g.getAttribute('data-node-id')))""")
    return [i for i in ids if in_view(page, i, margin=2)]


def bring_into_view(page: Page, stable_id: int) -> None:
    """Show the view, and move it with the overview map until the node is in view."""
    show_view(page)
    if not in_view(page, stable_id):
        target = page.locator(f'{MINI} rect[data-node-id="{stable_id}"]').bounding_box()
        page.mouse.click(*centre(target))
        settle(page)
    assert in_view(page, stable_id), f"node #{stable_id} is not in view"


def text_sizes(page: Page) -> list[tuple[str, float, float, bool]]:
    """Every non-empty text of the drawing on screen in the view: (text, font size in screen px, box
    height in px, drawn). The font size is the SVG font size times the drawing's screen px per unit
    (the drawing's screen width over its width in units); "drawn" is False when the text is hidden."""
    return page.locator(SVG).evaluate("""svg => {
        const k = svg.getBoundingClientRect().width / svg.width.baseVal.value;
        const port = svg.closest('.rv-viewport').getBoundingClientRect();
        const top = Math.max(port.top, 0), bottom = Math.min(port.bottom, innerHeight);
        const out = [];
        for (const t of svg.querySelectorAll('text')) {
            if (!t.textContent.trim()) continue;
            const r = t.getBoundingClientRect();
            if (r.right < port.left || r.left > port.right || r.bottom < top || r.top > bottom) continue;
            const size = parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize);
            const drawn = getComputedStyle(t).visibility === 'visible' && getComputedStyle(t).display !== 'none';
            out.push([t.textContent.trim(), size * k, r.height, drawn, !!t.closest('g.node[data-node-id]')]);
        }
        return out;
    }""")


def focused_node(page: Page) -> int | None:
    """Stable id of the node with the keyboard focus, None if the focus is elsewhere."""
    return page.locator(PORT).evaluate("""p => {
        const a = p.getRootNode().activeElement;
        return a && a.matches('g.node[data-node-id]') ? Number(a.getAttribute('data-node-id')) : null;
    }""")


def drawing_point_at(page: Page, x: float, y: float) -> tuple[float, float]:
    """The drawing's point (its own units) at screen point (x, y) of the view."""
    return tuple(page.locator(SVG).evaluate("""(svg, [x, y]) => {
        const r = svg.getBoundingClientRect();
        const k = r.width / svg.width.baseVal.value;
        return [(x - r.left) / k, (y - r.top) / k];
    }""", [x, y]))


def map_point_at(page: Page, x: float, y: float) -> tuple[float, float]:
    """The drawing's point (its own units) at screen point (x, y) of the overview map."""
    return tuple(page.locator(f"{MINI} svg").evaluate("""(svg, [x, y]) => {
        const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM().inverse());
        return [p.x, p.y];
    }""", [x, y]))


# -- tests -------------------------------------------------------------------------

def test_wheel_zooms_about_the_pointer(streamlit_server, page: Page):
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    show_view(page)
    # The pointer on a node in view far from the view's centre, a second node far from the pointer.
    shown = nodes_in_view(page)
    assert len(shown) >= 2, shown
    port_centre = centre(port_box(page))
    anchor = max(shown, key=lambda i: abs(centre(box(page, i))[0] - port_centre[0]))
    other = max(shown, key=lambda i: abs(centre(box(page, i))[1] - centre(box(page, anchor))[1]))
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
    show_view(page)
    x, y = background_point(page)
    port = port_box(page)
    # A drag vector that stays inside the view, towards its centre.
    dx = -120.0 if x > port["x"] + port["width"] / 2 else 120.0
    dy = -90.0 if y > port["y"] + port["height"] / 2 else 90.0
    before = {i: box(page, i) for i in nodes_in_view(page)[:2]}
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
    bring_into_view(page, target)
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
    bring_into_view(page, target)
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
    # Another tab: the trace controls are not drawn, and the path stays lit; back, they are as they were.
    wait_until_idle(page)
    page.get_by_role("tab", name="Node inspector").click()
    expect(page.get_by_role("combobox", name="Node")).to_be_visible()
    expect(rows).to_have_count(0)
    expect(page.locator(f"{SVG} g.node.rv-path")).to_have_count(len(path))
    page.get_by_role("tab", name="Trace an example").click()
    expect(rows).to_have_value(str(row + 1))
    expect(page.get_by_text(re.compile(r"^Path: #0 →"))).to_contain_text(" → ".join(f"#{i}" for i in path))


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


def test_play_keeps_the_readers_zoom_and_moves_the_split_slider(streamlit_server, page: Page):
    """Play draws the tree in a fragment of its own that a timer reruns: the view keeps the zoom the reader
    chose, stays where it was on the page, and the Split slider and the status follow every step."""
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    show_view(page)
    page.locator(f"{VIEW} .rv-actual").click()
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-scale", "1.0000")
    top = page.locator(PORT).bounding_box()["y"]
    thumb = page.locator("[data-testid=stSlider]").filter(has_text="Split").locator(
        "[data-testid=stSliderThumbValue]")
    button(page, "Play").click()
    seen = set()
    for _ in range(40):
        match = STATUS_RE.search(status_line(page).inner_text())
        if match and 1 <= int(match.group(1)) < int(match.group(2)):
            step = int(match.group(1))
            # The status and the slider are drawn in the same rerun: they agree (or the next tick is drawing).
            assert int(thumb.inner_text()) in (step - 1, step, step + 1)
            seen.add(step)
            assert page.locator(f"{VIEW} .rv-root").get_attribute("data-scale") == "1.0000"
            assert page.locator(PORT).bounding_box()["y"] == pytest.approx(top, abs=1)
        if len(seen) >= 3:
            break
        page.wait_for_timeout(250)
    assert len(seen) >= 3, seen
    button(page, "Pause").click()
    expect(button(page, "Play")).to_be_visible()


def open_big_tree(streamlit_server, page: Page):
    """Ranking trees with a tree of at least 140 leaves, drawn whole."""
    tree = fitted(BIG_GAMMA, min_samples_leaf=BIG_MIN_LEAF).tree_
    assert tree.n_leaves >= 140, tree.n_leaves
    open_page(page, streamlit_server, tree.node_count, BIG_GAMMA, BIG_MIN_LEAF,
              params={GAMMA_PARAM: f"{BIG_GAMMA:.3f}", MIN_LEAF_PARAM: BIG_MIN_LEAF})
    expect(page.locator(f"{SVG} g.node.rv-leaf")).to_have_count(tree.n_leaves)
    return tree


@pytest.mark.parametrize("big", [False, True], ids=["default tree", "tree of 140+ leaves"])
def test_a_tree_opens_readable(streamlit_server, page: Page, big: bool):
    # (Ranking trees bounds its view at 560 px: 60 % of this window's height is less.)
    page.set_viewport_size({"width": 1400, "height": 900})
    if big:
        open_big_tree(streamlit_server, page)
    else:
        open_page(page, streamlit_server, fitted().tree_.node_count)
    show_view(page)
    root = page.locator(f"{VIEW} .rv-root")
    # Neither tree fits the view at a readable size: the view opens on a part of it.
    expect(root).not_to_have_class(re.compile(r"\brv-whole\b"))
    expect(root).not_to_have_class(re.compile(r"\brv-blocks\b"))
    sizes = text_sizes(page)
    node_text = [s for s in sizes if s[4] and s[3]]
    assert len(node_text) >= 6, sizes
    smallest = min(node_text, key=lambda s: s[1])
    assert smallest[1] >= 11 - 1e-3, f"node text {smallest[0]!r} opens at {smallest[1]:.2f} px"
    assert min(s[2] for s in node_text) >= 11, "a node text's box is under 11 px tall"
    # No text on screen is drawn under 6 px (the legend's is the smallest font).
    drawn = [s for s in sizes if s[3]]
    assert min(s[1] for s in drawn) >= 6, min(drawn, key=lambda s: s[1])
    # The view got the screen: at least 60 % of the window's height.
    height = page.locator(PORT).evaluate("p => [p.getBoundingClientRect().height, innerHeight]")
    assert height[0] >= 0.6 * height[1] - 1, height


def legend_state(page: Page) -> dict:
    """Where the legend shows: the pinned copy's and the drawing's screen boxes (px), whether each is
    drawn, the copy's smallest font in screen px, and the view's box cut to the window."""
    return page.locator(PORT).evaluate("""p => {
        const rect = el => { const r = el.getBoundingClientRect();
                             return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
        const pin = p.querySelector('.rv-legend-pin'), drawn = p.querySelector('.rv-svg g#legend');
        const k = t => t.getScreenCTM().a;  // screen px per unit of the copy's text
        const fonts = [...pin.querySelectorAll('text')].filter(t => t.textContent.trim())
            .map(t => parseFloat(t.getAttribute('font-size')) * k(t));
        const port = rect(p);
        port.top = Math.max(port.top, 0);
        port.bottom = Math.min(port.bottom, innerHeight);
        return {pinned: !pin.hidden && getComputedStyle(pin).display !== 'none', pin: rect(pin),
                drawn: getComputedStyle(drawn).visibility === 'visible', legend: rect(drawn),
                font: fonts.length ? Math.min(...fonts) : null, texts: fonts.length, port};
    }""")


def inside(inner: dict, outer: dict) -> bool:
    return (inner["left"] >= outer["left"] - 1 and inner["top"] >= outer["top"] - 1
            and inner["right"] <= outer["right"] + 1 and inner["bottom"] <= outer["bottom"] + 1)


def test_the_legend_is_readable_where_the_tree_opens(streamlit_server, page: Page):
    # At 1280x720 the tree of 140+ leaves opens on its root, readable and much wider than the view:
    # the drawing's legend (on the root's rank, to its right) lies past the view's edge.
    page.set_viewport_size({"width": 1280, "height": 720})
    open_big_tree(streamlit_server, page)
    show_view(page)
    state = legend_state(page)
    assert not inside(state["legend"], state["port"])
    # Its copy is pinned in the view's bottom-left corner, wholly on screen, its text at least 11 px,
    # and the drawing's own is hidden (no second legend cut at the edge).
    assert state["pinned"] and not state["drawn"], state
    assert inside(state["pin"], state["port"]), state
    assert state["texts"] >= 3 and state["font"] >= 11 - 1e-3, state
    assert state["pin"]["left"] - state["port"]["left"] < 20 and state["port"]["bottom"] - state["pin"]["bottom"] < 20
    # It does not cover the root, which the tree opens on.
    root = box(page, 0)
    assert root["y"] + root["height"] <= state["pin"]["top"] or root["x"] >= state["pin"]["right"], (root, state)
    # Its button (or L) turns the copy off, and the drawing's shows where it is; on again, back.
    legend_button = page.locator(f"{VIEW} .rv-legend")
    legend_button.click()
    expect(legend_button).to_have_attribute("aria-pressed", "false")
    off = legend_state(page)
    assert not off["pinned"] and off["drawn"], off
    legend_button.click()
    expect(legend_button).to_have_attribute("aria-pressed", "true")
    assert legend_state(page)["pinned"]
    # Moved so that the drawing's legend is wholly in view, the copy goes and the drawing's shows.
    legend, port = state["legend"], state["port"]
    x, y = background_point(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + port["right"] - 40 - legend["right"], y + port["top"] + 40 - legend["top"], steps=5)
    page.mouse.up()
    settle(page)
    state = legend_state(page)
    assert inside(state["legend"], state["port"]), state
    assert state["drawn"] and not state["pinned"], state


def test_text_at_100_percent_is_at_least_12px(streamlit_server, page: Page):
    tree = open_big_tree(streamlit_server, page)
    show_view(page)
    opening = scale(page)
    assert opening < 1  # opens readable, below 100 %
    page.locator(f"{VIEW} .rv-actual").click()
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-scale", "1.0000")
    expect(page.locator(f"{VIEW} .rv-zoom")).to_have_text("100 %")
    settle(page)
    sizes = page.locator(SVG).evaluate("""svg => {
        const k = svg.getBoundingClientRect().width / svg.width.baseVal.value;  // screen px per unit
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
    assert smallest_font[1] >= 12 - 1e-3, f"text {smallest_font[0]!r} is drawn at {smallest_font[1]:.2f} px"
    assert smallest_box[2] >= 12, f"text {smallest_box[0]!r} is {smallest_box[2]:.2f} px tall"


def test_100_percent_centres_the_inspected_node(streamlit_server, page: Page):
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    show_view(page)
    port = page.locator(PORT).bounding_box()
    # A node that 100 % can centre: half a view from each edge of the drawing (units: 1 pt = 4/3 px).
    half_w, half_h = port["width"] / 2 * 0.75, port["height"] / 2 * 0.75
    rects = page.locator(f"{MINI} rect[data-node-id]").evaluate_all("""rs => rs.map(r => [
        Number(r.getAttribute('data-node-id')), r.x.baseVal.value, r.y.baseVal.value,
        r.width.baseVal.value, r.height.baseVal.value])""")
    size = page.locator(SVG).evaluate("svg => [svg.width.baseVal.value, svg.height.baseVal.value]")
    candidates = [i for i, x, y, w, h in rects
                  if half_w <= x + w / 2 <= size[0] - half_w and half_h <= y + h / 2 <= size[1] - half_h]
    assert candidates, "no node far enough from the drawing's edges"
    target = candidates[len(candidates) // 2]
    bring_into_view(page, target)
    node(page, target).click()
    expect(page.get_by_role("combobox", name="Node")).to_have_value(re.compile(rf"^#{target} ·"))
    wait_until_idle(page)
    # Zoom out and drag away; then 100 %.
    page.locator(f"{VIEW} .rv-out").click()
    page.locator(f"{VIEW} .rv-out").click()
    x, y = background_point(page)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 100, y + 60, steps=4)
    page.mouse.up()
    page.locator(f"{VIEW} .rv-actual").click()
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-scale", "1.0000")
    settle(page)
    port = port_centre(page)
    # The centre of the node's outline (its shape without the wider selection stroke).
    assert centre(box(page, target)) == pytest.approx(port, abs=2)


def test_outline_and_fold_show_before_the_page_reruns(streamlit_server, page: Page):
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    internal = [int(i) for i in tree.node_ids[~tree.is_leaf] if i != 0]
    target = internal[len(internal) // 2]
    bring_into_view(page, target)
    # A click, dispatched and checked in one task: what the view shows then, it showed without Python.
    click = """(el, selector) => {
        const root = el.getRootNode().querySelector('.rv-root');
        const renders = root.dataset.renders;
        const r = el.getBoundingClientRect();
        const at = {bubbles: true, cancelable: true, composed: true, button: 0, pointerId: 1, isPrimary: true,
                    clientX: r.x + r.width / 2, clientY: r.y + r.height / 2};
        el.dispatchEvent(new PointerEvent('pointerdown', at));
        el.dispatchEvent(new PointerEvent('pointerup', at));
        return {renders_before: renders, renders_after: root.dataset.renders,
                marked: [...root.querySelectorAll(selector)].map(g => Number(g.getAttribute('data-node-id')))};
    }"""
    now = node(page, target).locator(".rv-shape").evaluate(click, "g.node.rv-selected")
    assert now["renders_after"] == now["renders_before"], "the view was rendered again within the click"
    assert now["marked"] == [target]
    selected = page.locator(f"{SVG} g.node.rv-selected")
    expect(page.get_by_role("combobox", name="Node")).to_have_value(re.compile(rf"^#{target} ·"))
    # Python's answer agrees: still that node, and only it.
    expect(page.locator(f"{VIEW} .rv-root")).not_to_have_attribute("data-renders", now["renders_before"])
    expect(selected).to_have_count(1)
    expect(selected).to_have_attribute("data-node-id", str(target))
    wait_until_idle(page)

    # The fold: the subtree goes in the same task, before the new drawing comes.
    hidden = descendants(tree, target)
    toggle = page.locator(f'{SVG} g.rv-toggle[data-node-id="{target}"]')
    now = toggle.evaluate(click, "g.node.rv-folding")
    assert now["renders_after"] == now["renders_before"]
    assert set(now["marked"]) == hidden
    gone = page.locator(f"{SVG} g.node.rv-folding").evaluate_all(
        "gs => gs.every(g => g.getBoundingClientRect().width === 0)")
    assert gone
    expect(node(page, target)).to_contain_text(f"+ {len(hidden)} nodes")
    expect(page.locator(f"{SVG} g.node[data-node-id]")).to_have_count(int(tree.node_count) - len(hidden))


def test_overview_map_moves_the_view(streamlit_server, page: Page):
    open_big_tree(streamlit_server, page)
    show_view(page)
    mini = page.locator(MINI)
    expect(mini).to_be_visible()
    before = scale(page)
    port = port_centre(page)
    m = mini.bounding_box()
    for fx, fy in ((0.2, 0.7), (0.8, 0.3)):
        x, y = m["x"] + fx * m["width"], m["y"] + fy * m["height"]
        was = drawing_point_at(page, *port)
        page.mouse.click(x, y)
        settle(page)
        assert scale(page) == before
        # The clicked point of the drawing is now in the middle of the view.
        assert drawing_point_at(page, *port) == pytest.approx(map_point_at(page, x, y), abs=1.5)
        assert drawing_point_at(page, *port) != pytest.approx(was, abs=20)
    # A drag in the map follows the pointer.
    x0, y0 = m["x"] + 0.3 * m["width"], m["y"] + 0.5 * m["height"]
    x1, y1 = m["x"] + 0.6 * m["width"], m["y"] + 0.4 * m["height"]
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move(x1, y1, steps=5)
    page.mouse.up()
    settle(page)
    assert drawing_point_at(page, *port) == pytest.approx(map_point_at(page, x1, y1), abs=1.5)
    assert scale(page) == before
    # Its button hides it and shows it again.
    map_button = page.locator(f"{VIEW} .rv-map")
    map_button.click()
    expect(mini).to_be_hidden()
    expect(map_button).to_have_attribute("aria-pressed", "false")
    map_button.click()
    expect(mini).to_be_visible()


def test_keyboard_walks_inspects_and_folds(streamlit_server, page: Page):
    tree = fitted().tree_
    open_page(page, streamlit_server, tree.node_count)
    show_view(page)
    parent = parent_array(tree.children_left, tree.children_right)
    index = {int(s): k for k, s in enumerate(tree.node_ids)}
    selected = drawn_ids(page, ".rv-selected")
    start = next(iter(selected)) if selected else 0
    # Tab from the viewport enters the tree on the inspected node, else the root.
    page.locator(PORT).focus()
    page.keyboard.press("Tab")
    assert focused_node(page) == start
    treeitem = node(page, start)
    expect(treeitem).to_have_attribute("role", "treeitem")
    expect(treeitem).to_have_accessible_name(re.compile(rf"#{start} · "))
    # Its description is its whole record: "#id · test", its numbers, why it splits, its ranking.
    expect(treeitem).to_have_accessible_description(re.compile(rf"^#{start} · .*ranking"))

    expect(page.locator(f"{SVG} rect.rv-ring.rv-on")).to_have_count(1)
    # Home: the root; ArrowDown: its first child (the left one); ArrowRight: its sibling; ArrowUp: back.
    page.keyboard.press("Home")
    assert focused_node(page) == 0
    page.keyboard.press("ArrowDown")
    first = focused_node(page)
    children = {int(tree.node_ids[tree.children_left[0]]), int(tree.node_ids[tree.children_right[0]])}
    assert first in children
    page.keyboard.press("ArrowRight")
    second = focused_node(page)
    assert {first, second} == children
    assert centre(box(page, first))[0] < centre(box(page, second))[0]
    page.keyboard.press("ArrowUp")
    assert focused_node(page) == 0
    # Down to an internal node below the root, brought into view.
    page.keyboard.press("ArrowDown")
    k = index[focused_node(page)]
    if tree.is_leaf[k]:
        page.keyboard.press("ArrowRight")
        k = index[focused_node(page)]
    target = int(tree.node_ids[k])
    assert not tree.is_leaf[k] and parent[k] == 0
    assert in_view(page, target, margin=4)
    # Enter inspects it: outlined at once, then the Node inspector follows.
    page.keyboard.press("Enter")
    expect(node(page, target)).to_have_class(re.compile(r"\brv-selected\b"))
    expect(page.get_by_role("combobox", name="Node")).to_have_value(re.compile(rf"^#{target} ·"))
    expect(page.get_by_test_id("stMetric").filter(has_text="Examples")).to_contain_text(str(tree.n_samples[k]))
    wait_until_idle(page)
    # Space folds it.
    hidden = descendants(tree, target)
    treeitem = node(page, target)
    treeitem.focus()
    page.keyboard.press(" ")
    expect(node(page, target)).to_contain_text(f"+ {len(hidden)} nodes")
    expect(node(page, target)).to_have_attribute("aria-expanded", "false")
    assert drawn_ids(page) == {int(i) for i in tree.node_ids} - hidden
    wait_until_idle(page)
    # Escape gives the focus back to the viewport, whose arrow keys pan.
    node(page, target).focus()
    page.keyboard.press("Escape")
    assert focused_node(page) is None
    assert page.locator(PORT).evaluate("p => p.getRootNode().activeElement === p")
    before = box(page, target)
    page.keyboard.press("ArrowLeft")
    settle(page)
    assert box(page, target)["x"] - before["x"] == pytest.approx(60, abs=1)


def test_semantic_zoom_hides_text_too_small_to_read(streamlit_server, page: Page):
    open_big_tree(streamlit_server, page)
    show_view(page)
    root = page.locator(f"{VIEW} .rv-root")
    zoom_out, zoom_in = page.locator(f"{VIEW} .rv-out"), page.locator(f"{VIEW} .rv-in")

    def check_no_small_text():
        drawn = [s for s in text_sizes(page) if s[3]]
        if drawn:
            smallest = min(drawn, key=lambda s: s[1])
            assert smallest[1] >= 6, f"text {smallest[0]!r} drawn at {smallest[1]:.2f} px (scale {scale(page)})"

    for _ in range(12):
        zoom_out.click()
        settle(page)
        check_no_small_text()
        if "rv-blocks" in (root.get_attribute("class") or ""):
            break
    expect(root).to_have_class(re.compile(r"\brv-blocks\b"))
    # Far out: the nodes are blocks of their colour, with no text; the legend is the pinned copy, readable.
    assert not [s for s in text_sizes(page) if s[3]]
    state = legend_state(page)
    assert state["pinned"] and state["font"] >= 11 - 1e-3, state
    fills = page.locator(f"{SVG} g.node[data-node-id] .rv-shape").evaluate_all(
        "ss => ss.map(s => getComputedStyle(s).fill)")
    assert fills and all(f not in ("none", "") for f in fills)
    for _ in range(6):
        zoom_in.click()
        settle(page)
        check_no_small_text()
    expect(root).not_to_have_class(re.compile(r"\brv-blocks\b"))
    # Zoomed in again (about the view's middle, maybe between nodes): every text is drawn again ...
    assert page.locator(SVG).evaluate("svg => [...svg.querySelectorAll('g.node[data-node-id] text')]"
                                      ".every(t => getComputedStyle(t).visibility === 'visible')")
    # (the legend is drawn too: the drawing's, or its copy pinned while the drawing's is out of view)
    state = legend_state(page)
    assert state["drawn"] != state["pinned"], state
    # ... and shows on the nodes 100 % brings into view.
    page.locator(f"{VIEW} .rv-actual").click()
    settle(page)
    assert min(s[1] for s in text_sizes(page) if s[3]) >= 12 - 1e-3
