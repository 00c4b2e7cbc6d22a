"""Global tools (/v1/tools) on real kernels under real bubblewrap: a function promoted from a
session is importable from `macaron_tools` in a new session (and in a reset one, not in one
already running), promotion runs the tests in a fresh sandbox and stores nothing when they
fail, versions and demotion work the way the adapter registry's do, another key cannot take
or change a name, and bad input gets a clear error in OpenAI's format. About 30 s (a dozen
kernels start)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from inference.tool_calls import GlobalToolDoc
from studio.models import GlobalTool
from studio.services.global_tools import PROMOTION_OWNER, global_tool_docs
from studio.services.repl import repl_sessions
from tests.studio.repl_fixtures import alice, bob, call, repl_root

__all__ = ["alice", "bob", "repl_root"]
pytestmark = [pytest.mark.django_db(transaction=True)]

SLUGIFY = '''
def slugify(text: str, sep: str = "-") -> str:
    """Lowercase words joined by `sep`.

    Punctuation is dropped."""
    import re
    return sep.join(re.findall(r"[a-z0-9]+", text.lower()))
'''
SLUGIFY_TESTS = 'print("checking")\nassert slugify("Hello, World!") == "hello-world"\n'


@pytest.fixture(autouse=True)
def repl_settings(settings: Any, repl_root: Path) -> None:
    settings.MACARON_REPL_HOME = repl_root
    settings.MACARON_REPL_CELL_SECONDS = 5.0
    settings.MACARON_REPL_CODE_MAX_BYTES = 1000
    settings.MACARON_REPL_MAX_SESSIONS = 3


class Session:
    """A REPL session of one key, through the API."""

    def __init__(self, key: str) -> None:
        self.key = key
        created = call("post", "/v1/repl/sessions", key)
        assert created.status_code == 201, created.content
        self.id = created.json()["id"]

    def run(self, code: str) -> Any:
        ran = call("post", f"/v1/repl/sessions/{self.id}/execute", self.key, {"code": code})
        assert ran.status_code == 200, ran.content
        return ran.json()

    def promote(self, name: str, tests: str) -> Any:
        body = {"session_id": self.id, "name": name, "tests": tests}
        return call("post", "/v1/tools", self.key, body)

    def close(self) -> None:
        call("delete", f"/v1/repl/sessions/{self.id}", self.key)


def test_a_promoted_tool_is_importable_in_every_new_session(alice, bob):
    author = Session(alice)
    try:
        author.run(SLUGIFY)
        promoted = author.promote("slugify", SLUGIFY_TESTS)
        assert promoted.status_code == 201, promoted.content
        tool = promoted.json()
        assert (tool["object"], tool["name"], tool["version"]) == ("tool", "slugify", 1)
        assert tool["signature"] == "(text: str, sep: str='-') -> str"
        assert tool["doc"] == "Lowercase words joined by `sep`.\n\nPunctuation is dropped."
        assert tool["active"] and tool["author_is_you"] and "checking" in tool["test_output"]
        # The fresh sandbox the tests ran in is closed.
        assert repl_sessions().owned(PROMOTION_OWNER) == []

        fresh = Session(bob)
        try:
            used = fresh.run("from macaron_tools import slugify\nslugify('Tools, For Everyone')")
            assert used["error"] is None and used["result"] == "'tools-for-everyone'"
            source = fresh.run("import inspect, macaron_tools; print(inspect.getsource(slugify))")
            assert "return sep.join" in source["stdout"]
            # Root's, and bound read-only: a session cannot change what later kernels import.
            tamper = fresh.run("open(macaron_tools.__file__, 'a')")
            assert tamper["error"]["name"] in ("PermissionError", "OSError")
        finally:
            fresh.close()
        # A session keeps the tools its kernel started with; reset, it gets the current ones.
        before = author.run("from macaron_tools import slugify")
        assert before["error"]["name"] == "ImportError"
        call("post", f"/v1/repl/sessions/{author.id}/reset", alice)
        assert author.run("from macaron_tools import slugify; slugify('A b')")["result"] == "'a-b'"
    finally:
        author.close()

    listed = call("get", "/v1/tools", bob).json()
    assert [(t["name"], t["version"], t["author_is_you"]) for t in listed["data"]] == [
        ("slugify", 1, False)
    ]
    assert global_tool_docs() == (
        GlobalToolDoc("slugify", "(text: str, sep: str='-') -> str", tool["doc"]),
    )


def test_failing_tests_store_nothing_and_say_why(alice):
    session = Session(alice)
    try:
        session.run(SLUGIFY + "\nimport math\ndef area(r):\n    return math.pi * r * r\n")
        failed = session.promote("slugify", 'print("seen")\nassert slugify("A B") == "a_b"')
        assert failed.status_code == 422
        error = failed.json()["error"]
        assert (error["code"], error["param"], error["type"]) == (
            "tool_tests_failed",
            "tests",
            "invalid_request_error",
        )
        assert "nothing was promoted" in error["message"]
        assert "seen" in error["message"] and "AssertionError" in error["message"]
        # It used a module the session had imported: alone in a fresh sandbox it cannot.
        alone = session.promote("area", "assert area(1) > 3")
        assert alone.status_code == 422
        assert "NameError" in alone.json()["error"]["message"]
        assert "import what it needs inside it" in alone.json()["error"]["message"]
        # Tests that stop the kernel fail too.
        exits = session.promote("slugify", "import os\nassert slugify('a')\nos._exit(0)")
        assert exits.status_code == 422
    finally:
        session.close()
    assert GlobalTool.objects.count() == 0
    assert repl_sessions().owned(PROMOTION_OWNER) == []


def test_versions_demotion_and_another_keys_name(alice, bob):
    mine, theirs = Session(alice), Session(bob)
    try:
        mine.run("def double(x):\n    return x * 2\n")
        assert mine.promote("double", "assert double(2) == 4").status_code == 201
        theirs.run("def double(x):\n    return x + x\n")
        clash = theirs.promote("double", "assert double(2) == 4")
        assert clash.status_code == 409
        assert clash.json()["error"]["code"] == "tool_name_taken"

        mine.run("def double(x):\n    'Twice x.'\n    return 2 * x\n")
        second = mine.promote("double", "def test_it_doubles():\n    assert double(3) == 6\n")
        assert second.status_code == 201 and second.json()["version"] == 2
        versions = call("get", "/v1/tools/double", bob).json()
        assert [(v["version"], v["active"], v["author_is_you"]) for v in versions["data"]] == [
            (2, True, False),
            (1, False, False),
        ]
        assert "2 * x" in versions["data"][0]["source"]
        assert "test_it_doubles" in versions["data"][0]["tests"]

        # Only the author activates or demotes; a rollback makes version 1 active again.
        assert call("post", "/v1/tools/double/activate", bob, {"version": 1}).status_code == 409
        assert call("delete", "/v1/tools/double", bob).status_code == 409
        rolled = call("post", "/v1/tools/double/activate", alice, {"version": 1})
        assert (rolled.status_code, rolled.json()["version"]) == (200, 1)
        unknown = call("post", "/v1/tools/double/activate", alice, {"version": 9})
        assert unknown.status_code == 404
        demoted = call("delete", "/v1/tools/double", alice)
        assert demoted.status_code == 200 and demoted.json()["active"] is False
        assert call("delete", "/v1/tools/double", alice).status_code == 404
        assert call("get", "/v1/tools", alice).json()["data"] == []

        later = Session(bob)
        try:
            gone = later.run("from macaron_tools import double")
            assert gone["error"]["name"] == "ImportError"
        finally:
            later.close()
        # A name nobody holds is anyone's: bob's version is the third.
        taken = theirs.promote("double", "assert double(2) == 4")
        assert (taken.status_code, taken.json()["version"]) == (201, 3)
    finally:
        mine.close()
        theirs.close()
    assert GlobalTool.objects.filter(active=True).count() == 1


def test_bad_input_is_refused_clearly_and_stores_nothing(alice, bob):
    mine, theirs = Session(alice), Session(bob)
    try:
        # A cell of its own (IPython keeps its source), too big to send as one cell here.
        mine.run("get_ipython().run_cell('def big():\\n    return ' + ' + '.join(['1'] * 400))")
        mine.run(
            "def shout(text):\n    return text.upper()\n"
            "def twice(f):\n    return f\n"
            "@twice\ndef wrapped():\n    return 1\n"
            "def fixed(x=len('abc')):\n    return x\n"
            "halve = lambda x: x / 2\n"
            "number = 3\n"
            "from os.path import join\n"
        )
        tests = "assert shout('a') == 'A'"

        def refused(key: str, body: dict[str, Any]) -> tuple[int, str, str | None]:
            response = call("post", "/v1/tools", key, body)
            error = response.json()["error"]
            assert error["message"]
            return response.status_code, error["code"], error["param"]

        ok = {"session_id": mine.id, "name": "shout", "tests": tests}
        unknown = refused(alice, {**ok, "session_id": "0123456789abcdef"})
        assert unknown == (404, "session_not_found", "session_id")
        assert refused(bob, ok) == unknown  # alice's session, asked by bob
        assert refused(alice, {**ok, "tests": tests + "\n#" * 1000}) == (
            413,
            "tests_too_large",
            "tests",
        )
        big = {**ok, "name": "big", "tests": "assert big() == 400"}
        assert refused(alice, big) == (413, "source_too_large", "name")
        for name, code in [
            ("not a name", "invalid_tool_name"),
            ("_private", "invalid_tool_name"),
            ("print", "reserved_tool_name"),
            ("match", "reserved_tool_name"),
            ("annotations", "reserved_tool_name"),
            ("missing", "invalid_tool_function"),
            ("number", "invalid_tool_function"),
            ("halve", "invalid_tool_function"),
            ("join", "invalid_tool_function"),
            ("wrapped", "invalid_tool_function"),
            ("fixed", "invalid_tool_function"),
        ]:
            body = {**ok, "name": name, "tests": f"assert {name}(1)"}
            assert refused(alice, body) == (400, code, "name"), name
        for bad_tests in ["assert True", "shout('a')", "assert (", "shout = str.upper\n" + tests]:
            assert refused(alice, {**ok, "tests": bad_tests}) == (400, "invalid_tests", "tests")
        assert refused(alice, {**ok, "tests": 3})[2] == "tests"
        assert call("post", "/v1/tools", alice, b"{nope").status_code == 400
        assert Client().get("/v1/tools").status_code == 401
        assert call("get", "/v1/tools/shout", alice).status_code == 404
        wrong = call("post", "/v1/tools/shout/activate", alice, {"version": "1"})
        assert wrong.status_code == 400 and wrong.json()["error"]["param"] == "version"
        # Nothing was run or kept: the session is as it was.
        assert mine.run("shout('still here')")["result"] == "'STILL HERE'"
    finally:
        mine.close()
        theirs.close()
    assert GlobalTool.objects.count() == 0


def test_the_admin_lists_and_shows_global_tools():
    tool = GlobalTool.objects.create(
        name="slugify",
        version=1,
        source=SLUGIFY,
        signature="(text: str) -> str",
        tests=SLUGIFY_TESTS,
        author="key:1",
    )
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    client = Client()
    client.force_login(admin)
    listed = client.get("/admin/studio/globaltool/?q=slug")
    assert listed.status_code == 200 and b"slugify" in listed.content
    shown = client.get(f"/admin/studio/globaltool/{tool.pk}/change/")
    assert shown.status_code == 200 and b"re.findall" in shown.content
    demoted = client.post(
        "/admin/studio/globaltool/", {"action": "demote", "_selected_action": [tool.pk]}
    )
    assert demoted.status_code == 302
    tool.refresh_from_db()
    assert tool.active is False
