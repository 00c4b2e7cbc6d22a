"""The accordion docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    answer = page.get_by_text("Yes: model output is data, never code.")
    expect(answer).to_be_hidden()
    page.get_by_text("Is it safe?").click()
    expect(answer).to_be_visible()
