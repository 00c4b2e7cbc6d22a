"""REPL sessions and global tools over HTTP on the live stack (Daphne, Redis, the worker and its
sweep): a session keeps its variables across calls, a promoted tool is importable in a new
session, and an unused session idles out. The sandbox's escape tests run in
tests/studio/test_repl_sandbox.py, on the same bubblewrap."""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest
import requests

from studio.stack import Stack
from tests.conftest import REPL_IDLE_SECONDS

pytestmark = pytest.mark.stack


class Api:
    def __init__(self, stack: Stack, key: str) -> None:
        self.url = f"{stack.url}/v1"
        self.headers = {"Authorization": f"Bearer {key}"}

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        response = requests.request(
            method, self.url + path, json=body, headers=self.headers, timeout=60
        )
        return response.status_code, response.json()

    def run(self, session_id: str, code: str) -> dict[str, Any]:
        status, body = self.call("POST", f"/repl/sessions/{session_id}/execute", {"code": code})
        assert status == 200, body
        return dict(body)

    def new_session(self) -> str:
        status, body = self.call("POST", "/repl/sessions")
        assert status == 201, body
        return str(body["id"])


def test_a_session_keeps_a_variable_across_three_api_calls(stack: Stack, api_key: str) -> None:
    api = Api(stack, api_key)
    session = api.new_session()
    try:
        api.run(session, "total = 40")
        api.run(session, "import math\ntotal += int(math.sqrt(4))")
        assert api.run(session, "total")["result"] == "42"
    finally:
        api.call("DELETE", f"/repl/sessions/{session}")


def test_a_promoted_tool_is_usable_from_a_new_session(stack: Stack, api_key: str) -> None:
    api = Api(stack, api_key)
    name = f"shout_{uuid.uuid4().hex[:8]}"
    first, second = api.new_session(), None
    try:
        api.run(first, f"def {name}(text):\n    return text.upper() + '!'")
        status, tool = api.call(
            "POST",
            "/tools",
            {"session_id": first, "name": name, "tests": f"assert {name}('hi') == 'HI!'"},
        )
        assert status == 201, tool
        assert tool["version"] == 1
        second = api.new_session()
        ran = api.run(second, f"from macaron_tools import {name}\n{name}('macaron')")
        assert ran["result"] == "'MACARON!'", ran
    finally:
        api.call("DELETE", f"/tools/{name}")
        for session in (first, second):
            if session:
                api.call("DELETE", f"/repl/sessions/{session}")


def test_an_unused_session_idles_out(stack: Stack, api_key: str) -> None:
    api = Api(stack, api_key)
    session = api.new_session()
    api.run(session, "x = 1")
    time.sleep(REPL_IDLE_SECONDS + 2)
    status, sessions = api.call("GET", "/repl/sessions")  # a list reaps what idled out
    assert status == 200
    assert [s["status"] for s in sessions["data"] if s["id"] == session] == ["reaped"]
    status, body = api.call("POST", f"/repl/sessions/{session}/execute", {"code": "x"})
    assert status == 410 and body["error"]["code"] == "session_expired", body
