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


class RunLog:
    """The script runs the server reports to a page: full-page runs and fragment runs, in order.

    Read from the real protocol: every run ends with a ``script_finished``
    ForwardMsg on the page's websocket, ``FINISHED_SUCCESSFULLY`` for a run of
    the whole page and ``FINISHED_FRAGMENT_RUN_SUCCESSFULLY`` for a fragment.
    Attach before ``page.goto`` (the websocket opens with the page).
    """

    def __init__(self, page: Page) -> None:
        from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

        self._message = ForwardMsg
        self.runs: list[str] = []
        #: ``(element type, label)`` of every element the server sent, in order.
        self.elements: list[tuple[str, str]] = []
        page.on("websocket", lambda ws: ws.on("framereceived", self._frame))

    def _frame(self, payload) -> None:
        if isinstance(payload, str):
            return
        msg = self._message()
        try:
            msg.ParseFromString(payload)
        except Exception:  # noqa: BLE001 — not a ForwardMsg (none expected)
            return
        if msg.WhichOneof("type") == "delta" and msg.delta.WhichOneof("type") == "new_element":
            kind = msg.delta.new_element.WhichOneof("type")
            self.elements.append((kind, getattr(getattr(msg.delta.new_element, kind), "label", "")))
        if msg.WhichOneof("type") == "script_finished":
            status = msg.script_finished
            if status == self._message.FINISHED_SUCCESSFULLY:
                self.runs.append("page")
            elif status == self._message.FINISHED_FRAGMENT_RUN_SUCCESSFULLY:
                self.runs.append("fragment")

    def count(self, kind: str) -> int:
        """How many runs of ``kind`` (``"page"`` or ``"fragment"``) finished so far."""
        return self.runs.count(kind)
