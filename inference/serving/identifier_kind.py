"""A head's identifier field takes text, not a number (`macaron_identifier_kind`).

The ui expert writes `"kind":"number"` for any label that says "number": an order lookup's
"Order number", a card's "Payment number", a credit union's "PIN". A number input is a
spinbutton with steppers: it drops leading zeros, and nobody steps an order number up by one.
So the bench found no text box for "Order number" on a screen that drew it (order-tracking-02,
bench/RESULTS.md, 2026-12-07), and a user would type a card number into a counter.

So where a row's text ends in an input's `"kind":"`, after a label whose last word names an
identifier ("Order number", "Member ID", "Zip code", "PIN"), and the row's best token would
spell a kind an identifier never is (a number, a date, an email, a url), only the tokens that
spell `text` are left ("tel" for a phone number); the grammar takes it on from there. The kinds
an identifier may be (text, tel, password, search) are the model's.

The head asks, through `extra_args`; the sampling hook (logit_rules.py) masks the tokens. A
request's text is read as its tokens come, and only its last TAIL characters are searched, and
only where a row is in an input's kind: a step's cost is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from inference.serving.spelling import Held, hold_rows
from inference.serving.step_rows import Row, Strings

EXTRA_ARG = "macaron_identifier_kind"
# An input's kind, as the head's grammar spells it (no whitespace), after its label: what
# follows is the kind's value, written so far.
KIND = re.compile(r'\{"t":"input","label":"((?:[^"\\]|\\.)*)"[^{}\[\]]*"kind":"([a-z]*)\Z')
# A label whose last word names an identifier: digits and letters typed as they are, not a
# quantity ("Number of guests" ends in "guests").
IDENTIFIER = re.compile(
    r"\b(?:number|no|id|code|pin|cvc|cvv|zip|postcode|iban|sku|isbn|serial|passcode)\W*\Z",
    re.IGNORECASE,
)
PHONE = re.compile(r"\b(?:phone|mobile|tel)\b", re.IGNORECASE)
# The kinds an identifier may be; the model's choice among them stands.
TEXT_KINDS = ("text", "tel", "password", "search")
# How much of a row's text is searched: more than an input's label and keys.
TAIL = 300


def request_args() -> dict[str, Any]:
    """`SamplingParams.extra_args` that give a head's identifier fields a text kind."""
    return {EXTRA_ARG: True}


def text_kind(text: str, best: str) -> tuple[str, list[str]] | None:
    """Where `text` ends in an identifier input's kind and `best` (a token's text) would go on
    to another kind than TEXT_KINDS: what the kind's value holds so far, and how it is to end
    (`text"`, or `tel"` for a phone); None elsewhere."""
    found = KIND.search(text[-TAIL:])
    if found is None or not IDENTIFIER.search(found.group(1)):
        return None
    written = found.group(2)
    going = (written + best).split('"', 1)[0]
    if any(kind.startswith(going) or going.startswith(kind) for kind in TEXT_KINDS):
        return None
    ending = "tel" if PHONE.search(found.group(1)) else "text"
    return written, [ending + '"']


def hold_identifiers(
    logits: Any,
    batch: Iterable[Row],
    kept: dict[str, Any],
    read: Callable[[], Strings],
) -> int:
    """In each row of the requests that ask, leave only the tokens that spell a text kind, where
    the row writes an identifier input's kind as another; how many rows (spelling.hold_rows)."""

    def held_for(text: str, best: Callable[[], str]) -> Held:
        return text_kind(text, best()) if '"kind":"' in text[-24:] else None

    return hold_rows(logits, batch, kept, read, EXTRA_ARG, held_for)
