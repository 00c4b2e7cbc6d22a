"""The badge component: a small status label; `tone` colours it."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="badge",
    doc="A small status label; `tone` colours it.",
    fields=(
        Field("text", "text", required=True),
        Field(
            "tone",
            "enum",
            default="neutral",
            values=("neutral", "info", "success", "warning", "danger"),
        ),
    ),
    has_style=True,
)
