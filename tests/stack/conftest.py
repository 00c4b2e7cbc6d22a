"""Helpers for real-stack tests: a WebSocket client of the running Daphne."""

from __future__ import annotations

import json
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


@pytest.fixture
def studio_client(stack: Stack) -> Iterator[StudioClient]:
    ws_url = stack.url.replace("http://", "ws://") + "/ws/studio/"
    with connect(ws_url, origin=Origin(stack.url), max_size=2**24) as connection:
        yield StudioClient(connection)
