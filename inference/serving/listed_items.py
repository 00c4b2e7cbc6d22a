"""The lists a designer's request names: "KPI tiles for visitors, signups, conversion rate and
bounce rate", "To do / Doing / Done", "a department filter (Design, Engineering, Sales)".

The ui expert often stops a list short: three tiles where four were named, two of "days, hours,
minutes", three of four columns of a board (bench/RESULTS.md, 2026-12-07). A head's list goes
on to the request's items it has not shown (list_completion.py); this reads those lists from
the request, with no model: each list's items as the request says them, as the words that tell
one item from the others ("conversion" and "bounce" for "conversion rate" and "bounce rate"),
and by the component each names, if any ("a Track button").

The reading is a heuristic, and errs towards finding no list: clauses split at sentence marks,
parentheses and spaced dashes, items at commas, slashes, "and", "or" and "vs"; a list needs
MIN_ITEMS items of at most MAX_ITEM_WORDS words each, its first item read from its last
preposition on ("KPI tiles for visitors": "visitors") and its last up to its first ("Baguette
with stock numbers": "Baguette"). The message is read up to MAX_CHARS characters, so the cost
is bounded.
"""

from __future__ import annotations

import re

from inference.serving.copy_bias import STOP_WORDS

# At most this many characters of a message are read, and this many lists kept.
MAX_CHARS = 2_000
MAX_LISTS = 8
# A list has at least this many items, and at most MAX_ITEMS (the rest are dropped).
MIN_ITEMS = 3
MAX_ITEMS = 12
# An item is a short phrase; a longer one ends the list ("contacts appear below with ...").
MAX_ITEM_WORDS = 4
MAX_PHRASE = 40
# An item of a list: as the request says it ("bounce rate"), the words that tell it from the
# list's other items (["bounce"]), and the component it names, if any ("Track button": "button").
Listed = tuple[str, list[str], str]
# What a list's own text is cut at: sentence marks and parentheses (whose insides are read as
# lists of their own), and "plus", which starts the next part of a request.
# A dash between words cuts, one in a range ("1\u20135") does not.
CLAUSE = re.compile(r"[.:!?](?=\s|$)|[;()\n\u2014]|\s[-\u2013]\s|\bplus\b", re.IGNORECASE)
PARENTHESISED = re.compile(r"\(([^()]*)\)")
ITEM = re.compile(r",|/|&|\b(?:and|or|vs)\b\.?", re.IGNORECASE)
# A first item is read after its last one of these, a last item before its first.
LEADS_IN = re.compile(
    r".*\b(?:for|of|with|showing|shows|under|by|including|like|from|between|on|as)\s+",
    re.IGNORECASE,
)
TRAILS_OFF = re.compile(r"\s+\b(?:with|for|in|on|that|which|to|as|per|each)\b.*", re.IGNORECASE)
WORD = re.compile(r"[A-Za-z0-9$£€%][\w$£€%.'-]*")
# Words that say how many, or what component shows an item, never which item it is.
COUNTS_TEXT = "one two three four five six some any all see only"
COMPONENT_WORDS_TEXT = """
button buttons field fields box input select dropdown picker switch toggle checkbox checkboxes
slider list table tabs tab columns column chart card cards badge option options textarea link
shown progress bar bars stat stats tile tiles row rows
"""
FILLER_TEXT = COUNTS_TEXT + COMPONENT_WORDS_TEXT
FILLER = STOP_WORDS | frozenset(FILLER_TEXT.split())
# The UI4A component a word of an item names.
COMPONENTS = {
    **dict.fromkeys(["button", "buttons", "link"], "button"),
    **dict.fromkeys(["checkbox", "checkboxes"], "checkbox"),
    **dict.fromkeys(["switch", "toggle"], "switch"),
    **dict.fromkeys(["select", "dropdown", "picker"], "select"),
    **dict.fromkeys(["field", "fields", "box", "input"], "input"),
    **dict.fromkeys(["tab", "tabs"], "tabs"),
    **{name: name for name in ("slider", "textarea", "chart", "table", "badge", "progress")},
}
# What an item as said is trimmed of at its ends: a request's words ("screen", "page") may be
# part of its name ("Phone screen").
ARTICLES_TEXT = "a an the and or of for with my your"
LEADING = frozenset(ARTICLES_TEXT.split()) | frozenset(COUNTS_TEXT.split())
TRIMMED = frozenset(FILLER_TEXT.split()) | LEADING
PREPOSITIONS = frozenset(["on", "of", "for", "per", "by", "in"])
# A spec shows a list where at least this many of its items each show (list_completion.py,
# list_cards.py).
SHOWN_TO_HOLD = 2
# Two words are one where they agree in this many first letters ("visitors" and "Visits"); a
# shorter word only matches itself and its plural ("day" and "Days", not "do" and "Doing").
STEM = 5


