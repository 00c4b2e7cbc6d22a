"""The switch docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    switch = page.get_by_role("switch", name="Email notifications")
    switch.focus()
    page.keyboard.press("Space")
    expect(switch).to_be_checked()
    expect(page.get_by_text("Notifications are on.")).to_be_visible()
