"""Queries over uploaded datasets in a spec's "data": their checks, their results, and how
resolve_data inlines them within a byte budget, paging what does not fit with a note."""

from __future__ import annotations

import copy
import datetime
import json
import math
import random
import time
from collections import defaultdict
from typing import Any

import jsonschema  # type: ignore[import-untyped]  # no stubs pinned in dev deps
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ui4a
from ui4a.aggregate import run_query
from ui4a.diff import diff
from ui4a.edit import apply_edit
from ui4a.queries import MAX_QUERY_ROWS, QUERY_SCHEMA, parse_query
from ui4a.registry import components, example_path
from ui4a.resolve import DATA_NOTES_KEY, json_bytes
from ui4a.tables import Column, Table

REGIONS = ("North", "South", "East", "West")
SALES_COLUMNS = (
    Column("date", "date"),
    Column("region", "category"),
    Column("revenue", "number"),
    Column("units", "number"),
    Column("paid", "boolean"),
)


def sales(n: int, seed: int = 7) -> Table:
    """n orders over 2025, deterministic."""
    rnd = random.Random(seed)
    start = datetime.date(2025, 1, 1)
    rows = [
        {
            "date": (start + datetime.timedelta(days=rnd.randrange(365))).isoformat(),
            "region": rnd.choice(REGIONS),
            "revenue": round(rnd.uniform(1, 500), 2),
            "units": rnd.randrange(1, 20),
            "paid": rnd.random() < 0.8,
        }
        for _ in range(n)
    ]
    return Table("sales", SALES_COLUMNS, rows)


SMALL = Table(
    "sales",
    SALES_COLUMNS,
    [
        {"date": "2025-03-02", "region": "North", "revenue": 10.5, "units": 1, "paid": True},
        {"date": "2025-03-03", "region": "South", "revenue": 0.1, "units": 2, "paid": False},
        {"date": "2025-03-09", "region": "North", "revenue": 0.2, "units": None, "paid": True},
        {"date": "2025-04-01", "region": None, "revenue": 4, "units": 5, "paid": True},
        {"date": None, "region": "East", "revenue": None, "units": 3, "paid": False},
    ],
)


def spec_with(data: dict[str, Any], *nodes: dict[str, Any]) -> dict[str, Any]:
    return {"root": {"t": "page", "c": list(nodes)}, "state": {}, "data": data}


def rows_of(query: dict[str, Any], table: Table = SMALL) -> list[dict[str, Any]]:
    resolved = ui4a.resolve_data(spec_with({"q": query}), {table.name: table})
    assert resolved.problems == []
    assert resolved.spec is not None
    rows: list[dict[str, Any]] = resolved.spec["data"]["q"]
    return rows


def problems_of(query: dict[str, Any]) -> list[tuple[str, str, str]]:
    resolved = ui4a.resolve_data(spec_with({"q": query}), {"sales": SMALL})
    return [(p.path, p.code, p.message) for p in resolved.problems]


# Results -------------------------------------------------------------------------------------


def test_it_groups_by_month_with_sums_and_counts() -> None:
    rows = rows_of(
        {"from": "sales", "group": "date:month", "agg": {"revenue": "sum", "orders": "count"}}
    )
    # 0.1 + 0.2 + 10.5 without binary noise; the undated row is its own group, last.
    assert rows == [
        {"date": "2025-03", "revenue": 10.8, "orders": 3},
        {"date": "2025-04", "revenue": 4, "orders": 1},
        {"date": None, "revenue": 0, "orders": 1},
    ]


def test_it_labels_days_weeks_by_their_monday_and_years() -> None:
    def keys(bucket: str) -> list[object]:
        rows = rows_of({"from": "sales", "group": f"date:{bucket}", "agg": {"n": "count"}})
        return [r["date"] for r in rows]

    assert keys("day") == ["2025-03-02", "2025-03-03", "2025-03-09", "2025-04-01", None]
    # 2025-03-02 is a Sunday: its ISO week starts on Monday 2025-02-24.
    assert keys("week") == ["2025-02-24", "2025-03-03", "2025-03-31", None]
    assert keys("year") == ["2025", None]


