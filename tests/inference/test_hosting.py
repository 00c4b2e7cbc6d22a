"""The worker's engine is the one engine that may fork vLLM's engine core: it starts before the
process ran any torch work. Every other engine (tests, benches) spawns it, whatever the
settings say (inference/serving/engine.py, `_engine_core_started_by`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from inference.protocol import Delta, GenerationRequest
from inference.serving import hosting


class RecordedEngine:
    """Stands in for VllmEngine's constructor only: what the hosting code asked of it."""

    made: list[dict[str, Any]] = []

    def __init__(self, settings: Any, **options: Any) -> None:
        self.made.append({"settings": settings, **options})

    def stream(self, request: GenerationRequest) -> Iterator[Delta]:
        yield Delta(text="{", tokens=1, finish_reason="length")

    def recheck_threads(self) -> list[int]:
        return [1]

    def shutdown(self) -> None:
        pass


@pytest.fixture
def recorded(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[dict[str, Any]]]:
    RecordedEngine.made = []
    monkeypatch.setattr(hosting, "VllmEngine", RecordedEngine)
    hosting.install_engine(None)
    yield RecordedEngine.made
    hosting.install_engine(None)


def test_the_workers_engine_starts_as_a_fresh_process_may_fork(
    recorded: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("MACARON_ENGINE_FORK", raising=False)
    hosting.start_engine()
    assert len(recorded) == 1
    assert recorded[0]["fresh_process"] is True
    assert recorded[0]["settings"].engine_core_fork  # on by default


def test_an_engine_made_elsewhere_spawns_its_core() -> None:
    import inspect

    from inference.serving.engine import VllmEngine

    fresh = inspect.signature(VllmEngine).parameters["fresh_process"]
    assert fresh.default is False
