"""The contract every component and action declares: its fields, their kinds and defaults.

One declaration feeds the JSON Schema, validation, repair and rendering, so they cannot drift.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# str: a short label (SHORT_MAX); text: longer prose that may interpolate `{key}` (TEXT_MAX);
# key: a state key (bindings, action paths); enum: one of `values`; action: an action object;
# scalar: a string, number or boolean; num: a number; bool: true or false; strs: a short list of
# labels (`max_items`); data: a dataset name; cond: a condition (ui4a.expr); filter: a short list
# of filter clauses (ui4a.expr); md: markdown (MD_MAX); url: an https or data:image URL;
# record: an object of scalars (an item to append). Each kind is one class in ui4a/fields.py.
FieldKind = Literal[
    "str",
    "text",
    "key",
    "enum",
    "action",
    "scalar",
    "num",
    "bool",
    "strs",
    "data",
    "cond",
    "filter",
    "md",
    "url",
    "record",
]
Scalar = str | int | float | bool
StateValue = Scalar | None

SHORT_MAX = 60
TEXT_MAX = 160
KEY_MAX = 32
MAX_CHILDREN = 8
MAX_STATE_KEYS = 16
MD_MAX = 600
URL_MAX = 400
COND_MAX = 32
MAX_LIST = 8  # items of a "strs" or "filter" field
MAX_DATASETS = 4
MAX_ROWS = 60
MAX_COLUMNS = 8


@dataclass(frozen=True)
class Field:
    """One property of a component or action, in the order the model should write it."""

    name: str
    kind: FieldKind
    required: bool = False
    default: Scalar | None = None
    values: tuple[Scalar, ...] = ()
    doc: str = ""
    max_items: int = MAX_LIST
    # A "str" that the view compiles as a regular expression: checked for catastrophic
    # backtracking (ui4a/patterns.py).
    regex: bool = False


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
    # When set, a dangling `bind` starts as the first label of this "strs" field instead.
    bind_default_from: str = ""
    # When set, child i belongs to label i of this "strs" field (a tab's panel, an accordion's
    # section): its children are not interchangeable, and two alike are still two.
    children_labelled_by: str = ""
    # The deepest container level (1 = a child of the page) it may sit at. Heavy containers
    # stop a level early, which keeps the layered JSON Schema small enough to compile fast.
    max_level: int = 3
    # The optional pieces of its folder, declared so that a missing one is an error, not a
    # component without one: `view.py` (a NodeView subclass `View` with render helpers),
    # `behaviour.js` (its part of the runtime) and `style.css` (its styles).
    has_view: bool = False
    has_behaviour: bool = False
    has_style: bool = False

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
    # What `path` names: a state key, a dataset, the `bind` of a dialog or of tabs; "form" and
    # "item" actions have no path and act on the form or list item they sit in.
    target: Literal["state", "data", "dialog", "tabs", "form", "item", "all"] = "state"


# Properties every node may carry besides its own fields. `id` is accepted but not offered to the
# model: ids are assigned by repair, so the model does not spend tokens on them.
COMMON_FIELDS: tuple[Field, ...] = (
    Field("if", "cond", doc='Show only when the condition holds: "key", "!key", "step=2".'),
)
ID_MAX = 40
# Containers may sit at node depths 1..MAX_CONTAINER_DEPTH under the page (depth 0); leaves one
# level deeper at most. The JSON Schema is layered to the same bound.
MAX_CONTAINER_DEPTH = 3
