"""The button docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    details = page.get_by_text("Here are the details.")
    toggle = page.get_by_role("button", name="Show details")
    expect(details).to_be_hidden()
    toggle.click()
    expect(details).to_be_visible()
    toggle.focus()
    page.keyboard.press("Enter")
    expect(details).to_be_hidden()
