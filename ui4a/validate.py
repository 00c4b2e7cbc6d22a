"""Validation: every problem in a spec, each with a JSON pointer, a code and a message.

A field's value is checked by its kind (ui4a/fields.py); this module owns the spec's shape,
nesting, ids, references between nodes, and the state keys a view reads.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ui4a import actions, expr, registry
from ui4a.budget import over_budget
from ui4a.catalog import (
    COMMON_FIELDS,
    ID_MAX,
    KEY_MAX,
    MAX_CHILDREN,
    MAX_CONTAINER_DEPTH,
    MAX_DATASETS,
    MAX_ROWS,
    MAX_STATE_KEYS,
    SHORT_MAX,
    Action,
    Component,
    Field,
    StateValue,
)
from ui4a.fields import NAME_PATTERN, check, check_record, is_scalar, unknown_keys
from ui4a.limits import DEFAULT_LIMITS, Limits, check_value
from ui4a.problems import Problem
from ui4a.queries import is_query, parse_query
from ui4a.state import placeholders
from ui4a.theme import THEME_FIELDS
from ui4a.tree import NodeRef, Path, pointer, walk

TOP_LEVEL = ("title", "theme", "root", "state", "data")
ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,40}")


def validate(spec: object, *, limits: Limits = DEFAULT_LIMITS) -> list[Problem]:
    """Every problem in `spec`, in document order. Raises SpecTooLarge over the hard limits."""
    check_value(spec, limits)
    if not isinstance(spec, dict):
        return [Problem("", "wrong_type", "a spec is a JSON object")]
    found: list[Problem] = []
    found += unknown_keys(spec, TOP_LEVEL, ())
    title = spec.get("title")
    if title is not None:
        found += check(Field("title", "str"), title, ("title",))
    if "theme" in spec:
        found += _check_theme(spec["theme"])
    state = spec.get("state")
    if state is not None:
        found += _check_state(state)
    if "data" in spec:
        found += _check_data(spec["data"])
    root = spec.get("root")
    if root is None:
        found.append(Problem("/root", "missing_field", 'a spec needs a "root" page'))
    elif not isinstance(root, dict):
        found.append(Problem("/root", "wrong_type", "the root is a node object"))
    else:
        if root.get("t") != "page":
            found.append(Problem("/root/t", "misplaced", 'the root must be a "page"'))
        found += _check_nodes(spec)
        found += _check_references(spec)
        too_large = over_budget(spec)
        if too_large:
            found.append(
                Problem("/root", "too_large", f"the view is too large to show: {too_large}")
            )
    found += _dangling(spec, state if isinstance(state, dict) else {})
    return found


def ancestors(ref: NodeRef, kinds: Mapping[Path, object]) -> list[object]:
    """The "t" of every node above `ref`, nearest first (kinds maps walked paths to "t")."""
    return [kinds.get(ref.path[:i]) for i in range(len(ref.path) - 2, 0, -2)]


def _check_nodes(spec: dict[str, Any]) -> list[Problem]:
    found: list[Problem] = []
    seen_ids: set[str] = set()
    kinds: dict[Path, object] = {}
    for ref in walk(spec):
        node, path = ref.node, ref.path
        kinds[path] = node.get("t")
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
        if component is not None and component.children and ref.depth > component.max_level:
            found.append(
                Problem(
                    pointer(path),
                    "too_deep",
                    f"{kind!r} nests at most {component.max_level} levels under the page",
                )
            )
            continue
        found += _check_id(node, path, seen_ids)
        in_item = "list" in ancestors(ref, kinds)
        fields = COMMON_FIELDS + (component.fields if component else ())
        for field in fields:
            if field.name in node:
                found += check(field, node[field.name], (*path, field.name), in_item)
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
            found += unknown_keys(node, allowed, path)
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


def _check_theme(theme: object) -> list[Problem]:
    if not isinstance(theme, dict):
        return [Problem("/theme", "wrong_type", '"theme" is an object of tokens')]
    found = unknown_keys(theme, [f.name for f in THEME_FIELDS], ("theme",))
    for field in THEME_FIELDS:
        if field.name in theme:
            found += check(field, theme[field.name], ("theme", field.name))
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
        if not is_scalar(value):
            found.append(Problem(where, "wrong_type", "state values are strings, numbers, bools"))
        elif isinstance(value, str) and len(value) > SHORT_MAX:
            found.append(Problem(where, "too_large", f"at most {SHORT_MAX} characters"))
    return found


def _check_data(data: object) -> list[Problem]:
    """Inline records, or queries over uploaded datasets checked for shape: whether their
    dataset and columns exist is for resolve_data, which has the tables."""
    if not isinstance(data, dict):
        return [Problem("/data", "wrong_type", '"data" maps dataset names to records or queries')]
    found: list[Problem] = []
    if len(data) > MAX_DATASETS:
        found.append(Problem("/data", "too_large", f"at most {MAX_DATASETS} datasets"))
    for name, rows in data.items():
        where = ("data", name)
        if not NAME_PATTERN.fullmatch(name):
            found.append(Problem(pointer(where), "bad_value", "a dataset name is a word"))
        if is_query(rows):
            found += parse_query(rows, where)[1]
            continue
        if not isinstance(rows, list):
            found.append(
                Problem(pointer(where), "wrong_type", "a dataset is a list of records or a query")
            )
            continue
        if len(rows) > MAX_ROWS:
            found.append(Problem(pointer(where), "too_large", f"at most {MAX_ROWS} records"))
        for i, row in enumerate(rows):
            found += check_record(row, (*where, i))
    return found


@dataclass(frozen=True)
class Targets:
    """What actions can aim at: dialog and tabs keys (with the tabs' labels), and datasets."""

    dialogs: set[str]
    tabs: dict[str, list[str]]
    datasets: set[str]


def targets(spec: dict[str, Any]) -> Targets:
    dialogs: set[str] = set()
    tabs: dict[str, list[str]] = {}
    for ref in walk(spec):
        kind, bind = ref.node.get("t"), ref.node.get("bind")
        if not isinstance(bind, str):
            continue
        if kind == "dialog":
            dialogs.add(bind)
        elif kind == "tabs":
            labels = ref.node.get("tabs")
            tabs[bind] = (
                [x for x in labels if isinstance(x, str)] if isinstance(labels, list) else []
            )
    data = spec.get("data")
    return Targets(dialogs, tabs, set(data) if isinstance(data, dict) else set())


def _check_references(spec: dict[str, Any]) -> list[Problem]:
    """Datasets that do not exist and actions that target nothing."""
    found: list[Problem] = []
    aims = targets(spec)
    kinds: dict[Path, object] = {}
    for ref in walk(spec):
        kinds[ref.path] = ref.node.get("t")
        component = registry.get(ref.node.get("t"))
        if component is None:
            continue
        above = ancestors(ref, kinds)
        for field in component.fields:
            value = ref.node.get(field.name)
            where = (*ref.path, field.name)
            if field.kind == "data" and isinstance(value, str) and value not in aims.datasets:
                found.append(Problem(pointer(where), "unknown_dataset", f"no dataset {value!r}"))
            if field.kind == "action":
                for i, one in actions_at(value):
                    at = where if i is None else (*where, i)
                    found += _check_target(one, at, aims, above, component)
    return found


def actions_at(on: object) -> list[tuple[int | None, dict[str, Any]]]:
    """An `on` field's actions (one, or a list of them), each with its index in the list."""
    if isinstance(on, dict):
        return [(None, on)]
    if isinstance(on, list):
        return [(i, a) for i, a in enumerate(on) if isinstance(a, dict)]
    return []


def _check_target(
    on: dict[str, Any], at: Path, aims: Targets, above: list[object], component: Component
) -> list[Problem]:
    action = actions.get(on.get("do"))
    if action is None:
        return []
    path = on.get("path")
    where = pointer((*at, "path"))
    if action.target == "dialog" and isinstance(path, str) and path not in aims.dialogs:
        return [Problem(where, "no_target", f"no dialog binds {path!r}")]
    if action.target == "tabs" and isinstance(path, str):
        if path not in aims.tabs:
            return [Problem(where, "no_target", f"no tabs bind {path!r}")]
        label = on.get("value")
        if isinstance(label, str) and label not in aims.tabs[path]:
            return [Problem(pointer((*at, "value")), "no_target", f"no tab {label!r}")]
    if action.target == "data" and isinstance(path, str) and path not in aims.datasets:
        return [Problem(where, "unknown_dataset", f"no dataset {path!r}")]
    if action.target == "form" and "form" not in above and component.name != "form":
        return [Problem(pointer((*at, "do")), "no_target", "submit sits outside any form")]
    if action.target == "item" and "list" not in above:
        return [Problem(pointer((*at, "do")), "no_target", "remove sits outside any list item")]
    return []


@dataclass(frozen=True)
class StateRef:
    """A state key the view reads or writes, and the value repair declares it with."""

    path: Path
    key: str
    default: StateValue


def state_references(spec: object) -> list[StateRef]:
    """Every state key bound, conditioned on, interpolated, filtered on or acted on."""
    refs: list[StateRef] = []
    for ref in walk(spec):
        node, path = ref.node, ref.path
        component = registry.get(node.get("t"))
        cond = expr.parse_condition(node.get("if"))
        if cond is not None:
            refs.append(StateRef((*path, "if"), cond.key, _condition_default(cond)))
        if component is None:
            continue
        for field in component.fields:
            value = node.get(field.name)
            where = (*path, field.name)
            if field.kind == "key" and isinstance(value, str) and NAME_PATTERN.fullmatch(value):
                refs.append(StateRef(where, value, _bind_default(component, node)))
            elif field.kind == "text" and isinstance(value, str):
                refs += [StateRef(where, key, "") for key in placeholders(value)]
            elif field.kind == "filter" and isinstance(value, list):
                for n, text in enumerate(value):
                    clause = expr.parse_clause(text)
                    if clause is not None and clause.key:
                        refs.append(StateRef((*where, n), clause.key, ""))
            elif field.kind == "action":
                for i, one in actions_at(value):
                    at = where if i is None else (*where, i)
                    refs += _action_refs(one, at)
    return refs


def _condition_default(cond: expr.Condition) -> StateValue:
    if not cond.op:
        return False
    return 0 if expr.NUMBER.fullmatch(cond.literal) else ""


def _bind_default(component: Component, node: Mapping[str, Any]) -> StateValue:
    if component.bind_default_from:
        labels = node.get(component.bind_default_from)
        if isinstance(labels, list) and labels and isinstance(labels[0], str):
            return labels[0]
        return ""
    return component.bind_default


def _action_refs(on: dict[str, Any], at: Path) -> list[StateRef]:
    action = actions.get(on.get("do"))
    target = on.get("path")
    if action is None or not isinstance(target, str) or not NAME_PATTERN.fullmatch(target):
        return []
    if action.target == "data":
        return []  # datasets are checked as references, not declared as state
    if action.target == "tabs":
        return []  # the tabs' own bind declares the key
    return [StateRef((*at, "path"), target, _action_default(action, on.get("value")))]


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
