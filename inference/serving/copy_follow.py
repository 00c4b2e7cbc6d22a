"""The request's phrases carried on while a UI4A spec decodes (`MACARON_COPY_FOLLOW`).

The copy bias (copy_bias.py) favours the request's words one at a time, so a phrase of several
words still comes out cut short or reworded: an accordion item "Questions" where the request
asked "How do I become a member?". Here, once the spec has written part of a phrase of the
request, the token that comes next in it is favoured too, as a pointer-generator goes on
copying from its source:
- after the last two tokens written, where they come in that order in the request;
- else after the last one, where it is a content word's (copy_bias.favoured_tokens): a
  function word's (" a", " of") comes before too many things to say which phrase is copied.
The grammar still decides what may come next, and a phrase ends where the request's clause
does.

The request is read as clauses, split after punctuation and before an opening bracket or
quote, each encoded on its own without them, so a clause's first word is spelled as a spec's
string starts it: without a leading space ("Ana" in "stylist (Ana, Ben, Chloe)"). The clauses
are bounded as the copy bias's words are.

Off by default: on the dev set it carried more text but made fewer screens whole
(bench/RESULTS.md, 2026-12-05, 20:45), so it waits for an adapter that begins the phrases.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

CLAUSE_BREAK = re.compile(r"(?<=[,.;:!?)\"\u201d\u2019])\s+|\s+(?=[(\"\u201c\u2018])")
OPENERS = "(\"'\u201c\u2018"  # and curly quotes
CLOSERS = ",;:.)\"'\u201d\u2019"
# A message is read this far, and this many of its tokens kept: as the copy bias reads it
# (copy_bias.MAX_WORDS words of at most 40 characters, MAX_TOKENS).
MAX_CHARACTERS = 200 * 40
MAX_TOKENS = 1024


def clauses(message: str) -> list[str]:
    """The message's clauses, in order, without the spaces, brackets and quotes around them or
    the comma, colon or full stop after them (a label seldom ends so); a question mark stays."""
    parts = CLAUSE_BREAK.split(message[:MAX_CHARACTERS])
    stripped = (part.strip().lstrip(OPENERS).rstrip(CLOSERS).strip() for part in parts)
    return [part for part in stripped if part]


def phrases(encode: Callable[[str], list[int]], message: str) -> list[list[int]]:
    """Each clause of `message` as token ids, at most MAX_TOKENS in all."""
    found: list[list[int]] = []
    left = MAX_TOKENS
    for clause in clauses(message):
        ids = encode(clause)[:left]
        if len(ids) >= 2:
            found.append(ids)
        left -= len(ids)
        if left <= 0:
            break
    return found


@dataclass(frozen=True)
class Follow:
    """The tokens that come next in the request's phrases: after a pair of tokens, and after a
    content word's token."""

    by_pair: dict[tuple[int, int], tuple[int, ...]]
    by_token: dict[int, tuple[int, ...]]

    @classmethod
    def of(cls, sequences: Iterable[Sequence[int]], content: frozenset[int]) -> Follow:
        by_pair: dict[tuple[int, int], dict[int, None]] = {}
        by_token: dict[int, dict[int, None]] = {}
        for ids in sequences:
            for i in range(1, len(ids)):
                if ids[i - 1] in content:
                    by_token.setdefault(ids[i - 1], {})[ids[i]] = None
                if i >= 2:
                    by_pair.setdefault((ids[i - 2], ids[i - 1]), {})[ids[i]] = None
        return cls(
            {k: tuple(v) for k, v in by_pair.items()}, {k: tuple(v) for k, v in by_token.items()}
        )

    def after(self, context: Sequence[int]) -> tuple[int, ...]:
        """The tokens to favour after `context` (the spec's tokens so far, the last two read)."""
        if len(context) >= 2:
            pair = (context[-2], context[-1])
            if pair in self.by_pair:
                return self.by_pair[pair]
        return self.by_token.get(context[-1], ()) if context else ()
