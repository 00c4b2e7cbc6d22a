"""The buttons a request puts on each item of a list: "Monstera $38, Snake plant $24 — each with
an Add to basket button", "each class (Morning flow, Power hour) has a Book spot button",
"Day pass, Hot desk, Private office. Each with a "Book a tour" button".

named_buttons.py leaves such a button out, as it is not one button of the page; a list the head
never showed is drawn as cards (list_cards.py), and until now each card named its item and no
more: the shop's cards had no Add to basket, the classes no Book spot (bench/RESULTS.md,
2026-12-07, 17:35). This reads them, with no model, for the cards rule: a button said for each
item ("each", "every", "per"), named as named_buttons.py names one, belongs to the list that
ends nearest before it in its sentence, or in the sentence before where its own begins "Each
with" or "Each has" (not "Each card has": a board's cards are not its columns). A button that
takes its item away ("Remove", "Delete") is left out: a card of a fixed grid has nowhere to go.

Each card then carries the button, which sets a state key of the card's own, and a badge that
says the button was pressed ("Added to basket", "Booked spot") once it is set; one button on
each item, and on lists of at most MAX_KEYED_CARDS items. A card of the model's own that shows
an item gets them too, where its children would close without them (list_cards.added_buttons):
the model may draw the shop's cards itself, with no button on any. The message is read up to
named_buttons.MAX_CHARS characters, so the cost is bounded.
"""

from __future__ import annotations

import json
import re

from inference.serving.listed_items import PARENTHESISED
from inference.serving.named_buttons import (
    BUTTON,
    EACH,
    MAX_CHARS,
    PER_ITEM,
    names_after,
    names_before,
)

# One button on each item, on at most this many items: each card keeps a state key of its own,
# and a spec declares at most ui4a.catalog.MAX_STATE_KEYS.
MAX_ITEM_BUTTONS = 1
MAX_KEYED_CARDS = 6
SENTENCE = re.compile(r"[.!?](?=\s|$)")
EACH_ONE = re.compile(r"^\s*(?:each|every\s+one|all)\s+(?:with|has|have)\b", re.IGNORECASE)
# A per-item button is told apart in a part of a clause, as named_buttons.py tells one; a
# parenthesis is read as part of its clause's text ("each class (Morning flow) has a Book spot
# button").
PART = re.compile(r"[,;\u2014]|\s[-\u2013]\s")
# A button on each row of a table: its list is the table's columns, not its rows.
ROW = re.compile(r"^\s*(?:per|on\s+each|for\s+each|each|every)\s+row", re.IGNORECASE)
TAKES_AWAY_TEXT = "remove delete archive dismiss discard trash clear hide"
TAKES_AWAY = frozenset(TAKES_AWAY_TEXT.split())
# A verb's past, where adding "ed" does not spell it.
PAST = {
    "buy": "Bought",
    "pay": "Paid",
    "send": "Sent",
    "get": "Got",
    "take": "Took",
    "make": "Made",
    "hold": "Held",
    "keep": "Kept",
    "sell": "Sold",
    "put": "Put",
}
KEY = re.compile(r"[^a-z0-9]+")
# A key a condition compares is at most this long (ui4a.fields.COND_PATTERN).
MAX_KEY = 20


def item_buttons(message: str) -> list[tuple[int, str]]:
    """Where the message names a button for each item, and its name: (the offset of its
    "button" word, the name), in order, less any that takes its item away."""
    text = PARENTHESISED.sub(lambda inside: " " * len(inside.group()), message[:MAX_CHARS])
    found = []
    start = 0
    for cut in [*PART.finditer(text), None]:
        end = cut.start() if cut else len(text)
        part, offset = text[start:end], start
        start = cut.end() if cut else end
        for button in BUTTON.finditer(part):
            before, after = part[: button.start()], part[button.end() :]
            if not (EACH.search(before) or PER_ITEM.search(after)) or ROW.search(after):
                continue
            plural = button.group().lower() == "buttons"
            said = names_after(after) or names_before(EACH.split(before)[-1], plural)
            found += [(offset + button.start(), name) for name in said if keeps(name)]
    return found


def keeps(name: str) -> bool:
    return bool(name) and name.split()[0].lower() not in TAKES_AWAY


def buttons_for(message: str, said: list[tuple[int, str]], last_item_at: int) -> list[str]:
    """Of the per-item buttons the message says (`item_buttons(message)`), those of a list whose
    last item it says at `last_item_at`."""
    text = message[:MAX_CHARS]
    ends = [m.end() for m in SENTENCE.finditer(text)]
    own = sum(1 for end in ends if end <= last_item_at)
    names: list[str] = []
    for at, name in said:
        if at < last_item_at:
            continue
        sentence = sum(1 for end in ends if end <= at)
        opens = ends[sentence - 1] if sentence else 0
        if sentence == own or (sentence == own + 1 and EACH_ONE.match(text[opens:])):
            names.append(name)
    return list(dict.fromkeys(names))[:MAX_ITEM_BUTTONS]


def state_key(name: str, number: int) -> str:
    """The state key the button of the `number`th card sets ("Book spot", 2: "book_spot_card_2"):
    one the model's own keys are not, as a field named as the button binds "book_spot"."""
    suffix = f"_card_{number}"
    key = KEY.sub("_", name.lower()).strip("_") or "picked"
    key = (key if key[0].isalpha() else "item_" + key)[: MAX_KEY - len(suffix)].rstrip("_")
    return key + suffix


def pressed(name: str) -> str:
    """What a card's badge says once its button is pressed ("Add to basket": "Added to
    basket")."""
    verb, *rest = name.split()
    said = verb.lower()
    if said in PAST:
        past = PAST[said]
    elif said.endswith("e"):
        past = verb + "d"
    elif said.endswith("y") and said[-2:-1] not in "aeiou":
        past = verb[:-1] + "ied"
    else:
        past = verb + "ed"
    return " ".join([past[:1].upper() + past[1:], *rest])


def card_children(number: int, buttons: list[str]) -> str:
    """The children of the `number`th card (from 1): each button, setting the card's own key,
    and the badge that shows once it is set. A flag of the card's own, which the model starts
    false as it does "done", and not one key that holds the pressed card's number: the model
    started such a key at the first number it saw, and the first card showed "Adopted" before
    any was pressed (bench/RESULTS.md, 2026-12-07, 17:35)."""
    children = []
    for name in buttons:
        key = state_key(name, number)
        label = json.dumps(name, ensure_ascii=False)
        said = json.dumps(pressed(name), ensure_ascii=False)
        action = '{"do":"set","path":"' + key + '","value":true}'
        children.append('{"t":"button","label":' + label + ',"on":' + action + "}")
        children.append('{"t":"badge","if":"' + key + '","text":' + said + ',"tone":"success"}')
    return ",".join(children)
