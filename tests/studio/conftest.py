"""Studio test fixtures: the real Redis channel layer, and specs the fake engine replays."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import channel_layers
from django.contrib.auth.models import User

from studio.settings import channel_layer_config

# The few-shot example the ui system prompt carried before the expert was trained.
NEWSLETTER_SPEC = Path(__file__).resolve().parent / "newsletter.json"


@pytest.fixture
def alice() -> User:
    """A studio user (the tests sign in with `force_login`)."""
    return User.objects.create_user("alice")


@pytest.fixture
def real_channel_layer(settings: Any, redis_url: str) -> Iterator[None]:
    """Point Channels at the private Redis server (a real layer, not the in-memory one)."""
    settings.CHANNEL_LAYERS = {"default": channel_layer_config(redis_url)}
    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture
def enqueued(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records enqueued generation ids instead of sending them to a broker nobody consumes."""
    sent: list[str] = []
    from studio.celery import RUN_GENERATION, app

    def send_task(name: str, args: tuple[str], queue: str = "", task_id: str = "") -> None:
        assert name == RUN_GENERATION
        sent.append(args[0])

    monkeypatch.setattr(app, "send_task", send_task)
    return sent


@pytest.fixture
def spec_text() -> str:
    """A compact, valid spec, as the ui expert streams it."""
    spec = json.loads(NEWSLETTER_SPEC.read_text())
    return json.dumps(spec, separators=(",", ":"))


@pytest.fixture
def limits_redis(settings: Any, redis_url: str, real_channel_layer: None) -> Iterator[None]:
    """The API's and the studio's rate and concurrency counters on the private Redis, empty
    for each test."""
    import redis

    settings.REDIS_URL = redis_url
    client = redis.Redis.from_url(redis_url)
    for pattern in ("macaron:api:*", "macaron:studio:*"):
        for key in client.scan_iter(pattern):
            client.delete(key)
    yield
    client.close()


@pytest.fixture
def api_redis(limits_redis: None) -> None:
    """The API's counters (and the studio's), empty for each test."""


class FakeWorker:
    """Runs enqueued generations on a scripted fake engine in a thread, as a worker would."""

    def __init__(self) -> None:
        self.text = "Hello from the fake engine."
        # Texts for the generations in the order they start (a tool loop's steps); once they
        # run out, `text`.
        self.script: list[str] = []
        self.delay = 0.0
        self.hold_after: int | None = None
        self.queues: list[str] = []
        self.threads: list[threading.Thread] = []
        self.engines: list[Any] = []

    def send_task(self, name: str, args: tuple[str], queue: str = "", task_id: str = "") -> None:
        from studio.celery import RUN_GENERATION

        assert name == RUN_GENERATION and task_id == args[0]
        from studio.worker.run import generation_run
        from tests.fakes import ScriptedFakeEngine

        self.queues.append(queue)
        text = self.script.pop(0) if self.script else self.text
        engine = ScriptedFakeEngine(text, chunk=5, delay=self.delay, hold_after=self.hold_after)
        self.engines.append(engine)
        thread = threading.Thread(
            target=generation_run, kwargs={"generation_id": args[0], "engine": engine}
        )
        self.threads.append(thread)
        thread.start()

    def join(self) -> None:
        for thread in self.threads:
            thread.join(timeout=30)


@pytest.fixture
def fake_worker(monkeypatch: pytest.MonkeyPatch, api_redis: None) -> Iterator[FakeWorker]:
    from studio.celery import app

    worker = FakeWorker()
    monkeypatch.setattr(app, "send_task", worker.send_task)
    yield worker
    worker.join()


@pytest.fixture(autouse=True)
def broadcasts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """Registry broadcasts recorded instead of sent: no worker listens in these tests."""
    from studio.services import adapter_broadcast

    sent: list[tuple[str, dict[str, Any]]] = []

    def record(command: str, arguments: dict[str, Any], *, timeout: float) -> dict[str, Any]:
        sent.append((command, arguments))
        return {}

    monkeypatch.setattr(adapter_broadcast, "_broadcast", record)
    return sent