def test_it_computes_mean_min_max_and_counts_present_values() -> None:
    rows = rows_of(
        {
            "from": "sales",
            "group": "region",
            "agg": {
                "avg": "mean:revenue",
                "low": "min:revenue",
                "first": "min:date",
                "last": "max:date",
                "with_units": "count:units",
            },
        }
    )
    north = next(r for r in rows if r["region"] == "North")
    assert north == {
        "region": "North",
        "avg": 5.35,
        "low": 0.2,
        "first": "2025-03-02",
        "last": "2025-03-09",
        "with_units": 1,
    }
    assert [r["region"] for r in rows] == ["East", "North", "South", None]
    east = rows[0]
    assert east["avg"] is None and east["low"] is None and east["with_units"] == 1


def test_it_rounds_means_to_two_decimals_and_small_ones_to_three_digits() -> None:
    rows = rows_of({"from": "sales", "group": "paid", "agg": {"avg": "mean:revenue"}})
    assert rows == [{"paid": False, "avg": 0.1}, {"paid": True, "avg": 4.9}]
    thirds = Table("t", (Column("v", "number"),), [{"v": 1}, {"v": 1}, {"v": 2}])
    assert rows_of({"from": "t", "agg": {"avg": "mean:v"}}, thirds) == [{"avg": 1.33}]
    tiny = Table("t", (Column("v", "number"),), [{"v": 0.0012345}, {"v": 0.0012345}])
    assert rows_of({"from": "t", "agg": {"avg": "mean:v"}}, tiny) == [{"avg": 0.00123}]


def test_it_groups_by_two_keys() -> None:
    rows = rows_of({"from": "sales", "group": ["date:month", "region"], "agg": {"units": "sum"}})
    assert rows[:3] == [
        {"date": "2025-03", "region": "North", "units": 1},
        {"date": "2025-03", "region": "South", "units": 2},
        {"date": "2025-04", "region": None, "units": 5},
    ]


def test_it_totals_the_whole_table_without_group() -> None:
    assert rows_of({"from": "sales", "agg": {"units": "sum", "n": "count"}}) == [
        {"units": 11, "n": 5}
    ]
    empty = Table("sales", SALES_COLUMNS, [])
    assert rows_of({"from": "sales", "agg": {"units": "sum", "n": "count"}}, empty) == [
        {"units": 0, "n": 0}
    ]


def test_it_sorts_descending_with_missing_values_last_and_keeps_the_top() -> None:
    rows = rows_of({"from": "sales", "columns": ["region", "revenue"], "sort": "-revenue"})
    assert [r["revenue"] for r in rows] == [10.5, 4, 0.2, 0.1, None]
    top = rows_of({"from": "sales", "columns": ["revenue"], "sort": "revenue", "limit": 2})
    assert top == [{"revenue": 0.1}, {"revenue": 0.2}]


def test_it_returns_raw_rows_with_the_columns_asked_for_in_table_order_otherwise() -> None:
    assert rows_of({"from": "sales", "columns": ["units", "date"], "limit": 1}) == [
        {"units": 1, "date": "2025-03-02"}
    ]
    assert list(rows_of({"from": "sales", "limit": 1})[0]) == [c.name for c in SALES_COLUMNS]


def test_it_aggregates_50000_rows_into_12_monthly_points_equal_to_an_independent_sum() -> None:
    table = sales(50_000)
    expected: dict[str, list[float]] = defaultdict(list)
    for row in table.rows:
        expected[row["date"][:7]].append(row["revenue"])
    query = {"from": "sales", "group": "date:month", "agg": {"revenue": "sum", "orders": "count"}}
    start = time.perf_counter()
    resolved = ui4a.resolve_data(spec_with({"monthly": query}), {"sales": table})
    elapsed = time.perf_counter() - start
    assert resolved.problems == [] and resolved.spec is not None
    rows = resolved.spec["data"]["monthly"]
    assert [r["date"] for r in rows] == [f"2025-{m:02d}" for m in range(1, 13)]
    for row in rows:
        values = expected[row["date"]]
        assert row["orders"] == len(values)
        assert row["revenue"] == pytest.approx(sum(values), rel=1e-9)
    assert sum(r["orders"] for r in rows) == 50_000
    assert elapsed < 1.0, f"50,000 rows took {elapsed:.2f}s"


def test_it_stays_linear_on_100000_rows() -> None:
    table = sales(100_000, seed=3)
    query = parse_query(
        {"from": "sales", "group": ["date:week", "region"], "agg": {"r": "sum:revenue"}},
        ("data", "q"),
    )[0]
    assert query is not None
    start = time.perf_counter()
    result = run_query(query, table)
    assert time.perf_counter() - start < 1.0
    assert sum(1 for _ in result.rows) == 53 * 4


