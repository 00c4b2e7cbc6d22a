"""The one small expression language of a spec: conditions (`if`) and dataset filters.

There is no evaluation of model text anywhere: both forms are matched by a fixed regular
grammar and compared with fixed rules, and static/ui4a/runtime.js mirrors these rules exactly.

- A condition is `key`, `!key`, or `key<op>literal` with op one of = != < > <= >=, e.g.
  `step=2`, `plan!=Free`, `count>=3`. It reads one state key.
- A filter clause is `column<op>key` (op also `~`, "contains"), e.g. `region=region`,
  `date>=from`, `*~q` (any column contains the state value), or `column<op>'literal'`, e.g.
  `status='Done'`. A clause whose state value is empty or "All" lets every row through, so a
  filter input starts out showing everything.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from ui4a.state import format_value, is_finite, truthy

NAME = r"[A-Za-z_][A-Za-z0-9_]{0,39}"
_COND = re.compile(
    rf"(?P<neg>!)?(?P<key>{NAME})(?:(?P<op>!=|<=|>=|=|<|>)(?P<lit>[^\x00-\x1f]{{0,40}}))?"
)
_FILTER = re.compile(
    rf"(?P<col>\*|{NAME})(?P<op>!=|<=|>=|=|<|>|~)(?:(?P<key>{NAME})|'(?P<lit>[^'\x00-\x1f]{{0,40}})')"
)
NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


@dataclass(frozen=True)
class Condition:
    key: str
    negate: bool = False
    op: str = ""  # "" for a plain truthiness test
    literal: str = ""


@dataclass(frozen=True)
class Clause:
    column: str  # "*" for any column
    op: str
    key: str  # the state key holding the value, or "" for a quoted literal
    literal: str = ""

    def wanted(self, state: Mapping[str, object]) -> object:
        return state.get(self.key) if self.key else self.literal


def parse_condition(text: object) -> Condition | None:
    """The condition `text` spells, or None when it is not one (a negated comparison is not)."""
    if not isinstance(text, str):
        return None
    m = _COND.fullmatch(text)
    if m is None or (m["neg"] and m["op"]):
        return None
    return Condition(m["key"], bool(m["neg"]), m["op"] or "", m["lit"] or "")


def parse_clause(text: object) -> Clause | None:
    if not isinstance(text, str):
        return None
    m = _FILTER.fullmatch(text)
    if m is None:
        return None
    return Clause(m["col"], m["op"], m["key"] or "", m["lit"] or "")


def _number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value) if is_finite(value) else None
    if isinstance(value, str) and NUMBER.fullmatch(value):
        return float(value)
    return None


def compare(left: object, op: str, right: object) -> bool:
    """`left op right` under the view's rules: numbers when both sides read as numbers, else
    their text; `~` is a case-insensitive "contains"."""
    if op == "~":
        return format_value(right).lower() in format_value(left).lower()
    a, b = _number(left), _number(right)
    if a is None or b is None:
        x, y = format_value(left), format_value(right)
        if op in ("=", "!="):
            return (x == y) == (op == "=")
        return _ordered(x, op, y)
    if op in ("=", "!="):
        return (a == b) == (op == "=")
    return _ordered(a, op, b)


def _ordered(a: str | float, op: str, b: str | float) -> bool:
    # Only same-typed pairs reach here (both text or both numbers).
    if op == "<":
        return a < b  # type: ignore[operator]
    if op == ">":
        return a > b  # type: ignore[operator]
    if op == "<=":
        return a <= b  # type: ignore[operator]
    return a >= b  # type: ignore[operator]


def holds(cond: str, state: Mapping[str, object]) -> bool:
    """Whether condition text holds; an unreadable condition shows its node."""
    parsed = parse_condition(cond)
    if parsed is None:
        return True
    value = state.get(parsed.key)
    if not parsed.op:
        return truthy(value) != parsed.negate
    return compare(value, parsed.op, parsed.literal)


def inactive(value: object) -> bool:
    """A filter value that lets every row through: nothing, empty text or "All"."""
    return value is None or (isinstance(value, str) and value.strip().lower() in ("", "all"))


def row_passes(
    row: Mapping[str, object], clauses: list[Clause], state: Mapping[str, object]
) -> bool:
    for clause in clauses:
        wanted = clause.wanted(state)
        if clause.key and inactive(wanted):
            continue
        if clause.column == "*":
            if not any(compare(v, clause.op, wanted) for v in row.values()):
                return False
        elif not compare(row.get(clause.column), clause.op, wanted):
            return False
    return True
