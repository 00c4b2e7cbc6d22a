"""An input's pattern is compiled by the view's runtime: `(a|a)*b` with forty typed characters
froze a view for seconds on submit. Patterns that can backtrack catastrophically are refused
by validation and left out by the renderer; the runtime caps the value it tests."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from ui4a import render_body, repair, validate
from ui4a.patterns import VALUE_MAX, pattern_problem

REFUSED = ["(a|a)*b", "(a+)+b", "(x*)*", "(a|ab)*c", "(\\w+)\\1", "\\d*\\d*\\d*\\d*x", "(a+){10}"]
ACCEPTED = [
    "[0-9]{5}",
    "^[^@]+@[^@]+$",
    "(a|b)*c",
    "(\\d{3}-)+\\d{4}",
    "[A-Z]{2}[0-9]{2}( ?[0-9]{4}){4}",
    "(?:cat|dog)s?",
    "^[a-z0-9._%+-]+@[a-z0-9.-]+\\.[a-z]{2,}$",
]


def form(pattern: str) -> dict[str, object]:
    field = {"t": "input", "label": "Code", "bind": "code", "pattern": pattern}
    return {"root": {"t": "page", "c": [{"t": "form", "c": [field]}]}, "state": {"code": ""}}


@pytest.mark.parametrize("pattern", REFUSED)
def test_a_catastrophic_pattern_is_refused_and_never_reaches_the_view(pattern: str) -> None:
    assert pattern_problem(pattern)
    problems = validate(form(pattern))
    assert [(p.path, p.code) for p in problems] == [("/root/c/0/c/0/pattern", "bad_value")]
    assert any(word in problems[0].message for word in ("forever", "refer back", "at most 3"))
    assert "data-pattern" not in render_body(form(pattern))
    assert repair(form(pattern)).problems  # handed back to the model


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_ordinary_patterns_are_kept(pattern: str) -> None:
    assert pattern_problem(pattern) == ""
    assert validate(form(pattern)) == []
    assert "data-pattern=" in render_body(form(pattern))


def test_accepted_patterns_stay_fast_on_hostile_values_up_to_the_cap() -> None:
    # Python's backtracking engine stands in for the browser's: both explode on the same shapes.
    for pattern in ACCEPTED:
        compiled = re.compile(f"^(?:{pattern})$")
        started = time.process_time()
        for char in "a0 @.-":
            compiled.match(char * VALUE_MAX + "!")
        assert time.process_time() - started < 0.5, pattern


def test_the_runtime_caps_the_value_it_tests_at_the_same_length() -> None:
    runtime = (Path(__file__).parents[2] / "static/ui4a/runtime.js").read_text()
    assert f"var PATTERN_VALUE_MAX = {VALUE_MAX};" in runtime
    assert "value.length > PATTERN_VALUE_MAX ||" in runtime
