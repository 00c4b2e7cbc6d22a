"""The slider component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="slider",
    doc="A labelled range slider from `min` to `max`, bound to the number at `bind`.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
        Field("min", "num", default=0),
        Field("max", "num", default=100),
        Field("step", "num"),
    ),
    bind_default=0,
    has_style=True,
)
