"""The tabs component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="tabs",
    doc="Tabbed panels: child i is the panel of tab label i; `bind` holds the open tab's label.",
    fields=(
        Field("bind", "key", required=True),
        Field("tabs", "strs", required=True, max_items=6),
    ),
    children=True,
    children_labelled_by="tabs",
    max_level=2,
    bind_default_from="tabs",
    has_view=True,
    has_behaviour=True,
    has_style=True,
)
