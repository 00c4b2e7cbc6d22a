"""The markdown docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    expect(page.get_by_role("heading", name="Release notes")).to_be_visible()
    expect(page.locator("strong")).to_have_text("tables")
    expect(page.get_by_role("listitem")).to_have_count(2)
    link = page.get_by_role("link", name="guide")
    expect(link).to_have_attribute("href", "https://example.com/guide")
    link.click()  # the frame never navigates away
    expect(page.get_by_role("heading", name="Release notes")).to_be_visible()
