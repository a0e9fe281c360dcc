"""What a person waits for in the app: clicks, γ steps, uploads and the cold start, server CPU and browser wall.

Two measurements of the same interactions, side by side:

* **server CPU (AppTest)**: Streamlit's ``AppTest`` runs the Ranking trees page
  in this process; the CPU time (all threads: ``time.process_time``) of each
  run. A γ step is a run of the whole page; a node pick in the Node menu is
  shown as the run AppTest makes (it cannot run one fragment alone, so this
  is the page's full run: an upper bound of the fragment's).
* **browser (Playwright + the system Chromium)**: the app served by
  ``rankviz app``; times measured in the page with
  ``performance.now()`` from the input event (pointer down, key down) to what
  a person sees: the outline on the clicked node, the Node inspector showing
  it, the tree drawn anew after a γ step; and the server process's CPU time
  for the same interaction (``psutil``), which is the fragment's cost.

Data: the metalearning sample (153 rows); ``fried`` of the label-ranking
collection (40,768 rows) from the data home, else a generated file of its
shape; and a generated file of ``--large-rows`` rows (400,000) for the γ step.
Cold start: server process start to the first tree drawn, after ``rankviz
warm-up`` (a warm Numba cache).

Every figure is the median of ``--repeats`` (≥ 5) repetitions; the script names
its machine and asserts nothing. The budgets of issue 33 are printed beside
the medians for reading, not checked.

Run: .venv/bin/python benchmarks/bench_app_latency.py [--repeats 5] [--skip-large] [--skip-browser]
"""

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench_tree_view_zoom import CHROMIUM_ARGS, find_chromium, serve_app, synthetic_benchmark_file
from common import DEFAULT_DATA, add_data_option, data_home_of, machine

from rankviz import RankingTree
from rankviz.datasets import FetchError, fetch_label_ranking
from rankviz.ui.app import main_script

VIEW = ".st-key-tree_view"
LOAD_TIMEOUT = 300_000
GAMMA_GRID = np.round(np.arange(0.90, 1.0505, 0.001), 3)  # the page's slider
#: The issue's budgets, printed beside the medians (ms).
BUDGETS = {
    "click → outline": {"metalearning": 50, "fried": 50},
    "click → inspector": {"metalearning": 300, "fried": 600},
    "γ step → tree redrawn": {"metalearning": 200, "fried": 500, "large": 2000},
    "upload → first tree": {"fried": 3000},
    "upload → page settled": {"fried": 5000},
    "cold start → first tree": {"metalearning": 8000},
}


# -- data ------------------------------------------------------------------------

def benchmark_text(X, Y):
    """The benchmark format (line 1 ``n,d,L``, then features and ranks) of a data set."""
    X = np.asarray(X, dtype=float)
    Y = np.asarray(Y)
    lines = [f"{len(X)},{X.shape[1]},{Y.shape[1]}"]
    lines += [",".join([f"{v:.6g}" for v in x] + [str(int(r)) for r in y]) for x, y in zip(X, Y)]
    return "\n".join(lines) + "\n"


def fried_file(data_home, folder):
    """``fried`` (40,768 rows) from the data home as a file to upload, else a generated file of its shape."""
    try:
        dataset = fetch_label_ranking("fried", data_home=data_home_of(data_home), download_if_missing=False)
        text, origin = benchmark_text(dataset.X.to_numpy(dtype=float), dataset.Y), "fried (data home)"
    except (FetchError, OSError, TypeError):
        text, origin = synthetic_benchmark_file(40_768, n_features=9, n_labels=5, seed=1), "generated, fried's shape"
    path = Path(folder) / "fried.csv"
    path.write_text(text)
    return path, origin


def large_file(rows, folder):
    path = Path(folder) / f"generated_{rows}.csv"
    path.write_text(synthetic_benchmark_file(rows, n_features=6, n_labels=5, seed=2))
    return path


def changing_gammas(X, Y, min_leaf, start=0.995):
    """Two neighbouring γ of the slider whose trees differ, nearest ``start``: each step redraws the tree."""
    path = RankingTree(gamma=np.inf, min_samples_leaf=min_leaf).fit(X, Y).gamma_path()
    counts = np.array([path.tree_at(g).node_count for g in GAMMA_GRID])
    changes = np.flatnonzero(np.diff(counts))
    if not len(changes):
        return None
    k = changes[np.argmin(np.abs(GAMMA_GRID[changes] - start))]
    return float(GAMMA_GRID[k]), float(GAMMA_GRID[k + 1])


def median(values):
    return float(np.median(values)) if len(values) else float("nan")


