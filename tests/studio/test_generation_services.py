"""Generation services: creating, running on an engine, batching, storing results and failures."""

from __future__ import annotations

import json
import threading
import time
from typing import Any

import pytest

from studio.errors import InvalidRequest
from studio.models import Generation, Project
from studio.selectors import generation_snapshot
from studio.services.generations import generation_cancel, generation_create
from studio.worker.run import generation_run
from tests.fakes import ScriptedFakeEngine

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("real_channel_layer"),
]


def create(prompt: str = "a login form", expert: str = "ui") -> Generation:
    return generation_create(prompt=prompt, expert=expert, project_id=Project.objects.create().id)


def test_it_stores_a_queued_generation_and_enqueues_it_after_commit(enqueued: list[str]) -> None:
    generation = create("  a login form  ")
    assert generation.status == Generation.Status.QUEUED
    assert generation.prompt == "a login form"
    assert enqueued == [str(generation.id)]


@pytest.mark.parametrize(
    ("prompt", "expert", "code"),
    [
        ("", "ui", "empty_prompt"),
        ("   \n ", "ui", "empty_prompt"),
        ("x" * 2001, "ui", "prompt_too_long"),
        ("a form", "wizard", "unknown_expert"),
    ],
)
def test_it_refuses_bad_requests_and_stores_nothing(
    enqueued: list[str], prompt: str, expert: str, code: str
) -> None:
    with pytest.raises(InvalidRequest) as raised:
        create(prompt, expert)
    assert raised.value.code == code
    assert Generation.objects.count() == 0
    assert enqueued == []


def test_it_refuses_an_unknown_project(enqueued: list[str]) -> None:
    import uuid

    with pytest.raises(InvalidRequest) as raised:
        generation_create(prompt="a form", expert="ui", project_id=uuid.uuid4())
    assert raised.value.code == "unknown_project"


def test_it_runs_a_ui_generation_and_stores_text_spec_and_timings(
    enqueued: list[str], spec_text: str
) -> None:
    generation = create()
    engine = ScriptedFakeEngine(spec_text, chunk=9)
    generation_run(generation_id=generation.id, engine=engine)

    generation.refresh_from_db()
    assert generation.status == Generation.Status.DONE
    assert generation.text == spec_text
    assert generation.spec is not None
    assert generation.spec["root"]["t"] == "page"
    assert generation.problems == []
    assert generation.tokens > 0
    timings = generation.timings()
    assert timings["queue_wait_s"] is not None
    assert timings["time_to_first_token_s"] is not None
    assert timings["tokens"] == generation.tokens
    assert engine.requests[0].json_schema is not None  # the ui expert decodes under the schema


def test_it_batches_deltas_and_numbers_them(
    enqueued: list[str], spec_text: str, settings: Any
) -> None:
    settings.MACARON_BATCH_SECONDS = 60  # only the first token and the end flush
    generation = create()
    generation_run(generation_id=generation.id, engine=ScriptedFakeEngine(spec_text, chunk=3))
    generation.refresh_from_db()
    assert generation.seq == 2  # not one message per token


def test_it_runs_a_generation_only_once(enqueued: list[str], spec_text: str) -> None:
    generation = create()
    engine = ScriptedFakeEngine(spec_text)
    generation_run(generation_id=generation.id, engine=engine)
    generation_run(generation_id=generation.id, engine=engine)
    assert len(engine.requests) == 1


def test_it_records_an_engine_failure_and_keeps_what_arrived(
    enqueued: list[str], spec_text: str
) -> None:
    generation = create()
    generation_run(
        generation_id=generation.id, engine=ScriptedFakeEngine(spec_text, chunk=5, fail_after=3)
    )
    generation.refresh_from_db()
    assert generation.status == Generation.Status.FAILED
    # Clients read the row's error: it names the generation, not the exception (that is logged).
    assert "scripted engine failure" not in generation.error
    assert str(generation.id) in generation.error
    assert generation.text == spec_text[:15]


