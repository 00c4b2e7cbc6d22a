"""The engine hands vLLM the checked copy of an adapter, never its registered folder, and says
on the first delta which weights ran: the hash taken as they were loaded. vLLM's `AsyncLLM` is
replaced by a fake that records what it is asked (the real engine runs in the stack tests)."""

from __future__ import annotations

import asyncio
import queue
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from inference.loras import WEIGHTS
from inference.protocol import Delta, GenerationRequest, Message
from inference.serving.engine import VllmEngine
from inference.serving.pinning import AdapterWeightsChanged
from inference.serving.residency import LoraResidency
from tests.inference.test_residency import FakeLoraHost, adapter_ref


@dataclass
class Output:
    text: str
    token_ids: list[int]
    finish_reason: str | None


@dataclass
class RequestOutput:
    outputs: list[Output]
    finished: bool
    prompt_token_ids: list[int] = field(default_factory=lambda: [1, 2, 3])


class FakeAsyncLLM(FakeLoraHost):
    """Streams two deltas per request and records the LoRA paths it was given. A fake."""

    def __init__(self) -> None:
        super().__init__(load_seconds=0)
        self.paths: list[str] = []

    def generate(self, prompt: str, params: Any, request_id: str, *, lora_request: Any) -> Any:
        self.paths.append(lora_request.lora_path)

        async def stream() -> AsyncIterator[RequestOutput]:
            yield RequestOutput([Output("Hel", [1], None)], finished=False)
            yield RequestOutput([Output("lo", [2], "stop")], finished=True)

        return stream()


class FakeTokenizer:
    def apply_chat_template(self, messages: Any, **_: Any) -> str:
        return str(messages)


def engine_on(llm: FakeAsyncLLM) -> VllmEngine:
    engine = VllmEngine.__new__(VllmEngine)  # no vLLM: only what `_produce` uses
    engine._llm = llm
    engine._tokenizer = FakeTokenizer()
    engine.residency = LoraResidency(llm, capacity=2)
    return engine


def run(engine: VllmEngine, request: GenerationRequest) -> list[Any]:
    out: queue.Queue[object] = queue.Queue()
    asyncio.run(engine._produce(request, out))
    return list(out.queue)


def request_on(adapter: Any) -> GenerationRequest:
    return GenerationRequest("r1", "poet", (Message("user", "hi"),), adapter=adapter)


def test_the_first_delta_names_the_verified_weights_and_vllm_reads_the_copy(
    tmp_path: Path,
) -> None:
    llm = FakeAsyncLLM()
    registered = adapter_ref(tmp_path, 1)
    first, second, _end = run(engine_on(llm), request_on(registered))
    assert isinstance(first, Delta) and isinstance(second, Delta)
    assert first.adapter_sha256 == registered.sha256
    assert second.adapter_sha256 is None
    assert llm.paths and Path(llm.paths[0]) != Path(registered.path)


def test_swapped_weights_end_the_request_before_any_delta(tmp_path: Path) -> None:
    llm = FakeAsyncLLM()
    registered = adapter_ref(tmp_path, 2)
    (Path(registered.path) / WEIGHTS).write_bytes(b"swapped")
    items = run(engine_on(llm), request_on(registered))
    assert isinstance(items[0], AdapterWeightsChanged)
    assert not any(isinstance(item, Delta) for item in items)
    assert llm.paths == []
