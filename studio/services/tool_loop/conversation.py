"""The conversation a tool-using request shows the model: the tools' system message first, the
assistant turns with their calls written the way the model writes them, and the tools' answers
as `tool` messages (the contract is inference/tool_calls.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from inference.protocol import Message
from inference.tool_calls import ToolCall, render_call, tools_system_text
from studio.services.global_tools import global_tool_docs


def with_tools_system(
    messages: tuple[Message, ...], tools: Sequence[dict[str, Any]] | None
) -> tuple[Message, ...]:
    """The client's messages after the tools' system message (the worker puts the expert's own
    system prompt, the cached prefix, before both). The saved tools listed there come from the
    database."""
    if not tools:
        return messages
    text = tools_system_text(list(tools), global_tool_docs())
    return (Message("system", text), *messages)


def assistant_turn_text(content: str, calls: Sequence[ToolCall]) -> str:
    """An assistant turn that called tools, as the model wrote it: its text, then each call."""
    return "\n".join(part for part in (content, *map(render_call, calls)) if part)
