"""The adapter registry on the live stack: two workers for one profile both take work and both
hot-load a newly registered adapter; registering one expert and retraining another leaves every
other expert's greedy output byte-for-byte unchanged."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from celery import Celery

from inference.base_model import sha256_of
from inference.experts import adapter_dir
from inference.paths import REPO_ROOT as REPO
from studio.stack import Service, Stack, wait_worker_ready
from tests.stack.conftest import StudioClient

pytestmark = pytest.mark.stack


def manage(stack: Stack, *args: str, timeout: float = 300) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=stack.env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def copy_adapter(source: str, target: Path) -> Path:
    """A second registration of an existing adapter's files: a new record, a new LoRA id."""
    shutil.copytree(adapter_dir(source), target)
    return target


def lora_ids(stack: Stack, name: str) -> list[tuple[int, str, str]]:
    """(lora_id, status, sha256) of every version of `name`; the test peeks at the registry's
    table, as the API never shows internal ids."""
    path = stack.env["DATABASE_URL"].removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        rows = db.execute(
            "SELECT lora_id, status, sha256 FROM studio_adapter WHERE name = ? ORDER BY lora_id",
            (name,),
        ).fetchall()
    return [(int(a), str(b), str(c)) for a, b, c in rows]


def tasks_received(service: Service) -> set[str]:
    return set(
        re.findall(r"studio\.run_generation\[([0-9a-f-]{36})\] received", service.log_tail(100000))
    )


@pytest.fixture(scope="module")
def api_key(stack: Stack) -> str:
    return manage(stack, "create_api_key", "--name", "registry tests").strip()


def post_completion(
    stack: Stack, key: str, router: str, prompt: str, max_tokens: int
) -> requests.Response:
    return requests.post(
        f"{stack.url}/v1/chat/completions",
        headers={"Authorization": f"Bearer {key}"},
        json={
            "model": "macaron-tiny",
            "router": router,
            "messages": [{"role": "user", "content": prompt}],
            "max_tokens": max_tokens,
            "temperature": 0,
        },
        timeout=300,
    )


def complete(stack: Stack, key: str, router: str, prompt: str, max_tokens: int) -> dict[str, Any]:
    response = post_completion(stack, key, router, prompt, max_tokens)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


ISOLATION_PROMPTS = {
    "chat": ("What is a LoRA adapter?", 24),
    "agent": ("Book a table for two tomorrow at 7pm.", 24),
    "ui": ("a login form with email and password", 32),
    "coding": ("Write a function that reverses a string.", 24),
}


def greedy_outputs(stack: Stack, key: str) -> dict[str, dict[str, Any]]:
    return {
        name: complete(stack, key, name, prompt, max_tokens)
        for name, (prompt, max_tokens) in ISOLATION_PROMPTS.items()
    }


# Training two steps takes about a minute on an idle 2-core machine, several when it is shared.
@pytest.mark.timeout(1800)
def test_registering_and_retraining_leave_every_other_expert_byte_for_byte_unchanged(
    stack: Stack, api_key: str, tmp_path: Path
) -> None:
    before = greedy_outputs(stack, api_key)
    [(old_coding_id, _, old_coding_sha)] = [
        v for v in lora_ids(stack, "coding") if v[1] == "active"
    ]

    # A new expert, registered and used while the others are resident.
    folder = copy_adapter("agent", tmp_path / "newcomer")
    manage(stack, "register_adapter", "newcomer", str(folder))
    newcomer = complete(stack, api_key, "newcomer", "Plan a trip to Paris.", 12)
    assert newcomer["router"] == "newcomer"

    # Retrain coding for two steps and register it under the same name.
    retrained = tmp_path / "coding-v2"
    manage(
        stack,
        "train_expert", "coding", "--steps", "2", "--max-len", "128", "--batch", "2",
        "--eval-examples", "2", "--out", str(retrained), "--work", str(tmp_path / "work"),
        timeout=600,
    )  # fmt: skip
    new_sha = sha256_of(retrained / "adapter_model.safetensors")
    assert new_sha != old_coding_sha
    out = manage(stack, "register_adapter", "coding", str(retrained))
    assert new_sha[:12] in out
    # The worker's engine reports the new weights resident (matched by their sha256).
    assert re.search(r"worker@\S+: loaded in [\d.]+ ms", out), out
    versions = lora_ids(stack, "coding")
    [(new_coding_id, _, active_sha)] = [v for v in versions if v[1] == "active"]
    assert active_sha == new_sha
    assert new_coding_id > old_coding_id  # a new id: vLLM cannot serve the cached old weights
    assert (old_coding_id, "retired", old_coding_sha) in versions

    after = greedy_outputs(stack, api_key)
    for name in ("chat", "agent", "ui"):
        assert (
            after[name]["choices"][0]["message"]["content"]
            == (before[name]["choices"][0]["message"]["content"])
        ), name
        assert after[name]["adapter_sha256"] == before[name]["adapter_sha256"]
    # The retrained expert answers from its new weights, loaded on this request's path.
    assert after["coding"]["adapter_sha256"] == new_sha
    assert before["coding"]["adapter_sha256"] == old_coding_sha
    manifest = json.loads((retrained / "macaron-manifest.json").read_text())
    models = requests.get(
        f"{stack.url}/v1/models", headers={"Authorization": f"Bearer {api_key}"}, timeout=30
    ).json()
    tiny = next(m for m in models["data"] if m["id"] == "macaron-tiny")
    coding = next(e for e in tiny["experts"] if e["name"] == "coding")
    assert coding["trained"] is True
    assert coding["steps"] == manifest["hyperparameters"]["steps"] == 2
    assert coding["adapter_sha256"] == new_sha[:12]
    assert any(e["name"] == "newcomer" for e in tiny["experts"])


