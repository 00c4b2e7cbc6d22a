"""What a head aims its actions at but never draws (ui4a/undrawn.py): found, drawable, and a
drawn node that makes the spec valid. The engine's middle stage is in
tests/inference/test_staged_decode.py."""

from __future__ import annotations

from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs pinned in dev deps

import ui4a
from ui4a.undrawn import Undrawn, aimable, aiming_only_at, drawn_schema, to_draw, undrawn
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


def button(do: str, key: str, value: str | None = None) -> dict[str, Any]:
    action = {"do": do, "path": key, **({"value": value} if value is not None else {})}
    return {"t": "button", "label": "Go", "on": action}


def test_a_drawn_dialogs_buttons_aim_only_at_what_the_spec_will_hold() -> None:
    """profile-03's middle stage drew the dialog its head closed, with buttons that opened a
    dialog none drew: no stage follows the middle one, so its grammar forbids that."""
    tabs = {"t": "tabs", "bind": "view", "tabs": ["Repos", "Stars"], "c": [{"t": "text"}] * 2}
    head = page(tabs, button("close", "following"), tab("mode", "Edit"))
    drawn = to_draw(SCHEMA, head)
    assert drawn == [Undrawn("dialog", "following"), Undrawn("tabs", "mode", ("Edit",))]
    aims = aimable(head, drawn)
    assert aims.dialogs == {"following"} and aims.tabs == {
        "view": ["Repos", "Stars"],
        "mode": ["Edit"],
    }
    schema = drawn_schema(aiming_only_at(SCHEMA, aims), drawn[0])
    valid = jsonschema.Draft202012Validator(schema).is_valid

    def dialog(*buttons: dict[str, Any]) -> dict[str, Any]:
        return {"t": "dialog", "title": "Follow?", "bind": "following", "c": list(buttons)}

    assert valid(dialog(button("close", "following"), button("tab", "view", "Stars")))
    assert valid(dialog(button("tab", "mode", "Edit"), button("set", "name", "x")))
    assert not valid(dialog(button("open", "confirm")))  # no dialog binds it
    assert not valid(dialog(button("tab", "view", "Edit")))  # another tabs' label
    assert not valid(dialog(button("tab", "other", "Stars")))
    # With no dialog or tabs to aim at, no action may open, close or switch.
    bare = aiming_only_at(SCHEMA, aimable(page(), []))
    dos = [o["properties"]["do"]["const"] for o in bare["$defs"]["action"]["anyOf"]]
    assert "set" in dos and not {"open", "close", "tab"} & set(dos)
