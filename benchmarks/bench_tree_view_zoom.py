"""Time one wheel-zoom step of the tree view on a ~500-node tree against a ~50-node tree.

The Ranking trees page draws its tree in the explorable tree view
(rankviz.ui.tree_view). This script serves the app (``rankviz app``
on a free port, or uses ``--url``), opens it in headless Chromium (Playwright,
the system Chromium as the browser tests use), uploads a synthetic label-ranking
file in the benchmark format (made here, seeded: ``--rows`` examples, 6
attributes, 5 labels) and grows two trees of it on the same page and browser:

* the large tree: γ = ``--gamma``, at least ``--min-leaf`` examples per leaf
  (about 500 nodes at the defaults), drawn whole ("Draw to depth" at its end);
* the reference: the same data and leaf limit at the γ of the slider whose
  tree has the node count nearest ``--ref-nodes`` (about 50).

On each, the view is set to 100 % (its button), then ``--zooms`` wheel steps
(half out, half back in: both trees pass the same scales, from 100 % down to
1.25^-15 ≈ 3.5 % at the default 30 and back) are dispatched on the view at its
centre, timed in the page with
``performance.now()``: *handler* is the dispatch alone (the view's wheel
handler sets the scale and the SVG's viewBox), *frame* runs on until the next
frame has been drawn (a ``requestAnimationFrame`` and a message posted from it,
which runs after that frame's paint). Headless Chromium draws at most one
frame per ~16.7 ms, so a *frame* time near that means the step fit in one frame.

Run: .venv/bin/python benchmarks/bench_tree_view_zoom.py [--url http://localhost:8501]
Prints median and max per step in ms and the ratios large / reference; no thresholds.
"""

import argparse
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import numpy as np

from rankviz import RankingTree
from rankviz.datasets.label_ranking import load_benchmark

REPO_ROOT = Path(__file__).resolve().parents[1]
GAMMAS = np.round(np.arange(0.90, 1.0505, 0.001), 3)  # the app's slider
# The page's settings in a link (rankviz.ui.tree_panel.tree_url_fields; not imported: it starts Streamlit).
GAMMA_PARAM, MIN_LEAF_PARAM = "gamma", "min_leaf"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEW = ".st-key-tree_view"
LOAD_TIMEOUT = 120_000

# Runs in the page: `zooms` wheel steps at the view's centre, each timed.
_ZOOM_STEPS = """async ([zooms, notch]) => {
    const hosts = [document];
    let port = null;
    while (hosts.length && !port) {
        const host = hosts.pop();
        port = host.querySelector('.st-key-tree_view .rv-viewport') || host.querySelector('.rv-viewport');
        for (const el of host.querySelectorAll('*')) if (el.shadowRoot) hosts.push(el.shadowRoot);
    }
    const root = port.closest('.rv-root');
    const r = port.getBoundingClientRect();
    const x = r.left + r.width / 2, y = r.top + r.height / 2;
    const afterFrame = () => new Promise(resolve => requestAnimationFrame(() => {
        const channel = new MessageChannel();
        channel.port1.onmessage = () => resolve();
        channel.port2.postMessage(null);
    }));
    const step = (deltaY) => port.dispatchEvent(new WheelEvent('wheel', {
        deltaY, deltaMode: 0, clientX: x, clientY: y, bubbles: true, cancelable: true}));
    // Both trees start at 100 % (the view's button), then zoom out and back in: the same scales.
    root.querySelector('.rv-actual').click(); await afterFrame();
    step(notch); await afterFrame(); step(-notch); await afterFrame();   // warm-up, back where it was
    const handler = [], frame = [], scales = [];
    for (let k = 0; k < zooms; k++) {
        const deltaY = k < zooms / 2 ? notch : -notch;
        const t0 = performance.now();
        step(deltaY);
        const t1 = performance.now();
        await afterFrame();
        const t2 = performance.now();
        handler.push(t1 - t0);
        frame.push(t2 - t0);
        scales.push(Number(root.dataset.scale));
    }
    return {handler, frame, scales};
}"""


def find_chromium():
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def synthetic_benchmark_file(rows, n_features=6, n_labels=5, seed=0):
    """A label-ranking file in the benchmark format: rankings from noisy non-linear scores."""
    rng = np.random.default_rng(seed)
    X = rng.uniform(-1, 1, (rows, n_features))
    weights = rng.normal(size=(n_features, n_labels))
    scores = np.sin(3 * X) @ weights + rng.normal(size=(rows, n_labels))
    ranks = (-scores).argsort(axis=1).argsort(axis=1) + 1
    lines = [f"{rows},{n_features},{n_labels}"]
    lines += [",".join([f"{v:.5f}" for v in x] + [str(int(p)) for p in rank]) for x, rank in zip(X, ranks)]
    return "\n".join(lines) + "\n"


