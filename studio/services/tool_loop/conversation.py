"""The conversation a tool-using request shows the model: the tools' system message first, the
assistant turns with their calls written the way the model writes them, and the tools' answers
as `tool` messages (the contract is inference/tool_calls.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inference.protocol import Message
from inference.tool_calls import GlobalToolDoc, ToolCall, render_call, tools_system_text


def _global_tool_docs() -> tuple[GlobalToolDoc, ...]:
    """The promoted tools every session can import, as the model is told of them. None yet:
    the global tools' registry (issue 15, item 4) feeds this."""
    return ()


def with_tools_system(
    messages: tuple[Message, ...], tools: Sequence[dict[str, Any]] | None
) -> tuple[Message, ...]:
    """The client's messages after the tools' system message (the worker puts the expert's own
    system prompt, the cached prefix, before both)."""
    if not tools:
        return messages
    text = tools_system_text(list(tools), _global_tool_docs())
    return (Message("system", text), *messages)


def assistant_turn_text(content: str, calls: Sequence[ToolCall]) -> str:
    """An assistant turn that called tools, as the model wrote it: its text, then each call."""
    return "\n".join(part for part in (content, *map(render_call, calls)) if part)
