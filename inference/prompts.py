"""Turns a user's prompt into an engine request for an expert: system prompt, schema, limits.

The shared system prompt comes first and stays byte-identical across requests, so vLLM's
prefix cache keeps its KV resident.
"""

from __future__ import annotations

from typing import Any

from inference.experts import get_expert
from inference.protocol import GenerationRequest, Message

TEXT_SYSTEM_PROMPTS = {
    "chat": "You are Macaron's chat expert. Answer helpfully and concisely.",
    "agent": (
        "You are Macaron's agent expert. Reply with a plan of tool calls as JSON: "
        '{"steps":[{"tool":"name","args":{}}]}.'
    ),
    "coding": (
        "You are Macaron's coding expert. Reply with a Python function and a pytest test for it."
    ),
}


def ui_system_prompt() -> str:
    """Short on purpose. The trained ui expert learns the v1 catalog from its dataset, so the
    prompt only names the task; every token here is paid on each training example (about a
    third of the hour's budget went to a few-shot example before) and must stay byte-identical
    between training and serving for the adapter to see what it was trained on."""
    return (
        "You are Macaron's UI expert. Reply with one UI4A spec: compact JSON with a title, a "
        "root component tree and its initial state, for the interface the user asks for. "
        "For a follow-up request, reply with the whole revised spec."
    )


def system_prompt(expert: str) -> str:
    get_expert(expert)  # raises UnknownExpert for names that are not registered
    return ui_system_prompt() if expert == "ui" else TEXT_SYSTEM_PROMPTS[expert]


def request_for(*, request_id: str, expert: str, prompt: str, max_tokens: int) -> GenerationRequest:
    return chat_request_for(
        request_id=request_id,
        expert=expert,
        messages=(Message("user", prompt),),
        max_tokens=max_tokens,
    )


def chat_request_for(
    *,
    request_id: str,
    expert: str,
    messages: tuple[Message, ...],
    max_tokens: int,
    temperature: float = 0.0,
    top_p: float = 1.0,
    stop: tuple[str, ...] = (),
    tools: tuple[dict[str, Any], ...] | None = None,
) -> GenerationRequest:
    """A conversation for an expert: its system prompt first (the shared, cached prefix), then
    the caller's messages, system ones included, in their order."""
    json_schema = None
    if expert == "ui":
        import ui4a

        json_schema = ui4a.json_schema()
    return GenerationRequest(
        request_id=request_id,
        expert=expert,
        messages=(Message("system", system_prompt(expert)), *messages),
        max_tokens=max_tokens,
        temperature=temperature,
        top_p=top_p,
        stop=stop,
        json_schema=json_schema,
        tools=tools,
    )
