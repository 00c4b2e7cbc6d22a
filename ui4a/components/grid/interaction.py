"""The grid docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page


def interact(page: Page) -> None:
    boxes = [page.get_by_role("region", name=n).bounding_box() for n in ("Starter", "Team")]
    assert boxes[0] is not None and boxes[1] is not None
    assert boxes[0]["y"] == boxes[1]["y"] and boxes[0]["x"] < boxes[1]["x"]
