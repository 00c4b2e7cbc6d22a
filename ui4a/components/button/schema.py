"""The button component: runs actions from the fixed vocabulary when clicked."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="button",
    doc="A button; `on` is the action (or list of actions) it runs when clicked.",
    fields=(
        Field("label", "str", required=True),
        Field("on", "action"),
        Field(
            "kind",
            "enum",
            default="primary",
            values=("primary", "secondary", "ghost", "danger"),
        ),
    ),
)
