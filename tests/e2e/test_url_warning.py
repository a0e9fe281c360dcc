"""A link's rejected values are shown as text in the browser: no address in them becomes a live link.

GitHub-flavoured Markdown (remark-gfm, in Streamlit) links bare ``http://``,
``www.`` and e-mail addresses after the backslash escapes are resolved, so
escaping alone let them through (issue 35: three live links in the warning);
:func:`rankviz.safe_text.markdown_escape` breaks the patterns with an
invisible word joiner.
"""

from __future__ import annotations

import urllib.parse

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import Page, expect  # noqa: E402

from rankviz.ui.data_picker import dataset_url_field  # noqa: E402
from rankviz.ui.tree_panel import tree_url_fields  # noqa: E402

pytestmark = pytest.mark.e2e


def test_addresses_in_rejected_link_values_are_not_links(streamlit_server, page: Page):
    params = {f.key: f.param for f in tree_url_fields()}
    values = {dataset_url_field().param: "www.evil.example", params["tree_min_leaf"]: "http://evil.example/x",
              params["tree_gamma"]: "me@evil.example"}
    page.goto(f"{streamlit_server}/?{urllib.parse.urlencode(values)}", timeout=60_000)
    warning = page.get_by_test_id("stAlertContentWarning").filter(has_text="The link's settings")
    expect(warning).to_be_visible(timeout=60_000)
    for value in values.values():  # shown as written (the joiner is invisible)
        expect(warning).to_contain_text(value.replace("@", "@\u2060").replace("www.", "www\u2060.")
                                        .replace("http:", "http\u2060:"))
    expect(warning.locator("a")).to_have_count(0)
