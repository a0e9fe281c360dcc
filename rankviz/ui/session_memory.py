"""The memory one fit of the app may take: a share of the library's budget, so sessions coexist."""

from __future__ import annotations

import os

import streamlit as st

from .. import default_max_memory, set_config

#: A fit in the app may take this share of what a fit outside it may
#: (:func:`rankviz.default_max_memory`): several sessions share one server,
#: and one large upload must not starve the others.
SESSION_SHARE = 0.25


@st.cache_resource(show_spinner=False)
def limit_session_memory() -> int:
    """Set ``max_memory`` for the app's fits once per server; returns it in bytes.

    ``RANKVIZ_MAX_MEMORY`` in the environment wins (read by :mod:`rankviz` at
    import), so a deployment can choose its own limit.
    """
    from .. import get_config

    if os.environ.get("RANKVIZ_MAX_MEMORY"):
        return int(get_config()["max_memory"])
    limit = int(SESSION_SHARE * default_max_memory())
    set_config(max_memory=limit)
    return limit
