"""Opening the app's pages in Streamlit's AppTest, and the check every page test makes."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def ok(at: AppTest) -> None:
    """No exception and no error box on the page."""
    assert not at.exception, at.exception
    assert not at.error, [e.value for e in at.error]


def open_page(app_path, page: str | None = None, *, timeout: float = 180, **query: str) -> AppTest:
    """The app run once on ``page`` (the default page if None), with ``query`` as its link's parameters.

    Only an exception fails here: some tests open a page to see its error box.
    """
    at = AppTest.from_file(app_path, default_timeout=timeout)
    at.query_params.update(query)
    if page is not None:
        at.switch_page(page)
    at.run()
    assert not at.exception, at.exception
    return at


def open_tab(at: AppTest, key: str, label: str) -> AppTest:
    """Open the tab ``label`` of the tabs ``key`` and run: only an open tab is computed and drawn."""
    at.session_state[key] = label
    at.run()
    assert not at.exception, at.exception
    return at
