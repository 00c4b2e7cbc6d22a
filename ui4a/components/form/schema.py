"""The form component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="form",
    doc="A form: validates its fields on submit, then runs `on` and reports the bound values.",
    fields=(
        Field("submit", "str", default="Submit", doc="The submit button's label."),
        Field("on", "action", doc="Run after a valid submit."),
    ),
    children=True,
    max_level=2,
)
