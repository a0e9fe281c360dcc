"""Accessibility of every page of the app, checked by axe-core in headless Chromium.

Every page with a tree is checked where it is first opened, by
``test_first_screen`` (one load of the page, at 1440×900, serves both); the
pages without one are checked here: opened on the app served by ``rankviz
app`` (fixture ``streamlit_server``), once Streamlit is idle, axe-core runs
with its default rules (``axe_check``: no *critical* and no *serious*
violation). ``PAGES`` lists every page of the app's ``main.py``, so a new page
is checked by one of the two.

``test_no_developer_toolbar``: the app runs with ``client.toolbarMode =
"viewer"`` (the app's ``.streamlit/config.toml``), so a user sees no "Deploy" button nor
the developer entries of the menu, as in a deployed app.

Waits are on the page's state (the title, Streamlit's script state, the tree
views ready), never fixed sleeps; one server serves every page.
"""

from __future__ import annotations

import re

import pytest

pytest.importorskip("playwright")
from axe_check import assert_no_serious_violations, open_page  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402
from test_first_screen import PAGES as FIRST_SCREEN_PAGES  # noqa: E402

pytestmark = pytest.mark.e2e

#: (URL path, page title shown as the page's h1, number of tree views drawn on first load),
#: in the order of the app's ``main.py``; the URL paths are those ``st.Page`` derives from the file names.
PAGES = [
    ("", "Ranking trees", 1),
    ("side_by_side", "Side by side", 2),
    ("impurity_vs_gini", "Ranking impurity vs Gini", 2),
    ("mallows_trees", "Mallows label ranking trees", 1),
    ("ranking_forest", "Ranking forest", 1),
    ("mpboost", "MPBoost: boosting for ranking", 1),
    ("benchmark", "Benchmark", 0),
]


def test_every_page_is_checked():
    """Each page of the app is checked: with a tree by test_first_screen, without one here."""
    assert {path for path, _, views in PAGES if views} == {path for path, _ in FIRST_SCREEN_PAGES}


@pytest.mark.parametrize("path, title, tree_views", [p for p in PAGES if not p[2]],
                         ids=[title for _, title, views in PAGES if not views])
def test_page_has_no_serious_violations(streamlit_server, page: Page, path, title, tree_views):
    open_page(page, streamlit_server, path, title, tree_views)
    assert_no_serious_violations(page, title)


def test_no_developer_toolbar(streamlit_server, page: Page):
    path, title, tree_views = PAGES[-1]  # a light page; the toolbar is the app's, not the page's
    open_page(page, streamlit_server, path, title, tree_views)
    expect(page.get_by_test_id("stToolbar")).to_be_attached()
    expect(page.get_by_test_id("stAppDeployButton")).to_have_count(0)
    expect(page.get_by_role("button", name=re.compile(r"^Deploy\b"))).to_have_count(0)
    # The menu keeps the viewer's entries (print, settings) but not the developer's.
    page.get_by_test_id("stMainMenuButton").click()
    menu = page.get_by_test_id("stMainMenuList")
    expect(menu.get_by_text("Print", exact=True)).to_be_visible()
    for developer_entry in ("Rerun", "Clear cache"):
        expect(menu.get_by_text(developer_entry, exact=True)).to_have_count(0)


def test_every_chosen_chip_of_the_benchmark_shows_whole_at_1280(streamlit_server, browser):
    """In a column, Streamlit keeps a multiselect's chips on one scrolling row unless told to wrap: at
    1280×720 the Benchmark page's last sample and method were cut at the widget's edge."""
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        page = context.new_page()
        path, title, tree_views = PAGES[-1]
        open_page(page, streamlit_server, path, title, tree_views)
        expect(page.get_by_test_id("stMultiSelect")).to_have_count(2)
        # Every box read in one frame: the page still moves while it loads (the multiselects went 117 px up
        # 0.13 s after they first showed), and boxes read one call at a time could come from two layouts.
        widgets = page.evaluate("""() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(() => {
            const rect = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
            done([...document.querySelectorAll('[data-testid="stMultiSelect"]')].map(widget => {
                const shown = widget.querySelector('[data-testid="stMultiSelectTagsContainer"]');
                return {box: rect(shown), chips: [...shown.querySelectorAll('[data-tag]')].map(rect)};
            }));
        })))""")
        for i, widget in enumerate(widgets):
            left, top, right, bottom = widget["box"]
            assert len(widget["chips"]) >= 3  # the page's defaults: three samples, three methods
            for j, (chip_left, chip_top, chip_right, chip_bottom) in enumerate(widget["chips"]):
                assert left <= chip_left and chip_right <= right, (i, j, widget)
                assert top <= chip_top and chip_bottom <= bottom, (i, j, widget)
    finally:
        context.close()
