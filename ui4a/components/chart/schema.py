"""The chart component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="chart",
    doc="A line, bar, area or pie chart of dataset `data`: `x` column against `y` series.",
    fields=(
        Field("kind", "enum", default="bar", values=("line", "bar", "area", "pie")),
        Field("title", "str", required=True),
        Field("data", "data", required=True),
        Field("x", "str", required=True),
        Field("y", "strs", required=True, max_items=4),
        Field("filter", "filter"),
    ),
    has_view=True,
    has_behaviour=True,
    has_style=True,
)
