"""The heading component: a section heading of level 1 to 3."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="heading",
    doc="A heading; `{key}` in its text shows a state value.",
    fields=(
        Field("text", "text", required=True),
        Field("level", "enum", default=1, values=(1, 2, 3), doc="1 is the largest."),
    ),
    has_style=True,
)
