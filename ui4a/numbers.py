"""Numbers in a spec are held to a finite range.

JSON has no Infinity or NaN, but Python's json reads `1e400` as inf and accepts `NaN` and
`Infinity`, and any number of digits makes an int no float can hold. Such a value fails the
database's JSON check when the spec is saved (SQLite's JSON_VALID, PostgreSQL's jsonb) and makes
arithmetic such as round() raise OverflowError. Parsing and repair replace each with the
nearest finite number (NaN with 0). Every finite number is kept as it is, however large: data
is the user's, and arithmetic on it (ui4a/components/progress/view.py) clamps its own results.
"""

from __future__ import annotations

import math
import sys
from typing import Any

NUMBER_MAX = sys.float_info.max  # the largest finite number JSON readers agree on


def clamp_number(value: int | float) -> int | float:
    """`value` held to [-NUMBER_MAX, NUMBER_MAX]; NaN is 0."""
    if isinstance(value, float) and math.isnan(value):
        return 0
    if value > NUMBER_MAX:
        return NUMBER_MAX
    if value < -NUMBER_MAX:
        return -NUMBER_MAX
    return value


def clamp_numbers(value: Any, where: str = "", fixes: list[str] | None = None) -> Any:
    """`value` with every number in it clamped, changed in place (containers) and returned;
    each change is noted in `fixes` when given. Iterative: depth is whatever the input has."""
    if _is_number(value):
        return clamp_number(value)
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        container, at = stack.pop()
        entries = container.items() if isinstance(container, dict) else enumerate(container)
        for key, item in list(entries):
            if _is_number(item):
                clamped = clamp_number(item)
                if clamped is not item:
                    container[key] = clamped
                    if fixes is not None:
                        fixes.append(f"{at}/{key}: replaced {_shown(item)} by {clamped!r}")
            elif isinstance(item, (dict, list)):
                stack.append((item, f"{at}/{key}"))
    return value


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _shown(value: int | float) -> str:
    text = repr(value)
    return text if len(text) <= 24 else f"{text[:12]}... ({len(text)} digits)"
