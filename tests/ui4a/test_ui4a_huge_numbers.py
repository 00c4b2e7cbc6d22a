"""Numbers too large for a float (JSON allows any number of digits; an untrained model wrote a
progress bar's max as hundreds of zeros after a one) are not finite: validation reports them,
and rendering falls back to defaults instead of raising OverflowError."""

from __future__ import annotations

import json

from ui4a import parse_partial, render_body, render_document, repair, validate
from ui4a.expr import compare
from ui4a.state import format_cell, is_finite

HUGE = int("1" + "0" * 400)


def spec() -> dict[str, object]:
    return {
        "title": "Huge",
        "root": {
            "t": "page",
            "c": [
                {"t": "progress", "label": "Done", "value": HUGE, "max": HUGE},
                {"t": "slider", "label": "Size", "bind": "size", "min": 0, "max": HUGE},
                {"t": "table", "data": "rows", "cols": ["n"], "filter": ["n>=low"]},
                {"t": "chart", "title": "N", "data": "rows", "x": "k", "y": ["n"]},
            ],
        },
        "state": {"size": HUGE, "low": 1},
        "data": {"rows": [{"k": "a", "n": HUGE}, {"k": "b", "n": 2}]},
    }


def test_a_huge_int_is_not_finite() -> None:
    assert not is_finite(HUGE) and is_finite(10**300) and not is_finite(float("inf"))
    assert format_cell(HUGE) == ""
    assert compare(2, ">=", 1) is True
    compare(HUGE, ">=", 1)  # compared as text, as the runtime does with Infinity; no raise


def test_validation_reports_huge_numbers_instead_of_raising() -> None:
    problems = validate(spec())
    assert problems and all(p.path.startswith("/") for p in problems)


def test_rendering_streaming_and_repair_survive_huge_numbers() -> None:
    text = json.dumps(spec(), separators=(",", ":"))
    for end in range(0, len(text) + 1, 97):
        render_body(parse_partial(text[:end]), partial=True)
    fixed = repair(spec())
    assert fixed.spec is not None
    assert "Done" in render_document(fixed.spec)
