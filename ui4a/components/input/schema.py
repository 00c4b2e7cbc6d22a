"""The input component: a labelled single-line text field bound to a state key."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="input",
    doc="A labelled text field, two-way bound to the state key `bind`.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
        Field("kind", "enum", default="text", values=("text", "email", "password")),
        Field("placeholder", "str"),
    ),
    bind_default="",
)
