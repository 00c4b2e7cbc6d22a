"""The Chat Completions request, validated field by field into a typed, frozen value.

Unknown fields are ignored, as OpenAI's clients send extras (`user`, `stream_options`, ...);
known fields are checked strictly, and every refusal names its field in `param`.
"""

from __future__ import annotations

import json
import math
from typing import Any

from inference.protocol import Message
from studio.errors import InvalidRequest
from studio.services.completions import ChatCompletionRequest

ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
MAX_STOP = 4


def parse_json_object(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body)
    except ValueError:
        raise InvalidRequest("invalid_json", "The request body is not valid JSON.") from None
    except RecursionError:  # nested deeper than the parser's stack: `[[[[...` within the size cap
        raise InvalidRequest("invalid_json", "The request body is nested too deeply.") from None
    if not isinstance(data, dict):
        raise InvalidRequest("invalid_json", "The request body must be a JSON object.")
    return data


def parse_chat_request(body: bytes, *, max_tokens: int) -> ChatCompletionRequest:
    data = parse_json_object(body)
    router = data.get("router")
    if router is not None and not isinstance(router, str):
        raise _bad("router", "must be a string naming an expert")
    stream = data.get("stream", False)
    if not isinstance(stream, bool):
        raise _bad("stream", "must be true or false")
    n = data.get("n", 1)
    if n != 1:
        raise _bad("n", "only 1 is supported")
    tokens = data.get("max_completion_tokens", data.get("max_tokens"))
    if tokens is not None:
        tokens = _number("max_tokens", tokens, 0, low=1, high=max_tokens, integer=True)
    return ChatCompletionRequest(
        model=_required_string(data, "model"),
        messages=_messages(data.get("messages")),
        router=router,
        stream=stream,
        max_tokens=None if tokens is None else int(tokens),
        temperature=_number("temperature", data.get("temperature"), 1.0, low=0, high=2),
        top_p=_number("top_p", data.get("top_p"), 1.0, low=0, high=1, open_low=True),
        stop=_stop(data.get("stop")),
        tools=_tools(data.get("tools")),
    )


def _bad(param: str, problem: str) -> InvalidRequest:
    return InvalidRequest("invalid_value", f"'{param}' {problem}.", param=param)


def _required_string(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value:
        raise _bad(key, "is required and must be a string")
    return value


def _number(
    param: str,
    value: object,
    default: float,
    *,
    low: float,
    high: float,
    integer: bool = False,
    open_low: bool = False,
) -> float:
    if value is None:
        return default
    kinds = (int,) if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, kinds):
        raise _bad(param, "must be an integer" if integer else "must be a number")
    if not math.isfinite(value):  # Python's JSON parser takes NaN and Infinity; no range holds NaN
        raise _bad(param, "must be a finite number")
    too_low = value <= low if open_low else value < low
    if too_low or value > high:
        left = "(" if open_low else "["
        raise _bad(param, f"must be in {left}{low:g}, {high:g}]")
    return float(value)


def _content(value: object, index: int, role: str) -> str:
    """A string, or a list of text parts; assistant turns with only tool calls have none."""
    if value is None and role in ("assistant", "tool"):
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        texts = []
        for part in value:
            if not (isinstance(part, dict) and part.get("type") == "text"):
                raise _bad(f"messages[{index}].content", "may hold only text parts")
            text = part.get("text")
            if not isinstance(text, str):
                raise _bad(f"messages[{index}].content", "has a text part without text")
            texts.append(text)
        return "".join(texts)
    raise _bad(f"messages[{index}].content", "must be a string or a list of text parts")


def _messages(value: object) -> tuple[Message, ...]:
    if not isinstance(value, list) or not value:
        raise _bad("messages", "must be a non-empty list")
    messages = []
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise _bad(f"messages[{index}]", "must be an object")
        role = item.get("role")
        if role not in ROLES:
            raise _bad(f"messages[{index}].role", f"must be one of {', '.join(sorted(ROLES))}")
        # The chat template knows no "developer" role; it is OpenAI's newer name for system.
        role = "system" if role == "developer" else str(role)
        messages.append(Message(role, _content(item.get("content"), index, role)))
    if not any(m.role == "user" and m.content.strip() for m in messages):
        raise _bad("messages", "must include a user message with some text")
    return tuple(messages)


def _stop(value: object) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [value]
    if (
        not isinstance(value, list)
        or len(value) > MAX_STOP
        or not all(isinstance(s, str) and s for s in value)
    ):
        raise _bad("stop", f"must be a string or a list of at most {MAX_STOP} strings")
    return tuple(value)


def _tools(value: object) -> tuple[dict[str, Any], ...] | None:
    if value is None:
        return None
    if not isinstance(value, list) or not all(
        isinstance(t, dict) and t.get("type") == "function" and isinstance(t.get("function"), dict)
        for t in value
    ):
        raise _bad("tools", "must be a list of {'type': 'function', 'function': {...}} objects")
    return tuple(value) or None
