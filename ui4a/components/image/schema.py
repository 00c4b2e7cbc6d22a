"""The image component: an image from a data:image/ URL, or an https: URL of an origin the
operator allows (ui4a/images.py; any other is drawn as a placeholder); `alt` describes it."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="image",
    doc="An image from an https: or data:image/ URL; `alt` describes it.",
    fields=(
        Field("src", "url", required=True),
        Field("alt", "str", required=True),
    ),
    has_view=True,
    has_style=True,
)
