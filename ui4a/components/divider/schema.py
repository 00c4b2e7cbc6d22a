"""The divider component: a horizontal rule between sections, with an optional label."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="divider",
    doc="A horizontal rule between sections, with an optional label.",
    fields=(Field("label", "str"),),
    has_style=True,
)
