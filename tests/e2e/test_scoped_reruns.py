"""What a click reruns: the tree and the panels that follow its selected node, never the whole page.

Headless Chromium drives ``rankviz app``; :class:`streamlit_page.RunLog`
reads the runs from the page's websocket (``script_finished``: a full run of
the page or a fragment run). Clicking a node on Ranking trees must update the
Node inspector through fragment runs only, leaving the γ path and the data
picker alone; a γ step reruns what follows γ (the tree and its open tab: the
inspector, a trace or the evaluation), not the page nor the γ path; folding a tree on Side by side
reruns that tree only.
"""

from __future__ import annotations

import re
import time

import numpy as np
import pytest

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect  # noqa: E402
from streamlit_page import RunLog, wait_until_idle  # noqa: E402

from rankviz import RankingTree, load_sample  # noqa: E402
from rankviz.datasets.samples import sample_tree_defaults  # noqa: E402
from rankviz.ui.data_picker import dataset_url_field  # noqa: E402
from rankviz.ui.tree_panel import DEFAULT_MIN_LEAF, GAMMA_GRID, tree_url_fields  # noqa: E402

pytestmark = pytest.mark.e2e

SAMPLE = "metalearning"
LOAD_TIMEOUT = 60_000
VIEW = ".st-key-tree_view"


def library_model(gamma=0.995):
    """The page's tree for the sample, fitted by the library."""
    data = load_sample(SAMPLE)
    limits = {"min_samples_leaf": DEFAULT_MIN_LEAF, **sample_tree_defaults(SAMPLE)}
    return RankingTree(gamma=gamma, min_samples_leaf=limits["min_samples_leaf"]).fit(data.X, data.rankings)


def library_tree(gamma=0.995):
    return library_model(gamma).tree_


def visible_nodes(page: Page, ids: list[int]) -> list[int]:
    """Those of ``ids`` whose box lies wholly inside the tree view on screen."""
    return page.locator(f"{VIEW} .rv-viewport").evaluate("""(port, ids) => {
        const r = port.getBoundingClientRect();
        return ids.filter(id => {
            const g = port.querySelector(`g.node[data-node-id="${id}"]`);
            if (!g) return false;
            const b = g.getBoundingClientRect();
            return b.width > 0 && b.left >= r.left && b.right <= r.right && b.top >= r.top && b.bottom <= r.bottom;
        });
    }""", ids)


def only_fragments_ran(page: Page, log: RunLog, pages_before: int, fragments_before: int, what: str) -> None:
    """Since the counts were taken, fragments ran (at least one) and the page did not."""
    wait_until_idle(page)
    deadline = time.monotonic() + 10
    while log.count("fragment") == fragments_before and time.monotonic() < deadline:
        page.wait_for_timeout(50)
    assert log.count("page") == pages_before, f"{what} reran the whole page: {log.runs}"
    assert log.count("fragment") > fragments_before


def files_fetched(page: Page) -> list[str]:
    """The media files (download buttons' data) the page fetches from now on.

    Streamlit's browser side fetches a drawn download button's whole file each
    time its address changes; for a file remade on every click or γ step that
    is a download per interaction, which the page avoids.
    """
    fetched: list[str] = []
    page.on("request", lambda request: fetched.append(request.url) if "/media/" in request.url else None)
    return fetched


def test_a_node_click_reruns_the_tree_and_its_inspector_only(streamlit_server, page: Page):
    tree = library_tree()
    log = RunLog(page)
    page.goto(f"{streamlit_server}/?{dataset_url_field().param}={SAMPLE}", timeout=LOAD_TIMEOUT)
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-ready", "1", timeout=LOAD_TIMEOUT)
    wait_until_idle(page, timeout=LOAD_TIMEOUT)
    assert log.count("page") >= 1
    combobox = page.get_by_role("combobox", name="Node")
    fetched = files_fetched(page)
    assert len(visible_nodes(page, [int(i) for i in tree.node_ids[1:]])) >= 2
    for target in visible_nodes(page, [int(i) for i in tree.node_ids[1:]])[:3]:
        position = int(np.flatnonzero(tree.node_ids == target)[0])
        wait_until_idle(page)
        pages_before, fragments_before = log.count("page"), log.count("fragment")
        page.locator(f'{VIEW} .rv-svg g.node[data-node-id="{target}"]').click()
        expect(combobox).to_have_value(re.compile(rf"^#{target} ·"))
        expect(page.get_by_test_id("stMetric").filter(has_text="Examples")).to_contain_text(
            str(tree.n_samples[position]))
        only_fragments_ran(page, log, pages_before, fragments_before, f"a click on #{target}")
        selected = page.locator(f"{VIEW} .rv-svg g.node.rv-selected")
        expect(selected).to_have_count(1)
        expect(selected).to_have_attribute("data-node-id", str(target))
    # The γ path is still on the page, untouched; the browser fetched no file for a click.
    expect(page.get_by_role("heading", name="γ path")).to_be_visible()
    expect(page.get_by_role("tab", name="Evaluation")).to_be_visible()
    assert not fetched, f"a click fetched {fetched}"


