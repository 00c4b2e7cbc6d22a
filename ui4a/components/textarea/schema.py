"""The textarea component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="textarea",
    doc="A labelled multi-line text field bound to `bind`; min/max bound its length.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
        Field("placeholder", "str"),
        Field("req", "bool"),
        Field("min", "num"),
        Field("max", "num"),
    ),
    bind_default="",
)