# Problems ------------------------------------------------------------------------------------


def test_it_reports_an_unknown_dataset_and_column() -> None:
    assert problems_of({"from": "orders"}) == [
        ("/data/q/from", "unknown_dataset", "no uploaded dataset 'orders'")
    ]
    assert problems_of({"from": "sales", "group": "store", "agg": {"n": "count"}}) == [
        ("/data/q/group", "bad_value", "dataset 'sales' has no column 'store'")
    ]
    assert problems_of({"from": "sales", "columns": ["date", "price"]}) == [
        ("/data/q/columns/1", "bad_value", "dataset 'sales' has no column 'price'")
    ]


def test_it_refuses_sums_of_text_and_buckets_of_non_dates() -> None:
    assert problems_of({"from": "sales", "group": "date:month", "agg": {"r": "sum:region"}}) == [
        ("/data/q/agg/r", "bad_value", "'sum' needs a number column; 'region' is category")
    ]
    assert problems_of({"from": "sales", "group": "region", "agg": {"d": "max:paid"}}) == [
        ("/data/q/agg/d", "bad_value", "'max' needs a number or date column; 'paid' is boolean")
    ]
    assert problems_of({"from": "sales", "group": "units:month", "agg": {"n": "count"}}) == [
        ("/data/q/group", "bad_value", "'month' buckets need a date column; 'units' is number")
    ]
    # "count" of any column, and min/max of dates, are fine.
    assert problems_of({"from": "sales", "group": "region", "agg": {"d": "min:date"}}) == []


def test_it_reports_a_bad_bucket_limit_sort_and_shape() -> None:
    found = problems_of({"from": "sales", "group": "date:fortnight", "agg": {"n": "count"}})
    assert found == [
        ("/data/q/group", "bad_value", "dataset 'sales' has no column 'date:fortnight'")
    ]
    for limit in (0, 1001, "12", 2.5, True):
        assert [p[:2] for p in problems_of({"from": "sales", "limit": limit})] == [
            ("/data/q/limit", "bad_value")
        ]
    assert problems_of({"from": "sales", "columns": ["date"], "sort": "revenue"}) == [
        ("/data/q/sort", "bad_value", "'revenue' is not a column of the result")
    ]
    assert [p[:2] for p in problems_of({"from": "sales", "where": "x", "agg": {"n": "avg"}})] == [
        ("/data/q/where", "unknown_field"),
        ("/data/q/agg/n", "bad_value"),
    ]
    assert [p[:2] for p in problems_of({"from": "sales", "group": "region", "columns": ["a"]})] == [
        ("/data/q/columns", "bad_value")
    ]
    assert [p[:2] for p in problems_of({"group": "region"})] == [("/data/q/from", "missing_field")]


# The spec format -----------------------------------------------------------------------------

MONTHLY = {"from": "sales", "group": "date:month", "agg": {"revenue": "sum"}, "limit": 12}
CHART = {"t": "chart", "title": "Revenue", "data": "monthly", "x": "date", "y": ["revenue"]}


def test_the_schema_validation_and_repair_accept_a_query_beside_inline_records() -> None:
    spec = spec_with({"monthly": MONTHLY, "notes": [{"text": "hi"}]}, CHART)
    jsonschema.validate(spec, ui4a.json_schema())
    assert ui4a.validate(spec) == []
    assert ui4a.repair(spec).problems == []
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(spec_with({"monthly": {"from": "sales", "x": 1}}), ui4a.json_schema())


TRIPS = Table("trips", (Column("started", "date"), Column("station", "category")))


@pytest.mark.parametrize(
    "query",
    [
        MONTHLY,
        {"from": "sales", "group": ["region", "date:week"], "agg": {"n": "count"}},
        {"from": "sales", "group": "region", "agg": {"paid": "count:paid"}},
        {"from": "sales", "agg": {"revenue": "mean", "top": "max:units", "last": "max:date"}},
        {"from": "sales", "columns": ["date", "paid"], "sort": "-date", "limit": 20},
        {"from": "trips", "group": "started:day"},
    ],
)
def test_over_a_projects_tables_a_query_may_read_them(query: dict[str, Any]) -> None:
    spec = spec_with({"monthly": query}, CHART)
    jsonschema.validate(spec, ui4a.json_schema_over([SMALL, TRIPS]))


