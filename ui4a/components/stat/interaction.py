"""The stat docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    expect(page.get_by_text("$48.2k")).to_be_visible()
    expect(page.get_by_text("1893")).to_be_visible()
    expect(page.locator(".u4-delta-good")).to_have_count(2)  # +12.5% revenue, -0.4% churn
    expect(page.locator(".u4-delta-bad")).to_contain_text("Down")
