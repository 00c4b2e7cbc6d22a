"""The tools the server runs itself while the loop is on, by name: `python` runs its code in the
caller's REPL session; `promote_tool` (saving a session's function as a global tool) answers
that promotion is not available until the global tools' registry serves it here.

Each takes the call and gives back the `tool` message the model reads next, and for a cell
that ran, the step the response reports. They block (a cell runs for up to its wall-time
limit): the loop calls them on a thread of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inference.tool_calls import PROMOTE, PYTHON, ToolCall, python_result_text
from studio.errors import TooLarge
from studio.services.repl import repl_execute

# What a step reports of a cell: the fields of POST /v1/repl/sessions/<id>/execute.
STEP_FIELDS = (
    "code",
    "stdout",
    "stderr",
    "result",
    "error",
    "duration",
    "truncated",
    "timed_out",
    "restarted",
    "notes",
)


@dataclass(frozen=True)
class ToolContext:
    owner: str  # the REPL owner, `key:<id>`
    session_id: str


@dataclass(frozen=True)
class ToolAnswer:
    message: str  # the `tool` message's content
    step: dict[str, Any] | None = None  # a cell that ran


ServerTool = Callable[[ToolContext, ToolCall], ToolAnswer]


def run_python(context: ToolContext, call: ToolCall) -> ToolAnswer:
    code = call.arguments.get("code")
    if not isinstance(code, str) or not code.strip():
        return ToolAnswer('The python tool takes {"code": "<Python to run>"}; nothing was run.')
    try:
        ran = repl_execute(owner=context.owner, session_id=context.session_id, code=code)
    except TooLarge as exc:  # the model's to fix, not the request's end
        return ToolAnswer(exc.message)
    step = {"code": code, **{name: ran.get(name) for name in STEP_FIELDS[1:]}}
    error = ran["error"]
    notes = "\n".join(ran.get("notes") or ())
    message = python_result_text(
        stdout=ran["stdout"],
        stderr="\n".join(part for part in (ran["stderr"], notes) if part),
        result=ran["result"],
        error={"ename": error["name"], "evalue": error["value"]} if error else None,
    )
    return ToolAnswer(message, step)


def promotion_unavailable(context: ToolContext, call: ToolCall) -> ToolAnswer:
    return ToolAnswer(
        f"{PROMOTE} is not available on this server yet; nothing was saved. The function "
        "stays defined in this session."
    )


SERVER_TOOLS: dict[str, ServerTool] = {PYTHON: run_python, PROMOTE: promotion_unavailable}
