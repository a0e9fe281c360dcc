"""The tree view outside the app, in headless Chromium: the one-file HTML export and a real JupyterLab.

The same JavaScript module draws the tree in both (and in the app); these
tests check that each host wires it up: the tree renders, the wheel zooms, a
click selects (and in JupyterLab reaches Python), a fold hides a subtree.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from rankviz import RankingTree, load_sample
from rankviz.viz import export_tree

pytestmark = pytest.mark.e2e

HOSTILE = 'Metalearning </script><img src=x onerror="window.__pwned=1"> & <!--'


def zoom_percent(page) -> float:
    return float(re.sub(r"[^\d.]", "", page.locator(".rv-zoom").first.text_content()))


def test_the_html_export_explores_the_tree_offline(browser, tmp_path):
    data = load_sample("metalearning")
    model = RankingTree(min_samples_leaf=10).fit(data.X, data.rankings)
    page_file = tmp_path / "tree.html"
    page_file.write_bytes(export_tree(model, "html", title=HOSTILE))

    context = browser.new_context(viewport={"width": 1280, "height": 720})
    outside = []

    def only_the_file(route):
        if route.request.url.startswith("file:"):
            route.continue_()
        else:  # the network is blocked: nothing may be fetched
            outside.append(route.request.url)
            route.abort()

    context.route("**/*", only_the_file)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto(page_file.as_uri())
        page.locator(".rv-root[data-ready='1']").wait_for(timeout=20_000)
        assert page.title() == HOSTILE  # shown as text, not markup
        assert page.evaluate("() => window.__pwned") is None
        assert page.locator("g.node[data-node-id]").count() == model.tree_.node_count
        # Opening zoom: node text readable (>= 11 px), the root on the first screen.
        root_box = page.locator('g.node[data-node-id="0"]').bounding_box()
        assert root_box is not None and 0 <= root_box["y"] < 720

        page.locator('g.node[data-node-id="0"]').click()
        assert page.locator("g.node.rv-selected").get_attribute("data-node-id") == "0"

        hidden_before = page.locator("g.node.rv-folding").count()
        page.locator('g.rv-toggle[data-node-id="0"]').click()
        assert page.locator("g.node.rv-folding").count() == model.tree_.node_count - 1 > hidden_before
        page.locator('g.rv-toggle[data-node-id="0"]').click()
        assert page.locator("g.node.rv-folding").count() == 0

        before = zoom_percent(page)
        box = page.locator(".rv-viewport").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, -400)
        page.wait_for_function("z => parseFloat(document.querySelector('.rv-zoom').textContent) > z", arg=before)
        assert outside == [] and errors == []
    finally:
        context.close()


# --------------------------------------------------------------------------- #
# JupyterLab
# --------------------------------------------------------------------------- #
NOTEBOOK_CELLS = [
    "from rankviz import RankingTree, load_sample\n"
    "from rankviz.viz import TreeView\n"
    "data = load_sample('metalearning')\n"
    "model = RankingTree(min_samples_leaf=10).fit(data.X, data.rankings)\n"
    "view = TreeView(model, data.X, data.Y)\n"
    "view",
    "print('SELECTED', view.selected)",
    "view.trace(3)['path']",
    "model",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def jupyterlab(tmp_path):
    """A JupyterLab server on 127.0.0.1 with the test notebook in its root; yields (url, token)."""
    pytest.importorskip("jupyterlab")
    pytest.importorskip("anywidget")
    notebook = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                           "source": source} for source in NOTEBOOK_CELLS],
                "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
                "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "tree.ipynb").write_text(json.dumps(notebook), encoding="utf-8")
    port, token = free_port(), "rankviz-test-token"
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / ".jupyter"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / ".runtime"), "HOME": str(tmp_path)}
    log = (tmp_path / "jupyter.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
         f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={tmp_path}",
         "--LabApp.expose_app_in_browser=True", "--ServerApp.disable_check_xsrf=True",
         *(["--allow-root"] if os.geteuid() == 0 else [])],  # CI containers run as root
        cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None:
                pytest.fail("jupyter lab exited:\n" + (tmp_path / "jupyter.log").read_text(errors="replace")[-3000:])
            try:
                with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                    break
            except (urllib.error.URLError, OSError):
                if time.monotonic() > deadline:
                    pytest.fail("jupyter lab did not start within 90 s")
                time.sleep(0.5)
        yield url, token
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
        log.close()


def run_cell(page, index: int) -> None:
    page.evaluate("""async i => {
        const panel = window.jupyterapp.shell.currentWidget;
        panel.content.activeCellIndex = i;
        await window.jupyterapp.commands.execute('notebook:run-cell');
    }""", index)


def cell_output(page, index: int) -> str:
    return page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".jp-OutputArea").inner_text()


def test_the_widget_explores_the_tree_in_jupyterlab(browser, jupyterlab):
    url, token = jupyterlab
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"{url}/lab/tree/tree.ipynb?token={token}", timeout=90_000)
        page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                               "&& window.jupyterapp.shell.currentWidget.sessionContext "
                               "&& window.jupyterapp.shell.currentWidget.sessionContext.session", timeout=90_000)
        page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel"
                               ".connectionStatus === 'connected'", timeout=90_000)
        run_cell(page, 0)
        view = page.locator(".jp-Cell").nth(0).locator(".rv-root[data-ready='1']")
        view.wait_for(timeout=120_000)
        assert view.locator("g.node[data-node-id]").count() > 10

        before = zoom_percent(view)
        box = view.locator(".rv-viewport").bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.wheel(0, -400)
        page.wait_for_function("z => parseFloat(document.querySelector('.jp-Cell .rv-zoom').textContent) > z",
                               arg=before, timeout=10_000)

        view.locator(".rv-fit").click()
        view.locator('g.node[data-node-id="2"]').click()
        assert view.locator("g.node.rv-selected").get_attribute("data-node-id") == "2"
        run_cell(page, 1)  # Python sees the click
        page.wait_for_function("() => document.querySelectorAll('.jp-Cell')[1].innerText.includes('SELECTED')",
                               timeout=60_000)
        assert "SELECTED 2" in cell_output(page, 1)

        run_cell(page, 2)  # a trace from Python lights the path in the view
        page.wait_for_function("() => document.querySelectorAll('.jp-Cell')[0]"
                               ".querySelectorAll('g.node.rv-path').length > 1", timeout=60_000)
        assert view.locator(".rv-card").is_visible()

        view.locator(".rv-actual").click()  # 100 %, on the selected node: its fold button is drawn
        view.locator('g.rv-toggle[data-node-id="2"]').click()  # fold: Python lays the tree out again
        page.wait_for_function("() => { const n = document.querySelector('.jp-Cell g.node[data-node-id=\"2\"]');"
                               " return n && !document.querySelector('.jp-Cell g.node.rv-folding')"
                               " && n.getAttribute('aria-expanded') === 'false'; }", timeout=60_000)

        run_cell(page, 3)  # a fitted estimator displays itself as the explorable tree
        page.locator(".jp-Cell").nth(3).locator(".rv-root[data-ready='1']").wait_for(timeout=60_000)
    finally:
        context.close()
