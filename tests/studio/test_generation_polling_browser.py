"""A studio that missed a generation's final message (the channel layer dropped it, or the
socket died without closing) reads the generation's row once nothing has come for a while,
and shows how it ended instead of waiting for good. The live server has no WebSocket at all:
only the row can tell the page."""

from __future__ import annotations

import os
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from playwright.sync_api import Page, expect

from studio.models import Generation, Project
from studio.worker.orphans import WORKER_LOST
from tests.live_session import sign_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "1")

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_quiet_running_generation_is_read_from_its_row(page: Page, live_server: Any) -> None:
    owner = get_user_model().objects.create_user("ada")
    project = Project.objects.create(name="Quiet", owner=owner)
    generation = Generation.objects.create(
        project=project,
        prompt="tell me everything",
        expert="chat",
        status=Generation.Status.RUNNING,
        started_at=timezone.now(),
        text="partial",
        seq=1,
        tokens=1,
    )
    page.clock.install()
    sign_in(page, live_server, owner)
    page.goto(f"{live_server.url}/p/{project.id}/")
    status = page.locator("#status")
    expect(status).to_have_text("Streaming…")

    page.clock.fast_forward(5000)  # quiet, but not for long: no read yet
    Generation.objects.filter(pk=generation.pk).update(
        status=Generation.Status.FAILED, error=WORKER_LOST, finished_at=timezone.now()
    )
    expect(status).to_have_text("Streaming…")
    page.clock.fast_forward(6000)
    expect(status).to_have_text("Generation failed.")
    expect(page.get_by_text(WORKER_LOST)).to_be_visible()
