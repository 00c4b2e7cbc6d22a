"""The tokens that spell a given text, for rules that hold a row to a continuation they know
(tab_switch.py, identifier_kind.py, choice_kind.py, list_completion.py): a vocabulary's texts
sorted once, so that the tokens that spell a text's start, or all of it and go on, are found by
prefix lookups, at a cost bounded by the text's length, not the vocabulary's size; and a row
masked to them, unless the grammar allows none of them (`hold_rows`, for the rules that read a
row's text and its best token alone).
"""

from __future__ import annotations

import bisect
import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from inference.serving.step_rows import Row, Strings, texts_by_row

# What a rule holds a row to, from its text and its best token's text (read only if asked):
# what the row has written of a continuation, and how it may end; None where it holds nothing.
Held = tuple[str, list[str]] | None


@dataclass(frozen=True)
class Vocabulary:
    """Each token's text, sorted, and the tokens of each text (empty texts left out: the
    special tokens, which end no string)."""

    texts: list[str]
    tokens: dict[str, list[int]]

    def spelling(self, rest: str) -> list[int]:
        """The tokens that spell `rest`'s start, or all of it and go on."""
        found = [t for n in range(1, len(rest) + 1) for t in self.tokens.get(rest[:n], ())]
        start = bisect.bisect_right(self.texts, rest)  # `rest` itself is counted above
        for text in self.texts[start:]:
            if not text.startswith(rest):
                break
            found += self.tokens[text]
        return found


@functools.lru_cache(maxsize=4)
def vocabulary(strings: Strings, vocab_size: int) -> Vocabulary:
    tokens: dict[str, list[int]] = {}
    for token in range(vocab_size):
        text = strings(token)
        if text:
            tokens.setdefault(text, []).append(token)
    return Vocabulary(sorted(tokens), tokens)


def allowed(written: str, endings: list[str], vocab: Vocabulary) -> list[int]:
    """The tokens that go on from `written` to one of `endings`, or through it."""
    found: set[int] = set()
    for ending in endings:
        if ending.startswith(written) and len(ending) > len(written):
            found.update(vocab.spelling(ending[len(written) :]))
    return sorted(found)


def keep_only(logits: Any, row: int, tokens: list[int]) -> int:
    """Mask every token of `row` but `tokens`, unless none of them is allowed already (the
    grammar's mask): then the row is left as it stood; whether it masked."""
    if not tokens or bool(logits[row, tokens].isneginf().all()):
        return 0
    kept = logits[row, tokens].clone()
    logits[row] = float("-inf")
    logits[row, tokens] = kept
    return 1


def hold_rows(
    logits: Any,
    batch: Iterable[Row],
    kept: dict[str, Any],
    read: Callable[[], Strings],
    name: str,
    held_for: Callable[[str, Callable[[], str]], Held],
) -> int:
    """In each row of the requests that ask for `name` (row j of a request after its drafts
    0..j-1), leave only the tokens that go on as `held_for` the row's text holds it; how many
    rows. `kept` holds the requests' texts while they are in the batch."""
    masked = 0
    for row, text, strings in texts_by_row(batch, kept, read, name):
        best = functools.partial(best_text, logits, row, strings)
        held = held_for(text, best)
        if held is not None:
            masked += keep_only(logits, row, allowed(*held, vocabulary(strings, logits.shape[1])))
    return masked


def best_text(logits: Any, row: int, strings: Strings) -> str:
    """The text of `row`'s likeliest token."""
    return strings(int(logits[row].argmax()))
