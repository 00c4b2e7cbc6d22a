"""The radio docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    expect(page.get_by_role("radio", name="Free")).to_be_checked()
    page.get_by_role("radio", name="Team").check()
    expect(page.get_by_text("You chose Team.")).to_be_visible()
