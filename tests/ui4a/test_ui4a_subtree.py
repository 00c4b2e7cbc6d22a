"""Targeted refinement's subtree: extract a node as a small spec, splice a revision back, and
keep everything outside the node byte for byte."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ui4a
from ui4a.catalog import Component
from ui4a.registry import components, example_path
from ui4a.subtree import SubtreeError, extract, node_path, splice, splice_partial
from ui4a.tree import pointer, walk
from ui4a.validate import state_references

DASHBOARD: dict[str, Any] = {
    "title": "Sales",
    "theme": {"accent": "teal"},
    "root": {
        "t": "page",
        "id": "r",
        "c": [
            {
                "t": "select",
                "id": "pick",
                "label": "Region",
                "bind": "region",
                "opts": ["All", "EU"],
            },
            {
                "t": "grid",
                "id": "g",
                "c": [
                    {
                        "t": "chart",
                        "id": "revenue",
                        "kind": "line",
                        "title": "Revenue",
                        "data": "sales",
                        "x": "month",
                        "y": ["revenue"],
                        "filter": ["region=region"],
                    },
                    {"t": "text", "id": "note", "text": "{note} for {region}"},
                ],
            },
            {"t": "table", "id": "t", "data": "staff", "title": "Staff"},
        ],
    },
    "state": {"region": "All", "note": "Figures", "unused": 3},
    "data": {
        "sales": [{"month": "Jan", "region": "EU", "revenue": 120}],
        "staff": [{"name": "Ann"}],
    },
}
CHART = "/root/c/1/c/0"


def dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def test_it_extracts_a_node_with_the_state_and_data_it_reads() -> None:
    mini = extract(DASHBOARD, CHART)
    assert list(mini) == ["title", "theme", "root", "state", "data"]
    assert mini["root"] == {"t": "page", "c": [DASHBOARD["root"]["c"][1]["c"][0]]}
    assert mini["state"] == {"region": "All"}
    assert mini["data"] == {"sales": DASHBOARD["data"]["sales"]}
    assert ui4a.validate(mini) == []  # a complete spec the model can revise


def test_it_extracts_a_container_with_everything_under_it() -> None:
    mini = extract(DASHBOARD, "/root/c/1")
    assert mini["state"] == {"region": "All", "note": "Figures"}
    assert list(mini["data"]) == ["sales"]


def test_a_node_that_reads_nothing_gets_empty_state_and_no_data() -> None:
    spec = {"root": {"t": "page", "c": [{"t": "text", "text": "Hi"}]}}
    assert extract(spec, "/root/c/0") == {
        "root": {"t": "page", "c": [{"t": "text", "text": "Hi"}]},
        "state": {},
    }


def test_splicing_a_revised_chart_keeps_everything_outside_it_byte_for_byte() -> None:
    mini = extract(DASHBOARD, CHART)
    mini["root"]["c"][0]["kind"] = "bar"
    result = splice(DASHBOARD, CHART, mini)
    assert result["root"]["c"][1]["c"][0]["kind"] == "bar"
    outside_before = copy.deepcopy(DASHBOARD)
    outside_after = copy.deepcopy(result)
    del outside_before["root"]["c"][1]["c"][0]
    del outside_after["root"]["c"][1]["c"][0]
    assert dumps(outside_after) == dumps(outside_before)
    assert DASHBOARD["root"]["c"][1]["c"][0]["kind"] == "line"  # the input is not modified


def test_several_revised_elements_all_take_the_selected_ones_place() -> None:
    revised = {
        "root": {
            "t": "page",
            "c": [
                {"t": "button", "id": "save", "label": "Save"},
                {"t": "button", "id": "cancel", "label": "Cancel"},
            ],
        }
    }
    result = splice(DASHBOARD, "/root/c/0", revised)
    assert [n.get("id") for n in result["root"]["c"]] == ["save", "cancel", "g", "t"]


def test_a_revised_id_that_an_element_outside_uses_is_renamed_inside() -> None:
    revised = {"root": {"t": "page", "c": [{"t": "text", "id": "t", "text": "Hello"}]}}
    result = splice(DASHBOARD, CHART, revised)
    assert result["root"]["c"][1]["c"][0]["id"] == "t-2"
    assert result["root"]["c"][2]["id"] == "t"  # the table outside keeps its id
    assert ui4a.repair(result).problems == []


def test_state_that_other_elements_read_keeps_its_value() -> None:
    revised = extract(DASHBOARD, "/root/c/1/c/1")
    revised["root"]["c"][0]["text"] = "{note} / {region} / {extra}"
    revised["state"] = {"note": "Revised", "region": "EU", "extra": "new"}
    result = splice(DASHBOARD, "/root/c/1/c/1", revised)
    # "region" is read by the select and the chart outside; "note" only by the text itself.
    assert result["state"] == {"region": "All", "note": "Revised", "unused": 3, "extra": "new"}


def test_datasets_other_elements_read_are_kept_and_new_ones_added() -> None:
    revised = extract(DASHBOARD, CHART)
    revised["root"]["c"][0]["data"] = "costs"
    revised["data"] = {"sales": [], "costs": [{"month": "Jan", "revenue": 1}]}
    result = splice(DASHBOARD, CHART, revised)
    assert result["data"]["costs"] == [{"month": "Jan", "revenue": 1}]
    # The chart alone read "sales", so the revision may change it.
    assert result["data"]["sales"] == []
    assert result["data"]["staff"] == DASHBOARD["data"]["staff"]


@pytest.mark.parametrize(
    "where",
    ["", "/root", "/root/c", "/root/c/9", "/root/c/x", "/root/c/0/c/0", "/state/region", "c/0"],
)
def test_a_pointer_that_names_no_element_below_the_page_is_refused(where: str) -> None:
    with pytest.raises(SubtreeError):
        node_path(DASHBOARD, where)
    with pytest.raises(SubtreeError):
        extract(DASHBOARD, where)


@pytest.mark.parametrize("revised", [{}, {"root": {"t": "page"}}, {"root": {"t": "page", "c": []}}])
def test_a_revision_without_an_element_is_refused(revised: dict[str, Any]) -> None:
    with pytest.raises(SubtreeError, match="no element"):
        splice(DASHBOARD, CHART, revised)


def test_the_streaming_preview_shows_the_old_node_until_the_new_one_begins() -> None:
    assert splice_partial(DASHBOARD, CHART, {"title": "Sa"}) == DASHBOARD
    assert splice_partial(DASHBOARD, CHART, {"root": {"t": "page", "c": []}}) == DASHBOARD
    partial = {"root": {"t": "page", "c": [{"t": "chart", "kind": "b"}]}}
    shown = splice_partial(DASHBOARD, CHART, partial)
    assert shown["root"]["c"][1]["c"][0] == {"t": "chart", "kind": "b"}
    assert shown["root"]["c"][2] == DASHBOARD["root"]["c"][2]
    assert splice_partial(DASHBOARD, "/root/c/42", partial) == DASHBOARD


@pytest.mark.parametrize("component", list(components().values()), ids=lambda c: c.name)
def test_splicing_back_what_was_extracted_changes_nothing(component: Component) -> None:
    spec = ui4a.repair(json.loads(example_path(component).read_text())).spec
    assert spec is not None
    for ref in walk(spec):
        if ref.depth == 0:
            continue
        where = pointer(ref.path)
        assert dumps(splice(spec, where, extract(spec, where))) == dumps(spec), where


# Random specs for the property tests: a few components that read state and datasets, with ids
# drawn from a small pool so revisions clash with the elements around them.
KEYS = st.sampled_from(["a", "b", "c", "d"])
IDS = st.one_of(st.none(), st.sampled_from(["n1", "n2", "n3", "x"]))
LEAVES = st.one_of(
    st.builds(lambda k, w: {"t": "text", "text": f"{w} {{{k}}}"}, KEYS, st.text(max_size=5)),
    st.builds(lambda k: {"t": "input", "label": "L", "bind": k}, KEYS),
    st.builds(lambda k: {"t": "button", "label": "B", "on": {"do": "toggle", "path": k}}, KEYS),
    st.builds(
        lambda d: {"t": "table", "data": d, "cols": ["x"]}, st.sampled_from(["s1", "s2", "s3"])
    ),
)


def _with_id(node: dict[str, Any], node_id: str | None) -> dict[str, Any]:
    return {**node, "id": node_id} if node_id else node


NODES = st.recursive(
    st.builds(_with_id, LEAVES, IDS),
    lambda kids: st.builds(
        lambda kind, c, node_id: _with_id({"t": kind, "c": c}, node_id),
        st.sampled_from(["stack", "card"]),
        st.lists(kids, min_size=1, max_size=3),
        IDS,
    ),
    max_leaves=8,
)
STATE = st.dictionaries(KEYS, st.one_of(st.integers(-5, 5), st.text(max_size=4), st.booleans()))
DATA = st.dictionaries(
    st.sampled_from(["s1", "s2", "s3"]), st.lists(st.fixed_dictionaries({"x": st.integers()}))
)


def spec_of(
    nodes: list[dict[str, Any]], state: dict[str, Any], data: dict[str, Any]
) -> dict[str, Any]:
    return {"title": "T", "root": {"t": "page", "c": nodes}, "state": state, "data": data}


@settings(max_examples=150, deadline=None)
@given(
    nodes=st.lists(NODES, min_size=1, max_size=4),
    state=STATE,
    data=DATA,
    revised_nodes=st.lists(NODES, min_size=1, max_size=3),
    revised_state=STATE,
    revised_data=DATA,
    choice=st.integers(min_value=0),
)
def test_a_splice_never_changes_what_lies_outside_the_node(
    nodes: list[dict[str, Any]],
    state: dict[str, Any],
    data: dict[str, Any],
    revised_nodes: list[dict[str, Any]],
    revised_state: dict[str, Any],
    revised_data: dict[str, Any],
    choice: int,
) -> None:
    # A stored base spec is repaired: unique ids, a state key for every key read.
    spec = ui4a.repair(spec_of(nodes, state, data)).spec
    assert spec is not None
    state = spec["state"]
    before = dumps(spec)
    refs = [ref for ref in walk(spec) if ref.depth > 0]
    ref = refs[choice % len(refs)]
    where = pointer(ref.path)
    revised = spec_of(revised_nodes, revised_state, revised_data)
    result = splice(spec, where, revised)
    assert dumps(spec) == before  # the input is untouched

    # Cut the node out of the original and the inserted elements out of the result: the rest
    # is the same, byte for byte.
    *parent, index = ref.path
    assert isinstance(index, int)
    outside_before, outside_after = copy.deepcopy(spec), copy.deepcopy(result)
    del _at(outside_before, parent)[index]
    del _at(outside_after, parent)[index : index + len(revised_nodes)]
    assert dumps(outside_after["root"]) == dumps(outside_before["root"])
    assert result["title"] == spec["title"]

    # State and datasets the outside reads keep their values; none are lost.
    read_outside = {r.key for r in state_references(outside_before)}
    for key, value in state.items():
        assert key in result["state"]
        if key in read_outside or key not in revised_state:
            assert dumps(result["state"][key]) == dumps(value)
    for name, rows in data.items():
        if name not in revised_data:
            assert result["data"][name] == rows

    # The inserted elements are the revision's, ids aside, and every id is unique.
    inserted = _at(result, parent)[index : index + len(revised_nodes)]
    assert _without_ids(inserted) == _without_ids(revised_nodes)
    ids = [r.node["id"] for r in walk(result) if "id" in r.node]
    assert len(ids) == len(set(ids))

    # Splicing back what was extracted gives the original.
    assert dumps(splice(spec, where, extract(spec, where))) == before


def _at(spec: dict[str, Any], path: list[str | int]) -> Any:
    value: Any = spec
    for step in path:
        value = value[step]
    return value


def _without_ids(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_ids(v) for k, v in value.items() if k != "id"}
    if isinstance(value, list):
        return [_without_ids(v) for v in value]
    return value
