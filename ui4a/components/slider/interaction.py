"""The slider docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    slider = page.get_by_label("Seats")
    slider.focus()
    page.keyboard.press("ArrowRight")
    expect(page.get_by_text("Total: 6 seats")).to_be_visible()
