"""Staged decoding, on the spec's side: the head first, then a tail that declares what it names.

The ui expert writes a spec's root tree before its `state` and `data` (ui4a/schema.py streams
the layout first), so one grammar over the whole spec cannot know, while `data` is decoded,
which datasets the tree has named: an expert that names `"data":"rooms"` in a table and then
declares no `rooms` writes an invalid view. Decoded in two stages, it cannot: the head
(title, theme, root) is decoded under `head_schema`, then the tail under a grammar built from
what the head names (`tail_schemas`), in which every named dataset is a required property of
`data` and every state key the tree reads or writes one of `state`. The engine runs the two
stages (inference/serving/staged_decode.py).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ui4a import registry
from ui4a.catalog import MAX_DATASETS, MAX_STATE_KEYS
from ui4a.expr import parse_condition
from ui4a.fields import NAME_PATTERN, DatasetSlot, kind_of
from ui4a.tree import pointer, walk
from ui4a.validate import state_references

Schema = dict[str, Any]
# Rows one dataset's inline records may have in the tail. Where the ui expert stops on its own it
# writes 2 to 7 (the dev set); where it does not, it repeats one row until the token limit cuts
# the spec off. A designer's larger tables come from uploads, as queries.
TAIL_ROWS = 12
# A row has at most this many keys (the spec schema's maxProperties for a record).
ROW_KEYS = 8
ITEM_FIELD = re.compile(r"\{\.(\w+)\}")
KEY = re.compile(r"\w+")
WHOLE = re.compile(r"[0-9]{1,6}")
HEAD = ("title", "theme", "root")
TAIL = ("state", "data")


def is_staged_schema(schema: Schema) -> bool:
    """Whether `schema` is a whole UI4A spec's (ui4a.json_schema), which decodes in stages."""
    properties = schema.get("properties")
    return isinstance(properties, dict) and list(properties) == [*HEAD, *TAIL]


def head_schema(schema: Schema) -> Schema:
    """The spec schema `schema` cut after the root: the first stage ends where the tail would
    begin, with the spec's closing brace."""
    head = copy.deepcopy(schema)
    head["properties"] = {k: v for k, v in schema["properties"].items() if k in HEAD}
    return head


def dataset_slots(spec: object) -> Iterator[DatasetSlot]:
    """Every place the spec's tree names a dataset (a table's, list's or chart's `data`, an
    append's `path`), in document order: the holding object, its key and a JSON pointer."""
    for ref in walk(spec):
        component = registry.get(ref.node.get("t"))
        if component is not None:
            for field in component.fields:
                yield from kind_of(field).dataset_slots(field, ref.node, pointer(ref.path))


def named_datasets(head: object) -> list[str]:
    """The datasets the head's tree names, in document order, each once, at most MAX_DATASETS
    (what `data` may hold)."""
    names: list[str] = []
    for holder, key, _ in dataset_slots(head):
        name = holder.get(key)
        if isinstance(name, str) and NAME_PATTERN.fullmatch(name) and name not in names:
            names.append(name)
    return names[:MAX_DATASETS]


def row_keys(head: object) -> dict[str, list[str]]:
    """The keys each named dataset's rows need, in document order, as the head uses them: a
    table's columns, a chart's x and y, a list item's `{.field}` and `.field` references, the
    fields an append writes, and every filter's column. A dataset the head uses no key of is
    left out (its rows stay open)."""
    keys: dict[str, list[str]] = {}
    for ref in walk(head):
        node = ref.node
        name = node.get("data")
        if isinstance(name, str):
            _add(keys, name, _used_keys(node))
        for action in _actions(node):
            if action.get("do") == "append" and isinstance(action.get("value"), dict):
                _add(keys, action.get("path"), list(action["value"]))
    return {name: found[:ROW_KEYS] for name, found in keys.items() if found}


def _used_keys(node: dict[str, Any]) -> list[str]:
    found: list[Any] = []  # filtered to names at the end
    kind = node.get("t")
    if kind == "table":
        found += [col.split(":")[0] for col in node.get("cols") or [] if isinstance(col, str)]
    elif kind == "chart":
        found += [node.get("x"), *(node.get("y") or [])]
    elif kind == "list":
        found += _item_fields(node.get("c"))
    for clause in node.get("filter") or []:
        column = KEY.match(clause) if isinstance(clause, str) else None
        found += [column.group()] if column else []
    return [key for key in found if isinstance(key, str) and KEY.fullmatch(key)]


def _item_fields(value: object) -> list[str]:
    """`{.field}` in a list item's texts and `.field` (or `!.field`) as a bind or condition."""
    if isinstance(value, str):
        direct = value.lstrip("!")
        return [direct[1:]] if direct.startswith(".") else ITEM_FIELD.findall(value)
    if isinstance(value, dict):
        return [key for item in value.values() for key in _item_fields(item)]
    if isinstance(value, list):
        return [key for item in value for key in _item_fields(item)]
    return []


def _actions(node: dict[str, Any]) -> list[dict[str, Any]]:
    on = node.get("on")
    listed = on if isinstance(on, list) else [on]
    return [action for action in listed if isinstance(action, dict)]


