"""The Streamlit app: its entry script, its pages and its settings, inside the package.

* ``main.py`` -- the entry: page setup and the navigation (``st.navigation``);
* ``app_pages/`` -- one thin script per page, built from the widgets of
  :mod:`rankviz.ui`;
* ``.streamlit/config.toml`` -- the app's Streamlit settings, which Streamlit
  reads for this entry from wherever it is installed.

``rankviz app`` (:mod:`rankviz.cli`) runs ``streamlit run`` on :func:`main_script`;
Streamlit's ``AppTest.from_file(str(main_script()))`` runs it in tests.
Importing this package does not import Streamlit.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["main_script"]


def main_script() -> Path:
    """The path of the app's entry script (``main.py`` of this package)."""
    return Path(__file__).resolve().with_name("main.py")
