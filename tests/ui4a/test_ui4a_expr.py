"""The small expression language (conditions and filters): a fixed grammar, never evaluated."""

from __future__ import annotations

import time

import pytest

from ui4a.expr import Clause, Condition, holds, parse_clause, parse_condition, row_passes


def test_it_reads_conditions() -> None:
    assert parse_condition("open") == Condition("open")
    assert parse_condition("!open") == Condition("open", negate=True)
    assert parse_condition("step=2") == Condition("step", op="=", literal="2")
    assert parse_condition("plan!=Free plan") == Condition("plan", op="!=", literal="Free plan")


def test_it_compares_numbers_as_numbers_and_the_rest_as_text() -> None:
    state = {"step": 2, "n": "10", "plan": "Pro", "on": True}
    assert holds("step=2", state) and holds("step>=2", state) and not holds("step>2", state)
    assert holds("n>9", state)  # "10" reads as a number, so this is not text order
    assert holds("plan=Pro", state) and holds("plan!=Free", state)
    assert holds("on=true", state) and holds("on", state) and not holds("!on", state)
    assert not holds("missing", state) and holds("!missing", state)


HOSTILE = [
    "__proto__",
    "constructor.prototype",
    "a=b=c",
    "!a=1",
    "a==1",
    "alert(1)",
    "a;b",
    "a&&b",
    "a||b",
    "${a}",
    "a\n=1",
    "a=\x00",
    "'a'",
    "a" * 41,
    "",
    " a",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_it_refuses_anything_outside_the_grammar(text: str) -> None:
    parsed = parse_condition(text)
    if text == "__proto__":
        assert parsed == Condition("__proto__")  # just a key name, looked up as data
        assert not holds(text, {})
    elif text == "a=b=c":
        assert parsed == Condition("a", op="=", literal="b=c")  # the literal is plain text
    elif text == "a==1":
        assert parsed == Condition("a", op="=", literal="=1")
    else:
        assert parsed is None, text
        assert holds(text, {}) is True  # an unreadable condition hides nothing


def test_it_reads_filter_clauses() -> None:
    assert parse_clause("region=region") == Clause("region", "=", "region")
    assert parse_clause("*~q") == Clause("*", "~", "q")
    assert parse_clause("status='Done'") == Clause("status", "=", "", "Done")
    for bad in ("region", "=x", "a=b c", "a~'x", "a=(b)", "a=b;c", "a.b=c"):
        assert parse_clause(bad) is None, bad


def test_it_filters_rows_and_lets_empty_or_all_through() -> None:
    row = {"region": "EU", "date": "2026-03-01", "name": "Ada"}
    clauses = [c for c in map(parse_clause, ["region=r", "date>=from", "*~q"]) if c]
    assert row_passes(row, clauses, {"r": "All", "from": "", "q": None})
    assert row_passes(row, clauses, {"r": "EU", "from": "2026-01-01", "q": "ad"})
    assert not row_passes(row, clauses, {"r": "US"})
    assert not row_passes(row, clauses, {"from": "2026-04-01"})
    assert not row_passes(row, clauses, {"q": "zz"})


def test_it_takes_linear_time_on_long_hostile_text() -> None:
    start = time.perf_counter()
    for text in ("a" * 100_000, "!" * 100_000, "a=" + "=" * 100_000, "*~" + "~" * 100_000):
        parse_condition(text)
        parse_clause(text)
    assert time.perf_counter() - start < 0.5
