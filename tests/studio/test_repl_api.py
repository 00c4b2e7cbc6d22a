"""The REPL endpoints (/v1/repl/sessions) with the Django test client, on real kernels under
real bubblewrap: a variable lives across three calls, each key sees only its own sessions
(another key's id is as unknown as a made-up one), and bad input gets a clear error in
OpenAI's format and loses nothing. About 10 s (four kernels start)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

from tests.studio.repl_fixtures import alice, bob, call, repl_root

__all__ = ["alice", "bob", "repl_root"]
pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def repl_settings(settings: Any, repl_root: Path) -> None:
    settings.MACARON_REPL_HOME = repl_root
    settings.MACARON_REPL_CELL_SECONDS = 2.0
    settings.MACARON_REPL_CODE_MAX_BYTES = 1000
    settings.MACARON_REPL_MAX_SESSIONS = 2


def execute(key: str, session_id: str, code: str) -> Any:
    return call("post", f"/v1/repl/sessions/{session_id}/execute", key, {"code": code})


def test_a_variable_lives_across_three_api_calls(alice):
    created = call("post", "/v1/repl/sessions", alice)
    assert created.status_code == 201, created.content
    session_id = created.json()["id"]
    try:
        assert execute(alice, session_id, "total = 40").json()["error"] is None
        assert execute(alice, session_id, "total += 1").json()["error"] is None
        answer = execute(alice, session_id, "total += 1; print('done'); total").json()
        assert answer["result"] == "42" and answer["stdout"] == "done\n"
        assert answer["object"] == "repl.execution" and answer["truncated"] is False
        assert answer["restarted"] is False and answer["duration"] > 0
        assert answer["session"]["cells"] == 3
        failed = execute(alice, session_id, "1 / 0").json()
        assert failed["error"]["name"] == "ZeroDivisionError"
        assert "ZeroDivisionError" in failed["error"]["traceback"]
    finally:
        call("delete", f"/v1/repl/sessions/{session_id}", alice)


def test_keys_see_only_their_own_sessions(alice, bob):
    session_id = call("post", "/v1/repl/sessions", alice).json()["id"]
    try:
        assert execute(alice, session_id, "mine = 1").status_code == 200
        listed = call("get", "/v1/repl/sessions", alice).json()
        assert [s["id"] for s in listed["data"]] == [session_id]
        assert call("get", "/v1/repl/sessions", bob).json()["data"] == []
        unknown = execute(bob, "0123456789abcdef", "1")
        for response in (
            execute(bob, session_id, "mine"),
            call("post", f"/v1/repl/sessions/{session_id}/reset", bob),
            call("delete", f"/v1/repl/sessions/{session_id}", bob),
        ):
            assert response.status_code == 404
            assert response.json() == unknown.json()
        assert unknown.json()["error"]["code"] == "session_not_found"
        # Nothing bob tried touched it.
        assert execute(alice, session_id, "mine").json()["result"] == "1"
    finally:
        call("delete", f"/v1/repl/sessions/{session_id}", alice)


def test_bad_input_is_refused_clearly_and_loses_nothing(alice, settings):
    session_id = call("post", "/v1/repl/sessions", alice).json()["id"]
    try:
        execute(alice, session_id, "kept = 'yes'")
        too_long = execute(alice, session_id, "x = 1\n" * 200)
        assert too_long.status_code == 413
        assert too_long.json()["error"]["code"] == "code_too_large"
        not_json = call("post", f"/v1/repl/sessions/{session_id}/execute", alice, b"{nope")
        assert not_json.json()["error"]["code"] == "invalid_json"
        no_code = call("post", f"/v1/repl/sessions/{session_id}/execute", alice, {"code": 3})
        assert (no_code.status_code, no_code.json()["error"]["param"]) == (400, "code")
        anonymous = Client().get("/v1/repl/sessions")
        assert anonymous.status_code == 401
        # A second session is allowed, a third is not (MACARON_REPL_MAX_SESSIONS = 2).
        second = call("post", "/v1/repl/sessions", alice).json()["id"]
        third = call("post", "/v1/repl/sessions", alice)
        assert third.status_code == 429 and third.json()["error"]["code"] == "too_many_sessions"
        call("delete", f"/v1/repl/sessions/{second}", alice)
        assert execute(alice, session_id, "kept").json()["result"] == "'yes'"
    finally:
        call("delete", f"/v1/repl/sessions/{session_id}", alice)


def test_reset_close_and_an_idled_out_session(alice, settings):
    session_id = call("post", "/v1/repl/sessions", alice).json()["id"]
    execute(alice, session_id, "gone_after_reset = 1; open('f', 'w').write('f')")
    reset = call("post", f"/v1/repl/sessions/{session_id}/reset", alice)
    assert reset.status_code == 200 and reset.json()["id"] == session_id
    after = execute(alice, session_id, "import os; os.listdir(), 'gone_after_reset' in dir()")
    assert after.json()["result"] == "([], False)"
    settings.MACARON_REPL_IDLE_SECONDS = 0.5
    time.sleep(0.6)
    listed = call("get", "/v1/repl/sessions", alice).json()["data"]  # listing reaps
    assert [s["status"] for s in listed] == ["reaped"]
    expired = execute(alice, session_id, "1")
    assert expired.status_code == 410
    assert expired.json()["error"]["code"] == "session_expired"
    assert "idled out" in expired.json()["error"]["message"]
    closed = call("delete", f"/v1/repl/sessions/{session_id}", alice)
    assert closed.json() == {"id": session_id, "object": "repl.session.deleted", "deleted": True}
    assert execute(alice, session_id, "1").status_code == 404


def test_no_sandbox_no_session(alice, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap to be found
    refused = call("post", "/v1/repl/sessions", alice)
    assert refused.status_code == 503
    error = refused.json()["error"]
    assert error["code"] == "sandbox_unavailable" and "never run unsandboxed" in error["message"]
    assert call("get", "/v1/repl/sessions", alice).json()["data"] == []
