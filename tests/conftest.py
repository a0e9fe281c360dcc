"""Shared pytest fixtures for rankviz.

The tests import the installed package (``make test`` installs it editable
with ``pip install -e .``).

* ``benchmark_data``: the folder of the public label-ranking benchmark files
  (the collection of Cheng, Hühn & Hüllermeier 2009): ``$RANKVIZ_BENCHMARK_DATA``,
  by default ``shared/data/label_ranking`` beside the checkout; tests that
  need it are skipped without it.
* ``streamlit_server`` (session): runs the app (``python -m rankviz app``)
  on a free localhost port and yields its base URL.
* ``browser`` (session): a Playwright Chromium browser using the system
  Chromium (``/usr/bin/chromium``); tests using it are skipped if no Chromium
  binary exists.
"""

from __future__ import annotations

import contextlib
import functools
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

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

#: Where the public label-ranking benchmark files are read from (a default that can be changed):
#: $RANKVIZ_BENCHMARK_DATA, else the label_ranking folder of the data home $RANKVIZ_DATA.
BENCHMARK_DATA = Path(os.environ.get("RANKVIZ_BENCHMARK_DATA")
                      or (Path(os.environ["RANKVIZ_DATA"]).expanduser() / "label_ranking"
                          if os.environ.get("RANKVIZ_DATA") else
                          REPO_ROOT.parent / "shared" / "data" / "label_ranking"))

SERVER_START_TIMEOUT = 60.0


def pytest_configure(config: pytest.Config) -> None:
    """Scan the installed distributions for Streamlit component manifests once per test process.

    Each new ``AppTest`` scans every installed distribution's metadata for
    components (about 1.1 s for the ~190 of the test environment), where the
    real server scans once when it starts. The distributions do not change
    during a test run, so the scan's result is kept: the pages' tests run the
    same registry the server would build.
    """
    try:
        from streamlit.components.v2 import manifest_scanner
    except ImportError:  # an older Streamlit, without the scan
        return
    scan = manifest_scanner.scan_component_manifests
    if not hasattr(scan, "cache_info"):
        manifest_scanner.scan_component_manifests = functools.cache(scan)


def pytest_collection_finish(session: pytest.Session) -> None:
    """Refuse to run grouped tests that ``--dist loadgroup`` would not keep together.

    pytest-xdist marks a group by a suffix of the test ids; pytest 9.2 ignores
    it (pytest-dev/pytest-xdist#1386), and then every worker builds the docs,
    installs the wheel and starts an app server and a Chromium of its own.
    """
    if not getattr(session.config.option, "loadgroup", False):
        return
    lost = [item.nodeid for item in session.items if item.get_closest_marker("xdist_group") and "@" not in item.nodeid]
    if lost:
        raise pytest.UsageError(f"--dist loadgroup did not group {len(lost)} tests (e.g. {lost[0]}): this pytest "
                                "and pytest-xdist lose the groups; install the versions of requirements.txt")


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist turns the groups into suffixes of the test ids
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Put the browser tests on one pytest-xdist worker (``make test``: ``-n 2 --dist loadgroup``).

    They share one app server and one Chromium per worker (session fixtures);
    on one worker these start once, and the other worker runs the rest.
    """
    for item in items:
        if item.get_closest_marker("e2e"):
            item.add_marker(pytest.mark.xdist_group("browser"))

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    """Path of a system Chromium binary, or None."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium"), shutil.which("chromium-browser")):
        if candidate and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _streamlit_python() -> str:
    venv_python = REPO_ROOT / ".venv" / "bin" / "python"
    return str(venv_python) if venv_python.exists() else sys.executable


@pytest.fixture(scope="session")
def repo_root() -> Path:
    """Absolute path of the repository root."""
    return REPO_ROOT


@pytest.fixture(scope="session")
def benchmark_data() -> Path:
    """The benchmark folder (``$RANKVIZ_BENCHMARK_DATA``); skips the test when it is missing."""
    if not BENCHMARK_DATA.is_dir():
        pytest.skip(f"benchmark files not available in {BENCHMARK_DATA} (set RANKVIZ_BENCHMARK_DATA)")
    return BENCHMARK_DATA


@pytest.fixture(scope="session")
def app_path() -> str:
    """Absolute path of the app's entry script (in the package), e.g. for ``AppTest.from_file(app_path)``
    (AppTest resolves relative paths against the *calling test file*)."""
    from rankviz.ui.app import main_script

    return str(main_script())


@pytest.fixture(scope="session")
def streamlit_server():
    """Start the app as users do (``rankviz app``) and yield its base URL."""
    with serve_app() as base_url:
        yield base_url


@pytest.fixture
def fresh_streamlit_server():
    """A server of its own for one test, for what only a first request shows."""
    with serve_app() as base_url:
        yield base_url


@contextlib.contextmanager
def serve_app(python: str | None = None, cwd: Path = REPO_ROOT, env: dict[str, str] | None = None):
    """Run ``python -m rankviz app`` on a free port until the block ends; yield its URL.

    ``python`` is the interpreter (by default the one of the tests' environment),
    ``cwd`` the working directory and ``env`` the environment of the server.
    """
    port = _free_port()
    base_url = f"http://127.0.0.1:{port}"
    log = tempfile.NamedTemporaryFile(prefix="streamlit-", suffix=".log", delete=False)
    cmd = [
        python or _streamlit_python(), "-m", "rankviz", "app",
        "--server.headless", "true",
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.fileWatcherType", "none",
    ]
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )

    def server_output() -> str:
        try:
            return Path(log.name).read_text(errors="replace")[-4000:]
        except OSError:
            return ""

    try:
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while True:
            if proc.poll() is not None:
                pytest.fail(f"streamlit exited with code {proc.returncode}:\n{server_output()}")
            try:
                with urllib.request.urlopen(f"{base_url}/_stcore/health", timeout=2) as resp:
                    if resp.status == 200 and resp.read().decode().strip() == "ok":
                        break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"streamlit did not become healthy within {SERVER_START_TIMEOUT:.0f}s:\n"
                            f"{server_output()}")
            time.sleep(0.25)
        yield base_url
    finally:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                try:
                    os.killpg(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                proc.wait(timeout=10)
        log.close()
        try:
            os.unlink(log.name)
        except OSError:
            pass


@pytest.fixture(scope="session")
def browser():
    """A Playwright Chromium browser (system Chromium, headless)."""
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no chromium binary found (/usr/bin/chromium); "
                    "install Debian's 'chromium' package (scripts/install_system_deps.sh) to run e2e tests")
    from playwright.sync_api import expect, sync_playwright

    # Page reruns after a click can take seconds on a busy machine (CI runs two workers on two cores): wait up to
    # 20 s in expect rather than Playwright's 5 s. A run that never comes still fails, 15 s later.
    expect.set_options(timeout=20_000)
    user_data_dir = tempfile.mkdtemp(prefix="rankviz-chromium-")
    with sync_playwright() as pw:
        b = pw.chromium.launch(
            executable_path=chromium,
            headless=True,
            args=CHROMIUM_ARGS,
            env={**os.environ, "HOME": user_data_dir},
        )
        try:
            yield b
        finally:
            b.close()
            expect.set_options(timeout=5_000)  # Playwright's default
    shutil.rmtree(user_data_dir, ignore_errors=True)


@pytest.fixture
def page(browser):
    """A fresh browser page (own context) for one test."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    pg = context.new_page()
    pg.set_default_timeout(30_000)
    try:
        yield pg
    finally:
        context.close()
