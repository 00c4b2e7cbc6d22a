"""Studio test fixtures: the real Redis channel layer, and specs the fake engine replays."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from channels.layers import channel_layers

from inference.prompts import UI_EXAMPLE_PATH
from studio.settings import channel_layer_config


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
    from studio import tasks

    monkeypatch.setattr(tasks.run_generation, "delay", lambda gid: sent.append(gid))
    return sent


@pytest.fixture
def spec_text() -> str:
    """A compact, valid spec, as the ui expert streams it."""
    spec = json.loads(Path(UI_EXAMPLE_PATH).read_text())
    return json.dumps(spec, separators=(",", ":"))
