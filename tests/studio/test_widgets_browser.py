"""A published widget on someone else's site, in Debian's Chromium, without the engine: the
widget's page comes from Django's live server, each host page from a plain `http.server` of its
own on another loopback port (another origin), so the browser applies frame-ancestors and
postMessage targeting for real. (Pages that Playwright fulfils itself count as public to
Chromium's local-network rules, which would then block the frame for another reason.)
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

from studio.models import Project, Widget
from studio.services.versions import version_add
from studio.services.widgets import widget_publish, widget_unpublish

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


SIGNUP_FORM: dict[str, Any] = {
    "title": "Join the list",
    "root": {
        "t": "page",
        "c": [
            {"t": "heading", "text": "Join the list"},
            {
                "t": "form",
                "submit": "Create account",
                "on": {"do": "set", "path": "done", "value": True},
                "c": [
                    {"t": "input", "label": "Email", "bind": "email", "kind": "email", "req": True},
                    {"t": "input", "label": "Password", "bind": "pw", "kind": "password"},
                    {"t": "input", "label": "Age", "bind": "age", "kind": "number"},
                ],
            },
            {"t": "alert", "tone": "success", "text": "Welcome aboard, {email}!", "if": "done"},
            {"t": "button", "label": "Talk to sales", "kind": "secondary"},
            {"t": "button", "label": "Not chosen", "kind": "ghost"},
        ],
    },
    "state": {"email": "", "pw": "", "age": "", "done": False},
}

# Records every message from its frame, and what the loader re-dispatches.
RECORDER = """
<script>
  window.received = [];
  window.domEvents = [];
  window.addEventListener("message", function (e) {
    var frame = document.querySelector("iframe");
    if (frame && e.source === frame.contentWindow) {
      window.received.push({origin: e.origin, data: e.data});
    }
  });
  document.addEventListener("macaron-event", function (e) { window.domEvents.push(e.detail); });
</script>
"""


class HostSite:
    """One host site: a loopback server answering every path with `body`."""

    def __init__(self, hostname: str) -> None:
        site = self
        self.body = ""

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                data = site.body.encode()
                self.send_response(200)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://{hostname}:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def sites() -> Iterator[dict[str, HostSite]]:
    """Three other origins: two the widget allows (one named by IP, one as localhost), and a
    stranger."""
    made = {
        "shop": HostSite("127.0.0.1"),
        "blog": HostSite("localhost"),
        "evil": HostSite("127.0.0.1"),
    }
    yield made
    for site in made.values():
        site.close()


@pytest.fixture
def widget(live_server: Any, sites: dict[str, HostSite]) -> Widget:
    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(name="Newsletter", owner=owner)
    version_add(project=project, spec=SIGNUP_FORM, kind="generated", label="a signup form")
    return widget_publish(
        project=project,
        version_id=None,
        allowed_origins=[sites["shop"].origin, sites["blog"].origin],
        event_buttons=["Talk to sales"],
        published_by=owner,
    )


def iframe_page(src: str) -> str:
    return (
        "<!doctype html><title>Host</title>"
        f'<iframe src="{src}" sandbox="allow-scripts allow-forms" title="Newsletter widget"'
        ' style="width:100%;height:500px"></iframe>' + RECORDER
    )


def test_a_submit_reaches_the_allowed_host_without_the_password(
    page: Page, live_server: Any, widget: Widget, sites: dict[str, HostSite], errors: list[str]
) -> None:
    shop = sites["shop"]
    shop.body = iframe_page(f"{live_server.url}/w/{widget.public_id}?host={shop.origin}")
    page.goto(f"{shop.origin}/shop")
    frame = page.frame_locator("iframe[title='Newsletter widget']")
    frame.get_by_label("Email").fill("ada@example.com")
    frame.get_by_label("Password").fill("correct horse battery")
    frame.get_by_label("Age").fill("36")
    frame.get_by_role("button", name="Create account").click()
    expect(frame.get_by_text("Welcome aboard, ada@example.com!")).to_be_visible()
    frame.get_by_role("button", name="Not chosen").click()
    frame.get_by_role("button", name="Talk to sales").click()

    page.wait_for_function("window.received.some(m => m.data && m.data.type === 'macaron.event')")
    received = page.evaluate("window.received")
    page.wait_for_function(
        "window.received.filter(m => m.data && m.data.type === 'macaron.event').length === 2"
    )
    received = page.evaluate("window.received")
    events = [m for m in received if m["data"]["type"] == "macaron.event"]
    assert events == [
        {
            "origin": "null",  # the widget's sandbox gives it an opaque origin
            "data": {
                "type": "macaron.event",
                "widget": widget.public_id,
                "event": "submit",
                "form": events[0]["data"]["form"],
                "values": {"email": "ada@example.com", "age": 36},
            },
        },
        {
            "origin": "null",
            "data": {
                "type": "macaron.event",
                "widget": widget.public_id,
                "event": "click",
                "button": "Talk to sales",
            },
        },
    ]
    # Only host events and its height ever reached the host: no ui4a.* state, no password.
    assert {m["data"]["type"] for m in received} <= {"macaron.event", "macaron.resize"}
    assert "correct horse" not in json.dumps(received)
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e], errors
    widget.refresh_from_db()
    assert widget.view_count == 1


def test_a_host_other_than_the_one_named_gets_no_events(
    page: Page, live_server: Any, widget: Widget, sites: dict[str, HostSite]
) -> None:
    """Framed by an allowed site that names the other allowed site: the browser drops the
    message, since it is addressed to an origin that is not its parent's."""
    blog = sites["blog"]
    blog.body = iframe_page(f"{live_server.url}/w/{widget.public_id}?host={sites['shop'].origin}")
    page.goto(f"{blog.origin}/post")
    frame = page.frame_locator("iframe[title='Newsletter widget']")
    frame.get_by_label("Email").fill("eve@example.com")
    frame.get_by_role("button", name="Create account").click()
    expect(frame.get_by_text("Welcome aboard, eve@example.com!")).to_be_visible()
    page.wait_for_timeout(300)
    assert page.evaluate("window.received") == []


