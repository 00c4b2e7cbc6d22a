"""Chat Completions response bodies and stream chunks, plus Macaron's extras.

Extras ride beside OpenAI's fields, which clients ignore: `router` (the expert that answered),
`routing` (how it was chosen, with scores for automatic routing), and for the ui expert
`view_url`, the repaired `spec` and its `problems`. The message content is always the text the
model wrote, identical in both modes.

With tools, the model's calls are read out of its text: calls for the client are OpenAI's
`tool_calls` (and `finish_reason: "tool_calls"`); with `repl`, the server runs the python
calls, and `repl` says what ran: `{"session_id", "steps": [...], "stopped"}`. The content is
then the last reply's text outside its calls (streamed, every step's text is sent as it is
written, and each cell that ran as a chunk with an empty delta and `repl_step`).
"""

from __future__ import annotations

import json
from typing import Any

from inference.tool_calls import ToolCall
from studio.selectors import CompletionResult
from studio.services.tool_loop.loop import LoopOutcome


def completion_id(result_id: object) -> str:
    return f"chatcmpl-{result_id}"


def _head(result: CompletionResult, kind: str) -> dict[str, Any]:
    return {
        "id": completion_id(result.id),
        "object": kind,
        "created": result.created,
        "model": result.model,
        "router": result.expert,
        "routing": result.routing,
    }


def _extras(outcome: LoopOutcome, view_url: str | None) -> dict[str, Any]:
    result = outcome.last
    usage = {  # every step's, with a tool loop
        "prompt_tokens": outcome.prompt_tokens,
        "completion_tokens": outcome.completion_tokens,
        "total_tokens": outcome.prompt_tokens + outcome.completion_tokens,
    }
    extras: dict[str, Any] = {"usage": usage}
    extras["timings"] = result.timings  # with adapter_load_ms: making the adapter resident
    if result.adapter_sha256:
        extras["adapter_sha256"] = result.adapter_sha256
    if result.structured:
        extras.update(view_url=view_url, spec=result.spec, problems=result.problems)
    if result.error:
        extras["warning"] = result.error  # e.g. a spec cut off at the token limit, then repaired
    if outcome.repl is not None:
        extras["repl"] = outcome.repl
    return extras


def completion_body(outcome: LoopOutcome, *, view_url: str | None) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": outcome.content}
    if outcome.tool_calls:
        message["content"] = outcome.content or None
        message["tool_calls"] = [_tool_call(call) for call in outcome.tool_calls]
    return {
        **_head(outcome.first, "chat.completion"),
        "choices": [{"index": 0, "message": message, "finish_reason": outcome.finish_reason}],
        **_extras(outcome, view_url),
    }


def chunk(result: CompletionResult, delta: dict[str, Any], **extra: Any) -> bytes:
    body = {
        **_head(result, "chat.completion.chunk"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
        **extra,
    }
    return _event(body)


def repl_step_chunk(result: CompletionResult, step: dict[str, Any]) -> bytes:
    """A cell the loop ran, as it happened: an empty delta, which OpenAI clients pass over."""
    return chunk(result, {}, repl_step=step)


def tool_calls_chunk(result: CompletionResult, calls: list[ToolCall]) -> bytes:
    """The client's calls, each whole in one delta (OpenAI clients join deltas by index)."""
    deltas = [{"index": index, **_tool_call(call)} for index, call in enumerate(calls)]
    return chunk(result, {"tool_calls": deltas})


def last_chunk(outcome: LoopOutcome, *, view_url: str | None) -> bytes:
    body = {
        **_head(outcome.first, "chat.completion.chunk"),
        "choices": [{"index": 0, "delta": {}, "finish_reason": outcome.finish_reason}],
        **_extras(outcome, view_url),
    }
    return _event(body) + b"data: [DONE]\n\n"


def _tool_call(call: ToolCall) -> dict[str, Any]:
    arguments = json.dumps(call.arguments, ensure_ascii=False)
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": arguments},
    }


def _event(body: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(body, separators=(',', ':'))}\n\n".encode()
