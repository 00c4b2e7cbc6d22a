"""Hostile strings in every field of every kind of component, in a real browser: no script
runs, no request leaves the view, and the text stays text."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, Request

from ui4a import render_document

pytestmark = pytest.mark.browser

BAD = [
    "<script>window.pwned=1</script>",
    "<img src=https://evil.test/x onerror=window.pwned=1>",
    "javascript:window.pwned=1",
    '" onmouseover="window.pwned=1" x="',
    "&lt;script&gt;window.pwned=1&lt;/script&gt;",
    "<svg onload=window.pwned=1>",
    "</style><script>window.pwned=1</script>",
]


def hostile_spec(bad: str) -> dict[str, Any]:
    md = f"{bad} [x](javascript:window.pwned=1) ![i](https://evil.test/i.png) <iframe src=x>"
    row = {"a": bad, "n": 1}
    return {
        "title": bad,
        "root": {
            "t": "page",
            "title": bad,
            "c": [
                {"t": "markdown", "md": md},
                {"t": "image", "src": bad, "alt": bad},
                {"t": "image", "src": "javascript:window.pwned=1", "alt": "x"},
                {"t": "badge", "text": bad},
                {"t": "alert", "title": bad, "text": bad + " {k}"},
                {"t": "select", "label": bad, "bind": "k", "opts": [bad, "b"]},
                {"t": "radio", "label": bad, "bind": "k", "opts": [bad]},
                {"t": "input", "label": bad, "bind": "k", "pattern": "(a+)+$", "placeholder": bad},
                {"t": "tabs", "bind": "tab", "tabs": [bad, "b"], "c": [{"t": "text", "text": bad}]},
                {"t": "table", "data": "d", "cols": [f"a:{bad}"], "title": bad, "search": True},
                {"t": "list", "data": "d", "c": [{"t": "text", "text": "{.a}"}]},
                {"t": "chart", "title": bad, "data": "d", "x": "a", "y": ["n"]},
                {"t": "stat", "label": bad, "value": bad, "delta": bad},
                {"t": "button", "label": bad, "on": {"do": "append", "path": "d", "value": row}},
            ],
        },
        "state": {"k": bad, "tab": bad},
        "data": {"d": [row, row]},
    }


@pytest.mark.parametrize("bad", BAD)
def test_it_runs_no_script_and_makes_no_request(bad: str, page: Page, errors: list[str]) -> None:
    requests: list[str] = []

    def seen(request: Request) -> None:
        if not request.url.startswith(("data:", "about:")):
            requests.append(request.url)

    page.on("request", seen)
    page.set_content(render_document(hostile_spec(bad)))
    page.get_by_role("button").filter(has_text="pwned").first.click()
    page.get_by_role("tab").first.click()
    page.mouse.move(10, 10)
    page.mouse.move(300, 300)
    page.wait_for_timeout(100)
    assert page.evaluate("() => window.pwned") is None
    assert requests == []
    assert page.locator("iframe, img[onerror], [onload], [onmouseover]").count() == 0
    # The hostile text is shown as text, in the table and the list the runtime built.
    assert page.get_by_role("cell", name=bad, exact=True).count() >= 2
    assert page.get_by_text(bad, exact=True).count() >= 3
