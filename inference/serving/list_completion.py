"""A head's list goes on to the items the request named and it left out
(`macaron_listed_items`).

The ui expert stops lists short: "KPI tiles for visitors, signups, conversion rate and bounce
rate" drew three tiles, with no bounce rate; "days, hours, minutes" two; a hiring board of four
named columns three (bench/RESULTS.md, 2026-12-07). So where a row's best token would close an
array (a node's children, a select's options, a tabs' labels) when:
- two or more of its items each show one item of a list of the request's (listed_items.py),
- it has fewer items than that list,
- and an item of the list, among those it shows or next to them, shows nowhere in the spec,
the array goes on with that item. The next item is written like the array's last one up to its
first display string (`{"t":"stat","label":"`), then that string is the item as the request
says it ("Bounce rate"), and the model writes on from its closing quote. Right after it, the
page is held open once: the model otherwise closed it there, and lost the sections after.
Held open without the spelling, the model wrote a note or a button, not the tile, and lost
about as many requirements as it met (bench/RESULTS.md). An item that names another component
than the array's last item ("Track button" after a form's fields) is not spelled there; where
the item cannot be spelled (the last item shows no display string of its own, or the grammar
allows none of it), the array closes as the model meant. An array goes on at most until it has
as many items as the list, so a head ends whatever it writes.

The same spelling draws the buttons the request names and the head has not drawn
(`macaron_named_buttons`, button_completion.py): a form's submit string, or a button at the end
of the page's children; the page is not held open after one. It draws the fields the
request names (`macaron_named_fields`, field_completion.py) at the end of a form's or the page's
children, before any button; it spells the options the request gives a select where the
head begins that select's options (`macaron_field_options`, field_options.py); and at the end
of the page's children, after the fields and before a button, it draws a list the head shows
none of as a grid of cards, or a question's choices as radios (`macaron_list_cards`,
list_cards.py), and the names, quoted phrases and values the head leaves out as a text
(`macaron_named_texts`, named_texts.py); either closes the page where a child and the dialog it
may open would not fit after it.

Only the head asks: the later stages write data, not lists a request names. A request's spec is
read as its tokens come (`WatchedOutput`), and an array's items are parsed only when a row's
best token closes one: a step's cost stays bounded by the array, not the spec.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from inference.serving import (
    button_completion,
    field_completion,
    field_options,
    list_cards,
    named_texts,
    page_room,
)
from inference.serving.button_completion import added_button, submitted
from inference.serving.field_completion import added_field
from inference.serving.field_options import Options, opening
from inference.serving.list_cards import CardList, added_buttons, added_cards
from inference.serving.listed_items import SHOWN_TO_HOLD, Listed, listed_items, shows
from inference.serving.named_buttons import Named
from inference.serving.named_fields import Field
from inference.serving.named_texts import added_text
from inference.serving.repeat_watch import RepeatWatch, WatchedOutput
from inference.serving.request_coverage import shown_text
from inference.serving.spelling import allowed, keep_only, vocabulary
from inference.serving.step_rows import Row, Strings, after_drafts, asked
from ui4a.catalog import MAX_CHILDREN

EXTRA_ARG = "macaron_listed_items"
BUTTONS_ARG = button_completion.EXTRA_ARG
FIELDS_ARG = field_completion.EXTRA_ARG
OPTIONS_ARG = field_options.EXTRA_ARG
CARDS_ARG = list_cards.EXTRA_ARG
TEXTS_ARG = named_texts.EXTRA_ARG


class Asks(NamedTuple):
    """What a request asks of its head, each read from its latest message: the lists it names,
    the buttons, the fields, the options it gives a select, the lists to draw as cards where
    the head shows none of them, and the phrases to show."""

    lists: list[list[Listed]]
    buttons: list[Named]
    fields: list[Field]
    options: list[Options]
    cards: list[CardList]
    texts: list[str]


# The arrays whose items may be a request's list. A table's columns are data keys, which the
# tail then fills row by row: a column the rule adds makes every row longer (a spec cut at the
# token limit, bench/RESULTS.md), so they are the model's.
LIST_KEYS = frozenset({"c", "opts", "tabs"})
WORDS = re.compile(r"[a-z0-9$£€%][\w$£€%.'-]*")
# A node's own first display string, up to its value's opening quote; an item whose first one
# is in a child, or comes later than MAX_PREFIX, is not copied (its structure is the model's).
FIRST_SHOWN = re.compile(r'"(?:label|text|title)":"')
MAX_PREFIX = 120
# A button added at the page's end takes a child, and the model may have it open a dialog the
# middle stage draws after it: with the phrases of named_texts.py taking the page's seventh
# child, profile-01's "Hire me" took the eighth and opened a dialog there was no room for
# (bench/RESULTS.md, 2026-12-07, 15:00).
BUTTON_ROOM = 2
# A node begun in an array after another: past the item a list went on with, a second one means
# the model wrote on, and the page is its to close.
NODE = ',{"t":'
# The most closing tokens taken from a row in one step, where the page is held open.
MAX_TRIES = 4
# An item said in more words is a description ("font size slider 12 to 24"), not a name to show.
MAX_SAID = 3


def request_args(
    message: str,
    lists: bool = True,
    buttons: bool = True,
    fields: bool = True,
    cards: bool = True,
    texts: bool = True,
) -> dict[str, Any]:
    """`SamplingParams.extra_args` that go on with a head's lists to the lists in `message`
    (`lists`), draw the buttons (`buttons`) and the fields (`fields`) it names, the lists it
    shows none of as cards (`cards`), and the names and quoted phrases it leaves out
    (`texts`)."""
    listed = listed_items(message) if lists else []
    return (
        ({EXTRA_ARG: listed} if listed else {})
        | (button_completion.request_args(message) if buttons else {})
        | (field_completion.request_args(message) if fields else {})
        | (list_cards.request_args(message) if cards else {})
        | (named_texts.request_args(message) if texts else {})
    )


def item_words(item: Any) -> set[str]:
    """The words an array's item shows (a node's display strings, or a string itself)."""
    return set(WORDS.findall(item.lower() if isinstance(item, str) else shown_text(item)))


def left_out(items: list[Any], lists: list[list[Listed]], spec_words: set[str]) -> str | None:
    """The item, as the request says it, that an array of `items` leaves out of a list it is
    showing: SHOWN_TO_HOLD of its items or more each show one item of the list (an item that
    shows several holds the list, and is not one of its items), it has fewer items than the
    list, and that item of the list, among the items shown or next to them, said in MAX_SAID
    words at most, does not show its last telling word (its phrase's head: "prefix" of "invoice
    number prefix", where "Invoice settings" shows "invoice") anywhere in the spec
    (`spec_words`), and names no other component than the array's last item is ("Track button"
    is no field of a form); None if none."""
    shown = [item_words(item) for item in items]
    last = items[-1].get("t") if items and isinstance(items[-1], dict) else ""
    for listed in lists:
        if len(items) >= len(listed):
            continue
        found: set[int] = set()
        for seen in shown:
            showing = [i for i, (_, words, _) in enumerate(listed) if shows(words, seen)]
            if len(showing) == 1:
                found.update(showing)
        if len(found) < SHOWN_TO_HOLD:
            continue
        # The list is drawn in order: the item to add is among those it has shown, or next to
        # them ("name" is no option of a topic select that shows "Rental" and "Other").
        for i in range(max(0, min(found) - 1), min(len(listed), max(found) + 2)):
            said, words, named = listed[i]
            fits = not named or named == last
            short = len(said.split()) <= MAX_SAID
            if i not in found and fits and short and not shows(words[-1:], spec_words):
                return said
    return None


def next_item(last: str, said: str) -> str | None:
    """How an array goes on from its `last` item's text to an item that says `said`: a comma,
    then the last item's text up to its first display string and `said` as that string (or
    `said` alone, a string array's item); None where the last item shows no such string."""
    if last.startswith('"'):
        return "," + json.dumps(styled(said, last[1:2]), ensure_ascii=False)
    found = FIRST_SHOWN.search(last, 0, MAX_PREFIX)
    if found is None or "[" in last[: found.end()]:
        return None
    said = styled(said, last[found.end() : found.end() + 1])
    return "," + last[: found.end()] + json.dumps(said, ensure_ascii=False)[1:]


