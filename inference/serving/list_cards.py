"""A head draws a list the request names and it never showed, as a grid of cards
(`macaron_list_cards`).

The ui expert often draws none of a list's items: "Hobby free, Creator $12/mo, Network $49/mo"
drew two made-up tiles, "member list on the side (Ava, Kofi, Lena, Mateo)" a form, "Dana 412k,
Eli 389k, Farah 377k, Gus 301k" tiles of flights and billing (bench/RESULTS.md, 2026-12-07,
14:30). The list rule goes on with a list only once an array shows two of its items
(list_completion.py), so such a list is lost. So where the head's best token would close the
page's children, and a list of the request's (listed_items.py) that names no component shows
fewer than SHOWN_TO_HOLD of its items anywhere in the spec, the list is written there as a grid
of cards, each titled with an item as the request says it ("Creator $12"); the model writes on
after the grid. A card names its item and no more, but for a button the request says for each
item (item_buttons.py): the rule knows nothing of what an item holds.

Where the request asks the person a question (a quiz, a poll, a vote, a survey: choice_kind.py),
its list is the question's choices, and is drawn as one group of radios, labelled with the
question the request quotes ("Where should we have the team offsite?"), not as cards to look
at: cards titled Lisbon, Kraków and Edinburgh let no one vote (survey-05, bench/RESULTS.md,
2026-12-07, 21:40).

A list is drawn once at most (its items show after), and only where the page has room for one
more child (page_room.py, checked by list_completion.py), so a head ends whatever it writes.
Lists of numbers alone ("devices (1, 5, 10)") are values of something else, an item said in more
than MAX_CARD_WORDS words is a description, and one that begins as a question or an instruction
("which sessions did you attend") is no name: all are left out, and a list left with fewer than
listed_items.MIN_ITEMS items is not drawn.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inference.serving.choice_kind import asks_a_question
from inference.serving.item_buttons import (
    MAX_KEYED_CARDS,
    buttons_for,
    card_children,
    item_buttons,
)
from inference.serving.listed_items import MIN_ITEMS, SHOWN_TO_HOLD, Listed, listed_items, shows
from inference.serving.named_buttons import MAX_CHARS
from inference.serving.page_room import PAGE
from inference.serving.repeat_watch import OpenArray
from ui4a.catalog import MAX_CHILDREN

EXTRA_ARG = "macaron_list_cards"
MAX_CARD_WORDS = 5
# A card's children, as the UI4A grammar writes them.
CARD = ("c", "card")
# A list to draw as cards, the buttons on each card, and the question it answers ("": none, a
# grid of cards; else one group of radios labelled with it).
CardList = tuple[list[Listed], list[str], str]
# A question the request quotes, and the label of choices it quotes none for.
QUESTION = re.compile(r'["\u201c]([^"\u201c\u201d\n]{3,58}\?)["\u201d]')
ANSWER = "Your answer"
# The key a question's radios are bound to.
ANSWER_KEY = "answer"
# An item that begins with one of these is a question, an instruction or a clause ("which
# sessions did you attend", "pick a start time", "type a book's title, press Add book, and it
# shows up in the list": the reading list's three cards of instructions, bench/RESULTS.md,
# 2026-12-07, 15:00), not a name.
ASKS_TEXT = """
which what how why when where who do does can is are show pick choose add then type press click
tap fill drag it they
"""
ASKS = frozenset(ASKS_TEXT.split())
LETTER = re.compile(r"[^\W\d_]")
QUOTES = "\"'\u201c\u201d"


def card_lists(message: str) -> list[CardList]:
    """The message's lists that may be drawn as cards: those whose items name no component,
    less the items with no letter or said in more than MAX_CARD_WORDS words, at most
    MAX_CHILDREN items each; each with the buttons the message puts on each of its items, and
    the question it answers, where the message asks one and puts none."""
    found: list[CardList] = []
    on_items = item_buttons(message)  # read once, for every list
    question = question_asked(message)
    for listed in listed_items(message):
        if any(named for _, _, named in listed):
            continue
        items = [
            (said.strip(QUOTES), words, named)
            for said, words, named in listed
            if LETTER.search(said) and len(said.split()) <= MAX_CARD_WORDS and not asks(said)
        ]
        if len(items) >= MIN_ITEMS:
            kept = items[:MAX_CHILDREN]
            buttons = on_each(message, on_items, kept)
            found.append((kept, buttons, "" if buttons else question))
    return found


def question_asked(message: str) -> str:
    """The question `message` asks the person, as it quotes it, or ANSWER where it asks one
    (choice_kind.py) and quotes none; "" where it asks none."""
    if not asks_a_question(message):
        return ""
    quoted = QUESTION.search(message[:MAX_CHARS])
    return quoted.group(1) if quoted else ANSWER


def on_each(message: str, on_items: list[tuple[int, str]], items: list[Listed]) -> list[str]:
    """Of the per-item buttons the message says (`on_items`), those it puts on each of `items`,
    where they are few enough for each card to keep a key of its own."""
    if not on_items or len(items) > MAX_KEYED_CARDS:
        return []
    last = items[-1][0].lower()
    at = message[:MAX_CHARS].lower().find(last)
    return buttons_for(message, on_items, at + len(last)) if at >= 0 else []


def asks(said: str) -> bool:
    return said.split()[0].lower() in ASKS


def request_args(message: str) -> dict[str, Any]:
    """`SamplingParams.extra_args` that draw the lists `message` names, where a head shows none
    of them."""
    lists = card_lists(message)
    return {EXTRA_ARG: lists} if lists else {}


def drawn(items: list[Listed], buttons: list[str], question: str) -> str:
    """`items` as one group of radios labelled `question`, or, where it is "", as a grid."""
    if not question:
        return grid(items, buttons)
    options = json.dumps([said for said, _, _ in items], ensure_ascii=False, separators=(",", ":"))
    label = json.dumps(question, ensure_ascii=False)
    return '{"t":"radio","label":' + label + ',"bind":"' + ANSWER_KEY + '","opts":' + options + "}"


def grid(items: list[Listed], buttons: list[str]) -> str:
    """A grid of cards titled with `items` as said, three or four to a row, each with `buttons`
    (item_buttons.card_children)."""
    cols = 3 if len(items) % 3 == 0 or len(items) == 5 else 4
    cards = []
    for number, (said, _, _) in enumerate(items, 1):
        title = said[:1].upper() + said[1:]
        children = ',"c":[' + card_children(number, buttons) + "]" if buttons else ""
        cards.append(
            '{"t":"card","title":' + json.dumps(title, ensure_ascii=False) + children + "}"
        )
    return '{"t":"grid","cols":' + str(cols) + ',"c":[' + ",".join(cards) + "]}"


def added_cards(lists: list[CardList], opened: OpenArray, seen: set[str]) -> str | None:
    """Where a head's text ends right before the closing of the `opened` array: how it goes on
    instead with the first list that shows fewer than SHOWN_TO_HOLD items, drawn as a grid of cards
    after a comma, where that array is the page's children; None elsewhere. An item shows where
    each of its telling words is among the spec's words (`seen`): a tile of "Leads 412k" shows no
    "Dana 412k"."""
    if (opened.key, opened.parent) != PAGE:
        return None
    for listed, buttons, question in lists:
        shown = sum(1 for _, words, _ in listed if all(shows([word], seen) for word in words))
        if shown < SHOWN_TO_HOLD:
            return "," + drawn(listed, buttons, question)
    return None


def added_buttons(
    lists: list[CardList], opened: OpenArray, children: list[Any], seen: set[str]
) -> str | None:
    """Where a head's text ends right before the closing of the `opened` array: how it goes on
    instead with the buttons said for each item of a list, where that array is the children of
    a card of the model's own that shows an item (each of its telling words among the card's
    words, `seen`) and has none of them yet; None elsewhere. Each goes on as a card of the rule's
    own grid does (item_buttons.card_children), told by the item's number in its list."""
    if (opened.key, opened.parent) != CARD or len(children) + 2 > MAX_CHILDREN:
        return None
    labels = {c.get("label") for c in children if isinstance(c, dict) and c.get("t") == "button"}
    for listed, buttons, _ in lists:
        for number, (_, words, _) in enumerate(listed, 1):
            if buttons and all(shows([word], seen) for word in words):
                missing = [name for name in buttons if name not in labels]
                return "," + card_children(number, missing) if missing else None
    return None
