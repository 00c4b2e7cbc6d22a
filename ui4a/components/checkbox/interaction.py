"""The checkbox docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    thanks = page.get_by_text("Thanks, we will keep you posted.")
    expect(thanks).to_be_hidden()
    page.get_by_label("Email me updates").check()
    expect(thanks).to_be_visible()
    page.get_by_text("Email me updates").click()  # the label toggles it too
    expect(thanks).to_be_hidden()