@pytest.mark.parametrize(
    "query",
    [
        {"from": "orders", "group": "date:month"},  # no such dataset
        {"from": "sales", "group": "day:month"},  # no such column
        {"from": "sales", "group": "region:month"},  # a bucket of a category
        {"from": "sales", "agg": {"region": "sum"}},  # the sum of a category
        {"from": "sales", "agg": {"loans": "sum"}},  # bare, named after no column
        {"from": "sales", "agg": {"total": "sum:price"}},
        {"from": "sales", "agg": {"total": "mean:date"}},
        {"from": "sales", "columns": ["station"]},  # the other dataset's column
        {"from": "trips", "columns": ["revenue"]},
    ],
)
def test_over_a_projects_tables_a_query_cannot_name_what_they_lack(query: dict[str, Any]) -> None:
    spec = spec_with({"monthly": query}, CHART)
    jsonschema.validate(spec, ui4a.json_schema())  # the shape alone allows each of them
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(spec, ui4a.json_schema_over([SMALL, TRIPS]))


@pytest.mark.parametrize("limit", [0, MAX_QUERY_ROWS + 1])
def test_a_query_limit_is_bounded_even_by_the_shape_alone(limit: int) -> None:
    """So that a looping model cannot spell a limit of a hundred digits."""
    spec = spec_with({"monthly": {"from": "sales", "limit": limit}}, CHART)
    for schema in (ui4a.json_schema(), ui4a.json_schema_over([SMALL, TRIPS])):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(spec, schema)


def test_past_the_grammar_cap_a_projects_queries_decode_by_shape() -> None:
    """A project whose names would make the per-request grammar too costly to compile gets the
    shape-only query schema (its queries checked after), never an unbounded grammar."""
    wide = [Table(f"t{i}", tuple(Column(f"c{j}", "number") for j in range(60))) for i in range(20)]
    data = ui4a.json_schema_over(wide)["properties"]["data"]["additionalProperties"]
    assert data["anyOf"][1] == QUERY_SCHEMA
    narrow = ui4a.json_schema_over(wide[:2])["properties"]["data"]["additionalProperties"]
    assert [o["properties"]["from"] for o in narrow["anyOf"][1:]] == [
        {"enum": ["t0"]},
        {"enum": ["t1"]},
    ]


def test_validation_checks_a_query_shape_without_tables() -> None:
    spec = spec_with({"monthly": {"from": "sales", "limit": 5000}}, CHART)
    assert [(p.path, p.code) for p in ui4a.validate(spec)] == [("/data/monthly/limit", "bad_value")]


def test_repair_reads_sql_names_and_a_limit_in_quotes() -> None:
    query = {"from": "sales", "group": "region", "agg": {"r": "AVG:revenue"}, "limit": "5"}
    fixed = ui4a.repair(spec_with({"monthly": query}, CHART))
    assert fixed.problems == []
    assert fixed.spec is not None
    assert fixed.spec["data"]["monthly"] == {
        "from": "sales",
        "group": "region",
        "agg": {"r": "mean:revenue"},
        "limit": 5,
    }
    assert "/data/monthly/agg/r: read 'AVG' as 'mean'" in fixed.fixes


def test_hand_edits_and_diffs_keep_queries_as_they_are() -> None:
    spec = spec_with({"monthly": MONTHLY}, CHART)
    edited, _label = apply_edit(
        spec, {"op": "set", "path": "/root/c/0", "field": "kind", "value": "line"}
    )
    assert edited["data"] == spec["data"]
    other = spec_with({"monthly": {**MONTHLY, "limit": 6}}, CHART)
    assert [(c.change, c.node) for c in diff(spec, other)] == [("changed", "data")]


def test_it_buckets_timestamps_by_their_day() -> None:
    stamps = Table("t", (Column("at", "date"),), [{"at": "2025-03-02T23:59:00"}, {"at": "x"}])
    assert rows_of({"from": "t", "group": "at:day", "agg": {"n": "count"}}, stamps) == [
        {"at": "2025-03-02", "n": 1},
        {"at": None, "n": 1},
    ]