@contextlib.contextmanager
def serve_app():
    """``rankviz app`` on a free localhost port until the block ends; yields its URL."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    python = REPO_ROOT / ".venv" / "bin" / "python"
    cmd = [str(python) if python.exists() else sys.executable, "-m", "rankviz", "app",
           "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
           "--server.fileWatcherType", "none"]
    log = tempfile.TemporaryFile()
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise SystemExit(f"streamlit exited:\n{log.read().decode(errors='replace')[-3000:]}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as response:
                    if response.read().decode().strip() == "ok":
                        break
            except (urllib.error.URLError, OSError):
                pass
            if time.monotonic() > deadline:
                raise SystemExit("streamlit did not start within 60 s")
            time.sleep(0.25)
        yield url
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
        log.close()


def open_uploaded_tree(browser, url, data_file, gamma, min_leaf, node_count):
    """A new page with the uploaded file's tree at ``gamma`` and ``min_leaf``, drawn whole."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(LOAD_TIMEOUT)
    query = f"{GAMMA_PARAM}={gamma:.3f}&{MIN_LEAF_PARAM}={min_leaf}"
    page.goto(f"{url}/?{query}", timeout=LOAD_TIMEOUT)
    expect(page.locator(f"{VIEW} .rv-root")).to_have_attribute("data-ready", "1", timeout=LOAD_TIMEOUT)
    page.get_by_role("combobox", name="Data set").click()
    page.get_by_role("option", name="Upload your own file…").click()
    page.locator('[data-testid="stSidebar"] input[type="file"]').set_input_files(str(data_file))
    page.get_by_text("Benchmark (n,d,L)", exact=True).click()
    expect(page.get_by_text(f"Data: {data_file.name}", exact=False).first).to_be_visible(timeout=LOAD_TIMEOUT)
    nodes = page.locator(f"{VIEW} .rv-svg g.node[data-node-id]")
    depth = page.get_by_role("slider", name="Draw to depth")
    # A large tree is drawn cut to a depth at first: draw it whole.
    deadline = time.monotonic() + LOAD_TIMEOUT / 1000
    while nodes.count() != node_count:
        if depth.count() and depth.get_attribute("aria-valuetext") != depth.get_attribute("max"):
            depth.focus()
            page.keyboard.press("End")
        if time.monotonic() > deadline:
            raise SystemExit(f"the view did not draw {node_count} nodes (it shows {nodes.count()})")
        page.wait_for_timeout(250)
    page.wait_for_function(
        """() => {
            const widget = document.querySelector('[data-testid="stStatusWidget"]');
            return !widget || !/running/i.test(widget.innerText);
        }""")
    page.mouse.move(5, 5)  # no hover card over the view
    return context, page


def summary(values):
    values = np.asarray(values)
    return float(np.median(values)), float(values.max())


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running app (default: start one)")
    parser.add_argument("--zooms", type=int, default=30, help="wheel steps per tree (default: %(default)s)")
    parser.add_argument("--rows", type=int, default=600, help="examples of the synthetic file (default: %(default)s)")
    parser.add_argument("--min-leaf", type=int, default=2, help="examples per leaf (default: %(default)s)")
    parser.add_argument("--gamma", type=float, default=1.05, help="γ of the large tree (default: %(default)s)")
    parser.add_argument("--ref-nodes", type=int, default=50, help="nodes of the reference tree (default: %(default)s)")
    args = parser.parse_args()
    chromium = find_chromium()
    if chromium is None:
        raise SystemExit("no chromium binary (/usr/bin/chromium): install Debian's 'chromium' package")
    from playwright.sync_api import sync_playwright

    text = synthetic_benchmark_file(args.rows)
    workdir = Path(tempfile.mkdtemp(prefix="rankviz-bench-zoom-"))
    data_file = workdir / f"synthetic_{args.rows}.csv"
    data_file.write_text(text)
    dataset = load_benchmark(data_file)
    path = RankingTree(gamma=np.inf, min_samples_leaf=args.min_leaf).fit(dataset.X, dataset.Y).gamma_path()
    counts = {float(g): path.tree_at(g).node_count for g in GAMMAS}
    ref_gamma = min(counts, key=lambda g: (abs(counts[g] - args.ref_nodes), g))
    cases = [("reference", ref_gamma), ("large", round(args.gamma, 3))]
    print(f"synthetic file: {args.rows} examples, 6 attributes, 5 labels; at least {args.min_leaf} per leaf; "
          f"{args.zooms} wheel steps (1.25× each, from 100 %: half out, half back in) per tree at the view's centre\n")

    results = {}
    with contextlib.ExitStack() as stack:
        url = args.url or stack.enter_context(serve_app())
        pw = stack.enter_context(sync_playwright())
        browser = pw.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_ARGS,
                                     env={**os.environ, "HOME": str(workdir)})
        stack.callback(browser.close)
        for name, gamma in cases:
            tree = path.tree_at(gamma)
            context, page = open_uploaded_tree(browser, url, data_file, gamma, args.min_leaf, tree.node_count)
            try:
                times = page.evaluate(_ZOOM_STEPS, [args.zooms, 100])
            finally:
                context.close()
            results[name] = (gamma, tree, times)
    shutil.rmtree(workdir, ignore_errors=True)

    print(f"{'tree':<10} {'γ':>6} {'nodes':>6} {'leaves':>6} {'scale range':>14} "
          f"{'handler med':>12} {'handler max':>12} {'frame med':>10} {'frame max':>10}   [ms per step]")
    for name, (gamma, tree, times) in results.items():
        scales = times["scales"]
        h_med, h_max = summary(times["handler"])
        f_med, f_max = summary(times["frame"])
        print(f"{name:<10} {gamma:>6.3f} {tree.node_count:>6} {tree.n_leaves:>6} "
              f"{min(scales):>6.3f}–{max(scales):<7.3f} {h_med:>12.2f} {h_max:>12.2f} {f_med:>10.2f} {f_max:>10.2f}")
    ref, large = results["reference"][2], results["large"][2]
    print("\nratio large / reference:")
    for kind in ("handler", "frame"):
        (rm, rx), (lm, lx) = summary(ref[kind]), summary(large[kind])
        print(f"  {kind:<8} median {lm / rm:6.2f}   max {lx / rx:6.2f}")


if __name__ == "__main__":
    main()
