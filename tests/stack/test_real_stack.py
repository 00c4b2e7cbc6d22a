"""The real stack: Redis, a Celery worker hosting vLLM with the default model, and Daphne."""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import psutil
import pytest

import ui4a
from inference import startup_phases
from studio.stack import Stack, StackError, new_stack, wait_worker_ready
from studio.worker.orphans import WORKER_LOST
from tests.stack.conftest import StudioClient, session_cookie, signed_in_get, stack_shell

pytestmark = pytest.mark.stack


def test_it_generates_a_valid_ui_spec_under_the_schema(studio_client: StudioClient) -> None:
    studio_client.send({"type": "generate", "prompt": "a login form with email and password"})
    accepted = studio_client.receive()
    assert accepted["type"] == "generation.accepted"
    frames = studio_client.until_done(accepted["generation"])

    deltas = [f for f in frames if f["type"] == "generation.delta"]
    done = frames[-1]
    assert done["status"] == "done", done
    assert [f["seq"] for f in deltas] == list(range(1, len(deltas) + 1))
    assert len(deltas) < done["timings"]["tokens"]  # batched
    assert "".join(f["delta"] for f in deltas) == done["text"]
    spec = json.loads(done["text"])  # constrained decoding: the raw text always parses
    jsonschema.validate(spec, ui4a.json_schema())  # ...and always fits the schema
    assert done["finish_reason"] == "stop"
    # What repair cannot fix is stored as a machine-readable list, to hand back to the model.
    assert done["problems"] == [p.as_dict() for p in ui4a.repair(spec).problems]
    assert all(p["path"].startswith("/") and p["code"] for p in done["problems"])
    timings = done["timings"]
    assert timings["tokens"] > 10
    assert timings["tokens_per_s"] > 0
    assert timings["queue_wait_s"] >= 0
    assert timings["time_to_first_token_s"] > 0


def test_the_best_of_three_drafts_keeps_one_that_validates_whole(
    studio_client: StudioClient,
) -> None:
    """A new screen asked the best of three drafts, on the real engine: the two sampled ones
    are written beside the streamed one, the socket hears which draft was kept, and the
    version is a whole, valid spec (the kept draft's text, not necessarily the streamed)."""
    prompt = "a suppliers table with Name, Contact and Phone columns and an Add supplier button"
    studio_client.send({"type": "generate", "prompt": prompt, "best_of": True})
    accepted = studio_client.receive()
    assert accepted["type"] == "generation.accepted", accepted
    frames = studio_client.until_done(accepted["generation"])
    done = frames[-1]
    assert done["status"] == "done", done
    drafts = [f for f in frames if f["type"] == "generation.drafts"]
    assert drafts and drafts[-1]["drafts"] == 3 and drafts[-1]["writing"] == 0
    assert drafts[-1]["kept"] in (0, 1, 2)
    streamed = "".join(f["delta"] for f in frames if f["type"] == "generation.delta")
    assert (done["text"] == streamed) == (drafts[-1]["kept"] == 0)
    assert done["finish_reason"] == "stop" and done["version"] is not None
    jsonschema.validate(json.loads(done["text"]), ui4a.json_schema())


def test_the_final_result_can_be_fetched_over_http(
    stack: Stack, studio_client: StudioClient
) -> None:
    studio_client.send({"type": "generate", "prompt": "Say hi", "expert": "chat"})
    accepted = studio_client.receive()
    done = studio_client.until_done(accepted["generation"])[-1]
    cookie = session_cookie(stack, "designer")
    stored = signed_in_get(stack, f"/api/generations/{accepted['generation']}", cookie)
    assert stored["text"] == done["text"]
    assert stored["status"] == "done"
    assert stored["timings"]["tokens"] == done["timings"]["tokens"]


def test_concurrent_tasks_share_one_engine_and_run_together(studio_client: StudioClient) -> None:
    prompts = [
        ("a login form", "ui"),
        ("a settings page", "ui"),
        ("What is a LoRA adapter?", "chat"),
        ("Write a function that adds two numbers", "coding"),
    ]
    finals = studio_client.generate_all(prompts)
    # Every request was already decoding before any finished: one engine batched them.
    first_token = [
        f["timings"]["queue_wait_s"] + f["timings"]["time_to_first_token_s"]
        for f in finals.values()
    ]
    totals = [f["timings"]["total_s"] for f in finals.values()]
    assert max(first_token) < min(totals)


