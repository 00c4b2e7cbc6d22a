"""The rating component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="rating",
    doc="A row of `max` stars (default 5) the user picks from, bound to the number at `bind`.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
        Field("max", "num", default=5, doc="How many stars, 1-10."),
    ),
    bind_default=0,
    has_view=True,
    has_behaviour=True,
    has_style=True,
)
