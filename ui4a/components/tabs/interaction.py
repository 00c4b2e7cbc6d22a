"""The tabs docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    overview = page.get_by_role("tab", name="Overview")
    expect(overview).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel")).to_have_text("Everything at a glance.")
    page.get_by_role("tab", name="Settings").click()
    expect(page.get_by_role("tabpanel")).to_have_text("Change how it works.")
    page.keyboard.press("ArrowLeft")  # arrow keys move between tabs
    expect(overview).to_be_focused()
    expect(page.get_by_role("tabpanel")).to_have_text("Everything at a glance.")
    page.get_by_role("button", name="Go to settings").click()  # the "tab" action
    expect(page.get_by_role("tab", name="Settings")).to_have_attribute("aria-selected", "true")
