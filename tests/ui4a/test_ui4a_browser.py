"""The view in a real browser: bindings, actions, CSP, and streaming patches that keep focus."""

from __future__ import annotations

import html
import json
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect

from ui4a import parse_partial, render_body, render_document

pytestmark = pytest.mark.browser


def test_it_binds_inputs_and_runs_actions(
    page: Page, errors: list[str], signup: dict[str, Any]
) -> None:
    page.set_content(render_document(signup))
    welcome = page.get_by_text("Welcome, Ada!")
    page.get_by_label("Name").fill("Ada")
    assert welcome.is_hidden()
    page.get_by_label("I accept the terms").check()
    page.get_by_role("button", name="Sign up").click()
    expect(welcome).to_be_visible()
    page.screenshot(path="/tmp/ui4a-signup.png", full_page=True)
    assert errors == []


def test_it_blocks_network_access_from_the_view(page: Page, signup: dict[str, Any]) -> None:
    # Were CSP missing, this route would answer the fetch; it must never be reached.
    hits: list[str] = []

    def answer(route: Route) -> None:
        hits.append(route.request.url)
        route.fulfill(body="ok")

    page.route("**/*", answer)
    page.set_content(render_document(signup))
    result = page.evaluate(
        """async () => {
            const violations = [];
            document.addEventListener("securitypolicyviolation",
                e => violations.push(e.effectiveDirective));
            let outcome;
            try { await fetch("https://example.test/steal"); outcome = "fetched"; }
            catch (err) { outcome = "blocked"; }
            await new Promise(r => setTimeout(r, 50));
            return {outcome, violations};
        }"""
    )
    assert result == {"outcome": "blocked", "violations": ["connect-src"]}
    assert not [url for url in hits if "example.test" in url]


def test_it_keeps_focus_and_typed_text_while_streaming(page: Page, signup_text: str) -> None:
    shell = render_document(None)
    page.set_content(
        f'<iframe sandbox="allow-scripts" title="view" srcdoc="{html.escape(shell)}"></iframe>'
    )
    frame = page.frame_locator("iframe")
    view = page.frames[1]
    view.wait_for_function("() => typeof Idiomorph !== 'undefined'")

    def stream_to(end: int) -> None:
        spec = parse_partial(signup_text[:end])
        message = {
            "type": "ui4a.render",
            "html": render_body(spec, partial=True),
            "state": (spec or {}).get("state", {}),
        }
        page.evaluate(
            "m => document.querySelector('iframe').contentWindow.postMessage(m, '*')", message
        )

    name_done = signup_text.index('"bind":"name"}') + len('"bind":"name"}')
    for end in range(0, name_done + 1, 40):
        stream_to(end)
    stream_to(name_done)
    name = frame.get_by_label("Name")
    name.click()
    typed = "Gr"
    name.press_sequentially(typed)
    # Keep typing while the rest of the spec (including its empty "name" state) streams in.
    for step, end in enumerate(range(name_done, len(signup_text) + 1, 25)):
        stream_to(end)
        letter = "ace Hopper"[step % 10]
        name.press_sequentially(letter)
        typed += letter
    stream_to(len(signup_text))
    expect(name).to_be_focused()
    expect(name).to_have_value(typed)
    frame.get_by_label("Email").fill("grace@example.com")
    frame.get_by_role("button", name="Sign up").click()
    expect(frame.get_by_text(f"Welcome, {typed}!")).to_be_visible()


def test_it_posts_state_to_the_parent(page: Page, signup: dict[str, Any]) -> None:
    doc = render_document(signup)
    page.set_content(
        "<script>window.got = []; addEventListener('message', e => got.push(e.data));</script>"
        f'<iframe sandbox="allow-scripts" srcdoc="{html.escape(doc)}"></iframe>'
    )
    page.wait_for_function("() => window.got.some(m => m.type === 'ui4a.ready')")
    page.frame_locator("iframe").get_by_label("Email").fill("a@b.c")
    page.wait_for_function("() => window.got.some(m => m.type === 'ui4a.state')")
    states = page.evaluate("() => window.got.filter(m => m.type === 'ui4a.state')")
    assert states[-1]["state"]["email"] == "a@b.c"
    assert json.dumps(states[-1]["state"]["terms"]) == "false"


def test_a_password_never_leaves_the_view(page: Page) -> None:
    """Password values were posted to the parent page (and shown in the studio's view-state
    panel): now neither the state messages nor a form's submit carry them."""
    fields = [
        {"t": "input", "label": "User", "bind": "user"},
        {"t": "input", "label": "Password", "bind": "pw", "kind": "password"},
    ]
    spec = {
        "root": {"t": "page", "c": [{"t": "form", "submit": "Sign in", "c": fields}]},
        "state": {"user": "", "pw": "hunter2-initial"},
    }
    doc = render_document(spec)
    page.set_content(
        "<script>window.got = []; addEventListener('message', e => got.push(e.data));</script>"
        f'<iframe sandbox="allow-scripts allow-forms" srcdoc="{html.escape(doc)}"></iframe>'
    )
    page.wait_for_function("() => window.got.some(m => m.type === 'ui4a.ready')")
    frame = page.frame_locator("iframe")
    frame.get_by_label("Password").fill("hunter2-typed")
    frame.get_by_label("User").fill("ada")
    frame.get_by_role("button", name="Sign in").click()
    page.wait_for_function("() => window.got.some(m => m.type === 'ui4a.submit')")
    sent = json.dumps(page.evaluate("() => window.got"))
    assert "hunter2" not in sent and '"user": "ada"' in sent


def test_a_catastrophic_pattern_does_not_freeze_the_view(page: Page) -> None:
    """`(a|a)*b` against forty typed characters froze the view for seconds on submit: the
    renderer now leaves such a pattern out (validation reports it), so submit answers at once."""
    field = {"t": "input", "label": "Code", "bind": "code", "pattern": "(a|a)*b"}
    spec = {
        "root": {"t": "page", "c": [{"t": "form", "submit": "Send", "c": [field]}]},
        "state": {"code": ""},
    }
    doc = html.escape(render_document(spec))
    page.set_content(
        "<script>window.got = []; addEventListener('message', e => got.push(e.data));</script>"
        f'<iframe sandbox="allow-scripts allow-forms" srcdoc="{doc}"></iframe>'
    )
    page.wait_for_function("() => window.got.some(m => m.type === 'ui4a.ready')")
    frame = page.frame_locator("iframe")
    frame.get_by_label("Code").fill("a" * 40)
    frame.get_by_role("button", name="Send").click()
    page.wait_for_function("() => window.got.some(m => m.type === 'ui4a.submit')", timeout=3000)