def styled(said: str, like: str) -> str:
    """`said` capitalised where the item it follows begins with a capital (`like`)."""
    return said[:1].upper() + said[1:] if like.isupper() else said


@dataclass
class ListState:
    """One request's spec as read so far; the item it was set to go on with: the text it goes
    on after, how it is spelled, and how many output tokens the row that set it held; and
    where the last such item began, while the page is held open after it."""

    output: WatchedOutput = field(default_factory=WatchedOutput)
    going_on: tuple[str, str, int] | None = None
    went_on_at: int | None = None


def closing(watch: RepeatWatch, closer: str, asks: Asks) -> tuple[str, bool] | None:
    """Where `closer` (a token's text) would close a list array, after the spec the watch has
    read, short of a list of the request's, or a form's or the page's children short of a field
    it names (field_completion.py), or a card's children that show an item short of the button
    said for each (list_cards.added_buttons), or the page's children short of a list it shows
    none of (list_cards.py), a phrase it gives (named_texts.py) or a button it names
    (button_completion.py): how the text goes on instead, from where the watch's text ends, and
    whether the page is held open once after it (after a list's item); None where the array may
    close, the item cannot be spelled, or the array is a page with no room for another child
    (page_room.py)."""
    bracket = closer.find("]")
    if bracket < 0:
        return None
    ahead = watch.fork()
    ahead.feed(closer[:bracket])
    opened = ahead.innermost_array()
    if opened is None or opened.key not in LIST_KEYS:
        return None
    try:
        items = json.loads("[" + ahead.text[opened.first :] + "]")
    except json.JSONDecodeError:
        return None
    if not isinstance(items, list):
        return None
    on_page = (opened.key, opened.parent) == page_room.PAGE
    spare = page_room.room(items) if on_page else MAX_CHILDREN
    if spare < 1:
        return None  # the page has no room for one more and the dialogs it is to draw
    said = left_out(items, asks.lists, set(WORDS.findall(ahead.text.lower())))
    going_on = next_item(ahead.text[opened.last :], said) if said is not None else None
    if going_on is not None:
        return closer[:bracket] + going_on, True
    added = added_field(asks.fields, ahead.text, opened) if items else None
    if added is None and items:
        in_card = set(WORDS.findall(ahead.text[opened.first :].lower().replace("_", " ")))
        added = added_buttons(asks.cards, opened, items, in_card)
    # After the cards or the text a rule adds at the page's end the model may write on, and a
    # child it writes may open a dialog the middle stage must draw there: order-tracking-03's
    # "8 minutes" took the page's seventh child, the model wrote a row of buttons opening a
    # dialog as its eighth, and there was no room for the dialog (bench/RESULTS.md, 2026-12-07,
    # 21:40). So where fewer than BUTTON_ROOM children would fit after them, they close the
    # page; and where the page has room for a named button or for them, not for both, the
    # button is drawn: timer-01's "25:00" had closed its page before its Start and Reset.
    button = None
    if added is None and spare >= BUTTON_ROOM:
        button = added_button(asks.buttons, ahead.text, opened)
    if added is None and items and not (button and spare <= BUTTON_ROOM):
        seen = set(WORDS.findall(ahead.text.lower().replace("_", " ")))
        added = added_cards(asks.cards, opened, seen)
        added = added or added_text(asks.texts, ahead.text, opened)
        if added is not None and on_page and spare - 1 < BUTTON_ROOM:
            added += "]"
    added = added or button
    return None if added is None else (closer[:bracket] + added, False)


