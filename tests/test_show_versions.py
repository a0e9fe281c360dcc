"""rankviz.show_versions: what a bug report needs, read without importing the dependencies."""

import subprocess
import sys
from importlib import metadata

import numpy
import pandas
import sklearn

import rankviz
from rankviz.utils import show_versions


def sections(text):
    """{section: {name: value}} of show_versions' output."""
    found, current = {}, None
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            current = found.setdefault(line[:-1], {})
        elif line.strip() and current is not None:
            name, _, value = line.strip().partition(": ")
            current[name] = value
    return found


def test_show_versions_names_the_installed_versions(capsys):
    show_versions()
    found = sections(capsys.readouterr().out)
    assert list(found) == ["System", "rankviz", "Python dependencies", "Optional dependencies"]
    assert found["rankviz"]["rankviz"] == rankviz.__version__
    assert found["System"]["executable"] == sys.executable
    assert found["Python dependencies"]["numpy"] == numpy.__version__
    assert found["Python dependencies"]["pandas"] == pandas.__version__
    assert found["Python dependencies"]["scikit-learn"] == sklearn.__version__
    assert found["Python dependencies"]["numba"] == metadata.version("numba")
    assert found["Optional dependencies"]["streamlit"] == metadata.version("streamlit")
    assert found["rankviz"]["compile mode"] in {"background", "wait", "never"}


def test_show_versions_imports_none_of_them():
    code = ("import sys, rankviz; rankviz.show_versions(); "
            "print(sorted({'numba', 'streamlit', 'dask', 'plotly', 'lightgbm'} & set(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_a_missing_distribution_is_said_so(monkeypatch, capsys):
    from rankviz.utils import versions

    monkeypatch.setattr(versions, "OPTIONAL", ("no-such-distribution-for-rankviz",))
    show_versions()
    assert sections(capsys.readouterr().out)["Optional dependencies"] == {
        "no-such-distribution-for-rankviz": "not installed"}
