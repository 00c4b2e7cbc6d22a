"""The input component: a labelled single-line field bound to a state key, with validation."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="input",
    doc="A labelled field, two-way bound to the state key `bind`; req/min/max/pattern validate.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
        Field(
            "kind",
            "enum",
            default="text",
            values=("text", "email", "password", "number", "date", "search", "tel", "url"),
        ),
        Field("placeholder", "str"),
        Field("req", "bool", doc="Required."),
        Field("min", "num", doc="Least value (number, date as yyyymmdd) or length (text)."),
        Field("max", "num", doc="Greatest value or length."),
        Field(
            "pattern",
            "str",
            doc="A regular expression the whole value must match (no nested repeats).",
            regex=True,
        ),
    ),
    bind_default="",
)
