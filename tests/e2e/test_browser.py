"""End-to-end test of the "Ranking trees" page in headless Chromium (Playwright).

Drives the real app served by ``rankviz app`` (fixture
``streamlit_server``) through the fixtures ``browser`` / ``page`` of
``tests/conftest.py``:

* the page opens on the fully grown default tree (status line "Step N of N");
* Start shows the root alone, Step grows the tree one split at a time (the
  nodes of the graphviz SVG are counted);
* moving the γ slider with the keyboard regrows the tree, with the leaf count
  the library gives for the γ shown on the slider;
* the PNG and SVG exports download valid files of the tree on screen;
* Play animates the growth by itself and Pause stops it;
* screenshots: ``artifacts/screenshot.png`` (default tree; copied to
  ``docs/screenshot.png`` when that is missing or ``RANKVIZ_UPDATE_SCREENSHOT=1``)
  and ``artifacts/evaluation.png`` (a 5-fold evaluation).

Waits are on the page's state (status line, node count), never fixed sleeps,
except in the Play test where the passing of time is the point.
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect  # noqa: E402
from streamlit_page import RunLog, current, wait_until_idle  # noqa: E402

from rankviz import RankingTree, load_sample  # noqa: E402
from rankviz.ui.tree_panel import DEFAULT_MIN_LEAF  # noqa: E402

pytestmark = pytest.mark.e2e

REPO_ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO_ROOT / "artifacts"  # git-ignored
SAMPLE = "metalearning"
DEFAULT_GAMMA = 0.995
# First load starts Python, imports and fits the tree: allow more than a click.
LOAD_TIMEOUT = 60_000
STATUS_RE = re.compile(r"Step (\d+) of (\d+):.*?(\d+) (?:leaf|leaves), depth (\d+)\.", re.S)

# Tree nodes grown so far in the tree view (rankviz.ui.tree_view), which lives
# in a shadow root: nodes not grown yet carry the class "rv-future".
_COUNT_TREE_NODES = """() => {
    const hosts = [document];
    let view = null;
    while (hosts.length && !view) {
        const host = hosts.pop();
        view = host.querySelector('.rv-svg');
        for (const el of host.querySelectorAll('*')) if (el.shadowRoot) hosts.push(el.shadowRoot);
    }
    if (!view) return -1;
    return Array.from(view.querySelectorAll('g.node[data-node-id]'))
        .filter(g => !g.classList.contains('rv-future')).length;
}"""


# -- library expectations ----------------------------------------------------------

_dataset = None
_shape_cache: dict[float, tuple[int, int]] = {}


def library_tree_shape(gamma: float) -> tuple[int, int]:
    """(leaves, depth) of the library's tree with the page's defaults but ``gamma``."""
    global _dataset
    if gamma not in _shape_cache:
        if _dataset is None:
            _dataset = load_sample(SAMPLE)
        model = RankingTree(gamma=gamma, min_samples_leaf=DEFAULT_MIN_LEAF)
        tree = model.fit(_dataset.X, _dataset.rankings).tree_
        _shape_cache[gamma] = (int(tree.n_leaves), int(tree.max_depth))
    return _shape_cache[gamma]


# -- page helpers ------------------------------------------------------------------

def status_line(page: Page):
    """The player's status line, "Step k of N: … X leaves, depth D."."""
    return page.get_by_test_id("stMarkdownContainer").filter(has_text=re.compile(r"Step \d+ of \d+:")).and_(
        current(page))


def read_status(page: Page) -> tuple[int, int, int, int]:
    """(step, n_steps, leaves, depth) from the status line."""
    text = status_line(page).inner_text()
    match = STATUS_RE.search(text)
    assert match, f"unexpected status line: {text!r}"
    return tuple(int(g) for g in match.groups())


def wait_for_tree_nodes(page: Page, count: int, timeout: float = 30_000) -> None:
    """Wait until the graphviz SVG draws exactly ``count`` tree nodes."""
    page.wait_for_function(f"n => ({_COUNT_TREE_NODES})() === n", arg=count, timeout=timeout)


def button(page: Page, name: str):
    """A button by its label; the Material icon's ligature text (e.g. "download")
    is hidden from the accessibility tree, but tolerate it in front of the label."""
    return page.get_by_role("button", name=re.compile(rf"^(?:\w+\s+)?{re.escape(name)}$")).and_(current(page))


