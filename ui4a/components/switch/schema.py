"""The switch component: a labelled on/off switch bound to the boolean state key `bind`."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="switch",
    doc="A labelled on/off switch bound to the boolean state key `bind`.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
    ),
    bind_default=False,
    has_style=True,
)
