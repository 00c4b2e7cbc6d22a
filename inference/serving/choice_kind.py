"""A question's choices are radios, not a drop-down (`macaron_choice_radios`).

The ui expert draws a quiz's or a poll's choices as a select: "What is the capital of
Australia?" with Sydney, Melbourne, Canberra and Perth hidden in a drop-down named "Options"
(quiz-01, bench/RESULTS.md, 2026-12-07, 17:35). A person answering a question reads every
choice before picking one, so a question's few choices are radios; a drop-down is for a long
list, a filter or a setting.

So where the request asks a question of the person (a quiz, a poll, a vote, a survey, a true or
false), and does not name a drop-down itself ("a workload select"), and a head's row ends in a
node's `"t":"` and its best token would spell `select`, only the tokens that spell `radio` are
left; the grammar takes it on from there, and a radio's fields are a select's. The head asks,
through `extra_args`; the sampling hook (logit_rules.py) masks the tokens. Only a row's last
TAIL characters are read, and only where it is in a node's type: a step's cost is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from inference.serving.named_buttons import MAX_CHARS
from inference.serving.spelling import Held, hold_rows
from inference.serving.step_rows import Row, Strings

EXTRA_ARG = "macaron_choice_radios"
# A request that asks the person a question, and one that names a drop-down itself.
ASKS = re.compile(
    r"\b(?:quiz\w*|poll|polls|vote|voting|trivia|survey|questionnaire|true\s+or\s+false"
    r"|multiple[\s-]choice)\b",
    re.IGNORECASE,
)
NAMES_A_SELECT = re.compile(r"\b(?:select|selects|dropdowns?|drop-downs?|picker)\b", re.IGNORECASE)
# A node's type, as the head's grammar spells it (no whitespace): what follows is the type's
# value, written so far.
TYPE = re.compile(r'\{"t":"([a-z]*)\Z')
TAIL = 16
SELECT, RADIO = "select", "radio"


def request_args(message: str) -> dict[str, Any]:
    """`SamplingParams.extra_args` that draw a question's choices as radios, where `message`
    asks a question and names no drop-down."""
    return {EXTRA_ARG: True} if asks_a_question(message) else {}


def asks_a_question(message: str) -> bool:
    """Whether `message` asks the person a question and names no drop-down."""
    text = message[:MAX_CHARS]
    return bool(ASKS.search(text)) and not NAMES_A_SELECT.search(text)


def radio_type(text: str, best: str) -> tuple[str, list[str]] | None:
    """Where `text` ends in a node's type and `best` (a token's text) would go on to spell
    `select`: the type written so far, and how it is to end (`radio"`); None elsewhere."""
    found = TYPE.search(text[-TAIL:])
    if found is None:
        return None
    written = found.group(1)
    going = (written + best).split('"', 1)[0]
    # Only a type not begun yet can still be spelled a radio; "sel" begins no other type.
    if written or not going.startswith(SELECT[:3]):
        return None
    return written, [RADIO + '"']


def hold_choices(
    logits: Any,
    batch: Iterable[Row],
    kept: dict[str, Any],
    read: Callable[[], Strings],
) -> int:
    """In each row of the requests that ask, leave only the tokens that spell `radio`, where the
    row writes a node's type as a select; how many rows (spelling.hold_rows)."""

    def held_for(text: str, best: Callable[[], str]) -> Held:
        return radio_type(text, best()) if '"t":"' in text[-TAIL:] else None

    return hold_rows(logits, batch, kept, read, EXTRA_ARG, held_for)