def _add(keys: dict[str, list[str]], name: object, found: list[str]) -> None:
    if isinstance(name, str) and NAME_PATTERN.fullmatch(name):
        known = keys.setdefault(name, [])
        for key in found:
            if key not in known:
                known.append(key)


@dataclass(frozen=True)
class TailSchemas:
    """What follows the head: `state`, then `data`, each a JSON schema for the property's
    value. `state` is required where it declares the keys the head reads (`state_keys`, the
    usual case), optional where they are too many to list, and absent (None) where the head
    reads none; `data` is required where it declares `datasets`, absent where there are none."""

    state: Schema | None
    data: Schema | None
    datasets: tuple[str, ...]
    state_keys: tuple[str, ...] = ()

    @property
    def data_required(self) -> bool:
        return bool(self.datasets)

    @property
    def state_required(self) -> bool:
        return bool(self.state_keys)


def first_steps(head: object) -> dict[str, int]:
    """The state keys the tree shows in steps, each with its first step: a key the tree's `if`s
    compare for equality with two or more whole numbers, none of them 0 (a wizard's `step=1`,
    `step=2`, `step=3`). A state closed at the token limit starts them there, not at 0, which
    no step shows. A key compared with one number (`score=3`, a goal) is no step."""
    steps: dict[str, set[int]] = {}
    for ref in walk(head):
        condition = parse_condition(ref.node.get("if"))
        if condition is not None and condition.op == "=" and WHOLE.fullmatch(condition.literal):
            steps.setdefault(condition.key, set()).add(int(condition.literal))
    return {key: min(seen) for key, seen in steps.items() if len(seen) >= 2 and 0 not in seen}


def tail_schemas(schema: Schema, head: object, max_rows: int = TAIL_ROWS) -> TailSchemas:
    """The tail of `schema` (a whole spec's) for a decoded `head`: its `state` declares each
    key the head reads or writes, once, with a value of a type it is used as; its `data`
    declares each dataset the head names, and nothing else, as the spec schema allows a
    dataset to be, with at most `max_rows` records (at least one, at most TAIL_ROWS). Nothing
    the head does not name is declared: the view would never show it, and the expert otherwise
    spends its tokens on rows of a dataset nothing shows."""
    properties = schema["properties"]
    state, keys = _declared_state(properties["state"], head)
    datasets = tuple(named_datasets(head))
    if not datasets:
        return TailSchemas(state, None, (), keys)
    data = copy.deepcopy(properties["data"])
    rows = max(1, min(max_rows, TAIL_ROWS))
    data["additionalProperties"] = _rows_capped(data["additionalProperties"], rows)
    entry = data.pop("additionalProperties")
    data.pop("maxProperties", None)
    keyed = row_keys(head)
    data["properties"] = {
        name: _rows_keyed(copy.deepcopy(entry), keyed.get(name)) for name in datasets
    }
    data["required"] = list(datasets)
    data["additionalProperties"] = False
    return TailSchemas(state, data, datasets, keys)


# A state value's JSON type, by the Python type of the default a reference implies.
JSON_TYPES = {bool: "boolean", int: "number", float: "number", str: "string"}
ANY_TYPE = ["string", "number", "boolean"]


def _declared_state(state: Schema, head: object) -> tuple[Schema | None, tuple[str, ...]]:
    """The state schema for `head` and the keys it requires: each key the head references
    (ui4a.validate.state_references), in order, with the value types its uses imply. Past
    MAX_STATE_KEYS keys the spec schema's own, optional (the spec is then too large anyway)."""
    types: dict[str, list[str]] = {}
    for ref in state_references(head):
        used = types.setdefault(ref.key, [])
        # A use that implies no type (a progress bar's bind) admits any scalar.
        kinds = [JSON_TYPES[type(ref.default)]] if type(ref.default) in JSON_TYPES else ANY_TYPE
        used += [kind for kind in kinds if kind not in used]
    if not types:
        return None, ()
    if len(types) > MAX_STATE_KEYS:
        return copy.deepcopy(state), ()
    scalars = state["additionalProperties"]["anyOf"]
    declared = {
        key: {"anyOf": [copy.deepcopy(s) for s in scalars if s["type"] in kinds]}
        for key, kinds in types.items()
    }
    schema = {"type": "object", "properties": declared, "required": list(declared)}
    return {**schema, "additionalProperties": False}, tuple(declared)


def _rows_keyed(entry: Schema, keys: list[str] | None) -> Schema:
    """A dataset entry whose records have exactly `keys`, in order, each once: the expert
    otherwise adds keys nothing shows, or repeats one key until the token limit."""
    if not keys:
        return entry
    for option in entry.get("anyOf", [entry]):
        if option.get("type") == "array":
            value = option["items"]["additionalProperties"]
            option["items"] = {
                "type": "object",
                "properties": {key: copy.deepcopy(value) for key in keys},
                "required": list(keys),
                "additionalProperties": False,
            }
    return entry


def _rows_capped(entry: Schema, rows: int) -> Schema:
    """A dataset entry's schema (records, or records or a query) with at most `rows` records."""
    for option in entry.get("anyOf", [entry]):
        if option.get("type") == "array":
            option["maxItems"] = min(option["maxItems"], rows)
    return entry