def test_an_unresolved_query_renders_the_placeholder_and_a_resolved_one_its_rows() -> None:
    spec = spec_with({"monthly": MONTHLY}, CHART, {"t": "table", "data": "monthly"})
    html = ui4a.render_body(spec)
    assert "u4-chart-pending" in html and "Loading…" in html
    resolved = ui4a.resolve_data(spec, {"sales": SMALL})
    assert resolved.spec is not None
    done = ui4a.render_body(resolved.spec)
    assert "u4-chart-pending" not in done and "Loading…" not in done
    assert "<td>2025-03</td><td>10.8</td>" in done


def test_a_half_streamed_query_never_crashes_and_waits_for_its_end() -> None:
    text = json.dumps(spec_with({"top": MONTHLY, "monthly": MONTHLY}, CHART))
    cache: dict[Any, Any] = {}
    for end in range(text.index('"data"'), len(text) + 1, 3):
        spec = ui4a.parse_partial(text[:end])
        resolved = ui4a.resolve_data(spec, {"sales": SMALL}, partial=True, cache=cache)
        html = ui4a.render_body(resolved.spec, partial=True)
        if resolved.spec is not None and resolved.spec.get("data", {}).get("monthly") == []:
            raise AssertionError(f"the growing last query was resolved at {text[:end]!r}")
        assert "u4-chart" in html
    # "group": "date" is a valid query before ":month" arrives: the last entry must wait.
    half = ui4a.parse_partial(text[: text.rindex("date:month") + 4])
    assert half is not None and half["data"]["monthly"]["group"] == "date"
    resolved = ui4a.resolve_data(half, {"sales": SMALL}, partial=True)
    assert resolved.spec is not None and resolved.spec["data"]["monthly"] == half["data"]["monthly"]
    assert isinstance(resolved.spec["data"]["top"], list)


def test_a_query_with_a_problem_renders_empty_with_a_note_and_keeps_the_input() -> None:
    item = {"t": "text", "text": "{.date}"}
    nodes = (
        CHART,
        {"t": "table", "data": "monthly"},
        {"t": "list", "data": "monthly", "c": [item]},
    )
    spec = spec_with({"monthly": {"from": "salez"}}, *nodes)
    before = copy.deepcopy(spec)
    resolved = ui4a.resolve_data(spec, {"sales": SMALL})
    assert spec == before
    assert resolved.notes == {"monthly": "Can't show this data: no uploaded dataset 'salez'"}
    assert resolved.spec is not None
    html = ui4a.render_body(resolved.spec)
    assert html.count('class="u4-data-note" role="note">Can&#39;t show this data') == 3


def test_client_side_filters_narrow_resolved_rows() -> None:
    table = {"t": "table", "data": "recent", "cols": ["region", "units"], "filter": ["region=r"]}
    spec = spec_with({"recent": {"from": "sales", "columns": ["region", "units"]}}, table)
    spec["state"] = {"r": "South"}
    resolved = ui4a.resolve_data(spec, {"sales": SMALL})
    assert resolved.spec is not None
    html = ui4a.render_body(resolved.spec)
    assert "<td>South</td>" in html and "<td>North</td>" not in html
    assert "1\u20131 of 1" in html


def test_a_chart_sums_points_that_share_an_x_label() -> None:
    query = {"from": "sales", "group": ["date:month", "region"], "agg": {"units": "sum"}}
    chart = {**CHART, "y": ["units"]}
    resolved = ui4a.resolve_data(spec_with({"monthly": query}, chart), {"sales": SMALL})
    assert resolved.spec is not None
    html = ui4a.render_body(resolved.spec)
    assert "<td>2025-03</td><td>3</td>" in html  # North's 1 and South's 2


def test_every_prefix_of_a_query_parses_validates_repairs_and_renders() -> None:
    query = {"from": "sales", "group": ["date:week", "region"], "agg": {"r": "sum:revenue"}}
    text = json.dumps(spec_with({"q": {**query, "sort": "-r", "limit": 5}}, CHART))
    for end in range(text.index('"data"'), len(text) + 1):
        spec = ui4a.parse_partial(text[:end])
        ui4a.validate(spec)
        ui4a.repair(spec)
        html = ui4a.render_body(spec, partial=True)
        assert "u4-chart-pending" in html or end == len(text)


