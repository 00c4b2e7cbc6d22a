"""The buttons a designer's request names, one or two at a time: "an Add supplier button", "a
Mark as paid button", "Start and Reset buttons", "buttons for New folder and Upload", "Button says
"Count me in"".

The ui expert leaves them out, or labels them its own way: a staff login submitted with
"Login" where "a big Enter button" was asked, a supplier table with no "Add supplier" button, a
workout timer with no "Start workout" (bench/RESULTS.md, 2026-12-07). A head writes the ones it
has not shown (button_completion.py); this reads them from the request, with no model.

The reading is a heuristic, and errs towards finding none: a name is the words just before
"button" back to an article or a conjunction (less the adjectives before its first capital: "a
red Delete account button"), or a quoted string just before or after it ("a "Book a tour"
button", "a button for "Forgot PIN?""), or the phrases after "buttons for", or a capitalised
name after "press", "click" or "tap" ("press Add book, and it shows"). A button drawn on
each of a list's items ("a Restore button per file", "each with a Remove button") is the list's
template's, not one to add, so a button said after "each" or "every", or before "per", "each"
or "every", in its part of a clause, is not one to add; nor is one a refinement takes away
("remove the Cancel button", "rename the Save button to Submit"); and
"amount buttons $10 $25 $50" (a plural after one lower-case word) is a kind, not a name. The
message is read up to MAX_CHARS characters, so the cost is bounded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import TypeVar

from inference.serving.copy_bias import STOP_WORDS
from inference.serving.listed_items import CLAUSE, PARENTHESISED

T = TypeVar("T")
# At most this many characters of a message are read, and this many buttons kept.
MAX_CHARS = 2_000
MAX_BUTTONS = 6
# A named button, and whether it may be a form's submit: one the request says opens or shows
# something ("a Details button opens a dialog", "a Reveal button shows "the apple"") is not.
Named = tuple[str, bool]
OPENS = re.compile(
    r"^\s*(?:that|which|to)?\s*(?:opens?|opening|shows?|showing|reveals?|toggles?|switch(?:es)?"
    r"|expands?|makes?|jumps?)\b",
    re.IGNORECASE,
)
# A name is a short phrase; a longer run of words before "button" is a description.
MAX_NAME_WORDS = 4
MAX_NAME = 40
# The parts of a clause a per-item button is told apart in.
PART = re.compile(r"[,;]")
# "each with a Remove button", "a Restore button per file"; "a checkbox per model and a Compare
# selected button" is one button, so "per" only counts after it.
EACH = re.compile(r"\b(?:each|every)\b", re.IGNORECASE)
PER_ITEM = re.compile(r"\b(?:each|per|every)\b", re.IGNORECASE)
BUTTON = re.compile(r"\bbuttons?\b", re.IGNORECASE)
# A refinement that takes a button away, or a request that says it has none, names none to add
# ("remove the Cancel button", "rename the Save button to Submit", "with no Back button").
TAKEN_AWAY = re.compile(
    r"\b(?:remove|delete|drop|rename|replace|hide)\s+(?:the|a|an|that|this|its|all|every)\b"
    r"|\b(?:without|no)\s",
    re.IGNORECASE,
)
# Words a name begins after: it is the words between the last of these and "button".
BEGINS_AFTER = re.compile(
    r".*\b(?:a|an|the|plus|with|then|has|have|for|of|its|also|one|two)\s+", re.IGNORECASE
)
QUOTED_BEFORE = re.compile(r"[\"\u201c]([^\"\u201c\u201d]{1,40})[\"\u201d]\s*$")
QUOTED_AFTER = re.compile(
    r"^\s*(?:that\s+)?(?:says|saying|labell?ed|reading|reads|called|named|for|:)?\s*"
    r"[\"\u201c]([^\"\u201c\u201d]{1,40})[\"\u201d]",
    re.IGNORECASE,
)
# "press Add book, and it shows": a capitalised name right after a verb of pressing.
PRESSED = re.compile(
    r"\b(?:press|presses|pressing|click|clicks|clicking|tap|taps|tapping)\s+(?:on\s+)?"
    r"([A-Z][\w'-]*(?:\s+[\w'-]+){0,2})"
)
NAMES_AFTER = re.compile(r"^\s*(?:for|labell?ed|called|named)\s+(.+)$", re.IGNORECASE)
SPLIT_NAMES = re.compile(r"\s*(?:,|/|\band\b|\bor\b|&)\s*", re.IGNORECASE)
WORD = re.compile(r"\S+")


def name_from(words: list[str]) -> str:
    """A name as the request says it, from the words before its "button": less a possessive
    and what comes before it ("a tea's Details"), and the lower-case words before its first
    capital ("big Enter"); "" where it is too long or all filler ("plus", "one")."""
    for i in range(len(words) - 1, -1, -1):
        if words[i].lower().endswith(("'s", "\u2019s")):
            words = words[i + 1 :]
            break
    capital = next((i for i, w in enumerate(words) if w[:1].isupper()), None)
    if capital is not None:
        words = words[capital:]
    name = " ".join(words).strip(" .\"'\u201c\u201d")
    content = [w for w in re.findall(r"[\w$£€.]+", name.lower()) if w not in STOP_WORDS]
    if not content or len(words) > MAX_NAME_WORDS or len(name) > MAX_NAME:
        return ""
    return name


def quoted_name(quoted: str) -> list[str]:
    """A quoted name, whole ("Forgot PIN?"), where it has a word to show."""
    name = quoted.strip()
    return [name] if re.search(r"\w", name) else []


def names_before(
    before: str, plural: bool, begins_after: re.Pattern[str] = BEGINS_AFTER
) -> list[str]:
    """The names said just before a "button" ("Start and Reset" before "buttons"), each begun
    after the last match of `begins_after`."""
    quoted = QUOTED_BEFORE.search(before)
    if quoted:
        return quoted_name(quoted.group(1))
    said = begins_after.sub("", before.split(":")[-1]).strip()
    if plural:
        # "Call driver and Cancel order buttons"; "amount buttons" is a kind of button.
        parts = [p for p in SPLIT_NAMES.split(said) if p]
        if len(parts) < 2:
            return []
        return [name for part in parts if (name := name_from(part.split()))]
    # One button: the words after the last conjunction ("a search box and a Compose button").
    last = SPLIT_NAMES.split(said)[-1] if said else ""
    name = name_from(WORD.findall(last))
    return [name] if name else []


def names_after(after: str) -> list[str]:
    """The names said just after a "button": a quoted string ("for "Forgot PIN?""), or the
    phrases after "buttons for" ("New folder and Upload")."""
    quoted = QUOTED_AFTER.match(after)
    if quoted:
        return quoted_name(quoted.group(1))
    listed = NAMES_AFTER.match(after)
    if not listed:
        return []
    parts = [p for p in SPLIT_NAMES.split(listed.group(1)) if p]
    if len(parts) < 2:
        return []
    return [name for part in parts if (name := name_from(part.split()))]


def pressed_name(said: str) -> str:
    """A name said after "press", up to its first stop word ("Add book", "Save to keep":
    "Save")."""
    words = said.split()
    end = next((i for i, w in enumerate(words) if i and w.lower() in STOP_WORDS), len(words))
    return name_from(words[:end])


def parts(message: str) -> Iterator[str]:
    """The message's parts, up to MAX_CHARS characters: its clauses cut at commas and
    semicolons. A parenthesis is read as part of its clause's text ("each class (Morning flow,
    Power hour) has a Book spot button"); a name inside one is not read."""
    text = PARENTHESISED.sub(" ", message[:MAX_CHARS])
    for clause in CLAUSE.split(text):
        yield from PART.split(clause)


