"""The grid component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="grid",
    doc="A responsive grid of `cols` equal columns; collapses to one on narrow screens.",
    fields=(Field("cols", "enum", default=2, values=(2, 3, 4)),),
    children=True,
    max_level=2,
)
