"""Asking an expert from a project's Python panel (POST /p/<id>/repl/ask): the tool loop runs
for the designer in the project's own session, on a scripted fake engine (a fake, named so)
and real kernels under real bubblewrap. The expert's cells land in the session's log by
"expert", the answer comes back, the generations are the project's and leave its page alone,
and the studio's limits and the panel's access rules hold. About 20 s (kernels start)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.test import AsyncClient, Client

from inference.tool_calls import ToolCall, render_call
from studio.models import Generation, Project
from studio.selectors import project_latest_generation
from studio.services.repl import repl_cells, repl_session_list
from studio.services.repl_projects import project_repl_close
from tests.studio.conftest import FakeWorker
from tests.studio.repl_fixtures import repl_root
from tests.studio.test_api_completions import hang_up_after

__all__ = ["repl_root"]
pytestmark = [pytest.mark.django_db(transaction=True)]

SIX_TIMES_SEVEN = render_call(ToolCall("python", {"code": "print(6*7)"}))


@pytest.fixture(autouse=True)
def repl_settings(settings: Any, repl_root: Path) -> None:
    settings.MACARON_REPL_HOME = repl_root
    settings.MACARON_REPL_CELL_SECONDS = 5.0
    settings.MACARON_REPL_MAX_SESSIONS = 2
    settings.MACARON_TOOL_LOOP_MAX_STEPS = 6


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def project(alice: User) -> Any:
    """Alice's project; its session is closed after the test (kernels outlive it otherwise)."""
    made = Project.objects.create(name="Bike shop", owner=alice)
    yield made
    project_repl_close(user=alice, project=made)


async def signed_in(user: User | None, **kwargs: Any) -> AsyncClient:
    client = AsyncClient(**kwargs)
    if user is not None:
        await client.aforce_login(user)
    return client


async def ask(client: AsyncClient, project: Project, body: object) -> Any:
    return await client.post(
        f"/p/{project.id}/repl/ask", json.dumps(body), content_type="application/json"
    )


