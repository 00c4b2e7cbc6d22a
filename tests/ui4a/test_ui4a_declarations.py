"""Staged decoding's spec side (ui4a/declarations.py): the head schema ends the spec after the
root, and the tail schema makes `data` declare every dataset the head named, and `state` every
key it reads or writes, and only those."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs pinned in dev deps
import pytest

import ui4a
from ui4a.catalog import MAX_DATASETS
from ui4a.declarations import (
    TAIL_ROWS,
    head_schema,
    is_staged_schema,
    named_datasets,
    row_keys,
    tail_schemas,
)

HEAD: dict[str, Any] = {
    "title": "Trips",
    "root": {
        "t": "page",
        "c": [
            {"t": "table", "data": "trips", "cols": ["city", "date"]},
            {
                "t": "chart",
                "kind": "bar",
                "title": "Spend",
                "data": "spend",
                "x": "month",
                "y": ["eur"],
            },
            {"t": "table", "data": "trips", "cols": ["city"]},
            {
                "t": "form",
                "submit": "Add",
                "on": [{"do": "append", "path": "notes", "value": {"text": "{draft}"}}],
                "c": [{"t": "input", "label": "Note", "bind": "draft"}],
            },
        ],
    },
}


def test_the_spec_schema_is_staged_and_its_head_ends_after_the_root() -> None:
    for queries in (False, True):
        schema = ui4a.json_schema(queries=queries)
        assert is_staged_schema(schema)
        head = head_schema(schema)
        assert list(head["properties"]) == ["title", "theme", "root"]
        assert head["additionalProperties"] is False
        jsonschema.validate(HEAD, head)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({**HEAD, "data": {}}, head)
    assert not is_staged_schema({"type": "object", "properties": {"root": {}}})


def test_datasets_are_named_by_tables_charts_and_appends_in_order_once() -> None:
    assert named_datasets(HEAD) == ["trips", "spend", "notes"]
    assert named_datasets({"root": {"t": "page", "c": [{"t": "text", "text": "hi"}]}}) == []


def test_named_datasets_stop_at_what_data_may_hold() -> None:
    tables = [{"t": "table", "data": f"d{i}", "cols": ["a"]} for i in range(MAX_DATASETS + 2)]
    head = {"root": {"t": "page", "c": tables}}
    assert named_datasets(head) == [f"d{i}" for i in range(MAX_DATASETS)]


def test_the_tail_requires_every_named_dataset_and_nothing_else() -> None:
    schema = ui4a.json_schema(queries=False)
    tail = tail_schemas(schema, HEAD)
    assert tail.datasets == ("trips", "spend", "notes")
    assert tail.data_required
    rows = [{"city": "Oslo", "date": "2026-05-01"}]
    declared = {"trips": rows, "spend": [{"month": "May", "eur": 3}], "notes": []}
    jsonschema.validate(declared, tail.data)
    for missing in declared:
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({k: v for k, v in declared.items() if k != missing}, tail.data)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**declared, "other": rows}, tail.data)
    assert tail.state_keys == ("draft",)
    jsonschema.validate({"draft": ""}, tail.state)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"draft": "", "page": 1}, tail.state)


def test_the_tail_holds_as_many_records_as_it_is_given_at_least_one() -> None:
    schema = ui4a.json_schema(queries=False)
    trip = {"city": "Oslo", "date": "2026-05-01"}
    three = {"trips": [trip] * 3, "spend": [], "notes": []}
    jsonschema.validate(three, tail_schemas(schema, HEAD, max_rows=3).data)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(three, tail_schemas(schema, HEAD, max_rows=2).data)
    one = tail_schemas(schema, HEAD, max_rows=0).data
    jsonschema.validate({**three, "trips": [trip]}, one)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**three, "trips": [trip] * 2}, one)


def test_a_tail_over_uploads_may_declare_a_query() -> None:
    tail = tail_schemas(ui4a.json_schema(queries=True), HEAD)
    query = {"from": "sales", "group": "date:month", "agg": {"revenue": "sum:amount"}}
    jsonschema.validate({"trips": query, "spend": [], "notes": []}, tail.data)


def test_a_head_that_names_nothing_declares_nothing() -> None:
    """Rows or keys nothing shows are tokens spent on nothing, and a free name may be no word
    (the expert wrote a dataset " Ideas" that no table named)."""
    tail = tail_schemas(ui4a.json_schema(queries=False), {"root": {"t": "page", "c": []}})
    assert not tail.data_required and not tail.state_required
    assert tail.data is None and tail.state is None


def test_the_state_declares_each_key_the_head_uses_with_the_types_it_is_used_as() -> None:
    head = {
        "root": {
            "t": "page",
            "c": [
                {"t": "switch", "label": "Dark", "bind": "dark"},
                {"t": "text", "text": "Step {step} of 3", "if": "step=2"},
                {"t": "button", "label": "Next", "on": {"do": "increment", "path": "step"}},
                {"t": "input", "label": "Name", "bind": "name"},
                {"t": "text", "text": "Hi {name}", "if": "name"},
                {"t": "progress", "label": "Done", "bind": "done"},
            ],
        }
    }
    tail = tail_schemas(ui4a.json_schema(queries=False), head)
    assert tail.state_required and tail.state_keys == ("dark", "step", "name", "done")
    assert tail.state is not None
    jsonschema.validate({"dark": False, "step": 1, "name": "", "done": 3}, tail.state)
    # Used as both, or as nothing in particular (a progress bar's bind).
    jsonschema.validate({"dark": False, "step": "", "name": False, "done": "3"}, tail.state)
    for wrong in ({"dark": "no", "step": 1, "name": "", "done": 3}, {"dark": False, "step": 1}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(wrong, tail.state)


def test_past_the_most_state_keys_the_state_is_the_spec_schemas_own() -> None:
    switches = [{"t": "switch", "label": f"S{i}", "bind": f"s{i}"} for i in range(17)]
    tail = tail_schemas(ui4a.json_schema(queries=False), {"root": {"t": "page", "c": switches}})
    assert not tail.state_required
    assert tail.state == ui4a.json_schema(queries=False)["properties"]["state"]


@pytest.mark.parametrize("queries", [False, True])
def test_the_tail_ends_a_dataset_that_repeats_rows(queries: bool) -> None:
    """The expert's runaway: one row written again and again, to the token limit."""
    data = tail_schemas(ui4a.json_schema(queries=queries), HEAD).data
    assert data is not None
    name = "trips"
    others: dict[str, list[Any]] = {n: [] for n in named_datasets(HEAD) if n != name}
    row = {"city": "Oslo", "date": "2026-05-01"}
    jsonschema.validate({name: [row] * TAIL_ROWS, **others}, data)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({name: [row] * (TAIL_ROWS + 1), **others}, data)


