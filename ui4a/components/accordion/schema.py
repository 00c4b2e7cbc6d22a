"""The accordion component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="accordion",
    doc="Collapsible sections: child i is the body of the section titled `items[i]`.",
    fields=(Field("items", "strs", required=True),),
    children=True,
    children_labelled_by="items",
    max_level=2,
    has_behaviour=True,
    has_style=True,
)
