"""The list component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="list",
    doc="A list with one item per record of `data`; its children are the item template.",
    fields=(
        Field("data", "data", required=True),
        Field("filter", "filter"),
        Field("empty", "str", doc="Shown when no item matches."),
    ),
    children=True,
    max_level=2,
    has_view=True,
    has_behaviour=True,
    has_style=True,
)