SECOND_WORKER_RESIDENT = 2


@pytest.fixture(scope="module")
def second_worker(stack: Stack) -> Iterator[Service]:
    """A second worker on the same queue, holding at most two adapters (the first holds 8)."""
    env = {
        "MACARON_MAX_RESIDENT_LORAS": str(SECOND_WORKER_RESIDENT),
        "MACARON_MAX_LORAS": str(SECOND_WORKER_RESIDENT),
    }
    worker = stack.start_worker(name="worker2", env=env)
    try:
        wait_worker_ready(worker, timeout=900)  # a second engine starts slowly on a busy host
        yield worker
    finally:
        worker.stop()
        stack.services.remove(worker)


def test_two_workers_for_one_profile_both_take_work_and_both_hot_load_a_new_adapter(
    stack: Stack,
    second_worker: Service,
    studio_client: StudioClient,
    api_key: str,
    tmp_path: Path,
) -> None:
    first_worker = next(s for s in stack.services if s.name == "worker")
    # Each worker reserves at most its 4 threads' worth (prefetch 1), so 8 queued at once
    # must be shared.
    prompts = [f"Name a colour, number {i}." for i in range(8)]
    finals = studio_client.generate_all([(p, "chat") for p in prompts])
    first, second = tasks_received(first_worker), tasks_received(second_worker)
    assert first & set(finals) and second & set(finals), (first, second)

    # Register while both run: the command reports each worker's engine loading it.
    folder = copy_adapter("chat", tmp_path / "scaleout-probe")
    out = manage(stack, "register_adapter", "scaleout-probe", str(folder), "--purpose", "a probe")
    assert re.search(r"worker@\S+: loaded in [\d.]+ ms", out), out
    assert re.search(r"worker2@\S+: loaded in [\d.]+ ms", out), out
    [(_, status, sha)] = lora_ids(stack, "scaleout-probe")
    assert status == "active"

    # The API names it at once, and it was already resident: no load on the request's path.
    body = complete(stack, api_key, "scaleout-probe", "Say hi.", 6)
    assert body["router"] == "scaleout-probe"
    assert body["adapter_sha256"] == sha
    assert body["timings"]["adapter_load_ms"] == 0.0

    before = tasks_received(first_worker), tasks_received(second_worker)
    finals = studio_client.generate_all([(p, "scaleout-probe") for p in prompts])
    ran_first = (tasks_received(first_worker) - before[0]) & set(finals)
    ran_second = (tasks_received(second_worker) - before[1]) & set(finals)
    assert ran_first and ran_second, (ran_first, ran_second)
    for final in finals.values():
        assert final["adapter_sha256"] == sha
        assert final["timings"]["adapter_load_ms"] == 0.0  # both had hot-loaded it

    manage(stack, "unregister_adapter", "scaleout-probe")
    gone = post_completion(stack, api_key, "scaleout-probe", "hi", 4)
    assert gone.status_code == 404
    assert gone.json()["error"]["code"] == "expert_not_found"


def control(stack: Stack) -> Celery:
    """A Celery client of the stack's broker, to ask workers what they hold."""
    return Celery("registry-tests", broker=stack.env["REDIS_URL"])


def resident(app: Celery, worker: str) -> list[str]:
    replies = app.control.broadcast(
        "macaron_adapters_resident", destination=[worker], reply=True, timeout=5
    )
    [reply] = replies or [{}]
    return [a["name"] for a in reply[worker]["resident"]]


def test_a_worker_keeps_a_bounded_lru_set_resident_and_reports_each_load(
    stack: Stack, second_worker: Service, api_key: str
) -> None:
    app = control(stack)
    names = [n for reply in app.control.ping(timeout=5) or [] for n in reply]
    first = next(n for n in names if n.startswith("worker@"))
    second = next(n for n in names if n.startswith("worker2@"))
    queue = stack.env.get("MACARON_PROFILE", "macaron-tiny")
    app.control.cancel_consumer(queue, destination=[first], reply=True)  # all to worker2
    try:
        # agent and coding never ran on worker2; chat was evicted by the time they are in.
        load: dict[str, list[float]] = {}
        for name in ("agent", "coding", "agent", "chat"):
            body = complete(stack, api_key, name, "Say hi.", 4)
            load.setdefault(name, []).append(body["timings"]["adapter_load_ms"])
            held = resident(app, second)
            assert len(held) <= SECOND_WORKER_RESIDENT, held
            assert held[-1] == name  # most recently used last
        assert load["agent"][0] > 0 and load["coding"][0] > 0  # loaded on the request's path
        assert load["agent"][1] == 0.0  # still resident
        assert load["chat"][0] > 0
        # chat evicted coding, the least recently used, not agent.
        assert resident(app, second) == ["agent", "chat"]
    finally:
        app.control.add_consumer(queue, destination=[first], reply=True)
