"""Keep Streamlit's navigation the app's own when a page's URL is opened first.

Streamlit decides per server process whether an app uses the old ``pages/``
directory: until some run has called ``st.navigation``, it assumes so. On a
freshly started server, opening a page's URL directly (a shared link, say)
then runs that page file alone, with the old automatic navigation and without
``app.py``'s page setup. ``app.py`` marks the session with
:func:`mark_app_navigation`; each page calls :func:`require_app_navigation`
first, which, in a session ``app.py`` has not run in yet, clears Streamlit's
assumption and reruns, so ``app.py`` runs and routes the URL to the page.
(Streamlit 1.67; the flag is internal.)
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.pages_manager import PagesManager

_MARK = "_rankviz_app_navigation"


def mark_app_navigation() -> None:
    """Called by ``app.py``: this session runs through the app's own navigation."""
    st.session_state[_MARK] = True


def require_app_navigation() -> None:
    """Rerun through ``app.py`` if Streamlit ran this page file on its own."""
    if PagesManager.uses_pages_directory and not st.session_state.get(_MARK):
        PagesManager.uses_pages_directory = False
        st.rerun()
