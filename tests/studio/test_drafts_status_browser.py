"""A designer may ask a new ui screen for the best of several drafts
(studio/worker/candidates.py). While the other drafts are still being written the studio says
so, and when the turn ends it says why the view changed if another draft than the streamed one
was kept. The page's WebSocket is played by the test (Playwright's `route_web_socket`),
message by message as the worker sends them (studio/messages.py)."""

from __future__ import annotations

import datetime
import json
import os
import re
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, WebSocketRoute, expect

from studio import messages
from studio.models import Generation, Project
from tests.live_session import sign_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

GENERATION = "8d3c1e55-0c52-4a51-9b4e-52a3c1d6c0aa"


def open_studio(page: Page, live_server: Any, sent: list[dict[str, Any]]) -> list[WebSocketRoute]:
    """The project's studio page, its socket answered by the test: `sent` fills with the
    page's generate messages, the list returned with the socket once one came."""
    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(name="Drafts", owner=owner)
    prompted: list[WebSocketRoute] = []

    def played(socket: WebSocketRoute) -> None:
        def on_message(raw: str | bytes) -> None:
            message = json.loads(raw)
            if message["type"] == messages.GENERATE:
                sent.append(message)
                prompted.append(socket)
                send(socket, messages.GENERATION_ACCEPTED, project=str(project.id), expert="ui")

        socket.on_message(on_message)

    page.route_web_socket("**/ws/studio/**", played)
    sign_in(page, live_server, owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    page.get_by_label("Describe the interface").fill("A suppliers table with Name and Phone")
    return prompted


def studio_with_played_socket(page: Page, live_server: Any) -> list[WebSocketRoute]:
    """The studio, its prompt sent as the best of 3 drafts."""
    sent: list[dict[str, Any]] = []
    prompted = open_studio(page, live_server, sent)
    page.get_by_label("Best of 3").check()
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#status")).to_have_text("Queued…")
    assert sent[-1]["best_of"] is True
    return prompted


def send(socket: WebSocketRoute, kind: str, **fields: Any) -> None:
    socket.send(json.dumps({"type": kind, "generation": GENERATION, **fields}))


def stream_and_wait_for_drafts(page: Page, socket: WebSocketRoute) -> None:
    status = page.locator("#status")
    send(socket, messages.GENERATION_DELTA, seq=1, delta='{"title":"Vendors"}', tokens=6)
    expect(status).to_have_text("Streaming… 6 tokens")
    send(socket, messages.GENERATION_DRAFTS, drafts=3, writing=2, wait_s=12.3)
    expect(status).to_have_text("Comparing drafts: 2 more still being written (up to 13 s)…")
    send(socket, messages.GENERATION_DRAFTS, drafts=3, writing=1, wait_s=4)
    expect(status).to_have_text("Comparing drafts: 1 more still being written (up to 4 s)…")


def done(socket: WebSocketRoute) -> None:
    text = '{"title":"Suppliers"}'
    send(socket, messages.GENERATION_DONE, status="done", text=text, seq=1, problems=[])


def test_the_studio_says_drafts_are_compared_and_why_the_view_changed(
    page: Page, live_server: Any
) -> None:
    [socket] = studio_with_played_socket(page, live_server)
    stream_and_wait_for_drafts(page, socket)
    send(socket, messages.GENERATION_DRAFTS, drafts=3, writing=0, kept=2)
    done(socket)
    expect(page.locator("#status")).to_have_text(
        "Done. Kept another of 3 drafts: it shows more of your prompt."
    )
    page.screenshot(path="test-artifacts/studio-drafts-kept.png")


def test_keeping_the_streamed_draft_is_a_plain_done(page: Page, live_server: Any) -> None:
    [socket] = studio_with_played_socket(page, live_server)
    stream_and_wait_for_drafts(page, socket)
    send(socket, messages.GENERATION_DRAFTS, drafts=3, writing=0, kept=0)
    done(socket)
    expect(page.locator("#status")).to_have_text("Done.")


def test_one_draft_unless_asked_and_the_choice_is_kept(page: Page, live_server: Any) -> None:
    """Several drafts make the designer wait longer (bench/RESULTS.md, 2026-12-05, 04:33): a
    new screen writes one unless the box is ticked, and a ticked box stays so on the next
    visit. A text expert is not offered it."""
    sent: list[dict[str, Any]] = []
    open_studio(page, live_server, sent)
    best_of = page.get_by_label("Best of 3")
    expect(best_of).not_to_be_checked()
    page.get_by_label("Expert", exact=True).select_option("chat")
    expect(best_of).to_have_count(0)
    page.get_by_label("Expert", exact=True).select_option("ui")
    page.get_by_role("button", name="Generate").click()
    expect(page.locator("#status")).to_have_text("Queued…")
    assert sent[-1]["best_of"] is False
    best_of.check()
    page.screenshot(path="test-artifacts/studio-best-of.png")
    page.reload()
    expect(page.get_by_label("Best of 3")).to_be_checked()


def test_a_page_loaded_while_drafts_are_compared_says_so(page: Page, live_server: Any) -> None:
    """Reloaded after the streamed draft ended, the page starts from the row: it says the other
    drafts are still being written, not that the one it shows is still streaming."""
    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(name="Drafts", owner=owner)
    until = timezone.now() + datetime.timedelta(seconds=20)
    Generation.objects.create(
        project=project,
        prompt="A suppliers table with Name and Phone",
        expert="ui",
        structured=True,
        status=Generation.Status.RUNNING,
        started_at=timezone.now(),
        text='{"title":"Suppliers","root":{"t":"page","c":[{"t":"heading","text":"Suppliers"}]}}',
        seq=1,
        tokens=20,
        comparing={"drafts": 3, "writing": 2, "until": until.isoformat()},
    )
    sign_in(page, live_server, owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    expect(page.locator("#status")).to_have_text(
        re.compile(r"^Comparing drafts: 2 more still being written \(up to (19|20) s\)…$")
    )
    frame = page.frame_locator("iframe[title=Preview]")
    expect(frame.get_by_role("heading", name="Suppliers")).to_be_visible()
    page.screenshot(path="test-artifacts/studio-drafts-after-reload.png")
