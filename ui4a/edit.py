"""Hand edits of a spec: one operation in, the edited spec and its timeline label out.

No model is involved. An operation is checked against the component catalog first, so an
unknown field or a wrong value is refused naming the field and what it expects; then the
whole edited spec goes through `ui4a.validate`. A refused edit raises `EditRefused` and
leaves the given spec untouched (edits work on a copy).

Operations (JSON objects, the operation named by "op"; paths are JSON pointers to nodes):
  {"op": "set", "path", "field", "value"}    {"op": "unset", "path", "field"}
  {"op": "move", "path", "by": -1 | 1}       {"op": "duplicate", "path"}
  {"op": "delete", "path"}                   {"op": "wrap", "path", "in": "card"}
  {"op": "theme", "field", "value"}          {"op": "title", "value"}
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from ui4a import actions, registry
from ui4a.catalog import COMMON_FIELDS, ID_MAX, MAX_CHILDREN, SHORT_MAX, Component, Field
from ui4a.describe import describe, quote
from ui4a.fields import check, kind_of
from ui4a.limits import DEFAULT_LIMITS, Limits, SpecTooLarge, check_value
from ui4a.problems import Problem
from ui4a.theme import THEME_FIELDS, tokens
from ui4a.tree import Path, pointer, walk
from ui4a.validate import ID_PATTERN, TOP_LEVEL, state_references, validate

# An operation is small: the largest field value (markdown) is a few hundred characters.
OP_MAX_BYTES = 4096
OP_MAX_DEPTH = 6
POINTER_MAX = 200
# What the timeline calls a field, where its name alone would puzzle.
FIELD_TITLES = {"if": "condition", "on": "action", "req": "required", "opts": "options"}


class EditRefused(ValueError):
    """An edit that cannot be made; `message` says why in words, `path` where (if anywhere)."""

    def __init__(self, message: str, *, path: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.path = path


class Edited(NamedTuple):
    spec: dict[str, Any]
    label: str


# The layout containers a node may be wrapped in: they need nothing but children and change
# no behaviour (a form would, and a column belongs in a row).
WRAPPERS = ("card", "stack", "row", "grid")


def wrappers() -> tuple[str, ...]:
    return tuple(name for name in WRAPPERS if registry.get(name) is not None)


def apply_edit(spec: object, op: object) -> Edited:
    """The spec after `op`, and a label for the timeline; raises EditRefused."""
    if not isinstance(op, dict):
        raise EditRefused('An edit is an object like {"op": "set", "path": ..., ...}.')
    _check_op_size(op)
    name = op.get("op")
    operation = OPERATIONS.get(name) if isinstance(name, str) else None
    if operation is None:
        raise EditRefused(f"Unknown edit {_shown(name)}; edits are: {', '.join(OPERATIONS)}.")
    unknown = [key for key in op if key != "op" and key not in operation.keys]
    if unknown:
        allowed = ", ".join(operation.keys)
        raise EditRefused(f"A {name} edit has no {unknown[0]!r}; it takes: {allowed}.")
    if not isinstance(spec, dict) or not isinstance(spec.get("root"), dict):
        raise EditRefused("This version has no page to edit.")
    try:
        check_value(spec, DEFAULT_LIMITS)
    except SpecTooLarge as exc:
        raise EditRefused(f"This version is too large to edit: {exc}.") from None
    edited = copy.deepcopy(spec)
    label = operation.run(edited, op)
    _declare_new_state(spec, edited)
    _check_result(spec, edited)
    return Edited(edited, label)


# --- operations ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Operation:
    keys: tuple[str, ...]
    run: Callable[[dict[str, Any], dict[str, Any]], str]


@dataclass(frozen=True)
class Target:
    """The node a path names, where it sits, and the types of the nodes above it."""

    node: dict[str, Any]
    path: Path
    siblings: list[Any] | None  # the list holding it; None for the root page
    index: int
    above: tuple[object, ...]

    @property
    def where(self) -> str:
        return pointer(self.path)


def _set(spec: dict[str, Any], op: dict[str, Any]) -> str:
    target = _target(spec, op)
    field = _field(target, op)
    if "value" not in op:
        raise EditRefused(f"A set edit needs a 'value' for {field.name!r}.", path=target.where)
    value = op["value"]
    problems = check(field, value, (*target.path, field.name), "list" in target.above)
    if problems:
        raise EditRefused(_expects(field, problems[0]), path=problems[0].path)
    old = target.node.get(field.name)
    if field.name in target.node and _same(old, value):
        raise EditRefused(
            f"Nothing to change: the {_title(field)} of {describe(target.node)} is already that.",
            path=target.where,
        )
    label = f"edited: {_title(field)} of {describe(target.node)}"
    _put(target.node, field.name, value)
    return label


def _unset(spec: dict[str, Any], op: dict[str, Any]) -> str:
    target = _target(spec, op)
    field = _field(target, op)
    name = describe(target.node)
    if field.required:
        raise EditRefused(
            f"{field.name!r} is required for a {target.node['t']}; give it another value instead.",
            path=target.where,
        )
    if field.name not in target.node:
        raise EditRefused(
            f"Nothing to change: the {name} has no {_title(field)}.", path=target.where
        )
    del target.node[field.name]
    return f"edited: cleared {_title(field)} of {name}"


def _move(spec: dict[str, Any], op: dict[str, Any]) -> str:
    target = _child_target(spec, op, "moved")
    by = op.get("by")
    if by not in (-1, 1) or isinstance(by, bool):
        raise EditRefused("'by' is -1 (up) or 1 (down).", path=target.where)
    siblings, i = target.siblings, target.index
    assert siblings is not None
    j = i + by
    if not 0 <= j < len(siblings):
        edge = "first" if by < 0 else "last"
        raise EditRefused(
            f"The {describe(target.node)} is already {edge} in its container.", path=target.where
        )
    siblings[i], siblings[j] = siblings[j], siblings[i]
    return f"moved {describe(target.node)} {'up' if by < 0 else 'down'}"


def _duplicate(spec: dict[str, Any], op: dict[str, Any]) -> str:
    target = _child_target(spec, op, "duplicated")
    assert target.siblings is not None
    copied = copy.deepcopy(target.node)
    _fresh_ids(copied, _ids(spec))
    target.siblings.insert(target.index + 1, copied)
    return f"duplicated {describe(target.node)}"


def _delete(spec: dict[str, Any], op: dict[str, Any]) -> str:
    target = _child_target(spec, op, "deleted")
    assert target.siblings is not None
    del target.siblings[target.index]
    return f"deleted {describe(target.node)}"


def _wrap(spec: dict[str, Any], op: dict[str, Any]) -> str:
    target = _child_target(spec, op, "wrapped")
    assert target.siblings is not None
    allowed = wrappers()
    container = op.get("in")
    if container not in allowed:
        names = ", ".join(repr(w) for w in allowed)
        raise EditRefused(f"'in' is one of {names}.", path=target.where)
    target.siblings[target.index] = {"t": container, "c": [target.node]}
    return f"wrapped {describe(target.node)} in a {container}"


def _theme(spec: dict[str, Any], op: dict[str, Any]) -> str:
    fields = {f.name: f for f in THEME_FIELDS}
    name = op.get("field")
    field = fields.get(name) if isinstance(name, str) else None
    if field is None:
        raise EditRefused(f"'field' of a theme edit is one of {', '.join(fields)}.")
    value = op.get("value")
    if isinstance(value, bool) or value not in field.values:
        allowed = ", ".join(repr(v) for v in field.values)
        raise EditRefused(f"The theme's {field.name!r} is one of {allowed}.", path="/theme")
    theme = spec.get("theme")
    if not isinstance(theme, dict):
        theme = {}
    if tokens(theme)[field.name] == value:
        raise EditRefused(f"Nothing to change: the {field.name} is already {value}.")
    _put_top(spec, "theme", {**theme, field.name: value})
    return f"theme: {field.name} {value}"


def _title_op(spec: dict[str, Any], op: dict[str, Any]) -> str:
    value = op.get("value")
    if value is None or (isinstance(value, str) and not value.strip()):
        if "title" not in spec:
            raise EditRefused("Nothing to change: the view has no title.", path="/title")
        del spec["title"]
        return "title: removed"
    if not isinstance(value, str) or len(value) > SHORT_MAX:
        raise EditRefused(f"The title is text of at most {SHORT_MAX} characters.", path="/title")
    if spec.get("title") == value:
        raise EditRefused("Nothing to change: the title is already that.", path="/title")
    _put_top(spec, "title", value)
    return f"title: {quote(value)}"


OPERATIONS: dict[str, Operation] = {
    "set": Operation(("path", "field", "value"), _set),
    "unset": Operation(("path", "field"), _unset),
    "move": Operation(("path", "by"), _move),
    "duplicate": Operation(("path",), _duplicate),
    "delete": Operation(("path",), _delete),
    "wrap": Operation(("path", "in"), _wrap),
    "theme": Operation(("field", "value"), _theme),
    "title": Operation(("value",), _title_op),
}


# --- what an inspector may edit -------------------------------------------------------------


def field_summary(field: Field) -> dict[str, Any]:
    """A field as an inspector shows it: its kind, allowed values, limits and doc."""
    kind = kind_of(field)
    out: dict[str, Any] = {
        "name": field.name,
        "kind": field.kind,
        "required": field.required,
        "values": list(field.values),
        "default": field.default,
        "doc": field.doc,
    }
    most = getattr(kind, "most", None)  # the text kinds' length limit
    if isinstance(most, int):
        out["max_length"] = most
    if field.kind in ("strs", "filter"):
        out["max_items"] = field.max_items
    return out


def editable_catalog() -> dict[str, Any]:
    """Every component with the fields an edit may set, the theme tokens, the containers a
    node may be wrapped in and the action vocabulary: the inspector's whole reference."""
    return {
        "components": [
            {
                "name": c.name,
                "doc": c.doc,
                "container": c.children,
                "root_only": c.root_only,
                "fields": [field_summary(f) for f in fields_of(c)],
            }
            for c in registry.components().values()
        ],
        "theme": [field_summary(f) for f in THEME_FIELDS],
        "wrappers": list(wrappers()),
        "actions": [
            {"name": a.name, "doc": a.doc, "fields": [field_summary(f) for f in a.fields]}
            for a in actions.ACTIONS.values()
        ],
        "max_children": MAX_CHILDREN,
        "operations": {name: list(op.keys) for name, op in OPERATIONS.items()},
    }


