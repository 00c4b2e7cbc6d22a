"""The stack docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page


def interact(page: Page) -> None:
    first, second = page.get_by_text("First"), page.get_by_text("Second")
    first_box, second_box = first.bounding_box(), second.bounding_box()
    assert first_box is not None and second_box is not None
    assert first_box["y"] < second_box["y"]
