"""What the browser tests share about a Streamlit page: waiting for a run to finish."""

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
