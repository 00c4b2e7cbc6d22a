"""Parsing a streaming JSON prefix into the best spec available so far."""

from __future__ import annotations

import json
from typing import Any

import partial_json_parser

from ui4a.limits import DEFAULT_LIMITS, Limits, check_text, check_value
from ui4a.numbers import clamp_numbers
from ui4a.texts import encodable_strings

_DECODER = json.JSONDecoder()


def parse_partial(text: str, *, limits: Limits = DEFAULT_LIMITS) -> dict[str, Any] | None:
    """The spec a (possibly unfinished) JSON text describes so far, or None if nothing usable.

    Unfinished strings, numbers and literals are completed by `partial-json-parser`; anything
    after a complete top-level object (a model that keeps talking) is dropped; numbers are held
    to a finite range (ui4a/numbers.py). Raises
    SpecTooLarge, before any parsing, when the text is over the limits.
    """
    check_text(text, limits)
    start = text.find("{")
    if start < 0:
        return None  # leading prose or whitespace only: nothing of the object yet
    body = text[start:]
    try:
        value, _end = _DECODER.raw_decode(body)
    except json.JSONDecodeError:
        try:
            value = partial_json_parser.loads(body, partial_json_parser.ALL)
        except (ValueError, IndexError, AssertionError, RecursionError):
            # The library raises IndexError or AssertionError ("Expected '{' at index 46") for
            # text that is no JSON prefix at all (unconstrained output); nothing usable then.
            return None
    if not isinstance(value, dict):
        return None
    check_value(value, limits)
    # `1e400` reads as inf, and NaN and Infinity are accepted: none of them is JSON to store.
    # And `"\ud800"` reads as a string no UTF-8 encoder takes.
    return encodable_strings(clamp_numbers(value))  # type: ignore[no-any-return]
