"""Sphinx configuration of the rankviz documentation (``make docs``)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import rankviz

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(DOCS))  # gallery_scraper, named in sphinx_gallery_conf

project = "rankviz"
author = "The rankviz developers"
copyright = "2026, the rankviz developers (BSD-3-Clause)"
release = version = rankviz.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_gallery_extra", "_inventories", "**.ipynb_checkpoints", "auto_examples/*.ipynb",
                    "auto_examples/*.py", "auto_examples/*.zip", "auto_examples/*.json"]
templates_path = ["_templates"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
myst_heading_anchors = 3
suppress_warnings = ["myst.header"]

# API reference: one page per public name, with numpydoc sections.
autosummary_generate = True
# scikit-learn's metadata-routing setters are generated on every estimator: its own docs describe them.
autodoc_default_options = {
    "members": True, "show-inheritance": False,
    "exclude-members": "set_fit_request, set_predict_request, set_score_request, set_transform_request, "
                       "get_metadata_routing, set_output",
}
autodoc_typehints = "none"        # numpydoc's Parameters say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

# Offline (the build machines of this project are), each inventory falls back to an empty
# one: the links to numpy, scipy, scikit-learn and pandas are then plain text, not an error.
_OFFLINE = str(DOCS / "_inventories" / "empty.inv")
intersphinx_mapping = {
    "python": ("https://docs.python.org/3", (None, _OFFLINE)),
    "numpy": ("https://numpy.org/doc/stable/", (None, _OFFLINE)),
    "scipy": ("https://docs.scipy.org/doc/scipy/", (None, _OFFLINE)),
    "sklearn": ("https://scikit-learn.org/stable/", (None, _OFFLINE)),
    "pandas": ("https://pandas.pydata.org/docs/", (None, _OFFLINE)),
}
intersphinx_timeout = 5

# MathJax is served by the site itself (docs/_static/mathjax), not fetched from a CDN.
mathjax_path = "mathjax/tex-svg.js"

html_theme = "pydata_sphinx_theme"
html_title = f"rankviz {release}"
html_static_path = ["_static"]
html_extra_path = ["_gallery_extra"]  # the gallery's trees and charts, as HTML files
html_theme_options = {
    "navigation_with_keys": True,
    "show_toc_level": 2,
    "footer_start": ["copyright"],
    "secondary_sidebar_items": ["page-toc"],
}
html_context = {"default_mode": "light"}

# The gallery: every example is run at each build, so an example that breaks fails the build.
# Examples write their figures as files (SVG, or HTML for the explorable tree and plotly
# charts); the scraper moves them into the site.
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "image_scrapers": ("gallery_scraper",),
    "backreferences_dir": "generated/backreferences",
    "doc_module": ("rankviz",),
    "capture_repr": (),
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "abort_on_example_error": True,
    "plot_gallery": "True",
    "show_memory": False,
}


def _clean_gallery_extra(app, config):
    # Generated sources of an earlier build (pages of names since renamed, the gallery's
    # files) would be built again and warn: every build starts from the sources alone.
    # sphinx-gallery would also skip examples it ran before: run them all, every build.
    for generated in ("_gallery_extra", "generated", "auto_examples"):
        shutil.rmtree(DOCS / generated, ignore_errors=True)
    (DOCS / "_gallery_extra" / "gallery").mkdir(parents=True)


def setup(app):
    app.connect("config-inited", _clean_gallery_extra, priority=100)
