"""Theme tokens a spec may set: colour mode, accent colour, corner radius and density.

Each is a closed set of names (no raw colours), so every combination is one the stylesheet
(static/ui4a/view.css) has designed and checked for contrast; the view carries them as data
attributes on its page, and the runtime mirrors them onto <html>.
"""

from __future__ import annotations

from collections.abc import Mapping

from ui4a.catalog import Field

THEME_FIELDS: tuple[Field, ...] = (
    Field("mode", "enum", default="light", values=("light", "dark")),
    Field(
        "accent",
        "enum",
        default="indigo",
        values=("indigo", "blue", "teal", "green", "amber", "rose", "violet", "slate"),
    ),
    Field("radius", "enum", default="md", values=("none", "sm", "md", "lg")),
    Field("density", "enum", default="normal", values=("compact", "normal", "comfy")),
)


def tokens(theme: object) -> dict[str, str]:
    """The theme's tokens, every one present: unknown or missing values fall back to defaults."""
    given: Mapping[str, object] = theme if isinstance(theme, dict) else {}
    out: dict[str, str] = {}
    for field in THEME_FIELDS:
        value = given.get(field.name)
        out[field.name] = str(value if value in field.values else field.default)
    return out
