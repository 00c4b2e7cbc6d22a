"""Short human names for nodes, such as "button 'Save'", for edit labels and diffs.

A node is named by its type and the first text a person would recognise it by; the same
choice gives the diff a node's identity, so a label and a diff entry name a node alike.
"""

from __future__ import annotations

from typing import Any

# The fields that name a node, most telling first.
NAMING_FIELDS = ("label", "title", "text", "name", "alt", "submit", "bind", "data", "md")
SHOWN_CHARS = 40


def naming_field(node: dict[str, Any]) -> tuple[str, str] | None:
    """(field, text) of the first non-blank naming field, or None when the node has none."""
    for field in NAMING_FIELDS:
        value = node.get(field)
        if isinstance(value, str) and value.strip():
            return field, value
    return None


def describe(node: object) -> str:
    """ "button 'Save'", "chart 'Revenue'", or just "row" when nothing names the node."""
    if not isinstance(node, dict):
        return "node"
    kind = node.get("t")
    name = kind if isinstance(kind, str) and kind else "node"
    named = naming_field(node)
    return f"{name} {quote(named[1])}" if named else name


def quote(text: str) -> str:
    """One line of at most SHOWN_CHARS characters, in single quotes."""
    line = " ".join(text.split())
    if len(line) > SHOWN_CHARS:
        line = line[: SHOWN_CHARS - 1].rstrip() + "…"
    return f"'{line}'"