async def test_the_expert_runs_its_cell_in_the_projects_session_and_answers(
    fake_worker: FakeWorker, alice: User, project: Project, settings: Any
) -> None:
    fake_worker.script = [SIX_TIMES_SEVEN, "42"]
    client = await signed_in(alice)
    response = await ask(client, project, {"prompt": "What is 6 times 7?", "expert": "agent"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["answer"] == "42" and body["stopped"] == "answer" and body["expert"] == "agent"
    assert [(s["code"], s["stdout"]) for s in body["steps"]] == [("print(6*7)", "42\n")]

    # The cell is in the project's session's log, the expert's, where the panel polls it.
    listed = (await client.get(f"/p/{project.id}/repl/cells?after=0")).json()
    assert listed["session"]["id"] == body["session"]["id"]
    assert [(c["code"], c["stdout"], c["by"]) for c in listed["cells"]] == [
        ("print(6*7)", "42\n", "expert")
    ]
    # Two steps, both the project's chat turns by the agent; the page's ui turn is untouched.
    steps = [g async for g in Generation.objects.order_by("queued_at")]
    assert [(g.project_id, g.api_key_id, g.expert) for g in steps] == [
        (project.id, None, "agent")
    ] * 2
    assert steps[1].messages[-1]["role"] == "tool" and "42" in steps[1].messages[-1]["content"]
    assert await sync_to_async(project_latest_generation)(project=project) is None
    # The question's studio slot is free again.
    counters = redis.Redis.from_url(settings.REDIS_URL)
    assert counters.zcard(f"macaron:studio:active:{alice.pk}") == 0
    assert counters.zcard(f"macaron:studio:starts:{alice.pk}") == 1


async def test_the_coding_expert_answers_without_running_anything(
    fake_worker: FakeWorker, alice: User, project: Project
) -> None:
    fake_worker.script = ["Use sum(range(10))."]
    response = await ask(await signed_in(alice), project, {"prompt": "How?", "expert": "coding"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["answer"], body["steps"], body["expert"]) == (
        "Use sum(range(10)).",
        [],
        "coding",
    )


async def test_only_the_owner_asks_and_bad_questions_are_refused(
    fake_worker: FakeWorker, alice: User, project: Project, settings: Any
) -> None:
    bob = await sync_to_async(User.objects.create_user)("bob")
    question = {"prompt": "What is 6 times 7?", "expert": "agent"}
    assert (await ask(await signed_in(bob), project, question)).status_code == 404
    visitor = await ask(await signed_in(None), project, question)
    assert visitor.status_code == 401 and visitor.json()["error"]["code"] == "not_signed_in"

    client = await signed_in(alice)
    for body, code in (
        ({"prompt": "  ", "expert": "agent"}, "empty_prompt"),
        ({"prompt": "x" * (settings.MACARON_PROMPT_MAX_CHARS + 1)}, "prompt_too_long"),
        ({"prompt": "hi", "expert": "ui"}, "unknown_expert"),
        ([1, 2], "empty_prompt"),
    ):
        refused = await ask(client, project, body)
        assert refused.status_code == 400 and refused.json()["error"]["code"] == code, body
    huge = await ask(client, project, {"prompt": "x" * (7 * settings.MACARON_PROMPT_MAX_CHARS)})
    assert huge.status_code == 413
    assert fake_worker.queues == []  # nothing reached the engine
    assert await sync_to_async(repl_session_list)(owner=f"user:{alice.pk}") == []


def test_asking_needs_the_csrf_token(alice: User, project: Project, api_redis: None) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(alice)
    response = client.post(
        f"/p/{project.id}/repl/ask", json.dumps({"prompt": "hi"}), content_type="application/json"
    )
    assert response.status_code == 403


async def test_the_studio_rate_limit_counts_each_question_once(
    fake_worker: FakeWorker, alice: User, project: Project, settings: Any
) -> None:
    settings.MACARON_STUDIO_RATE_PER_MINUTE = 1
    fake_worker.script = [SIX_TIMES_SEVEN, "42"]
    client = await signed_in(alice)
    first = await ask(client, project, {"prompt": "What is 6 times 7?"})
    assert first.status_code == 200, first.content  # two generations, one start
    second = await ask(client, project, {"prompt": "And 7 times 8?"})
    assert second.status_code == 429 and second.json()["error"]["code"] == "rate_limited"
    assert int(second["Retry-After"]) >= 1
    assert len(fake_worker.queues) == 2


async def test_a_designer_who_leaves_mid_step_stops_the_loop(
    fake_worker: FakeWorker, alice: User, project: Project, settings: Any
) -> None:
    fake_worker.script = [SIX_TIMES_SEVEN, "word " * 400, "never asked"]
    fake_worker.delay = 0.01
    fake_worker.hold_after = 20  # the second step waits for its abort: no race with its end
    client = await signed_in(alice)

    async def second_step_decoding() -> bool:
        return await Generation.objects.filter(tokens__gt=0).acount() == 2

    await hang_up_after(ask(client, project, {"prompt": "Count."}), second_step_decoding)
    await sync_to_async(fake_worker.join)()
    first, second = [g async for g in Generation.objects.order_by("queued_at")]
    assert first.status == Generation.Status.DONE
    assert second.status == Generation.Status.CANCELLED
    assert fake_worker.engines[1].aborted == [str(second.id)]
    await asyncio.sleep(1)  # a loop still going would start its third step now
    assert fake_worker.script == ["never asked"]
    # The project's session stays (it is the project's, not the question's), with the cell.
    session = (await sync_to_async(repl_session_list)(owner=f"user:{alice.pk}"))[0]
    logged = await sync_to_async(repl_cells)(
        owner=f"user:{alice.pk}", session_id=session["id"], after=0
    )
    assert [c["by"] for c in logged["data"]] == ["expert"]
    deadline = time.monotonic() + 5
    counters = redis.Redis.from_url(settings.REDIS_URL)
    while counters.zcard(f"macaron:studio:active:{alice.pk}") and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert counters.zcard(f"macaron:studio:active:{alice.pk}") == 0


def test_a_question_under_way_leaves_the_projects_ui_turns_alone(
    alice: User, project: Project, enqueued: list[str]
) -> None:
    """A chat turn of the panel's (with `messages`) streams to its own group, is not the page's
    latest generation, and does not stop the designer generating a version meanwhile."""
    from studio.messages import generation_group
    from studio.services.broadcast import watchers_group
    from studio.services.generations import generation_store

    chat = Generation.objects.create(
        project=project,
        expert="agent",
        prompt="What is 6 times 7?",
        messages=[{"role": "user", "content": "What is 6 times 7?"}],
        status=Generation.Status.RUNNING,
    )
    assert watchers_group(chat) == generation_group(chat.pk)
    assert project_latest_generation(project=project) is None
    ui = generation_store(prompt="a signup form", expert="ui", project_id=project.id)
    assert project_latest_generation(project=project) == ui
    assert watchers_group(ui) != generation_group(ui.pk)
