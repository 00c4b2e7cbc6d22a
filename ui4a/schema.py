"""The JSON Schema the UI expert decodes under (vLLM structured outputs, xgrammar backend).

Everything is bounded, because an untrained model happily loops on an open-ended object or
recursion: nesting is unrolled into layered defs (page, then containers at levels 1..3, leaves
only below), lists and strings have maximum sizes. Property order is the order the grammar
emits, so "t" comes first and children ("c") last. Only keywords xgrammar compiles well are used.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from functools import cache
from typing import Any

from ui4a import actions, registry
from ui4a.actions import MAX_ACTIONS
from ui4a.catalog import (
    COMMON_FIELDS,
    MAX_CHILDREN,
    MAX_CONTAINER_DEPTH,
    MAX_DATASETS,
    MAX_ROWS,
    MAX_STATE_KEYS,
    SHORT_MAX,
    Component,
    Field,
)
from ui4a.fields import RECORD_SCHEMA, SCALAR_SCHEMA, SHARED_DEFS, kind_of, string_schema
from ui4a.queries import QUERY_SCHEMA, tables_query_schema
from ui4a.tables import Table
from ui4a.theme import THEME_FIELDS

Schema = dict[str, Any]


def _field_schema(field: Field) -> Schema:
    """A field's fragment: its kind's (ui4a/fields.py)."""
    return kind_of(field).schema(field)


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
def _build(queries: bool) -> Schema:
    comps = registry.components().values()
    leaves = [c for c in comps if not c.children]
    containers = [c for c in comps if c.children and not c.root_only]
    page = registry.get("page")
    assert page is not None, "the catalog needs a page component"
    defs: Schema = {
        **copy.deepcopy(SHARED_DEFS),
        "action": _action_schema(),
        "on": {
            "anyOf": [
                {"$ref": "#/$defs/action"},
                {
                    "type": "array",
                    "items": {"$ref": "#/$defs/action"},
                    "minItems": 1,  # validation's bound too: an empty list does nothing
                    "maxItems": MAX_ACTIONS,
                },
            ]
        },
    }
    for leaf in leaves:
        defs[leaf.name] = _node_schema(leaf, None)
    leaf_refs = [{"$ref": f"#/$defs/{c.name}"} for c in leaves]
    # Level k holds containers whose children are at level k+1; the deepest level holds leaves.
    for level in range(MAX_CONTAINER_DEPTH, 0, -1):
        below = "leaf" if level == MAX_CONTAINER_DEPTH else f"n{level + 1}"
        here = [c for c in containers if c.max_level >= level]
        for c in here:
            defs[f"{c.name}{level}"] = _node_schema(c, f"#/$defs/{below}")
        defs[f"n{level}"] = {
            "anyOf": [*({"$ref": f"#/$defs/{c.name}{level}"} for c in here), *leaf_refs]
        }
    defs["leaf"] = {"anyOf": leaf_refs}
    defs["page"] = _node_schema(page, "#/$defs/n1")
    state: Schema = {"type": "object", "additionalProperties": SCALAR_SCHEMA}
    state["maxProperties"] = MAX_STATE_KEYS
    records: Schema = {"type": "array", "items": RECORD_SCHEMA, "maxItems": MAX_ROWS}
    data: Schema = {
        "type": "object",
        # Inline records, or (where there are datasets to query) a query the server resolves.
        "additionalProperties": {"anyOf": [records, QUERY_SCHEMA]} if queries else records,
        "maxProperties": MAX_DATASETS,
    }
    theme = _object({f.name: _field_schema(f) for f in THEME_FIELDS}, [])
    # The root streams before state and data, so the layout shows up first; tables and charts
    # show placeholders until their dataset arrives.
    return {
        "$defs": defs,
        **_object(
            {
                "title": string_schema(SHORT_MAX),
                "theme": theme,
                "root": {"$ref": "#/$defs/page"},
                "state": state,
                "data": data,
            },
            ["root"],
        ),
    }


def json_schema(*, queries: bool = True) -> Schema:
    """A fresh copy of the schema (callers may mutate it, e.g. to add a description).

    `queries=False` leaves data queries out: what a model decodes under where there is no
    dataset to query (an API call, a project with no uploads), so it cannot write a view
    whose data would resolve to nothing."""
    return copy.deepcopy(_build(queries))


def json_schema_over(tables: Sequence[Table]) -> Schema:
    """The schema a model decodes under in a project with datasets: a dataset is inline
    records or a query that names one of `tables` and only its columns (their rows are not
    needed), so the queries the model writes read what the designer uploaded."""
    schema = json_schema(queries=False)
    data = schema["properties"]["data"]
    query = tables_query_schema(tables)
    data["additionalProperties"] = {
        "anyOf": [data["additionalProperties"], *query.get("anyOf", [query])]
    }
    return schema
