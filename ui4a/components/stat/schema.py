"""The stat component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="stat",
    doc='A KPI: a label, a big value and an optional delta like "+12%" (green up, red down).',
    fields=(
        Field("label", "str", required=True),
        Field("value", "text", required=True),
        Field("delta", "str"),
        Field("good", "enum", default="up", values=("up", "down"), doc="Which direction is good."),
    ),
    has_view=True,
    has_style=True,
)