def test_a_stream_cache_evaluates_a_query_once_per_table() -> None:
    spec = spec_with({"monthly": MONTHLY, "last": [{"a": 1}]}, CHART)
    cache: dict[str, Any] = {}
    first = ui4a.resolve_data(spec, {"sales": SMALL}, partial=True, cache=cache)
    again = ui4a.resolve_data(spec, {"sales": SMALL}, partial=True, cache=cache)
    assert first.spec is not None and again.spec is not None
    assert len(cache) == 1
    assert again.spec["data"]["monthly"] == first.spec["data"]["monthly"]
    # A new table under the same name (a re-upload) is evaluated afresh.
    grown = Table("sales", SALES_COLUMNS, [*SMALL.rows, {**SMALL.rows[0], "revenue": 100}])
    fresh = ui4a.resolve_data(spec, {"sales": grown}, partial=True, cache=cache)
    assert fresh.spec is not None
    assert fresh.spec["data"]["monthly"][0]["revenue"] == 110.8


def test_a_view_reads_a_bounded_number_of_rows_and_runs_a_bounded_number_of_queries() -> None:
    table = sales(3_000)
    data = {f"q{i}": {"from": "sales", "agg": {"n": "count"}} for i in range(6)}
    resolved = ui4a.resolve_data(spec_with(data), {"sales": table}, max_rows_read=7_000)
    assert resolved.spec is not None
    assert [resolved.spec["data"][f"q{i}"] for i in range(2)] == [[{"n": 3_000}]] * 2
    assert [(p.path, p.code) for p in resolved.problems] == [
        (f"/data/q{i}", "too_large") for i in range(2, 6)
    ]
    assert resolved.notes["q2"] == (
        "Can't show this data: reading 'sales' would take this view past 7,000 rows read"
    )
    many = ui4a.resolve_data(spec_with(data), {"sales": table})
    assert [p.message for p in many.problems] == ["at most 4 queries in one view"] * 2


# Budget --------------------------------------------------------------------------------------


def test_it_pages_what_exceeds_the_budget_and_says_so() -> None:
    table = sales(5_000)
    data = {"recent": {"from": "sales", "sort": "-date"}, "monthly": MONTHLY}
    nodes = ({"t": "table", "data": "recent"}, CHART)
    resolved = ui4a.resolve_data(spec_with(data, *nodes), {"sales": table}, max_bytes=20_000)
    assert resolved.spec is not None
    recent, monthly = resolved.spec["data"]["recent"], resolved.spec["data"]["monthly"]
    assert len(monthly) == 12  # the small aggregate fits whole
    assert 0 < len(recent) < 300
    assert json_bytes(recent) + json_bytes(monthly) <= 20_000
    assert resolved.notes == {"recent": f"Showing {len(recent):,} of 5,000 rows"}
    assert resolved.spec[DATA_NOTES_KEY] == resolved.notes
    assert recent == sorted(recent, key=lambda r: r["date"], reverse=True)
    html = ui4a.render_body(resolved.spec)
    assert f"Showing {len(recent):,} of 5,000 rows" in html


def test_it_cuts_a_result_at_the_row_cap_with_a_note() -> None:
    table = sales(3_000)
    resolved = ui4a.resolve_data(
        spec_with({"ids": {"from": "sales", "columns": ["units"]}}), {"sales": table}
    )
    assert resolved.spec is not None
    assert len(resolved.spec["data"]["ids"]) == MAX_QUERY_ROWS
    assert resolved.notes == {"ids": "Showing 1,000 of 3,000 rows"}
    ui4a.render_body(resolved.spec)  # within the view's limits


def test_the_resolved_spec_always_fits_the_view_limits() -> None:
    wide = Table(
        "wide",
        tuple(Column(f"c{i}", "text") for i in range(12)),
        [{f"c{i}": "x" * 50 for i in range(12)} for _ in range(1_000)],
    )
    data = {f"d{i}": {"from": "wide"} for i in range(4)}
    spec = spec_with(data, *({"t": "table", "data": f"d{i}"} for i in range(4)))
    resolved = ui4a.resolve_data(spec, {"wide": wide}, max_bytes=10**9)
    assert resolved.spec is not None
    assert json_bytes(resolved.spec) <= ui4a.DEFAULT_LIMITS.max_bytes
    ui4a.render_document(resolved.spec)
    assert set(resolved.notes) == {f"d{i}" for i in range(4)}


