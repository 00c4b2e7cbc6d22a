"""Hard limits on what ui4a will look at, checked before any recursive work.

Everything here is iterative so that hostile input (say, 10,000 nested arrays) is refused in
bounded time instead of blowing the stack.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any


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
    # One iterator per open container: memory follows the depth (bounded), never the width, so
    # a list of a million nodes costs no more to refuse than one of 2001. Every value counts
    # against a budget too: JSON spends at least two bytes a value, so a spec with more values
    # than max_bytes / 2 cannot have come from text within the limit, and time stays bounded.
    budget = limits.max_bytes // 2
    stack: list[Iterator[tuple[object, object, bool]]] = []
    nodes = size = count = 0
    key: object = None
    value, is_node = spec, False
    while True:
        count += 1
        if count > budget:
            raise SpecTooLarge(f"spec has more values than {limits.max_bytes} bytes can hold")
        if isinstance(key, str):
            size += len(key)
        if isinstance(value, str):
            size += len(value)
        if size > limits.max_bytes:
            raise SpecTooLarge(f"spec text is over {limits.max_bytes} bytes")
        if isinstance(value, (dict, list)):
            depth = len(stack) + 1
            if depth > limits.max_depth:
                raise SpecTooLarge(f"spec nests deeper than {limits.max_depth} levels")
            if isinstance(value, list):
                stack.append(_entries(value, is_node, depth))
            else:
                if is_node:
                    nodes += 1
                    if nodes > limits.max_nodes:
                        raise SpecTooLarge(f"spec has more than {limits.max_nodes} nodes")
                stack.append(_entries(value, is_node, depth))
        while stack:
            following = next(stack[-1], None)
            if following is not None:
                key, value, is_node = following
                break
            stack.pop()
        else:
            return


def _entries(
    container: dict[Any, Any] | list[Any], is_node: bool, depth: int
) -> Iterator[tuple[object, object, bool]]:
    """(key or None, value, whether the value is a UI node) for each entry of a container."""
    if isinstance(container, list):
        for item in container:
            yield None, item, is_node
        return
    for key, item in container.items():
        # Root of the spec holds the first node; a node's "c" holds nodes.
        yield key, item, (depth == 1 and key == "root") or (is_node and key == "c")
