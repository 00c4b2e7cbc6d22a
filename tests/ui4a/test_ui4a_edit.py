"""Hand edits: every operation, its label, its refusals, and that an edit touches only its node."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from ui4a import validate
from ui4a.edit import OP_MAX_BYTES, EditRefused, apply_edit, parse_node_pointer

BUTTON = "/root/c/1/c/4"  # the sign-up example's button 'Sign up'
NAME_INPUT = "/root/c/1/c/0"


def compact(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))


def node_at(spec: dict[str, Any], pointer: str) -> dict[str, Any]:
    node = spec["root"]
    for index in parse_node_pointer(pointer):
        node = node["c"][index]
    assert isinstance(node, dict)
    return node


def with_hole(spec: dict[str, Any], pointer: str, key: str | None = None) -> str:
    """The spec's bytes with the node at `pointer` (or its `key`) cut out."""
    holed = copy.deepcopy(spec)
    indexes = parse_node_pointer(pointer)
    parent = holed["root"]
    for index in indexes[:-1]:
        parent = parent["c"][index]
    if key is not None:
        node_at(holed, pointer)[key] = "HOLE"
    elif indexes:
        parent["c"][indexes[-1]] = "HOLE"
    return compact(holed)


def refused(spec: dict[str, Any], op: dict[str, Any]) -> EditRefused:
    before = compact(spec)
    with pytest.raises(EditRefused) as raised:
        apply_edit(spec, op)
    assert compact(spec) == before, "a refused edit must leave the spec as it was"
    return raised.value


def test_it_sets_a_field_and_labels_the_edit_by_the_node(signup: dict[str, Any]) -> None:
    spec, label = apply_edit(signup, {"op": "set", "path": BUTTON, "field": "label", "value": "Go"})
    assert label == "edited: label of button 'Sign up'"
    assert node_at(spec, BUTTON)["label"] == "Go"
    assert validate(spec) == []
    # Only that node's bytes differ, and within it only the label.
    assert with_hole(spec, BUTTON) == with_hole(signup, BUTTON)
    assert with_hole(spec, BUTTON, "label") == with_hole(signup, BUTTON, "label")
    assert node_at(signup, BUTTON)["label"] == "Sign up", "the given spec is not changed"


def test_a_new_field_goes_in_before_the_children(signup: dict[str, Any]) -> None:
    spec, label = apply_edit(
        signup, {"op": "set", "path": "/root/c/1", "field": "title", "value": "Account"}
    )
    assert label == "edited: title of card"
    assert list(node_at(spec, "/root/c/1")) == ["t", "title", "c"]
    del node_at(spec, "/root/c/1")["title"]
    assert compact(spec) == compact(signup)


def test_it_sets_an_action_and_a_condition(signup: dict[str, Any]) -> None:
    on = [{"do": "set", "path": "submitted", "value": True}, {"do": "reset"}]
    spec, label = apply_edit(signup, {"op": "set", "path": BUTTON, "field": "on", "value": on})
    assert label == "edited: action of button 'Sign up'"
    assert node_at(spec, BUTTON)["on"] == on
    spec, label = apply_edit(
        signup, {"op": "set", "path": "/root/c/2", "field": "if", "value": "!terms"}
    )
    assert label == "edited: condition of text 'Welcome, {name}!'"
    assert validate(spec) == []


def test_a_new_binding_declares_its_state_key(signup: dict[str, Any]) -> None:
    spec, _ = apply_edit(
        signup, {"op": "set", "path": NAME_INPUT, "field": "bind", "value": "fullname"}
    )
    assert spec["state"]["fullname"] == ""
    assert validate(spec) == []
    # The old key stays: "Welcome, {name}!" still reads it, and nothing is lost anyway.
    assert spec["state"]["name"] == ""


def test_it_unsets_an_optional_field(signup: dict[str, Any]) -> None:
    pointer = "/root/c/1/c/1"
    spec, label = apply_edit(signup, {"op": "unset", "path": pointer, "field": "kind"})
    assert label == "edited: cleared kind of input 'Email'"
    assert "kind" not in node_at(spec, pointer)
    assert with_hole(spec, pointer) == with_hole(signup, pointer)


