"""Turns a user's prompt into an engine request for an expert: system prompt, schema, limits.

The shared system prompt comes first and stays byte-identical across requests, so vLLM's
prefix cache keeps its KV resident.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import ui4a
from inference.experts import Expert, get_expert
from inference.loras import AdapterRef
from inference.protocol import GenerationRequest, Message
from ui4a.tables import Table

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


def system_prompt(expert: str | Expert) -> str:
    """Built-ins have theirs here; a registered expert brings one in its manifest, or gets a
    line made of its name and purpose."""
    # A name alone must be a built-in: get_expert raises UnknownExpert for any other.
    spec = expert if isinstance(expert, Expert) else get_expert(expert)
    if spec.name == "ui":
        return ui_system_prompt()
    if spec.name in TEXT_SYSTEM_PROMPTS:
        return TEXT_SYSTEM_PROMPTS[spec.name]
    return spec.system_prompt or f"You are Macaron's {spec.name} expert: {spec.purpose}."


def request_for(
    *,
    request_id: str,
    expert: str | Expert,
    prompt: str,
    max_tokens: int,
    adapter: AdapterRef | None = None,
    tables: Sequence[Table] = (),
) -> GenerationRequest:
    return chat_request_for(
        request_id=request_id,
        expert=expert,
        messages=(Message("user", prompt),),
        max_tokens=max_tokens,
        adapter=adapter,
        tables=tables,
    )


def chat_request_for(
    *,
    request_id: str,
    expert: str | Expert,
    messages: tuple[Message, ...],
    max_tokens: int,
    temperature: float = 0.0,
    top_p: float = 1.0,
    seed: int | None = None,
    stop: tuple[str, ...] = (),
    tools: tuple[dict[str, Any], ...] | None = None,
    adapter: AdapterRef | None = None,
    tables: Sequence[Table] = (),
) -> GenerationRequest:
    """A conversation for an expert: its system prompt first (the shared, cached prefix), then
    the caller's messages, system ones included, in their order. `adapter` is the registered
    version to run; without it a built-in expert runs on its folder under the adapter root.
    A structured expert decodes under the UI4A schema, with queries only where there are
    datasets to query (`tables`, a studio project's uploads; their columns, not their rows),
    and then only over those datasets and their columns."""
    spec = expert if isinstance(expert, Expert) else get_expert(expert)
    json_schema = None
    if spec.structured:
        json_schema = ui4a.json_schema_over(tables) if tables else ui4a.json_schema(queries=False)
    return GenerationRequest(
        request_id=request_id,
        expert=spec.name,
        adapter=adapter,
        messages=(Message("system", system_prompt(spec)), *messages),
        max_tokens=max_tokens,
        temperature=temperature,
        top_p=top_p,
        seed=seed,
        stop=stop,
        json_schema=json_schema,
        tools=tools,
    )


class RefinementTooLarge(ValueError):
    """The spec to revise would not leave the model room to answer within its context."""


def compact_spec(spec: object) -> str:
    """A spec as the ui expert writes it, and as its refinement turns quote it: no whitespace."""
    return json.dumps(spec, separators=(",", ":"), ensure_ascii=False)


def refine_request_for(
    *,
    request_id: str,
    expert: str | Expert,
    first_prompt: str,
    spec: dict[str, Any],
    instruction: str,
    max_tokens: int,
    max_spec_chars: int,
    adapter: AdapterRef | None = None,
    tables: Sequence[Table] = (),
) -> GenerationRequest:
    """A refinement, in the shape of the ui dataset's refinement turns: the prompt that made the
    spec, the spec as the expert's own answer, then the instruction. The expert answers with
    the whole revised spec. Raises RefinementTooLarge for a spec over `max_spec_chars`."""
    spec_text = compact_spec(spec)
    if len(spec_text) > max_spec_chars:
        raise RefinementTooLarge(
            f"The version to refine is {len(spec_text):,} characters of spec; a refinement can "
            f"show the model at most {max_spec_chars:,}. Select one part of it to refine, or "
            "start over."
        )
    return chat_request_for(
        request_id=request_id,
        expert=expert,
        messages=(
            Message("user", first_prompt),
            Message("assistant", spec_text),
            Message("user", instruction),
        ),
        max_tokens=max_tokens,
        adapter=adapter,
        tables=tables,
    )
