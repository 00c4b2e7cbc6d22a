"""Specs drawn from the decoding schema itself (ui4a.json_schema), with hypothesis-jsonschema:
every spec is one the ui expert could decode under the grammar, so the fuzz covers what a
model can write, beside bench/fuzz_ui4a.py's hostile specs that go beyond it.

hypothesis-jsonschema cannot take the whole schema at once (its $ref resolution and schema
merging on 23 kB of nested anyOf do not finish in minutes), so the strategy is composed the
way the schema is: each component's node is drawn from its own def, without its references
("on" and "c"), and the references are drawn from their defs and put back. What comes out is
checked against the whole schema by tests/ui4a/test_ui4a_fuzz.py.
"""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from hypothesis import strategies as st
from hypothesis_jsonschema import from_schema

from ui4a import json_schema
from ui4a.catalog import MAX_CONTAINER_DEPTH

Schema = dict[str, Any]
REFERENCES = ("on", "c")  # the node properties that point at other defs
CHILDREN_DRAWN = 3  # at most this many children a container (the schema allows more)


@cache
def _schema() -> Schema:
    return json_schema()


def _defs() -> Schema:
    defs: Schema = _schema()["$defs"]
    return defs


def _inlined(node: Any) -> Any:
    """`node` with every $ref replaced by its def (only for defs that do not recurse)."""
    if isinstance(node, dict):
        if "$ref" in node:
            return _inlined(_defs()[node["$ref"].rsplit("/", 1)[-1]])
        return {key: _inlined(value) for key, value in node.items()}
    if isinstance(node, list):
        return [_inlined(value) for value in node]
    return node


@cache
def _actions(def_name: str) -> st.SearchStrategy[Any]:
    """What a node of def `def_name` may run (`on`, or `item_on` in a list's item template)."""
    return from_schema(_inlined(_defs()[def_name]["properties"]["on"]))


@cache
def _node_fields(def_name: str) -> st.SearchStrategy[dict[str, Any]]:
    """A node of def `def_name` without its references: its own fields, by the schema."""
    node = _defs()[def_name]
    properties = {k: v for k, v in node["properties"].items() if k not in REFERENCES}
    # An object schema draws objects; hypothesis-jsonschema types every strategy as any JSON.
    fields = _inlined({**node, "properties": properties})  # a condition is a shared def
    return cast(st.SearchStrategy[dict[str, Any]], from_schema(fields))


def _is_container(def_name: str) -> bool:
    return "c" in _defs()[def_name]["properties"]


def _alternatives(def_name: str) -> list[str]:
    """The defs an anyOf def (n1..n3, leaf, item2, item3, item_leaf) stands for."""
    return [ref["$ref"].rsplit("/", 1)[-1] for ref in _defs()[def_name]["anyOf"]]


@st.composite
def _node(draw: st.DrawFn, def_name: str) -> dict[str, Any]:
    node = draw(_node_fields(def_name))
    if "on" in _defs()[def_name]["properties"] and draw(st.booleans()):
        node["on"] = draw(_actions(def_name))
    if _is_container(def_name):
        below = _defs()[def_name]["properties"]["c"]["items"]["$ref"].rsplit("/", 1)[-1]
        node["c"] = draw(st.lists(_any_of(below), max_size=CHILDREN_DRAWN))
    return node


def _any_of(def_name: str) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(*(_node(name) for name in _alternatives(def_name)))


@cache
def _top_level(name: str) -> st.SearchStrategy[Any]:
    return from_schema(_schema()["properties"][name])


@st.composite
def schema_specs(draw: st.DrawFn) -> dict[str, Any]:
    """A spec valid under the decoding schema: the page, and any of title, theme, state, data."""
    assert MAX_CONTAINER_DEPTH >= 1  # the page's children are the level-1 defs
    spec: dict[str, Any] = {"root": draw(_node("page"))}
    for name in ("title", "theme", "state", "data"):
        if draw(st.booleans()):
            spec[name] = draw(_top_level(name))
    return spec


def decoding_schema() -> Schema:
    """The whole schema the specs are drawn from, to check them against."""
    return _schema()
