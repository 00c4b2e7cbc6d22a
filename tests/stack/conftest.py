"""Helpers for real-stack tests: a WebSocket client of the running Daphne."""

from __future__ import annotations

import json
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from inference.paths import REPO_ROOT
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


def stack_shell(stack: Stack, code: str) -> str:
    """Run Python in `manage.py shell` against the stack's database; returns its last line."""
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=REPO_ROOT,
        env=stack.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return result.stdout.strip().splitlines()[-1]


def session_cookie(stack: Stack, username: str) -> str:
    """A Cookie header for a session of `username`, signed in through a one-time link."""
    return "; ".join(f"{name}={value}" for name, value in stack.signin_cookies(username).items())


def signed_in_get(stack: Stack, path: str, cookie: str) -> Any:
    """GET a JSON document from the stack with a session's Cookie header."""
    request = urllib.request.Request(stack.url + path, headers={"Cookie": cookie})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def studio_connection(stack: Stack, username: str, query: str = "") -> ClientConnection:
    ws_url = stack.url.replace("http://", "ws://") + "/ws/studio/" + query
    return connect(
        ws_url,
        origin=Origin(stack.url),
        max_size=2**24,
        additional_headers={"Cookie": session_cookie(stack, username)},
    )


@pytest.fixture
def studio_client(stack: Stack) -> Iterator[StudioClient]:
    """A WebSocket client signed in as the stack's designer."""
    with studio_connection(stack, "designer") as connection:
        yield StudioClient(connection)


@pytest.fixture(scope="module")
def api_key(stack: Stack) -> str:
    """A key made by the management command, read from its output as an operator would."""
    done = subprocess.run(
        [sys.executable, "manage.py", "create_api_key", "--name", "stack tests"],
        cwd=REPO_ROOT,
        env=stack.env,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()
