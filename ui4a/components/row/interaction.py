"""The row docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    back, forward = page.get_by_role("button", name="Back"), page.get_by_role("button", name="Next")
    back_box, next_box = back.bounding_box(), forward.bounding_box()
    assert back_box is not None and next_box is not None
    assert back_box["x"] < next_box["x"] and back_box["y"] == next_box["y"]
    forward.click()
    expect(page.get_by_text("Step 2")).to_be_visible()
