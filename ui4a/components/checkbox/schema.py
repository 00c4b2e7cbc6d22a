"""The checkbox component: a labelled boolean bound to a state key."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="checkbox",
    doc="A labelled checkbox, two-way bound to the boolean state key `bind`; `req` must be ticked.",
    fields=(
        Field("label", "text", required=True),
        Field("bind", "key", required=True),
        Field("req", "bool"),
    ),
    bind_default=False,
)
