"""What a head aims its actions at but never draws (ui4a/undrawn.py): found, drawable, and a
drawn node that makes the spec valid. The engine's middle stage is in
tests/inference/test_staged_decode.py."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs pinned in dev deps

import ui4a
from ui4a.undrawn import Undrawn, drawn_schema, to_draw, undrawn
from ui4a.validate import validate

SCHEMA = ui4a.json_schema(queries=False)


def tab(key: str, label: object) -> dict[str, Any]:
    switch = {"do": "tab", "path": key, "value": label}
    return {"t": "button", "label": f"Go to {label}", "on": switch}


def page(*children: dict[str, Any]) -> dict[str, Any]:
    return {"title": "t", "root": {"t": "page", "c": list(children)}}


def test_tab_actions_on_one_key_name_its_labels_once_in_their_order() -> None:
    head = page(tab("view", "Score"), tab("view", "Question"), tab("view", "Score"))
    assert undrawn(head) == [Undrawn("tabs", "view", ("Score", "Question"))]


def test_dialogs_and_tabs_come_in_the_order_the_head_first_aims_at_them() -> None:
    opens = {"t": "button", "label": "Delete", "on": {"do": "open", "path": "confirm"}}
    head = page(tab("view", "A"), opens, tab("other", "B"))
    assert [(u.component, u.key) for u in undrawn(head)] == [
        ("tabs", "view"),
        ("dialog", "confirm"),
        ("tabs", "other"),
    ]


def test_tabs_drawn_already_are_left_even_without_the_label_named() -> None:
    """Their labels are streamed already (the module's docstring): the spec stays invalid."""
    tabs = {"t": "tabs", "bind": "view", "tabs": ["Adoption"], "c": [{"t": "text", "text": "x"}]}
    head = page(tabs, tab("view", "Ad Adoption"))
    assert undrawn(head) == []
    assert [p.code for p in validate({**head, "state": {"view": "Adoption"}})] == ["no_target"]


def test_a_key_aimed_at_as_a_dialog_first_is_drawn_as_one() -> None:
    opens = {"t": "button", "label": "Open", "on": {"do": "open", "path": "view"}}
    assert undrawn(page(opens, tab("view", "A"))) == [Undrawn("dialog", "view")]


def test_tabs_that_the_schema_cannot_draw_are_not_drawn() -> None:
    too_many = page(*(tab("view", f"Tab {i}") for i in range(7)))  # tabs hold at most 6
    assert len(undrawn(too_many)) == 1 and to_draw(SCHEMA, too_many) == []
    assert to_draw(SCHEMA, page(tab("view", ""))) == []  # a tab's label is never empty
    assert to_draw(SCHEMA, page(tab("view", "x" * 61))) == []
    assert to_draw(SCHEMA, page(tab(".view", "A"))) == []  # an item's field, not a key
    assert to_draw(SCHEMA, page(tab("view", 3))) == []  # switches to no label
    most = SCHEMA["$defs"]["page"]["properties"]["c"]["maxItems"]
    assert to_draw(SCHEMA, page(*[tab("view", "A")] * most)) == []  # no room left on the page
    room = page(*[tab("view", "A")] * (most - 1))
    assert to_draw(SCHEMA, room) == [Undrawn("tabs", "view", ("A",))]


def test_the_drawn_tabs_have_the_labels_and_a_panel_each_and_make_the_spec_valid() -> None:
    head = page(tab("view", "Score"), tab("view", "Question"))
    assert validate({**head, "state": {"view": "Score"}}) != []
    (target,) = to_draw(SCHEMA, head)
    schema = drawn_schema(SCHEMA, target)
    panels = [{"t": "text", "text": "Score: 3"}, {"t": "text", "text": "7 x 8?"}]
    tabs = {"t": "tabs", "bind": "view", "tabs": ["Score", "Question"], "c": panels}
    jsonschema.validate(tabs, schema)
    for wrong in ({"tabs": ["Question", "Score"]}, {"c": panels[:1]}, {"c": panels * 2}):
        assert not jsonschema.Draft202012Validator(schema).is_valid({**tabs, **wrong})
    drawn = page(*head["root"]["c"], tabs)
    assert validate({**drawn, "state": {"view": "Score"}}) == []
