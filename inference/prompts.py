"""Turns a user's prompt into an engine request for an expert: system prompt, schema, limits.

The shared system prompt comes first and stays byte-identical across requests, so vLLM's
prefix cache keeps its KV resident.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from inference.experts import get_expert
from inference.protocol import GenerationRequest, Message

UI_EXAMPLE_PATH = Path(__file__).with_name("ui_example.json")

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
    """Short on purpose: the untrained 135M model follows a short prompt and one example best.
    Listing the whole v1 catalog here made it drift (the sign-up prompt lost its checkbox and
    its state-driven text); the trained ui expert learns the catalog from data instead."""
    example = json.dumps(json.loads(UI_EXAMPLE_PATH.read_text()), separators=(",", ":"))
    return (
        "You are Macaron's UI expert. You write UI4A specs: compact JSON describing an "
        "interactive interface. Components: page, stack, row, card, heading, text, input, "
        "checkbox, button. Inputs and checkboxes bind to state keys; text shows state with "
        "{key}; buttons run an action (set or toggle a state key); 'if' shows a node only "
        "when its state key is true.\n"
        f"Example, for 'a newsletter signup box':\n{example}"
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
