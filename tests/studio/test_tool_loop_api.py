"""The tool loop of /v1/chat/completions, in-process: a scripted fake engine writes the model's
replies (tool calls, then an answer), and the server runs the python calls in real sandboxed
sessions (real kernels under bubblewrap) and feeds their output back. About 20 s (kernels
start)."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.test import AsyncClient

from inference.tool_calls import (
    PROMOTE_TOOL,
    PYTHON_TOOL,
    ToolCall,
    render_call,
    tools_system_text,
)
from studio.models import Generation
from studio.services.api_keys import api_key_create
from studio.services.repl import repl_session_close, repl_session_create
from tests.studio.conftest import FakeWorker
from tests.studio.repl_fixtures import repl_root
from tests.studio.test_api_completions import events, hang_up_after, post

__all__ = ["repl_root"]
TRAINED_TOOLS_MESSAGE = tools_system_text([PYTHON_TOOL, PROMOTE_TOOL])
pytestmark = [pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def repl_settings(settings: Any, repl_root: Path) -> None:
    settings.MACARON_REPL_HOME = repl_root
    settings.MACARON_REPL_CELL_SECONDS = 5.0
    settings.MACARON_REPL_MAX_SESSIONS = 3
    settings.MACARON_TOOL_LOOP_MAX_STEPS = 6


@pytest.fixture
def key() -> tuple[Any, str]:
    return api_key_create(name="alice")


@pytest.fixture
def sessions(key: tuple[Any, str]) -> Any:
    """Sessions the test opened, closed after it (kernels outlive the test otherwise)."""
    opened: list[str] = []
    yield opened
    owner = f"key:{key[0].pk}"
    for session_id in opened:
        repl_session_close(owner=owner, session_id=session_id)


def python(code: str) -> str:
    """A reply that calls the python tool, as the model writes it."""
    return render_call(ToolCall("python", {"code": code}))


def loop_request(repl: str | None = "new", **fields: Any) -> dict[str, Any]:
    return {
        "model": "macaron-tiny",
        "messages": [{"role": "user", "content": "What is 6 times 7? Use Python."}],
        "tools": [PYTHON_TOOL],
        "repl": repl,
        **fields,
    }


async def generations() -> list[Generation]:
    return [g async for g in Generation.objects.order_by("queued_at")]


async def test_it_runs_a_python_call_in_a_real_session_and_feeds_the_output_back(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str]
) -> None:
    fake_worker.script = [python("print(6 * 7)"), "It is 42."]
    response = await post(AsyncClient(), key[1], loop_request())
    assert response.status_code == 200, response.content
    body = response.json()
    sessions.append(body["repl"]["session_id"])
    assert body["choices"][0]["message"] == {"role": "assistant", "content": "It is 42."}
    assert body["choices"][0]["finish_reason"] == "stop"
    assert body["router"] == "agent"
    assert body["routing"] == {"expert": "agent", "mode": "tools"}
    [step] = body["repl"]["steps"]
    assert step["code"] == "print(6 * 7)"
    assert (step["stdout"], step["stderr"], step["result"], step["error"]) == (
        "42\n",
        "",
        None,
        None,
    )
    assert step["duration"] > 0 and not (
        step["truncated"] or step["timed_out"] or step["restarted"]
    )
    assert body["repl"]["stopped"] == "answer"

    first, second = await generations()
    assert body["id"] == f"chatcmpl-{first.id}"
    system, user = first.messages
    # the message the experts were trained on (inference/offline/datasets/tool_loop.py)
    assert system == {"role": "system", "content": TRAINED_TOOLS_MESSAGE}
    assert user["role"] == "user"
    assert second.messages == [
        system,
        user,
        {"role": "assistant", "content": python("print(6 * 7)")},
        {"role": "tool", "content": "42"},
    ]
    assert second.expert == "agent" and second.routing == first.routing
    usage = body["usage"]
    assert usage["prompt_tokens"] == first.prompt_tokens + second.prompt_tokens
    assert usage["completion_tokens"] == first.tokens + second.tokens > 0
    # The worker put the agent's own system prompt before the tools' one.
    request = fake_worker.engines[1].requests[0]
    assert [m.role for m in request.messages] == ["system", "system", "user", "assistant", "tool"]
    assert request.messages[1].content == TRAINED_TOOLS_MESSAGE and request.tools is None


async def test_a_variable_persists_across_steps_and_across_two_calls_with_the_same_session(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str]
) -> None:
    fake_worker.script = [python("total = 40"), python("total += 1"), "Stored."]
    first = (await post(AsyncClient(), key[1], loop_request())).json()
    session_id = first["repl"]["session_id"]
    sessions.append(session_id)
    assert [s["code"] for s in first["repl"]["steps"]] == ["total = 40", "total += 1"]

    fake_worker.script = [python("total + 1"), "42."]
    again = await post(AsyncClient(), key[1], loop_request(repl=session_id))
    assert again.status_code == 200, again.content
    body = again.json()
    assert body["repl"]["session_id"] == session_id
    assert body["repl"]["steps"][0]["result"] == "42"
    last = (await generations())[-1]
    assert last.messages[-1] == {"role": "tool", "content": "42"}


async def test_an_error_goes_back_to_the_model_as_its_last_line(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str]
) -> None:
    fake_worker.script = [python("1 / 0"), "Division by zero."]
    body = (await post(AsyncClient(), key[1], loop_request())).json()
    sessions.append(body["repl"]["session_id"])
    assert body["repl"]["steps"][0]["error"]["name"] == "ZeroDivisionError"
    last = (await generations())[-1]
    assert last.messages[-1] == {"role": "tool", "content": "ZeroDivisionError: division by zero"}


async def test_the_loop_stops_at_the_step_limit(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str], settings: Any
) -> None:
    settings.MACARON_TOOL_LOOP_MAX_STEPS = 2
    fake_worker.text = python("print('again')")
    body = (await post(AsyncClient(), key[1], loop_request())).json()
    sessions.append(body["repl"]["session_id"])
    assert body["repl"]["stopped"] == "step_limit"
    assert body["choices"][0]["finish_reason"] == "length"
    assert body["choices"][0]["message"]["content"] == ""
    assert [s["stdout"] for s in body["repl"]["steps"]] == ["again\n", "again\n"]
    assert len(await generations()) == 2


async def test_the_loop_stops_when_what_happened_no_longer_fits_the_input_limit(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str], settings: Any
) -> None:
    settings.MACARON_API_MAX_INPUT_CHARS = len(TRAINED_TOOLS_MESSAGE) + 300
    fake_worker.script = [python("print('x' * 400)"), "Never asked."]
    body = (await post(AsyncClient(), key[1], loop_request())).json()
    sessions.append(body["repl"]["session_id"])
    assert body["repl"]["stopped"] == "input_limit"
    assert body["choices"][0]["finish_reason"] == "length"
    assert body["repl"]["steps"][0]["stdout"] == "x" * 400 + "\n"
    assert len(await generations()) == 1


async def test_code_over_the_size_limit_is_not_run_and_the_model_is_told(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str], settings: Any
) -> None:
    settings.MACARON_REPL_CODE_MAX_BYTES = 20
    fake_worker.script = [python("print('far too long a cell')"), "Sorry."]
    body = (await post(AsyncClient(), key[1], loop_request())).json()
    sessions.append(body["repl"]["session_id"])
    assert body["repl"]["steps"] == []
    assert body["choices"][0]["message"]["content"] == "Sorry."
    tool_message = (await generations())[-1].messages[-1]
    assert tool_message["role"] == "tool"
    assert "at most 20" in tool_message["content"] and "Nothing was run" in tool_message["content"]


async def test_a_function_the_model_promotes_is_listed_and_imported_in_a_new_session(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str]
) -> None:
    define = python('def twice(x: int) -> int:\n    """Double it."""\n    return 2 * x')
    failing = render_call(
        ToolCall("promote_tool", {"name": "twice", "tests": "assert twice(2) == 5"})
    )
    passing = render_call(
        ToolCall("promote_tool", {"name": "twice", "tests": "assert twice(2) == 4"})
    )
    fake_worker.script = [define, failing, passing, "Saved."]
    body = (await post(AsyncClient(), key[1], loop_request())).json()
    sessions.append(body["repl"]["session_id"])
    steps = body["repl"]["steps"]
    assert [s.get("tool") for s in steps] == [None, "promote_tool", "promote_tool"]
    assert "AssertionError" in (await generations())[2].messages[-1]["content"]  # failed tests
    assert steps[1]["error"] and steps[2]["version"] == 1

    fake_worker.script = [python("from macaron_tools import twice\nprint(twice(21))"), "42"]
    again = (await post(AsyncClient(), key[1], loop_request())).json()
    sessions.append(again["repl"]["session_id"])
    assert again["repl"]["steps"][0]["stdout"] == "42\n"  # a new session imports it
    tools_message = (await generations())[-1].messages[0]
    assert tools_message["role"] == "system"
    assert "- twice(x: int) -> int: Double it." in tools_message["content"]


@pytest.fixture
def bob() -> tuple[Any, str]:
    return api_key_create(name="bob")


async def test_an_unknown_or_another_keys_session_is_not_found_and_nothing_runs(
    fake_worker: FakeWorker, key: tuple[Any, str], bob: tuple[Any, str]
) -> None:
    theirs = await sync_to_async(repl_session_create)(owner=f"key:{bob[0].pk}")
    try:
        for session_id in ("0123456789abcdef", theirs["id"], "../../etc"):
            response = await post(AsyncClient(), key[1], loop_request(repl=session_id))
            assert response.status_code == 404, response.content
            assert response.json()["error"]["code"] == "session_not_found"
            assert response.json()["error"]["param"] == "session_id"
    finally:
        await sync_to_async(repl_session_close)(owner=f"key:{bob[0].pk}", session_id=theirs["id"])
    assert await generations() == []


async def test_repl_needs_the_python_tool_and_ui_cannot_take_tools(
    fake_worker: FakeWorker, key: tuple[Any, str]
) -> None:
    weather = {"type": "function", "function": {"name": "get_weather", "parameters": {}}}
    no_python = await post(AsyncClient(), key[1], loop_request(tools=[weather]))
    assert no_python.status_code == 400
    assert no_python.json()["error"]["param"] == "repl"
    assert "python" in no_python.json()["error"]["message"]
    ui = await post(AsyncClient(), key[1], loop_request(repl=None, tools=[weather], router="ui"))
    assert ui.status_code == 400
    assert ui.json()["error"]["code"] == "tools_not_supported"
    assert await generations() == []


async def test_a_hang_up_while_a_cell_runs_starts_no_further_step_and_closes_the_session(
    fake_worker: FakeWorker, key: tuple[Any, str]
) -> None:
    fake_worker.script = [python("import time; time.sleep(3); print('slept')"), "Done."]

    async def cell_running() -> bool:
        if not (await _sessions_of(key) and await first_step_done()):
            return False
        await asyncio.sleep(1)  # the cell starts at once, and runs for 3 s
        return True

    await hang_up_after(post(AsyncClient(), key[1], loop_request()), cell_running)
    await asyncio.sleep(4)  # past the cell: a loop still going would start its next step now
    assert len(await generations()) == 1
    assert fake_worker.script == ["Done."]
    # The caller never learned the session's id: it is closed once the cell is done.
    await until_no_sessions(key)


async def test_a_hang_up_while_the_session_starts_closes_it_once_made(
    fake_worker: FakeWorker, key: tuple[Any, str]
) -> None:
    fake_worker.script = [python("print(1)"), "Done."]

    async def first_step_stored() -> bool:  # then the kernel starts, for a second or more
        return await Generation.objects.aexists()

    await hang_up_after(post(AsyncClient(), key[1], loop_request()), first_step_stored)
    await until_no_sessions(key)
    assert len(await generations()) == 1


async def first_step_done() -> bool:
    return await Generation.objects.filter(status=Generation.Status.DONE).aexists()


async def until_no_sessions(key: tuple[Any, str]) -> None:
    await asyncio.sleep(1)
    deadline = time.monotonic() + 20
    while await _sessions_of(key) and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    assert await _sessions_of(key) == []


async def test_a_hang_up_mid_step_cancels_that_steps_generation(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str]
) -> None:
    fake_worker.script = [python("print(1)"), "word " * 400]
    fake_worker.delay = 0.01
    fake_worker.hold_after = 20  # the second step waits for its abort: no race with its end

    async def second_step_decoding() -> bool:
        return await Generation.objects.filter(tokens__gt=0).acount() == 2

    request = post(AsyncClient(), key[1], loop_request(stream=True))

    async def read() -> None:
        response = await request
        async for _ in response.streaming_content:
            pass

    await hang_up_after(read(), second_step_decoding)
    await sync_to_async(fake_worker.join)()
    first, second = await generations()
    assert first.status == Generation.Status.DONE
    assert second.status == Generation.Status.CANCELLED
    assert fake_worker.engines[1].aborted == [str(second.id)]
    sessions.extend(await _sessions_of(key))


async def _sessions_of(key: tuple[Any, str]) -> list[str]:
    from studio.services.repl import repl_session_list

    listed = await sync_to_async(repl_session_list)(owner=f"key:{key[0].pk}")
    return [s["id"] for s in listed]


async def test_streaming_sends_each_cell_as_it_runs_and_never_the_call_markup(
    fake_worker: FakeWorker, key: tuple[Any, str], sessions: list[str]
) -> None:
    fake_worker.script = [
        "Let me compute.\n" + python("print(6 * 7)"),
        "  The answer is 42.  ",
    ]
    response = await post(AsyncClient(), key[1], loop_request(stream=True))
    assert response.status_code == 200
    data = events(b"".join([part async for part in response.streaming_content]))
    assert data[-1] == "[DONE]"
    chunks = [json.loads(d) for d in data[:-1]]
    sessions.append(chunks[-1]["repl"]["session_id"])
    kinds = []
    for chunk in chunks:
        delta = chunk["choices"][0]["delta"]
        if "repl_step" in chunk:
            assert delta == {}
            kinds.append(("step", chunk["repl_step"]["stdout"]))
        elif delta.get("content"):
            kinds.append(("text", delta["content"]))
    texts_before = "".join(t for kind, t in kinds[: [k for k, _ in kinds].index("step")])
    assert texts_before == "Let me compute."
    assert ("step", "42\n") in kinds
    after = "".join(t for kind, t in kinds[[k for k, _ in kinds].index("step") + 1 :])
    assert after == "The answer is 42."
    assert "<tool_call>" not in "".join(t for kind, t in kinds if kind == "text")
    last = chunks[-1]
    assert last["choices"][0]["finish_reason"] == "stop"
    assert last["repl"]["stopped"] == "answer"
    assert [s["stdout"] for s in last["repl"]["steps"]] == ["42\n"]
    assert last["usage"]["completion_tokens"] > 0
    assert {c["id"] for c in chunks} == {f"chatcmpl-{(await generations())[0].id}"}
