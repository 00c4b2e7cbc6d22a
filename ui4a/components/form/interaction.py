"""The form docs example in a real browser: what a user does with it (run by
tests/ui4a/test_ui4a_components_browser.py)."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def interact(page: Page) -> None:
    submit = page.get_by_role("button", name="Create account")
    submit.click()
    assert page.get_by_text("This field is required.").count() == 2
    page.get_by_label("Email").fill("not-an-email")
    page.get_by_label("Password").fill("short")
    page.get_by_label("Age").fill("12")
    submit.click()
    expect(page.get_by_text("Enter a valid email address.")).to_be_visible()
    expect(page.get_by_text("Use at least 8 characters.")).to_be_visible()
    expect(page.get_by_text("Must be at least 18.")).to_be_visible()
    expect(page.get_by_label("Email")).to_have_attribute("aria-invalid", "true")
    page.get_by_label("Email").fill("ada@example.com")
    page.get_by_label("Password").fill("long enough")
    page.get_by_label("Age").fill("36")
    submit.click()
    expect(page.get_by_text("Welcome aboard, ada@example.com!")).to_be_visible()
