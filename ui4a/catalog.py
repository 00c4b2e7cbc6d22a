"""The contract every component and action declares: its fields, their kinds and defaults.

One declaration feeds the JSON Schema, validation, repair and rendering, so they cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# str: a short label (SHORT_MAX); text: longer prose that may interpolate `{key}` (TEXT_MAX);
# key: a state key (bindings, action paths); enum: one of `values`; action: an action object;
# scalar: a string, number or boolean.
FieldKind = Literal["str", "text", "key", "enum", "action", "scalar"]
Scalar = str | int | float | bool
StateValue = Scalar | None

SHORT_MAX = 80
TEXT_MAX = 200
KEY_MAX = 40
MAX_CHILDREN = 8
MAX_STATE_KEYS = 12


@dataclass(frozen=True)
class Field:
    """One property of a component or action, in the order the model should write it."""

    name: str
    kind: FieldKind
    required: bool = False
    default: Scalar | None = None
    values: tuple[Scalar, ...] = ()
    doc: str = ""


@dataclass(frozen=True)
class Component:
    """A node type. `children` makes it a container (its kids live in "c")."""

    name: str
    doc: str
    fields: tuple[Field, ...] = ()
    children: bool = False
    root_only: bool = False
    # The state value a dangling `bind` of this component is repaired with.
    bind_default: StateValue = None

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


@dataclass(frozen=True)
class Action:
    """A verb of the fixed action vocabulary the runtime understands."""

    name: str
    doc: str
    fields: tuple[Field, ...] = ()
    # The state value a dangling `path` is repaired with; None means "same type as `value`".
    path_default: StateValue = None


# Properties every node may carry besides its own fields. `id` is accepted but not offered to the
# model: ids are assigned by repair, so the model does not spend tokens on them.
COMMON_FIELDS: tuple[Field, ...] = (
    Field("if", "key", doc='Show only when this state key is truthy ("!key" negates).'),
)
ID_MAX = 40
# Containers may sit at node depths 1..MAX_CONTAINER_DEPTH under the page (depth 0); leaves one
# level deeper at most. The JSON Schema is layered to the same bound.
MAX_CONTAINER_DEPTH = 3
