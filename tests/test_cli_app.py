"""``rankviz app``: the app's entry in the package, Streamlit's options passed on, a clear word without Streamlit.

That the app starts and answers is tested in a browser: from the checkout (tests/e2e, whose
server is ``python -m rankviz app``) and from a fresh install with the ``app`` extra
(tests/test_package.py).
"""

import importlib.util
import subprocess
import sys

import rankviz.cli as cli
from rankviz.ui.app import main_script


def test_the_entry_and_its_pages_are_in_the_package():
    entry = main_script()
    assert entry.is_file() and entry.parent.name == "app" and "rankviz" in entry.parts
    pages = {p.name for p in (entry.parent / "app_pages").glob("*.py")} - {"__init__.py"}
    assert pages == {"ranking_trees.py", "side_by_side.py", "impurity_vs_gini.py", "mallows_trees.py",
                     "ranking_forest.py", "mpboost.py", "benchmark.py"}
    # Every page is listed in the navigation, and no pages/ folder sits beside the entry.
    source = entry.read_text(encoding="utf-8")
    assert all(f'"app_pages/{name}"' in source for name in pages)
    assert not (entry.parent / "pages").exists()
    assert (entry.parent / ".streamlit" / "config.toml").is_file()


def test_streamlit_options_go_to_streamlit_run(monkeypatch):
    started = []
    monkeypatch.setattr(subprocess, "call", lambda command: started.append(command) or 0)
    assert cli.main(["app", "--server.port", "8600", "--server.headless", "true"]) == 0
    (command,) = started
    assert command[:5] == [sys.executable, "-m", "streamlit", "run", str(main_script())]
    assert command[-4:] == ["--server.port", "8600", "--server.headless", "true"]


def test_other_commands_still_refuse_unknown_options(capsys):
    try:
        cli.main(["warm-up", "--server.port", "8600"])
    except SystemExit as exit_:
        assert exit_.code == 2
    assert "unrecognized arguments: --server.port 8600" in capsys.readouterr().err


def test_without_streamlit_it_says_which_extra_to_install(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *args: None if name == "streamlit" else real(name, *args))
    assert cli.main(["app"]) == 2
    assert 'rankviz app: error: the app needs Streamlit: pip install "rankviz[app]"' in capsys.readouterr().err
