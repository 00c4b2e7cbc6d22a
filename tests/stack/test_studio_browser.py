"""The walking skeleton, as a designer uses it: Debian's Chromium against the real stack."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import FrameLocator, Page, expect

from studio.stack import Stack

pytestmark = [pytest.mark.stack, pytest.mark.browser]

SIGNUP = "a signup form with name, email, a password and a terms checkbox"


def open_studio(page: Page, stack: Stack) -> FrameLocator:
    page.goto(stack.signin_url("ada"))  # signs this browser in, onto the projects page
    page.get_by_role("button", name="New project").click()
    expect(page).to_have_url(re.compile(r"/p/[0-9a-f-]{36}/$"))
    expect(page.get_by_role("status").filter(has_text="Connected")).to_be_visible()
    return page.frame_locator("iframe[title=Preview]")


def generate(page: Page, prompt: str, expert: str = "ui") -> None:
    page.get_by_label("Describe the interface").fill(prompt)
    page.get_by_label("Expert", exact=True).select_option(expert)
    page.get_by_role("button", name="Generate").click()


def fill_validly(view: FrameLocator) -> None:
    """Type a valid value into every field and tick every box, whatever the expert wrote."""
    for box in view.get_by_role("textbox").all():
        kind = box.get_attribute("type") or "text"
        box.fill({"email": "ada@example.com", "password": "correct-horse-42"}.get(kind, "Ada"))
    for box in view.get_by_role("checkbox").all():
        box.check()


def test_a_prompt_becomes_a_live_interactive_view_that_survives_a_reload(
    page: Page, stack: Stack
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    preview = open_studio(page, stack)
    generate(page, SIGNUP)

    views: list[str] = []
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline:
        status = page.locator("#status").inner_text()
        html = preview.locator("#ui4a-root").inner_html()
        if html and (not views or views[-1] != html):
            views.append(html)
        if status.startswith(("Done", "Generation failed")):
            break
        time.sleep(0.05)
    page.screenshot(path="test-artifacts/studio-streamed.png")
    assert status.startswith("Done"), status
    assert len(views) >= 3, f"the preview should change at least twice while streaming {errors}"

    # The finished view is interactive through its own state: filled in validly (the trained
    # expert marks fields required and checks emails and password lengths) and submitted.
    root = preview.locator("#ui4a-root")
    state = page.get_by_label("View state")
    before = root.inner_text()
    fill_validly(preview)
    expect(state).to_contain_text(re.compile("ada", re.IGNORECASE))  # the frame reports its state
    state_after_typing = state.inner_text()
    preview.get_by_role("button").last.click()
    expect(state).not_to_have_text(state_after_typing)
    expect(root).not_to_have_text(before)  # and the view shows it
    page.screenshot(path="test-artifacts/studio-after-interaction.png")

    # Reload: the project URL brings the finished result back.
    assert re.search(r"/p/[0-9a-f-]{36}/$", page.url)
    page.reload()
    expect(preview.get_by_role("button").first).to_be_visible()
    # The prompt is in the transcript now, as the label of the first version.
    expect(page.get_by_role("region", name="Versions")).to_contain_text(SIGNUP)
    expect(page.locator("#status")).to_contain_text("Done")
    assert errors == []


def test_bad_input_is_shown_in_the_studio_and_the_connection_stays_usable(
    page: Page, stack: Stack
) -> None:
    open_studio(page, stack)
    generate(page, "   ")
    expect(page.get_by_role("alert")).to_contain_text("Describe the interface")
    generate(page, "x" * 2500)
    expect(page.get_by_role("alert")).to_contain_text("limit is 2000")
    # Hand-crafted frames, as a broken or hostile client would send them.
    page.evaluate(
        """() => new Promise((resolve) => {
            const ws = new WebSocket(location.origin.replace("http", "ws") + "/ws/studio/");
            const replies = [];
            ws.onmessage = (e) => { replies.push(JSON.parse(e.data)); if (replies.length === 2) {
                window.__replies = replies; resolve(); } };
            ws.onopen = () => { ws.send("{broken"); ws.send(JSON.stringify(
                {type: "generate", prompt: "a form", expert: "astrologer"})); };
        })"""
    )
    codes = page.evaluate("() => window.__replies.map((r) => r.code)")
    assert codes == ["bad_message", "unknown_expert"]
    generate(page, "Say hello", expert="chat")
    expect(page.locator("#status")).to_contain_text("Done", timeout=120_000)
    expect(page.get_by_role("alert")).to_be_hidden()


def test_the_preview_is_sandboxed_with_no_network(page: Page, stack: Stack) -> None:
    open_studio(page, stack)
    sandbox = page.locator("iframe[title=Preview]").get_attribute("sandbox") or ""
    assert "allow-scripts" in sandbox.split()
    assert "allow-same-origin" not in sandbox.split()
    frame = next(f for f in page.frames if f != page.main_frame)
    top_access = frame.evaluate(
        "() => { try { return window.top.document.title; }"
        " catch (e) { return 'blocked: ' + e.name; } }"
    )
    assert top_access.startswith("blocked")
    fetched = frame.evaluate(
        f"""() => fetch("{stack.url}/healthz").then(() => "fetched", (e) => "blocked: " + e.name)"""
    )
    assert fetched.startswith("blocked")
