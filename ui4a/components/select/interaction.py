"""The select docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    page.get_by_label("Region").select_option("Asia")
    expect(page.get_by_text("Showing Asia")).to_be_visible()
