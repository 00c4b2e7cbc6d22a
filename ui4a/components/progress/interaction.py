"""The progress docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    bar = page.get_by_role("progressbar")
    expect(page.get_by_label("Onboarding, step 2 of 5")).to_have_attribute("max", "5")
    assert bar.evaluate("p => p.value") == 2
    page.get_by_role("button", name="Complete a step").click()
    assert bar.evaluate("p => p.value") == 3
    expect(page.get_by_text("60%")).to_be_visible()
    # The label's `{done}` follows the state, and still names the bar.
    expect(page.get_by_label("Onboarding, step 3 of 5")).to_have_js_property("value", 3)
