"""The progress component (see `doc` below)."""

from ui4a.catalog import Component, Field

COMPONENT = Component(
    name="progress",
    doc=(
        "A labelled progress bar: `value` of `max` (100), or the number at `bind`. The label"
        ' may interpolate `{key}`, as in "Step {step} of 3".'
    ),
    fields=(
        Field("label", "text", required=True),
        Field("value", "num"),
        Field("max", "num", default=100),
        Field("bind", "key"),
    ),
    has_view=True,
    has_behaviour=True,
    has_style=True,
)
