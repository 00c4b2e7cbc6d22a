"""The row component: children laid out horizontally, wrapping on narrow screens."""

from ui4a.catalog import Component

COMPONENT = Component(
    name="row", doc="Lays its children out horizontally; wraps when narrow.", children=True
)
