"""The text component: a paragraph; `{key}` shows a state value."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="text",
    doc="A paragraph of text; `{key}` in it shows a state value, live.",
    fields=(Field("text", "text", required=True),),
)
