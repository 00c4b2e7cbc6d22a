"""Helpers for real-stack tests: a WebSocket client of the running Daphne."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from studio.stack import Stack


class StudioClient:
    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection

    def send(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def receive(self, timeout: float = 120) -> dict[str, Any]:
        frame: dict[str, Any] = json.loads(self.connection.recv(timeout=timeout))
        return frame

    def until_done(self, generation: str, timeout: float = 240) -> list[dict[str, Any]]:
        frames = []
        while True:
            frame = self.receive(timeout)
            if frame.get("generation") == generation:
                frames.append(frame)
                if frame["type"] == "generation.done":
                    return frames

    def generate_all(
        self, requests: list[tuple[str, str]], timeout: float = 400
    ) -> dict[str, dict[str, Any]]:
        """Queue every (prompt, expert) at once; return each generation's final frame by id.

        The engine may stream an earlier generation's deltas, or even finish it, before the
        next one is acknowledged, so frames are sorted by generation rather than by order.
        """
        ids: list[str] = []
        dones: dict[str, dict[str, Any]] = {}

        def take(frame: dict[str, Any]) -> None:
            assert frame["type"] != "error", frame
            if frame["type"] == "generation.done":
                dones[frame["generation"]] = frame

        for prompt, expert in requests:
            self.send({"type": "generate", "prompt": prompt, "expert": expert})
            while (frame := self.receive())["type"] != "generation.accepted":
                take(frame)
            ids.append(frame["generation"])
        deadline = time.monotonic() + timeout
        while not set(ids) <= set(dones) and time.monotonic() < deadline:
            take(self.receive(timeout))
        assert set(ids) <= set(dones), (ids, list(dones))
        finals = {gid: dones[gid] for gid in ids}
        assert all(f["status"] == "done" for f in finals.values()), finals
        return finals


@pytest.fixture
def studio_client(stack: Stack) -> Iterator[StudioClient]:
    ws_url = stack.url.replace("http://", "ws://") + "/ws/studio/"
    with connect(ws_url, origin=Origin(stack.url), max_size=2**24) as connection:
        yield StudioClient(connection)
