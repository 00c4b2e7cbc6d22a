"""The fields a request names by what they ask for, with no cue word: "member number, PIN",
"name and phone", "card number, expiry, CVC, name on card", "a handle, an email, a password",
"1) your name, 2) monthly income".

named_fields.py reads a field by its cue ("a why box", "a timezone select") or after "a form
with"; a list of what a form asks for, said bare, it missed: a sign-in box with no member number
or PIN, a table booking with no name or phone, an onboarding wizard with no name (bench/RESULTS.md,
2026-12-07, 17:35). This reads such a list, with no model: a clause's items (cut as a button's
names are, at commas, slashes, "and" and "or") whose head word is one a form asks for (ASKED).
Two of them at least must be in one clause, so that a lone "a tracking number" or "the subject"
of an email stays a text; and a clause that shows things ("table", "columns", "shown", "each")
or follows such words ("a contacts table (name, email, phone)") names columns or a card's
lines, not fields. The message is read up to named_buttons.MAX_CHARS characters, so the cost is
bounded.
"""

from __future__ import annotations

import re

from inference.serving.listed_items import CLAUSE
from inference.serving.named_buttons import MAX_CHARS, SPLIT_NAMES

# The head words of what a form asks a person to type. Words that a screen as often shows as asks
# ("date", "total", "amount", "status", "count") are left out, and so is a plural ("emails").
ASKED_TEXT = """
name username nickname handle email e-mail phone mobile password passcode pin id url website
address street city postcode zip country code cvc cvv expiry birth title subject message
bio pronouns notes comments description destination location company keyword keywords prefix
income occupation cc bcc number
"""
ASKED = frozenset(ASKED_TEXT.split())
# The ones whose answer takes more than one line.
WORDS_LONG = frozenset({"bio", "notes", "comments", "description", "message"})
# "1) your name, 2) monthly income": a numbered step's number is read as a comma.
NUMBERED = re.compile(r"(?:^|(?<=\s))\d{1,2}[).]\s+")
# Words a field's name is said with and is not ("an email", "your name", "password only").
LEADING_TEXT = "a an the your my their his her its and or needs need asks ask enter type"
LEADING = frozenset(LEADING_TEXT.split())
TRAILING_TEXT = "only optional required too also"
TRAILING = frozenset(TRAILING_TEXT.split())
# "name on card", "date of birth": the name runs on after a preposition.
PREPOSITION = frozenset({"on", "of", "for"})
# A list that follows a word that shows things, in its clause or just before it, is a table's
# columns or a card's lines ("a contacts table (name, email, phone)"), or the labels of tabs or
# sections ("tabs for Nutrition, Steps, Ingredients and Notes": bench/request_readings.py).
SHOWN_TEXT = """
tables? columns? rows? lists? listing shows? shown showing displayed each every per results?
summary receipt invoice tabs? sections?
"""
SHOWN = "|".join(SHOWN_TEXT.split())
SHOWS_NAMED = re.compile(rf"\b(?:{SHOWN})\b", re.IGNORECASE)
# A card shows things too, but a "card number" is asked for.
SHOWS = re.compile(rf"\b(?:{SHOWN}|cards?)\b", re.IGNORECASE)
# This many of the words before a clause are read as what it follows.
FOLLOWS_WORDS = 2
MAX_NAME_WORDS = 3
# An email's header fields, said capitalised and alone ("To, Cc, Subject"): a lower-case "to" or
# "from" is a preposition.
HEADERS = frozenset({"To", "From"})
MIN_ASKED = 2
WORD = re.compile(r"[\w'-]+")


def asked_fields(message: str) -> list[tuple[str, str]]:
    """The fields the message lists by what they ask for, as (name, "input" or "textarea"), in
    its order; a clause's only where it lists MIN_ASKED of them."""
    text = NUMBERED.sub(", ", message[:MAX_CHARS])
    fields: list[tuple[str, str]] = []
    start = 0
    for cut in [*CLAUSE.finditer(text), None]:
        end = cut.start() if cut else len(text)
        clause, before = text[start:end], text[:start].split()[-FOLLOWS_WORDS:]
        start = cut.end() if cut else end
        items = SPLIT_NAMES.split(clause)
        said = [asked_name(item) for item in items]
        names = [name for name in said if name]
        first = next((i for i, name in enumerate(said) if name), 0)
        if len(names) >= MIN_ASKED and not SHOWS.search(" ".join([*before, *items[:first]])):
            fields += [(name, field_tag(name)) for name in names]
    return fields


def asked_name(item: str) -> str:
    """The field an item names ("name on card", "PIN"), or "" where its head word asks for
    nothing or it is said in more than MAX_NAME_WORDS words."""
    words: list[str] = WORD.findall(item)
    while words and words[0].lower() in LEADING:
        words = words[1:]
    while words and words[-1].lower() in TRAILING:
        words = words[:-1]
    if not words or len(words) > MAX_NAME_WORDS or any(w.isdigit() for w in words):
        return ""
    if len(words) == 1 and words[0] in HEADERS:
        return words[0]
    if SHOWS_NAMED.search(" ".join(words)):
        return ""
    lowered = [w.lower() for w in words]
    runs_on = next((i for i, w in enumerate(lowered) if w in PREPOSITION), len(words))
    heads = {lowered[-1], lowered[runs_on - 1]} if runs_on else {lowered[-1]}
    return " ".join(words) if heads & ASKED else ""


def field_tag(name: str) -> str:
    return "textarea" if name.split()[-1].lower() in WORDS_LONG else "input"