def test_a_site_that_is_not_allowed_cannot_frame_it(
    page: Page, live_server: Any, widget: Widget, sites: dict[str, HostSite], errors: list[str]
) -> None:
    evil = sites["evil"]
    evil.body = iframe_page(f"{live_server.url}/w/{widget.public_id}")
    page.goto(f"{evil.origin}/")
    page.wait_for_timeout(500)
    framed = page.frame_locator("iframe[title='Newsletter widget']")
    expect(framed.get_by_role("button", name="Create account")).to_have_count(0)
    assert any("frame-ancestors" in e for e in errors), errors


def test_the_loader_builds_the_frame_sizes_it_and_relays_events(
    page: Page, live_server: Any, widget: Widget, sites: dict[str, HostSite]
) -> None:
    blog = sites["blog"]
    body = (
        "<!doctype html><title>Host</title><h1>Our shop</h1>"
        f'<div data-macaron-widget="{widget.public_id}" data-title="Newsletter widget"></div>'
        f"{RECORDER}"
        f'<script src="{live_server.url}/w/embed.js" async></script>'
    )
    blog.body = body
    page.goto(f"{blog.origin}/")
    frame_el = page.locator("iframe[title='Newsletter widget']")
    expect(frame_el).to_have_attribute("sandbox", "allow-scripts allow-forms")
    assert f"host={blog.origin.replace(':', '%3A').replace('/', '%2F')}" in (
        frame_el.get_attribute("src") or ""
    )
    frame = page.frame_locator("iframe[title='Newsletter widget']")
    expect(frame.get_by_role("button", name="Create account")).to_be_visible()
    # Sized to its content (not the loader's 320px start), and re-sized when it grows.
    page.wait_for_function("document.querySelector('iframe').style.height !== '320px'")
    before = frame_el.bounding_box()
    content = frame.locator("body").evaluate("b => Math.ceil(b.getBoundingClientRect().height)")
    assert before is not None and abs(before["height"] - content) <= 1
    frame.get_by_label("Email").fill("bo@example.com")
    frame.get_by_role("button", name="Create account").click()
    expect(frame.get_by_text("Welcome aboard, bo@example.com!")).to_be_visible()
    page.wait_for_function("window.domEvents.length === 1")
    assert page.evaluate("window.domEvents[0].values") == {"email": "bo@example.com", "age": ""}
    page.wait_for_function(
        f"parseFloat(document.querySelector('iframe').style.height) > {before['height']}"
    )


def test_after_unpublishing_it_is_gone(page: Page, live_server: Any, widget: Widget) -> None:
    widget_unpublish(widget=widget)
    response = page.goto(f"{live_server.url}/w/{widget.public_id}")
    assert response is not None and response.status == 410
    expect(page.get_by_role("heading", name="Widget unpublished")).to_be_visible()


def test_the_host_cannot_drive_the_widget(
    page: Page, live_server: Any, widget: Widget, sites: dict[str, HostSite]
) -> None:
    """The studio's messages (patch the view, turn on design mode) do nothing from a host."""
    shop = sites["shop"]
    shop.body = iframe_page(f"{live_server.url}/w/{widget.public_id}?host={shop.origin}")
    page.goto(f"{shop.origin}/")
    frame = page.frame_locator("iframe[title='Newsletter widget']")
    expect(frame.get_by_role("button", name="Create account")).to_be_visible()
    page.evaluate(
        """() => {
          const w = document.querySelector("iframe").contentWindow;
          w.postMessage({type: "ui4a.render", html: "<h1>Hijacked</h1>", state: {}}, "*");
          w.postMessage({type: "ui4a.design", on: true}, "*");
        }"""
    )
    page.wait_for_timeout(300)
    frame.get_by_role("heading", name="Join the list").click()
    page.wait_for_timeout(300)
    expect(frame.get_by_text("Hijacked")).to_have_count(0)
    types = {m["data"]["type"] for m in page.evaluate("window.received")}
    assert types <= {"macaron.resize"}, types
