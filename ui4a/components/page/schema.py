"""The page component: the root of every view."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="page",
    doc="The root of a view; stacks its children vertically under an optional title.",
    fields=(Field("title", "str", doc="A title shown above the content."),),
    children=True,
    root_only=True,
    has_style=True,
)
