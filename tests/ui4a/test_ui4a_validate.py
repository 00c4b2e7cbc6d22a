"""Validation: each problem has a JSON pointer, a code and a message."""

from __future__ import annotations

import copy
from typing import Any

from ui4a import Problem, validate
from ui4a.catalog import MAX_STATE_KEYS, SHORT_MAX


def codes(spec: object) -> set[tuple[str, str]]:
    return {(p.path, p.code) for p in validate(spec)}


def test_it_finds_nothing_wrong_with_the_example(signup: dict[str, Any]) -> None:
    assert validate(signup) == []


def test_it_points_at_a_dangling_binding(signup: dict[str, Any]) -> None:
    del signup["state"]["password"]
    assert codes(signup) == {("/root/c/1/c/2/bind", "dangling_binding")}


def test_it_points_at_unknown_components_and_actions(signup: dict[str, Any]) -> None:
    signup["root"]["c"][0]["t"] = "marquee"
    signup["root"]["c"][1]["c"][4]["on"]["do"] = "navigate"
    assert codes(signup) == {
        ("/root/c/0/t", "unknown_component"),
        ("/root/c/1/c/4/on/do", "unknown_action"),
    }


def test_it_reports_wrong_types_missing_fields_and_bad_values(signup: dict[str, Any]) -> None:
    card = signup["root"]["c"][1]
    card["c"][0]["label"] = 7
    del card["c"][1]["bind"]
    card["c"][2]["kind"] = "color"
    signup["root"]["c"][0]["level"] = True
    assert codes(signup) == {
        ("/root/c/1/c/0/label", "wrong_type"),
        ("/root/c/1/c/1/bind", "missing_field"),
        ("/root/c/1/c/2/kind", "bad_value"),
        ("/root/c/0/level", "bad_value"),
    }


def test_it_reports_unknown_fields_and_children_of_leaves(signup: dict[str, Any]) -> None:
    signup["root"]["c"][0]["colour"] = "red"
    signup["root"]["c"][2]["c"] = []
    signup["extra"] = 1
    assert codes(signup) == {
        ("/root/c/0/colour", "unknown_field"),
        ("/root/c/2/c", "unknown_field"),
        ("/extra", "unknown_field"),
    }


def test_it_wants_a_page_at_the_root_only() -> None:
    assert ("/root/t", "misplaced") in codes({"root": {"t": "card"}})
    nested = {"root": {"t": "page", "c": [{"t": "page"}]}}
    assert codes(nested) == {("/root/c/0/t", "misplaced")}


def test_it_reports_containers_nested_too_deep() -> None:
    leaf = {"t": "text", "text": "deep"}
    node: dict[str, Any] = leaf
    for _ in range(4):
        node = {"t": "stack", "c": [node]}
    assert codes({"root": {"t": "page", "c": [node]}}) == {("/root/c/0/c/0/c/0/c/0", "too_deep")}
    three = node["c"][0]
    assert validate({"root": {"t": "page", "c": [three]}}) == []


def test_it_reports_too_many_children_and_state_keys_and_long_strings() -> None:
    kids = [{"t": "text", "text": "x"} for _ in range(9)]
    spec = {
        "root": {"t": "page", "c": kids, "title": "T" * (SHORT_MAX + 1)},
        "state": {f"k{i}": i for i in range(MAX_STATE_KEYS + 1)},
    }
    assert codes(spec) == {
        ("/root/c", "too_large"),
        ("/root/title", "too_large"),
        ("/state", "too_large"),
    }


def test_it_reports_duplicate_and_malformed_ids() -> None:
    spec = {
        "root": {
            "t": "page",
            "c": [{"t": "text", "text": "a", "id": "x"}, {"t": "text", "text": "b", "id": "x"}],
            "id": "not ok!",
        }
    }
    assert codes(spec) == {("/root/c/1/id", "duplicate_id"), ("/root/id", "bad_value")}


def test_it_checks_conditions_and_placeholders_against_state() -> None:
    spec = {"root": {"t": "page", "c": [{"t": "text", "text": "Hi {who}", "if": "!done"}]}}
    assert codes(spec) == {
        ("/root/c/0/if", "dangling_binding"),
        ("/root/c/0/text", "dangling_binding"),
    }


def test_it_refuses_what_is_not_a_spec() -> None:
    assert codes([1]) == {("", "wrong_type")}
    assert codes({}) == {("/root", "missing_field")}
    assert codes({"root": {"t": "page"}, "state": []}) == {("/state", "wrong_type")}


def test_it_escapes_pointer_characters_in_paths() -> None:
    spec = {"root": {"t": "page"}, "state": {"a/b": {}}}
    assert codes(spec) == {("/state/a~1b", "wrong_type")}


def test_it_gives_problems_as_plain_dicts(signup: dict[str, Any]) -> None:
    broken = copy.deepcopy(signup)
    broken["root"]["c"][0]["t"] = "blink"
    [problem] = validate(broken)
    assert isinstance(problem, Problem)
    assert problem.as_dict() == {
        "path": "/root/c/0/t",
        "code": "unknown_component",
        "message": "no component 'blink'",
    }
