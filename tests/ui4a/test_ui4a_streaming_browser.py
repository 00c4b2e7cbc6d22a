"""Streaming patches in a real browser: what the user opened, typed and what Chart.js drew
survives every `ui4a.render` the studio posts while the rest of the spec arrives."""

from __future__ import annotations

import html
import json

import pytest
from playwright.sync_api import Frame, FrameLocator, Page, expect

from ui4a import parse_partial, render_body, render_document

pytestmark = pytest.mark.browser

# In the order the model writes it: the tree, then state, then the data the chart reads.
SPEC = {
    "title": "Streaming",
    "root": {
        "t": "page",
        "title": "Release notes",
        "c": [
            {"t": "button", "label": "Leave a note", "on": {"do": "open", "path": "notes"}},
            {
                "t": "dialog",
                "title": "Your note",
                "bind": "notes",
                "c": [
                    {"t": "input", "label": "Note", "bind": "note"},
                    {"t": "text", "text": "Draft: {note}"},
                ],
            },
            {
                "t": "accordion",
                "items": ["What changed?", "What broke?"],
                "c": [
                    {"t": "text", "text": "Faster renders."},
                    {"t": "text", "text": "Nothing we know of."},
                ],
            },
            {
                "t": "chart",
                "kind": "bar",
                "title": "Downloads",
                "data": "downloads",
                "x": "month",
                "y": ["count"],
            },
            {"t": "text", "text": "Thanks for reading."},
            {"t": "badge", "text": "v1", "tone": "info"},
        ],
    },
    "state": {"notes": False, "note": ""},
    "data": {
        "downloads": [
            {"month": "Jan", "count": 120},
            {"month": "Feb", "count": 180},
            {"month": "Mar", "count": 260},
        ]
    },
}
TEXT = json.dumps(SPEC, separators=(",", ":"))
CHART = "Downloads: bar chart of count by month"


class Studio:
    """The parent page: it parses each prefix and posts the rendered body into the frame."""

    def __init__(self, page: Page) -> None:
        shell = render_document(None)
        page.set_content(
            f'<iframe sandbox="allow-scripts" title="view" srcdoc="{html.escape(shell)}"></iframe>'
        )
        self.page = page
        self.frame: FrameLocator = page.frame_locator("iframe")
        self.view: Frame = page.frames[1]
        self.view.wait_for_function("() => typeof Idiomorph !== 'undefined'")

    def stream_to(self, end: int) -> None:
        spec = parse_partial(TEXT[:end])
        message = {
            "type": "ui4a.render",
            "html": render_body(spec, partial=True),
            "state": (spec or {}).get("state", {}),
        }
        self.page.evaluate(
            "m => document.querySelector('iframe').contentWindow.postMessage(m, '*')", message
        )


def test_it_keeps_an_open_dialog_section_chart_and_typing_while_streaming(page: Page) -> None:
    studio = Studio(page)
    frame = studio.frame
    tree_done = TEXT.index(',"state"')
    for end in range(0, tree_done + 1, 60):
        studio.stream_to(end)
    studio.stream_to(tree_done)

    frame.get_by_text("What broke?").click()
    answer = frame.get_by_text("Nothing we know of.")
    expect(answer).to_be_visible()
    # Until its data arrives the chart is a placeholder, out of the accessibility tree.
    chart = frame.get_by_role("img", name=CHART, include_hidden=True)
    chart.evaluate("canvas => { window.streamedCanvas = canvas; }")
    frame.get_by_role("button", name="Leave a note").click()
    dialog = frame.get_by_role("dialog", name="Your note")
    expect(dialog).to_be_visible()
    note = dialog.get_by_label("Note")
    note.click()
    typed = "Sh"
    note.press_sequentially(typed)

    # The rest arrives, including `"notes": false` and an empty note, while the user types.
    for step, end in enumerate(range(tree_done, len(TEXT) + 1, 20)):
        studio.stream_to(end)
        letter = "ipped it"[step % 8]
        note.press_sequentially(letter)
        typed += letter
    studio.stream_to(len(TEXT))

    expect(dialog).to_be_visible()
    expect(note).to_be_focused()
    expect(note).to_have_value(typed)
    expect(dialog.get_by_text(f"Draft: {typed}")).to_be_visible()
    expect(answer).to_be_visible()
    assert chart.evaluate("canvas => canvas === window.streamedCanvas")
    studio.view.wait_for_function(
        "() => { const c = document.querySelector('canvas');"
        " const chart = window.Chart && Chart.getChart(c);"
        " return !!chart && chart.data.labels.join() === 'Jan,Feb,Mar'; }"
    )
