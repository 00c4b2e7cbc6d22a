"""The textarea docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    message = page.get_by_label("Message")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("This field is required.")).to_be_visible()
    expect(message).to_be_focused()
    message.fill("Too short")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("Use at least 10 characters.")).to_be_visible()
    message.fill("Long enough now")
    page.get_by_role("button", name="Send").click()
    expect(page.get_by_text("Sent: Long enough now")).to_be_visible()