def test_the_workers_engine_core_is_forked_and_runs_the_threads_it_was_given(stack: Stack) -> None:
    """Forked, the engine core keeps the OpenMP threads its parent read when it imported torch
    (the worker sets them first: inference.settings.export_engine_threads); one more than asked
    spins beside the model and takes a core from Daphne, Celery and the browser."""
    worker = next(s for s in stack.services if s.name == "worker")
    lines = worker.log_path.read_text(errors="replace").splitlines()
    phases = {record["phase"]: record for record in map(startup_phases.parse, lines) if record}
    assert phases["engine construction"]["fork"] is True
    threads = [int(stack.env["MACARON_ENGINE_THREADS"])]
    assert phases["lora path check"]["torch_threads"] == threads
    # And after the warm-up decoded, which ran vLLM's drafter and its numba loops.
    assert phases["threads after warm-up"]["torch_threads"] == threads


def test_sigterm_stops_the_worker_and_its_engine_process(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    run_dir = tmp_path_factory.mktemp("second-worker")
    extra = {k: stack.env[k] for k in ("DATABASE_URL", "REDIS_URL")}
    second = new_stack(run_dir, {**extra, "MACARON_PROFILE": "sigterm-test"})
    worker = second.start_worker(name="sigterm", concurrency=1)
    try:
        wait_worker_ready(worker)
        children = psutil.Process(worker.process.pid).children(recursive=True)
        assert any("EngineCore" in " ".join(c.cmdline()) or "VLLM" in c.name() for c in children)
        worker.process.terminate()  # SIGTERM to the worker alone, as a supervisor sends it
        worker.process.wait(timeout=120)
        _, alive = psutil.wait_procs(children, timeout=30)
        assert alive == [], [p.pid for p in alive]
    finally:
        second.stop()


def test_a_worker_whose_engine_cannot_start_exits_instead_of_taking_tasks(
    redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    run_dir = tmp_path_factory.mktemp("engine-fails")
    broken = new_stack(
        run_dir,
        {
            "REDIS_URL": redis_url,
            "MACARON_PROFILE": "engine-fails-test",
            "MACARON_MODEL": str(run_dir / "no-such-model"),
        },
    )
    worker = broken.start_worker(name="enginefails", concurrency=1)
    try:
        with pytest.raises(StackError, match="exited with 1"):
            wait_worker_ready(worker, timeout=300)
        assert "the engine did not start; the worker exits" in worker.log_tail(200)
    finally:
        broken.stop()


# The chat expert answers this prompt with about 145 tokens (a story prompt got 5): seconds of
# streaming in which to kill the worker.
ENQUEUE_ON_THIS_PROFILE = """
from django.contrib.auth import get_user_model
from studio.models import Project
from studio.services.generations import generation_create
owner, _ = get_user_model().objects.get_or_create(username="designer")
project = Project.objects.create(owner=owner)
prompt = "Write a detailed, step-by-step guide to baking bread at home, with every step explained."
print(generation_create(prompt=prompt, expert="chat", project_id=project.id).id)
"""


def test_a_worker_killed_mid_generation_fails_its_row_when_it_comes_back(
    stack: Stack, tmp_path_factory: pytest.TempPathFactory
) -> None:
    run_dir = tmp_path_factory.mktemp("killed-worker")
    extra = {k: stack.env[k] for k in ("DATABASE_URL", "REDIS_URL")}
    # One engine thread: the stack's own worker holds the other half of the cores.
    settings = {**extra, "MACARON_PROFILE": "killed-worker-test", "MACARON_ENGINE_THREADS": "1"}
    own = new_stack(run_dir, settings)

    cookie = session_cookie(stack, "designer")

    def snapshot(generation: str) -> dict[str, Any]:
        body: dict[str, Any] = signed_in_get(stack, f"/api/generations/{generation}", cookie)
        return body

    worker = own.start_worker(name="killed", concurrency=1)
    try:
        wait_worker_ready(worker)
        generation = stack_shell(own, ENQUEUE_ON_THIS_PROFILE)
        deadline = time.monotonic() + 120
        while snapshot(generation)["timings"]["tokens"] < 2 and time.monotonic() < deadline:
            time.sleep(0.1)
        os.killpg(worker.process.pid, signal.SIGKILL)  # no shutdown handlers: the row is stranded
        worker.process.wait(timeout=30)
        stranded = snapshot(generation)
        assert stranded["status"] == "running", f"killed too late: {stranded}"
        own.services.remove(worker)

        again = own.start_worker(name="killed", concurrency=1)  # the same name comes back
        wait_worker_ready(again)
        final = snapshot(generation)
        assert final["status"] == "failed"
        assert final["error"] == WORKER_LOST
        assert final["finish_reason"] == "error"
        assert final["text"] == stranded["text"] != ""  # what had streamed is kept
    finally:
        own.stop()
