"""The alert component: a callout for a message: info, success, warning or danger."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="alert",
    doc="A callout for a message: info, success, warning or danger.",
    fields=(
        Field("tone", "enum", default="info", values=("info", "success", "warning", "danger")),
        Field("title", "str"),
        Field("text", "text", required=True),
    ),
    has_view=True,
    has_style=True,
)
