"""The card component: a raised surface grouping related content."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="card",
    doc="A raised surface that groups its children under an optional title.",
    fields=(Field("title", "str", doc="A title shown at the top of the card."),),
    children=True,
    has_style=True,
)
