"""A head's page keeps room for the dialogs and tabs the middle stage is to draw
(inference/serving/page_room.py): no rule adds a child past it, and a child the model would
begin past it closes the page instead."""

from __future__ import annotations

import json

from inference.serving.list_completion import Asks, closing
from inference.serving.page_room import closed_instead, room
from inference.serving.repeat_watch import RepeatWatch

OPENS = {"t": "button", "label": "Delete", "on": {"do": "open", "path": "confirm"}}
DIALOG = {"t": "dialog", "title": "Sure?", "bind": "confirm", "c": []}
TEXT = {"t": "text", "text": "Hi"}


def watched(children: list[object], closed: bool = True) -> RepeatWatch:
    """A watch that has read a page's `children`, the last one closed or not (its "}" to come)."""
    text = '{"title":"T","root":{"t":"page","c":' + json.dumps(children, separators=(",", ":"))
    text = text[:-1]  # the page's children are still open
    watch = RepeatWatch()
    watch.feed(text if closed else text[:-1])
    return watch


def test_room_leaves_one_child_for_each_dialog_still_to_draw() -> None:
    assert room([TEXT] * 3) == 5
    assert room([OPENS, *[TEXT] * 5]) == 1
    assert room([OPENS, DIALOG, *[TEXT] * 5]) == 1  # the dialog is drawn: no room held for it


def test_a_page_with_no_room_left_is_closed_where_the_model_would_go_on() -> None:
    full = [OPENS, *[TEXT] * 6]
    assert closed_instead(watched(full), ",") == "]"
    assert closed_instead(watched(full), ',{"t":"') == "]"
    # A token that ends the last child and begins the next closes the page after the child.
    assert closed_instead(watched(full, closed=False), "},") == "}]"


def test_a_page_with_room_or_a_comma_elsewhere_is_left_alone() -> None:
    assert closed_instead(watched([OPENS, *[TEXT] * 5]), ",") is None
    assert closed_instead(watched([OPENS, *[TEXT] * 6]), "]") is None
    inside = RepeatWatch()
    inside.feed('{"title":"T","root":{"t":"page","c":[{"t":"text","text":"Hi')
    assert closed_instead(inside, ", there") is None


def test_no_named_field_or_button_is_added_to_a_page_with_no_room_left() -> None:
    asks = Asks([], [("Save", True)], [("phone", "input")], [], [], ["Mira Okafor"])
    roomy = closing(watched([OPENS, *[TEXT] * 5]), "]}", asks)
    assert roomy == (',{"t":"input","label":"Phone"', False)
    assert closing(watched([OPENS, *[TEXT] * 6]), "]}", asks) is None


def test_a_named_button_takes_the_page_only_with_room_for_a_dialog_it_may_open() -> None:
    asks = Asks([], [("Hire me", True)], [], [], [], [])
    assert closing(watched([TEXT] * 6), "]}", asks) == (',{"t":"button","label":"Hire me"', False)
    assert closing(watched([OPENS, *[TEXT] * 5]), "]}", asks) is None
