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

Only the head asks: the later stages write data, not lists a request names. A request's spec is
read as its tokens come (`WatchedOutput`), and an array's items are parsed only when a row's
best token closes one: a step's cost stays bounded by the array, not the spec.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from inference.serving.listed_items import Listed, listed_items
from inference.serving.repeat_watch import RepeatWatch, WatchedOutput
from inference.serving.request_coverage import shown_text
from inference.serving.spelling import allowed, keep_only, vocabulary
from inference.serving.step_rows import Row, Strings, after_drafts, asked

EXTRA_ARG = "macaron_listed_items"
# The arrays whose items may be a request's list. A table's columns are data keys, which the
# tail then fills row by row: a column the rule adds makes every row longer (a spec cut at the
# token limit, bench/RESULTS.md), so they are the model's.
LIST_KEYS = frozenset({"c", "opts", "tabs"})
# A list is the array's when at least this many of its items each show one of the list's.
SHOWN_TO_HOLD = 2
# Two words are one where they agree in this many first letters ("visitors" and "Visits"); a
# shorter word only matches itself and its plural ("day" and "Days", not "do" and "Doing").
STEM = 5
WORDS = re.compile(r"[a-z0-9$£€%][\w$£€%.'-]*")
# A node's own first display string, up to its value's opening quote; an item whose first one
# is in a child, or comes later than MAX_PREFIX, is not copied (its structure is the model's).
FIRST_SHOWN = re.compile(r'"(?:label|text|title)":"')
MAX_PREFIX = 120
# A node begun in an array after another: past the item a list went on with, a second one means
# the model wrote on, and the page is its to close.
NODE = ',{"t":'
# The most closing tokens taken from a row in one step, where the page is held open.
MAX_TRIES = 4
# An item said in more words is a description ("font size slider 12 to 24"), not a name to show.
MAX_SAID = 3


def request_args(message: str) -> dict[str, Any]:
    """`SamplingParams.extra_args` that go on with a head's lists to the lists in `message`."""
    lists = listed_items(message)
    return {EXTRA_ARG: lists} if lists else {}


def same_word(asked_for: str, shown: str) -> bool:
    short, long = sorted((asked_for, shown), key=len)
    if len(short) < STEM:
        return long in (short, short + "s", short + "es")
    return long[:STEM] == short[:STEM]


def shows(words: list[str], seen: set[str]) -> bool:
    """Whether a list item (its distinctive words) is among the words `seen`."""
    return any(same_word(a, w) for a in words for w in seen)


def item_words(item: Any) -> set[str]:
    """The words an array's item shows (a node's display strings, or a string itself)."""
    return set(WORDS.findall(item.lower() if isinstance(item, str) else shown_text(item)))


def left_out(items: list[Any], lists: list[list[Listed]], spec_words: set[str]) -> str | None:
    """The item, as the request says it, that an array of `items` leaves out of a list it is
    showing: SHOWN_TO_HOLD of its items or more each show one item of the list (an item that
    shows several holds the list, and is not one of its items), it has fewer items than the
    list, and that item of the list, among the items shown or next to them, said in MAX_SAID
    words at most, shows nowhere in the spec (`spec_words`) and names no other component than
    the array's last item is ("Track button" is no field of a form); None if none."""
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
            if i not in found and fits and short and not shows(words, spec_words):
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
    """One request's spec as read so far; the item it was set to go on with: where in the text
    that item begins, and how it is spelled; and where the last such item began, while the
    page is held open after it."""

    output: WatchedOutput = field(default_factory=WatchedOutput)
    going_on: tuple[int, str] | None = None
    went_on_at: int | None = None


def closing(watch: RepeatWatch, closer: str, lists: list[list[Listed]]) -> str | None:
    """Where `closer` (a token's text) would close a list array, after the spec the watch has
    read, short of a list of the request's: how the text goes on instead, from where the
    watch's text ends; None where the array may close, or the item cannot be spelled."""
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
    said = left_out(items, lists, set(WORDS.findall(ahead.text.lower())))
    if said is None:
        return None
    going_on = next_item(ahead.text[opened.last :], said)
    return None if going_on is None else closer[:bracket] + going_on


def go_on(
    logits: Any, row: int, watch: RepeatWatch, lists: list[list[Listed]], strings: Strings
) -> tuple[int, str] | None:
    """Where `row`'s best token closes a list array short of a request's list, keep only the
    tokens that go on to the item it left out, and say where that begins and how it is spelled
    (None: the row is left as it stood, as where the grammar allows none of those tokens)."""
    best = int(logits[row].argmax())
    going_on = closing(watch, strings(best), lists)
    if going_on and keep_only(logits, row, spelled(going_on, "", strings, logits)):
        return len(watch.text), going_on
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
    lists: list[list[Listed]],
    strings: Strings,
    drafted: bool,
) -> None:
    """Hold `row` to the item its request's spec goes on with, or set it going on to one; and
    right after such an item, hold the page open once. A row after drafts (`drafted`) may not
    be kept, so only the first row ends an item's going on, where the spec has written past it
    or otherwise, and spends the page's holding; a draft that left the item is rejected
    anyway, as the row before it is held to the item."""
    if state.going_on is not None:
        start, going_on = state.going_on
        written = watch.text[start:]
        on_it = len(watch.text) >= start and going_on.startswith(written)
        if on_it and len(written) < len(going_on):
            keep_only(logits, row, spelled(going_on, written, strings, logits))
            return
        if drafted and not on_it:
            return
        if not drafted:
            state.going_on = None
    just_after = state.went_on_at is not None and watch.text[state.went_on_at :].count(NODE) <= 1
    if just_after and hold_page(logits, row, watch, strings) and not drafted:
        state.went_on_at = None
    found = go_on(logits, row, watch, lists, strings)
    if found is not None and state.going_on is None:
        state.going_on = found
        state.went_on_at = found[0]


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
        lists = asked(state, EXTRA_ARG)
        if not lists:
            continue
        strings = read()
        held = kept.setdefault(req_id, ListState())
        held.output.update(list(state.output_token_ids), strings)
        watch = held.output.watch.fork() if count > 1 else held.output.watch
        for row, draft in after_drafts(count, drafts, strings):
            watch.feed(draft)
            hold_row(logits, first + row, watch, held, lists, strings, drafted=row > 0)
