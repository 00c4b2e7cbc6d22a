"""The Python panel's endpoints (/p/<id>/repl/...) with the Django test client, on real kernels
under real bubblewrap: a project has one session, its owner's; anyone else gets a 404 and a
visitor a 401; cells run by the designer and through the API land in the same log."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from studio.models import GlobalTool, Project
from studio.repl.sandbox import SandboxUnavailable
from studio.services.api_keys import api_key_create
from tests.studio.repl_fixtures import repl_root

__all__ = ["repl_root"]
pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def repl_settings(settings: Any, repl_root: Path) -> None:
    settings.MACARON_REPL_HOME = repl_root
    settings.MACARON_REPL_CELL_SECONDS = 2.0
    settings.MACARON_REPL_CODE_MAX_BYTES = 1000
    settings.MACARON_REPL_MAX_SESSIONS = 2


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice")


@pytest.fixture
def project(alice: User) -> Project:
    return Project.objects.create(name="Bike shop", owner=alice)


def signed_in(user: User | None, **kwargs: Any) -> Client:
    client = Client(**kwargs)
    if user is not None:
        client.force_login(user)
    return client


def panel(client: Client, project: Project, action: str, body: object = None) -> Any:
    url = f"/p/{project.id}/repl/{action}"
    if action.startswith("cells"):
        return client.get(url)
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def run(client: Client, project: Project, code: str) -> Any:
    return panel(client, project, "run", {"code": code})


def test_a_project_has_one_session_and_runs_the_designers_cells(alice, project):
    client = signed_in(alice)
    opened = panel(client, project, "session")
    assert opened.status_code == 200, opened.content
    session = opened.json()["session"]
    try:
        assert panel(client, project, "session").json()["session"]["id"] == session["id"]
        assert run(client, project, "x = 41").json()["cell"]["index"] == 1
        answer = run(client, project, "x + 1").json()
        assert answer["cell"]["result"] == "42" and answer["cell"]["by"] == "user"
        assert answer["session"]["id"] == session["id"] and answer["session"]["cells"] == 2

        listed = panel(client, project, "cells?after=0").json()
        assert [c["code"] for c in listed["cells"]] == ["x = 41", "x + 1"]
        assert listed["session"]["id"] == session["id"] and listed["running"] is None
        assert listed["limits"]["cell_seconds"] == 2.0
        assert [c["index"] for c in panel(client, project, "cells?after=1").json()["cells"]] == [2]

        failed = run(client, project, "1 / 0").json()["cell"]
        assert failed["error"]["name"] == "ZeroDivisionError"
    finally:
        panel(client, project, "close")


def test_another_user_gets_404_and_a_visitor_401(alice, project):
    bob = User.objects.create_user("bob")
    client = signed_in(alice)
    panel(client, project, "session")
    try:
        assert run(client, project, "secret = 'alices'").status_code == 200
        for action in ("session", "cells?after=0", "run", "reset", "close"):
            body = {"code": "secret"} if action == "run" else None
            refused = panel(signed_in(bob), project, action, body)
            assert refused.status_code == 404, action
            assert refused.json()["error"]["code"] == "unknown_project"
            visitor = panel(signed_in(None), project, action, body)
            assert visitor.status_code == 401, action
        # Bob's own project gets Bob's own session, not Alice's.
        bobs = Project.objects.create(name="Bob's", owner=bob)
        assert panel(signed_in(bob), bobs, "cells?after=0").json()["session"] is None
        assert panel(client, project, "cells?after=0").json()["cells"][0]["code"] == (
            "secret = 'alices'"
        )
        assert signed_in(None).get("/studio/tools").status_code == 401
    finally:
        panel(client, project, "close")


def test_posts_need_the_csrf_token(alice, project):
    client = signed_in(alice, enforce_csrf_checks=True)
    assert run(client, project, "1").status_code == 403
    assert panel(client, project, "cells?after=0").json()["session"] is None


def test_reset_is_marked_and_close_ends_the_session(alice, project):
    client = signed_in(alice)
    first = panel(client, project, "session").json()["session"]["id"]
    run(client, project, "x = 1")
    assert panel(client, project, "reset").json()["session"]["id"] == first
    gone = run(client, project, "x").json()["cell"]
    assert gone["error"]["name"] == "NameError"
    kinds = [c["kind"] for c in panel(client, project, "cells?after=0").json()["cells"]]
    assert kinds == ["cell", "reset", "cell"]

    assert panel(client, project, "close").json() == {"session": None, "closed": True}
    assert panel(client, project, "cells?after=0").json()["session"] is None
    reset = panel(client, project, "reset")
    assert reset.status_code == 404 and reset.json()["error"]["code"] == "no_session"
    again = run(client, project, "2 + 2").json()
    try:
        assert again["session"]["id"] != first and again["cell"]["index"] == 1
    finally:
        panel(client, project, "close")


def test_bad_input_is_refused_and_runs_nothing(alice, project):
    client = signed_in(alice)
    too_large = run(client, project, "x = 1\n" * 400)
    assert too_large.status_code == 413 and too_large.json()["error"]["code"] == "code_too_large"
    try:
        assert run(client, project, "   ").status_code == 400
        assert panel(client, project, "run", "not an object").status_code == 400
        assert panel(client, project, "cells?after=-1").status_code == 400
        assert panel(client, project, "cells?after=1e9").status_code == 400
        assert panel(client, project, "cells?after=0").json()["cells"] == []
    finally:
        panel(client, project, "close")


def test_a_cell_run_through_the_api_shows_in_the_log():
    key = api_key_create(name="tool loop")[1]
    headers = {"Authorization": f"Bearer {key}"}
    client = Client(headers=headers)
    session_id = client.post("/v1/repl/sessions").json()["id"]
    try:
        ran = client.post(
            f"/v1/repl/sessions/{session_id}/execute",
            json.dumps({"code": "print('hi'); 6 * 7"}),
            content_type="application/json",
        ).json()
        assert ran["index"] == 1 and ran["result"] == "42"
        log = client.get(f"/v1/repl/sessions/{session_id}/cells?after=0").json()
        assert log["object"] == "list" and log["session"]["id"] == session_id
        [cell] = log["data"]
        assert cell["by"] == "api" and cell["stdout"] == "hi\n" and cell["result"] == "42"
        assert client.get(f"/v1/repl/sessions/{session_id}/cells?after=1").json()["data"] == []
        other = Client(headers={"Authorization": f"Bearer {api_key_create(name='b')[1]}"})
        assert other.get(f"/v1/repl/sessions/{session_id}/cells").status_code == 404
    finally:
        client.delete(f"/v1/repl/sessions/{session_id}")


def test_a_users_project_session_is_not_an_api_keys(alice, project):
    client = signed_in(alice)
    session_id = panel(client, project, "session").json()["session"]["id"]
    try:
        key = api_key_create(name="alice's key")[1]
        api = Client(headers={"Authorization": f"Bearer {key}"})
        assert api.get("/v1/repl/sessions").json()["data"] == []
        assert api.get(f"/v1/repl/sessions/{session_id}/cells").status_code == 404
    finally:
        panel(client, project, "close")


def test_a_host_without_the_sandbox_gets_a_clear_message(alice, project, monkeypatch):
    def refuse(*args: object, **kwargs: object) -> int:
        raise SandboxUnavailable("This host cannot make user namespaces; sessions are refused.")

    monkeypatch.setattr("studio.repl.sessions.sandbox_start", refuse)
    refused = panel(signed_in(alice), project, "session")
    assert refused.status_code == 503
    assert refused.json()["error"] == {
        "code": "sandbox_unavailable",
        "message": "This host cannot make user namespaces; sessions are refused.",
    }


def test_the_active_global_tools_are_listed(alice: User) -> None:
    assert signed_in(alice).get("/studio/tools").json() == {"tools": []}
    fields = {"source": "def slug(t):\n    return t", "tests": "assert slug('a') == 'a'"}
    GlobalTool.objects.create(
        name="slug", version=1, signature="(t)", author="key:1", active=False, **fields
    )
    GlobalTool.objects.create(
        name="slug", version=2, signature="(t: str)", doc="A slug.", author="key:1", **fields
    )
    tools = signed_in(alice).get("/studio/tools").json()["tools"]
    assert [(t["name"], t["version"], t["signature"], t["doc"]) for t in tools] == [
        ("slug", 2, "(t: str)", "A slug.")
    ]


def test_past_the_most_sessions_the_message_says_what_to_do(alice):
    client = signed_in(alice)
    projects = [Project.objects.create(name=f"P{n}", owner=alice) for n in range(3)]
    try:
        for project in projects[:2]:
            assert panel(client, project, "session").status_code == 200
        refused = panel(client, projects[2], "session")
        assert refused.status_code == 429 and refused["Retry-After"] == "60"
        assert "end the session of another project" in refused.json()["error"]["message"]
    finally:
        for project in projects:
            panel(client, project, "close")


def test_an_idled_out_session_is_replaced_with_a_notice(alice, project, settings):
    client = signed_in(alice)
    first = panel(client, project, "session").json()["session"]["id"]
    run(client, project, "x = 1")
    settings.MACARON_REPL_IDLE_SECONDS = 0.0
    try:
        opened = panel(client, project, "session").json()
        assert opened["session"]["id"] != first and "idled out" in opened["notice"]
    finally:
        settings.MACARON_REPL_IDLE_SECONDS = 1800.0
        panel(client, project, "close")
