"""The tools the server runs itself while the loop is on, by name: `python` runs its code in the
caller's REPL session; `promote_tool` saves a function of that session as a global tool once
its tests pass in a fresh sandbox (services/global_tools.py).

Each takes the call and gives back the `tool` message the model reads next, and for a cell
that ran, the step the response reports. They block (a cell runs for up to its wall-time
limit): the loop calls them on a thread of their own.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from inference.tool_calls import (
    PROMOTE,
    PYTHON,
    ToolCall,
    promote_result_text,
    python_result_text,
)
from studio.errors import InvalidRequest, TooLarge
from studio.services.global_tools import ToolTestsFailed, global_tool_promote
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
    owner: str  # the REPL owner, `key:<id>` (an API key's) or `user:<id>` (a studio user's)
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
        ran = repl_execute(
            owner=context.owner, session_id=context.session_id, code=code, by="expert"
        )
    except TooLarge as exc:  # the model's to fix, not the request's end
        return ToolAnswer(exc.message)
    step = {"code": code, **{name: ran.get(name) for name in STEP_FIELDS[1:]}}
    error = ran["error"]  # name, value, traceback: the model reads the first two
    notes = "\n".join(ran.get("notes") or ())
    message = python_result_text(
        stdout=ran["stdout"],
        stderr="\n".join(part for part in (ran["stderr"], notes) if part),
        result=ran["result"],
        error=error,
    )
    return ToolAnswer(message, step)


def promote(context: ToolContext, call: ToolCall) -> ToolAnswer:
    """The refusals (bad name, failing tests, a name another author holds, ...) are the model's
    to read and act on, as a person reads an error; only the session's own loss ends the loop."""
    name, tests = call.arguments.get("name"), call.arguments.get("tests")
    step: dict[str, Any] = {"tool": PROMOTE, "name": name, "tests": tests}
    try:
        saved = global_tool_promote(
            owner=context.owner,
            session_id=context.session_id,
            name=name if isinstance(name, str) else "",
            tests=tests if isinstance(tests, str) else "",
        )
    except ToolTestsFailed as exc:
        return ToolAnswer(f"{exc.message}\n{exc.output}".strip(), {**step, "error": exc.message})
    except InvalidRequest as exc:
        if exc.code in ("session_not_found", "session_expired"):
            raise
        return ToolAnswer(exc.message, {**step, "error": exc.message})
    message = promote_result_text(name=saved["name"], version=saved["version"])
    return ToolAnswer(message, {**step, "result": message, "version": saved["version"]})


SERVER_TOOLS: dict[str, ServerTool] = {PYTHON: run_python, PROMOTE: promote}
