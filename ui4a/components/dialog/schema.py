"""The dialog component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="dialog",
    doc="A modal dialog shown while the state key `bind` is true (open/close actions).",
    fields=(
        Field("title", "str", required=True),
        Field("bind", "key", required=True),
    ),
    children=True,
    max_level=2,
    bind_default=False,
    has_view=True,
    has_behaviour=True,
    has_style=True,
)