# --- finding nodes and fields -----------------------------------------------------------------


def parse_node_pointer(text: object) -> tuple[int, ...]:
    """The child indexes of a node pointer: "/root" -> (), "/root/c/1/c/0" -> (1, 0)."""
    if not isinstance(text, str) or len(text) > POINTER_MAX:
        raise EditRefused(f"'path' is a node pointer like \"/root/c/1\", got {_shown(text)}.")
    parts = text.split("/")
    pairs = parts[2:]
    well_formed = (
        parts[:2] == ["", "root"]
        and len(pairs) % 2 == 0
        and all(
            pairs[k] == "c" and pairs[k + 1].isdigit() and len(pairs[k + 1]) <= 4
            for k in range(0, len(pairs), 2)
        )
    )
    if not well_formed:
        raise EditRefused(f"'path' is a node pointer like \"/root/c/1\", got {_shown(text)}.")
    return tuple(int(pairs[k + 1]) for k in range(0, len(pairs), 2))


def find_node(spec: dict[str, Any], text: object) -> Target:
    """The node at a pointer; EditRefused when there is none."""
    indexes = parse_node_pointer(text)
    node: Any = spec.get("root")
    path: Path = ("root",)
    siblings: list[Any] | None = None
    index = 0
    above: tuple[object, ...] = ()
    for index in indexes:
        kids = node.get("c") if isinstance(node, dict) else None
        if not isinstance(kids, list) or index >= len(kids) or not isinstance(kids[index], dict):
            raise EditRefused(f"There is no node at {text}.", path=str(text))
        above = (node.get("t"), *above)
        siblings, node, path = kids, kids[index], (*path, "c", index)
    if not isinstance(node, dict):
        raise EditRefused(f"There is no node at {text}.", path=str(text))
    return Target(node, path, siblings, index, above)