def go_on(
    logits: Any, row: int, watch: RepeatWatch, asks: Asks, strings: Strings
) -> tuple[str, bool] | None:
    """Where `row`'s best token closes a list array short of a request's list, or the page's
    children short of a button it names, or begins a form's submit string where the request
    names a button not drawn yet, or where the row begins the options of a select the request
    gives options: keep only the tokens that go on to what was left out, and say
    how it is spelled and whether the page is held open after it (None: the row is left as it
    stood, as where the grammar allows none of those tokens)."""
    best = strings(int(logits[row].argmax()))
    found = closing(watch, best, asks)
    if found is None:
        submit = submitted(asks.buttons, watch.text, best)
        found = None if submit is None else (submit, False)
    if found is None:
        listed = opening(asks.options, watch.text, best)
        found = None if listed is None else (listed, False)
    if found and keep_only(logits, row, spelled(found[0], "", strings, logits)):
        return found
    return None


def spelled(going_on: str, written: str, strings: Strings, logits: Any) -> list[int]:
    return allowed(written, [going_on], vocabulary(strings, logits.shape[1]))


def closes_page(watch: RepeatWatch, closer: str) -> bool:
    """Whether `closer` (a token's text) would close the page's children after the spec the
    watch has read."""
    if "]" not in closer:  # most tokens: no fork of the watch, which copies its strings
        return False
    ahead = watch.fork()
    written = 0
    for bracket in (i for i, char in enumerate(closer) if char == "]"):
        ahead.feed(closer[written:bracket])
        written = bracket
        opened = ahead.innermost_array()
        if opened is not None and (opened.key, opened.parent) == ("c", "page"):
            return True
    return False


