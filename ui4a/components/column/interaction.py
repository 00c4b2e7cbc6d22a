"""The column docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page


def interact(page: Page) -> None:
    main, side = page.get_by_text("Wide column."), page.get_by_text("Narrow column.")
    main_box, side_box = main.bounding_box(), side.bounding_box()
    assert main_box is not None and side_box is not None
    assert main_box["x"] < side_box["x"] and main_box["width"] > side_box["width"]
