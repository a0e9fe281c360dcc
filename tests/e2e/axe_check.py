"""axe-core in the app's pages: the violations a check finds, and which of them block.

axe-core (vendored in ``vendor/axe-core``, MPL-2.0) is injected into the page
and its frames and run with its default rules; it walks open shadow roots (the
tree views) and frames itself. A page passes with no *critical* and no
*serious* violation, but for contrast inside a disabled widget (WCAG 1.4.3
exempts inactive controls); ``TREE_VIEW_KNOWN`` can name rules not held inside
the tree view's shadow root (none today).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Error, Page, expect
from streamlit_page import current, wait_until_idle

AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
LOAD_TIMEOUT = 180_000

#: Rules not held against the tree view (rankviz.ui.tree_view) *inside its shadow root only*;
#: everywhere else on the page they still count. None: the view's nodes are named by the text
#: their boxes show (their full details as ``aria-description``), so every rule holds inside it.
TREE_VIEW_KNOWN: set[str] = set()

BLOCKING = ("critical", "serious")

# Runs axe on the whole document (open shadow roots and frames included) and returns the
# violations as plain data. A node is marked ``in_tree_view`` inside a tree view's shadow root,
# ``inactive`` inside a disabled widget (WCAG 1.4.3 exempts inactive controls from contrast;
# Streamlit greys out the label of a disabled slider, where axe does not see the disabling).
# ``rerun``: Streamlit started a run meanwhile, so the page may have changed under axe.
_RUN_AXE = """async () => {
    const app = document.querySelector('[data-testid="stApp"]');
    let rerun = false;
    const observer = new MutationObserver(() => { rerun = true; });
    observer.observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
    const inTreeView = el => {
        if (el.shadowRoot && el.shadowRoot.querySelector('.rv-root')) return true;
        for (let root = el.getRootNode(); root instanceof ShadowRoot; root = root.host.getRootNode())
            if (root.querySelector('.rv-root')) return true;
        return false;
    };
    const inactive = el => !!el.closest('[disabled], [aria-disabled="true"], [data-disabled="true"]');
    const results = await axe.run(document, {elementRef: true, resultTypes: ['violations']});
    observer.disconnect();
    return {
        rerun: rerun || app.getAttribute('data-test-script-state') !== 'notRunning',
        violations: results.violations.map(v => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.map(n => ({
                impact: n.impact, target: n.target, summary: n.failureSummary,
                in_tree_view: n.element ? inTreeView(n.element) : false,
                inactive: n.element ? inactive(n.element) : false,
            })),
        })),
    };
}"""

#: Streamlit's own record of the script run on its root element.
_NOT_RUNNING = '[data-testid="stApp"][data-test-script-state="notRunning"]'


def page_url(base_url: str, path: str) -> str:
    return f"{base_url}/{path}"


def wait_until_not_running(page: Page) -> None:
    """Wait until no script run is going on (Streamlit's ``data-test-script-state``)."""
    expect(page.locator(_NOT_RUNNING)).to_have_count(1, timeout=LOAD_TIMEOUT)


def open_page(page: Page, base_url: str, path: str, title: str, tree_views: int) -> None:
    """Open a page and wait until its run is over and its tree views have drawn."""
    page.goto(page_url(base_url, path), timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("heading", level=1, name=title).and_(current(page))).to_be_visible(
        timeout=LOAD_TIMEOUT)
    wait_until_not_running(page)
    wait_until_idle(page, timeout=LOAD_TIMEOUT)
    # Drawn inside the components' shadow roots, which Playwright's CSS locators pierce.
    expect(page.locator('.rv-root[data-ready="1"]')).to_have_count(tree_views, timeout=LOAD_TIMEOUT)
    # A tree view reports its size back, which may start one more run.
    wait_until_not_running(page)


def run_axe(page: Page, attempts: int = 3) -> list[dict]:
    """axe-core's violations on the page, from a check no Streamlit run overlapped."""
    source = AXE_JS.read_text(encoding="utf-8")
    page.main_frame.add_script_tag(content=source)
    for frame in page.main_frame.child_frames:  # axe checks frames that have axe too
        try:
            frame.add_script_tag(content=source)
        except Error:  # a frame gone or not scriptable: axe reports it as not checked
            pass
    for _ in range(attempts):
        result = page.evaluate(_RUN_AXE)
        if not result["rerun"]:
            return result["violations"]
        wait_until_not_running(page)
        wait_until_idle(page, timeout=LOAD_TIMEOUT)
    pytest.fail(f"the page kept rerunning during {attempts} axe checks")


def blocking_nodes(violations: list[dict]) -> list[tuple[dict, dict]]:
    """(violation, node) pairs of critical or serious impact, less the tree view's known ones."""
    return [(v, n) for v in violations for n in v["nodes"]
            if (n["impact"] or v["impact"]) in BLOCKING
            and not (n["inactive"] and v["id"] == "color-contrast")
            and not (n["in_tree_view"] and v["id"] in TREE_VIEW_KNOWN)]


def report(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        for n in v["nodes"]:
            where = ((" [tree view]" if n["in_tree_view"] else "")
                     + (" [disabled widget]" if n["inactive"] else ""))
            summary = " ".join((n["summary"] or "").split())
            lines.append(f"{v['id']} ({n['impact'] or v['impact']}){where}: {n['target']}\n"
                         f"    {v['help']}. {summary}")
    return "\n".join(lines)




def assert_no_serious_violations(page: Page, title: str) -> None:
    """Run axe on the page (drawn and idle) and fail on any critical or serious violation, listing them."""
    violations = run_axe(page)
    counts: dict[str, int] = {}
    for v in violations:
        for n in v["nodes"]:
            impact = n["impact"] or v["impact"]
            counts[impact] = counts.get(impact, 0) + 1
    print(f"\naxe on {title!r}: {counts or 'no violations'}\n{report(violations)}")
    blocking = blocking_nodes(violations)
    assert not blocking, (f"{len(blocking)} critical/serious axe violation(s) on {title!r}:\n"
                          + report([{**v, "nodes": [n]} for v, n in blocking]))
