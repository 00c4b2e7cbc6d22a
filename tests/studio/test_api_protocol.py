"""Parsing a Chat Completions request: what OpenAI clients send is taken, the rest is named."""

from __future__ import annotations

import json
from typing import Any

import pytest

from inference.protocol import Message
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


@pytest.mark.parametrize(
    ("fields", "param"),
    [
        ({"top_p": 0}, "top_p"),
        ({"temperature": True}, "temperature"),
        ({"max_tokens": 1.5}, "max_tokens"),
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