def download_as(page: Page, fmt: str) -> None:
    """Choose the Export popover's format; wait for the run that makes its file (one download button)."""
    page.get_by_role("radio", name=fmt, exact=True).or_(page.get_by_role("button", name=fmt, exact=True)).last.click()
    expect(button(page, f"Download {fmt}")).to_be_visible()  # the run makes the file (a Graphviz render)
    wait_until_idle(page)


def open_app(page: Page, base_url: str) -> tuple[int, int, int, int]:
    """Open the app, wait for the tree drawing and the status line; return the status."""
    page.goto(base_url, timeout=LOAD_TIMEOUT)
    expect(status_line(page)).to_be_visible(timeout=LOAD_TIMEOUT)
    page.wait_for_function(f"() => ({_COUNT_TREE_NODES})() > 0", timeout=LOAD_TIMEOUT)
    # A fresh server may still be in a second run of the page (the drawing reports its size back):
    # a click now would land in it, and the run it replaces would leave its status line behind.
    wait_until_idle(page, timeout=LOAD_TIMEOUT)
    expect(button(page, "Start")).to_be_visible()
    return read_status(page)


def full_height_screenshot(page: Page, path: Path) -> None:
    """Screenshot of the whole page. Streamlit scrolls inside its main section, so
    ``full_page`` alone stops at the viewport: grow the viewport to the content
    (the bottom of the last element, not the section's padded scroll height)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    width = page.viewport_size["width"]
    bottom = page.evaluate("""() => {
        let bottom = 0;
        const blocks = document.querySelectorAll(
            '[data-testid="stMainBlockContainer"] [data-testid="stVerticalBlock"] > *, '
            + '[data-testid="stSidebarUserContent"]');
        for (const e of blocks) bottom = Math.max(bottom, e.getBoundingClientRect().bottom);
        return bottom;
    }""")
    page.set_viewport_size({"width": width, "height": max(600, int(bottom) + 48)})
    page.wait_for_timeout(500)  # let charts re-lay out at the new size
    page.screenshot(path=str(path), full_page=True)


# -- tests -------------------------------------------------------------------------

def test_player_steps_and_exports(streamlit_server, page: Page):
    leaves, depth = library_tree_shape(DEFAULT_GAMMA)
    n_steps = leaves - 1  # one split per internal node

    # 1. The page opens on the fully grown default tree.
    step, n, shown_leaves, shown_depth = open_app(page, streamlit_server)
    assert (step, n) == (n_steps, n_steps)
    assert (shown_leaves, shown_depth) == (leaves, depth)
    wait_for_tree_nodes(page, 2 * leaves - 1)

    # 2. Start: the root alone; Step twice: root + two splits of two children.
    button(page, "Start").click()
    expect(status_line(page)).to_contain_text(f"Step 0 of {n_steps}")
    wait_for_tree_nodes(page, 1)
    assert read_status(page)[2:] == (1, 0)

    button(page, "Step").click()
    expect(status_line(page)).to_contain_text(f"Step 1 of {n_steps}")
    wait_for_tree_nodes(page, 3)
    button(page, "Step").click()
    expect(status_line(page)).to_contain_text(f"Step 2 of {n_steps}")
    wait_for_tree_nodes(page, 5)
    assert read_status(page)[2] == 3  # leaves after two splits
    wait_until_idle(page)

    # 4. Exports: the finished tree, not the player's step (partial growth is
    # not exported by default, and the popover says so). The image is made on click.
    # The popover opens below its button: the button at the top of the window, so that all of it is on screen.
    button(page, "Export").evaluate("b => b.scrollIntoView({block: 'start'})")
    button(page, "Export").click()
    expect(page.get_by_text(f"The player is at step 2 of {n_steps}; the export is the finished tree.")
           ).to_be_visible()
    # A width of 8 cm at 300 dpi: the PNG is 8 / 2.54 × 300 = 945 px wide.
    width_box = page.get_by_role("spinbutton", name="Width")
    width_box.fill("8")
    width_box.press("Enter")
    # The width reruns the tree's fragment: a menu opened before that run ends is replaced, closed.
    wait_until_idle(page)
    page.get_by_label("Unit", exact=True).click()
    page.get_by_role("option", name="cm").click()
    expect(page.get_by_text(re.compile(r"Figure 8\.0 × [\d.]+ cm; PNG 94[4-6] × "))).to_be_visible()
    wait_until_idle(page)  # the buttons of this run, not of one being replaced
    download_as(page, "PNG")
    with page.expect_download() as download_info:
        button(page, "Download PNG").click()
    download = download_info.value
    assert download.suggested_filename == f"{SAMPLE}_mean_spearman_g{DEFAULT_GAMMA:.3f}.png"
    png = Path(download.path()).read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n", png[:16]
    length, chunk = struct.unpack(">I4s", png[8:16])
    assert chunk == b"IHDR" and length == 13
    width, height = struct.unpack(">II", png[16:24])
    assert abs(width - 8 / 2.54 * 300) <= 2 and height > 100, (width, height)

    download_as(page, "SVG")
    with page.expect_download() as download_info:
        button(page, "Download SVG").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".svg")
    root = ET.fromstring(Path(download.path()).read_bytes())
    assert root.tag.endswith("svg"), root.tag
    exported = [g for g in root.iter() if g.tag.endswith("}g") and g.get("class") == "node"
                and re.search(r"node\d+$", g.get("id", ""))]
    assert len(exported) == 2 * leaves - 1, "the SVG export should be the finished tree"
    svg_text = Path(download.path()).read_text(encoding="utf-8")
    assert "#d62728" not in svg_text, "no highlight by default"
    # The player's partial tree on request: named and titled with its step.
    page.get_by_text(f"Only the splits made by step 2 of {n_steps}").click()
    expect(page.get_by_text(f"The player is at step 2 of {n_steps}; the export is the finished tree.")
           ).to_have_count(0)
    wait_until_idle(page)
    download_as(page, "SVG")
    with page.expect_download() as download_info:
        button(page, "Download SVG").click()
    download = download_info.value
    assert download.suggested_filename == f"{SAMPLE}_mean_spearman_g{DEFAULT_GAMMA:.3f}_step2of{n_steps}.svg"
    root = ET.fromstring(Path(download.path()).read_bytes())
    partial = [g for g in root.iter() if g.tag.endswith("}g") and g.get("class") == "node"
               and re.search(r"node\d+$", g.get("id", ""))]
    assert len(partial) == 5
    assert f"step 2 of {n_steps}: the splits made so far" in Path(download.path()).read_text(encoding="utf-8")
    # Downloading changes nothing on the page.
    expect(status_line(page)).to_contain_text(f"Step 2 of {n_steps}")


def test_gamma_slider_matches_library(streamlit_server, page: Page):
    open_app(page, streamlit_server)
    slider = page.get_by_role("slider", name="γ (stopping parameter)")
    expect(slider).to_have_attribute("aria-valuetext", f"{DEFAULT_GAMMA:.3f}")

    def check_tree_for_slider_value():
        gamma = float(slider.get_attribute("aria-valuetext"))
        leaves, depth = library_tree_shape(gamma)
        expect(status_line(page)).to_contain_text(
            re.compile(rf"Step {leaves - 1} of {leaves - 1}:.*\b{leaves} (?:leaf|leaves), depth {depth}\."))
        wait_for_tree_nodes(page, 2 * leaves - 1)
        return gamma, leaves

    # A little lower: a smaller tree, still more than one leaf.
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    gamma, leaves = check_tree_for_slider_value()
    assert gamma == pytest.approx(DEFAULT_GAMMA - 0.005)
    assert 1 < leaves < library_tree_shape(DEFAULT_GAMMA)[0]

    # Much lower: no split passes rule (6), the root alone.
    page.keyboard.press("Home")
    gamma, leaves = check_tree_for_slider_value()
    assert gamma == pytest.approx(0.90)
    assert leaves == 1
    assert read_status(page) == (0, 0, 1, 0)


def test_inspector_and_gamma_chart_follow_the_slider(streamlit_server, page: Page):
    open_app(page, streamlit_server)
    slider = page.get_by_role("slider", name="γ (stopping parameter)")
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowLeft")
    expect(slider).to_have_attribute("aria-valuetext", "0.990")
    leaves, _ = library_tree_shape(0.990)
    expect(status_line(page)).to_contain_text(f"{leaves} leaves")

    # The row beside the slider names the tree at the slider's γ; the γ path section draws the whole curve.
    expect(page.get_by_text(re.compile(rf"^{leaves} leaves; (the same tree for γ from|this tree for γ = 0.990)"))
           ).to_be_visible()
    expect(page.locator(".st-key-gamma_leaves .main-svg").first).to_be_attached()

    # Inspect an internal node: the inspector shows its numbers, the drawing outlines it.
    tree = RankingTree(gamma=np.inf, min_samples_leaf=DEFAULT_MIN_LEAF).fit(
        load_sample(SAMPLE).X, load_sample(SAMPLE).Y).gamma_path().tree_at(0.990)
    position = int(np.flatnonzero(~tree.is_leaf)[-1])
    node_id = int(tree.node_ids[position])
    page.get_by_role("tab", name="Node inspector").click()
    page.get_by_role("combobox", name="Node").click()
    page.keyboard.type(f"#{node_id} ·")
    page.keyboard.press("Enter")
    examples = page.get_by_test_id("stMetric").filter(has_text="Examples")
    expect(examples).to_contain_text(str(tree.n_samples[position]))
    expect(page.get_by_text("Rule (6)", exact=False).first).to_be_visible()
    expect(page.locator(".st-key-inspect_view")).to_be_visible()
    # The dropdown and the drawing agree: the node is outlined as inspected.
    expect(page.locator(f'.rv-svg g.node[data-node-id="{node_id}"]')).to_have_class(re.compile("rv-selected"))

    # Back up to the default γ: the tree grows, the inspected node keeps its id.
    slider.focus()
    for _ in range(5):
        page.keyboard.press("ArrowRight")
    expect(slider).to_have_attribute("aria-valuetext", f"{DEFAULT_GAMMA:.3f}")
    expect(status_line(page)).to_contain_text(f"{library_tree_shape(DEFAULT_GAMMA)[0]} leaves")
    expect(page.get_by_role("combobox", name="Node")).to_have_value(re.compile(rf"^#{node_id} ·"))
    wait_until_idle(page)
    page.locator(".st-key-inspect_node").scroll_into_view_if_needed()
    page.mouse.move(700, 30)
    page.screenshot(path=str(ARTIFACTS / "inspector.png"))
    docs_image = REPO_ROOT / "docs" / "inspector.png"
    if os.environ.get("RANKVIZ_UPDATE_SCREENSHOT") or not docs_image.exists():
        shutil.copyfile(ARTIFACTS / "inspector.png", docs_image)


def test_a_shared_link_to_a_page_opens_that_page_with_its_settings(fresh_streamlit_server, page: Page):
    # The first request to a new server: Streamlit must still route it through the app's main.py.
    page.goto(f"{fresh_streamlit_server}/side_by_side?data=toy&a_gamma=0.97&b_min_leaf=3", timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("heading", name="Side by side")).to_be_visible(timeout=LOAD_TIMEOUT)
    navigation = page.get_by_test_id("stSidebarNav")
    expect(navigation).to_contain_text("Ranking trees")
    expect(navigation).to_contain_text("Side by side")
    # Each tree's settings are folded above it; its summary line says them too.
    expect(page.get_by_text(re.compile(r"^Tree A: .*γ = 0\.970"))).to_be_visible()
    for side in ("Tree A settings", "Tree B settings"):
        page.get_by_text(side, exact=True).click()
    sliders = page.get_by_role("slider", name="γ (stopping parameter)")
    expect(sliders.first).to_have_attribute("aria-valuetext", "0.970")
    expect(page.get_by_role("spinbutton", name="Minimum examples per leaf").last).to_have_value("3")
    expect(page.locator(".rv-root")).to_have_count(2)


def test_play_animates_and_pause_stops(streamlit_server, page: Page):
    # A laptop's window, where the status line and the view's bar are narrowest: the tree stays put
    page.set_viewport_size({"width": 1280, "height": 720})
    n_steps = library_tree_shape(DEFAULT_GAMMA)[0] - 1
    open_app(page, streamlit_server)
    button(page, "Start").click()
    expect(status_line(page)).to_contain_text(f"Step 0 of {n_steps}")
    wait_until_idle(page)
    start_step = read_status(page)[0]
    view_top = page.locator(".rv-viewport").first.bounding_box()["y"]

    # Every frame notes the scrub slider's step: it follows the play (drawn with the tree, in the timer's fragment).
    page.evaluate("""() => {
        window.__scrubbed = new Set();
        const look = () => {
            for (const thumb of document.querySelectorAll('input[type="range"][aria-label="Split"]')) {
                window.__scrubbed.add(Number(thumb.value));
            }
            requestAnimationFrame(look);
        };
        look();
    }""")
    button(page, "Play").click()
    expect(button(page, "Pause")).to_be_visible()
    time.sleep(3)  # timing is the point: the animation runs by itself (1 step/s)
    step = read_status(page)[0]
    assert step > start_step, f"Play did not advance the tree in 3 s (still at step {step})"
    scrubbed = sorted(page.evaluate("() => [...window.__scrubbed]"))
    assert set(range(start_step, step)) <= set(scrubbed), f"the scrub slider did not follow the play: {scrubbed}"
    assert step < n_steps  # 11 steps at "normal" speed take longer than 3 s
    # the "just split" key joined the view's bar and the status names a split: neither moved the tree
    assert page.locator(".rv-viewport").first.bounding_box()["y"] == view_top

    button(page, "Pause").click()
    expect(button(page, "Play")).to_be_visible()
    wait_until_idle(page)
    paused_at = read_status(page)[0]
    time.sleep(2.5)  # more than two animation periods
    assert read_status(page)[0] == paused_at, "the tree kept growing after Pause"


def test_screenshots(streamlit_server, browser):
    # Device scale 2: a 1400 px wide page whose small tree labels stay sharp.
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        _take_screenshots(streamlit_server, page)
    finally:
        context.close()


def _take_screenshots(base_url, page: Page):
    leaves, _ = library_tree_shape(DEFAULT_GAMMA)
    open_app(page, base_url)
    wait_for_tree_nodes(page, 2 * leaves - 1)
    wait_until_idle(page)
    page.mouse.move(700, 30)  # blank header: no hover effects in the picture
    # The fully grown default tree, as the page opens. docs/screenshot.png is
    # committed: it is (re)written only when missing or on request, so that a
    # test run does not leave the working tree modified.
    full_height_screenshot(page, ARTIFACTS / "screenshot.png")
    docs_image = REPO_ROOT / "docs" / "screenshot.png"
    if os.environ.get("RANKVIZ_UPDATE_SCREENSHOT") or not docs_image.exists():
        docs_image.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ARTIFACTS / "screenshot.png", docs_image)

    # Evaluation tab: 5-fold cross-validation.
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.get_by_role("tab", name="Evaluation").click()
    evaluation = page.get_by_role("tabpanel", name="Evaluation")  # the γ path below has a protocol too
    evaluation.get_by_text("k-fold cross-validation").click()
    folds = evaluation.get_by_role("spinbutton", name="Folds")
    expect(folds).to_be_enabled()
    folds.fill("5")
    folds.press("Enter")
    expect(folds).to_have_value("5")
    wait_until_idle(page)
    page.get_by_role("button", name="Run evaluation").click()
    charts = page.locator(".st-key-eval_bars, .st-key-eval_dist")
    expect(charts).to_have_count(2, timeout=60_000)
    expect(page.get_by_role("tabpanel", name="Evaluation").get_by_test_id("stDataFrame").first).to_be_visible()
    expect(page.get_by_text("The results below are for earlier settings")).to_have_count(0)
    page.wait_for_function(
        """() => document.querySelectorAll('.st-key-eval_bars .main-svg, .st-key-eval_dist .main-svg').length >= 2""")
    wait_until_idle(page)
    page.mouse.move(700, 30)
    full_height_screenshot(page, ARTIFACTS / "evaluation.png")


def test_impurity_vs_gini_trees_render(streamlit_server, browser):
    """The Xia et al. (2006) page: both trees drawn (the library's node counts), Fig. 1 in its tab."""
    from rankviz import OrdinalTree
    from rankviz.experiments.monte_carlo import SyntheticSource

    X_train, y_train, _, _ = SyntheticSource().draw(np.random.default_rng(0))
    node_counts = [OrdinalTree(criterion, max_depth=3, gamma=np.inf).set_params(levels=[1, 2, 3, 4, 5]).fit(X_train, y_train)
                   .tree_.node_count for criterion in ("ranking_impurity", "gini")]
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{streamlit_server}/impurity_vs_gini", timeout=LOAD_TIMEOUT)
        expect(page.get_by_role("heading", name="Ranking impurity vs Gini")).to_be_visible(timeout=LOAD_TIMEOUT)
        # Both trees in tree views (shadow DOM: Playwright's locators pierce it).
        views = page.locator(".rv-svg")
        expect(views).to_have_count(2, timeout=LOAD_TIMEOUT)
        for k, count in enumerate(node_counts):
            expect(views.nth(k).locator("g.node[data-node-id]")).to_have_count(count, timeout=LOAD_TIMEOUT)
        # One group: both drawn at one scale, so their sizes compare.
        scales = page.locator(".rv-root")
        assert_one_scale(page, scales)
        for name in ("Ranking impurity", "Gini"):
            expect(page.get_by_text(re.compile(rf"^{name}: \d+ leaves, depth 3\.$"))).to_be_visible()
        expect(page.get_by_test_id("stMetric")).to_have_count(4)
        wait_until_idle(page)
        page.mouse.move(700, 30)
        full_height_screenshot(page, ARTIFACTS / "impurity_vs_gini.png")
        docs_image = REPO_ROOT / "docs" / "impurity_vs_gini.png"
        if os.environ.get("RANKVIZ_UPDATE_SCREENSHOT") or not docs_image.exists():
            shutil.copyfile(ARTIFACTS / "impurity_vs_gini.png", docs_image)

        # One above the other: new views, again at one scale once both are drawn.
        # (Scrolled so that the first tree starts on the screen and the second below it:
        # their views then get different heights, and the first is fitted alone first.)
        page.set_viewport_size({"width": 1440, "height": 900})
        page.get_by_text("Tree layout", exact=True).evaluate("e => e.scrollIntoView({block: 'start'})")
        page.get_by_text("one above the other").click()
        wait_until_idle(page)
        expect(views).to_have_count(2)
        for k, count in enumerate(node_counts):
            expect(views.nth(k).locator("g.node[data-node-id]")).to_have_count(count)
        assert_one_scale(page, scales)

        # Fig. 1: both splits drawn, with the ranking impurity of their children for a = 10.
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.get_by_role("tab", name="Teaching: Fig. 1").click()
        figure = page.get_by_test_id("stGraphVizChart").filter(has_text="left child")
        expect(figure).to_have_count(2)
        expect(figure.first).to_contain_text("I_rank 100")
        expect(figure.last).to_contain_text("I_rank 200")
    finally:
        context.close()


def assert_one_scale(page, scales, timeout: float = LOAD_TIMEOUT / 1000) -> None:
    """The two tree views end at one scale.

    A view is fitted alone before the other is drawn, so both are read once they have settled:
    reading one and then waiting for the other to match could take the first one's passing value.
    After a change of layout the second view's new root can arrive seconds after the first on a
    loaded machine (it once had no scale yet after 15 s), so the wait is the page-load timeout
    and starts once both roots are drawn.
    """
    expect(scales).to_have_count(2)
    expect(page.locator(".rv-root[data-ready='1']")).to_have_count(2, timeout=LOAD_TIMEOUT)
    deadline = time.monotonic() + timeout
    while (scales.nth(0).get_attribute("data-scale") != scales.nth(1).get_attribute("data-scale")
           and time.monotonic() < deadline):
        page.wait_for_timeout(100)
    assert scales.nth(0).get_attribute("data-scale") == scales.nth(1).get_attribute("data-scale")


def test_mallows_trees_page(streamlit_server, browser):
    """The Cheng et al. (2009) page: the label ranking tree's leaves show θ̂, and a comparison draws its chart."""
    from rankviz.ui.mallows_panel import DEFAULT_MIN_LEAF as LRT_MIN_LEAF

    dataset = load_sample("iris_nb")
    tree = RankingTree(criterion="mallows", gamma=np.inf, min_samples_leaf=LRT_MIN_LEAF).fit(
        dataset.X, dataset.Y).tree_
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{streamlit_server}/mallows_trees?data=iris_nb", timeout=LOAD_TIMEOUT)
        expect(page.get_by_role("heading", name="Mallows label ranking trees")).to_be_visible(timeout=LOAD_TIMEOUT)
        wait_for_tree_nodes(page, tree.node_count, timeout=LOAD_TIMEOUT)
        # Every leaf (and only the leaves) shows its reliability next to θ̂.
        leaves = page.locator(".rv-svg g.node.rv-leaf")
        expect(leaves).to_have_count(tree.n_leaves)
        for text in leaves.all_text_contents():
            assert "θ̂ = " in text and "rel = " in text
        expect(page.locator(".rv-svg g.node.rv-internal").filter(has_text="rel = ")).to_have_count(0)
        expect(status_line(page)).to_contain_text(f"{tree.n_leaves} leaves")
        wait_until_idle(page)
        page.mouse.move(700, 30)
        full_height_screenshot(page, ARTIFACTS / "mallows_trees.png")
        docs_image = REPO_ROOT / "docs" / "mallows_trees.png"
        if os.environ.get("RANKVIZ_UPDATE_SCREENSHOT") or not docs_image.exists():
            shutil.copyfile(ARTIFACTS / "mallows_trees.png", docs_image)

        # Compare methods: 5-fold cross-validation of the five methods, then the bar chart.
        page.set_viewport_size({"width": 1400, "height": 1000})
        page.get_by_role("tab", name="Compare methods").click()
        folds = page.locator(".st-key-lrt_cmp_folds input")
        folds.fill("5")
        folds.press("Enter")
        expect(folds).to_have_value("5")
        wait_until_idle(page)
        page.get_by_role("button", name="Run comparison").click()
        chart = page.locator(".st-key-lrt_cmp_bars")
        expect(chart.locator(".main-svg").first).to_be_visible(timeout=120_000)
        for name in ("LRT", "IBLR", "CC", "KNN (k=1)", "Default"):
            expect(chart.locator(".legendtext", has_text=name).first).to_be_visible()
        expect(chart).to_contain_text("Mean score per method")
        expect(page.get_by_text("5-fold cross-validation (seed 0)")).to_be_visible()
        wait_until_idle(page)
        page.mouse.move(700, 30)
        full_height_screenshot(page, ARTIFACTS / "mallows_trees_compare.png")
    finally:
        context.close()


def test_ranking_forest_page(streamlit_server, browser):
    """The forest page: its first tree drawn node for node, another tree on request, the importance heatmap."""
    from rankviz import RankingForest
    from rankviz.ui.forest_panel import DEFAULT_TREES

    dataset = load_sample("iris_nb")
    forest = RankingForest(n_estimators=DEFAULT_TREES, min_samples_leaf=1, oob_score=True, random_state=0).fit(
        dataset.X, pd.DataFrame(dataset.Y, columns=list(dataset.label_names)))
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(30_000)
    try:
        page.goto(f"{streamlit_server}/ranking_forest?data=iris_nb", timeout=LOAD_TIMEOUT)
        expect(page.get_by_role("heading", name="Ranking forest")).to_be_visible(timeout=LOAD_TIMEOUT)
        wait_for_tree_nodes(page, forest.estimators_[0].tree_.node_count, timeout=LOAD_TIMEOUT)
        expect(page.get_by_text(f"{forest.oob_score_:.3f}", exact=True)).to_be_visible()
        number = page.locator(".st-key-forest_tree input")
        number.fill("4")
        number.press("Enter")
        wait_for_tree_nodes(page, forest.estimators_[3].tree_.node_count)
        expect(page.get_by_text("Tree 4:")).to_be_visible()
        page.get_by_role("button", name="Compute the importance per label").click()
        chart = page.locator(".st-key-forest_importance_chart")
        expect(chart.locator(".main-svg").first).to_be_visible(timeout=120_000)
        for label in dataset.label_names:
            expect(chart.locator(".xtick text", has_text=label).first).to_be_attached()
        expect(chart).to_contain_text("Permutation importance per label on")
        wait_until_idle(page)
        full_height_screenshot(page, ARTIFACTS / "ranking_forest.png")
    finally:
        context.close()


def test_mpboost_page(streamlit_server, browser):
    """The Zhu et al. (2009) page: the ensemble is grown and drawn, Play replays it, the comparison draws its chart."""
    from rankviz import MPBoost, load_ltr_sample

    rounds = 40
    train = load_ltr_sample()["train"]
    model = MPBoost(ddf="logdd", n_rounds=rounds).fit(train.X, train.relevance, qid=train.qid)
    newest = f"{train.feature_names[model.feature_[-1]]} > {model.threshold_[-1]:.4g}"
    page_drawing = ".rv-svg"  # the tree view (its shadow DOM pierced by Playwright's locators)
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(30_000)
    runs = RunLog(page)
    try:
        page.goto(f"{streamlit_server}/mpboost?rounds={rounds}", timeout=LOAD_TIMEOUT)
        expect(page.get_by_role("heading", name="MPBoost: boosting for ranking")).to_be_visible(timeout=LOAD_TIMEOUT)
        svg = page.locator(page_drawing).first
        # the newest stump of the library's model, outlined as the last of the drawn ones
        expect(svg).to_contain_text(f"round {rounds}", timeout=LOAD_TIMEOUT)
        expect(svg).to_contain_text(newest)
        expect(page.get_by_text("Mean NDCG@5 over queries after each round").first).to_be_visible()
        wait_until_idle(page)
        page.mouse.move(700, 30)
        full_height_screenshot(page, ARTIFACTS / "mpboost.png")
        docs_image = REPO_ROOT / "docs" / "mpboost.png"
        if os.environ.get("RANKVIZ_UPDATE_SCREENSHOT") or not docs_image.exists():
            shutil.copyfile(ARTIFACTS / "mpboost.png", docs_image)

        # Play replays the growth from round 1: the drawing goes back and comes forward again, and the round
        # slider follows it (drawn with the round, in the timer's fragment). Every frame notes the first round
        # drawn and the slider's round, so a busy machine cannot step past a round between two looks (the
        # drawings live in the views' shadow roots).
        page.evaluate("""() => {
            window.__firstRounds = new Set();
            window.__sliderRounds = new Set();
            window.__seen = [];  // (ms, what the page showed) at each change, for a failure's message
            const look = () => {
                const now = [];
                for (const holder of document.querySelectorAll('*')) {
                    const svg = holder.shadowRoot && holder.shadowRoot.querySelector('.rv-svg');
                    const shown = svg && /Stumps (\\d+)–/.exec(svg.textContent);
                    if (!shown) continue;
                    // not the drawing of the run before, kept on screen a moment (stale) while the new one comes
                    if (holder.closest('[data-stale="true"]')) {
                        now.push('drawn from ' + shown[1] + ' (stale)');
                    } else {
                        window.__firstRounds.add(Number(shown[1]));
                        now.push('drawn from ' + shown[1]);
                    }
                }
                for (const slider of document.querySelectorAll('[data-testid="stSlider"]')) {
                    const thumb = slider.querySelector('[data-testid="stSliderThumbValue"]');
                    if (thumb && !slider.closest('[data-stale="true"]')
                            && slider.innerText.includes('Show the ensemble after round')
                            && /^\\d+$/.test(thumb.innerText.trim())) {
                        window.__sliderRounds.add(Number(thumb.innerText.trim()));
                        now.push('slider ' + thumb.innerText.trim());
                    }
                }
                for (const b of document.querySelectorAll('button')) {
                    if (/^(Play|Pause)$/.test(b.innerText.trim().split('\\n').pop())) now.push(b.innerText.trim().split('\\n').pop());
                }
                const text = now.join(', ');
                const last = window.__seen[window.__seen.length - 1];
                if (!last || last[1] !== text) window.__seen.push([Math.round(performance.now()), text]);
                requestAnimationFrame(look);
            };
            look();
        }""")
        runs_before = len(runs.runs)
        page.get_by_role("button", name="Play").click()
        page.wait_for_function("() => window.__firstRounds.has(1)", timeout=30_000)
        page.evaluate("() => window.__firstRounds.clear()")  # before the play, the drawing showed the last six
        # the play's last frame draws the six newest stumps of the forty
        page.wait_for_function(f"() => window.__firstRounds.has({rounds - 5})", timeout=120_000)
        between = [r for r in page.evaluate("() => [...window.__sliderRounds]") if 1 < r < rounds]
        assert len(between) >= rounds // 4, (
            f"the round slider did not follow the play: {sorted(between)}; runs since Play: {runs.runs[runs_before:]};"
            f" the page showed: {page.evaluate('() => window.__seen')}")
        expect(page.locator(page_drawing).first).to_contain_text(f"round {rounds}", timeout=60_000)
        # one Play button once the run settles (a rerun can show the old one beside the new for a moment)
        expect(page.get_by_role("button", name="Play")).to_have_count(1, timeout=10_000)
        expect(page.get_by_role("button", name="Play")).to_be_visible(timeout=10_000)

        # The comparison of the four labellings and the baselines.
        page.get_by_role("tab", name="Compare labellings and baselines (Figs. 3–5)").click()
        page.get_by_role("button", name="Run the comparison").click()
        chart = page.locator(".st-key-mpb_compare_chart")
        expect(chart.locator(".main-svg").first).to_be_visible(timeout=180_000)
        for name in ("MPBoost.BINARY", "MPBoost.LDD", "MPBoost.LOGDD", "MPBoost.LOGITDD",
                     "Best single feature", "Random order"):
            expect(chart.locator(".legendtext", has_text=name).first).to_be_visible()
        expect(page.get_by_text("Paired over 40 test queries")).to_be_visible()
        wait_until_idle(page)
        page.mouse.move(700, 30)
        full_height_screenshot(page, ARTIFACTS / "mpboost_compare.png")
    finally:
        context.close()
