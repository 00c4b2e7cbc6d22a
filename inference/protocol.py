"""The engine API's data: what a caller submits and the deltas it streams back."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from inference.loras import AdapterRef


@dataclass(frozen=True)
class Message:
    role: str
    content: str


@dataclass(frozen=True)
class GenerationRequest:
    request_id: str
    expert: str | None  # None: the base model with no adapter
    messages: tuple[Message, ...]
    max_tokens: int = 512
    temperature: float = 0.0
    top_p: float = 1.0
    # A sampled request's random source: the same seed samples the same tokens from the same
    # logits, whatever else shares its batch. None: a fresh one each time.
    seed: int | None = None
    ignore_eos: bool = False  # benchmarks decode a fixed number of tokens
    stop: tuple[str, ...] = ()
    json_schema: dict[str, Any] | None = field(default=None, compare=False)
    # OpenAI-style tool definitions, handed to the chat template (nothing executes them here).
    tools: tuple[dict[str, Any], ...] | None = field(default=None, compare=False)
    # The registered adapter to run on; None with an expert: the built-in one from disk.
    adapter: AdapterRef | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Delta:
    """New text since the previous delta; `tokens` counts all tokens generated so far."""

    text: str
    tokens: int
    finish_reason: str | None = None  # "stop", "length" or "abort" on the last delta
    prompt_tokens: int = 0  # the prompt's length in tokens, once the engine has said it
    # On the first delta: milliseconds spent making the adapter resident (0.0 if it was).
    adapter_load_ms: float | None = None
    # On the first delta: the sha256 of the adapter weights the engine runs, taken as it loaded
    # them (and checked against the registered hash): the only hash a response may report.
    adapter_sha256: str | None = None

    @property
    def finished(self) -> bool:
        return self.finish_reason is not None


class Engine(Protocol):
    """What Celery tasks call. One engine per worker process serves every task in it."""

    def stream(self, request: GenerationRequest) -> Iterator[Delta]: ...

    def abort(self, request_id: str) -> None: ...

    def load_adapter(self, ref: AdapterRef) -> float:
        """Make an adapter resident now (a registration broadcast); returns the load ms."""
        ...

    def unload_adapter(self, lora_id: int, *, wait: bool) -> None:
        """Refuse new requests on it, let in-flight ones finish, then unload it."""
        ...

    def resident_adapters(self) -> list[dict[str, Any]]: ...

    def shutdown(self) -> None: ...
