"""Tool calls in the experts' own words: how tools are shown to a model, and how its calls are
read back out of the text it writes.

The base model's chat template knows no tools, so Macaron shows them itself, in a second
system message after the expert's own (which stays the byte-identical, cached prefix), and the
model calls one by writing

    <tool_call>
    {"name": "python", "arguments": {"code": "print(6 * 7)"}}
    </tool_call>

Training examples (inference/offline/datasets/) and serving both use the functions here, so
the two cannot drift apart. Reading is bounded: a reply is scanned once, at most
`MAX_CALLS` calls of at most `MAX_CALL_CHARS` each are parsed, and anything that does not
parse as a call stays part of the answer's text.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

OPEN = "<tool_call>"
CLOSE = "</tool_call>"
PYTHON = "python"
PROMOTE = "promote_tool"  # served beside python: saves a session's function as a global tool
MAX_CALLS = 4
MAX_CALL_CHARS = 16_000
_CALL = re.compile(re.escape(OPEN) + r"(.*?)" + re.escape(CLOSE), re.DOTALL)

PYTHON_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": PYTHON,
        "description": "Run Python in a persistent session; variables and imports stay.",
        "parameters": {
            "type": "object",
            "properties": {"code": {"type": "string", "description": "Python to run."}},
            "required": ["code"],
        },
    },
}

PROMOTE_TOOL: dict[str, Any] = {
    "type": "function",
    "function": {
        "name": PROMOTE,
        "description": "Save a function from this session as a tool every session can import.",
        "parameters": {
            "type": "object",
            "properties": {
                "name": {"type": "string", "description": "The function's name."},
                "tests": {"type": "string", "description": "Python asserts it must pass."},
            },
            "required": ["name", "tests"],
        },
    },
}

PYTHON_GUIDE = (
    "You can run Python in a persistent session. To run code, reply with only\n"
    f'{OPEN}\n{{"name": "python", "arguments": {{"code": "..."}}}}\n{CLOSE}\n'
    "Its output comes back as a tool message. Fix any error and try again. When you know the "
    "answer, reply with it in plain words. To save a function you defined for later sessions, "
    f'call {PROMOTE} with {{"name": "<function>", "tests": "<asserts>"}}.'
)


@dataclass(frozen=True)
class ToolCall:
    name: str
    arguments: dict[str, Any]
    id: str = ""


@dataclass(frozen=True)
class GlobalToolDoc:
    """A promoted tool as the model is told of it: `from macaron_tools import <name>`."""

    name: str
    signature: str  # "(text: str) -> str"
    doc: str = ""


@dataclass(frozen=True)
class ParsedReply:
    content: str  # the text outside the calls, stripped
    calls: list[ToolCall] = field(default_factory=list)


def tools_system_text(
    tools: list[dict[str, Any]], global_tools: tuple[GlobalToolDoc, ...] = ()
) -> str:
    """The second system message: the python guide when `python` is among `tools`, the other
    functions as their JSON schemas, and the promoted tools a session can import."""
    parts = []
    names = [_function(tool).get("name") for tool in tools]
    if PYTHON in names:
        parts.append(PYTHON_GUIDE)
    others = [_function(tool) for tool in tools if _function(tool).get("name") != PYTHON]
    if others:
        listed = "\n".join(json.dumps(f, separators=(",", ":"), sort_keys=True) for f in others)
        parts.append(
            "You can call these functions. To call one, reply with only\n"
            f'{OPEN}\n{{"name": "<function>", "arguments": {{...}}}}\n{CLOSE}\n' + listed
        )
    if global_tools and PYTHON in names:
        lines = [
            f"- {tool.name}{tool.signature}: {_first_line(tool.doc)}".rstrip(": ")
            for tool in global_tools
        ]
        parts.append(
            "Saved tools, importable with `from macaron_tools import <name>`:\n" + "\n".join(lines)
        )
    return "\n\n".join(parts)


def render_call(call: ToolCall) -> str:
    """A call as the model writes it (an assistant turn that called a tool, when replayed)."""
    body = json.dumps({"name": call.name, "arguments": call.arguments}, ensure_ascii=False)
    return f"{OPEN}\n{body}\n{CLOSE}"


def parse_reply(text: str) -> ParsedReply:
    """The calls in a reply, and the text around them. A block that is not a JSON object with a
    string `name` and object `arguments` is not a call: it stays in the text."""
    calls: list[ToolCall] = []
    kept: list[str] = []
    position = 0
    for match in _CALL.finditer(text):
        call = _call(match.group(1)) if len(calls) < MAX_CALLS else None
        kept.append(text[position : match.start()] if call else text[position : match.end()])
        position = match.end()
        if call is not None:
            calls.append(ToolCall(call.name, call.arguments, id=f"call_{len(calls)}"))
    kept.append(text[position:])
    return ParsedReply("".join(kept).strip(), calls)


def python_result_text(
    *, stdout: str, stderr: str, result: str | None, error: dict[str, Any] | None, limit: int = 2000
) -> str:
    """A cell's outcome as the tool message the model reads: output, value, then the error's
    last line (what a person reads first in a traceback), cut to `limit` characters."""
    parts = []
    if stdout:
        parts.append(stdout.rstrip("\n"))
    if stderr:
        parts.append(stderr.rstrip("\n"))
    if result is not None:
        parts.append(result)
    if error:  # the REPL's cells say name/value; Jupyter's own messages ename/evalue
        name = error.get("name", error.get("ename", "Error"))
        value = error.get("value", error.get("evalue", ""))
        parts.append(f"{name}: {value}".rstrip(": "))
    text = "\n".join(parts) or "(no output)"
    return text if len(text) <= limit else text[: limit - 12] + "\n[truncated]"


def promote_result_text(*, name: str, version: int) -> str:
    """The tool message a successful `promote_tool` call gets back (a failed one gets the error,
    as a python cell's does, through `python_result_text`)."""
    return f"Saved {name} as a global tool (version {version}): from macaron_tools import {name}"


def _call(body: str) -> ToolCall | None:
    if len(body) > MAX_CALL_CHARS:
        return None
    try:
        data = json.loads(body)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    name, arguments = data.get("name"), data.get("arguments", {})
    if isinstance(arguments, str):  # OpenAI's wire format carries arguments as a JSON string
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(name, str) or not name or not isinstance(arguments, dict):
        return None
    return ToolCall(name, arguments)


def _function(tool: dict[str, Any]) -> dict[str, Any]:
    function = tool.get("function")
    return function if isinstance(function, dict) else {}


def _first_line(doc: str) -> str:
    return doc.strip().splitlines()[0] if doc.strip() else ""
