"""The documentation site builds, warnings as errors, every gallery example run (``make docs``)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytest.importorskip("sphinx")
pytest.importorskip("sphinx_gallery")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site built as ``make docs`` builds it, into a temporary folder."""
    out = tmp_path_factory.mktemp("site")
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                             str(REPO / "docs"), str(out)], capture_output=True, text=True, timeout=1200,
                            cwd=REPO)
    assert result.returncode == 0, (result.stdout[-3000:], result.stderr[-6000:])
    return out


def test_every_public_name_has_a_page(site):
    import rankviz

    pages = {p.stem for p in (site / "generated").glob("*.html")}
    # Every entry of the API reference (names under rankviz, as api.rst lists them) got its page.
    entries = re.findall(r"^   ([A-Za-z_][\w.]*)$", (REPO / "docs" / "api.rst").read_text(encoding="utf-8"), flags=re.M)
    assert len(entries) > 60
    assert [e for e in entries if f"rankviz.{e}" not in pages] == []
    # Every top-level name is documented, under rankviz.X or where it is defined.
    missing = [n for n in rankviz.__all__ if f"rankviz.{n}" not in pages and not any(p.endswith("." + n) for p in pages)]
    assert missing == []


def test_the_gallery_ran_its_examples_and_shows_their_figures(site):
    examples = sorted((REPO / "examples").glob("plot_*.py"))
    assert len(examples) >= 10
    for example in examples:
        page = (site / "auto_examples" / f"{example.stem}.html").read_text(encoding="utf-8")
        assert "sphx-glr-single-img" in page or "rv-gallery-frame" in page, f"{example.name} shows no figure"
    frames = list((site / "gallery").glob("*.html"))
    assert frames and (site / "gallery" / "plotly.min.js").exists() == any(
        "plotly.min.js" in f.read_text(encoding="utf-8") for f in frames)
    # The explorable trees in the site are the library's view, offline.
    trees = [f for f in frames if "tree" in f.stem]
    assert trees and all('id="rv-data"' in f.read_text(encoding="utf-8") for f in trees)


def test_the_site_fetches_nothing_from_a_cdn(site):
    for page in [site / "index.html", site / "user_guide" / "ranking_trees.html"]:
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"""<script[^>]+src=["']https?://""", text), page
    assert "mathjax/tex-svg.js" in (site / "user_guide" / "ranking_trees.html").read_text(encoding="utf-8")
