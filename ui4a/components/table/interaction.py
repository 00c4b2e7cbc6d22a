"""The table docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    table = page.get_by_role("table", name="Orders")
    rows = table.get_by_role("row")
    expect(rows).to_have_count(5)  # a header row and one page of four
    expect(page.get_by_text("1\u20134 of 6")).to_be_visible()
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_text("5\u20136 of 6")).to_be_visible()
    page.get_by_role("button", name="Total").click()
    expect(page.get_by_role("columnheader", name="Total")).to_have_attribute(
        "aria-sort", "ascending"
    )
    expect(rows.nth(1)).to_contain_text("Alan Turing")
    page.get_by_role("button", name="Total").click()
    expect(rows.nth(1)).to_contain_text("Katherine Johnson")
    page.get_by_label("Status").select_option("Open")
    expect(page.get_by_text("1\u20132 of 2")).to_be_visible()
    page.get_by_label("Search Orders").fill("grace")
    expect(page.get_by_text("1\u20131 of 1")).to_be_visible()
    expect(rows.nth(1)).to_contain_text("Grace Hopper")
