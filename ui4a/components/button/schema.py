"""The button component: runs one action from the fixed vocabulary when clicked."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="button",
    doc="A button; `on` is the action it runs when clicked.",
    fields=(Field("label", "str", required=True), Field("on", "action")),
)