# -- server CPU (AppTest) ----------------------------------------------------------

def apptest_runs(data_file, gammas, repeats, min_leaf):
    """CPU seconds of AppTest runs: the upload's first run, γ steps, node picks."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(main_script()), default_timeout=900)
    at.query_params.update({"min_leaf": str(min_leaf), "gamma": f"{gammas[0]:.3f}"})
    at.run()
    cpu = {}
    if data_file is not None:
        at.selectbox(key="dataset").set_value("__upload__").run()
        start = time.process_time()
        at.file_uploader(key="upload_file").set_value((data_file.name, data_file.read_bytes(), "text/csv")).run()
        cpu["upload → first tree"] = [time.process_time() - start]
    else:
        at.selectbox(key="dataset").set_value("metalearning").run()
    assert not at.exception, at.exception
    steps = []
    for k in range(repeats + 1):
        start = time.process_time()
        at.slider(key="tree_gamma").set_value(gammas[(k + 1) % 2]).run()
        steps.append(time.process_time() - start)
    cpu["γ step → tree redrawn"] = steps[1:]  # the first pays for the second γ's first cut
    picks = []
    options = at.selectbox(key="inspect_node").options
    for k in range(repeats):
        start = time.process_time()
        at.selectbox(key="inspect_node").set_value(int(options[(k + 1) % len(options)].split()[0].lstrip("#")))
        at.run()
        picks.append(time.process_time() - start)
    cpu["click → inspector"] = picks
    assert not at.exception, at.exception
    return cpu


# -- browser ---------------------------------------------------------------------

# Runs in the page once: the start of each input (pointer or key down) and helpers that find the
# Ranking trees view anew each time (a rerun may mount a new one).
_WATCH = """() => {
    const w = window.__rv = {start: 0, outline: 0, drawn: 0};
    w.port = () => {
        const keyed = document.querySelector('.st-key-tree_view');
        const holder = keyed && [...keyed.querySelectorAll('*')].find(e => e.shadowRoot);
        return holder ? holder.shadowRoot.querySelector('.rv-viewport') : null;
    };
    w.svg = () => { const port = w.port(); return port && port.querySelector('.rv-stage svg'); };
    // The outline: a class set on the node, seen by an observer at once (no frame's delay).
    w.watchOutline = (target) => {
        w.outline = 0;
        const port = w.port();
        const observer = new MutationObserver(() => {
            const g = port.querySelector(`g.node[data-node-id="${target}"]`);
            if (g && g.classList.contains('rv-selected')) { w.outline = performance.now(); observer.disconnect(); }
        });
        observer.observe(port, {subtree: true, attributes: true, attributeFilter: ['class']});
    };
    // A new drawing: checked every frame until the SVG on screen is another element.
    w.watchDrawing = () => {
        w.drawn = 0;
        const before = w.svg();
        const loop = () => { const now = w.svg(); if (now && now !== before) w.drawn = performance.now();
                             else requestAnimationFrame(loop); };
        requestAnimationFrame(loop);
    };
    document.addEventListener('pointerdown', () => { w.start = performance.now(); }, true);
    document.addEventListener('keydown', () => { w.start = performance.now(); }, true);
    return true;
}"""


def idle(page, timeout=LOAD_TIMEOUT):
    page.wait_for_function(
        """() => {
            const widget = document.querySelector('[data-testid="stStatusWidget"]');
            return !widget || !(/running/i.test(widget.innerText)
                || widget.querySelector('[data-testid^="stStatusWidgetRunning"]'));
        }""", timeout=timeout)


def server_cpu(proc):
    times = proc.cpu_times()
    return times.user + times.system + times.children_user + times.children_system


def visible_nodes(page):
    return page.locator(f"{VIEW} .rv-viewport").evaluate("""port => {
        const r = port.getBoundingClientRect();
        return [...port.querySelectorAll('g.node[data-node-id]')].filter(g => {
            const b = g.getBoundingClientRect();
            return b.width > 0 && b.left >= r.left && b.right <= r.right && b.top >= r.top && b.bottom <= r.bottom;
        }).map(g => Number(g.getAttribute('data-node-id')));
    }""")


def browser_clicks(page, proc, repeats):
    """Click ``repeats`` visible nodes: ms to the outline, ms to the inspector, server CPU s."""
    outline, inspector, cpu = [], [], []
    nodes = [n for n in visible_nodes(page) if n != 0]
    for k in range(repeats):
        target = nodes[k % len(nodes)] if k % 2 == 0 or len(nodes) < 2 else 0
        page.evaluate("t => window.__rv.watchOutline(t)", target)
        before = server_cpu(proc)
        page.locator(f'{VIEW} .rv-svg g.node[data-node-id="{target}"]').click()
        page.wait_for_function(
            """t => { const input = [...document.querySelectorAll('input[role="combobox"]')]
                          .find(i => (i.getAttribute('aria-label') || '').startsWith('Node'));
                      return input && input.value.startsWith('#' + t + ' '); }""", arg=target, timeout=LOAD_TIMEOUT)
        seen = page.evaluate("() => performance.now()")
        idle(page)
        cpu.append(server_cpu(proc) - before)
        w = page.evaluate("() => ({start: window.__rv.start, outline: window.__rv.outline})")
        outline.append(w["outline"] - w["start"] if w["outline"] else float("nan"))
        inspector.append(seen - w["start"])
    return outline, inspector, cpu


def browser_gamma_steps(page, proc, gammas, repeats):
    """γ arrow steps across a change of the tree: ms to the new drawing, server CPU s."""
    slider = page.get_by_role("slider", name="γ (stopping parameter)")
    drawn, cpu = [], []
    for k in range(repeats + 1):
        slider.focus()
        value = float(slider.get_attribute("aria-valuetext"))
        key = "ArrowRight" if value <= gammas[0] else "ArrowLeft"
        before = server_cpu(proc)
        page.evaluate("() => window.__rv.watchDrawing()")
        page.keyboard.press(key)
        page.wait_for_function("() => window.__rv.drawn > 0", timeout=LOAD_TIMEOUT)
        w = page.evaluate("() => ({start: window.__rv.start, drawn: window.__rv.drawn})")
        idle(page)
        if k:  # the first step pays for the second γ's first cut
            drawn.append(w["drawn"] - w["start"])
            cpu.append(server_cpu(proc) - before)
    return drawn, cpu


def open_page(browser, url, query, viewport=(1440, 900)):
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    page.set_default_timeout(LOAD_TIMEOUT)
    page.goto(f"{url}/?{query}", timeout=LOAD_TIMEOUT)
    page.locator(f"{VIEW} .rv-root[data-ready='1']").wait_for(timeout=LOAD_TIMEOUT)
    idle(page)
    page.evaluate(_WATCH)
    return context, page


def upload(page, proc, data_file):
    """Upload ``data_file`` on an open page: ms to the first tree drawn and to a settled page, server CPU s."""
    page.get_by_role("combobox", name="Data set").click()
    page.get_by_role("option", name="Upload your own file…").click()
    idle(page)
    page.evaluate("() => window.__rv.watchDrawing()")
    before = server_cpu(proc)
    start = page.evaluate("() => performance.now()")
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(data_file))
    page.get_by_text(f"Data: {data_file.name}", exact=False).first.wait_for(timeout=LOAD_TIMEOUT)
    page.wait_for_function("() => window.__rv.drawn > 0", timeout=LOAD_TIMEOUT)
    drawn = page.evaluate("() => performance.now()") - start
    idle(page)
    settled = page.evaluate("() => performance.now()") - start
    return drawn, settled, server_cpu(proc) - before


def cold_start(chromium, repeats):
    """Server process start → first tree drawn (ms), with a warm Numba cache."""
    import psutil
    from playwright.sync_api import sync_playwright

    subprocess.run([sys.executable, "-m", "rankviz", "warm-up"], check=True, capture_output=True)
    walls, cpus = [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        for _ in range(repeats):
            start = time.perf_counter()
            with serve_app() as url:
                proc = psutil.Process(_server_pid(url))
                context, page = open_page(browser, url, "data=metalearning")
                walls.append((time.perf_counter() - start) * 1000)
                cpus.append(server_cpu(proc))
                context.close()
        browser.close()
    return walls, cpus


def _server_pid(url):
    """The pid of the process listening on ``url``'s port (the server ``serve_app`` started)."""
    import psutil

    port = int(url.rsplit(":", 1)[1])
    for conn in psutil.net_connections(kind="tcp"):
        if conn.laddr and conn.laddr.port == port and conn.status == psutil.CONN_LISTEN and conn.pid:
            return conn.pid
    raise SystemExit(f"no process listens on port {port}")


