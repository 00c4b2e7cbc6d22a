"""Deterministic, lossless repair: fix what can be fixed without guessing, report the rest.

Repair only ever adds (state keys, defaults, ids, a page around a bare root), renames known
aliases or holds a number to a finite range (ui4a/numbers.py); it drops a property only when
it is clearly garbage (a null value or a key that is not a name). Whatever is still wrong
afterwards is in `problems`, ready to send back to the model.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from typing import Any

from ui4a import registry
from ui4a.catalog import COMMON_FIELDS
from ui4a.declarations import dataset_slots
from ui4a.fields import kind_of
from ui4a.limits import DEFAULT_LIMITS, Limits, check_value
from ui4a.numbers import clamp_numbers
from ui4a.problems import Problem
from ui4a.queries import is_query, repair_query
from ui4a.texts import encodable_strings
from ui4a.tree import path_id, pointer, walk
from ui4a.validate import ID_PATTERN, state_references, validate

# Names other JSON UI formats use for our compact keys.
ALIASES = {"type": "t", "children": "c"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}")


@dataclass(frozen=True)
class Repaired:
    spec: dict[str, Any] | None
    fixes: list[str]  # what repair changed, one human-readable line each
    problems: list[Problem]  # what is still wrong; empty means the spec is valid


def repair(spec: object, *, limits: Limits = DEFAULT_LIMITS) -> Repaired:
    """Repair a copy of `spec`; the input is never modified."""
    check_value(spec, limits)
    if not isinstance(spec, dict):
        return Repaired(None, [], validate(spec, limits=limits))
    fixed: dict[str, Any] = copy.deepcopy(spec)
    fixes: list[str] = []
    clamp_numbers(fixed, "", fixes)
    encodable_strings(fixed, fixes)
    _wrap_root(fixed, fixes)
    for ref in walk(fixed):
        _fix_node(ref.node, pointer(ref.path), fixes)
    _fill_ids(fixed, fixes)
    _fix_datasets(fixed, fixes)
    _fix_queries(fixed, fixes)
    _fill_state(fixed, fixes)
    return Repaired(fixed, fixes, validate(fixed, limits=limits))


def _wrap_root(spec: dict[str, Any], fixes: list[str]) -> None:
    if "root" not in spec and ("t" in spec or "type" in spec):
        node = {k: spec.pop(k) for k in list(spec) if k not in ("title", "state")}
        spec["root"] = node
        fixes.append("/root: moved the top-level node into root")
    root = spec.get("root")
    if isinstance(root, dict):
        _apply_aliases(root, "/root", fixes)
        if root.get("t") != "page" and registry.get(root.get("t")) is not None:
            spec["root"] = {"t": "page", "c": [root]}
            fixes.append("/root: wrapped the root node in a page")


def _apply_aliases(node: dict[str, Any], where: str, fixes: list[str]) -> None:
    for alias, key in ALIASES.items():
        if alias in node and key not in node:
            node[key] = node.pop(alias)
            fixes.append(f"{where}/{alias}: renamed to {key!r}")


def _fix_node(node: dict[str, Any], where: str, fixes: list[str]) -> None:
    _apply_aliases(node, where, fixes)
    component = registry.get(node.get("t"))
    if component is None:
        return
    if component.children and isinstance(node.get("c"), dict):
        node["c"] = [node["c"]]
        fixes.append(f"{where}/c: wrapped a single child in a list")
    known = {"t", "id", "c", *(f.name for f in COMMON_FIELDS + component.fields)}
    for key in [k for k in node if k not in known]:
        if node[key] is None or not _NAME.fullmatch(key):
            del node[key]
            fixes.append(f"{where}/{key}: dropped a garbage property")
    for field in component.fields:
        if field.default is not None and field.name not in node:
            node[field.name] = field.default
            fixes.append(f"{where}/{field.name}: filled the default {field.default!r}")
        kind_of(field).repair(field, node, where, fixes)


def _fix_datasets(spec: dict[str, Any], fixes: list[str]) -> None:
    """A dataset named with other letter case than the one "data" has is that dataset."""
    data = spec.get("data")
    names = list(data) if isinstance(data, dict) else []
    by_folded: dict[str, list[str]] = {}
    for name in names:
        by_folded.setdefault(name.lower(), []).append(name)

    def fix(holder: dict[str, Any], key: str, where: str) -> None:
        value = holder.get(key)
        if not isinstance(value, str) or value in names:
            return
        found = by_folded.get(value.lower(), [])
        if len(found) == 1:
            holder[key] = found[0]
            fixes.append(f"{where}/{key}: renamed dataset {value!r} to {found[0]!r}")

    for holder, key, where in dataset_slots(spec):
        fix(holder, key, where)


def _fix_queries(spec: dict[str, Any], fixes: list[str]) -> None:
    data = spec.get("data")
    if isinstance(data, dict):
        for name, entry in data.items():
            if is_query(entry):
                repair_query(entry, pointer(("data", name)), fixes)


def _fill_ids(spec: dict[str, Any], fixes: list[str]) -> None:
    refs = list(walk(spec))
    taken = {r.node["id"] for r in refs if isinstance(r.node.get("id"), str)}
    seen: set[str] = set()
    for ref in refs:
        node_id = ref.node.get("id")
        if node_id is None:
            new_id = _free(path_id(ref.path), taken)
            fixes.append(f"{pointer(ref.path)}/id: set to {new_id!r}")
        elif isinstance(node_id, str) and ID_PATTERN.fullmatch(node_id) and node_id in seen:
            new_id = _free(node_id, taken)
            fixes.append(f"{pointer(ref.path)}/id: renamed duplicate {node_id!r} to {new_id!r}")
        else:
            if isinstance(node_id, str):
                seen.add(node_id)
            continue
        ref.node["id"] = new_id
        taken.add(new_id)
        seen.add(new_id)


def _free(wanted: str, taken: set[str]) -> str:
    candidate, n = wanted, 2
    while candidate in taken:
        candidate, n = f"{wanted}-{n}", n + 1
    return candidate


def _fill_state(spec: dict[str, Any], fixes: list[str]) -> None:
    if "state" not in spec:
        spec["state"] = {}
    state = spec["state"]
    if not isinstance(state, dict):
        return  # not ours to guess; validation reports it
    for ref in state_references(spec):
        if ref.key not in state:
            state[ref.key] = ref.default
            fixes.append(f"/state/{ref.key}: added {ref.default!r} for {pointer(ref.path)}")
