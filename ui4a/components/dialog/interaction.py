"""The dialog docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    page.get_by_role("button", name="Delete project").click()
    dialog = page.get_by_role("dialog", name="Delete this project?")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.get_by_role("button", name="Delete project").click()
    dialog.get_by_role("button", name="Delete").click()  # a list of actions: set, then close
    expect(dialog).to_be_hidden()
    expect(page.get_by_text("Project deleted.")).to_be_visible()
