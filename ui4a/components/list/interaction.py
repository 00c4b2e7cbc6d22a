"""The list docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    items = page.get_by_role("listitem")
    expect(items).to_have_count(2)
    expect(page.get_by_label("Write the spec")).to_be_checked()
    page.get_by_label("Ship the renderer").check()
    page.get_by_label("New task").fill("Celebrate")
    page.get_by_role("button", name="Add task").click()
    expect(items).to_have_count(3)
    expect(page.get_by_label("Celebrate")).not_to_be_checked()
    expect(page.get_by_label("New task")).to_have_value("")  # the second action reset it
    expect(page.get_by_label("Ship the renderer")).to_be_checked()
    items.nth(0).get_by_role("button", name="Remove").click()
    expect(items).to_have_count(2)
    expect(page.get_by_label("Write the spec")).to_have_count(0)
