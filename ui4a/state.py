"""How state values read in the view: formatting, truthiness and `{key}` interpolation.

These rules are mirrored exactly by static/ui4a/runtime.js, so server-rendered text matches
what the browser shows after it re-applies state.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping

# `{key}` placeholders; any other brace is literal text.
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]{0,39})\}")


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


def truthy(value: object) -> bool:
    """JavaScript truthiness for the scalar values state may hold."""
    if isinstance(value, float) and math.isnan(value):
        return False
    return bool(value) if isinstance(value, (str, int, float, bool)) else value is not None


def condition_key(cond: str) -> str:
    """The state key a condition reads: "submitted" and "!submitted" both read "submitted"."""
    return cond[1:] if cond.startswith("!") else cond


def condition_holds(cond: str, state: Mapping[str, object]) -> bool:
    shown = truthy(state.get(condition_key(cond)))
    return not shown if cond.startswith("!") else shown


def placeholders(text: str) -> list[str]:
    """The state keys `{key}` placeholders in text refer to, in order."""
    return PLACEHOLDER.findall(text)


def interpolate(text: str, state: Mapping[str, object]) -> str:
    return PLACEHOLDER.sub(lambda m: format_value(state.get(m.group(1))), text)
