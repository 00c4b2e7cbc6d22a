"""The icon component (see `doc` below)."""

from ui4a.catalog import Component, Field
from ui4a.icons import ICONS

COMPONENT = Component(
    name="icon",
    doc="A built-in icon by `name`; `label` names it for screen readers (else decorative).",
    fields=(
        Field("name", "enum", required=True, values=ICONS),
        Field("label", "str"),
    ),
    has_view=True,
)
