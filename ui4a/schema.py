"""The JSON Schema the UI expert decodes under (vLLM structured outputs, xgrammar backend).

Everything is bounded, because an untrained model happily loops on an open-ended object or
recursion: nesting is unrolled into layered defs (page, then containers at levels 1..3, leaves
only below), lists and strings have maximum sizes. Property order is the order the grammar
emits, so "t" comes first and children ("c") last. Only keywords xgrammar compiles well are used.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from ui4a import actions, registry
from ui4a.catalog import (
    COMMON_FIELDS,
    KEY_MAX,
    MAX_CHILDREN,
    MAX_CONTAINER_DEPTH,
    MAX_STATE_KEYS,
    SHORT_MAX,
    TEXT_MAX,
    Component,
    Field,
)

Schema = dict[str, Any]
_SCALAR: Schema = {
    "anyOf": [
        {"type": "string", "maxLength": SHORT_MAX},
        {"type": "number"},
        {"type": "boolean"},
    ]
}


def _field_schema(field: Field) -> Schema:
    if field.kind == "str":
        return {"type": "string", "minLength": 1, "maxLength": SHORT_MAX}
    if field.kind == "text":
        return {"type": "string", "maxLength": TEXT_MAX}
    if field.kind == "key":
        return {"type": "string", "minLength": 1, "maxLength": KEY_MAX}
    if field.kind == "enum":
        return {"enum": list(field.values)}
    if field.kind == "action":
        return {"$ref": "#/$defs/action"}
    return _SCALAR


def _object(props: dict[str, Schema], required: list[str]) -> Schema:
    return {
        "type": "object",
        "properties": props,
        "required": required,
        "additionalProperties": False,
    }


def _node_schema(component: Component, children_ref: str | None) -> Schema:
    props: dict[str, Schema] = {"t": {"const": component.name}}
    # "if" before the content so a conditional node is hidden from its first streamed frame.
    for field in COMMON_FIELDS + component.fields:
        props[field.name] = _field_schema(field)
    if children_ref is not None:
        props["c"] = {"type": "array", "items": {"$ref": children_ref}, "maxItems": MAX_CHILDREN}
    required = ["t", *(f.name for f in component.fields if f.required)]
    return _object(props, required)


def _action_schema() -> Schema:
    return {
        "anyOf": [
            _object(
                {"do": {"const": a.name}, **{f.name: _field_schema(f) for f in a.fields}},
                ["do", *(f.name for f in a.fields if f.required)],
            )
            for a in actions.ACTIONS.values()
        ]
    }


@cache
def _build() -> Schema:
    comps = registry.components().values()
    leaves = [c for c in comps if not c.children]
    containers = [c for c in comps if c.children and not c.root_only]
    page = registry.get("page")
    assert page is not None, "the catalog needs a page component"
    defs: Schema = {"action": _action_schema()}
    for leaf in leaves:
        defs[leaf.name] = _node_schema(leaf, None)
    leaf_refs = [{"$ref": f"#/$defs/{c.name}"} for c in leaves]
    # Level k holds containers whose children are at level k+1; the deepest level holds leaves.
    for level in range(MAX_CONTAINER_DEPTH, 0, -1):
        below = "leaf" if level == MAX_CONTAINER_DEPTH else f"n{level + 1}"
        for c in containers:
            defs[f"{c.name}{level}"] = _node_schema(c, f"#/$defs/{below}")
        defs[f"n{level}"] = {
            "anyOf": [*({"$ref": f"#/$defs/{c.name}{level}"} for c in containers), *leaf_refs]
        }
    defs["leaf"] = {"anyOf": leaf_refs}
    defs["page"] = _node_schema(page, "#/$defs/n1")
    state: Schema = {"type": "object", "additionalProperties": _SCALAR}
    state["maxProperties"] = MAX_STATE_KEYS
    return {
        "$defs": defs,
        **_object(
            {
                "title": {"type": "string", "maxLength": SHORT_MAX},
                "root": {"$ref": "#/$defs/page"},
                "state": state,
            },
            ["root"],
        ),
    }


def json_schema() -> Schema:
    """A fresh copy of the schema (callers may mutate it, e.g. to add a description)."""
    return copy.deepcopy(_build())