def gamma_note(path, gamma):
    """The row beside the slider, worked out from the library's trees on every slider value."""
    trees = {float(g): path.tree_at(g).node_count for g in GAMMA_GRID}
    same = [g for g, count in trees.items() if count == path.tree_at(gamma).node_count]
    leaves = path.tree_at(gamma).n_leaves
    if len(same) == 1:
        return f"{leaves} leaves; this tree for γ = {same[0]:.3f} only"
    return f"{leaves} leaves; the same tree for γ from {same[0]:.3f} to {same[-1]:.3f}"


def test_a_gamma_step_reruns_what_follows_gamma_not_the_page(streamlit_server, page: Page):
    # Two neighbouring slider values whose trees differ, from the library's own γ path.
    path = library_model(np.inf).gamma_path()
    counts = np.array([path.tree_at(g).node_count for g in GAMMA_GRID])
    k = int(np.flatnonzero(np.diff(counts))[-1])  # the last change on the slider
    before, after = float(GAMMA_GRID[k]), float(GAMMA_GRID[k + 1])
    gamma_param = next(f.param for f in tree_url_fields() if f.key == "tree_gamma")
    log = RunLog(page)
    page.goto(f"{streamlit_server}/?{dataset_url_field().param}={SAMPLE}&{gamma_param}={before:.3f}",
              timeout=LOAD_TIMEOUT)
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-ready", "1", timeout=LOAD_TIMEOUT)
    wait_until_idle(page, timeout=LOAD_TIMEOUT)
    nodes = page.locator(f"{VIEW} .rv-svg g.node[data-node-id]")
    expect(nodes).to_have_count(int(counts[k]))
    expect(page.get_by_text(gamma_note(path, before))).to_be_visible()
    pages_before, fragments_before, sent_before = log.count("page"), log.count("fragment"), len(log.elements)
    fetched = files_fetched(page)
    page.get_by_role("slider", name="γ (stopping parameter)").focus()
    page.keyboard.press("ArrowRight")
    expect(nodes).to_have_count(int(counts[k + 1]))
    expect(page.get_by_text(gamma_note(path, after))).to_be_visible()  # the row beside the slider follows
    only_fragments_ran(page, log, pages_before, fragments_before, "a γ step")
    assert f"{gamma_param}={after:.3f}" in page.url  # the link follows γ
    # What follows γ was sent again (the slider, the inspector's node menu), the γ path was not.
    sent = log.elements[sent_before:]
    assert ("slider", "γ (stopping parameter)") in sent and ("selectbox", "Node") in sent
    assert not [label for _, label in sent if label.startswith(("Compute the γ curves", "Protocol"))], sent
    assert not fetched, f"a γ step fetched {fetched}"


def test_after_an_upload_of_thousands_of_rows_the_gamma_curves_start_on_k_fold(streamlit_server, page: Page,
                                                                                tmp_path):
    # A small sample first (leave-one-out), then an upload above LOO_ROWS: the default follows the data.
    from rankviz.ui.gamma_panel import LOO_ROWS

    rows = LOO_ROWS + 100
    rng = np.random.default_rng(0)
    X = np.round(rng.random((rows, 3)), 3)
    Y = np.argsort(np.argsort(-(X @ rng.normal(size=(3, 4)) + rng.normal(size=(rows, 4))), axis=1), axis=1) + 1
    upload = tmp_path / "many_rows.csv"
    upload.write_text(f"{rows},3,4\n" + "\n".join(",".join([*map(str, x), *map(str, y)]) for x, y in zip(X, Y)))
    page.goto(f"{streamlit_server}/?{dataset_url_field().param}={SAMPLE}", timeout=LOAD_TIMEOUT)
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-ready", "1", timeout=LOAD_TIMEOUT)
    wait_until_idle(page, timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("radio", name="Leave-one-out")).to_be_checked()
    page.get_by_role("combobox", name="Data set").click()
    page.get_by_role("option", name="Upload your own file…").click()
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(upload))
    expect(page.get_by_text("Data: many_rows.csv", exact=False).first).to_be_visible(timeout=LOAD_TIMEOUT)
    wait_until_idle(page, timeout=LOAD_TIMEOUT)
    expect(page.get_by_role("radio", name="k-fold", exact=True)).to_be_checked()
    expect(page.get_by_role("button", name=re.compile(r"Compute the γ curves \(10 growths\)"))).to_be_visible()
