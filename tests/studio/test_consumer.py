"""The studio consumer, in-process with WebsocketCommunicator, on the real Redis channel layer
and the real Redis limits; generations run on a scripted fake engine in a worker thread."""

from __future__ import annotations

import asyncio
import copy
import json
import threading
import time
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser, User

from studio.errors import PROJECT_GONE
from studio.models import Generation, Project, Version
from studio.web.consumers import NOT_SIGNED_IN, StudioConsumer
from studio.worker.run import generation_run
from tests.fakes import ScriptedFakeEngine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("limits_redis"),
]

BUTTON = "/root/c/1/c/3"  # "Subscribe", in the newsletter spec's card


@pytest.fixture
def alice(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("alice", password="pw-alice")


@pytest.fixture
def bob(django_user_model: type[User]) -> User:
    return django_user_model.objects.create_user("bob", password="pw-bob")


async def connected(user: Any, query: str = "") -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(StudioConsumer.as_asgi(), f"/ws/studio/{query}")
    communicator.scope["user"] = user  # what AuthMiddlewareStack sets from the session
    ok, _ = await communicator.connect(timeout=10)
    assert ok
    return communicator


async def run_in_worker_thread(generation_id: str, engine: ScriptedFakeEngine) -> None:
    """Run the generation the way a Celery thread would: synchronously, off the event loop."""
    done = threading.Event()

    def target() -> None:
        try:
            generation_run(generation_id=generation_id, engine=engine)
        finally:
            done.set()

    threading.Thread(target=target).start()
    while not done.is_set():
        await asyncio.sleep(0.01)


async def receive_until_done(communicator: WebsocketCommunicator) -> list[dict[str, Any]]:
    frames = []
    while True:
        frame = await communicator.receive_json_from(timeout=10)
        frames.append(frame)
        if frame["type"] == "generation.done":
            return frames


async def generate(
    communicator: WebsocketCommunicator, prompt: str, **fields: Any
) -> dict[str, Any]:
    await communicator.send_json_to({"type": "generate", "prompt": prompt, **fields})
    reply: dict[str, Any] = await communicator.receive_json_from(timeout=5)
    return reply


async def first_version(
    communicator: WebsocketCommunicator, spec_text: str
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Generate the newsletter as version 1; returns the accepted and done frames."""
    accepted = await generate(communicator, "a newsletter box")
    assert accepted["type"] == "generation.accepted", accepted
    await run_in_worker_thread(accepted["generation"], ScriptedFakeEngine(spec_text))
    done = (await receive_until_done(communicator))[-1]
    changed = await communicator.receive_json_from(timeout=5)
    assert changed["type"] == "project.changed"
    return accepted, done


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


async def test_a_connection_without_a_signed_in_user_is_closed() -> None:
    communicator = WebsocketCommunicator(StudioConsumer.as_asgi(), "/ws/studio/")
    communicator.scope["user"] = AnonymousUser()
    await communicator.connect(timeout=10)
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": NOT_SIGNED_IN}


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        ("{not json", "bad_message"),
        ('{"type": "generate", "prompt": ""}', "empty_prompt"),
        ('{"type": "generate", "prompt": "' + "x" * 5000 + '"}', "prompt_too_long"),
        ('{"type": "generate", "prompt": "a form", "expert": "nope"}', "unknown_expert"),
        ('{"type": "generate", "prompt": "a form", "target": "/root/c/0"}', "unknown_target"),
        ('{"type": "teleport"}', "unknown_type"),
    ],
)
async def test_it_answers_bad_input_with_an_error_and_stays_usable(
    enqueued: list[str], alice: User, frame: str, code: str
) -> None:
    communicator = await connected(alice)
    await communicator.send_to(text_data=frame)
    reply = await communicator.receive_json_from(timeout=5)
    assert reply["type"] == "error"
    assert reply["code"] == code
    assert reply["message"]
    assert await database_sync_to_async(Project.objects.count)() == 0  # no stray project
    # The same connection still takes a good request.
    assert (await generate(communicator, "a login form"))["type"] == "generation.accepted"
    await communicator.disconnect()


async def test_it_streams_numbered_batches_and_a_final_result_that_is_version_1(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted = await generate(communicator, "a newsletter box")
    assert accepted["type"] == "generation.accepted"
    assert enqueued == [accepted["generation"]]
    project = await database_sync_to_async(Project.objects.get)(pk=accepted["project"])
    assert project.owner_id == alice.pk

    engine = ScriptedFakeEngine(spec_text, chunk=4, delay=0.01)
    runner = asyncio.ensure_future(run_in_worker_thread(accepted["generation"], engine))
    frames = await receive_until_done(communicator)
    await runner

    deltas = [f for f in frames if f["type"] == "generation.delta"]
    assert [f["seq"] for f in deltas] == list(range(1, len(deltas) + 1))
    assert 2 <= len(deltas) < len(spec_text) / 4  # batched, not one message per token
    assert "".join(f["delta"] for f in deltas) == spec_text
    assert all("html" in f for f in deltas)
    done = frames[-1]
    assert done["status"] == "done"
    assert done["text"] == spec_text
    assert "Join our newsletter" in done["html"]
    version = done["version"]
    assert (version["number"], version["kind"], version["label"]) == (
        1,
        "generated",
        "a newsletter box",
    )
    assert version["generation"] == accepted["generation"]
    assert version["author"] == "alice"
    changed = await communicator.receive_json_from(timeout=5)
    assert changed == {
        "type": "project.changed",
        "project": accepted["project"],
        "current": version["id"],
        "can_undo": False,
        "can_redo": False,
    }
    await communicator.disconnect()


async def test_a_prompt_asking_the_best_of_several_drafts_stores_how_many(
    enqueued: list[str], alice: User, settings: Any
) -> None:
    settings.MACARON_UI_CANDIDATES = 3
    communicator = await connected(alice)
    accepted = await generate(communicator, "a newsletter box", best_of=True)
    generation = await database_sync_to_async(Generation.objects.get)(pk=accepted["generation"])
    assert generation.options == {"drafts": 3}
    await communicator.disconnect()


async def test_the_next_prompt_refines_the_current_version(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted, done = await first_version(communicator, spec_text)
    base = done["version"]["id"]

    revised = json.loads(spec_text)
    revised["root"]["c"][0]["text"] = "Get our weekly letter"
    engine = ScriptedFakeEngine(compact(revised))
    again = await generate(
        communicator, "change the heading", project=accepted["project"], base=base, target=""
    )
    assert again["type"] == "generation.accepted", again
    assert again["base"] == base
    await run_in_worker_thread(again["generation"], engine)
    final = (await receive_until_done(communicator))[-1]

    # The expert saw the conversation the ui dataset's refinement turns train on.
    roles = [m.role for m in engine.requests[0].messages]
    assert roles == ["system", "user", "assistant", "user"]
    _system, first, answer, ask = engine.requests[0].messages
    assert first.content == "a newsletter box"
    stored = await database_sync_to_async(Version.objects.get)(pk=base)
    assert answer.content == compact(stored.spec)
    assert ask.content == "change the heading"

    assert final["status"] == "done"
    assert (final["version"]["number"], final["version"]["kind"]) == (2, "refined")
    assert "Get our weekly letter" in final["html"]
    second = await database_sync_to_async(Version.objects.get)(pk=final["version"]["id"])
    assert second.parent_id == stored.pk
    assert second.spec != stored.spec
    await communicator.disconnect()


async def test_a_targeted_refinement_changes_only_the_selected_element(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted, done = await first_version(communicator, spec_text)
    base = await database_sync_to_async(Version.objects.get)(pk=done["version"]["id"])

    # The model answers with the small spec: a page holding the revised element(s).
    mini = {
        "title": "Newsletter",
        "root": {
            "t": "page",
            "c": [
                {
                    "t": "button",
                    "label": "Sign me up",
                    "on": {"do": "set", "path": "subscribed", "value": True},
                },
                {"t": "button", "label": "Cancel", "on": {"do": "reset"}},
            ],
        },
        "state": {"subscribed": False},
    }
    engine = ScriptedFakeEngine(compact(mini), chunk=6, delay=0.005)
    again = await generate(
        communicator,
        "add a Cancel button here",
        project=accepted["project"],
        base=str(base.pk),
        target=BUTTON,
    )
    assert again["type"] == "generation.accepted", again
    await run_in_worker_thread(again["generation"], engine)
    frames = await receive_until_done(communicator)
    final = frames[-1]

    # The model saw only the selected button, with the state it reads.
    answer = json.loads(engine.requests[0].messages[2].content)
    assert answer["root"]["c"] == [base.spec["root"]["c"][1]["c"][3]]
    assert answer["state"] == {"subscribed": False}
    # While it streamed, the preview showed the whole view with the new part in place.
    assert all(
        "Join our newsletter" in f["html"] for f in frames if f["type"] == "generation.delta"
    )
    assert any("Cancel" in f["html"] for f in frames if f["type"] == "generation.delta")

    assert final["status"] == "done", final
    assert final["version"]["kind"] == "targeted"
    spec = (await database_sync_to_async(Version.objects.get)(pk=final["version"]["id"])).spec
    card = spec["root"]["c"][1]["c"]
    assert [node.get("label") for node in card[3:5]] == ["Sign me up", "Cancel"]
    # Everything outside the selected element is kept byte for byte.
    outside_before, outside_after = copy.deepcopy(base.spec), copy.deepcopy(spec)
    del outside_before["root"]["c"][1]["c"][3]
    del outside_after["root"]["c"][1]["c"][3:5]
    assert compact(outside_after) == compact(outside_before)
    await communicator.disconnect()


async def test_a_targeted_revision_that_breaks_the_view_fails_and_makes_no_version(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted, done = await first_version(communicator, spec_text)
    # A chart of a dataset that exists nowhere: repair cannot invent its rows.
    mini = {
        "root": {
            "t": "page",
            "c": [{"t": "chart", "title": "T", "data": "nope", "x": "a", "y": ["b"]}],
        }
    }
    again = await generate(
        communicator,
        "make this a chart",
        project=accepted["project"],
        base=done["version"]["id"],
        target=BUTTON,
    )
    await run_in_worker_thread(again["generation"], ScriptedFakeEngine(compact(mini)))
    final = (await receive_until_done(communicator))[-1]
    assert final["status"] == "failed"
    assert "does not fit the rest of the view" in final["error"]
    assert "no dataset 'nope'" in final["error"]
    assert final["version"] is None
    assert await database_sync_to_async(Version.objects.count)() == 1
    await communicator.disconnect()


async def test_a_version_or_element_from_elsewhere_is_refused(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted, done = await first_version(communicator, spec_text)
    _other, other_done = await first_version(communicator, spec_text)  # a second project
    refused = await generate(
        communicator, "refine", project=accepted["project"], base=other_done["version"]["id"]
    )
    assert (refused["code"], refused["message"]) == (
        "unknown_version",
        "That version is not in this project.",
    )
    refused = await generate(
        communicator,
        "refine",
        project=accepted["project"],
        base=done["version"]["id"],
        target="/root/c/7",
    )
    assert refused["code"] == "unknown_target"
    assert "not in version 1" in refused["message"]
    await communicator.disconnect()


async def test_one_generation_runs_per_project(enqueued: list[str], alice: User) -> None:
    communicator = await connected(alice)
    accepted = await generate(communicator, "a login form")
    refused = await generate(communicator, "again", project=accepted["project"])
    assert refused == {
        "type": "error",
        "code": "generation_running",
        "message": "A generation is already running in this project; stop it first.",
    }
    await communicator.disconnect()


async def test_stop_cancels_a_streaming_generation_and_its_watchers_hear_at_once(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted = await generate(communicator, "a newsletter box")
    second_tab = await connected(alice, f"?project={accepted['project']}")
    engine = ScriptedFakeEngine(spec_text, chunk=1, delay=0.02)  # about 12 s of streaming
    runner = asyncio.ensure_future(run_in_worker_thread(accepted["generation"], engine))
    assert (await communicator.receive_json_from(timeout=10))["type"] == "generation.delta"

    stopped_at = time.monotonic()
    await communicator.send_json_to({"type": "stop", "generation": accepted["generation"]})
    for tab in (communicator, second_tab):
        done = (await receive_until_done(tab))[-1]
        assert done["status"] == "cancelled"
        assert done["finish_reason"] == "cancelled"
        assert done["version"] is None
    assert time.monotonic() - stopped_at < 2
    await runner
    assert engine.aborted == [accepted["generation"]]
    stored = await database_sync_to_async(Generation.objects.get)(pk=accepted["generation"])
    assert stored.status == "cancelled"
    assert 0 < len(stored.text) < len(spec_text)  # what had streamed is kept
    # The project is free again, and so is the user's slot.
    assert (await generate(communicator, "again", project=accepted["project"]))[
        "type"
    ] == "generation.accepted"
    await communicator.disconnect()
    await second_tab.disconnect()


async def test_stop_cancels_a_queued_generation_that_no_worker_took(
    enqueued: list[str], alice: User
) -> None:
    communicator = await connected(alice)
    accepted = await generate(communicator, "a login form")
    await communicator.send_json_to({"type": "stop", "generation": accepted["generation"]})
    done = await communicator.receive_json_from(timeout=5)
    assert (done["type"], done["status"]) == ("generation.done", "cancelled")
    engine = ScriptedFakeEngine("never")
    await run_in_worker_thread(accepted["generation"], engine)  # the worker takes it late
    assert engine.requests == []
    await communicator.disconnect()


async def test_another_users_project_is_neither_joined_nor_driven(
    enqueued: list[str], alice: User, bob: User, spec_text: str
) -> None:
    owner = await connected(alice)
    accepted = await generate(owner, "a newsletter box")
    project, generation = accepted["project"], accepted["generation"]

    stranger = await connected(bob, f"?project={project}")
    assert await stranger.receive_json_from(timeout=5) == {
        "type": "error",
        "code": "unknown_project",
        "message": PROJECT_GONE,
    }
    refused = await generate(stranger, "mine now", project=project)
    assert refused["code"] == "unknown_project"
    for kind in ("stop", "resync"):
        await stranger.send_json_to({"type": kind, "generation": generation})
        assert (await stranger.receive_json_from(timeout=5))["code"] == "unknown_generation"

    await run_in_worker_thread(generation, ScriptedFakeEngine(spec_text))
    assert (await receive_until_done(owner))[-1]["status"] == "done"  # bob did not stop it
    assert await stranger.receive_nothing(timeout=1)  # and saw none of it
    await owner.disconnect()
    await stranger.disconnect()


async def test_a_deleted_project_is_answered_as_gone(enqueued: list[str], alice: User) -> None:
    communicator = await connected(alice)
    accepted = await generate(communicator, "a login form")
    await database_sync_to_async(Project.objects.filter(pk=accepted["project"]).delete)()
    refused = await generate(communicator, "again", project=accepted["project"])
    assert (refused["code"], refused["message"]) == (
        "unknown_project",
        PROJECT_GONE,
    )
    await communicator.disconnect()


async def test_the_per_user_limits_give_their_message(
    enqueued: list[str], alice: User, bob: User, settings: Any
) -> None:
    settings.MACARON_STUDIO_MAX_CONCURRENT = 1
    communicator = await connected(alice)
    assert (await generate(communicator, "a login form"))["type"] == "generation.accepted"
    refused = await generate(communicator, "a second project")
    assert refused == {
        "type": "error",
        "code": "concurrency_limited",
        "message": "You can run 1 generation at once; wait for one to finish.",
    }
    assert await database_sync_to_async(Project.objects.count)() == 1  # none made for it
    other = await connected(bob)  # bob's limits are his own
    assert (await generate(other, "a login form"))["type"] == "generation.accepted"

    settings.MACARON_STUDIO_MAX_CONCURRENT = 10
    settings.MACARON_STUDIO_RATE_PER_MINUTE = 2
    assert (await generate(communicator, "a third"))["type"] == "generation.accepted"
    refused = await generate(communicator, "a fourth")
    assert refused["code"] == "rate_limited"
    assert refused["message"].startswith("You have reached your limit of 2 generations a minute;")
    await communicator.disconnect()
    await other.disconnect()


async def test_a_client_that_missed_batches_recovers_the_full_text(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    communicator = await connected(alice)
    accepted = await generate(communicator, "a newsletter box")
    await run_in_worker_thread(accepted["generation"], ScriptedFakeEngine(spec_text))

    late = await connected(alice)
    await late.send_json_to({"type": "resync", "generation": accepted["generation"]})
    snapshot = await late.receive_json_from(timeout=5)
    assert snapshot["type"] == "generation.snapshot"
    assert snapshot["text"] == spec_text
    assert snapshot["status"] == "done"
    await communicator.disconnect()
    await late.disconnect()


async def test_a_second_tab_on_the_project_follows_the_stream(
    enqueued: list[str], alice: User, spec_text: str
) -> None:
    first = await connected(alice)
    accepted = await generate(first, "a login form")
    await run_in_worker_thread(accepted["generation"], ScriptedFakeEngine("x"))
    await receive_until_done(first)

    second = await connected(alice, f"?project={accepted['project']}")
    again = await generate(first, "again", project=accepted["project"])
    await run_in_worker_thread(again["generation"], ScriptedFakeEngine(spec_text))
    frames = await receive_until_done(second)
    assert frames[-1]["generation"] == again["generation"]
    await first.disconnect()
    await second.disconnect()


async def test_an_idle_connection_outlives_the_redis_socket_timeout(
    enqueued: list[str], alice: User
) -> None:
    """redis-py's 5 s default socket timeout once killed consumers idle for 6 s."""
    communicator = await connected(alice)
    await asyncio.sleep(7)
    assert (await generate(communicator, "a login form"))["type"] == "generation.accepted"
    await communicator.disconnect()


async def test_a_socket_whose_channel_layer_fails_is_closed_to_be_reopened(
    alice: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis restarted under a waiting consumer: its channel-layer receive raises. The socket
    must close with TRY_AGAIN so the page reconnects and resyncs, not stay open and dead."""
    from channels.layers import get_channel_layer

    from studio.web.consumers import TRY_AGAIN

    layer = get_channel_layer()
    assert layer is not None
    gone = asyncio.Event()

    async def receive(channel: str) -> dict[str, Any]:
        await gone.wait()
        raise ConnectionError("Connection closed by server.")

    monkeypatch.setattr(layer, "receive", receive)
    communicator = await connected(alice)
    gone.set()
    closed = await communicator.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": TRY_AGAIN}
    # A code Daphne's WebSocket library sends for an application (1011 it refuses, and the
    # socket stayed open: tests/stack/test_socket_redis_stack.py sees that end to end).
    assert TRY_AGAIN == 1000 or 3000 <= TRY_AGAIN <= 4999