def browser_runs(chromium, fried, gammas, fried_gammas, repeats):
    import psutil
    from playwright.sync_api import sync_playwright

    results = {}
    with sync_playwright() as p, serve_app() as url:
        proc = psutil.Process(_server_pid(url))
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        context, page = open_page(browser, url, f"data=metalearning&gamma={gammas[0]:.3f}&min_leaf=10")
        outline, inspector, cpu = browser_clicks(page, proc, repeats)
        results["metalearning"] = {"click → outline": (outline, None), "click → inspector": (inspector, cpu)}
        drawn, cpu = browser_gamma_steps(page, proc, gammas, repeats)
        results["metalearning"]["γ step → tree redrawn"] = (drawn, cpu)
        context.close()
        if fried is not None:
            context, page = open_page(browser, url, f"data=metalearning&gamma={fried_gammas[0]:.3f}&min_leaf=10")
            drawn, settled, cpu = upload(page, proc, fried)
            results["fried"] = {"upload → first tree": ([drawn], [cpu]), "upload → page settled": ([settled], None)}
            outline, inspector, cpu = browser_clicks(page, proc, repeats)
            results["fried"]["click → outline"] = (outline, None)
            results["fried"]["click → inspector"] = (inspector, cpu)
            drawn, cpu = browser_gamma_steps(page, proc, fried_gammas, repeats)
            results["fried"]["γ step → tree redrawn"] = (drawn, cpu)
            context.close()
        browser.close()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_data_option(parser)
    parser.add_argument("--repeats", type=int, default=5, help="repetitions per figure (default: %(default)s)")
    parser.add_argument("--large-rows", type=int, default=400_000, help="rows of the generated large file")
    parser.add_argument("--skip-large", action="store_true", help="no generated large file")
    parser.add_argument("--skip-browser", action="store_true", help="AppTest only")
    parser.add_argument("--skip-cold", action="store_true", help="no cold starts")
    args = parser.parse_args()
    repeats = max(5, args.repeats)
    print(f"machine: {machine()}")
    min_leaf = 10  # the page's default for an upload (rankviz.ui.tree_panel.DEFAULT_MIN_LEAF)
    from rankviz import load_sample
    sample = load_sample("metalearning")
    gammas = changing_gammas(sample.X, sample.Y, min_leaf)
    with tempfile.TemporaryDirectory() as folder:
        fried, origin = fried_file(args.data or DEFAULT_DATA, folder)
        from rankviz import load_benchmark
        data = load_benchmark(fried)
        fried_gammas = changing_gammas(data.X, data.Y, min_leaf)
        print(f"data: metalearning (153 rows), γ {gammas}; {origin} ({data.n_samples:,} rows), γ {fried_gammas}")
        cpu = {"metalearning": apptest_runs(None, gammas, repeats, min_leaf),
               "fried": apptest_runs(fried, fried_gammas, repeats, min_leaf)}
        if not args.skip_large:
            large = large_file(args.large_rows, folder)
            large_data = load_benchmark(large)
            large_gammas = changing_gammas(large_data.X, large_data.Y, min_leaf) or (0.995, 0.996)
            cpu["large"] = apptest_runs(large, large_gammas, repeats, min_leaf)
            print(f"large: generated, {args.large_rows:,} rows, γ {large_gammas}")
        browser = {}
        chromium = find_chromium()
        if not args.skip_browser and chromium:
            browser = browser_runs(chromium, fried, gammas, fried_gammas, repeats)
            if not args.skip_cold:
                walls, cpus = cold_start(chromium, repeats)
                browser.setdefault("metalearning", {})["cold start → first tree"] = (walls, cpus)
    names = {"metalearning": "metalearning", "fried": "40,768 rows", "large": f"{args.large_rows:,} rows"}
    print(f"\nmedians of {repeats}: browser wall (ms, from the input event in the page), server CPU of that "
          "interaction (ms, the server process), AppTest CPU (ms, a full page run), the issue's budget (ms)")
    print(f"{'interaction':<26} {'data':<14} {'browser':>9} {'server CPU':>11} {'AppTest CPU':>12} {'budget':>7}")
    for what, by_data in BUDGETS.items():
        for data_name in ("metalearning", "fried", "large"):
            wall, server = browser.get(data_name, {}).get(what, (None, None))
            apptest = cpu.get(data_name, {}).get(what)
            if wall is None and apptest is None:
                continue
            cells = [f"{median(wall):9.0f}" if wall is not None else f"{'–':>9}",
                     f"{median(server) * 1000:11.0f}" if server is not None else f"{'–':>11}",
                     f"{median(apptest) * 1000:12.0f}" if apptest is not None else f"{'–':>12}",
                     f"{by_data.get(data_name, float('nan')):7.0f}"]
            print(f"{what:<26} {names[data_name]:<14} {' '.join(cells)}")


if __name__ == "__main__":
    main()