def cued(part: str, cue: re.Pattern[str]) -> Iterator[tuple[str, re.Match[str], str]]:
    """Each `cue` word in `part`, with the text before and after it; none said for each item of
    a list, or taken away."""
    for found in cue.finditer(part):
        before, after = part[: found.start()], part[found.end() :]
        if not (EACH.search(before) or PER_ITEM.search(after) or TAKEN_AWAY.search(before)):
            yield before, found, after


def once(named: list[tuple[str, T]], most: int) -> list[tuple[str, T]]:
    """Each name's first mention (in any case), in order, and at most `most` of them."""
    kept: list[tuple[str, T]] = []
    for name, value in named:
        if name.lower() not in (k.lower() for k, _ in kept):
            kept.append((name, value))
    return kept[:most]


def named_buttons(message: str) -> list[Named]:
    """The buttons the message names, each once, in the order it names them, and whether each
    may submit a form; none of those drawn on each item of a list, and at most MAX_BUTTONS."""
    names: list[Named] = []
    for part in parts(message):
        for before, button, after in cued(part, BUTTON):
            plural = button.group().lower() == "buttons"
            submits = not OPENS.match(after)
            said = names_after(after) or names_before(before, plural)
            names += [(name, submits) for name in said]
        names += [(name, True) for said in PRESSED.findall(part) if (name := pressed_name(said))]
    return once(names, MAX_BUTTONS)
