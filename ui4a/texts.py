"""Strings in a spec are held to what UTF-8 can carry.

JSON's `\\ud800` escapes read as lone surrogates in Python: valid str, but no UTF-8 encoder
takes them, so the sanitizer (nh3), the HTTP response and the database driver all raise on
them. Parsing and repair replace each with U+FFFD, in values and keys alike.
"""

from __future__ import annotations

import re
from typing import Any

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
REPLACEMENT = "\ufffd"


def encodable(text: str) -> str:
    """`text` with every surrogate code point replaced by U+FFFD."""
    return _LONE_SURROGATE.sub(REPLACEMENT, text)


def encodable_strings(value: Any, fixes: list[str] | None = None) -> Any:
    """`value` with every string and key made encodable, changed in place (containers) and
    returned; one line in `fixes` when anything changed. Iterative: depth is whatever the input
    has."""
    if isinstance(value, str):
        return encodable(value)
    changed = False
    stack: list[Any] = [value]
    while stack:
        container = stack.pop()
        if isinstance(container, dict):
            for key in list(container):
                item = container[key]
                if isinstance(key, str) and _LONE_SURROGATE.search(key):
                    del container[key]
                    key, changed = encodable(key), True
                    container[key] = item
                if isinstance(item, str) and _LONE_SURROGATE.search(item):
                    container[key], changed = encodable(item), True
                elif isinstance(item, (dict, list)):
                    stack.append(item)
        elif isinstance(container, list):
            for index, item in enumerate(container):
                if isinstance(item, str) and _LONE_SURROGATE.search(item):
                    container[index], changed = encodable(item), True
                elif isinstance(item, (dict, list)):
                    stack.append(item)
    if changed and fixes is not None:
        fixes.append("replaced unpaired surrogate escapes in strings by U+FFFD")
    return value
