"""ui4a.ground_names: the names a model nearly got right become the tables' real ones, in the
query and in every node reading it; anything else is left for resolve_data to report."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import ui4a
from ui4a.tables import Column, Table

LOANS = Table(
    "library_loans",
    (
        Column("checkout_day", "date"),
        Column("branch", "category"),
        Column("late_fee", "number"),
    ),
    [
        {"checkout_day": "2025-03-02", "branch": "Central", "late_fee": 1.5},
        {"checkout_day": "2025-03-09", "branch": "Riverside", "late_fee": 0.25},
        {"checkout_day": "2025-04-01", "branch": "Central", "late_fee": 2.0},
    ],
)
TABLES = {"library_loans": LOANS}


def dashboard(query: dict[str, Any], **chart: Any) -> dict[str, Any]:
    node = {"t": "chart", "title": "Fees", "data": "fees", "x": "day", "y": ["fees"], **chart}
    return {"root": {"t": "page", "c": [node]}, "data": {"fees": query}}


def test_names_that_exist_are_left_alone() -> None:
    spec = dashboard(
        {"from": "library_loans", "group": "checkout_day:month", "agg": {"late_fee": "sum"}},
        x="checkout_day",
        y=["late_fee"],
    )
    grounded = ui4a.ground_names(spec, TABLES)
    assert grounded.spec == spec and grounded.fixes == []


def test_a_date_bucket_and_a_near_spelling_become_the_real_columns_everywhere() -> None:
    spec = dashboard(
        {"from": "loans", "group": "date:month", "agg": {"late_fees": "sum"}, "sort": "-late_fees"},
        x="date",
        y=["late_fees"],
        filter=["late_fees>=least"],
    )
    before = copy.deepcopy(spec)
    grounded = ui4a.ground_names(spec, TABLES)
    assert spec == before  # a copy; the input is never modified
    query = grounded.spec["data"]["fees"]
    assert query == {
        "from": "library_loans",
        "group": "checkout_day:month",
        "agg": {"late_fee": "sum"},
        "sort": "-late_fee",
    }
    chart = grounded.spec["root"]["c"][0]
    assert (chart["x"], chart["y"], chart["filter"]) == (
        "checkout_day",
        ["late_fee"],
        ["late_fee>=least"],
    )
    assert "/data/fees/from: read dataset 'loans' as 'library_loans'" in grounded.fixes
    resolved = ui4a.resolve_data(grounded.spec, TABLES)
    assert resolved.problems == [] and resolved.spec is not None
    assert resolved.spec["data"]["fees"] == [  # sorted by the fee, largest first
        {"checkout_day": "2025-04", "late_fee": 2.0},
        {"checkout_day": "2025-03", "late_fee": 1.75},
    ]


def test_a_repeated_name_for_a_bucket_is_dropped_and_a_chart_axis_follows_its_query() -> None:
    spec = dashboard(
        {"from": "library_loans", "group": "branch:branch", "agg": {"loans": "count"}},
        x="library",
        y=["number"],
    )
    grounded = ui4a.ground_names(spec, TABLES)
    assert grounded.spec["data"]["fees"]["group"] == "branch"
    chart = grounded.spec["root"]["c"][0]
    assert (chart["x"], chart["y"]) == ("branch", ["loans"])  # the only key, the only output


def test_a_name_with_no_plausible_column_is_left_for_resolve_to_report() -> None:
    spec = dashboard({"from": "library_loans", "group": "genre", "agg": {"late_fee": "sum"}})
    grounded = ui4a.ground_names(spec, TABLES)
    assert grounded.spec["data"]["fees"]["group"] == "genre"
    problems = ui4a.resolve_data(grounded.spec, TABLES).problems
    assert any("genre" in p.message for p in problems)


def test_inline_records_and_specs_without_tables_pass_through() -> None:
    inline = {"root": {"t": "page", "c": []}, "data": {"d": [{"a": 1}]}}
    assert ui4a.ground_names(inline, TABLES).spec is inline
    query = dashboard({"from": "x", "group": "y"})
    assert ui4a.ground_names(query, {}).spec is query


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
QUERY = st.fixed_dictionaries(
    {"from": st.sampled_from(["library_loans", "loans", "x"])},
    optional={
        "group": JSON | st.sampled_from(["date:month", "branch", "branch:x"]),
        "agg": JSON | st.dictionaries(st.text(max_size=8), st.sampled_from(["sum", "count"])),
        "columns": JSON,
        "sort": JSON,
    },
)


@settings(max_examples=300, deadline=None)
@given(query=QUERY, x=JSON, y=JSON, cols=JSON, filters=JSON)
def test_grounding_never_raises(query: Any, x: Any, y: Any, cols: Any, filters: Any) -> None:
    node = {"t": "table", "data": "fees", "x": x, "y": y, "cols": cols, "filter": filters}
    spec = {"root": {"t": "page", "c": [node]}, "data": {"fees": query}}
    ui4a.resolve_data(ui4a.ground_names(spec, TABLES).spec, TABLES)
