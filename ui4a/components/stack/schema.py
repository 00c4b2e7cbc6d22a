"""The stack component: children laid out vertically."""

from ui4a.catalog import Component

COMPONENT = Component(name="stack", doc="Lays its children out vertically.", children=True)