def _target(spec: dict[str, Any], op: dict[str, Any]) -> Target:
    return find_node(spec, op.get("path"))


def _child_target(spec: dict[str, Any], op: dict[str, Any], verb: str) -> Target:
    target = _target(spec, op)
    if target.siblings is None:
        raise EditRefused(f"The page itself cannot be {verb}.", path=target.where)
    return target


def fields_of(component: Component) -> tuple[Field, ...]:
    """Every field a node of `component` may carry, its own first."""
    return component.fields + COMMON_FIELDS


def _field(target: Target, op: dict[str, Any]) -> Field:
    component = registry.get(target.node.get("t"))
    if component is None:
        raise EditRefused(
            f"The {describe(target.node)} is not a known component, so it cannot be edited.",
            path=target.where,
        )
    name = op.get("field")
    field = next((f for f in fields_of(component) if f.name == name), None)
    if field is None:
        names = ", ".join(f.name for f in fields_of(component))
        raise EditRefused(
            f"A {component.name} has no field {_shown(name)}; its fields are: {names}.",
            path=target.where,
        )
    return field


def _expects(field: Field, problem: Problem) -> str:
    """A kind's problem, said with the field's name and what it expects."""
    message = problem.message
    if not message.startswith(repr(field.name)):
        message = f"{field.name!r}: {message}"
    return message[0].upper() + message[1:] + ("" if message.endswith(".") else ".")