def test_it_moves_a_node_up_and_down(signup: dict[str, Any]) -> None:
    spec, label = apply_edit(signup, {"op": "move", "path": BUTTON, "by": -1})
    assert label == "moved button 'Sign up' up"
    kids = node_at(spec, "/root/c/1")["c"]
    old = node_at(signup, "/root/c/1")["c"]
    assert kids == [*old[:3], old[4], old[3]]
    assert with_hole(spec, "/root/c/1", "c") == with_hole(signup, "/root/c/1", "c")
    spec, label = apply_edit(signup, {"op": "move", "path": NAME_INPUT, "by": 1})
    assert label == "moved input 'Name' down"
    assert node_at(spec, "/root/c/1/c/1")["label"] == "Name"


def test_it_duplicates_a_node_with_fresh_ids() -> None:
    spec = {
        "root": {
            "t": "page",
            "id": "r",
            "c": [{"t": "card", "id": "r-0", "c": [{"t": "text", "id": "r-0-0", "text": "Hi"}]}],
        }
    }
    edited, label = apply_edit(spec, {"op": "duplicate", "path": "/root/c/0"})
    assert label == "duplicated card"
    kids = edited["root"]["c"]
    assert kids[0] == spec["root"]["c"][0]
    assert kids[1] == {
        "t": "card",
        "id": "r-0-2",
        "c": [{"t": "text", "id": "r-0-0-2", "text": "Hi"}],
    }
    assert validate(edited) == []


def test_it_deletes_a_node(signup: dict[str, Any]) -> None:
    spec, label = apply_edit(signup, {"op": "delete", "path": "/root/c/0"})
    assert label == "deleted heading 'Create your account'"
    assert spec["root"]["c"] == signup["root"]["c"][1:]
    assert {k: v for k, v in spec.items() if k != "root"} == {
        k: v for k, v in signup.items() if k != "root"
    }


def test_it_wraps_a_node_in_a_card(signup: dict[str, Any]) -> None:
    spec, label = apply_edit(signup, {"op": "wrap", "path": "/root/c/0", "in": "card"})
    assert label == "wrapped heading 'Create your account' in a card"
    assert spec["root"]["c"][0] == {"t": "card", "c": [signup["root"]["c"][0]]}
    assert validate(spec) == []


def test_it_sets_theme_tokens_and_the_title(signup: dict[str, Any]) -> None:
    spec, label = apply_edit(signup, {"op": "theme", "field": "accent", "value": "teal"})
    assert label == "theme: accent teal"
    assert spec["theme"] == {"accent": "teal"}
    assert list(spec) == ["title", "theme", "root", "state"]
    spec, label = apply_edit(spec, {"op": "theme", "field": "mode", "value": "dark"})
    assert spec["theme"] == {"accent": "teal", "mode": "dark"}
    spec, label = apply_edit(spec, {"op": "title", "value": "Join us"})
    assert label == "title: 'Join us'"
    assert spec["title"] == "Join us"
    spec, label = apply_edit(spec, {"op": "title", "value": ""})
    assert label == "title: removed"
    assert "title" not in spec


