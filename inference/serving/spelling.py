"""The tokens that spell a given text, for rules that hold a row to a continuation they know
(tab_switch.py, list_completion.py): a vocabulary's texts sorted once, so that the tokens that
spell a text's start, or all of it and go on, are found by prefix lookups, at a cost bounded by
the text's length, not the vocabulary's size; and a row masked to them, unless the grammar
allows none of them.
"""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass
from typing import Any

from inference.serving.step_rows import Strings


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
