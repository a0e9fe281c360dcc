"""The package is typed (``py.typed``, "Typing :: Typed"): mypy finds no error in it.

mypy runs as a user's type checker would, with the configuration in
pyproject.toml (``[tool.mypy]``: the package, less its Numba kernels, and
third-party packages without annotations read as ``Any``), from the
repository's root and with a cache of its own, so that it starts cold, as on
a fresh clone, and leaves nothing in the checkout.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_errors(tmp_path):
    pytest.importorskip("mypy")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(REPO / "pyproject.toml"),
         "--cache-dir", str(tmp_path / "mypy_cache"), "--no-color-output"],
        cwd=REPO, capture_output=True, text=True, timeout=240,
    )
    output = (result.stdout + result.stderr).strip()
    assert result.returncode == 0, f"mypy (exit code {result.returncode}) reports:\n{output}"
