"""The fixed action vocabulary buttons and forms may run; static/ui4a/runtime.js mirrors it.

An `on` field holds one action or a list of up to MAX_ACTIONS run in order. Inside a list's
item template a `path` of ".field" reads and writes the current item instead of state.
"""

from __future__ import annotations

from ui4a.catalog import Action, Field

MAX_ACTIONS = 3

ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action(
            name="set",
            doc="Set the state key `path` to `value`.",
            fields=(Field("path", "key", required=True), Field("value", "scalar", required=True)),
        ),
        Action(
            name="toggle",
            doc="Flip the boolean state key `path`.",
            fields=(Field("path", "key", required=True),),
            path_default=False,
        ),
        Action(
            name="increment",
            doc="Add `by` (default 1, may be negative) to the number at `path`.",
            fields=(Field("path", "key", required=True), Field("by", "num")),
            path_default=0,
        ),
        Action(
            name="append",
            doc='Append the record `value` to the dataset `path`; "{key}" in it reads state.',
            fields=(Field("path", "data", required=True), Field("value", "record", required=True)),
            target="data",
        ),
        Action(
            name="remove",
            doc="Remove the list item this button sits in from its dataset.",
            target="item",
        ),
        Action(
            name="reset",
            doc="Put the state key `path` (or, without one, all state and data) back as it began.",
            fields=(Field("path", "key"),),
            target="all",
        ),
        Action(
            name="submit",
            doc="Submit the form this button sits in (validating it first).",
            target="form",
        ),
        Action(
            name="open",
            doc="Open the dialog whose `bind` is `path`.",
            fields=(Field("path", "key", required=True),),
            path_default=False,
            target="dialog",
        ),
        Action(
            name="close",
            doc="Close the dialog whose `bind` is `path`.",
            fields=(Field("path", "key", required=True),),
            path_default=False,
            target="dialog",
        ),
        Action(
            name="tab",
            doc="Switch the tabs whose `bind` is `path` to the tab labelled `value`.",
            fields=(Field("path", "key", required=True), Field("value", "str", required=True)),
            target="tabs",
        ),
    )
}


def get(name: object) -> Action | None:
    return ACTIONS.get(name) if isinstance(name, str) else None


def as_list(on: object) -> list[object]:
    """The actions an `on` value holds: one action object, or a list of them."""
    return list(on) if isinstance(on, list) else [on]
