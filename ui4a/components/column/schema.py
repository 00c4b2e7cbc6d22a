"""The column component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="column",
    doc="A vertical stack that shares a row's width with its siblings by weight `w`.",
    fields=(Field("w", "enum", values=(1, 2, 3), doc="Its share of the row's width."),),
    children=True,
)
