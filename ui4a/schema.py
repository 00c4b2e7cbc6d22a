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
    Action,
    Component,
    Field,
)
from ui4a.fields import RECORD_SCHEMA, SCALAR_SCHEMA, SHARED_DEFS, kind_of, string_schema
from ui4a.queries import QUERY_SCHEMA, tables_query_schema
from ui4a.tables import Table
from ui4a.theme import THEME_FIELDS

Schema = dict[str, Any]
LIST = "list"
# The containers a list's item template may hold: the plain ones. Every template in the ui data
# is a row or a card of text, buttons, checkboxes and headings, and a dialog, form or tabs in
# each item would be one per row.
ITEM_CONTAINERS = ("row", "stack", "card", "column")


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


def _node_schema(
    component: Component, children_ref: str | None, *, in_item: bool = False
) -> Schema:
    props: dict[str, Schema] = {"t": {"const": component.name}}
    # "if" before the content so a conditional node is hidden from its first streamed frame.
    for field in COMMON_FIELDS + component.fields:
        props[field.name] = _field_schema(field)
        if in_item and field.kind == "action":
            props[field.name] = {"$ref": "#/$defs/item_on"}
    if children_ref is not None:
        props["c"] = {"type": "array", "items": {"$ref": children_ref}, "maxItems": MAX_CHILDREN}
    required = ["t", *(f.name for f in component.fields if f.required)]
    return _object(props, required)


def _action_object(action: Action) -> Schema:
    return _object(
        {"do": {"const": action.name}, **{f.name: _field_schema(f) for f in action.fields}},
        ["do", *(f.name for f in action.fields if f.required)],
    )


def _on_schema(action_ref: str) -> Schema:
    return {
        "anyOf": [
            {"$ref": action_ref},
            {
                "type": "array",
                "items": {"$ref": action_ref},
                "minItems": 1,  # validation's bound too: an empty list does nothing
                "maxItems": MAX_ACTIONS,
            },
        ]
    }


def _action_defs() -> Schema:
    """`on` (an action, or a list of them) and `item_on`, which may also act on the list item
    it sits in (`remove`): only a list's item template refers to it."""
    anywhere = [a for a in actions.ACTIONS.values() if a.target != "item"]
    in_items = [a for a in actions.ACTIONS.values() if a.target == "item"]
    return {
        "action": {"anyOf": [_action_object(a) for a in anywhere]},
        "item_action": {
            "anyOf": [{"$ref": "#/$defs/action"}, *(_action_object(a) for a in in_items)]
        },
        "on": _on_schema("#/$defs/action"),
        "item_on": _on_schema("#/$defs/item_action"),
    }


def _item_defs(leaves: list[Component], containers: list[Component]) -> Schema:
    """A list's item template, at levels 2 and 3 (a list is at most at level 2), as `item2`,
    `item3` and `item_leaf`: what the page's levels hold, but its buttons may `remove` the item
    and its containers are the plain ones (ITEM_CONTAINERS). A grammar that let `remove` through
    anywhere let the expert put a Delete button with it in a form, which removes nothing."""
    defs: Schema = {}
    for leaf in leaves:
        if any(f.kind == "action" for f in leaf.fields):
            defs[f"item_{leaf.name}"] = _node_schema(leaf, None, in_item=True)
    names = [f"item_{c.name}" if f"item_{c.name}" in defs else c.name for c in leaves]
    defs["item_leaf"] = {"anyOf": [{"$ref": f"#/$defs/{name}"} for name in names]}
    for level in range(MAX_CONTAINER_DEPTH, 1, -1):
        below = "item_leaf" if level == MAX_CONTAINER_DEPTH else f"item{level + 1}"
        here = [c for c in containers if c.name in ITEM_CONTAINERS and c.max_level >= level]
        for c in here:
            defs[f"item_{c.name}{level}"] = _node_schema(c, f"#/$defs/{below}", in_item=True)
        defs[f"item{level}"] = {
            "anyOf": [
                *({"$ref": f"#/$defs/item_{c.name}{level}"} for c in here),
                {"$ref": "#/$defs/item_leaf"},
            ]
        }
    return defs


@cache
def _build(queries: bool) -> Schema:
    comps = registry.components().values()
    leaves = [c for c in comps if not c.children]
    containers = [c for c in comps if c.children and not c.root_only]
    page = registry.get("page")
    assert page is not None, "the catalog needs a page component"
    defs: Schema = {**copy.deepcopy(SHARED_DEFS), **_action_defs()}
    for leaf in leaves:
        defs[leaf.name] = _node_schema(leaf, None)
    leaf_refs = [{"$ref": f"#/$defs/{c.name}"} for c in leaves]
    defs.update(_item_defs(leaves, containers))
    # Level k holds containers whose children are at level k+1; the deepest level holds leaves.
    # A list's children are its item template, at the next level's item defs.
    for level in range(MAX_CONTAINER_DEPTH, 0, -1):
        below = "leaf" if level == MAX_CONTAINER_DEPTH else f"n{level + 1}"
        here = [c for c in containers if c.max_level >= level]
        for c in here:
            items = c.name == LIST and level < MAX_CONTAINER_DEPTH
            defs[f"{c.name}{level}"] = _node_schema(
                c, f"#/$defs/item{level + 1}" if items else f"#/$defs/{below}"
            )
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
