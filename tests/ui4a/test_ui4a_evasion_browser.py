"""An XSS filter-evasion and naughty-strings corpus in every string field of every component,
in Chromium: every button pressed and every form submitted, and no script runs, no dialog
opens and no request leaves the view."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Dialog, Page, Request

from ui4a import render_document, repair
from ui4a.catalog import Field
from ui4a.registry import components

pytestmark = pytest.mark.browser

# Each tries to run `window.pwned=1`, open a dialog, or reach evil.test.
CORPUS = [
    "<script>window.pwned=1</script>",
    "<ScRiPt>window.pwned=1</sCrIpT>",
    "<scr<script>ipt>window.pwned=1</script>",
    '"><svg/onload=window.pwned=1>',
    "'-alert(1)-'",
    "</script><script>window.pwned=1</script>",
    "</style><img src=x onerror=window.pwned=1>",
    "<img src=x onerror=&#119;indow.pwned=1>",
    '<a href="jav&#x09;ascript:window.pwned=1">x</a>',
    "java\u0000script:window.pwned=1",
    "&#x6A;avascript:window.pwned=1",
    "vbscript:msgbox(1)",
    "data:text/html,<script>parent.pwned=1</script>",
    "<iframe srcdoc='<script>parent.pwned=1</script>'>",
    "<details open ontoggle=window.pwned=1>",
    "<input autofocus onfocus=window.pwned=1>",
    "<video><source onerror=window.pwned=1>",
    "<body onload=window.pwned=1>",
    "<math><mtext><table><mglyph><style><img src=x onerror=window.pwned=1>",
    "<base href=https://evil.test/>",
    "<meta http-equiv=refresh content=0;url=https://evil.test>",
    "<link rel=prefetch href=https://evil.test>",
    "<style>@import 'https://evil.test/x.css'</style>",
    "x:expression(window.pwned=1)",
    "background:url(https://evil.test/x)",
    "<form action=https://evil.test><button>go</button></form>",
    "<object data=https://evil.test/x>",
    "{{constructor.constructor('window.pwned=1')()}}",
    "${window.pwned=1}",
    "{__proto__.polluted}",
    "<!--",
    "]]>",
    "\u2028\u2029</script>",
    "\u202eevil\u202c",
    "\ud83d\ude00\u0301\u200b",
    "null",
    "-1e400",
]


def value_for(field: Field, bad: str) -> Any:
    """`bad` in every field that takes text; a plain valid value elsewhere."""
    kind = field.kind
    if kind in ("str", "text", "md", "url", "scalar") or field.regex:
        return bad
    if kind == "strs":
        return [bad, "b"]
    if kind == "enum":
        return field.values[0] if field.values else bad
    if kind in ("key", "data"):
        return "d" if kind == "data" else "k"
    if kind == "num":
        return 1
    if kind == "bool":
        return True
    if kind == "record":
        return {"a": bad, "n": 1}
    if kind == "action":
        return {"do": "set", "path": "k", "value": bad}
    if kind == "cond":
        return "k"
    return None


def every_component(bad: str) -> dict[str, Any]:
    nodes = []
    for name, component in sorted(components().items()):
        if component.root_only:
            continue
        node: dict[str, Any] = {"t": name}
        for field in component.fields:
            value = value_for(field, bad)
            if value is not None:
                node[field.name] = value
        if component.children:
            node["c"] = [{"t": "text", "text": bad}, {"t": "button", "label": bad}]
        nodes.append(node)
    spec = {
        "title": bad,
        "root": {"t": "page", "title": bad, "c": nodes},
        "state": {"k": bad},
        "data": {"d": [{"a": bad, "n": 1}, {"a": bad, "n": 2}]},
    }
    repaired = repair(spec)
    assert repaired.spec is not None, repaired.problems
    # Repair may drop what is wrong beyond the hostile text, never whole components.
    assert len(repaired.spec["root"]["c"]) == len(nodes), repaired.fixes
    return repaired.spec


ACTIVE_TAGS = "script, iframe, object, embed, base, meta, link, img, svg, style, form, a[href]"
COUNT_TAGS = f"""() => {{
    const counts = {{}};
    for (const el of document.querySelectorAll("{ACTIVE_TAGS}")) {{
        counts[el.tagName] = (counts[el.tagName] || 0) + 1;
    }}
    return counts;
}}"""


@pytest.fixture(scope="module")
def plain_tags(browser: Any) -> dict[str, int]:
    """The elements that can load or run something in the same document with harmless text:
    the runtime's own scripts, the policy's meta tags, the components' own forms."""
    context = browser.new_context()
    page = context.new_page()
    page.set_content(render_document(every_component("plain words")))
    counts: dict[str, int] = page.evaluate(COUNT_TAGS)
    context.close()
    return counts


@pytest.mark.parametrize("bad", CORPUS)
def test_every_field_of_every_component_holds(
    bad: str, page: Page, plain_tags: dict[str, int]
) -> None:
    requests: list[str] = []
    dialogs: list[str] = []

    def seen(request: Request) -> None:
        if not request.url.startswith(("data:", "about:")):
            requests.append(request.url)

    page.on("request", seen)

    def opened(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", opened)
    spec = every_component(bad)
    page.set_content(render_document(spec))
    assert page.locator("[data-ui4a-node]").count() >= len(spec["root"]["c"])
    page.evaluate(
        """() => {
            for (const input of document.querySelectorAll("input, textarea")) {
                input.focus();
                input.dispatchEvent(new Event("input", {bubbles: true}));
            }
            for (const button of document.querySelectorAll("button, [role=tab]")) button.click();
            for (const form of document.querySelectorAll("form")) form.requestSubmit();
        }"""
    )
    page.mouse.move(10, 10)
    page.mouse.move(400, 400)
    page.wait_for_timeout(100)
    assert page.evaluate("() => window.pwned") is None
    assert page.evaluate("() => ({}).polluted") is None
    assert dialogs == []
    assert requests == []
    # Not one element the hostile text could have made: the same as with harmless text.
    assert page.evaluate(COUNT_TAGS) == plain_tags
