"""Exports under load (issue 35 §4): 4 browser sessions, every export delivered, each of its own tree.

With 8 sessions busy, 16 of 31 SVG export clicks once delivered a file
("download canceled" in Chromium): a file made on click (a ``data=``
callable) is stored unowned, and Streamlit sweeps unowned files after every
run of any session. Reproduced before the fix with 7 sessions clicking while
another exported (5 of 12 cancelled). Each session here draws a tree of its
own (its minimum leaf size), the three others click nodes (each click a run)
while it exports, and every file must arrive whole and be its session's tree
(four sessions: every export meets runs of all the others, at half the time
of eight).
Loopback only; a bounded loop.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect  # noqa: E402
from streamlit_page import current, wait_until_idle  # noqa: E402

from rankviz import RankingTree, load_sample  # noqa: E402
from rankviz.ui.data_picker import dataset_url_field  # noqa: E402
from rankviz.ui.tree_panel import tree_url_fields  # noqa: E402

pytestmark = pytest.mark.e2e

SESSIONS = 4
FORMATS = ("SVG", "PNG", "PDF")
VIEW = ".st-key-tree_view"
LOAD_TIMEOUT = 120_000


def min_leaf(session: int) -> int:
    return 4 + 2 * session  # a different tree per session


def library_nodes(session: int) -> int:
    data = load_sample("metalearning")
    return RankingTree(gamma=0.995, min_samples_leaf=min_leaf(session)).fit(data.X, data.rankings).tree_.node_count


def open_session(browser, base_url: str, session: int) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    params = {f.key: f.param for f in tree_url_fields()}
    # Returns once the request is sent: the sessions load side by side.
    page.goto(f"{base_url}/?{dataset_url_field().param}=metalearning&{params['tree_min_leaf']}={min_leaf(session)}"
              f"&{params['tree_gamma']}=0.995", timeout=LOAD_TIMEOUT, wait_until="commit")
    return page


def named_button(page: Page, name: str):
    # The Material icon's ligature text (e.g. "download") may come before the label; while a run replaces
    # the page, the previous run's copy stays on screen, marked stale, and is left out.
    return page.get_by_role("button", name=re.compile(rf"^(?:\w+\s+)?{re.escape(name)}$")).and_(current(page))


def test_busy_sessions_get_every_export_of_their_own_tree(browser, streamlit_server):
    pages = [open_session(browser, streamlit_server, k) for k in range(SESSIONS)]
    try:
        for page in pages:
            expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-ready", "1", timeout=LOAD_TIMEOUT)
            wait_until_idle(page, timeout=LOAD_TIMEOUT)
        delivered = []
        for k, page in enumerate(pages):
            fmt = FORMATS[k % len(FORMATS)]
            named_button(page, "Export").click()
            if fmt == "SVG":  # wide enough to hold the whole tree (no depth cut): its nodes can be counted
                width = page.get_by_role("spinbutton", name="Width")
                width.fill("150")
                width.press("Enter")
                wait_until_idle(page)
            page.get_by_role("radio", name=fmt, exact=True).or_(
                page.get_by_role("button", name=fmt, exact=True)).last.click()
            expect(named_button(page, f"Download {fmt}")).to_be_visible()
            wait_until_idle(page)
            others = [pages[(k + d) % SESSIONS] for d in (1, 2, 3)]
            for j, other in enumerate(others):  # three other sessions run while this one downloads
                other.locator(f'{VIEW} .rv-svg g.node[data-node-id="{j % 2}"]').click(no_wait_after=True)
            with page.expect_download(timeout=60_000) as info:
                named_button(page, f"Download {fmt}").click()
            download = info.value
            assert download.failure() is None, f"session {k}: {fmt} download {download.failure()}"
            data = Path(download.path()).read_bytes()
            if fmt == "SVG":
                nodes = [g for g in ET.fromstring(data).iter() if g.tag.endswith("}g") and g.get("class") == "node"
                         and re.search(r"node\d+$", g.get("id", ""))]
                assert len(nodes) == library_nodes(k), f"session {k} got another tree"
            elif fmt == "PNG":
                assert data[:8] == b"\x89PNG\r\n\x1a\n"
            else:
                assert data[:5] == b"%PDF-" and data.rstrip().endswith(b"%%EOF")
            assert download.suggested_filename.endswith(f".{fmt.lower()}")
            delivered.append(fmt)
            page.keyboard.press("Escape")  # the popover closed: it covers nodes the next rounds click
        assert len(delivered) == SESSIONS
    finally:
        for page in pages:
            page.context.close()
