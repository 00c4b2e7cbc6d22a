"""Diffs between specs: node by node, aligned so that an insertion changes nothing else, and
exactly the change an edit made."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ui4a import SpecTooLarge, validate
from ui4a.describe import describe
from ui4a.diff import Change, diff, summary
from ui4a.edit import EditRefused, apply_edit
from ui4a.tree import pointer, walk

words = st.text(alphabet="abcdefgh ", min_size=1, max_size=6).filter(lambda s: s.strip() != "")
leaf = st.one_of(
    st.builds(lambda label: {"t": "button", "label": label}, words),
    st.builds(lambda text: {"t": "text", "text": text}, words),
    st.builds(lambda text: {"t": "heading", "text": text}, words),
    st.builds(lambda: {"t": "divider"}),
)
card = st.builds(
    lambda title, kids: {"t": "card", **({"title": title} if title else {}), "c": kids},
    st.none() | words,
    st.lists(leaf, max_size=3),
)


def with_ids(root: dict[str, Any], title: str | None) -> dict[str, Any]:
    """A spec whose nodes carry unique ids, as every repaired version does."""
    spec = {**({"title": title} if title else {}), "root": root, "state": {}}
    for n, ref in enumerate(walk(spec)):
        ref.node["id"] = f"n{n}"
    return spec


specs = st.builds(
    lambda kids, title: with_ids({"t": "page", "c": kids}, title),
    st.lists(leaf | card, max_size=5),
    st.none() | words,
)


def node_pointers(spec: dict[str, Any]) -> list[str]:
    return [pointer(ref.path) for ref in walk(spec) if ref.depth > 0]


def node_at(spec: dict[str, Any], where: str) -> dict[str, Any]:
    node: Any = spec
    for part in where.strip("/").split("/"):
        node = node[int(part) if part.isdigit() else part]
    assert isinstance(node, dict)
    return node


def sibling(where: str, by: int) -> str:
    head, _, index = where.rpartition("/")
    return f"{head}/{int(index) + by}"


@given(specs)
def test_a_spec_has_no_changes_from_itself(spec: dict[str, Any]) -> None:
    assert validate(spec) == []
    assert diff(spec, copy.deepcopy(spec)) == []


@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=150)
@given(specs, st.data())
def test_an_edit_shows_up_as_exactly_its_own_change(spec: dict[str, Any], data: Any) -> None:
    where = data.draw(st.sampled_from(node_pointers(spec) or ["/root"]))
    node = node_at(spec, where)
    name = data.draw(
        st.sampled_from(["set", "delete", "duplicate", "move", "wrap", "theme", "title"])
    )
    if name == "set":
        field = {"button": "label", "card": "title", "divider": "label"}.get(node["t"], "text")
        value = data.draw(words)
        op: dict[str, Any] = {"op": "set", "path": where, "field": field, "value": value}
    elif name == "move":
        op = {"op": "move", "path": where, "by": data.draw(st.sampled_from([-1, 1]))}
    elif name == "wrap":
        assume(node.get("t") != "card")  # an untitled card wrapped in one is ambiguous
        op = {"op": "wrap", "path": where, "in": "card"}
    elif name == "theme":
        op = {
            "op": "theme",
            "field": "accent",
            "value": data.draw(st.sampled_from(["teal", "rose"])),
        }
    elif name == "title":
        op = {"op": "title", "value": data.draw(words)}
    else:
        op = {"op": name, "path": where}
    try:
        edited, _ = apply_edit(spec, op)
    except EditRefused:
        assume(False)  # nothing to change, first or last already, or the page itself
        return
    changes = diff(spec, edited)
    if name == "set":
        field = op["field"]
        assert changes == [Change("changed", where, describe(node_at(edited, where)), (field,))]
    elif name == "delete":
        assert changes == [Change("removed", where, describe(node))]
    elif name == "duplicate":
        assert changes == [Change("added", sibling(where, 1), describe(node))]
    elif name == "wrap":
        assert changes == [Change("removed", where, describe(node)), Change("added", where, "card")]
    elif name == "theme":
        assert changes == [Change("changed", "/theme", "theme", ("accent",))]
    elif name == "title":
        assert changes == [Change("changed", "/title", "title", ("title",))]
    else:
        other = node_at(spec, sibling(where, op["by"]))
        bare = [{k: v for k, v in n.items() if k != "id"} for n in (node, other)]
        if bare[0] == bare[1]:
            assert changes == []  # two equal nodes swapped: nothing a designer can see
            return
        assume(describe(node) != describe(other))  # same identity, different content: ambiguous
        kinds = sorted(c.change for c in changes)
        assert kinds == ["added", "removed"]
        removed, added = sorted(changes, key=lambda c: c.change != "removed")
        assert removed.node == added.node
        assert {removed.path, added.path} == {where, sibling(where, op["by"])}
        assert removed.path != added.path


def test_inserting_a_node_marks_only_that_node() -> None:
    old = with_ids(
        {
            "t": "page",
            "c": [
                {"t": "heading", "text": "Team"},
                {"t": "button", "label": "Save"},
                {"t": "button", "label": "Cancel"},
            ],
        },
        None,
    )
    new = copy.deepcopy(old)
    new["root"]["c"].insert(0, {"t": "text", "text": "Hello"})
    # Ids assigned by position shift with the insertion; they are no part of the content.
    for n, ref in enumerate(walk(new)):
        ref.node["id"] = f"m{n}"
    assert diff(old, new) == [Change("added", "/root/c/0", "text 'Hello'")]
    assert diff(new, old) == [Change("removed", "/root/c/0", "text 'Hello'")]


def test_an_edited_label_is_a_change_not_a_removal_and_an_addition() -> None:
    old = {"root": {"t": "page", "c": [{"t": "button", "label": "Save", "kind": "ghost"}]}}
    new = {"root": {"t": "page", "c": [{"t": "button", "label": "Store"}]}}
    assert diff(old, new) == [Change("changed", "/root/c/0", "button 'Store'", ("label", "kind"))]


def test_a_node_replaced_by_another_type_is_removed_and_added() -> None:
    old = {"root": {"t": "page", "c": [{"t": "chart", "title": "Revenue"}]}}
    new = {"root": {"t": "page", "c": [{"t": "table", "title": "Revenue"}]}}
    assert [c.as_dict() for c in diff(old, new)] == [
        {"change": "removed", "path": "/root/c/0", "node": "chart 'Revenue'", "fields": []},
        {"change": "added", "path": "/root/c/0", "node": "table 'Revenue'", "fields": []},
    ]


def test_state_data_theme_and_title_are_top_level_entries() -> None:
    old = {
        "title": "A",
        "root": {"t": "page"},
        "state": {"q": "", "n": 1},
        "data": {"rows": [{"a": 1}]},
    }
    new = {
        "title": "B",
        "theme": {"mode": "dark"},
        "root": {"t": "page"},
        "state": {"q": "x", "n": 1, "m": True},
        "data": {"rows": [{"a": 2}], "more": []},
    }
    assert diff(old, new) == [
        Change("changed", "/title", "title", ("title",)),
        Change("changed", "/theme", "theme", ("mode",)),
        Change("changed", "/state", "state", ("q", "m")),
        Change("changed", "/data", "data", ("rows", "more")),
    ]
    assert summary(diff(old, new)) == "4 changed"
    assert summary([]) == "no changes"


def test_true_and_one_are_different_values() -> None:
    old = {"root": {"t": "page"}, "state": {"x": 1}}
    new = {"root": {"t": "page"}, "state": {"x": True}}
    assert diff(old, new) == [Change("changed", "/state", "state", ("x",))]


def test_children_lists_too_long_to_align_are_compared_by_position() -> None:
    # Invalid (over 8 children), but a diff must stay cheap for whatever is stored.
    kids = [{"t": "text", "text": str(n)} for n in range(500)]
    old = {"root": {"t": "page", "c": kids}}
    new = {"root": {"t": "page", "c": [*kids[:-1], {"t": "text", "text": "last"}]}}
    assert diff(old, new) == [Change("changed", "/root/c/499", "text 'last'", ("text",))]


def test_a_spec_over_the_hard_limits_is_refused() -> None:
    huge = {"root": {"t": "page", "c": [{"t": "text", "text": "x" * 300_000}]}}
    with pytest.raises(SpecTooLarge):
        diff(huge, {"root": {"t": "page"}})