@pytest.mark.parametrize(
    ("op", "message"),
    [
        ("not an object", 'An edit is an object like {"op": "set"'),
        ({"op": "paint"}, "Unknown edit 'paint'; edits are: set, unset, move"),
        ({"op": "delete", "path": "/root/c/0", "force": True}, "A delete edit has no 'force'"),
        (
            {"op": "set", "path": "/root/c/7", "field": "label", "value": "x"},
            "no node at /root/c/7",
        ),
        ({"op": "set", "path": "root.c.1", "field": "label", "value": "x"}, "a node pointer"),
        (
            {"op": "set", "path": BUTTON, "field": "colour", "value": "red"},
            "A button has no field 'colour'; its fields are: label, on, kind, if.",
        ),
        (
            {"op": "set", "path": BUTTON, "field": "kind", "value": "huge"},
            "'kind' is one of 'primary', 'secondary', 'ghost', 'danger'.",
        ),
        ({"op": "set", "path": BUTTON, "field": "label", "value": 7}, "'label' is a string."),
        (
            {"op": "set", "path": BUTTON, "field": "label", "value": "x" * 61},
            "'label' has at most 60 characters.",
        ),
        ({"op": "set", "path": BUTTON, "field": "label"}, "needs a 'value'"),
        (
            {"op": "set", "path": BUTTON, "field": "label", "value": "Sign up"},
            "Nothing to change: the label of button 'Sign up' is already that.",
        ),
        (
            {"op": "set", "path": BUTTON, "field": "on", "value": {"do": "open", "path": "help"}},
            "No dialog binds 'help'.",
        ),
        (
            {"op": "set", "path": "/root/c/2", "field": "if", "value": "a b"},
            "'if': a condition is",
        ),
        ({"op": "unset", "path": BUTTON, "field": "label"}, "'label' is required for a button"),
        ({"op": "unset", "path": BUTTON, "field": "kind"}, "button 'Sign up' has no kind"),
        ({"op": "move", "path": "/root/c/0", "by": -1}, "already first in its container"),
        ({"op": "move", "path": "/root/c/2", "by": 1}, "already last in its container"),
        ({"op": "move", "path": BUTTON, "by": 2}, "'by' is -1 (up) or 1 (down)."),
        ({"op": "move", "path": BUTTON, "by": True}, "'by' is -1 (up) or 1 (down)."),
        ({"op": "delete", "path": "/root"}, "The page itself cannot be deleted."),
        ({"op": "wrap", "path": "/root", "in": "card"}, "The page itself cannot be wrapped."),
        ({"op": "wrap", "path": BUTTON, "in": "dialog"}, "'in' is one of 'card', 'stack'"),
        ({"op": "theme", "field": "font", "value": "serif"}, "'field' of a theme edit is one of"),
        ({"op": "theme", "field": "accent", "value": "pink"}, "The theme's 'accent' is one of"),
        ({"op": "theme", "field": "accent", "value": "indigo"}, "the accent is already indigo"),
        ({"op": "title", "value": "x" * 61}, "The title is text of at most 60 characters."),
        ({"op": "title", "value": "Sign up"}, "the title is already that"),
        (
            {"op": "set", "path": "/root/c/1", "field": "title", "value": "x" * OP_MAX_BYTES},
            "The edit is too large",
        ),
    ],
)
def test_it_refuses_bad_edits_with_a_clear_message(
    signup: dict[str, Any], op: Any, message: str
) -> None:
    assert message in refused(signup, op).message


def test_a_refusal_points_at_the_problem(signup: dict[str, Any]) -> None:
    error = refused(signup, {"op": "set", "path": BUTTON, "field": "kind", "value": "huge"})
    assert error.path == f"{BUTTON}/kind"


def test_it_refuses_an_edit_that_breaks_the_view_as_a_whole(signup: dict[str, Any]) -> None:
    # Nine children in a card is one too many; the check is validation's own.
    full = copy.deepcopy(signup)
    full["root"]["c"][1]["c"] += [{"t": "divider"}] * 3
    error = refused(full, {"op": "duplicate", "path": BUTTON})
    assert error.message == "At most 8 children."
    assert error.path == "/root/c/1/c"
    # Deleting the only dialog leaves the button that opens it aiming at nothing.
    with_dialog = copy.deepcopy(signup)
    with_dialog["root"]["c"] += [{"t": "dialog", "title": "Help", "bind": "help", "c": []}]
    with_dialog["state"]["help"] = False
    node_at(with_dialog, BUTTON)["on"] = {"do": "open", "path": "help"}
    assert validate(with_dialog) == []
    assert refused(with_dialog, {"op": "delete", "path": "/root/c/3"}).message == (
        "No dialog binds 'help'."
    )


def test_it_refuses_to_nest_containers_deeper_than_the_schema_allows() -> None:
    spec = {
        "root": {
            "t": "page",
            "c": [{"t": "card", "c": [{"t": "card", "c": [{"t": "card", "c": []}]}]}],
        }
    }
    error = refused(spec, {"op": "wrap", "path": "/root/c/0/c/0/c/0", "in": "card"})
    assert "nests at most 3 levels" in error.message


def test_an_edit_of_a_flawed_version_is_refused_only_for_what_it_breaks(
    signup: dict[str, Any],
) -> None:
    # A model's version may keep a problem repair could not fix; it must still be editable.
    flawed = copy.deepcopy(signup)
    node_at(flawed, BUTTON)["on"] = {"do": "open", "path": "help"}
    assert "no_target" in {p.code for p in validate(flawed)}
    spec, _ = apply_edit(flawed, {"op": "set", "path": NAME_INPUT, "field": "label", "value": "N"})
    assert node_at(spec, NAME_INPUT)["label"] == "N"
    refused(flawed, {"op": "set", "path": NAME_INPUT, "field": "kind", "value": "huge"})


def test_it_refuses_a_spec_without_a_page() -> None:
    assert "no page to edit" in refused({"title": "x"}, {"op": "title", "value": "y"}).message
