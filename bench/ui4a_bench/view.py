"""A rendered spec in Chromium, framed the way the studio frames it, and what it can observe.

The document is `ui4a.render_document` (the studio's and the API's renderer) inside
`<iframe sandbox="allow-scripts allow-forms">`, the studio's preview frame. The host page
records what the view posts to its parent (`ui4a.ready`, `ui4a.state`, `ui4a.submit`), and
every console error or uncaught exception, the frame's included.
"""

from __future__ import annotations

import html
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import ui4a

if TYPE_CHECKING:
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Frame,
        FrameLocator,
        Page,
    )

WIDTH, HEIGHT = 960, 900
HOST = """<!doctype html><html><head><meta charset="utf-8"><title>UI4A-Bench</title></head>
<body style="margin:0;background:#fff">
<script>window.posted = []; addEventListener("message", (e) => window.posted.push(e.data));</script>
<iframe id="view" title="Preview" sandbox="allow-scripts allow-forms" referrerpolicy="no-referrer"
 style="border:0;display:block;width:{width}px;height:{height}px" srcdoc="{srcdoc}"></iframe>
</body></html>"""
# Everything a user can see or the runtime keeps: markup, field values, checks, open dialogs.
SNAPSHOT = """() => {
    const root = document.getElementById("ui4a-root");
    const fields = [...root.querySelectorAll("input,select,textarea")].map(
        (e) => (e.type === "checkbox" || e.type === "radio") ? e.checked : e.value);
    const dialogs = [...root.querySelectorAll("dialog")].map((d) => d.open);
    return JSON.stringify([root.innerHTML, fields, dialogs]);
}"""


# The bench runs offline, so a spec's https image cannot resolve: that is this machine, not
# the view. (Answering them through a Playwright route worked for the first page only.)
OFFLINE = "Failed to load resource: net::ERR_NAME_NOT_RESOLVED"


class ViewNotReady(RuntimeError):
    """The view's runtime never said it was ready."""


@dataclass
class LoadedView:
    host: ViewHost  # to open the same spec again
    page: Page
    frame: Frame
    spec: dict[str, Any]
    errors: list[str] = field(default_factory=list)

    @property
    def locator(self) -> FrameLocator:
        return self.page.frame_locator("#view")

    def posted(self, kind: str) -> list[dict[str, Any]]:
        """Messages of one type the view has posted to its parent so far, oldest first."""
        found: list[dict[str, Any]] = self.page.evaluate(
            "(kind) => window.posted.filter((m) => m && m.type === kind)", kind
        )
        return found

    def snapshot(self) -> str:
        return str(self.frame.evaluate(SNAPSHOT))

    def state(self) -> dict[str, Any]:
        """The view's state as it last posted it, or the spec's initial state before any."""
        states = self.posted("ui4a.state")
        if states:
            return dict(states[-1]["state"])
        initial = self.spec.get("state")
        return dict(initial) if isinstance(initial, dict) else {}

    def settle(self, ms: int = 60) -> None:
        self.page.wait_for_timeout(ms)


class ViewHost:
    """Opens specs in fresh pages of one browser context, one page at a time."""

    def __init__(self, browser: Browser) -> None:
        self.context: BrowserContext = browser.new_context(
            viewport={"width": WIDTH, "height": HEIGHT}, reduced_motion="reduce"
        )
        self.page: Page | None = None
        self._errors: list[str] = []
        self._documents: dict[str, str] = {}

    def document(self, spec: dict[str, Any]) -> str:
        """The rendered document, kept for the spec's several checks (keyed by its content)."""
        key = json.dumps(spec, sort_keys=True)
        if key not in self._documents:
            self._documents = {key: ui4a.render_document(spec)}  # one spec at a time is enough
        return self._documents[key]

    def open(self, spec: dict[str, Any], *, timeout_ms: int = 10_000) -> LoadedView:
        """A fresh document showing the spec; raises ViewNotReady if its runtime never starts.
        The page is reused (a new one per load cost a third of the time): new content replaces
        the whole document, its frame and its state."""
        page = self.page or self._new_page()
        errors = self._errors = []
        srcdoc = html.escape(self.document(spec), quote=True)
        page.set_content(HOST.format(width=WIDTH, height=HEIGHT, srcdoc=srcdoc))
        try:
            page.wait_for_function(
                "() => window.posted.some((m) => m && m.type === 'ui4a.ready')",
                timeout=timeout_ms,
            )
        except Exception as exc:
            raise ViewNotReady(f"the view's runtime did not start: {exc}") from None
        handle = page.query_selector("#view")
        frame = handle.content_frame() if handle else None
        if frame is None:
            raise ViewNotReady("the preview frame has no document")
        view = LoadedView(self, page, frame, spec, errors)
        view.settle(120)  # charts draw and the first state settles
        return view

    def _new_page(self) -> Page:
        page = self.page = self.context.new_page()
        page.on("console", self._on_console)
        page.on("pageerror", lambda e: self._errors.append(str(e)))
        return page

    def _on_console(self, message: ConsoleMessage) -> None:
        if message.type == "error" and message.text != OFFLINE:
            self._errors.append(message.text)

    def close(self) -> None:
        self.context.close()
