"""A head draws the buttons the request names and it has not drawn (`macaron_named_buttons`).

The ui expert leaves a named button out, or labels it its own way: "an Add supplier button"
drew a table and a filter and no button, "a big Enter button" submitted "Login", "a Start
workout button" drew sliders alone (bench/RESULTS.md, 2026-12-07). named_buttons.py reads the
names from the request; this says where a head's text goes on to them, for list_completion.py,
which spells it. Two places:
- **A form's submit button:** where a head begins a form's `submit` string, and the request
  names a button the spec has not drawn, the string is that name, unless the model's own
  first token begins one of the names. A name that begins with a side action ("Forgot PIN?",
  "Cancel order"), or one the request says opens or shows something ("a Details button opens a
  dialog"), is never a form's submit: a form of the tea's fields submitted with "Details" met
  the bench's requirements, and was no listing (bench/RESULTS.md, 2026-12-07).
- **The end of the page:** where the head's best token would close the page's children, the
  first named button not drawn yet is written there as a button with its name as its label,
  and the model writes its action on from the label's closing quote. Only there: added at the
  end of an earlier card or row, a "Save changes" button took the place of the one the model
  drew after its switches, and the page closed without them (bench/RESULTS.md, 2026-12-07).
A name is drawn where a button's label or a form's submit contains it (in any case), or where a
form's submit begins with its first word. Each name is written once at most, so a head ends
whatever it writes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from inference.serving.named_buttons import Named, named_buttons
from inference.serving.repeat_watch import OpenArray

EXTRA_ARG = "macaron_named_buttons"
# A form submits forward; a name that begins with one of these is a side action.
SIDE_ACTIONS_TEXT = (
    "forgot cancel back delete remove clear reset discard skip close undo previous prev"
)
SIDE_ACTIONS = frozenset(SIDE_ACTIONS_TEXT.split())
# A button's label, or a form's submit, as the UI4A grammar writes them.
DRAWN = re.compile(r'\{"t":"button","label":"((?:[^"\\]|\\.)*)"|"submit":"((?:[^"\\]|\\.)*)"')
SUBMIT = '"submit":"'


def request_args(message: str) -> dict[str, Any]:
    """`SamplingParams.extra_args` that draw the buttons `message` names."""
    names = named_buttons(message)
    return {EXTRA_ARG: names} if names else {}


def capitalised(name: str) -> str:
    return name[:1].upper() + name[1:]


def undrawn(names: list[str], text: str) -> list[str]:
    """The names no button drawn in a head's `text` shows, in the request's order. A form's
    submit that begins with a name's first word is that name's button: the model began it so,
    and was left to write it its own way ("Pay" for "pay $64.20 button")."""
    found = [(label.lower(), submit.lower()) for label, submit in DRAWN.findall(text)]
    drawn = [label or submit for label, submit in found]
    begun = {submit.split()[0] for _, submit in found if submit.split()}
    return [
        n
        for n in names
        if not any(n.lower() in label for label in drawn) and n.lower().split()[0] not in begun
    ]


def submitted(named: list[Named], text: str, best: str) -> str | None:
    """Where a head's `text` has just begun a form's submit string and the model's best token
    (`best`'s text) begins none of the request's button names: the first name not drawn yet
    that may submit a form and is no side action, and its closing quote; None otherwise."""
    if not text.endswith(SUBMIT):
        return None
    names = [name for name, _ in named]
    begun = best.strip().lower()
    if begun and any(n.lower().startswith(begun) for n in names):
        return None
    submits = [name for name, may in named if may]
    for name in undrawn(submits, text):
        if name.split()[0].lower() not in SIDE_ACTIONS:
            return json.dumps(capitalised(name), ensure_ascii=False)[1:]
    return None


def added_button(named: list[Named], text: str, opened: OpenArray) -> str | None:
    """Where a head's `text` ends right before the closing of the `opened` array: how it goes on
    instead with the first named button not drawn yet (a comma, the button's type and its
    label), where that array is the page's children; None where none is to be drawn there."""
    if (opened.key, opened.parent) != ("c", "page"):
        return None
    missing = undrawn([name for name, _ in named], text)
    if not missing:
        return None
    label = json.dumps(capitalised(missing[0]), ensure_ascii=False)
    return ',{"t":"button","label":' + label
