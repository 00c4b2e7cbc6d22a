"""The server-run loop of one API request, or of a question asked from a project's Python
panel. Each step is one generation on the request's usual path (a Generation row, a Celery
task, batches on the channel layer); its reply is read for tool calls; the server's own tools
(`python`, `promote_tool`) run and answer as `tool` messages, and the next step starts,
until the model answers without calls, calls a client's function (those go back to the
client), or MACARON_TOOL_LOOP_MAX_STEPS replies were made.

A request without tools is one step whose text is the answer, unparsed. A client that hangs
up cancels the coroutine driving the loop: the running generation is cancelled by the
request's lifecycle, and no further step starts (a cell already running finishes in its
session, whose lock keeps the next cell waiting; a session made for the request is closed).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from channels.db import database_sync_to_async
from django.conf import settings

from inference.protocol import Message
from inference.tool_calls import ToolCall, parse_reply
from studio.blocking import off_thread
from studio.errors import InvalidRequest
from studio.models import ApiKey
from studio.selectors import CompletionResult
from studio.services.api_requests import CompletionRequest
from studio.services.completions import ChatCompletionRequest, input_chars
from studio.services.repl import (
    repl_owner_for_key,
    repl_session_close,
    repl_session_create,
    repl_session_get,
)
from studio.services.tool_loop.conversation import assistant_turn_text, with_tools_system
from studio.services.tool_loop.reply_stream import CallFilter
from studio.services.tool_loop.server_tools import SERVER_TOOLS, ToolContext

T = TypeVar("T")
NEW_SESSION = "new"
# vLLM says "abort" for requests it stopped; OpenAI clients know only these.
FINISH_REASONS = {"stop": "stop", "length": "length"}


@dataclass(frozen=True)
class ReplStep:
    """A cell the loop ran, as it happened (streamed as a `repl_step` chunk)."""

    step: dict[str, Any]


@dataclass
class LoopOutcome:
    """How the request ended: the answer's text, calls for the client, what the loop ran."""

    first: CompletionResult  # names the response (its id, created), as the stream began
    last: CompletionResult  # the reply that ended it: timings, adapter, spec
    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    finish_reason: str = "stop"
    prompt_tokens: int = 0
    completion_tokens: int = 0
    repl: dict[str, Any] | None = None  # session_id, steps, stopped


def single_outcome(result: CompletionResult) -> LoopOutcome:
    """One generation's answer, as a request without tools gets it."""
    return LoopOutcome(
        first=result,
        last=result,
        content=result.text,
        finish_reason=FINISH_REASONS.get(result.finish_reason, "stop"),
        prompt_tokens=result.prompt_tokens,
        completion_tokens=result.tokens,
    )


def _close_later(owner: str, session_id: str) -> None:
    """Close a session on a thread nobody waits for: after a cell still running (its lock)."""
    threading.Thread(target=_close_quietly, args=(owner, session_id), name="repl-close").start()


def _close_quietly(owner: str, session_id: str) -> None:
    with contextlib.suppress(InvalidRequest):  # gone already
        repl_session_close(owner=owner, session_id=session_id)


