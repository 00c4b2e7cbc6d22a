"""The fixed action vocabulary buttons may run; the runtime (static/ui4a/runtime.js) mirrors it."""

from __future__ import annotations

from ui4a.catalog import Action, Field

ACTIONS: dict[str, Action] = {
    a.name: a
    for a in (
        Action(
            name="set",
            doc="Set the state key `path` to `value`.",
            fields=(Field("path", "key", required=True), Field("value", "scalar", required=True)),
        ),
        Action(
            name="toggle",
            doc="Flip the boolean state key `path`.",
            fields=(Field("path", "key", required=True),),
            path_default=False,
        ),
    )
}


def get(name: object) -> Action | None:
    return ACTIONS.get(name) if isinstance(name, str) else None