def hold_page(logits: Any, row: int, watch: RepeatWatch, strings: Strings) -> bool:
    """Take away `row`'s best tokens while they would close the page, a few at most, unless
    nothing else is allowed (then the row is left as it stood); whether any was."""
    taken: list[tuple[int, Any]] = []
    for _ in range(MAX_TRIES):
        best = int(logits[row].argmax())
        if bool(logits[row, best].isneginf()) or not closes_page(watch, strings(best)):
            break
        taken.append((best, logits[row, best].clone()))
        logits[row, best] = float("-inf")
    if taken and bool(logits[row].isneginf().all()):
        for token, value in taken:
            logits[row, token] = value
        return False
    return bool(taken)


def hold_row(
    logits: Any,
    row: int,
    watch: RepeatWatch,
    state: ListState,
    asks: Asks,
    strings: Strings,
    tokens: int,
    drafted: bool,
) -> None:
    """Hold `row` to the item its request's spec goes on with, or set it going on to one; and
    right after such an item, hold the page open once. `row` reads `tokens` output tokens,
    drafts included. A row after drafts (`drafted`) may not be kept, so only the first row ends
    an item's going on, where the spec has written past it or otherwise, and spends the page's
    holding; a draft that left the item is rejected anyway, as the row before it is held to
    the item. A page with no room left for another child and for the dialogs and tabs the
    middle stage is to draw takes no more (page_room.py): the row closes it instead."""
    if state.going_on is not None:
        before, going_on, set_at = state.going_on
        written = watch.text[len(before) :]
        # An item set in a row after drafts holds only where they were all kept, and that row's
        # token with them: a draft "}" where the model wrote "}," leaves a "," that the item
        # begins with, on a path the model did not take.
        kept = tokens > set_at and watch.text.startswith(before)
        on_it = kept and (going_on.startswith(written) or written.startswith(going_on))
        if on_it and len(written) < len(going_on):
            keep_only(logits, row, spelled(going_on, written, strings, logits))
            return
        if drafted and not on_it:
            return
        if not drafted:
            state.going_on = None
            if not on_it and state.went_on_at == len(before):
                state.went_on_at = None  # the page is held after an item that was written
    closed = page_room.closed_instead(watch, strings(int(logits[row].argmax())))
    if closed is not None:
        keep_only(logits, row, spelled(closed, "", strings, logits))
        return
    just_after = state.went_on_at is not None and watch.text[state.went_on_at :].count(NODE) <= 1
    if just_after and hold_page(logits, row, watch, strings) and not drafted:
        state.went_on_at = None
    found = go_on(logits, row, watch, asks, strings)
    if found is not None and state.going_on is None:
        going_on, hold = found
        state.going_on = watch.text, going_on, tokens
        state.went_on_at = len(watch.text) if hold else state.went_on_at


def hold_lists(
    logits: Any,
    batch: Iterable[Row],
    kept: dict[str, Any],
    read: Callable[[], Strings],
) -> None:
    """In each row of the requests that ask (row j after drafts 0..j-1), go on with the list
    arrays short of the request's lists. `kept` holds the requests' states while they are in
    the batch."""
    for req_id, state, first, count, drafts in batch:
        asks = Asks(
            *(
                asked(state, key) or []
                for key in (EXTRA_ARG, BUTTONS_ARG, FIELDS_ARG, OPTIONS_ARG, CARDS_ARG, TEXTS_ARG)
            )
        )
        if not any(asks):
            continue
        strings = read()
        held = kept.setdefault(req_id, ListState())
        held.output.update(list(state.output_token_ids), strings)
        watch = held.output.watch.fork() if count > 1 else held.output.watch
        written = len(state.output_token_ids)
        for row, draft in after_drafts(count, drafts, strings):
            watch.feed(draft)
            tokens = written + row
            hold_row(logits, first + row, watch, held, asks, strings, tokens, drafted=row > 0)
