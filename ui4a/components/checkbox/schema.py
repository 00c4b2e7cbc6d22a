"""The checkbox component: a labelled boolean bound to a state key."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="checkbox",
    doc="A labelled checkbox, two-way bound to the boolean state key `bind`.",
    fields=(Field("label", "str", required=True), Field("bind", "key", required=True)),
    bind_default=False,
)
