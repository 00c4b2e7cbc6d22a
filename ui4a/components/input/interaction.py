"""The input docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    field = page.get_by_label("Email")
    expect(field).to_have_attribute("type", "email")
    expect(field).to_have_attribute("placeholder", "you@example.com")
    field.fill("ada@example.com")
    expect(field).to_have_value("ada@example.com")
