"""Numbers out of any useful range: a progress value of 1e308 of a max of 0.5 made round()
raise OverflowError in the renderer, and `1e400` (read as inf), NaN and Infinity made a stored
spec fail the database's JSON check. Parsing and repair hold numbers to a finite range."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from ui4a import parse_partial, render_body, render_document, repair, validate
from ui4a.numbers import NUMBER_MAX, clamp_numbers


def progress(value: object, top: object) -> dict[str, Any]:
    return {
        "root": {"t": "page", "c": [{"t": "progress", "label": "P", "value": value, "max": top}]}
    }


@pytest.mark.parametrize(("value", "top"), [(1e308, 0.5), (-1e308, 0.5), (1e308, 1e-308)])
def test_a_progress_bar_of_a_huge_value_renders_full_or_empty(value: float, top: float) -> None:
    spec = progress(value, top)
    assert not validate(spec)  # finite numbers, so valid: rendering must cope
    html = render_body(spec)
    assert ("100%" if value > 0 else "0%") in html
    assert render_document(repair(spec).spec)


def test_infinite_and_nan_literals_parse_to_finite_numbers() -> None:
    text = (
        '{"root":{"t":"page","c":[{"t":"progress","label":"P","value":1e400,"max":-1e400}]},'
        '"state":{"a":NaN,"b":Infinity,"c":-Infinity,"d":1' + "0" * 400 + "}}"
    )
    spec = parse_partial(text)
    assert spec is not None
    node = spec["root"]["c"][0]
    assert (node["value"], node["max"]) == (NUMBER_MAX, -NUMBER_MAX)
    assert spec["state"] == {"a": 0, "b": NUMBER_MAX, "c": -NUMBER_MAX, "d": NUMBER_MAX}
    json.dumps(spec, allow_nan=False)  # what JSON_VALID and jsonb accept
    partial = parse_partial(text[:80])  # a streaming prefix ending in the big number
    assert partial is not None
    json.dumps(partial, allow_nan=False)


def test_repair_clamps_numbers_a_spec_arrived_with_and_says_so() -> None:
    spec = progress(float("inf"), float("nan"))
    spec["data"] = {"d": [{"n": 10**400}, {"n": -math.inf}, {"n": 3}]}
    fixed = repair(spec)
    assert fixed.spec is not None
    json.dumps(fixed.spec, allow_nan=False)
    assert fixed.spec["data"]["d"] == [{"n": NUMBER_MAX}, {"n": -NUMBER_MAX}, {"n": 3}]
    assert any("/root/c/0/value: replaced inf" in f for f in fixed.fixes)
    assert any("replaced nan by 0" in f for f in fixed.fixes)
    assert spec["root"]["c"][0]["value"] == math.inf  # the input is never modified
    assert "100%" in render_body(fixed.spec) or "0%" in render_body(fixed.spec)


def test_clamping_keeps_ordinary_values_and_booleans() -> None:
    value = {"a": [1, 2.5, -3, True, False, None, "1e400"], "b": {"c": 1e14}}
    assert clamp_numbers(json.loads(json.dumps(value))) == value
