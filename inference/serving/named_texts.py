"""A head shows the names and quoted words the request gives (`macaron_named_texts`).

The ui expert leaves out the very words a designer writes to be shown: "a freelance illustrator
named Mira Okafor" drew a profile with no name, "Month view calendar for November 2026" no
month, "the card shows "la manzana"" no card text, "Course evaluation for "Intro to Statistics""
no course (bench/RESULTS.md, 2026-12-07, 15:00). So the request's quoted phrases, and its names
of two or more capitalised words (a person's, a firm's, a song's, a month and its year), are
read without a model, and where the head's best token would close the page's children and some
show nowhere in the spec (in any case), they are written there as one text node, joined by a
middle dot; the model writes on after it. The values it gives ("$199", "order #58213", "a 4.6
rating", named_values.py) are written after them, in the same text node.

What other rules draw is left to them: a name of a button or a field the request names
(button_completion.py, field_completion.py), an item of a list drawn as cards (list_cards.py),
and a quoted phrase a component's word follows ("a "You" badge"). So is what shows only after
an action: a quoted phrase in a clause that names a button or an event ("a Reveal button shows
"the apple"", "after submitting it says "Correct"") is the model's to show on that action, and
shown from the start it would give the answer away. A name begins after a sentence's start, so
a capitalised first word is no name. The message is read up to listed_items.MAX_CHARS
characters, and at most MAX_TEXTS phrases are kept, so the cost is bounded, and the text is
written once at most (its phrases show after), so a head ends whatever it writes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inference.serving.list_cards import card_lists
from inference.serving.listed_items import COMPONENTS, MAX_CHARS
from inference.serving.named_buttons import named_buttons
from inference.serving.named_fields import named_fields
from inference.serving.named_values import CLAUSE_MARK, ON_ACTION, named_values, value_shown
from inference.serving.page_room import PAGE
from inference.serving.repeat_watch import OpenArray
from ui4a.catalog import TEXT_MAX

EXTRA_ARG = "macaron_named_texts"
# At most this many phrases (and named_values.MAX_VALUES values), of at most this many
# characters: all of them, with their separators, fit one text node (ui4a.catalog.TEXT_MAX).
MAX_TEXTS = 3
MAX_TEXT_CHARS = 50
SEPARATOR = " \u00b7 "
QUOTED = re.compile(r'["\u201c]([^"\u201c\u201d\n]{2,60})["\u201d]')
# Two or more capitalised words (or one and a number: "November 2026") in a row, each of two
# characters at least ("A B C D" are grades, not a name), not at a sentence's start.
NAME = re.compile(r"\b[A-Z][\w'&-]+(?:\s+(?:[A-Z][\w'&-]+|\d{2,4})\b)+")
SENTENCE_START = re.compile(r"(?:^|[.!?])\s*\Z")
# The words after a quoted phrase that make it a component's name ("a "You" badge", "an "Ask a
# question" form").
NAMES_A_COMPONENT = frozenset(COMPONENTS) | frozenset(
    ["form", "card", "section", "panel", "heading", "title", "banner", "notice", "message", "label"]
)
WORD = re.compile(r"[a-z]+")


def quoted_phrases(text: str) -> list[str]:
    """The quoted phrases of `text` that show from the start: none whose clause says an action
    shows it, and none a component's word follows."""
    found = []
    for quote in QUOTED.finditer(text):
        marks = list(CLAUSE_MARK.finditer(text, 0, quote.start()))
        clause = text[marks[-1].end() if marks else 0 : quote.start()]
        after = WORD.findall(text[quote.end() : quote.end() + 20].lower())[:1]
        if not ON_ACTION.search(clause) and not (after and after[0] in NAMES_A_COMPONENT):
            found.append(quote.group(1).strip())
    return found


def named_texts(message: str) -> list[str]:
    """The phrases of `message` to show: its quoted phrases and names, at most MAX_TEXTS, then
    its values (named_values.py), less what another rule draws (a named button or field, an
    item of a list drawn as cards: "Creator $12")."""
    text = message[:MAX_CHARS]
    drawn = [name for name, _ in named_buttons(text)] + [name for name, _ in named_fields(text)]
    drawn += [said for listed, *_ in card_lists(text) for said, _, _ in listed]
    taken = " | ".join(drawn).lower()
    unquoted = QUOTED.sub(lambda quote: " " * len(quote.group()), text)
    names = [
        n.group()
        for n in NAME.finditer(unquoted)
        if not SENTENCE_START.search(unquoted, 0, n.start())
    ]
    phrases = unseen(quoted_phrases(text) + names, taken)[:MAX_TEXTS]
    phrases += unseen(named_values(text), " | ".join([taken, *phrases]).lower())
    while len(SEPARATOR.join(phrases)) > TEXT_MAX:
        phrases.pop()  # the last are values, the first to lose: one text node holds them all
    return phrases


def unseen(phrases: list[str], taken: str) -> list[str]:
    """`phrases`, cut to MAX_TEXT_CHARS, less those held in `taken` (lower case) or said twice."""
    found: list[str] = []
    for phrase in phrases:
        if phrase.lower() in taken or phrase.lower() in (f.lower() for f in found):
            continue
        found.append(phrase[:MAX_TEXT_CHARS])
    return found


def request_args(message: str) -> dict[str, Any]:
    """`SamplingParams.extra_args` that show the phrases `message` gives, where a head does
    not."""
    texts = named_texts(message)
    return {EXTRA_ARG: texts} if texts else {}


def added_text(texts: list[str], text: str, opened: OpenArray) -> str | None:
    """Where a head's `text` ends right before the closing of the `opened` array: how it goes on
    instead with the phrases that show nowhere in it (in any case; a value as its number, too:
    a bar at 73 shows "73%"), as one text node after a comma, where that array is the page's
    children; None elsewhere."""
    if (opened.key, opened.parent) != PAGE:
        return None
    written = text.lower()
    missing = [
        t
        for t in texts
        if json.dumps(t, ensure_ascii=False)[1:-1].lower() not in written
        and not value_shown(t, written)  # a bar at 73 shows "73%"
    ]
    if not missing:
        return None
    shown = json.dumps(SEPARATOR.join(missing), ensure_ascii=False)
    return ',{"t":"text","text":' + shown + "}"
