"""Validation: every problem in a spec, each with a JSON pointer, a code and a message."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ui4a import actions, registry
from ui4a.catalog import (
    COMMON_FIELDS,
    ID_MAX,
    KEY_MAX,
    MAX_CHILDREN,
    MAX_CONTAINER_DEPTH,
    MAX_STATE_KEYS,
    SHORT_MAX,
    TEXT_MAX,
    Action,
    Field,
    StateValue,
)
from ui4a.limits import DEFAULT_LIMITS, Limits, check_value
from ui4a.problems import Problem
from ui4a.state import condition_key, placeholders
from ui4a.tree import Path, pointer, walk

TOP_LEVEL = ("title", "root", "state")
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")
_MAX_LEN = {"str": SHORT_MAX, "text": TEXT_MAX, "key": KEY_MAX}


def validate(spec: object, *, limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    """Every problem in `spec`, in document order. Raises SpecTooLarge over the hard limits."""
    check_value(spec, limits)
    if not isinstance(spec, dict):
        return [Problem("", "wrong_type", "a spec is a JSON object")]
    found: list[Problem] = []
    found += _unknown_keys(spec, TOP_LEVEL, ())
    title = spec.get("title")
    if title is not None:
        found += _check_field(Field("title", "str"), title, ("title",))
    state = spec.get("state")
    if state is not None:
        found += _check_state(state)
    root = spec.get("root")
    if root is None:
        found.append(Problem("/root", "missing_field", 'a spec needs a "root" page'))
    elif not isinstance(root, dict):
        found.append(Problem("/root", "wrong_type", "the root is a node object"))
    else:
        if root.get("t") != "page":
            found.append(Problem("/root/t", "misplaced", 'the root must be a "page"'))
        found += _check_nodes(spec)
    found += _dangling(spec, state if isinstance(state, dict) else {})
    return found


def _check_nodes(spec: dict[str, Any]) -> list[Problem]:
    found: list[Problem] = []
    seen_ids: set[str] = set()
    for ref in walk(spec):
        node, path = ref.node, ref.path
        if ref.depth > MAX_CONTAINER_DEPTH + 1:
            continue  # reported once, at the container that went too deep
        kind = node.get("t")
        component = registry.get(kind)
        if "t" not in node:
            found.append(Problem(pointer((*path, "t")), "missing_field", 'a node needs "t"'))
        elif not isinstance(kind, str):
            found.append(Problem(pointer((*path, "t")), "wrong_type", '"t" is a string'))
        elif component is None:
            found.append(
                Problem(pointer((*path, "t")), "unknown_component", f"no component {kind!r}")
            )
        if component is not None and component.root_only and ref.depth > 0:
            found.append(Problem(pointer((*path, "t")), "misplaced", f"{kind!r} only as root"))
        if component is not None and component.children and ref.depth > MAX_CONTAINER_DEPTH:
            found.append(
                Problem(
                    pointer(path),
                    "too_deep",
                    f"containers nest at most {MAX_CONTAINER_DEPTH} levels under the page",
                )
            )
            continue
        found += _check_id(node, path, seen_ids)
        fields = COMMON_FIELDS + (component.fields if component else ())
        for field in fields:
            if field.name in node:
                found += _check_field(field, node[field.name], (*path, field.name))
            elif field.required and component is not None:
                found.append(
                    Problem(
                        pointer((*path, field.name)),
                        "missing_field",
                        f"{kind!r} needs {field.name!r}",
                    )
                )
        if component is not None:
            allowed = (
                "t",
                "id",
                *(f.name for f in fields),
                *(("c",) if component.children else ()),
            )
            found += _unknown_keys(node, allowed, path)
            if component.children and "c" in node:
                found += _check_children(node["c"], (*path, "c"))
    return found


def _check_children(kids: object, path: Path) -> list[Problem]:
    if not isinstance(kids, list):
        return [Problem(pointer(path), "wrong_type", '"c" is a list of nodes')]
    found: list[Problem] = []
    if len(kids) > MAX_CHILDREN:
        found.append(Problem(pointer(path), "too_large", f"at most {MAX_CHILDREN} children"))
    for i, kid in enumerate(kids):
        if not isinstance(kid, dict):
            found.append(Problem(pointer((*path, i)), "wrong_type", "a child is a node object"))
    return found


def _check_id(node: dict[str, Any], path: Path, seen: set[str]) -> list[Problem]:
    if "id" not in node:
        return []
    node_id = node["id"]
    where = pointer((*path, "id"))
    if not isinstance(node_id, str):
        return [Problem(where, "wrong_type", "an id is a string")]
    if not ID_PATTERN.fullmatch(node_id):
        return [Problem(where, "bad_value", f"an id is 1-{ID_MAX} of A-Z a-z 0-9 _ -")]
    if node_id in seen:
        return [Problem(where, "duplicate_id", f"id {node_id!r} is used twice")]
    seen.add(node_id)
    return []


def _check_field(field: Field, value: object, path: Path) -> list[Problem]:
    where = pointer(path)
    if field.kind == "action":
        return _check_action(value, path)
    if field.kind == "enum":
        # bool is an int in Python; an enum of numbers must not accept true.
        if isinstance(value, bool) or value not in field.values:
            allowed = ", ".join(repr(v) for v in field.values)
            return [Problem(where, "bad_value", f"{field.name!r} is one of {allowed}")]
        return []
    if field.kind == "scalar":
        if not isinstance(value, (str, int, float, bool)):
            return [Problem(where, "wrong_type", f"{field.name!r} is a string, number or bool")]
        if isinstance(value, str) and len(value) > SHORT_MAX:
            return [Problem(where, "too_large", f"at most {SHORT_MAX} characters")]
        return []
    if not isinstance(value, str):
        return [Problem(where, "wrong_type", f"{field.name!r} is a string")]
    limit = _MAX_LEN[field.kind]
    if len(value) > limit:
        return [Problem(where, "too_large", f"{field.name!r} has at most {limit} characters")]
    if field.kind == "key" and not condition_key(value):
        return [Problem(where, "bad_value", f"{field.name!r} names a state key")]
    return []


def _check_action(value: object, path: Path) -> list[Problem]:
    where = pointer(path)
    if not isinstance(value, dict):
        return [Problem(where, "wrong_type", 'an action is an object like {"do":"set",...}')]
    if "do" not in value:
        return [Problem(pointer((*path, "do")), "missing_field", 'an action needs "do"')]
    action = actions.get(value["do"])
    if action is None:
        known = ", ".join(actions.ACTIONS)
        return [Problem(pointer((*path, "do")), "unknown_action", f"known actions: {known}")]
    found = _unknown_keys(value, ("do", *(f.name for f in action.fields)), path)
    for field in action.fields:
        if field.name in value:
            found += _check_field(field, value[field.name], (*path, field.name))
        elif field.required:
            found.append(
                Problem(
                    pointer((*path, field.name)),
                    "missing_field",
                    f"{action.name!r} needs {field.name!r}",
                )
            )
    return found


def _check_state(state: object) -> list[Problem]:
    if not isinstance(state, dict):
        return [Problem("/state", "wrong_type", '"state" is an object of scalar values')]
    found: list[Problem] = []
    if len(state) > MAX_STATE_KEYS:
        found.append(Problem("/state", "too_large", f"at most {MAX_STATE_KEYS} state keys"))
    for key, value in state.items():
        where = pointer(("state", key))
        if len(key) > KEY_MAX or not key:
            found.append(Problem(where, "bad_value", f"a state key has 1-{KEY_MAX} characters"))
        if not isinstance(value, (str, int, float, bool)):
            found.append(Problem(where, "wrong_type", "state values are strings, numbers, bools"))
        elif isinstance(value, str) and len(value) > SHORT_MAX:
            found.append(Problem(where, "too_large", f"at most {SHORT_MAX} characters"))
    return found


def _unknown_keys(obj: Mapping[str, Any], allowed: Iterable[str], path: Path) -> list[Problem]:
    known = set(allowed)
    return [
        Problem(pointer((*path, key)), "unknown_field", f"unknown property {key!r}")
        for key in obj
        if key not in known
    ]


@dataclass(frozen=True)
class StateRef:
    """A state key the view reads or writes, and the value repair declares it with."""

    path: Path
    key: str
    default: StateValue


def state_references(spec: object) -> list[StateRef]:
    """Every state key bound, conditioned on, interpolated or acted on, in document order."""
    refs: list[StateRef] = []
    for ref in walk(spec):
        node, path = ref.node, ref.path
        component = registry.get(node.get("t"))
        cond = node.get("if")
        if isinstance(cond, str) and condition_key(cond):
            refs.append(StateRef((*path, "if"), condition_key(cond), False))
        if component is None:
            continue
        for field in component.fields:
            value = node.get(field.name)
            where = (*path, field.name)
            if field.kind == "key" and isinstance(value, str) and value:
                refs.append(StateRef(where, value, component.bind_default))
            elif field.kind == "text" and isinstance(value, str):
                refs += [StateRef(where, key, "") for key in placeholders(value)]
            elif field.kind == "action" and isinstance(value, dict):
                action = actions.get(value.get("do"))
                target = value.get("path")
                if action is not None and isinstance(target, str) and target:
                    default = _action_default(action, value.get("value"))
                    refs.append(StateRef((*where, "path"), target, default))
    return refs


def _action_default(action: Action, value: object) -> StateValue:
    """What a key an action writes starts as: the action's own default, else a zero value of
    the type it sets (false for true, 0 for a number, "" for a string)."""
    if action.path_default is not None:
        return action.path_default
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return 0
    return ""


def _dangling(spec: dict[str, Any], state: Mapping[str, Any]) -> list[Problem]:
    return [
        Problem(pointer(ref.path), "dangling_binding", f"state has no key {ref.key!r}")
        for ref in state_references(spec)
        if ref.key not in state
    ]
