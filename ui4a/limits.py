"""Hard limits on what ui4a will look at, checked before any recursive work.

Everything here is iterative so that hostile input (say, 10,000 nested arrays) is refused in
bounded time instead of blowing the stack.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


class SpecTooLarge(ValueError):
    """The input is over a hard limit; it is refused, not repaired."""


@dataclass(frozen=True)
class Limits:
    max_bytes: int = 256 * 1024
    max_depth: int = 32  # JSON nesting depth (objects and arrays)
    max_nodes: int = 2000  # UI nodes (objects in the root tree)


DEFAULT_LIMITS = Limits()

# A JSON string (possibly unterminated at the end of a prefix) or one bracket.
_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.DOTALL)


def check_text(text: str, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse text that is too many bytes or nests too deeply, without parsing it."""
    # len() is cheap and a lower bound on the UTF-8 size; only encode when it could matter.
    if len(text) > limits.max_bytes or (
        len(text) * 4 > limits.max_bytes and len(text.encode("utf-8")) > limits.max_bytes
    ):
        raise SpecTooLarge(f"spec text is over {limits.max_bytes} bytes")
    depth = 0
    for match in _TOKENS.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limits.max_depth:
                raise SpecTooLarge(f"spec nests deeper than {limits.max_depth} levels")
        elif token in "]}":
            depth -= 1


def check_value(spec: object, limits: Limits = DEFAULT_LIMITS) -> None:
    """Refuse a decoded spec that nests too deeply, has too many nodes or too much text."""
    # (value, depth, is_ui_node); the stack never holds more than one level's siblings per depth.
    stack: list[tuple[object, int, bool]] = [(spec, 0, False)]
    nodes = 0
    size = 0
    while stack:
        value, depth, is_node = stack.pop()
        if isinstance(value, str):
            size += len(value)
            if size > limits.max_bytes:
                raise SpecTooLarge(f"spec text is over {limits.max_bytes} bytes")
            continue
        if not isinstance(value, (dict, list)):
            continue
        depth += 1
        if depth > limits.max_depth:
            raise SpecTooLarge(f"spec nests deeper than {limits.max_depth} levels")
        if isinstance(value, list):
            stack.extend((item, depth, is_node) for item in value)
            continue
        if is_node:
            nodes += 1
            if nodes > limits.max_nodes:
                raise SpecTooLarge(f"spec has more than {limits.max_nodes} nodes")
        for key, item in value.items():
            size += len(key)
            # Root of the spec holds the first node; a node's "c" holds nodes.
            child_is_node = (depth == 1 and key == "root") or (is_node and key == "c")
            stack.append((item, depth, child_is_node))
