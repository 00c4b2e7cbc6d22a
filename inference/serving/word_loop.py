"""A word is not written a third time in a row in a UI4A spec.

In batched runs the served ui adapter sometimes fills a markdown text with one word, up to the
text's length limit: `**Weekly summary** simple simple simple ...`. It did in 22 of the 4,654
dev-set specs kept from this machine's runs, 16 of them settings-01's (bench/RESULTS.md,
2026-12-06, 05:59). Once a word has followed itself twice, greedy decoding writes it again and
again. A view's text has no use for a word three times in a row, so where a row's last tokens
end in a word written twice, the tokens that would start it a third time are masked out, and
the model writes its next best. Numbers ("0 0 0") and one-letter words are left alone, and a
row is left as it stood where the mask would leave it no token at all.

All the stages of a UI4A spec ask, through `extra_args`; the sampling hook (logit_rules.py)
masks the tokens.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from typing import Any

from inference.serving.step_rows import Row, Strings, asked

EXTRA_ARG = "macaron_no_word_loop"
# How many of a row's last tokens are read: enough for a long word twice, and bounded.
CONTEXT = 12
# A word, then whitespace, then the same word (any case), at the end of the text.
TWICE = re.compile(r"(?<![A-Za-z0-9])([A-Za-z]{2,})\s+\1(\s*)$", re.IGNORECASE)
# A token that spells only this much of the word is taken to start it ("sim" of "simple").
SHORTEST_START = 3


def request_args() -> dict[str, Any]:
    """`SamplingParams.extra_args` that ask for no word a third time in a row."""
    return {EXTRA_ARG: True}


def written_twice(text: str) -> tuple[str, bool] | None:
    """The word `text` ends in, written twice in a row (lower case), and whether a space
    follows it; None if it ends in no such word."""
    found = TWICE.search(text)
    return (found.group(1).lower(), bool(found.group(2))) if found else None


@functools.lru_cache(maxsize=4)
def word_tokens(strings: Strings, vocab_size: int) -> tuple[dict[str, list[int]], ...]:
    """The vocabulary's tokens that spell letters only, by their text in lower case: those
    after a space (" simple") and those without one ("simple")."""
    spaced: dict[str, list[int]] = {}
    bare: dict[str, list[int]] = {}
    for token in range(vocab_size):
        text = strings(token)
        if text[:1] == " " and text[1:].isalpha():
            spaced.setdefault(text[1:].lower(), []).append(token)
        elif text.isalpha():
            bare.setdefault(text.lower(), []).append(token)
    return spaced, bare


def starting_again(word: str, after_space: bool, strings: Strings, vocab_size: int) -> list[int]:
    """The tokens that would start `word` once more: with a space before it, unless the text
    ends in one already."""
    spaced, bare = word_tokens(strings, vocab_size)
    table = bare if after_space else spaced
    shortest = min(SHORTEST_START, len(word))
    return [t for n in range(shortest, len(word) + 1) for t in table.get(word[:n], ())]


def _last_tokens(state: Any) -> list[int]:
    outputs = list(state.output_token_ids)[-CONTEXT:]
    if len(outputs) < CONTEXT:
        outputs = [*list(state.prompt_token_ids or ())[len(outputs) - CONTEXT :], *outputs]
    return outputs


def forbid_loops(
    logits: Any,
    batch: Iterable[Row],
    read: Callable[[], Strings],
) -> int:
    """Mask, in each row of the requests that ask, the tokens that would write a word a third
    time in a row (row j of a request after its drafts 0..j-1); how many rows. `read` gives
    the tokens' texts."""
    masked = 0
    for _, state, first, count, drafts in batch:
        if not asked(state, EXTRA_ARG):
            continue
        strings = read()
        last = _last_tokens(state)
        for row in range(count):
            context = [*last, *drafts[:row]][-CONTEXT:]
            if min(context, default=0) < 0:  # -1: a draft vLLM left out; none after it counts
                break
            twice = written_twice("".join(strings(t) for t in context))
            if twice is None:
                continue
            again = starting_again(*twice, strings, logits.shape[1])
            masked += _mask(logits, first + row, again)
    return masked


def _mask(logits: Any, row: int, tokens: list[int]) -> int:
    """Mask `tokens` in `row` of `logits`, unless no token would be left; whether it did."""
    if not tokens:
        return 0
    kept = logits[row, tokens].clone()
    logits[row, tokens] = float("-inf")
    if bool(logits[row].isneginf().all()):
        logits[row, tokens] = kept
        return 0
    return 1