class ToolLoop:
    """One loop, two callers: an API key's request (`for_api_key`), and a studio user's
    question from a project's Python panel, run in the project's session (services/repl_ask.py).
    `request` owns the generations and their limits; `owner` is whose REPL sessions it uses."""

    def __init__(self, chat: ChatCompletionRequest, request: CompletionRequest, owner: str) -> None:
        self.chat = chat
        self.owner = owner
        self.conversation = chat.messages  # with the tools' system message once started
        self.request = request
        self.session_id: str | None = None
        self.steps: list[dict[str, Any]] = []
        self.outcome: LoopOutcome | None = None
        self.first: CompletionResult | None = None

    @classmethod
    def for_api_key(cls, api_key: ApiKey, chat: ChatCompletionRequest) -> ToolLoop:
        return cls(chat, CompletionRequest(api_key, chat), repl_owner_for_key(api_key))

    @property
    def server_tools(self) -> bool:
        """Whether the server runs the model's python calls (a `repl` session was given)."""
        return self.chat.repl is not None

    async def start(self) -> CompletionResult:
        """Check or make the session, then start the first step. Raises `InvalidRequest` before
        anything is sent: an unknown or another key's session (404), an expired one (410), a
        host without the sandbox (503), too many sessions (429), and the request's own."""
        repl = self.chat.repl
        if repl is not None and repl != NEW_SESSION:
            session = await off_thread(repl_session_get, owner=self.owner, session_id=repl)
            self.session_id = session["id"]
        # The saved tools it lists are read from the database: not on the event loop.
        self.conversation = await database_sync_to_async(with_tools_system)(
            self.chat.messages, self.chat.tools
        )
        self.request.chat = replace(self.chat, messages=self.conversation)
        started = self.first = await self.request.start()
        if repl == NEW_SESSION:
            try:
                self.session_id = await self._new_session()
            except BaseException:
                await self.finish()
                raise
        return started

    async def _new_session(self) -> str:
        """A kernel starts in a second or two, on a thread that goes on if the client hangs up
        meanwhile: the session it makes is then closed, as nobody will learn its id."""
        making = asyncio.ensure_future(off_thread(repl_session_create, owner=self.owner))
        try:
            session = await asyncio.shield(making)
        except asyncio.CancelledError:
            making.add_done_callback(self._close_unclaimed)
            raise
        return str(session["id"])

    def _close_unclaimed(self, making: asyncio.Future[dict[str, Any]]) -> None:
        if not making.cancelled() and making.exception() is None:
            _close_later(self.owner, making.result()["id"])

    async def run(self) -> AsyncIterator[str | ReplStep]:
        """The answer's text as it is written (calls left out) and each cell as it runs; then
        `outcome` holds the result. Raises `InvalidRequest` (a failed generation, a session
        gone mid-loop, ...)."""
        prompt_tokens = completion_tokens = 0
        while True:
            shown = CallFilter() if self.chat.tools else None
            async for piece in self.request.pieces():
                text = shown.feed(piece) if shown else piece
                if text:
                    yield text
            if shown and (rest := shown.end()):
                yield rest
            result = await self.request.result()
            prompt_tokens += result.prompt_tokens
            completion_tokens += result.tokens
            outcome = self._outcome_of(result)
            outcome.prompt_tokens, outcome.completion_tokens = prompt_tokens, completion_tokens
            if not outcome.repl or outcome.repl["stopped"]:
                self.outcome = outcome
                return
            reply = parse_reply(result.text)
            answers = []
            for call in reply.calls:
                tool = SERVER_TOOLS[call.name]
                answer = await off_thread(tool, context=self._context(), call=call)
                answers.append(answer.message)
                if answer.step is not None:
                    self.steps.append(answer.step)
                    yield ReplStep(answer.step)
            turns = (
                Message("assistant", assistant_turn_text(reply.content, reply.calls)),
                *(Message("tool", text) for text in answers),
            )
            self.conversation = (*self.conversation, *turns)
            stopped = self._limit_reached()
            if stopped:
                outcome.repl = self._repl_summary(stopped)
                outcome.finish_reason = "length"
                self.outcome = outcome
                return
            await self.request.next_generation(self.conversation)

    async def finish(self) -> None:
        """The request is over (answered, failed, or the client gone). A session it made for a
        caller who never learned its id is closed, so it holds none of the key's sessions."""
        try:
            await self.request.finish()
        finally:
            if self.outcome is None and self.chat.repl == NEW_SESSION and self.session_id:
                _close_later(self.owner, self.session_id)

    def _outcome_of(self, result: CompletionResult) -> LoopOutcome:
        """One step's reply: the answer, calls for the client, or (stopped None) calls the
        server runs before the next step."""
        if not self.chat.tools:
            return single_outcome(result)
        reply = parse_reply(result.text)
        served = SERVER_TOOLS if self.server_tools else {}
        outcome = LoopOutcome(first=self.first or result, last=result, content=reply.content)
        if any(call.name not in served for call in reply.calls):
            # A client's function among them: every call of the reply goes back to the client
            # (none is dropped, and none runs half of a turn the model meant as one).
            outcome.tool_calls = [
                replace(call, id=f"call_{result.id.hex[:20]}_{index}")  # unique in a conversation
                for index, call in enumerate(reply.calls)
            ]
            outcome.finish_reason = "tool_calls"
            stopped: str | None = "tool_calls"
        elif reply.calls:
            stopped = None
        else:
            outcome.finish_reason = FINISH_REASONS.get(result.finish_reason, "stop")
            stopped = "answer"
        if self.server_tools:
            outcome.repl = self._repl_summary(stopped)
        return outcome

    def _limit_reached(self) -> str | None:
        if self.request.generations >= settings.MACARON_TOOL_LOOP_MAX_STEPS:
            return "step_limit"
        if input_chars(self.conversation) > settings.MACARON_API_MAX_INPUT_CHARS:
            return "input_limit"  # the next step could not be shown all that happened
        return None

    def _context(self) -> ToolContext:
        assert self.session_id is not None  # server tools run only with a session
        return ToolContext(owner=self.owner, session_id=self.session_id)

    def _repl_summary(self, stopped: str | None) -> dict[str, Any]:
        return {"session_id": self.session_id, "steps": list(self.steps), "stopped": stopped}
