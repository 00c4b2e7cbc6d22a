"""A stage cut at its token limit, closed: the shortest text its grammar allows next, chosen a
character at a time, closers first. A staged spec whose head loops until the limit (a wizard
that repeats its steps) then still ends as a spec that parses, declares what it uses and
validates, instead of as a prefix the view can only guess at; its finish reason stays "length".

The grammar is compiled here over a vocabulary of single printable ASCII characters, not the
model's: that takes about 0.1 s where the model's takes seconds, and the text it allows is the
same. Closing is bounded by `MOST_CHARACTERS`; a text the grammar does not accept, or one it
cannot close within that, gets None, and the generation ends as it was cut.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import xgrammar as xgr

from inference.serving.grammar_compiler import vllm_json_options

CHARACTERS = [chr(code) for code in range(32, 127)]
END = len(CHARACTERS)  # the vocabulary's one stop token
CLOSERS = "}]"
# Where most characters may come (inside a string), only these are tried: the quote that
# closes it, else a letter (a string that must not be empty).
IN_STRING = '"x'
FREE = 20  # more characters allowed than this: inside a string
MOST_CHARACTERS = 2000
# How far each choice looks ahead: closing a stage costs at most about MOST_CHARACTERS
# times the choices at one point (FREE) times this many matcher steps.
LOOK_AHEAD = 200
# A value comes next, after this key (the text so far ends so).
KEY_BEFORE_VALUE = re.compile(r'"([A-Za-z_][A-Za-z0-9_]*)":$')
DIGITS = frozenset("-0123456789")
# The options vLLM compiles a JSON schema with (its engine disables any whitespace).
JSON_OPTIONS = vllm_json_options(disable_any_whitespace=True)


@lru_cache(maxsize=1)
def _compiler() -> xgr.GrammarCompiler:
    vocabulary = xgr.TokenizerInfo(
        [*CHARACTERS, "</s>"], vocab_type=xgr.VocabType.RAW, stop_token_ids=[END]
    )
    return xgr.GrammarCompiler(vocabulary, cache_enabled=False)


@lru_cache(maxsize=16)
def _compiled(kind: str, grammar: str) -> xgr.CompiledGrammar:
    if kind == "json":
        return _compiler().compile_json_schema(grammar, **JSON_OPTIONS)
    return _compiler().compile_grammar(grammar)


def closing(
    text: str,
    *,
    json_schema: dict[str, Any] | None = None,
    ebnf: str | None = None,
    numbers: Mapping[str, int] | None = None,
) -> str | None:
    """What closes `text` under a JSON schema or an xgrammar EBNF grammar (one of them), or
    None; "" if `text` is whole already. A character at a time: the only one allowed; else a
    closing bracket; inside a string, its closing quote; else whichever allowed character
    leads to the shortest ending when the rest is chosen so without looking ahead (a key that
    is required, not one that is optional and asks for more). A number the closing writes as
    the value of a key in `numbers` is that number (a wizard's first step), where the grammar
    allows it."""
    kind, grammar = ("json", json.dumps(json_schema)) if ebnf is None else ("ebnf", ebnf)
    matcher = xgr.GrammarMatcher(_compiled(kind, grammar))
    if not matcher.accept_string(text):
        return None
    return _ending(matcher, MOST_CHARACTERS, look_ahead=True, before=text, numbers=numbers)


def _ending(
    matcher: xgr.GrammarMatcher,
    most: int,
    *,
    look_ahead: bool,
    before: str = "",
    numbers: Mapping[str, int] | None = None,
) -> str | None:
    mask = xgr.allocate_token_bitmask(1, END + 1)
    added: list[str] = []
    while len(added) <= most:
        matcher.fill_next_token_bitmask(mask)
        words = mask[0].tolist()
        ids = [t for t in range(END + 1) if (words[t // 32] >> (t % 32)) & 1]
        if END in ids:
            return "".join(added)
        allowed = [CHARACTERS[t] for t in ids]
        if len(added) == most:
            return None
        preferred = _preferred_number(before + "".join(added), allowed, numbers)
        if preferred and _accepts(matcher.fork(), preferred):
            _accepts(matcher, preferred)
            added += preferred
            continue
        choice = _choose(allowed, matcher, most - len(added), look_ahead)
        if choice is None:
            return None
        matcher.accept_token(ord(choice) - 32)
        added.append(choice)
    return None


def _preferred_number(so_far: str, allowed: list[str], numbers: Mapping[str, int] | None) -> str:
    """The number to write here: where a value of a key in `numbers` begins as a number."""
    if not numbers or not set(allowed) <= DIGITS:
        return ""
    match = KEY_BEFORE_VALUE.search(so_far)
    return str(numbers[match[1]]) if match and match[1] in numbers else ""


def _accepts(matcher: xgr.GrammarMatcher, text: str) -> bool:
    return all(matcher.accept_token(ord(c) - 32) for c in text)


def _choose(
    allowed: list[str], matcher: xgr.GrammarMatcher, most: int, look_ahead: bool
) -> str | None:
    if len(allowed) > FREE:
        return next((c for c in IN_STRING if c in allowed), allowed[0])
    if len(allowed) <= 1:
        return allowed[0] if allowed else None
    if sorted(allowed) == ["f", "t"]:
        return "f"  # a flag false: the view as it starts, nothing done yet ("true" is shorter)
    closer = next((c for c in CLOSERS if c in allowed), None)
    if closer is not None or not look_ahead:
        return closer or allowed[0]
    lengths = {}
    for candidate in allowed:
        branch = matcher.fork()
        branch.accept_token(ord(candidate) - 32)
        rest = _ending(branch, min(most - 1, LOOK_AHEAD), look_ahead=False)
        if rest is not None:
            lengths[candidate] = len(rest)
    return min(lengths, key=lengths.__getitem__) if lengths else None
