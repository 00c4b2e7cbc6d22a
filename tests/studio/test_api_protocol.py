"""Parsing a Chat Completions request: what OpenAI clients send is taken, the rest is named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inference.protocol import Message
from inference.tool_calls import PROMOTE_TOOL, PYTHON_TOOL
from studio.errors import InvalidRequest
from studio.web.api.protocol import parse_chat_request


def parse(**fields: Any) -> Any:
    body = {"model": "macaron-tiny", "messages": [{"role": "user", "content": "Hi"}], **fields}
    return parse_chat_request(json.dumps(body).encode(), max_tokens=2048)


def test_it_takes_the_issue_snippets_fields() -> None:
    request = parse(
        model="macaron-venti",
        router="coding",
        messages=[{"role": "user", "content": "Write a Python quicksort function"}],
        max_tokens=2048,
        temperature=0.7,
    )
    assert request.model == "macaron-venti"
    assert request.router == "coding"
    assert request.messages == (Message("user", "Write a Python quicksort function"),)
    assert (request.max_tokens, request.temperature, request.stream) == (2048, 0.7, False)


def test_it_takes_text_parts_null_tool_turns_stop_tools_and_ignores_extras() -> None:
    tool = {"type": "function", "function": {"name": "lookup", "parameters": {}}}
    request = parse(
        messages=[
            {"role": "developer", "content": "Be brief."},
            {
                "role": "user",
                "content": [{"type": "text", "text": "Hi "}, {"type": "text", "text": "there"}],
            },
            {"role": "assistant", "content": None, "tool_calls": []},
        ],
        stop="\n\n",
        tools=[tool],
        top_p=0.9,
        seed=2**63 - 1,
        stream=True,
        stream_options={"include_usage": True},
        user="someone",
    )
    assert request.messages == (
        Message("system", "Be brief."),
        Message("user", "Hi there"),
        Message("assistant", ""),
    )
    assert request.stop == ("\n\n",)
    assert request.tools == (tool,)
    assert (request.top_p, request.stream) == (0.9, True)
    assert request.seed == 2**63 - 1 and parse().seed is None


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"top_p": 0}, "top_p"),
        ({"temperature": True}, "temperature"),
        ({"max_tokens": 1.5}, "max_tokens"),
        ({"seed": 1.0}, "seed"),
        ({"seed": -1}, "seed"),
        ({"seed": 2**63}, "seed"),
        ({"n": 2}, "n"),
        ({"stream": "yes"}, "stream"),
        ({"router": 3}, "router"),
        ({"tools": [{"type": "code"}]}, "tools"),
        ({"stop": ["a", "b", "c", "d", "e"]}, "stop"),
        ({"messages": [{"role": "system", "content": "only a system turn"}]}, "messages"),
        (
            {"messages": [{"role": "user", "content": [{"type": "image_url"}]}]},
            "messages[0].content",
        ),
    ],
)
def test_it_names_the_field_it_refuses(fields: dict[str, Any], param: str) -> None:
    with pytest.raises(InvalidRequest) as raised:
        parse(**fields)
    assert raised.value.param == param


WEATHER = {"type": "function", "function": {"name": "get_weather", "parameters": {}}}
PYTHON = {"type": "function", "function": {"name": "python", "parameters": {}}}


def test_a_replayed_tool_call_is_written_as_the_model_writes_it() -> None:
    request = parse(
        messages=[
            {"role": "user", "content": "Weather?"},
            {
                "role": "assistant",
                "content": "Checking.",
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "-3 C"},
        ],
        tools=[WEATHER],
    )
    assert request.messages[1:] == (
        Message(
            "assistant",
            'Checking.\n<tool_call>\n{"name": "get_weather", "arguments": {"city": "Oslo"}}\n'
            "</tool_call>",
        ),
        Message("tool", "-3 C"),
    )


def test_repl_takes_new_or_a_session_id_with_the_python_tool() -> None:
    assert parse(tools=[PYTHON], repl="new").repl == "new"
    assert parse(tools=[PYTHON, WEATHER], repl="0123456789abcdef").repl == "0123456789abcdef"
    assert parse(tools=[PYTHON]).repl is None


def call_turn(**function: Any) -> list[dict[str, Any]]:
    call = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}", **function}}
    return [{"role": "user", "content": "Hi"}, {"role": "assistant", "tool_calls": [call]}]


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"repl": "new"}, "repl"),
        ({"repl": "new", "tools": [WEATHER]}, "repl"),
        ({"repl": 3, "tools": [PYTHON]}, "repl"),
        ({"repl": "x" * 200, "tools": [PYTHON]}, "repl"),
        ({"tools": [WEATHER, WEATHER]}, "tools[1].function.name"),
        ({"tools": [{"type": "function", "function": {"name": "a b"}}]}, "tools[0].function.name"),
        ({"tools": [WEATHER] * 65}, "tools"),
        (
            {"messages": call_turn(arguments="not json")},
            "messages[1].tool_calls[0].function.arguments",
        ),
        ({"messages": call_turn(arguments="[1]")}, "messages[1].tool_calls[0].function.arguments"),
        (
            {"messages": call_turn(arguments=json.dumps({"a": "x" * 20_000}))},
            "messages[1].tool_calls[0].function.arguments",
        ),
        ({"messages": call_turn(name="")}, "messages[1].tool_calls[0].function.name"),
        (
            {
                "messages": [
                    *call_turn(),
                    {"role": "user", "content": "?"},
                    {"role": "tool", "tool_call_id": "c"},
                ]
            },
            "messages[3].tool_call_id",
        ),
        (
            {"messages": [{"role": "user", "content": "Hi"}, {"role": "tool", "content": "x"}]},
            "messages[1].tool_call_id",
        ),
    ],
)
def test_it_names_the_tool_field_it_refuses(fields: dict[str, Any], param: str) -> None:
    with pytest.raises(InvalidRequest) as raised:
        parse(**fields)
    assert raised.value.param == param


def test_with_a_session_the_server_serves_python_and_promotion_by_its_own_definitions() -> None:
    promote = {"type": "function", "function": {"name": "promote_tool", "description": "mine"}}
    chat = parse(repl="new", tools=[WEATHER, PYTHON, promote])  # python and promote: the client's
    assert chat.tools == (PYTHON_TOOL, PROMOTE_TOOL, WEATHER)
    assert parse(tools=[PYTHON, promote]).tools == (PYTHON, promote)  # no session: as given