@pytest.mark.parametrize(
    "node",
    [
        {"t": "select", "label": "Diet", "bind": " diet", "opts": ["Any"]},
        {"t": "table", "data": " tent_list", "cols": ["name"]},
        {"t": "switch", "label": "Auto-play", "bind": "auto_play_ videos"},
    ],
)
def test_the_grammar_spells_state_keys_and_dataset_names_as_names(node: dict[str, Any]) -> None:
    """What the expert wrote in the dev set before the names had a pattern: each named nothing."""
    spec = {"root": {"t": "page", "c": [node]}}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(spec, ui4a.json_schema())
    fixed = {k: v.replace(" ", "") if k in ("bind", "data") else v for k, v in node.items()}
    jsonschema.validate({"root": {"t": "page", "c": [fixed]}}, ui4a.json_schema())


def test_an_item_key_keeps_its_dot() -> None:
    checkbox = {"t": "checkbox", "label": "{.name}", "bind": ".done"}
    spec = {"root": {"t": "page", "c": [{"t": "list", "data": "todos", "c": [checkbox]}]}}
    jsonschema.validate(spec, ui4a.json_schema())


def test_row_keys_are_what_the_head_shows_of_each_dataset() -> None:
    head = {
        "root": {
            "t": "page",
            "c": [
                {
                    "t": "table",
                    "data": "orders",
                    "cols": ["id:Order", "total"],
                    "filter": ["status=s"],
                },
                {"t": "table", "data": "orders", "cols": ["total", "customer"]},
                {"t": "chart", "title": "T", "data": "sales", "x": "month", "y": ["eur", "usd"]},
                {
                    "t": "list",
                    "data": "todos",
                    "c": [{"t": "checkbox", "label": "{.task} by {.owner}", "bind": ".done"}],
                },
                {"t": "text", "if": "!.archived", "text": "outside any list: not a field"},
                {
                    "t": "form",
                    "on": [{"do": "append", "path": "todos", "value": {"task": "{d}", "due": ""}}],
                    "c": [],
                },
                {"t": "form", "on": {"do": "append", "path": "log", "value": "not a record"}},
            ],
        }
    }
    assert row_keys(head) == {
        "orders": ["id", "total", "status", "customer"],
        "sales": ["month", "eur", "usd"],
        "todos": ["task", "owner", "done", "due"],
    }


def test_the_tail_rows_have_exactly_the_keys_the_head_shows() -> None:
    """The dev set's runaways: keys no column shows, and one key repeated to the token limit."""
    data = tail_schemas(ui4a.json_schema(queries=False), HEAD).data
    assert data is not None
    spend = [{"month": "May", "eur": 3}]
    row = {"city": "Oslo", "date": "2026-05-01"}
    jsonschema.validate({"trips": [row], "spend": spend, "notes": [{"text": "hi"}]}, data)
    for wrong in ({"city": "Oslo"}, {**row, "cravings": 13}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate({"trips": [wrong], "spend": spend, "notes": []}, data)
    keys = list(data["properties"]["trips"]["items"]["properties"])
    assert keys == ["city", "date"]  # the order xgrammar writes them in


def test_a_dataset_the_head_shows_no_key_of_keeps_open_rows() -> None:
    head = {"root": {"t": "page", "c": [{"t": "list", "data": "items", "c": []}]}}
    data = tail_schemas(ui4a.json_schema(queries=False), head).data
    jsonschema.validate({"items": [{"anything": 1}]}, data)
