"""How many more children a head's page can take, and still leave room for what the middle stage
must draw.

A head's button may open a dialog, or switch tabs, that the head never draws; the middle stage
then draws them as the page's last children (ui4a/undrawn.py), but only where the page has room
for them all (MAX_CHILDREN in all). A head whose page fills up first is invalid: the rules that
add a named field or button at the page's end, and the model writing on after them, filled
settings-05's and timer-06's pages to eight children with a dialog still to draw
(bench/RESULTS.md, 2026-12-07). So a head's rules add a child to the page only where there is
room for it and for those dialogs and tabs, and a page with no room left takes no more children:
where the head's best token would begin one, it closes the page instead. Both hold where a head's
rules run at all (list_completion.py: a request that names a list, a button or a field); a head
without them fills its page as the model writes it.

The page's children are parsed only where a token would begin another, or a rule would add one,
so a step's cost stays bounded by the page.
"""

from __future__ import annotations

import json
from typing import Any

from inference.serving.repeat_watch import RepeatWatch
from ui4a.catalog import MAX_CHILDREN
from ui4a.undrawn import undrawn

PAGE = ("c", "page")


def room(children: list[Any]) -> int:
    """How many more children a page of `children` can take, less the dialogs and tabs its
    actions aim at that none of them draws."""
    head = {"root": {"t": "page", "c": children}}
    return MAX_CHILDREN - len(children) - len(undrawn(head))


def page_children(watch: RepeatWatch) -> list[Any] | None:
    """The page's children, where the watch's text ends between them; None elsewhere."""
    opened = watch.innermost_array()
    if opened is None or (opened.key, opened.parent) != PAGE:
        return None
    try:
        children = json.loads("[" + watch.text[opened.first :] + "]")
    except json.JSONDecodeError:
        return None
    return children if isinstance(children, list) else None


def closed_instead(watch: RepeatWatch, best: str) -> str | None:
    """Where `best` (a token's text) would begin another child of a page that has no room left
    for one: how the text goes on instead, from where the watch's text ends (`best` up to its
    comma, then the page's closing bracket); None elsewhere."""
    comma = best.find(",")
    if comma < 0 or (comma and not best[:comma].endswith("}")):
        return None  # a page's child ends in "}": most tokens, as '","', need no fork
    ahead = watch
    if comma:  # "}," ends a child and begins the next
        ahead = watch.fork()
        ahead.feed(best[:comma])
    children = page_children(ahead)
    if children is None or room(children) >= 1:
        return None
    return best[:comma] + "]"
