"""Checking an input's `pattern` for catastrophic backtracking before the view compiles it.

The runtime tests a field's value against the model's pattern with JavaScript's backtracking
RegExp, in the view's only thread: `(a|a)*b` or `(a+)+b` against forty characters froze a view
for seconds. A pattern is refused here (validation reports it, and the renderer leaves it out)
when it repeats something that can match the same text more than one way:

- a repeated group that itself holds a variable repeat (star height two: `(a+)+`, `(\\w*x?)*`),
  unless both are bounded and their ways to split a text stay few (`( ?[0-9]{4}){4}`);
- a repeated alternation whose branches can start alike or match nothing (`(a|a)*`, `(a|ab)+`),
  with the same exception;
- a backreference (matching one is NP-hard);
- more than MAX_UNBOUNDED unbounded repeats in all (each adjacent overlapping one multiplies the
  work by the value's length; the runtime also caps that length at VALUE_MAX characters).

This is stricter than necessary (`([a-z]+\\.)+` is safe, and refused): a form's pattern is
short, and `[a-z.]+` says the same. The parse is Python's; JavaScript syntax it does not read
(`\\p{L}`) is refused too, since it cannot be checked.
"""

from __future__ import annotations

import importlib
import re
import string
from functools import cache
from typing import Any

# The regex parser and its opcodes: no public API exposes the parse tree (the old sre_parse
# names warn that they are deprecated, and typeshed has no stubs for these).
sre_parse: Any = importlib.import_module("re._parser")
sre: Any = importlib.import_module("re._constants")

MAX_UNBOUNDED = 3
MAX_WAYS = 1024  # a bounded repeat of a bounded choice: ( ?[0-9]{4}){4} is 2**4 ways, fine
VALUE_MAX = 256  # mirrored by static/ui4a/runtime.js (PATTERN_VALUE_MAX)

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_CATEGORY_CHARS = {
    sre.CATEGORY_DIGIT: frozenset(string.digits),
    sre.CATEGORY_WORD: frozenset(string.ascii_letters + string.digits + "_"),
}
_ANY: None = None  # a first-character set we cannot bound: it overlaps everything


@cache
def pattern_problem(pattern: str) -> str:
    """Why `pattern` may backtrack catastrophically (or cannot be checked); "" when it is safe."""
    try:
        parsed = sre_parse.parse(pattern)
    except (re.error, OverflowError, RecursionError):
        return "a pattern is a regular expression this checker can read"
    unbounded = 0
    problem = ""

    def visit(items: Any, outer: int) -> None:
        # `outer`: how many times the enclosing repeats may run these items (1: not repeated).
        nonlocal unbounded, problem
        for op, av in items:
            if problem:
                return
            if op in _REPEATS:
                low, high, body = av
                if high == sre.MAXREPEAT:
                    unbounded += 1
                if low != high and _ways(high - low + 1, outer) > MAX_WAYS:
                    problem = "a repeat inside a repeated group (like (a+)+) can take forever"
                    return
                visit(body, min(outer * high, sre.MAXREPEAT))
            elif op is sre.BRANCH:
                branches = av[1]
                if _ways(len(branches), outer) > MAX_WAYS and _overlap(branches):
                    problem = (
                        "a repeated choice whose options match alike (like (a|ab)*) can take"
                        " forever"
                    )
                    return
                for branch in branches:
                    visit(branch, outer)
            elif op is sre.SUBPATTERN:
                visit(av[-1], outer)
            elif op in (sre.ASSERT, sre.ASSERT_NOT):
                visit(av[1], outer)
            elif op in (sre.GROUPREF, sre.GROUPREF_EXISTS):
                problem = "a pattern may not refer back to a group"

    visit(parsed, 1)
    if not problem and unbounded > MAX_UNBOUNDED:
        problem = f"a pattern has at most {MAX_UNBOUNDED} unbounded repeats (+, *, {{n,}})"
    return problem


def _ways(choices: int, outer: int) -> int:
    """How many ways `outer` runs of something with `choices` ways each can split a text."""
    if outer <= 1:
        return 1
    if choices >= sre.MAXREPEAT or outer >= sre.MAXREPEAT:
        return MAX_WAYS + 1
    return int(min(choices ** min(outer, 64), MAX_WAYS + 1))


def _overlap(branches: list[Any]) -> bool:
    """Whether two branches could start with the same character (or one matches nothing)."""
    seen: set[str] = set()
    for branch in branches:
        first = _first(branch)
        if first is _ANY or seen & first:
            return True
        seen |= first
    return False


def _first(items: Any) -> frozenset[str] | None:
    """The characters a match of `items` can start with, or None when unbounded or empty."""
    if not items:
        return _ANY
    op, av = items[0]
    if op is sre.LITERAL:
        return frozenset(chr(av))
    if op is sre.SUBPATTERN:
        return _first(av[-1])
    if op in _REPEATS and av[0] > 0:
        return _first(av[2])
    if op is sre.IN:
        chars: set[str] = set()
        for kind, value in av:
            if kind is sre.LITERAL:
                chars.add(chr(value))
            elif kind is sre.RANGE and value[1] - value[0] < 256:
                chars.update(chr(c) for c in range(value[0], value[1] + 1))
            elif kind is sre.CATEGORY and value in _CATEGORY_CHARS:
                chars |= _CATEGORY_CHARS[value]
            else:
                return _ANY
        return frozenset(chars)
    return _ANY