def test_the_chart_docs_example_resolves_and_draws_twelve_months() -> None:
    example = json.loads(
        example_path(components()["chart"]).with_name("example_query.json").read_text()
    )
    assert ui4a.validate(example) == [] and ui4a.repair(example).problems == []
    jsonschema.validate(example, ui4a.json_schema())
    resolved = ui4a.resolve_data(example, {"sales": sales(2_000)})
    assert resolved.problems == [] and resolved.notes == {}
    assert resolved.spec is not None
    assert len(resolved.spec["data"]["monthly"]) == 48  # 12 months by 4 regions
    html = ui4a.render_body(resolved.spec)
    assert html.count("<td>2025-") == 12 + 10  # the chart's 12 points, the table's first page


# Property ------------------------------------------------------------------------------------

CELLS: dict[str, st.SearchStrategy[Any]] = {
    "number": st.one_of(st.integers(-(10**20), 10**20), st.floats(-1e300, 1e300)),
    "date": st.dates().map(lambda d: d.isoformat()),
    "category": st.sampled_from(["a", "b", "<c>", "é"]),
    "text": st.text(max_size=30),
    "boolean": st.booleans(),
}
NAMES = ["n", "d", "c", "t", "b", "missing"]


@st.composite
def tables(draw: st.DrawFn) -> Table:
    columns = (
        Column("n", "number"),
        Column("d", "date"),
        Column("c", "category"),
        Column("t", "text"),
        Column("b", "boolean"),
    )
    rows = draw(
        st.lists(
            st.fixed_dictionaries({c.name: st.one_of(st.none(), CELLS[c.type]) for c in columns}),
            max_size=40,
        )
    )
    return Table("t", columns, rows)


KEYS = st.sampled_from(NAMES) | st.sampled_from(["d:day", "d:week", "d:month", "d:year", "n:month"])
OPS = st.sampled_from(["sum", "mean", "count", "min", "max", "avg", "sum:n", "max:d", "count:t"])
QUERIES = st.fixed_dictionaries(
    {"from": st.sampled_from(["t", "u"])},
    optional={
        "group": KEYS | st.lists(KEYS, max_size=3),
        "agg": st.dictionaries(st.sampled_from(["n", "x", "y", "d"]), OPS, max_size=3),
        "columns": st.lists(st.sampled_from(NAMES), max_size=3),
        "sort": st.sampled_from(["n", "-n", "d", "-x", "c", "-"]),
        "limit": st.integers(-1, 1200),
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=tables(), queries=st.lists(QUERIES, min_size=1, max_size=4), budget=st.integers(0, 3000)
)
def test_resolve_never_raises_and_stays_within_its_budget(
    table: Table, queries: list[dict[str, Any]], budget: int
) -> None:
    spec = spec_with({f"q{i}": q for i, q in enumerate(queries)}, CHART)
    resolved = ui4a.resolve_data(spec, {"t": table}, max_bytes=budget)
    assert resolved.spec is not None
    inlined = [resolved.spec["data"][f"q{i}"] for i in range(len(queries))]
    assert all(isinstance(rows, list) for rows in inlined)
    assert sum(json_bytes(rows) for rows in inlined if rows) <= budget
    for i, rows in enumerate(inlined):
        problem = any(p.path.startswith(f"/data/q{i}/") for p in resolved.problems)
        assert not (problem and rows)
        if problem:
            assert resolved.notes[f"q{i}"].startswith("Can't show this data")
    json.dumps(resolved.spec, allow_nan=False)
    ui4a.render_body(resolved.spec)


@settings(max_examples=100, deadline=None)
@given(table=tables(), key=st.sampled_from(["c", "b", "d:week", "d:month", "n"]))
def test_groups_partition_the_rows_whatever_the_key(table: Table, key: str) -> None:
    rows = rows_of({"from": "t", "group": key, "agg": {"k": "count", "x": "sum:n"}}, table)
    assert sum(r["k"] for r in rows) == len(table.rows)
    labels = [r[key.split(":")[0]] for r in rows]
    assert len(set(map(repr, labels))) == len(labels)  # one row per group
    present = [v for v in labels if v is not None]
    assert present == sorted(present)  # group keys ascending, missing last
    assert None not in labels or labels[-1] is None
    numbers = [r["n"] for r in table.rows if r["n"] is not None]
    # Each group's sum keeps 12 significant digits: the error is bounded by the magnitudes.
    slack = 1e-10 * math.fsum(abs(v) for v in numbers) + 1e-9
    assert math.fsum(r["x"] for r in rows) == pytest.approx(math.fsum(numbers), abs=slack)
