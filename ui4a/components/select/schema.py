"""The select component: a labelled drop-down of `opts`, bound to `bind`."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="select",
    doc="A labelled drop-down of `opts`, bound to `bind`.",
    fields=(
        Field("label", "str", required=True),
        Field("bind", "key", required=True),
        Field("opts", "strs", required=True, max_items=12),
        Field("req", "bool"),
    ),
    bind_default="",
    bind_default_from="opts",
)
