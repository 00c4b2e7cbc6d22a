"""Repair: deterministic and lossless; what it cannot fix stays in `problems`."""

from __future__ import annotations

import copy
from typing import Any

from ui4a import render_body, repair, validate


def test_it_adds_state_for_dangling_bindings_and_action_paths(signup: dict[str, Any]) -> None:
    signup["state"] = {"name": "Ada"}
    fixed = repair(signup)
    assert fixed.problems == []
    assert fixed.spec is not None
    assert fixed.spec["state"] == {
        "name": "Ada",
        "email": "",
        "password": "",
        "terms": False,
        "submitted": False,
    }
    assert "/state/terms: added False for /root/c/1/c/3/bind" in fixed.fixes


def test_it_starts_conditions_false_placeholders_empty_and_set_values_at_zero() -> None:
    spec = {
        "root": {
            "t": "page",
            "c": [
                {"t": "text", "text": "{count} items", "if": "!hide"},
                {"t": "button", "label": "+", "on": {"do": "set", "path": "count", "value": 1}},
                {"t": "button", "label": "?", "on": {"do": "toggle", "path": "help"}},
            ],
        }
    }
    fixed = repair(spec)
    assert fixed.spec is not None
    assert fixed.spec["state"] == {"hide": False, "count": "", "help": False}
    assert fixed.problems == []


def test_it_never_changes_its_input(signup: dict[str, Any]) -> None:
    before = copy.deepcopy(signup)
    del signup["state"]
    snapshot = copy.deepcopy(signup)
    repair(signup)
    assert signup == snapshot
    assert before != snapshot


def test_it_is_deterministic_and_idempotent(signup: dict[str, Any]) -> None:
    del signup["state"]["terms"]
    once = repair(signup)
    assert repair(signup) == once
    again = repair(once.spec)
    assert again.spec == once.spec
    assert again.fixes == []


def test_it_fills_defaults_and_ids_that_match_the_rendered_ids(signup: dict[str, Any]) -> None:
    fixed = repair(signup)
    assert fixed.spec is not None
    heading = fixed.spec["root"]["c"][0]
    assert heading["level"] == 1
    assert fixed.spec["root"]["c"][1]["c"][0]["kind"] == "text"
    assert [heading["id"], fixed.spec["root"]["c"][1]["c"][2]["id"]] == ["r-0", "r-1-2"]
    # A streamed (unrepaired) view and the repaired one keep the same element ids.
    assert render_body(signup) == render_body(fixed.spec)


def test_it_renames_duplicate_ids() -> None:
    spec = {"root": {"t": "page", "c": [{"t": "stack", "id": "a"}, {"t": "stack", "id": "a"}]}}
    fixed = repair(spec)
    assert fixed.spec is not None
    assert [n["id"] for n in fixed.spec["root"]["c"]] == ["a", "a-2"]
    assert fixed.problems == []


def test_it_understands_common_aliases_and_shapes() -> None:
    spec = {
        "type": "page",
        "children": {"type": "button", "label": "Open", "on": {"toggle": "open"}},
    }
    fixed = repair(spec)
    assert fixed.spec is not None
    assert fixed.problems == []
    button = fixed.spec["root"]["c"][0]
    assert button["t"] == "button"
    assert button["on"] == {"do": "toggle", "path": "open"}


def test_it_wraps_a_bare_root_in_a_page() -> None:
    fixed = repair({"root": {"t": "text", "text": "hi"}})
    assert fixed.spec is not None
    assert fixed.spec["root"]["t"] == "page"
    assert fixed.spec["root"]["c"][0]["text"] == "hi"


def test_it_drops_only_clearly_garbage_properties() -> None:
    spec = {
        "root": {
            "t": "page",
            "c": [{"t": "text", "text": "x", "": 1, "mood": None, "tone": "calm"}],
        }
    }
    fixed = repair(spec)
    assert fixed.spec is not None
    node = fixed.spec["root"]["c"][0]
    assert "" not in node and "mood" not in node
    assert node["tone"] == "calm"  # might mean something: kept, and reported
    assert [(p.path, p.code) for p in fixed.problems] == [("/root/c/0/tone", "unknown_field")]


def test_it_leaves_what_it_cannot_fix_in_problems() -> None:
    spec = {"root": {"t": "page", "c": [{"t": "carousel"}, {"t": "input", "bind": "q"}]}}
    fixed = repair(spec)
    assert [(p.path, p.code) for p in fixed.problems] == [
        ("/root/c/0/t", "unknown_component"),
        ("/root/c/1/label", "missing_field"),
    ]
    assert fixed.problems == validate(fixed.spec)


def test_it_cannot_repair_what_is_not_an_object() -> None:
    fixed = repair("nope")
    assert fixed.spec is None
    assert [p.code for p in fixed.problems] == ["wrong_type"]
