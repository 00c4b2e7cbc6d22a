"""Chat Completions response bodies and stream chunks, plus Macaron's extras.

Extras ride beside OpenAI's fields, which clients ignore: `router` (the expert that answered),
`routing` (how it was chosen, with scores for automatic routing), and for the ui expert
`view_url`, the repaired `spec` and its `problems`. The message content is always the text the
model wrote, identical in both modes.
"""

from __future__ import annotations

import json
from typing import Any

from studio.selectors import CompletionResult

# vLLM says "abort" for requests it stopped; OpenAI clients know only these.
FINISH_REASONS = {"stop": "stop", "length": "length"}


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


def _extras(result: CompletionResult, view_url: str | None) -> dict[str, Any]:
    usage = {
        "prompt_tokens": result.prompt_tokens,
        "completion_tokens": result.tokens,
        "total_tokens": result.prompt_tokens + result.tokens,
    }
    extras: dict[str, Any] = {"usage": usage}
    extras["timings"] = result.timings  # with adapter_load_ms: making the adapter resident
    if result.adapter_sha256:
        extras["adapter_sha256"] = result.adapter_sha256
    if result.structured:
        extras.update(view_url=view_url, spec=result.spec, problems=result.problems)
    if result.error:
        extras["warning"] = result.error  # e.g. a spec cut off at the token limit, then repaired
    return extras


def completion_body(result: CompletionResult, *, view_url: str | None) -> dict[str, Any]:
    return {
        **_head(result, "chat.completion"),
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": result.text},
                "finish_reason": FINISH_REASONS.get(result.finish_reason, "stop"),
            }
        ],
        **_extras(result, view_url),
    }


def chunk(result: CompletionResult, delta: dict[str, str]) -> bytes:
    body = {
        **_head(result, "chat.completion.chunk"),
        "choices": [{"index": 0, "delta": delta, "finish_reason": None}],
    }
    return _event(body)


def last_chunk(result: CompletionResult, *, view_url: str | None) -> bytes:
    body = {
        **_head(result, "chat.completion.chunk"),
        "choices": [
            {
                "index": 0,
                "delta": {},
                "finish_reason": FINISH_REASONS.get(result.finish_reason, "stop"),
            }
        ],
        **_extras(result, view_url),
    }
    return _event(body) + b"data: [DONE]\n\n"


def _event(body: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(body, separators=(',', ':'))}\n\n".encode()
