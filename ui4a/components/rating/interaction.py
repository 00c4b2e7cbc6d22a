"""The rating docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    group = page.get_by_role("radiogroup", name="Rate this recipe")
    expect(group.get_by_role("radio")).to_have_count(5)
    three = group.get_by_role("radio", name="3 stars")
    expect(three).to_be_checked()
    expect(page.get_by_text("You gave it 3 of 5 stars.")).to_be_visible()
    group.get_by_role("radio", name="5 stars").click()
    expect(group.get_by_role("radio", name="5 stars")).to_be_checked()
    expect(three).not_to_be_checked()
    expect(page.get_by_text("You gave it 5 of 5 stars.")).to_be_visible()
    page.keyboard.press("ArrowLeft")  # arrow keys move the pick, and the focus with it
    four = group.get_by_role("radio", name="4 stars")
    expect(four).to_be_focused()
    expect(four).to_be_checked()
    expect(page.get_by_text("You gave it 4 of 5 stars.")).to_be_visible()
    page.keyboard.press("Home")
    expect(group.get_by_role("radio", name="1 star", exact=True)).to_be_checked()
    expect(page.get_by_text("You gave it 1 of 5 stars.")).to_be_visible()
    page.keyboard.press("Shift+Tab")  # one tab stop for the whole group: the picked star
    page.keyboard.press("Tab")
    expect(group.get_by_role("radio", name="1 star", exact=True)).to_be_focused()
    expect(group.get_by_role("radio", name="2 stars")).to_have_attribute("tabindex", "-1")
