"""The Chat Completions request, validated field by field into a typed, frozen value.

Unknown fields are ignored, as OpenAI's clients send extras (`user`, `stream_options`, ...);
known fields are checked strictly, and every refusal names its field in `param`.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from inference.protocol import Message
from inference.tool_calls import (
    MAX_CALL_CHARS,
    PROMOTE,
    PROMOTE_TOOL,
    PYTHON,
    PYTHON_TOOL,
    ToolCall,
)
from studio.errors import InvalidRequest
from studio.services.completions import ChatCompletionRequest
from studio.services.tool_loop.conversation import assistant_turn_text

ROLES = frozenset({"system", "developer", "user", "assistant", "tool"})
MAX_STOP = 4
MAX_TOOLS = 64
MAX_TURN_CALLS = 16  # calls in one assistant turn a client replays
MAX_ID_CHARS = 128  # a tool call's id, and `repl`'s session id
FUNCTION_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # OpenAI's rule for function names


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
    tools = _tools(data.get("tools"))
    repl = _repl(data.get("repl"), tools)
    if repl is not None:
        tools = _served_tools(tools)
    return ChatCompletionRequest(
        model=_required_string(data, "model"),
        messages=_messages(data.get("messages")),
        router=router,
        stream=stream,
        max_tokens=None if tokens is None else int(tokens),
        temperature=_number("temperature", data.get("temperature"), 1.0, low=0, high=2),
        top_p=_number("top_p", data.get("top_p"), 1.0, low=0, high=1, open_low=True),
        seed=_seed(data.get("seed")),
        stop=_stop(data.get("stop")),
        tools=tools,
        repl=repl,
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


def _seed(value: object) -> int | None:
    """OpenAI's `seed`, kept exact (never through a float). Not negative: vLLM reads -1 as no
    seed at all, which would sample afresh while the caller thinks it repeats."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise _bad("seed", "must be an integer")
    if not 0 <= value < 2**63:
        raise _bad("seed", "must be in [0, 2^63)")
    return value


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
    """The conversation. An assistant turn's `tool_calls` are written into its content as the
    model writes calls (so it sees its own calls); a `tool` message answers one of the calls
    of the assistant turn before it."""
    if not isinstance(value, list) or not value:
        raise _bad("messages", "must be a non-empty list")
    messages = []
    open_calls: set[str] = set()  # the ids a `tool` message may answer now
    for index, item in enumerate(value):
        if not isinstance(item, dict):
            raise _bad(f"messages[{index}]", "must be an object")
        role = item.get("role")
        if role not in ROLES:
            raise _bad(f"messages[{index}].role", f"must be one of {', '.join(sorted(ROLES))}")
        # The chat template knows no "developer" role; it is OpenAI's newer name for system.
        role = "system" if role == "developer" else str(role)
        content = _content(item.get("content"), index, role)
        if role == "assistant":
            calls = _assistant_calls(item.get("tool_calls"), index)
            open_calls = {call.id for call in calls}
            content = assistant_turn_text(content, calls)
        elif role == "tool":
            call_id = item.get("tool_call_id")
            if not isinstance(call_id, str) or call_id not in open_calls:
                raise _bad(
                    f"messages[{index}].tool_call_id",
                    "must name a tool call of the assistant message before it",
                )
        else:
            open_calls = set()
        messages.append(Message(role, content))
    if not any(m.role == "user" and m.content.strip() for m in messages):
        raise _bad("messages", "must include a user message with some text")
    return tuple(messages)


def _assistant_calls(value: object, index: int) -> list[ToolCall]:
    """OpenAI's `tool_calls`: [{"id", "type": "function", "function": {"name", "arguments"}}],
    the arguments a JSON object written as a string."""
    if value is None:
        return []
    where = f"messages[{index}].tool_calls"
    if not isinstance(value, list) or len(value) > MAX_TURN_CALLS:
        raise _bad(where, f"must be a list of at most {MAX_TURN_CALLS} calls")
    calls = []
    for number, call in enumerate(value):
        at = f"{where}[{number}]"
        if not isinstance(call, dict) or call.get("type", "function") != "function":
            raise _bad(at, "must be an object with 'type': 'function'")
        call_id, function = call.get("id"), call.get("function")
        if not isinstance(call_id, str) or not 0 < len(call_id) <= MAX_ID_CHARS:
            raise _bad(f"{at}.id", f"must be a string of 1 to {MAX_ID_CHARS} characters")
        if not isinstance(function, dict):
            raise _bad(f"{at}.function", "must be an object with 'name' and 'arguments'")
        name, arguments = function.get("name"), function.get("arguments", "{}")
        if not isinstance(name, str) or not FUNCTION_NAME.match(name):
            raise _bad(f"{at}.function.name", "must be 1 to 64 letters, digits, _ or -")
        calls.append(ToolCall(name, _arguments(arguments, f"{at}.function.arguments"), call_id))
    return calls


def _arguments(value: object, where: str) -> dict[str, Any]:
    if not isinstance(value, str) or len(value) > MAX_CALL_CHARS:
        raise _bad(where, f"must be a JSON object written as a string of at most {MAX_CALL_CHARS}")
    try:
        arguments = json.loads(value)
    except (ValueError, RecursionError):
        arguments = None
    if not isinstance(arguments, dict):
        raise _bad(where, "must be a JSON object written as a string")
    return arguments


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
    if (
        not isinstance(value, list)
        or len(value) > MAX_TOOLS
        or not all(
            isinstance(t, dict)
            and t.get("type") == "function"
            and isinstance(t.get("function"), dict)
            for t in value
        )
    ):
        raise _bad(
            "tools",
            f"must be a list of at most {MAX_TOOLS} {{'type': 'function', 'function': {{...}}}} "
            "objects",
        )
    names = [tool["function"].get("name") for tool in value]
    for number, name in enumerate(names):
        if not isinstance(name, str) or not FUNCTION_NAME.match(name):
            raise _bad(f"tools[{number}].function.name", "must be 1 to 64 letters, digits, _ or -")
        if names.index(name) != number:
            raise _bad(f"tools[{number}].function.name", f"repeats the name {name!r}")
    return tuple(value) or None


def _repl(value: object, tools: tuple[dict[str, Any], ...] | None) -> str | None:
    """Macaron's extension: "new", or the id of one of the key's REPL sessions, for the server
    to run the model's `python` calls in (the tool loop)."""
    if value is None:
        return None
    if not isinstance(value, str) or not 0 < len(value) <= MAX_ID_CHARS:
        raise _bad("repl", 'must be "new" or the id of one of your REPL sessions')
    names = {tool["function"]["name"] for tool in tools or ()}
    if PYTHON not in names:
        raise _bad(
            "repl",
            "needs a function tool named 'python' in 'tools': the server runs that tool's calls "
            "in the session",
        )
    return value


def _served_tools(tools: tuple[dict[str, Any], ...] | None) -> tuple[dict[str, Any], ...]:
    """With a session, the server serves `python` and `promote_tool` itself, by its own
    definitions, whatever the client wrote for them: the experts were trained on exactly this
    tools message (inference/tool_calls.py)."""
    theirs = tuple(
        tool for tool in tools or () if tool["function"]["name"] not in (PYTHON, PROMOTE)
    )
    return (PYTHON_TOOL, PROMOTE_TOOL, *theirs)
