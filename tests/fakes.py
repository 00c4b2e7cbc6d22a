"""A scripted fake engine for fast unit tests. It is a fake: never a default, never in the stack."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

from inference.loras import AdapterRef
from inference.protocol import Delta, GenerationRequest

HOLD_SECONDS = 30.0


class ScriptedFakeEngine:
    """Replays a fixed text in fixed-size chunks, optionally pausing or failing part-way."""

    def __init__(
        self,
        text: str,
        *,
        chunk: int = 7,
        delay: float = 0.0,
        finish_reason: str = "stop",
        fail_after: int | None = None,
        hold_after: int | None = None,
    ) -> None:
        self.text = text
        self.chunk = chunk
        self.delay = delay
        self.finish_reason = finish_reason
        self.fail_after = fail_after
        # Waits after this many chunks until it is aborted (at most HOLD_SECONDS), so a test of
        # a hang-up does not race the script's end on a loaded machine.
        self.hold_after = hold_after
        self.abort_seen = threading.Event()
        self.requests: list[GenerationRequest] = []
        self.aborted: list[str] = []
        self.resident: dict[int, AdapterRef] = {}
        self.lock = threading.Lock()

    def stream(self, request: GenerationRequest) -> Iterator[Delta]:
        with self.lock:
            self.requests.append(request)
        pieces = [self.text[i : i + self.chunk] for i in range(0, len(self.text), self.chunk)]
        for index, piece in enumerate(pieces, start=1):
            if request.request_id in self.aborted:  # as vLLM does: one last "abort" delta
                yield Delta("", index - 1, "abort")
                return
            if self.fail_after is not None and index > self.fail_after:
                raise RuntimeError("scripted engine failure")
            if self.delay:
                time.sleep(self.delay)
            if self.hold_after is not None and index > self.hold_after:
                self.abort_seen.wait(HOLD_SECONDS)
                if request.request_id in self.aborted:
                    yield Delta("", index - 1, "abort")
                    return
            last = index == len(pieces)
            load_ms, sha256 = None, None
            if index == 1 and request.adapter is not None:  # "loads" it, in no time
                load_ms = 0.0 if request.adapter.lora_id in self.resident else 1.0
                sha256 = request.adapter.sha256
                self.resident[request.adapter.lora_id] = request.adapter
            yield Delta(piece, index, self.finish_reason if last else None, 0, load_ms, sha256)

    def abort(self, request_id: str) -> None:
        self.aborted.append(request_id)
        self.abort_seen.set()

    def load_adapter(self, ref: AdapterRef) -> float:
        self.resident[ref.lora_id] = ref
        return 1.0

    def unload_adapter(self, lora_id: int, *, wait: bool) -> None:
        self.resident.pop(lora_id, None)

    def resident_adapters(self) -> list[dict[str, Any]]:
        return [
            {"name": r.name, "lora_id": r.lora_id, "sha256": r.sha256}
            for r in self.resident.values()
        ]

    def shutdown(self) -> None:
        pass
