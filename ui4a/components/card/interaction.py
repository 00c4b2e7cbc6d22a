"""The card docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    card = page.get_by_role("region", name="Profile")
    expect(card.get_by_text("Cards group related content.")).to_be_visible()