def item_words(item: str) -> list[str]:
    """An item's words, lower case, less filler and trailing punctuation."""
    words = (w.lower().rstrip(".'-") for w in WORD.findall(item))
    return [w for w in words if w and w not in FILLER]


def clauses(message: str) -> list[str]:
    """The message's parenthesised parts, then the rest, each cut at sentence marks."""
    text = message[:MAX_CHARS]
    inner = PARENTHESISED.findall(text)
    outer = PARENTHESISED.sub(" ", text)
    return [c for part in [*inner, outer] for c in CLAUSE.split(part)]


def phrase(part: str) -> str:
    """An item as the request says it, less the filler words at its ends ("remote only switch":
    "remote"). A component's word that begins or ends a name stays in it ("card number", "name on
    card"): at its start, only articles and counts ("the", "three", "some") are cut, and a
    component's word as a plural, or before a capital or a preposition ("tabs All", "columns name",
    "list of"); at its end, a
    word after a preposition stays."""
    words = part.split()
    while words and leads(words):
        words.pop(0)
    while words and words[-1].lower() in TRIMMED and not after_preposition(words):
        words.pop()
    return " ".join(words)[:MAX_PHRASE]


def leads(words: list[str]) -> bool:
    """Whether a phrase's first word is filler before its name, not the name's first word."""
    first = words[0].lower()
    if first in LEADING or first not in TRIMMED:
        return first in LEADING
    if first.endswith("s") or len(words) == 1:
        return True
    return words[1][:1].isupper() or words[1].lower() in LEADING | PREPOSITIONS


def after_preposition(words: list[str]) -> bool:
    return len(words) > 1 and words[-2].lower() in PREPOSITIONS


def component(part: str) -> str:
    """The component an item names ("" if none): its last word that names one."""
    named = [COMPONENTS[w] for w in WORD.findall(part.lower()) if w in COMPONENTS]
    return named[-1] if named else ""


def clause_items(clause: str) -> list[tuple[str, list[str], str]]:
    """A clause's items, each as said, as words and by the component it names, the list cut
    before its first long item or one of filler alone (none: not a list)."""
    parts = [p.strip() for p in ITEM.split(clause)]
    parts = [p for p in parts if p]
    # Leading items of filler alone ("To" of "To, Cc, Subject", "✓" of "✓ and ✗") are let go.
    first = next((i for i, p in enumerate(parts) if item_words(LEADS_IN.sub("", p))), len(parts))
    parts = parts[first:]
    if len(parts) < MIN_ITEMS:
        return []
    parts[0] = LEADS_IN.sub("", parts[0])
    parts[-1] = TRAILS_OFF.sub("", parts[-1])
    items: list[tuple[str, list[str], str]] = []
    for part in parts[:MAX_ITEMS]:
        words = item_words(part)
        if not words or len(words) > MAX_ITEM_WORDS:
            break
        items.append((phrase(part), words, component(part)))
    return items if len(items) >= MIN_ITEMS else []


def distinctive(items: list[tuple[str, list[str], str]]) -> list[Listed]:
    """Each item with its words that no other item of its list has (none where all are
    shared)."""
    counts: dict[str, int] = {}
    for _, words, _ in items:
        for word in set(words):
            counts[word] = counts.get(word, 0) + 1
    return [(said, [w for w in words if counts[w] == 1], named) for said, words, named in items]


def listed_items(message: str) -> list[list[Listed]]:
    """The message's lists, each a list of its items: as said, and their distinctive words; an
    item whose words all recur in its list is left out, and a list left with fewer than
    MIN_ITEMS items too."""
    lists = []
    for clause in clauses(message):
        items = [item for item in distinctive(clause_items(clause)) if item[1]]
        if len(items) >= MIN_ITEMS:
            lists.append(items)
    return lists[:MAX_LISTS]


def same_word(asked_for: str, shown: str) -> bool:
    short, long = sorted((asked_for, shown), key=len)
    if len(short) < STEM:
        return long in (short, short + "s", short + "es")
    return long[:STEM] == short[:STEM]


def shows(words: list[str], seen: set[str]) -> bool:
    """Whether a list item (any of its distinctive words) is among the words `seen`."""
    return any(same_word(a, w) for a in words for w in seen)
