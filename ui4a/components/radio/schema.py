"""The radio component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="radio",
    doc="A labelled group of radio buttons, one per option in `opts`, bound to `bind`.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
        Field("opts", "strs", required=True),
        Field("req", "bool"),
    ),
    bind_default="",
)
