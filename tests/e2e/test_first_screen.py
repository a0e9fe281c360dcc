"""Every tree opens readable, on the first screen, at the two window sizes people use most.

Headless Chromium opens each page with a tree on ``rankviz app`` at
1440×900 and 1280×720 and measures what a person sees before touching
anything (``getBoundingClientRect`` in the page):

* the first tree view starts within the window, and its root node (for MPBoost's
  stumps, which have none, some node) is wholly inside the window and inside the view;
* every node text the view shows (inside the view and the window) is at least
  11 px tall, and no text in the view at all (legend included) is below 6 px;
* the view takes at least 60 % of the window's height, unless the whole drawing
  already fits in less;
* at 1440×900, axe-core finds no critical or serious violation on the page
  (``axe_check``; the same load serves both, and ``test_accessibility`` checks
  the pages without a tree).
"""

from __future__ import annotations

import pytest

pytest.importorskip("playwright")
from axe_check import assert_no_serious_violations, wait_until_not_running  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from streamlit_page import wait_until_idle  # noqa: E402

pytestmark = pytest.mark.e2e

LOAD_TIMEOUT = 180_000
#: (URL path, tree views on the page): every page of the app that draws a tree.
#: The axe check runs at the first size.
PAGES = [("", 1), ("side_by_side", 2), ("impurity_vs_gini", 2), ("mallows_trees", 1), ("ranking_forest", 1),
         ("mpboost", 1)]
SIZES = [(1440, 900), (1280, 720)]

# Measures the first tree view of the page (the first in document order).
_MEASURE = """() => {
    const hosts = [document], views = [];
    while (hosts.length) {
        const host = hosts.shift();
        for (const el of host.querySelectorAll('*')) if (el.shadowRoot) hosts.push(el.shadowRoot);
        views.push(...host.querySelectorAll('.rv-viewport'));
    }
    views.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top
                         || a.getBoundingClientRect().left - b.getBoundingClientRect().left);
    const port = views[0];
    const view = port.getBoundingClientRect();
    const inside = r => r.width > 0 && r.height > 0 && r.right > view.left && r.left < view.right
        && r.bottom > view.top && r.top < view.bottom && r.top < innerHeight && r.bottom > 0;
    const shown = el => { const s = getComputedStyle(el); return s.display !== 'none' && s.visibility !== 'hidden'
                          && Number(s.opacity) > 0; };
    const texts = [...port.querySelectorAll('.rv-stage svg text')].filter(shown)
        .map(t => ({node: !!t.closest('g.node'), box: t.getBoundingClientRect()})).filter(t => inside(t.box));
    const nodes = [...port.querySelectorAll('.rv-stage g.node')].map(g => g.getBoundingClientRect());
    // A tree's root; a drawing without one (MPBoost's stumps) is judged by its most visible node.
    const root = port.querySelector('.rv-stage g.node[data-node-id="0"]');
    const whole = b => b.top >= view.top - 1 && b.bottom <= Math.min(view.bottom, innerHeight) + 1
        && b.left >= view.left - 1 && b.right <= view.right + 1;
    const r = root ? root.getBoundingClientRect() : (nodes.find(whole) || nodes[0]);
    return {
        views: views.length, top: view.top, height: view.height, window: innerHeight,
        drawing: Math.max(...nodes.map(n => n.bottom)) - Math.min(...nodes.map(n => n.top)),
        root: {top: r.top, bottom: r.bottom, left: r.left, right: r.right},
        view: {top: view.top, bottom: view.bottom, left: view.left, right: view.right},
        nodeText: texts.filter(t => t.node).map(t => t.box.height),
        allText: texts.map(t => t.box.height),
    };
}"""


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("path, n_views", PAGES, ids=[p or "ranking_trees" for p, _ in PAGES])
def test_the_first_tree_is_readable_on_the_first_screen(streamlit_server, browser, path, n_views, size):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page: Page = context.new_page()
    try:
        page.goto(f"{streamlit_server}/{path}", timeout=LOAD_TIMEOUT)
        expect(page.locator('.rv-root[data-ready="1"]')).to_have_count(n_views, timeout=LOAD_TIMEOUT)
        wait_until_idle(page, timeout=LOAD_TIMEOUT)
        page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        seen = page.evaluate(_MEASURE)
        assert seen["views"] == n_views
        assert 0 <= seen["top"] < seen["window"], f"the tree starts below the first screen: {seen['top']:.0f} px"
        root, view = seen["root"], seen["view"]
        assert root["top"] >= view["top"] - 1 and root["bottom"] <= min(view["bottom"], seen["window"]) + 1, (
            f"the root is not on the first screen: {root} in {view}")
        assert root["left"] >= view["left"] - 1 and root["right"] <= view["right"] + 1
        assert seen["nodeText"], "no node text on the first screen"
        assert min(seen["nodeText"]) >= 10.9, f"node text of {min(seen['nodeText']):.1f} px"
        assert min(seen["allText"]) >= 6, f"text of {min(seen['allText']):.1f} px in the view"
        assert seen["height"] >= 0.6 * seen["window"] - 1 or seen["drawing"] + 24 <= seen["height"], (
            f"a view of {seen['height']:.0f} px for a drawing of {seen['drawing']:.0f} px")
        if size == SIZES[0]:
            wait_until_not_running(page)  # a tree view reports its size back, which may start one more run
            assert_no_serious_violations(page, path or "ranking_trees")
    finally:
        context.close()
