"""Settings shared by the browser tests."""

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect  # noqa: E402


@pytest.fixture(autouse=True, scope="module")
def patient_expect():
    """Page reruns after a click can take seconds on a busy machine (CI runs two workers on two cores): wait up
    to 20 s in ``expect`` rather than Playwright's 5 s. A run that never comes still fails, 15 s later."""
    expect.set_options(timeout=20_000)
    yield
    expect.set_options(timeout=5_000)  # Playwright's default