def test_it_repairs_and_flags_a_spec_cut_off_at_the_token_limit(
    enqueued: list[str], spec_text: str
) -> None:
    generation = create()
    cut = spec_text[: len(spec_text) // 2]
    generation_run(
        generation_id=generation.id, engine=ScriptedFakeEngine(cut, finish_reason="length")
    )
    generation.refresh_from_db()
    assert generation.finish_reason == "length"
    assert "cut off" in generation.error
    assert generation.spec is not None  # repaired from what arrived, not thrown away


def test_it_streams_plain_text_for_text_experts(enqueued: list[str]) -> None:
    generation = create("hello there", "chat")
    engine = ScriptedFakeEngine("General Kenobi.")
    generation_run(generation_id=generation.id, engine=engine)
    snapshot = generation_snapshot(generation_id=generation.id)
    assert snapshot["text"] == "General Kenobi."
    assert "html" not in snapshot
    assert engine.requests[0].json_schema is None
    assert engine.requests[0].expert == "chat"


def test_a_snapshot_carries_the_rendered_view(enqueued: list[str], spec_text: str) -> None:
    generation = create()
    generation_run(generation_id=generation.id, engine=ScriptedFakeEngine(spec_text))
    snapshot = generation_snapshot(generation_id=generation.id)
    assert "Join our newsletter" in snapshot["html"]
    assert snapshot["state"]["name"] == ""
    json.dumps(snapshot)  # the wire format must serialise


def test_a_bench_variant_runs_through_its_own_task_and_the_served_path_never_sees_it(
    monkeypatch: pytest.MonkeyPatch, spec_text: str
) -> None:
    from bench.variant_runs import RUN_VARIANT, run_variant, variant_generation_create
    from inference.serving import hosting
    from studio.celery import RUN_GENERATION, app

    sent: list[tuple[str, tuple[str, ...]]] = []
    monkeypatch.setattr(
        app, "send_task", lambda name, args, queue="", task_id="": sent.append((name, args))
    )
    served = create()
    base = variant_generation_create(
        prompt="a login form", expert="ui", project_id=Project.objects.create().id, variant="base"
    )
    assert sent == [(RUN_GENERATION, (str(served.id),)), (RUN_VARIANT, (str(base.id), "base"))]
    engine = ScriptedFakeEngine(spec_text)
    monkeypatch.setattr(hosting, "current_engine", lambda: engine)
    run_variant(str(base.id), "base")
    generation_run(generation_id=served.id, engine=engine)
    assert [r.expert for r in engine.requests] == [None, "ui"]
    assert all(r.json_schema is not None for r in engine.requests)
    base.refresh_from_db()
    assert base.status == Generation.Status.DONE
    with pytest.raises(ValueError, match="unknown variant 'huge'"):
        variant_generation_create(
            prompt="a form", expert="ui", project_id=Project.objects.create().id, variant="huge"
        )


def test_cancelling_a_running_generation_aborts_its_engine_request(enqueued: list[str]) -> None:
    generation = create("tell me everything", "chat")
    # 400 deltas, holding after the 20th until aborted: the cancel cannot lose a race
    engine = ScriptedFakeEngine("word " * 400, chunk=5, delay=0.01, hold_after=20)
    worker = threading.Thread(
        target=generation_run, kwargs={"generation_id": generation.id, "engine": engine}
    )
    worker.start()
    deadline = time.monotonic() + 10
    while Generation.objects.get(pk=generation.id).tokens < 5 and time.monotonic() < deadline:
        time.sleep(0.02)
    assert generation_cancel(generation_id=generation.id)
    worker.join(timeout=10)
    assert not worker.is_alive()

    stored = Generation.objects.get(pk=generation.id)
    assert engine.aborted == [str(generation.id)]
    assert stored.status == Generation.Status.CANCELLED
    assert stored.finish_reason == "cancelled"
    assert 5 <= stored.tokens < 100  # stopped at the next batch, not at the end
    assert stored.text == "word " * stored.tokens
    assert not generation_cancel(generation_id=generation.id)  # already finished


def test_a_generation_cancelled_while_queued_never_reaches_the_engine(
    enqueued: list[str],
) -> None:
    generation = create("tell me everything", "chat")
    assert generation_cancel(generation_id=generation.id)
    engine = ScriptedFakeEngine("never")
    generation_run(generation_id=generation.id, engine=engine)
    assert engine.requests == []
    assert Generation.objects.get(pk=generation.id).status == Generation.Status.CANCELLED


def test_a_finished_generation_cannot_be_cancelled(enqueued: list[str]) -> None:
    generation = create("hello there", "chat")
    generation_run(generation_id=generation.id, engine=ScriptedFakeEngine("General Kenobi."))
    assert not generation_cancel(generation_id=generation.id)
    assert Generation.objects.get(pk=generation.id).status == Generation.Status.DONE


def test_a_refinement_of_a_spec_too_large_for_the_context_fails_with_its_size(
    enqueued: list[str], spec_text: str, settings: Any
) -> None:
    first = create("a newsletter box")
    generation_run(generation_id=first.id, engine=ScriptedFakeEngine(spec_text))
    project = Project.objects.get(generations=first)
    assert project.current_version is not None
    settings.MACARON_REFINE_SPEC_MAX_CHARS = 50
    refine = generation_create(
        prompt="shorter",
        expert="ui",
        project_id=project.pk,
        base_version_id=project.current_version.pk,
    )
    engine = ScriptedFakeEngine(spec_text)
    generation_run(generation_id=refine.id, engine=engine)
    refine.refresh_from_db()
    assert engine.requests == []  # refused before the engine
    assert refine.status == Generation.Status.FAILED
    size = len(json.dumps(project.current_version.spec, separators=(",", ":")))
    assert f"is {size:,} characters of spec" in refine.error
    assert "at most 50" in refine.error
    assert project.versions.count() == 1


def test_a_run_whose_project_was_deleted_stops_and_leaves_nothing_behind(
    enqueued: list[str], spec_text: str
) -> None:
    generation = create()
    engine = ScriptedFakeEngine(spec_text, chunk=1, delay=0.01)
    worker = threading.Thread(
        target=generation_run, kwargs={"generation_id": generation.id, "engine": engine}
    )
    worker.start()
    deadline = time.monotonic() + 10
    while Generation.objects.get(pk=generation.id).tokens < 3 and time.monotonic() < deadline:
        time.sleep(0.02)
    Project.objects.filter(generations=generation).delete()
    worker.join(timeout=10)
    assert not worker.is_alive()
    assert engine.aborted == [str(generation.id)]
    assert not Generation.objects.filter(pk=generation.id).exists()  # not written back
