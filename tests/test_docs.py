"""The documentation site builds, warnings as errors, every gallery example run (``make docs``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]

pytest.importorskip("sphinx")
pytest.importorskip("sphinx_gallery")

# One build per session: the build writes its generated sources (autosummary pages, the
# gallery) into docs/, so two workers building at once would trip over each other.
pytestmark = pytest.mark.xdist_group("docs")


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """The site built as ``make docs`` builds it, from a copy of its sources, into a temporary folder.

    A build writes generated sources (autosummary pages, the gallery and the files its examples
    write) next to its sources: on a copy, builds never meet, neither each other nor a
    developer's ``make docs``.
    """
    root = tmp_path_factory.mktemp("repository")
    ignore = shutil.ignore_patterns("_build", "generated", "auto_examples", "_gallery_extra",
                                    "sg_execution_times.rst", "__pycache__")
    for folder in ("docs", "examples"):
        shutil.copytree(REPO / folder, root / folder, ignore=ignore)
    for page in ("README.md", "CHANGELOG.md"):  # included by the user guide and the changelog page
        shutil.copy(REPO / page, root / page)
    out = root / "html"
    result = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                             str(root / "docs"), str(out)], capture_output=True, text=True, timeout=1200,
                            cwd=root)
    # The first error is at the start of stderr (an example's traceback), the summary at its end.
    assert result.returncode == 0, result.stdout[-2000:] + "\n" + result.stderr[:8000] + "\n…\n" + result.stderr[-2000:]
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
