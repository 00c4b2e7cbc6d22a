"""How state values read in the view: formatting, truthiness and `{key}` interpolation.

These rules are mirrored exactly by static/ui4a/runtime.js, so server-rendered text matches
what the browser shows after it re-applies state. Inside a list's item template `{.field}`
reads the current item.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

# `{key}` placeholders (state) and `{.field}` ones (the current list item); any other brace is
# literal text.
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]{0,39})\}")
ANY_PLACEHOLDER = re.compile(r"\{(\.?)([A-Za-z_][A-Za-z0-9_]{0,39})\}")


def is_finite(value: int | float) -> bool:
    """math.isfinite, except that an int too large for a float is not finite either: JSON
    allows any number of digits, and the browser reads such a number as Infinity."""
    try:
        return math.isfinite(value)
    except OverflowError:
        return False


def format_value(value: object) -> str:
    """A state value as text, the way JavaScript's String() shows it."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isfinite(value) and value == int(value):
            return str(int(value))
        return repr(value)
    if isinstance(value, (int, str)):
        return str(value)
    return ""  # objects and arrays have no text form in a view


def format_cell(value: object) -> str:
    """A table cell: numbers with thousands separators and at most two decimals."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return format_value(value)
    if not is_finite(value):
        return ""
    text = f"{abs(value):,.2f}".rstrip("0").rstrip(".")
    return f"-{text}" if value < 0 and text != "0" else text


def truthy(value: object) -> bool:
    """JavaScript truthiness for the scalar values state may hold."""
    if isinstance(value, float) and math.isnan(value):
        return False
    return bool(value) if isinstance(value, (str, int, float, bool)) else value is not None


def placeholders(text: str) -> list[str]:
    """The state keys `{key}` placeholders in text refer to, in order."""
    return PLACEHOLDER.findall(text)


def has_placeholders(text: str) -> bool:
    return ANY_PLACEHOLDER.search(text) is not None


def interpolate(
    text: str, state: Mapping[str, object], item: Mapping[str, object] | None = None
) -> str:
    def value(m: re.Match[str]) -> str:
        if m.group(1):
            return format_value(item.get(m.group(2))) if item is not None else m.group(0)
        return format_value(state.get(m.group(2)))

    return ANY_PLACEHOLDER.sub(value, text)
