"""The markdown component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="markdown",
    doc="Markdown prose (a safe subset: emphasis, lists, links, code, headings), sanitized.",
    fields=(Field("md", "md", required=True),),
    has_view=True,
    has_style=True,
)
