"""Datasets, action targets and the state a view needs: validated with paths, repaired first."""

from __future__ import annotations

from typing import Any

from ui4a import repair, validate


def codes(spec: object) -> set[tuple[str, str]]:
    return {(p.path, p.code) for p in validate(spec)}


def page(*kids: dict[str, Any], **top: Any) -> dict[str, Any]:
    return {"root": {"t": "page", "c": list(kids)}, **top}


def test_it_reports_an_unknown_dataset() -> None:
    spec = page(
        {"t": "table", "data": "sales"},
        {"t": "button", "label": "Add", "on": {"do": "append", "path": "sale", "value": {}}},
        data={"orders": []},
    )
    assert codes(spec) == {
        ("/root/c/0/data", "unknown_dataset"),
        ("/root/c/1/on/path", "unknown_dataset"),
    }


def test_it_reports_actions_that_target_nothing() -> None:
    spec = page(
        {"t": "button", "label": "a", "on": {"do": "open", "path": "ghost"}},
        {"t": "button", "label": "b", "on": [{"do": "tab", "path": "tab", "value": "Nope"}]},
        {"t": "button", "label": "c", "on": {"do": "submit"}},
        {"t": "button", "label": "d", "on": {"do": "remove"}},
        {"t": "tabs", "bind": "tab", "tabs": ["One"], "c": [{"t": "text", "text": "1"}]},
        state={"ghost": False, "tab": "One"},
    )
    assert codes(spec) == {
        ("/root/c/0/on/path", "no_target"),
        ("/root/c/1/on/0/value", "no_target"),
        ("/root/c/2/on/do", "no_target"),
        ("/root/c/3/on/do", "no_target"),
    }


def test_it_accepts_actions_inside_what_they_target() -> None:
    spec = page(
        {"t": "form", "c": [{"t": "button", "label": "Go", "on": {"do": "submit"}}]},
        {
            "t": "list",
            "data": "todo",
            "c": [
                {"t": "checkbox", "label": "{.task}", "bind": ".done"},
                {"t": "button", "label": "x", "on": {"do": "remove"}, "if": "!.done"},
                {"t": "button", "label": "y", "on": {"do": "set", "path": ".done", "value": True}},
            ],
        },
        data={"todo": [{"task": "a", "done": False}]},
    )
    assert validate(spec) == []


def test_it_refuses_item_fields_outside_a_list() -> None:
    spec = page({"t": "checkbox", "label": "x", "bind": ".done"})
    assert codes(spec) == {("/root/c/0/bind", "bad_value")}


def test_it_checks_datasets_theme_conditions_filters_and_urls() -> None:
    spec = page(
        {"t": "text", "text": "x", "if": "a=="},
        {"t": "text", "text": "y", "if": "alert(1)"},
        {"t": "table", "data": "d", "filter": ["region", "a=b"]},
        {"t": "image", "src": "javascript:alert(1)", "alt": "x"},
        {"t": "image", "src": "http://example.com/a.png", "alt": "x"},
        theme={"mode": "neon", "font": "Comic"},
        data={"d": [{"a": {"nested": 1}}], "bad name": []},
        state={"a": "", "b": ""},
    )
    assert codes(spec) == {
        ("/theme/font", "unknown_field"),
        ("/theme/mode", "bad_value"),
        ("/data/d/0/a", "wrong_type"),
        ("/data/bad name", "bad_value"),
        ("/root/c/1/if", "bad_value"),
        ("/root/c/2/filter/0", "bad_value"),
        ("/root/c/3/src", "bad_value"),
        ("/root/c/4/src", "bad_value"),
    }


def test_it_repairs_state_for_tabs_dialogs_selects_and_filters() -> None:
    spec = page(
        {"t": "tabs", "bind": "tab", "tabs": ["Day", "Week"], "c": []},
        {"t": "dialog", "title": "Hi", "bind": "hello", "c": []},
        {"t": "select", "label": "Region", "bind": "region", "opts": ["All", "EU"]},
        {"t": "chart", "title": "T", "data": "Sales", "x": "m", "y": ["v"], "filter": ["m~q"]},
        {"t": "text", "text": "Step", "if": "step=2"},
        {"t": "button", "label": "+", "on": {"do": "increment", "path": "count"}},
        data={"sales": [{"m": "Jan", "v": 1}]},
    )
    fixed = repair(spec)
    assert fixed.problems == []
    assert fixed.spec is not None
    assert fixed.spec["state"] == {
        "tab": "Day",
        "hello": False,
        "region": "All",
        "q": "",
        "step": 0,
        "count": 0,
    }
    assert fixed.spec["root"]["c"][3]["data"] == "sales"
    assert "/root/c/3/data: renamed dataset 'Sales' to 'sales'" in fixed.fixes


def test_it_spells_out_shorthand_actions_in_a_list() -> None:
    spec = page({"t": "button", "label": "x", "on": [{"toggle": "a"}, {"do": "reset"}]})
    fixed = repair(spec)
    assert fixed.spec is not None
    assert fixed.spec["root"]["c"][0]["on"] == [{"do": "toggle", "path": "a"}, {"do": "reset"}]
    assert fixed.problems == []
