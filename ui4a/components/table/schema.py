"""The table component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="table",
    doc="A table of the dataset `data`: sortable columns `cols`, optional search, paging.",
    fields=(
        Field("data", "data", required=True),
        Field("cols", "strs", doc='Column keys; "key:Header" renames.'),
        Field("title", "str"),
        Field("filter", "filter"),
        Field("search", "bool"),
        Field("page", "num", doc="Rows per page (default 10)."),
    ),
    has_view=True,
    has_behaviour=True,
    has_style=True,
)
