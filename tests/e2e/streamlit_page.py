"""What the browser tests share about a Streamlit page: waiting for a run to finish, the current run's elements."""

from __future__ import annotations

from playwright.sync_api import Page


def wait_until_idle(page: Page, timeout: float = 30_000) -> None:
    """Wait until Streamlit is not running the script (no "Running…" status widget)."""
    page.wait_for_function(
        """() => {
            const widget = document.querySelector('[data-testid="stStatusWidget"]');
            return !widget || !(/running/i.test(widget.innerText)
                || widget.querySelector('[data-testid^="stStatusWidgetRunning"]'));
        }""",
        timeout=timeout)


def current(page: Page):
    """Elements of the latest run, to intersect locators with (``locator.and_(current(page))``).

    While a run replaces the page, Streamlit keeps the elements of the one
    before on screen, marked stale (``data-stale="true"``), so a locator could
    match an old and a new copy of the same element.
    """
    return page.locator('xpath=//*[not(ancestor-or-self::*[@data-stale="true"])]')