def _title(field: Field) -> str:
    return FIELD_TITLES.get(field.name, field.name)


# --- keeping the rest of the spec as it was -----------------------------------------------------


def _put(node: dict[str, Any], key: str, value: Any) -> None:
    """Set a node's field in place; a new one goes before the children, as the model writes."""
    if key in node or "c" not in node:
        node[key] = value
        return
    kids = node.pop("c")
    node[key] = value
    node["c"] = kids


def _put_top(spec: dict[str, Any], key: str, value: Any) -> None:
    """Set a top-level key in place; a new one goes where the model writes it (title, theme,
    root, state, data)."""
    if key in spec:
        spec[key] = value
        return
    later = TOP_LEVEL[TOP_LEVEL.index(key) + 1 :]
    rest = {k: spec.pop(k) for k in list(spec) if k in later}
    spec[key] = value
    spec.update(rest)


def _ids(spec: dict[str, Any]) -> set[str]:
    return {ref.node["id"] for ref in walk(spec) if isinstance(ref.node.get("id"), str)}


def _fresh_ids(node: dict[str, Any], taken: set[str]) -> None:
    """Give every id in a copied subtree a new, unused one (ids must stay unique)."""
    for ref in walk({"root": node}):
        old = ref.node.get("id")
        if not isinstance(old, str) or not ID_PATTERN.fullmatch(old):
            continue
        stem, n = old[: ID_MAX - 4], 2
        while f"{stem}-{n}" in taken:
            n += 1
        ref.node["id"] = f"{stem}-{n}"
        taken.add(ref.node["id"])


def _declare_new_state(before: dict[str, Any], after: dict[str, Any]) -> None:
    """A state key the edit starts reading is declared, as repair would (a new bind, a new
    {key} in a text): without it the edit would be refused for a key the user just named."""
    state = after.get("state")
    if state is None and "state" not in after:
        state = {}
    if not isinstance(state, dict):
        return  # validation reports it
    known = {ref.key for ref in state_references(before)}
    added = {
        ref.key: ref.default
        for ref in state_references(after)
        if ref.key not in state and ref.key not in known
    }
    if added:
        _put_top(after, "state", {**state, **added})


def _check_result(before: dict[str, Any], after: dict[str, Any]) -> None:
    """Refuse an edit that leaves the spec with a problem it did not have.

    A version fresh from the model may carry problems repair could not fix; edits to it must
    still be possible, so only the problems the edit adds count (by code and message, since
    paths shift when nodes move).
    """
    try:
        problems = validate(after)
    except SpecTooLarge as exc:
        raise EditRefused(f"The edited view would be too large: {exc}.") from None
    if not problems:
        return
    had = Counter((p.code, p.message) for p in validate(before))
    for problem in problems:
        key = (problem.code, problem.message)
        if had[key] > 0:
            had[key] -= 1
            continue
        message = problem.message[0].upper() + problem.message[1:]
        raise EditRefused(message + ("" if message.endswith(".") else "."), path=problem.path)


# --- small helpers ------------------------------------------------------------------------------


def _check_op_size(op: dict[str, Any]) -> None:
    try:
        check_value(op, Limits(max_bytes=OP_MAX_BYTES, max_depth=OP_MAX_DEPTH))
    except SpecTooLarge:
        raise EditRefused(
            f"The edit is too large: at most {OP_MAX_BYTES} bytes, nested {OP_MAX_DEPTH} deep."
        ) from None


def _same(a: object, b: object) -> bool:
    """Equal as JSON (1 and true differ, unlike in Python)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _shown(value: object) -> str:
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=str)
    return text if len(text) <= 40 else text[:39] + "…"
